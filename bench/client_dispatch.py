"""A client's own work per live push, counted (issue 16): ``CombatClient._dispatch`` of recorded pushes, with
no socket and no event loop turning. Not a test; run by hand:

    python bench/client_dispatch.py record                 # once: /tmp/combat-client-pushes/*.jsonl
    python bench/client_dispatch.py time spectator         # microseconds per push, medians of 7 rounds
    PYTHONHASHSEED=0 bench/instructions.sh client          # instructions per push (cachegrind; BENCH_SEAT=gm ...)

``record`` (``instructions.sh client`` runs it first if nothing was recorded) runs a real :class:`CombatServer` on a fresh SQLite file with the latency fight
(bench_server.new_fight), subscribes a spectator, a player and the GM (each also with ``verify_chain``), has
the GM command ``adjust`` 2,000 times (one HP each: the push of ``bench_server.py latency``) and writes what
each received: the ``welcome``, the ``subscribed`` with its full view, the catch-up and the live pushes.
``client N`` (what ``instructions.sh client`` runs under valgrind, N = 500 and 2,000) feeds a fresh client
the first messages and then N pushes through ``_dispatch(_loads(text))``, as ``bench/client_in_process.py``'s
"dispatch only" does; the garbage collector is off, as in the benchmarks.

The tree measured is the one ``combat_server`` is imported from: run from it, or set ``PYTHONPATH`` (this
file puts nothing before it on ``sys.path`` but its own directory, for ``bench_server``).
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent))  # bench_server, after the tree measured

DIR = Path(tempfile.gettempdir()) / "combat-client-pushes"
SEATS = ("spectator", "player", "gm", "spectator_chain", "player_chain", "gm_chain")


async def record(n: int) -> None:
    import bench_server as b
    import orjson

    from combat_server.client import CombatClient
    from combat_server.engine.fight import Engine
    from combat_server.logs import configure_logging
    from combat_server.server import CombatServer, ServerConfig
    from combat_server.store.sql import open_store

    configure_logging(json=True, level="warning")
    tmp = Path(tempfile.mkdtemp(prefix="combat-client-record-"))
    store = open_store(f"sqlite:///{tmp / 'fight.sqlite'}", migrate=True)
    server = CombatServer(Engine(store), ServerConfig(port=0, rate=100000, burst=100000, queue_size=4096))
    await server.start()
    try:
        gm, tokens, _ = await b.new_fight(server.ws_url, players=1, spectators=1)
        assert gm.token is not None
        clients = {}
        for name, token in (("player", tokens[0]), ("spectator", tokens[1]), ("gm", gm.token)):
            for chain in (False, True):
                client = await CombatClient.connect(server.ws_url, record=True, verify_chain=chain)
                await client.subscribe(token)
                clients[name + ("_chain" if chain else "")] = client
        last = 0
        for i in range(n):
            kind, args = b.adjust(i)
            last = (await gm.command(kind, args))["last_seq"]
        DIR.mkdir(exist_ok=True)
        for name, client in clients.items():
            await client.wait_for_seq(last, 60)
            assert client.received is not None and client.resyncs == 0
            kept = [m for m in client.received if m.get("type") in ("welcome", "subscribed", "events", "event")]
            (DIR / f"{name}.jsonl").write_bytes(b"\n".join(orjson.dumps(m) for m in kept))
            await client.close()
        await gm.close()
        print(f"recorded {n} pushes for {', '.join(clients)} in {DIR}")
    finally:
        await server.close()
        store.dispose()


def _loaded(seat: str) -> tuple[list[bytes], list[str]]:
    lines = (DIR / f"{seat}.jsonl").read_bytes().split(b"\n")
    live = [line.decode() for line in lines if line.startswith(b'{"type":"event"')]
    return [line for line in lines if not line.startswith(b'{"type":"event"')], live


def _fresh(seat: str, first: list[bytes]) -> object:
    from combat_server.client import CombatClient, _loads

    client = CombatClient("ws://127.0.0.1:1/ws", verify_chain=seat.endswith("_chain"), on_event=lambda pushed: None)
    for line in first:
        client._dispatch(_loads(line))
    return client


def run(seat: str, n: int | None, rounds: int) -> None:
    from combat_server.client import CombatClient, _loads

    first, live = _loaded(seat)
    live = live[:n] if n is not None else live
    per_push = []
    for _ in range(rounds):
        client = _fresh(seat, first)
        assert isinstance(client, CombatClient)
        dispatch = client._dispatch
        gc.collect()
        gc.disable()
        c0 = time.process_time()
        for text in live:
            dispatch(_loads(text))
        per_push.append((time.process_time() - c0) * 1e6 / len(live))
        gc.enable()
        assert client.resyncs == 0 and client.last_seq == client.state_seq
    if rounds > 1:
        import combat_server

        print(f"{seat}: {statistics.median(per_push):.1f} us per push, median of {rounds} "
              f"({', '.join(f'{x:.1f}' for x in per_push)}; {combat_server.__file__})")


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "time"
    if what == "record":
        asyncio.run(record(int(sys.argv[2]) if len(sys.argv) > 2 else 2000))
    elif what == "client":  # bench/instructions.sh client: N pushes of BENCH_SEAT (default: the spectator's)
        import os

        run(os.environ.get("BENCH_SEAT", "spectator"), int(sys.argv[2]), 1)
    elif what == "time":
        for seat in sys.argv[2:] or ["spectator"]:
            run(seat, None, 7)
    else:
        sys.exit(f"usage: {sys.argv[0]} record [N] | time [SEAT...] | client N  (seats: {', '.join(SEATS)})")
