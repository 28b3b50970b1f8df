"""The client's CPU per push in one process, with the machine's noise mostly out (issue 16). Not a test;
run by hand, from the tree to measure:

    python bench/client_in_process.py 2000 5     # 2,000 pushes, 5 alternating rounds

A real :class:`CombatServer` on a fresh SQLite file; the latency fight (bench_server.new_fight, a
spectator seat). Several spectators subscribe without live pushes (``live: false``), so each holds the
view at the same seq; the GM then commands ``adjust`` N times and one more spectator records the N
pushes. Each held client is then fed the recorded pushes as the server's frames, one per turn of the
event loop, into its real websockets connection (``data_received``, as the socket's read callback
does), and this process's CPU time is divided by N:

- ``as parsed``: ``CombatClient`` as it is (each push handed to ``_dispatch`` by ``process_event``);
- ``through recv``: the same client on websockets' plain ``ClientConnection`` (each push through the
  assembler, ``recv`` and a turn of the reader task);
- ``dispatch only``: ``_dispatch(_loads(text))`` called directly, the client's own work.

Rounds alternate the first two; prints each round and the medians, in microseconds per push.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_server as b  # noqa: E402
import orjson  # noqa: E402
from websockets.asyncio.client import ClientConnection  # noqa: E402
from websockets.frames import Frame, Opcode  # noqa: E402

from combat_server.client import CombatClient, PushedEvent, _loads  # noqa: E402
from combat_server.engine.fight import Engine  # noqa: E402
from combat_server.logs import configure_logging  # noqa: E402
from combat_server.server import CombatServer, ServerConfig  # noqa: E402
from combat_server.store.sql import open_store  # noqa: E402


class ThroughRecv(CombatClient):
    """Every message through websockets' ``recv`` (the client before this pass)."""

    _connection = ClientConnection


class Arrived:
    """``on_event``: wakes the feeder when the push it waits for was taken (the same cost on both paths)."""

    def __init__(self) -> None:
        self.waiter: asyncio.Future[None] | None = None
        self.want = 0

    def __call__(self, pushed: PushedEvent) -> None:
        if pushed.seq == self.want and self.waiter is not None:
            self.waiter.set_result(None)


async def _held(url: str, token: str, cls: type[CombatClient]) -> tuple[CombatClient, Arrived]:
    arrived = Arrived()
    client = await cls.connect(url, on_event=arrived)
    await client.subscribe(token, live=False)
    return client, arrived


async def _feed(client: CombatClient, arrived: Arrived, frames: list[tuple[int, bytes]]) -> float:
    """CPU seconds to take ``frames`` (seq, wire bytes), each fed from its own loop callback."""
    loop = asyncio.get_running_loop()
    ws = client._ws
    assert ws is not None
    c0 = time.process_time()
    for seq, frame in frames:
        arrived.want, arrived.waiter = seq, loop.create_future()
        loop.call_soon(ws.data_received, frame)
        await arrived.waiter
    return time.process_time() - c0


async def main(n: int, rounds: int) -> None:
    configure_logging(json=True, level="warning")
    tmp = Path(tempfile.mkdtemp(prefix="combat-client-bench-"))
    store = open_store(f"sqlite:///{tmp / 'fight.sqlite'}", migrate=True)
    server = CombatServer(Engine(store), ServerConfig(port=0, rate=100000, burst=100000, queue_size=4096))
    await server.start()
    try:
        gm, tokens, _ = await b.new_fight(server.ws_url, players=0, spectators=1)
        token = tokens[0]
        held: list[tuple[str, CombatClient, Arrived]] = []
        for _ in range(rounds):
            for name, cls in (("as parsed", CombatClient), ("through recv", ThroughRecv)):
                client, arrived = await _held(server.ws_url, token, cls)
                held.append((name, client, arrived))
        plain, _arrived = await _held(server.ws_url, token, CombatClient)
        recorder = await CombatClient.connect(server.ws_url, record=True)
        await recorder.subscribe(token)
        start = recorder.last_seq
        last = start
        for i in range(n):
            kind, args = b.adjust(i)
            last = (await gm.command(kind, args))["last_seq"]
        await recorder.wait_for_seq(last, 60)
        assert recorder.received is not None
        texts = [(int(m["seq"]), orjson.dumps(m)) for m in recorder.received if m.get("type") == "event"
                 and m["seq"] > start]
        frames = [(seq, Frame(Opcode.TEXT, text).serialize(mask=False)) for seq, text in texts]
        results: dict[str, list[float]] = {"as parsed": [], "through recv": []}
        gc.collect()
        gc.disable()  # as bench_server.py does while measuring: the clients keep every event and view
        for name, client, arrived in held:
            assert client.last_seq == start
            cpu = await _feed(client, arrived, frames)
            assert client.last_seq == last and client.resyncs == 0 and client.state == recorder.state
            results[name].append(cpu * 1e6 / len(frames))
            print(f"{name:<13} {results[name][-1]:6.1f} us per push", flush=True)
        dispatch: Callable[[Any], None] = plain._dispatch
        c0 = time.process_time()
        for _seq, text in texts:
            dispatch(_loads(text.decode()))
        only = (time.process_time() - c0) * 1e6 / len(texts)
        assert plain.last_seq == last
        gc.enable()
        print(f"medians of {rounds}: as parsed {statistics.median(results['as parsed']):.1f} us, through recv "
              f"{statistics.median(results['through recv']):.1f} us, dispatch only {only:.1f} us per push "
              f"({len(frames)} pushes, {len(frames[0][1])} bytes each)", flush=True)
        for _name, client, _arrived in held:
            await client.close()
        for c in (plain, recorder, gm):
            await c.close()
    finally:
        await server.close()
        store.dispose()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000, int(sys.argv[2]) if len(sys.argv) > 2 else 5))
