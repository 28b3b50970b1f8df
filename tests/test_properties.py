"""Property tests: for random sequences of core commands, undo and redo, the log is the truth.

Each example writes a new fight into one SQLite file per module (real store, no mocks);
commands the rules refuse are part of the sequences and must leave the log untouched.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterator

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.model import GM_ACTOR, Command, FightState
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_bytes
from combat_server.store.sql import SqlStore, open_store

#: Modest by default so the suite stays fast; raise it to hunt for bugs.
EXAMPLES = int(os.environ.get("COMBAT_PROPERTY_EXAMPLES", "30"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NAMES = ["Alice", "Bob", "Orc", "Goblin", "Tam"]
note_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)
op = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(NAMES), st.sampled_from(["pc", "npc"]), st.integers(7, 16)),
    st.tuples(st.just("update"), st.integers(0, 9), st.sampled_from(NAMES)),
    st.tuples(st.just("remove"), st.integers(0, 9)),
    st.tuples(st.just("adjust"), st.integers(0, 9), st.integers(-20, 20), st.booleans()),
    st.tuples(st.just("note"), note_text),
    st.tuples(st.just("undo_last")),
    st.tuples(st.just("undo_seq"), st.integers(1, 40)),
    st.tuples(st.just("undo_turn")),
    st.tuples(st.just("redo")),
)
ops = st.lists(op, min_size=1, max_size=14)


def _command(state: FightState, o: tuple[Any, ...], n: int) -> Command:
    kind, ids = o[0], sorted(state.combatants)
    pick = ids[o[1] % len(ids)] if ids and kind in ("update", "remove", "adjust") else None
    if kind == "add":
        args: dict[str, Any] = {"name": o[1], "side": o[2], "sheet": {"st": o[3], "ht": o[3] - 1}}
        return Command("add_combatant", args, GM_ACTOR, f"c{n}")
    if kind in ("update", "remove", "adjust") and pick is None:
        return Command("note", {"text": f"no one to {kind}"}, GM_ACTOR, f"c{n}")
    if kind == "update":
        return Command("update_combatant", {"id": pick, "name": o[2]}, GM_ACTOR, f"c{n}")
    if kind == "remove":
        return Command("remove_combatant", {"id": pick}, GM_ACTOR, f"c{n}")
    if kind == "adjust":
        return Command("adjust", {"combatant": pick, "changes": {"hp": o[2], "stunned": o[3]}, "reason": "prop"},
                       GM_ACTOR, f"c{n}")
    if kind == "note":
        return Command("note", {"text": o[1]}, GM_ACTOR, f"c{n}")
    if kind == "undo_last":
        return Command("undo", {"to": "last_command"}, GM_ACTOR, f"c{n}")
    if kind == "undo_seq":
        return Command("undo", {"to": "seq", "seq": o[1]}, GM_ACTOR, f"c{n}")
    if kind == "undo_turn":
        return Command("undo", {"to": "turn_start"}, GM_ACTOR, f"c{n}")
    return Command("redo", {}, GM_ACTOR, f"c{n}")


def play(engine: Engine, sequence: list[tuple[Any, ...]]) -> str:
    """Run the sequence on a new fight; refused commands must append nothing."""
    fid = engine.create_fight("gurps", dice_mode="seeded", seed="prop").fight_id
    for n, o in enumerate(sequence):
        state = engine.load(fid)
        try:
            engine.execute(fid, _command(state, o, n))
        except Rejected:
            assert engine.store.fight(fid).last_seq == state.seq
    return fid


def refold(store: SqlStore, fid: str) -> FightState:
    events = store.events(fid)
    return core.fold(get_ruleset("gurps", events[0].ruleset_version), events)


def without_seq(state: FightState) -> bytes:
    return state_bytes(attrs.evolve(state, seq=0))


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SqlStore, SqlStore]]:
    """Two migrated SQLite file stores shared by the examples of this module."""
    tmp: Path = tmp_path_factory.mktemp("props")
    a = open_store(f"sqlite:///{tmp / 'a.sqlite'}", migrate=True)
    b = open_store(f"sqlite:///{tmp / 'b.sqlite'}", migrate=True)
    yield a, b
    a.dispose()
    b.dispose()


@SETTINGS
@given(sequence=ops)
def test_refold_of_stored_log_equals_live_state(stores: tuple[SqlStore, SqlStore], sequence: list[Any]) -> None:
    """Whatever commands ran, folding the stored log from scratch gives the engine's live state."""
    engine = Engine(stores[0], snapshot_every=0)
    fid = play(engine, sequence)
    assert state_bytes(refold(engine.store, fid)) == state_bytes(engine.load(fid))


@SETTINGS
@given(sequence=ops, target=st.one_of(st.just(None), st.integers(1, 20)))
def test_undo_then_redo_equals_never_undoing(
    stores: tuple[SqlStore, SqlStore], sequence: list[Any], target: int | None
) -> None:
    """Undoing (the last command or back to a seq) and redoing gives back the state before the undo."""
    engine = Engine(stores[0], snapshot_every=3)
    fid = play(engine, sequence)
    before = engine.load(fid)
    args: dict[str, Any] = {"to": "last_command"} if target is None else {"to": "seq", "seq": target}
    try:
        engine.execute(fid, Command("undo", args, GM_ACTOR, "undo-prop"))
    except Rejected:
        return  # nothing to undo there: a refusal, covered by play()
    engine.execute(fid, Command("redo", {}, GM_ACTOR, "redo-prop"))
    after = engine.load(fid)
    assert after.seq == before.seq + 2
    assert without_seq(after) == without_seq(before)
    assert without_seq(Engine(engine.store).load(fid)) == without_seq(before)


@SETTINGS
@given(sequence=ops)
def test_export_then_import_equals_original(stores: tuple[SqlStore, SqlStore], sequence: list[Any]) -> None:
    """An exported fight imported into another database has the same hashes and the same state."""
    source, target = Engine(stores[0]), Engine(stores[1])
    fid = play(source, sequence)
    assert target.import_lines(list(source.export_lines(fid))) == fid
    assert [e.hash for e in target.store.events(fid)] == [e.hash for e in source.store.events(fid)]
    assert state_bytes(target.load(fid)) == state_bytes(source.load(fid))


@SETTINGS
@given(sequence=ops, every=st.integers(1, 4))
def test_snapshot_plus_tail_equals_full_refold(
    stores: tuple[SqlStore, SqlStore], sequence: list[Any], every: int
) -> None:
    """A cold load from the latest usable snapshot plus the tail equals a full refold, at the end and at every seq."""
    engine = Engine(stores[0], snapshot_every=every)
    fid = play(engine, sequence)
    cold = Engine(engine.store, snapshot_every=every)
    assert state_bytes(cold.load(fid)) == state_bytes(refold(engine.store, fid))
    events = engine.store.events(fid)
    rs = get_ruleset("gurps", events[0].ruleset_version)
    for seq in range(1, len(events)):
        expected = core.fold(rs, events[:seq])
        assert state_bytes(cold.state_at(fid, seq)) == state_bytes(expected)


def _reference_decision(log: list[Any], state: FightState, command: Command) -> tuple[str, Any]:
    """What undo/redo must decide, read off the whole log (the specification; the engine reads only its end)."""
    undone = core.undone_after((), log)
    live = [e for e in log if e.type not in core.CONTROL_EVENTS and e.seq not in undone and e.type != "fight_created"]
    if command.type == "redo":
        restored = {int(e.payload["revert"]) for e in log if e.type == "restored"}
        pending = [e for e in log if e.type == "reverted" and e.seq not in restored]
        if not pending:
            return "refused", "redo/nothing"
        if any(e.seq > pending[-1].seq for e in live):
            return "refused", "redo/history_moved_on"
        return "restored", list(pending[-1].payload["seqs"])
    to = command.args.get("to")
    if to == "last_command":
        if not live:
            return "refused", "undo/nothing"
        last = live[-1]
        seqs = [e.seq for e in live if e.command_id == last.command_id] if last.command_id else [last.seq]
    elif to == "turn_start":
        if not state.turn_start_seq:
            return "refused", "undo/no_turn"
        seqs = [e.seq for e in live if e.seq > state.turn_start_seq]
    else:
        seq = command.args["seq"]
        if not 1 <= seq <= state.seq:
            return "refused", "undo/bad_seq"
        seqs = [e.seq for e in live if e.seq > seq]
    return ("reverted", seqs) if seqs else ("refused", "undo/nothing")


@SETTINGS
@given(sequence=st.lists(st.one_of(op, st.tuples(st.just("start")), st.tuples(st.just("start"))), min_size=1, max_size=24),
       chunk=st.integers(1, 5))
@example(sequence=[("start",), ("note", "x"), ("undo_last",), ("undo_last",)], chunk=3)
def test_undo_and_redo_read_from_the_end_decide_as_the_whole_log_does(
    stores: tuple[SqlStore, SqlStore], sequence: list[Any], chunk: int
) -> None:
    """Undo/redo read the log backwards in chunks (here of 1-5 events, so commands straddle chunks);
    every decision equals the one taken from the whole log. Two combatants are there from the
    start so that ``start_combat`` (two events: combat started, first turn) can run."""
    from combat_server.engine import history

    engine = Engine(stores[1], snapshot_every=3)
    fid = engine.create_fight("gurps", dice_mode="seeded", seed="prop").fight_id
    for name, side in (("Alice", "pc"), ("Orc", "npc")):
        engine.execute(fid, Command("add_combatant", {"name": name, "side": side, "sheet": {"st": 10, "ht": 10}},
                                    GM_ACTOR, f"add-{name}"))
    was, history._FIRST_CHUNK = history._FIRST_CHUNK, chunk
    try:
        for n, o in enumerate(sequence):
            state = engine.load(fid)
            command = (Command("start_combat", {}, GM_ACTOR, f"c{n}") if o[0] == "start"
                       else _command(state, o, n))
            if command.type not in ("undo", "redo"):
                try:
                    engine.execute(fid, command)
                except Rejected:
                    pass
                continue
            expected = _reference_decision(engine.store.events(fid), state, command)
            try:
                event = engine.execute(fid, command).events[0]
                got: tuple[str, Any] = (event.type, list(event.payload["seqs"]))
            except Rejected as exc:
                got = ("refused", exc.code)
            assert got == expected
    finally:
        history._FIRST_CHUNK = was
