"""Long fights built fast, for the benchmarks and tests of reading a long log (issue 15 item 2).

A command through the engine costs about a millisecond, so 100,000 of them take
minutes. Here the same ``adjust`` commands are decided by the real rules
(``core.decide``), chained and hashed as the engine does, folded, snapshotted
every ``engine.snapshot_every`` events, and appended 1,000 events per
transaction: a valid log (``verify`` passes) in seconds.
"""

from __future__ import annotations

import uuid
from typing import Any

import attrs

from combat_server.canonical import chain_hash
from combat_server.engine.dice import SeededDice
from combat_server.engine.fight import Engine
from combat_server.rules import core
from combat_server.rules.model import GM_ACTOR, Command, Event
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_to_json
from combat_server.server.app import new_token, token_hash
from combat_server.store.sql import SeatRow

SHEET: dict[str, Any] = {
    "st": 12, "dx": 12, "ht": 11, "shield_skill": 12,
    "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}],
}
#: The four combatants of every long fight; ``d`` is a hidden NPC (players may not see its sheet).
COMBATANTS = (("a", "pc", False), ("b", "pc", False), ("c", "npc", False), ("d", "npc", True))


def long_fight(engine: Engine, events: int, title: str = "long") -> tuple[str, str]:
    """A seeded fight of ``events`` events (four combatants, then GM adjustments); returns its id
    and the GM's token. The engine must not have served the fight yet (nothing caches it)."""
    token = new_token()
    fight_id = uuid.uuid4().hex[:16]
    engine.create_fight("gurps", dice_mode="seeded", seed="bulk", title=title, fight_id=fight_id,
                        actor=GM_ACTOR, seats=[SeatRow(fight_id, "gm", "gm", "GM", (), token_hash(token))])
    for cid, side, hidden in COMBATANTS:
        engine.execute(fight_id, Command("add_combatant", {"id": cid, "name": cid.upper(), "side": side,
                                                           "sheet": SHEET, "hidden": hidden}, GM_ACTOR, f"gm:add-{cid}"))
    append_adjustments(engine, fight_id, events - engine.load(fight_id).seq)
    return fight_id, token


def append_adjustments(engine: Engine, fight_id: str, count: int, batch: int = 1000) -> None:
    """Append ``count`` GM ``adjust`` events (HP and FP of every combatant in turn) in bulk."""
    state = engine.load(fight_id)
    last = engine.store.last_event(fight_id)
    assert last is not None
    prev = last.hash
    rs = get_ruleset(state.ruleset, state.ruleset_version)
    ids = sorted(state.combatants)
    pending: list[Event] = []
    for i in range(count):
        cid = ids[i % len(ids)]
        field = "hp" if i % 2 == 0 else "fp"
        command = Command("adjust", {"combatant": cid, "changes": {field: 3 + i % 9}, "reason": f"bulk {i}"},
                          GM_ACTOR, f"gm:bulk-{state.seq + 1}")
        (draft,) = core.decide(rs, state, command, SeededDice("bulk", fight_id, state.seq))
        body = Event(fight_id, state.seq + 1, draft.type, dict(draft.payload), "gm", command.command_id,
                     f"2026-01-01T00:00:00.{state.seq % 1_000_000:06d}+00:00", state.ruleset_version, prev, "")
        event = attrs.evolve(body, hash=chain_hash(prev, body.canonical()))
        pending.append(event)
        state = core.apply(rs, state, event)
        prev = event.hash
        every = engine.snapshot_every
        if every and state.seq % every == 0:
            _flush(engine, fight_id, pending)
            engine.store.save_snapshot(fight_id, state.seq, state.ruleset_version, state_to_json(state), event_hash=prev)
        elif len(pending) >= batch:
            _flush(engine, fight_id, pending)
    _flush(engine, fight_id, pending)
    engine.forget(fight_id)


def _flush(engine: Engine, fight_id: str, pending: list[Event]) -> None:
    if pending:
        engine.store.append(fight_id, pending[0].seq - 1, pending, "", "gm")
        pending.clear()
