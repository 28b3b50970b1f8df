"""The server's work per command in one process, for instruction counts that the machine's load does
not move (issue 16). Not a test; run by hand, from the tree to measure:

    python bench/cpu_in_process.py latency 3000        # 1 fight, 8 watchers, the GM commands
    python bench/cpu_in_process.py throughput 3200     # 16 fights, the GM its only watcher, all at once
    # instructions per command: the difference of two lengths under valgrind, divided by their difference
    valgrind --tool=cachegrind --cache-sim=no python bench/cpu_in_process.py latency 100
    valgrind --tool=cachegrind --cache-sim=no python bench/cpu_in_process.py latency 400

A real :class:`CombatServer` on a fresh SQLite file and real websocket connections set up by
``CombatClient``; once subscribed, each client's socket is handed to a protocol that only counts
the pushes and results it receives, and commands are written as ready-made masked frames. So the
client side is the same few lines whatever tree is measured, and the process's CPU (or
instructions) per command is the server's, plus that constant. Prints CPU time per command.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_server as b  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

from combat_server.client import CombatClient, CommandIds  # noqa: E402
from combat_server.engine.fight import Engine  # noqa: E402
from combat_server.logs import configure_logging  # noqa: E402
from combat_server.server import CombatServer, ServerConfig  # noqa: E402
from combat_server.store.sql import open_store  # noqa: E402


class Counting(asyncio.Protocol):
    """A client socket's bytes, counted: pushed events and results (a waiter is woken at ``want``)."""

    def __init__(self) -> None:
        self.events = 0
        self.results = 0
        self.waiter: asyncio.Future[None] | None = None
        self.want: tuple[int, int] = (0, 0)

    def data_received(self, data: bytes) -> None:
        self.events += data.count(b'"type":"event"')
        self.results += data.count(b'"type":"result"')
        if self.waiter is not None and self.events >= self.want[0] and self.results >= self.want[1]:
            waiter, self.waiter = self.waiter, None
            waiter.set_result(None)

    async def until(self, events: int, results: int) -> None:
        if self.events < events or self.results < results:
            self.want = (events, results)
            self.waiter = asyncio.get_running_loop().create_future()
            await self.waiter

    def connection_lost(self, exc: Exception | None) -> None:
        pass


#: The ids ``CombatClient`` makes (ordered: the server's command rows land beside each other, session 14).
_IDS = CommandIds()


def frame(i: int) -> bytes:
    kind, args = b.adjust(i)
    text = json.dumps({"type": "command", "command_id": _IDS(), "command": kind, "args": args})
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=True, extensions=[])


def counted(client: CombatClient) -> tuple[Any, Counting]:
    counter = Counting()
    ws = client._ws
    assert ws is not None
    ws.transport.set_protocol(counter)
    return ws.transport, counter


async def latency(url: str, n: int) -> int:
    # The latency scenario's 8 watchers (the GM, 4 players, 3 spectators); BENCH_PLAYERS / BENCH_SPECTATORS
    # change the count (BENCH_PLAYERS=0 BENCH_SPECTATORS=0: the GM alone, the per-command fixed cost).
    gm, tokens, _ = await b.new_fight(url, players=int(os.environ.get("BENCH_PLAYERS", "4")),
                                      spectators=int(os.environ.get("BENCH_SPECTATORS", "3")))
    clients = [gm]
    for token in tokens:
        c = await CombatClient.connect(url)
        await c.subscribe(token)
        clients.append(c)
    await asyncio.sleep(0.2)
    watchers = [counted(c) for c in clients]
    gm_socket, gm_counter = watchers[0]

    async def command(i: int) -> None:
        want = [w.events + 1 for _, w in watchers]
        gm_socket.write(frame(i))
        for (_, w), events in zip(watchers, want):
            await w.until(events, gm_counter.results + 1 if w is gm_counter else 0)

    for i in range(200):  # warm-up
        await command(i)
    t0 = time.process_time()
    for i in range(200, 200 + n):
        await command(i)
    print(f"latency: {(time.process_time() - t0) * 1000 / n:.3f} ms CPU per command ({len(clients)} watchers)", flush=True)
    return n


async def throughput(url: str, n: int) -> int:
    gms = [(await b.new_fight(url, players=0))[0] for _ in range(16)]
    await asyncio.sleep(0.2)
    pumps = [counted(g) for g in gms]

    async def pump(socket: Any, counter: Counting, count: int) -> None:
        for i in range(count):
            results = counter.results + 1
            socket.write(frame(i))
            await counter.until(0, results)

    await asyncio.gather(*(pump(s, c, 20) for s, c in pumps))  # warm-up
    per = max(1, n // len(pumps))
    t0 = time.process_time()
    await asyncio.gather(*(pump(s, c, per) for s, c in pumps))
    done = per * len(pumps)
    print(f"throughput: {(time.process_time() - t0) * 1000 / done:.3f} ms CPU per command (16 fights)", flush=True)
    return done


async def main(shape: str, n: int) -> None:
    configure_logging(json=True, level="warning")
    # What the first connection and message would load lazily (slow under valgrind: the handshake times out).
    from combat_server.rules.ruleset import rulesets_json
    from combat_server.server import protocol
    rulesets_json()
    protocol.long_text_args()
    for kind in protocol.CLIENT_MESSAGES:
        protocol.validator(kind)
    store = open_store(f"sqlite:///{tempfile.mkdtemp(prefix='combat-bench-')}/cpu.sqlite", migrate=True)
    server = CombatServer(Engine(store), ServerConfig(port=0, rate=100000, burst=100000, queue_size=4096))
    await server.start()
    await (latency if shape == "latency" else throughput)(server.ws_url, n)
    os._exit(0)  # the counted sockets cannot close cleanly; nothing is left to flush


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("latency", "throughput"):
        sys.exit(__doc__)
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3000))
