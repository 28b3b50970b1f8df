"""The bare-broadcast floor (issue 16): a plain ``websockets`` server that sends one fixed payload to
every connected client whenever one of them says ``go``. Nothing is decoded, validated, stored or
encoded per message: what is left is the cost of the sockets themselves, the floor under any
server that pushes the same bytes to the same clients.

    python bench/floor_server.py PORT PAYLOAD_FILE     # prints "listening" when ready
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from websockets.asyncio.server import ServerConnection, broadcast, serve


async def main(port: int, payload: str) -> None:
    clients: set[ServerConnection] = set()

    async def handle(ws: ServerConnection) -> None:
        clients.add(ws)
        try:
            async for message in ws:
                if message == "go":
                    broadcast(clients, payload)
        finally:
            clients.discard(ws)

    async with serve(handle, "127.0.0.1", port, compression=None, max_size=None):
        print("listening", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), Path(sys.argv[2]).read_text("utf-8")))
