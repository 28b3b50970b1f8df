"""What the store holds is what was hashed, and a log edited in the database is refused
(#15 items 4, 5, 6, 8, 10), on SQLite and on the real PostgreSQL."""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

import attrs
import pytest
import sqlalchemy as sa

from combat_server.canonical import chain_hash
from combat_server.engine.fight import Engine
from combat_server.errors import Conflict, Corrupt, Rejected
from combat_server.rules.model import GM_ACTOR, Command, Event
from combat_server.store.sql import SqlStore, open_store
from tests.conftest import SHEET, dump_tables, populate


def _json_param(store: SqlStore) -> str:
    return "CAST(:p AS JSON)" if store.dialect == "postgresql" else ":p"


def _set_payload(store: SqlStore, fight_id: str, seq: int, text: str) -> None:
    """Edit one stored payload behind the server's back, as a forger with database access would."""
    with store.engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE events SET payload = {_json_param(store)} WHERE fight_id = :f AND seq = :s"),
                     {"p": text, "f": fight_id, "s": seq})


def _hp_adjust(fight_id: str, engine: Engine) -> int:
    """Append an HP adjustment of the orc and return its seq."""
    return engine.execute(fight_id, Command("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "cut"},
                                            GM_ACTOR, "hp-3")).last_seq


# ---------------------------------------------------------------- item 4: bytes hashed = bytes stored


def test_large_and_fractional_numbers_read_back_as_hashed(engine: Engine) -> None:
    """#15 item 4: a payload's numbers (1e16, 0.1, 2**62) come back from the store exactly as they were
    hashed, so the chain holds on PostgreSQL too (jsonb turned 1e16 into 10000000000000000)."""
    fid = engine.create_fight("gurps").fight_id
    first = engine.store.events(fid)[0]
    body = Event(fid, 2, "note_added", {"text": "numbers", "by": "gm", "big": 1e16, "small": 0.1, "int": 2 ** 62,
                                        "neg": -2.5e-7, "text2": "é ✓"},
                 "gm", "c-1", "2026-01-01T00:00:00+00:00", first.ruleset_version, first.hash, "")
    event = attrs.evolve(body, hash=chain_hash(first.hash, body.canonical()))
    engine.store.append(fid, 1, [event], "c-1", "gm")
    stored = engine.store.events(fid)[1]
    assert stored.payload == event.payload
    assert chain_hash(first.hash, stored.canonical()) == stored.hash


def test_a_sheet_with_the_largest_weights_verifies_and_exports(databases: Any, engine: Engine) -> None:
    """#15 item 4: the bounds of `carried` and a weapon's `weight` (1,000,000 lb, 3 decimals) keep the chain
    valid: verify passes and an export imports again."""
    fid = engine.create_fight("gurps").fight_id
    sheet = dict(SHEET, carried=999999.999,
                 weapons=[dict(SHEET["weapons"][0], weight=1000000), {"name": "rock", "weight": 0.125}])
    engine.execute(fid, Command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": sheet},
                                GM_ACTOR, "add"))
    assert engine.verify(fid).ok
    elsewhere = Engine(databases.new_store())
    assert elsewhere.verify(elsewhere.import_lines(list(engine.export_lines(fid)))).ok


@pytest.mark.parametrize("field, value", [
    ("carried", 1e16), ("carried", 1000000.5), ("carried", 0.0001), ("carried", math.nan), ("carried", math.inf),
    ("weight", 1e16), ("weight", -1), ("weight", math.nan), ("weight", -math.inf), ("weight", 2.0005),
])
def test_sheet_weights_out_of_bounds_are_refused_and_change_nothing(engine: Engine, field: str, value: float) -> None:
    """#15 items 4 and 14: a weight past 1,000,000 lb, with more than 3 decimals, negative, NaN or Infinity
    is `sheet/bad_field` naming the field (never internal/error), and nothing is appended."""
    fid = engine.create_fight("gurps").fight_id
    sheet: dict[str, Any] = dict(SHEET)
    if field == "carried":
        sheet["carried"] = value
    else:
        sheet["weapons"] = [dict(SHEET["weapons"][0], weight=value)]
    before = dump_tables(engine.store)
    with pytest.raises(Rejected) as info:
        engine.execute(fid, Command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": sheet},
                                    GM_ACTOR, "add"))
    assert info.value.code == "sheet/bad_field"
    assert field in info.value.details["field"]
    assert dump_tables(engine.store) == before


# ---------------------------------------------------------------- item 5: expect_seq on every attempt


def test_expect_seq_is_checked_again_after_an_append_conflict(databases: Any) -> None:
    """#15 item 5: two engines (as two processes) on one store, both at seq n, both send a command with
    expect_seq n: one is applied, the other, retried on the refreshed log, is refused as stale."""
    store = databases.new_store()
    other = SqlStore(store.url)
    a, b = Engine(store), Engine(other)
    fid = a.create_fight("gurps").fight_id
    for race in range(5):
        seq = a.refresh(fid).seq
        b.refresh(fid)
        barrier = threading.Barrier(2)
        outcome: dict[str, Any] = {}

        def run(tag: str, engine: Engine) -> None:
            barrier.wait()
            try:
                outcome[tag] = engine.execute(fid, Command("note", {"text": tag}, GM_ACTOR, f"{tag}-{race}"),
                                              expect_seq=seq).last_seq
            except (Rejected, Conflict) as exc:
                outcome[tag] = exc.code

        threads = [threading.Thread(target=run, args=(tag, e)) for tag, e in (("a", a), ("b", b))]
        for th in threads:
            th.start()
        for th in threads:
            th.join(30)
        assert sorted(map(str, outcome.values())) == sorted([str(seq + 1), "command/stale_seq"]), outcome
    assert store.fight(fid).last_seq == 6
    other.dispose()


# ---------------------------------------------------------------- item 6: a tampered log is refused


def test_loading_a_fight_with_an_edited_event_is_refused_naming_the_seq(engine: Engine) -> None:
    """#15 item 6: an event's payload edited in the database (HP 999) breaks the chain; a cold load refuses the
    fight with store/corrupt naming that seq, and nothing is appended to it."""
    fid = populate(engine)
    seq = len(engine.store.events(fid)) - 1
    _set_payload(engine.store, fid, seq, '{"combatant": "alice", "changes": {"hp": 999}, "before": {"hp": 12}, '
                                          '"reason": "fall"}')
    fresh = Engine(engine.store, snapshot_every=0)
    before = dump_tables(engine.store)
    with pytest.raises(Corrupt) as info:
        fresh.execute(fid, Command("note", {"text": "on top"}, GM_ACTOR, "late"))
    assert info.value.code == "store/corrupt" and info.value.details["seq"] == seq
    assert f"seq {seq}" in info.value.message
    assert dump_tables(engine.store) == before


def test_loading_after_a_snapshot_checks_the_events_after_it(engine: Engine) -> None:
    """#15 item 6: with a snapshot (every 5 events), an edited event after it is still caught on load."""
    fid = populate(engine)
    last = len(engine.store.events(fid))
    assert [s for s, _ in engine.store.snapshot_seqs(fid)] == [5]
    _set_payload(engine.store, fid, last, '{"text": "forged", "by": "gm"}')
    with pytest.raises(Corrupt) as info:
        Engine(engine.store).load(fid)
    assert info.value.details["seq"] == last


def test_a_forged_snapshot_is_refused(engine: Engine) -> None:
    """#15 item 6: a snapshot state edited in the database (HP 999) does not match its digest: store/corrupt."""
    fid = engine.create_fight("gurps").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET},
                                GM_ACTOR, "add"))
    for i in range(4):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"n{i}"))
    (seq, _), = engine.store.snapshot_seqs(fid)
    data = engine.store.snapshot(fid, seq)
    assert data is not None
    text = sa.text(f"UPDATE snapshots SET state = {_json_param(engine.store)} WHERE fight_id = :f AND seq = :s")
    data_text = __import__("json").dumps(data).replace('"hp": 12', '"hp": 999')
    assert "999" in data_text
    with engine.store.engine.begin() as conn:
        conn.execute(text, {"p": data_text, "f": fid, "s": seq})
    with pytest.raises(Corrupt) as info:
        Engine(engine.store).load(fid)
    assert info.value.details["seq"] == seq
    report = Engine(engine.store).verify(fid)
    assert not report.ok and report.bad_seq == seq


def test_an_old_snapshot_without_a_hash_is_ignored(engine: Engine) -> None:
    """Snapshots written before migration 0004 carry no hash: a load refolds instead of trusting them."""
    fid = populate(engine)
    with engine.store.engine.begin() as conn:
        conn.execute(sa.text("UPDATE snapshots SET hash = NULL, digest = NULL, state = "
                             f"{_json_param(engine.store)} WHERE fight_id = :f"), {"p": '{"bogus": 1}', "f": fid})
    assert Engine(engine.store).load(fid) == engine.load(fid)


def test_verify_catches_a_deleted_last_event(engine: Engine) -> None:
    """#15 item 6: the last event deleted leaves a valid-looking chain, but the commands table points past it."""
    fid = populate(engine)
    last = len(engine.store.events(fid))
    with engine.store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE fight_id = :f AND seq = :s"), {"f": fid, "s": last})
    report = engine.verify(fid)
    assert not report.ok and report.bad_seq == last
    assert f"up to seq {last}" in report.problem


@pytest.mark.parametrize("snapshot_every", [5, 1000], ids=["from-a-snapshot", "full-refold"])
def test_a_deleted_last_event_is_refused_on_load_and_never_appended_over(store: SqlStore,
                                                                          snapshot_every: int) -> None:
    """#15 item 6 (black-box pass): with the last event deleted, the commands table points past the end of
    the log; loading the fight refuses it with store/corrupt naming that seq, so nothing is appended over it
    and ``verify`` still sees the gap."""
    fid = populate(Engine(store, snapshot_every=snapshot_every))
    last = len(store.events(fid))
    with store.engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM events WHERE fight_id = :f AND seq = :s"), {"f": fid, "s": last})
    fresh = Engine(store, snapshot_every=snapshot_every)
    with pytest.raises(Corrupt) as info:
        fresh.load(fid)
    assert info.value.code == "store/corrupt" and info.value.details["seq"] == last
    with pytest.raises(Corrupt):
        fresh.execute(fid, Command("note", {"text": "over the gap"}, GM_ACTOR, "over"))
    assert len(store.events(fid)) == last - 1
    report = fresh.verify(fid)
    assert not report.ok and report.bad_seq == last


def test_verify_names_the_seq_of_an_unreadable_payload(sqlite_databases: Any) -> None:
    """#15 item 6: a payload that is not JSON any more is reported with its seq, not a traceback; a load
    refuses the fight the same way. (SQLite only: PostgreSQL's json column refuses such text.)"""
    engine = Engine(sqlite_databases.new_store(), snapshot_every=5)
    fid = populate(engine)
    _set_payload(engine.store, fid, 3, '{"combatant": "orc", ')
    report = Engine(engine.store).verify(fid)
    assert not report.ok and report.bad_seq == 3 and "cannot be read" in report.problem
    with pytest.raises(Corrupt) as info:
        Engine(engine.store).load(fid)
    assert info.value.details["seq"] == 3


# ---------------------------------------------------------------- item 8: the WAL stays bounded


def test_the_sqlite_wal_stays_bounded_under_sustained_writes(tmp_path: Path) -> None:
    """#15 item 8: a writer that never pauses, readers whose transactions always overlap (so a PASSIVE
    checkpoint never catches up and the WAL is never restarted) and checkpoints beside them, as the
    server's loop runs them: past the limit a TRUNCATE checkpoint empties the WAL, so it stays within a few
    MiB of the 256 KiB limit (peaks of 1.5-7 MiB seen) instead of growing with the writes (35 MiB here
    with PASSIVE checkpoints alone)."""
    limit = 256 * 1024
    url = f"sqlite:///{tmp_path / 'wal.sqlite'}"
    open_store(url, migrate=True).dispose()
    store = SqlStore(url, background_checkpoints=True, wal_limit=limit)
    readers = SqlStore(url)
    engine = Engine(store, snapshot_every=0)
    fid = engine.create_fight("gurps").fight_id
    stop = threading.Event()

    def checkpoints() -> None:
        while not stop.is_set():
            store.checkpoint()
            stop.wait(0.01)

    def read() -> None:
        with readers.engine.connect() as one, readers.engine.connect() as two:
            conns = [one, two]
            for conn in conns:
                conn.exec_driver_sql("BEGIN")
                conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
            while not stop.is_set():
                for conn in conns:  # end one snapshot while the other is still open, then start it again
                    conn.exec_driver_sql("COMMIT")
                    conn.exec_driver_sql("BEGIN")
                    conn.exec_driver_sql("SELECT count(*) FROM events").scalar()
                    stop.wait(0.005)
            for conn in conns:
                conn.exec_driver_sql("COMMIT")

    workers = [threading.Thread(target=checkpoints), threading.Thread(target=read)]
    for w in workers:
        w.start()
    peak = 0
    try:
        for i in range(1000):
            engine.execute(fid, Command("note", {"text": f"{i} " + "x" * 8000}, GM_ACTOR, f"n{i}"))
            peak = max(peak, store.wal_size())
    finally:
        stop.set()
        for w in workers:
            w.join(30)
    assert peak < 48 * limit, f"WAL peaked at {peak} bytes"
    readers.dispose()
    store.dispose()
