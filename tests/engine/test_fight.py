"""The engine against real stores (SQLite and PostgreSQL): commands, retries, snapshots,
state at a seq, fork, export/import and verify."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import attrs
import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.engine.fight import CONFLICT_ATTEMPTS, CONFLICT_PAUSE_CAP, Engine, conflict_pause
from combat_server.errors import Rejected, UnknownFight
from combat_server.rules import core
from combat_server.rules.model import GM_ACTOR, Principal, Command, FightState
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_bytes, state_to_json
from combat_server.store.sql import SqlStore
from tests.conftest import SHEET, Databases, dump_tables, populate


def refold(store: SqlStore, fight_id: str) -> FightState:
    """The state folded from scratch from the stored log, no snapshots, no cache."""
    events = store.events(fight_id)
    return core.fold(get_ruleset("gurps", events[0].ruleset_version), events)


def _set_payload(store: SqlStore, fight_id: str, seq: int, payload: dict[str, Any]) -> None:
    cast = "CAST(:p AS JSONB)" if store.dialect == "postgresql" else ":p"
    with store.engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE events SET payload = {cast} WHERE fight_id = :f AND seq = :s"),
                     {"p": json.dumps(payload), "f": fight_id, "s": seq})


def test_live_state_equals_refold_of_stored_log(engine: Engine) -> None:
    """The state the engine holds after commands equals a full refold of what it stored."""
    fid = populate(engine)
    assert state_bytes(engine.load(fid)) == state_bytes(refold(engine.store, fid))


def test_retried_command_id_is_answered_not_reapplied(engine: Engine) -> None:
    """Sending a command id again returns the original events and appends nothing."""
    fid = engine.create_fight("gurps").fight_id
    cmd = Command("note", {"text": "once"}, GM_ACTOR, "n-1")
    first = engine.execute(fid, cmd)
    again = engine.execute(fid, cmd)
    assert again.duplicate and (again.first_seq, again.last_seq) == (first.first_seq, first.last_seq)
    assert again.events == first.events
    assert engine.load(fid).notes == ("once",)
    assert len(engine.store.events(fid)) == 2


def test_retried_command_id_is_recognised_by_another_engine(engine: Engine) -> None:
    """A retry reaching another process (a fresh engine on the same database) is still not applied twice."""
    fid = engine.create_fight("gurps").fight_id
    cmd = Command("note", {"text": "once"}, GM_ACTOR, "n-1")
    engine.execute(fid, cmd)
    other = Engine(SqlStore(engine.store.url))
    assert other.execute(fid, cmd).duplicate
    other.store.dispose()
    assert len(engine.store.events(fid)) == 2


def test_stale_engine_retries_on_fresh_state(engine: Engine) -> None:
    """An engine whose cached state is behind the store conflicts, reloads, and appends after the other writer."""
    fid = engine.create_fight("gurps").fight_id
    other = Engine(SqlStore(engine.store.url))
    engine.load(fid)
    other.execute(fid, Command("note", {"text": "first"}, GM_ACTOR, "o-1"))
    result = engine.execute(fid, Command("note", {"text": "second"}, GM_ACTOR, "e-1"))
    other.store.dispose()
    assert result.first_seq == 3
    assert engine.load(fid).notes == ("first", "second")
    assert [e.seq for e in engine.store.events(fid)] == [1, 2, 3]



def test_a_writer_that_lost_once_decides_again_at_once() -> None:
    """The first lost append is retried without a pause: usually one other writer got there first."""
    assert conflict_pause(1, 0.99) == 0.0


def test_the_pause_bound_doubles_with_each_lost_append_up_to_the_cap() -> None:
    """4 ms after the second loss, 8 ms after the third, ... never more than CONFLICT_PAUSE_CAP."""
    bounds = [conflict_pause(n, 1.0) for n in range(2, CONFLICT_ATTEMPTS)]
    assert bounds[:4] == pytest.approx([0.004, 0.008, 0.016, 0.032])
    assert max(bounds) == CONFLICT_PAUSE_CAP
    assert all(b <= CONFLICT_PAUSE_CAP for b in bounds)


def test_the_pause_is_the_draw_times_the_bound() -> None:
    """Colliding writers pause at random within the bound, so they fall out of step."""
    assert conflict_pause(3, 0.0) == 0.0
    assert conflict_pause(3, 0.5) == pytest.approx(0.004)


def test_the_tries_of_a_starved_writer_span_a_stretch_of_other_writers_commands() -> None:
    """The ten tries may wait up to 0.4 s in all (a process whose deciding is slow on a loaded machine must
    not lose every try to another process streaming commands, as with the linear 2 ms steps before)."""
    total = sum(conflict_pause(n, 1.0) for n in range(2, CONFLICT_ATTEMPTS))  # the last loss raises
    assert 0.3 <= total <= 0.5

REFUSED = [
    pytest.param(Command("adjust", {"combatant": "nobody", "changes": {"hp": 1}, "reason": "x"}), "combatant/unknown",
                 id="unknown-combatant"),
    pytest.param(Command("adjust", {"combatant": "alice", "changes": {"hp": 1}, "reason": " "}),
                 "adjust/reason_required", id="no-reason"),
    pytest.param(Command("add_combatant", {"name": "Bad", "sheet": {"st": 0}}), "sheet/bad_field", id="bad-sheet"),
    pytest.param(Command("add_combatant", {"id": "alice", "name": "Alice again"}), "combatant/exists", id="dup-id"),
    pytest.param(Command("note", {"text": "hi"}, Principal.of_seat("watcher", "spectator")), "auth/read_only", id="spectator"),
    pytest.param(Command("undo", {}, Principal.of_seat("p1", "player", ("alice",))), "auth/gm_only", id="player-undo"),
    pytest.param(Command("undo", {"to": "turn_start"}), "undo/no_turn", id="undo-no-turn"),
    pytest.param(Command("redo", {}), "redo/nothing", id="redo-nothing"),
    pytest.param(Command("fly", {}), "command/unknown", id="unknown-command"),
]


@pytest.mark.parametrize(("command", "code"), REFUSED)
def test_refused_command_leaves_database_unchanged(engine: Engine, command: Command, code: str) -> None:
    """A refused command raises its stable code and every table stays exactly as it was."""
    fid = engine.create_fight("gurps").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "alice", "name": "Alice", "sheet": SHEET}, GM_ACTOR, "a"))
    before, state = dump_tables(engine.store), engine.load(fid)
    with pytest.raises(Rejected) as info:
        engine.execute(fid, attrs.evolve(command, command_id="refused-1"))
    assert info.value.code == code
    assert dump_tables(engine.store) == before
    assert engine.load(fid) == state


def test_snapshots_are_written_every_n_events(engine: Engine) -> None:
    """With snapshot_every=5 a snapshot is stored each time the log crosses a multiple of 5."""
    fid = populate(engine)
    for i in range(4):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"n{i}"))
    assert engine.load(fid).seq == 12
    assert engine.store.snapshot_seqs(fid) == [(5, "1.0"), (10, "1.0")]


def test_snapshot_plus_tail_equals_full_refold(engine: Engine) -> None:
    """A cold load (latest snapshot + tail) equals a full refold of the log."""
    fid = populate(engine)
    for i in range(6):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"n{i}"))
    assert engine.store.snapshot_seqs(fid)
    cold = Engine(engine.store).load(fid)
    assert state_bytes(cold) == state_bytes(refold(engine.store, fid))


def test_cold_load_starts_from_latest_snapshot(engine: Engine) -> None:
    """A cold load uses the newest snapshot of the fight's ruleset version (a planted mark, with its
    digest recomputed as the store writes it, shows through)."""
    from combat_server.canonical import state_digest

    fid = engine.create_fight("gurps").fight_id
    for i in range(5):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"n{i}"))
    (seq, _), = engine.store.snapshot_seqs(fid)
    data = engine.store.snapshot(fid, seq)
    assert data is not None
    data["title"] = "from the snapshot"
    with engine.store.engine.begin() as conn:
        from combat_server.store import tables as t
        conn.execute(t.snapshots.update().where(t.snapshots.c.fight_id == fid, t.snapshots.c.seq == seq)
                     .values(state=data, digest=state_digest(engine.store.events(fid)[seq - 1].hash, data)))
    assert Engine(engine.store).load(fid).title == "from the snapshot"


def test_snapshot_of_another_ruleset_version_is_ignored(engine: Engine) -> None:
    """A snapshot recorded by another ruleset version is skipped and the fight is refolded."""
    store = engine.store
    fid = populate(Engine(store, snapshot_every=0))
    bogus = state_to_json(attrs.evolve(refold(store, fid), title="stale rules", notes=("bogus",)))
    cast = "CAST(:s AS JSONB)" if store.dialect == "postgresql" else ":s"
    with store.engine.begin() as conn:
        conn.execute(sa.text(f"INSERT INTO snapshots (fight_id, seq, ruleset_version, state) "
                             f"VALUES (:f, :q, '0.1', {cast})"),
                     {"f": fid, "q": len(store.events(fid)), "s": json.dumps(bogus)})
    cold = Engine(store).load(fid)
    assert cold.title == "populated"
    assert state_bytes(cold) == state_bytes(refold(store, fid))


def test_snapshot_before_a_reaching_undo_is_not_used(engine: Engine) -> None:
    """An undo that reverts events before a snapshot makes cold loads refold from further back."""
    fid = engine.create_fight("gurps").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "alice", "name": "Alice", "sheet": SHEET}, GM_ACTOR, "a"))
    for i in range(5):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"n{i}"))
    engine.execute(fid, Command("undo", {"to": "seq", "seq": 1}, GM_ACTOR, "u"))
    cold = Engine(engine.store).load(fid)
    assert cold.combatants == {} and cold.notes == ()
    assert state_bytes(cold) == state_bytes(refold(engine.store, fid))


def test_state_at_gives_the_fight_as_it_was(engine: Engine) -> None:
    """state_at(seq) is the fold of the log up to seq, undos up to then included."""
    fid = populate(engine)
    events = engine.store.events(fid)
    adjust = next(e for e in events if e.type == "condition_adjusted")
    assert engine.state_at(fid, adjust.seq - 1).combatants["orc"].condition.hp == 13
    assert engine.state_at(fid, adjust.seq).combatants["orc"].condition.hp == 4
    undo = next(e for e in events if e.type == "reverted")
    assert engine.state_at(fid, undo.seq).notes == ()
    for e in events:
        expected = core.fold(get_ruleset("gurps"), [x for x in events if x.seq <= e.seq])
        assert state_bytes(engine.state_at(fid, e.seq)) == state_bytes(expected)


def test_state_at_rejects_seqs_outside_the_log(engine: Engine) -> None:
    """state_at refuses seq 0 and seqs after the end with replay/bad_seq."""
    fid = populate(engine)
    for bad in (0, len(engine.store.events(fid)) + 1):
        with pytest.raises(Rejected) as info:
            engine.state_at(fid, bad)
        assert info.value.code == "replay/bad_seq"


def test_fork_copies_the_log_up_to_seq(engine: Engine) -> None:
    """A fork at seq s is a new, verifiable fight whose state is the original's state at s."""
    fid = populate(engine)
    result = engine.fork(fid, 4)
    forked = engine.load(result.fight_id)
    original = engine.state_at(fid, 4)
    assert forked.seq == 4 and forked.combatants == original.combatants
    assert engine.verify(result.fight_id).ok
    assert engine.store.events(result.fight_id)[0].payload["forked_from"]["fight_id"] == fid
    assert len(engine.store.events(fid)) > 4


def test_fork_goes_its_own_way(engine: Engine) -> None:
    """Commands on a fork do not touch the original fight."""
    fid = populate(engine)
    before = engine.store.events(fid)
    fork = engine.fork(fid, 3).fight_id
    engine.execute(fork, Command("note", {"text": "what if"}, GM_ACTOR, "f-1"))
    assert engine.store.events(fid) == before
    assert engine.load(fork).notes == ("what if",)


def test_export_import_reproduces_hashes_and_states(engine: Engine, databases: Databases) -> None:
    """Importing an export into another database gives the same events, hashes and state at every seq."""
    fid = populate(engine)
    target = Engine(databases.new_store())
    assert target.import_lines(list(engine.export_lines(fid))) == fid
    assert target.store.events(fid) == engine.store.events(fid)
    for seq in range(1, engine.load(fid).seq + 1):
        assert state_bytes(target.state_at(fid, seq)) == state_bytes(engine.state_at(fid, seq))
    assert target.verify(fid).ok


def test_import_of_bad_json_names_the_line_and_changes_nothing(engine: Engine, databases: Databases) -> None:
    """A broken line makes the import fail with import/bad_json and its line number; nothing is written."""
    fid = populate(engine)
    lines = list(engine.export_lines(fid))
    lines[3] = lines[3][:-5]
    target = Engine(databases.new_store())
    before = dump_tables(target.store)
    with pytest.raises(Rejected) as info:
        target.import_lines(lines)
    assert info.value.code == "import/bad_json"
    assert info.value.details["line"] == 4 and "line 4" in info.value.message
    assert dump_tables(target.store) == before


def test_import_of_tampered_log_is_refused(engine: Engine, databases: Databases) -> None:
    """An export whose event was edited fails the chain check, names the seq, and writes nothing."""
    fid = populate(engine)
    lines = list(engine.export_lines(fid))
    event = json.loads(lines[4])
    event["payload"]["reason"] = "edited"
    lines[4] = json.dumps(event)
    target = Engine(databases.new_store())
    before = dump_tables(target.store)
    with pytest.raises(Rejected) as info:
        target.import_lines(lines)
    assert info.value.code == "import/corrupt" and info.value.details["seq"] == event["seq"]
    assert dump_tables(target.store) == before


def _refused_import(databases: Databases, lines: list[str], code: str) -> Rejected:
    """The import of ``lines`` into a fresh database is refused with ``code`` and writes nothing."""
    target = Engine(databases.new_store())
    before = dump_tables(target.store)
    with pytest.raises(Rejected) as info:
        target.import_lines(lines)
    assert info.value.code == code, info.value
    assert dump_tables(target.store) == before
    return info.value


def test_import_of_a_log_cut_short_at_a_line_is_refused(engine: Engine, databases: Databases) -> None:
    """Every event of a log cut at a line boundary still verifies: the header's count tells it is not whole."""
    lines = list(engine.export_lines(populate(engine)))
    kept = len(lines) - 3
    err = _refused_import(databases, lines[:kept], "import/truncated")
    assert err.details == {"expected": len(lines) - 1, "found": kept - 1}
    assert f"the header says {len(lines) - 1} events, the file holds {kept - 1}" in err.message


def test_an_export_read_while_the_fight_goes_on_stops_at_its_headers_count(engine: Engine,
                                                                          databases: Databases) -> None:
    """The header counts the events when the export starts; what is recorded meanwhile is left to a later
    export, so the file imports whole (the reviewer's race: header, then a command, then the rest)."""
    fid = populate(engine)
    lines = engine.export_lines(fid)
    header = json.loads(next(lines))
    engine.execute(fid, Command("note", {"text": "during the export"}, GM_ACTOR))
    rest = list(lines)
    assert len(rest) == header["events"] == engine.load(fid).seq - 1
    target = Engine(databases.new_store())
    assert target.import_lines([json.dumps(header), *rest]) == fid
    assert target.load(fid).seq == header["events"]


def test_a_log_holding_more_than_its_header_counts_imports_whole(engine: Engine, databases: Databases) -> None:
    """An export an earlier version read while the fight went on holds events past its header's count: they
    are chained like the others, and the import takes them all."""
    fid = populate(engine)
    lines = list(engine.export_lines(fid))
    header = json.loads(lines[0])
    header["events"] -= 2
    target = Engine(databases.new_store())
    assert target.import_lines([json.dumps(header), *lines[1:]]) == fid
    assert target.store.events(fid) == engine.store.events(fid)


def test_import_of_a_log_version_this_server_does_not_read_is_refused(engine: Engine, databases: Databases) -> None:
    lines = list(engine.export_lines(populate(engine)))
    header = json.loads(lines[0])
    header["version"] = 99
    err = _refused_import(databases, [json.dumps(header), *lines[1:]], "import/bad_version")
    assert "version 99" in err.message and "reads version 1" in err.message


@pytest.mark.parametrize("field", ["fight_id", "ruleset", "events"])
def test_import_of_a_header_without_a_field_names_it(engine: Engine, databases: Databases, field: str) -> None:
    lines = list(engine.export_lines(populate(engine)))
    header = json.loads(lines[0])
    del header[field]
    err = _refused_import(databases, [json.dumps(header), *lines[1:]], "import/bad_header")
    assert err.details["field"] == field and f"the header's {field} must be" in err.message


def test_import_of_json_nested_too_deeply_is_refused_not_a_traceback(engine: Engine, databases: Databases) -> None:
    """Python's JSON reader raises RecursionError past about 1,000 levels: import/bad_json naming the line."""
    lines = list(engine.export_lines(populate(engine)))
    err = _refused_import(databases, [lines[0], "[" * 100_000 + "]" * 100_000, *lines[2:]], "import/bad_json")
    assert err.details["line"] == 2 and "nested too deeply" in err.message


def test_export_from_sqlite_imports_into_postgresql(sqlite_databases: Databases, pg_databases: Databases) -> None:
    """A fight moves between backends with identical hashes and state."""
    source = Engine(sqlite_databases.new_store())
    fid = populate(source)
    target = Engine(pg_databases.new_store())
    target.import_lines(source.export_lines(fid))
    assert [e.hash for e in target.store.events(fid)] == [e.hash for e in source.store.events(fid)]
    assert state_bytes(target.load(fid)) == state_bytes(source.load(fid))


def test_verify_accepts_an_untouched_log(engine: Engine) -> None:
    """verify reports ok for a log written by the engine."""
    fid = populate(engine)
    report = engine.verify(fid)
    assert report.ok and report.events == len(engine.store.events(fid))


def test_verify_catches_a_payload_edited_with_raw_sql(engine: Engine) -> None:
    """An UPDATE of one payload behind the engine's back is reported at exactly that seq."""
    fid = populate(engine)
    victim = next(e for e in engine.store.events(fid) if e.type == "condition_adjusted")
    _set_payload(engine.store, fid, victim.seq, {**victim.payload, "changes": {"hp": 13}})
    report = engine.verify(fid)
    assert not report.ok and report.bad_seq == victim.seq
    assert "hash" in report.problem


def test_verify_catches_a_deleted_event(engine: Engine) -> None:
    """Deleting an event with raw SQL is reported as a gap at its seq."""
    fid = populate(engine)
    with engine.store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE fight_id = :f AND seq = 3"), {"f": fid})
    report = engine.verify(fid)
    assert not report.ok and report.bad_seq == 3


def test_verify_catches_a_tampered_snapshot(engine: Engine) -> None:
    """A snapshot that differs from the refold of the log is reported at its seq."""
    fid = populate(engine)
    (seq, _), *_ = engine.store.snapshot_seqs(fid)
    data = engine.store.snapshot(fid, seq)
    assert data is not None
    data["notes"] = ["planted"]
    from combat_server.store import tables as t
    with engine.store.engine.begin() as conn:
        conn.execute(t.snapshots.update().where(t.snapshots.c.fight_id == fid, t.snapshots.c.seq == seq)
                     .values(state=data))
    report = engine.verify(fid)
    assert not report.ok and report.bad_seq == seq


def test_unknown_fight_is_refused(engine: Engine) -> None:
    """Loading a fight id that does not exist raises fight/unknown."""
    with pytest.raises(UnknownFight) as info:
        engine.load("nope")
    assert info.value.code == "fight/unknown"


def test_history_marks_undone_events_without_hiding_them(engine: Engine) -> None:
    """The replay log keeps undone events, marked, with an explanation for every event."""
    fid = engine.create_fight("gurps").fight_id
    engine.execute(fid, Command("note", {"text": "kept"}, GM_ACTOR, "n1"))
    engine.execute(fid, Command("note", {"text": "taken back"}, GM_ACTOR, "n2"))
    engine.execute(fid, Command("undo", {}, GM_ACTOR, "u1"))
    entries = engine.history(fid)
    assert [(e.event.seq, e.undone) for e in entries] == [(1, False), (2, False), (3, True), (4, False)]
    assert all(e.explanation for e in entries)
    assert [(e.event.seq, e.undone) for e in engine.history(fid, upto=3)][-1] == (3, False)


def test_undo_and_redo_read_only_the_end_of_a_long_log(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """A GM undoing in a long fight waits for the last command's events, not for the whole log."""
    fid = engine.create_fight("gurps", title="long").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "orc", "name": "Orc", "sheet": SHEET}, GM_ACTOR, "add"))
    for i in range(300):
        engine.execute(fid, Command("adjust", {"combatant": "orc", "changes": {"hp": i % 9}, "reason": "r"},
                                    GM_ACTOR, f"a{i}"))
    read: list[int] = []
    events = engine.store.events

    def counting(fight_id: str, after: int = 0, upto: int | None = None) -> list[Any]:
        out = events(fight_id, after=after, upto=upto)
        read.append(len(out))
        return out

    monkeypatch.setattr(engine.store, "events", counting)
    undo = engine.execute(fid, Command("undo", {}, GM_ACTOR, "u"))
    assert undo.events[0].payload["seqs"] == [302]
    redo = engine.execute(fid, Command("redo", {}, GM_ACTOR, "r"))
    assert redo.events[0].payload["seqs"] == [302]
    assert sum(read) < 300 / 2, read


def test_a_command_id_reused_for_another_command_is_refused(engine: Engine) -> None:
    """A retry (same id, same command) is answered with the original result; the same id for a
    different command is refused, so a client never believes a maneuver happened when it did not."""
    fid = engine.create_fight("gurps", title="ids").fight_id
    first = engine.execute(fid, Command("note", {"text": "one"}, GM_ACTOR, "gm:c-1"))
    retry = engine.execute(fid, Command("note", {"text": "one"}, GM_ACTOR, "gm:c-1"))
    assert retry.duplicate and (retry.first_seq, retry.last_seq) == (first.first_seq, first.last_seq)
    before = dump_tables(engine.store)
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("note", {"text": "two"}, GM_ACTOR, "gm:c-1"))
    assert err.value.code == "command/id_reused" and "'c-1'" in err.value.message
    assert err.value.details["first_seq"] == first.first_seq
    assert dump_tables(engine.store) == before


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 253_402_300_799_999_999_999))
def test_any_time_is_written_as_datetime_writes_it(ns: int) -> None:
    """Issue 16, session 13: the microseconds as two looked-up groups of three digits, for any time to 9999."""
    from combat_server.engine.fight import iso_utc

    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    assert iso_utc(ns) == (epoch + dt.timedelta(microseconds=ns // 1000)).isoformat(timespec="microseconds")


def test_the_engines_clock_reads_the_time_now() -> None:
    """The default clock (iso_utc without an argument) writes the time now, as datetime.now writes it."""
    from combat_server.engine.fight import Engine, iso_utc, utc_now

    before = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    now = utc_now()
    after = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    assert before <= now <= after and len(now) == len(before)
    assert utc_now is iso_utc and Engine.__init__.__kwdefaults__["clock"] is utc_now


@pytest.mark.parametrize("ns", [0, 1_764_130_432_123_456_789, 1_764_130_432_999_999_999, 1_764_130_433_000_000_000,
                                951_782_400_000_001_000])
def test_the_event_clock_writes_what_datetime_writes(ns: int) -> None:
    """Issue 16: the clock formats the date once per second; the text is isoformat's, microseconds truncated."""
    from combat_server.engine.fight import iso_utc

    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    expected = (epoch + dt.timedelta(microseconds=ns // 1000)).isoformat(timespec="microseconds")
    assert iso_utc(ns) == expected
    assert iso_utc(ns) == expected  # the cached second gives the same text


@pytest.mark.parametrize("target", ["last_command", "turn_start"])
def test_an_undo_naming_a_seq_it_would_not_use_is_refused_and_nothing_is_written(engine: Engine, target: str) -> None:
    """An undo ``to: last_command`` (or ``turn_start``) with a ``seq`` used to drop the seq without a word, undoing
    something else than the GM may have meant (black-box pass): refused, the log as it was."""
    fid = populate(engine)
    before = dump_tables(engine.store)
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("undo", {"to": target, "seq": 2}, GM_ACTOR, "u-1"))
    assert err.value.code == "undo/bad_seq" and f"to: {target}" in err.value.message
    assert dump_tables(engine.store) == before


def test_a_combatant_cannot_be_renamed_to_nothing(engine: Engine) -> None:
    """As ``add_combatant`` refuses an empty name, ``update_combatant`` does (black-box pass)."""
    fid = populate(engine)
    for name in ("", "   "):
        with pytest.raises(Rejected) as err:
            engine.execute(fid, Command("update_combatant", {"id": "alice", "name": name}, GM_ACTOR, f"n-{len(name)}"))
        assert (err.value.code, err.value.details.get("field")) == ("command/bad_field", "name")
    assert engine.load(fid).combatants["alice"].name == "Alice"


def test_a_command_whose_seat_lost_its_link_on_its_way_is_refused(engine: Engine, databases: Databases) -> None:
    """combat-server links (another writer) replaced the seat's link after this process read the command: the
    append finds the log moved by a links_reissued naming the seat, and the command is refused
    (auth/link_replaced), not decided again; a command from another seat goes through."""
    fid = populate(engine)
    engine.load(fid)  # this process's cached state, before the other writer's append
    other = Engine(engine.store)
    other.forget(fid)
    other.execute(fid, Command("reissue_links", {"seats": ["player-1"], "reason": "lost"},
                               Principal.of_seat("system", "system", (), "system")))
    before = other.load(fid).seq
    player = Principal.of_seat("player-1", "player", (), "Alice")
    with pytest.raises(Rejected) as refused:
        engine.execute(fid, Command("note", {"text": "late"}, player, "late-1"))
    assert refused.value.code == "auth/link_replaced"
    assert engine.store.fight(fid).last_seq == before
    engine.execute(fid, Command("note", {"text": "on time"}, GM_ACTOR, "gm-1"))
    assert engine.store.fight(fid).last_seq == before + 1


def test_import_of_a_header_naming_another_ruleset_is_refused(engine: Engine, databases: Databases) -> None:
    """The header is not chained: a header edited to another ruleset stored a fight nothing could load (a
    black-box pass); the log's own fight_created decides, and a header that disagrees is refused."""
    lines = list(engine.export_lines(populate(engine)))
    header = json.loads(lines[0])
    for other in ("chess", "shell"):
        err = _refused_import(databases, [json.dumps({**header, "ruleset": other}), *lines[1:]], "import/bad_header")
        assert err.details["field"] == "ruleset" and other in err.message


def test_an_imported_fight_keeps_the_title_its_log_was_created_with(engine: Engine, databases: Databases) -> None:
    fid = populate(engine)
    lines = list(engine.export_lines(fid))
    header = json.loads(lines[0])
    target = Engine(databases.new_store())
    target.import_lines([json.dumps({**header, "title": "x" * 5000}), *lines[1:]])
    assert target.store.fight(fid).title == engine.store.fight(fid).title


def test_import_of_a_header_with_none_of_its_events_is_truncated(engine: Engine, databases: Databases) -> None:
    lines = list(engine.export_lines(populate(engine)))
    err = _refused_import(databases, lines[:1], "import/truncated")
    assert err.details == {"expected": len(lines) - 1, "found": 0}
