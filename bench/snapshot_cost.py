"""The engine's periodic snapshot alone (issue 16, session 14): ``Engine._maybe_snapshot`` of the states at
seqs 200, 300, ... of a fight played first without snapshots, the one at seq 100 written before (so that each
write follows the fight's previous snapshot, as in a live fight). The writes are called through
``itertools.starmap`` so that callgrind counts them alone:

    PYTHONPATH=<tree> PYTHONHASHSEED=0 valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=starmap_next --callgrind-out-file=/dev/null python bench/snapshot_cost.py adjust 10

``adjust``: the latency bench's fight (4 combatants, a GM adjusting one's HP every command); ``combat``: a
seeded GURPS combat of three fighters (the property tests' sheets), maneuvers and defences at random (seed
fixed), every combatant and the combat changing between two snapshots. Not a test; run by hand from a tree
(``PYTHONPATH=<tree>`` picks the code measured; the script prints which). The callgrind total divided by
the number of snapshots is the cost of one; without valgrind it prints the wall-clock time of one.
"""

from __future__ import annotations

import itertools
import random
import sys
import tempfile
import time
from typing import Any

import combat_server
from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.model import GM_ACTOR, Command, FightState
from combat_server.store.sql import open_store


def _adjust_fight(engine: Engine, commands: int) -> list[tuple[FightState, str]]:
    fid = engine.create_fight("gurps", title="bytes").fight_id
    sheet = {"st": 12, "dx": 12, "ht": 11, "shield_skill": 12,  # bench_server.SHEET
             "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}]}
    out = []
    for i, cid in enumerate("abcd"):
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid.upper(), "side": "npc", "sheet": sheet},
                                    GM_ACTOR, f"gm:add-{i}"))
    for i in range(commands):
        args = {"combatant": "c", "changes": {"hp": 5 + i % 7}, "reason": "bench"}
        result = engine.execute(fid, Command("adjust", args, GM_ACTOR, f"gm:adjust-{i}"))
        out.append((result.state, result.events[-1].hash))
    return out


def _combat_fight(engine: Engine, commands: int) -> list[tuple[FightState, str]]:
    from tests.gurps.conftest import ARCHER, KNIGHT, ORC  # the property tests' sheets

    fid = engine.create_fight("gurps", dice_mode="seeded", seed="bench").fight_id
    draw = random.Random(7)
    out = []
    n = 0

    def send(kind: str, args: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        result = engine.execute(fid, Command(kind, args, GM_ACTOR, f"c{n}"))
        out.append((result.state, result.events[-1].hash))

    for cid, sheet in (("knight", KNIGHT), ("orc", ORC), ("archer", {**ARCHER, "weapons": ARCHER["weapons"][1:]})):
        send("add_combatant", {"id": cid, "name": cid.title(), "side": "pc" if cid != "orc" else "npc", "sheet": sheet})
    send("start_combat", {})
    maneuvers = [{"maneuver": "attack"}, {"maneuver": "evaluate"}, {"maneuver": "feint"}, {"maneuver": "do_nothing"},
                 {"maneuver": "all_out_defense", "option": "increased_dodge"}, {"maneuver": "move", "yards": 1}]
    while len(out) < commands:
        state = engine.load(fid)
        defend = next((p for p in state.prompts if p.kind == "defend"), None)
        try:
            if defend is not None:
                send("defend", {"prompt": defend.id, "defense": draw.choice(["none", "dodge"])})
            elif state.combat is None or state.status != "active":
                break
            else:
                cur = state.combat.current
                foes = [c for c in state.combatants if c != cur and not state.combatants[c].condition.dead]
                if not foes:
                    for c in state.combatants:  # everyone back on their feet: the fight goes on
                        send("adjust", {"combatant": c, "changes": {"hp": 10, "dead": False}, "reason": "bench"})
                    continue
                send("maneuver", dict(draw.choice(maneuvers), combatant=cur, target=draw.choice(foes)))
        except Rejected:
            pass
    return out


def main() -> None:
    shape, snapshots = sys.argv[1], int(sys.argv[2])
    print(combat_server.__file__, file=sys.stderr)
    store = open_store(f"sqlite:///{tempfile.mkdtemp(prefix='combat-snap-')}/snap.sqlite", migrate=True)
    engine = Engine(store, snapshot_every=0)
    played = (_adjust_fight if shape == "adjust" else _combat_fight)(engine, 100 * (snapshots + 1) + 50)
    by_hundred: dict[int, tuple[FightState, str]] = {}
    for state, last_hash in played:  # the first state of a command batch at or past each hundred
        by_hundred.setdefault(state.seq // 100, (state, last_hash))
    crossings = [(h * 100 - 1, state, last_hash) for h, (state, last_hash) in sorted(by_hundred.items()) if h >= 1]
    engine.snapshot_every = 100
    engine._maybe_snapshot(*crossings[0])  # the fight's first snapshot, before the measured ones
    measured = crossings[1:snapshots + 1]
    assert len(measured) == snapshots, len(measured)
    t0 = time.perf_counter()
    list(itertools.starmap(engine._maybe_snapshot, measured))
    print(f"{shape}: {(time.perf_counter() - t0) * 1e6 / snapshots:.0f} us per snapshot (wall clock)", file=sys.stderr)
    assert len(store.snapshot_seqs(played[0][0].fight_id)) == snapshots + 1
    store.dispose()


if __name__ == "__main__":
    main()
