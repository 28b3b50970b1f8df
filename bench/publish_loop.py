"""The engine's ``execute`` of a GM ``adjust``, alone or with ``FightHub.publish`` to the latency scenario's 8
seats (GM, 4 players, 3 spectators) as in-process subscribers: no sockets, no event loop turns, so the
instruction count of two lengths' difference is the engine's (``exec``) or the engine's and the push's
(``pub``) per command (issue 16). Not a test; run by hand (``bench/instructions.sh exec|pub`` does both
lengths under valgrind):

    python bench/publish_loop.py pub 3000
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_server as b  # noqa: E402

from combat_server.rules.model import GM_ACTOR, Command  # noqa: E402
from combat_server.server.hub import Seat  # noqa: E402


async def run(publish: bool, n: int) -> None:
    engine, hub, fid = b._in_process_fight(4)
    seats = ([Seat(fid, "gm", "gm")] + [Seat(fid, f"player-{i}", "player", combatants=("ab"[i % 2],)) for i in range(4)]
             + [Seat(fid, f"spectator-{i}", "spectator") for i in range(3)])
    subs = [b._Counting(seat) for seat in seats]
    async with hub.lock:
        for sub in subs:
            hub.add(sub, hub.synced_seq)
            hub.live_view(sub)
        for i in range(100 + n):  # the first 100: warm-up
            before = hub.state()
            kind, args = b.adjust(i)
            result = engine.execute(fid, Command(kind, args, GM_ACTOR, f"gm:adjust-{i}"))
            if publish:
                hub.publish(result, before)
            else:
                hub.synced_state = result.state
            for sub in subs:
                sub.sent.clear()
    engine.store.dispose()


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in ("exec", "pub"):
        sys.exit(__doc__)
    asyncio.run(run(sys.argv[1] == "pub", int(sys.argv[2]) if len(sys.argv) > 2 else 3000))
