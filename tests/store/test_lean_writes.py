"""The engine's and the store's lean writes (issue 16, session 9) store the rows SQLAlchemy's own inserts
store: an event's payload text written once with its hash, and SQLite's snapshot on the kept writer
connection. Run against SQLite and PostgreSQL."""

from __future__ import annotations

import attrs
import sqlalchemy as sa

from combat_server.canonical import canonical_json, state_digest
from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.rules.serialize import state_to_json
from combat_server.store import tables as t
from combat_server.store.sql import SqlStore
from tests.conftest import Databases, dump_tables, populate


def _rows(store: SqlStore, table: sa.Table) -> list[tuple[object, ...]]:
    with store.engine.connect() as conn:
        return [tuple(r) for r in conn.execute(sa.select(table).order_by(*table.primary_key.columns))]


def test_an_events_row_holds_the_canonical_text_of_its_payload(engine: Engine) -> None:
    """The payload text the engine wrote with the hash is canonical_json of the payload, and is what the row holds."""
    fid = populate(engine)
    made = engine.execute(fid, Command("adjust", {"combatant": "orc", "changes": {"hp": 2, "posture": "prone"},
                                                  "reason": 'a "quoted" 1.5 reason'}, GM_ACTOR, "lean-1")).events
    assert made and all(e.payload_text == canonical_json(e.payload) for e in made)
    assert all(e.payload_text is None for e in engine.store.events(fid))  # read back: not carried
    copy = attrs.evolve(made[0], payload={"other": 1})
    assert copy.payload_text is None and SqlStore._event_row(copy)[3] == '{"other":1}'  # a copy never carries it
    with engine.store.engine.connect() as conn:
        raw = dict(conn.execute(sa.select(t.events.c.seq, sa.cast(t.events.c.payload, sa.Text))
                                .where(t.events.c.fight_id == fid)).all())
    if engine.store.dialect == "sqlite":  # PostgreSQL's json column keeps the text it is given, as before
        assert raw == {e.seq: canonical_json(e.payload) for e in engine.store.events(fid)}
    else:
        assert all(raw[e.seq] == e.payload_text for e in made)


def test_a_snapshot_row_is_what_sqlalchemys_insert_writes(databases: Databases) -> None:
    """Snapshots written the lean way and through SQLAlchemy's table insert with state_digest: the same rows."""
    engine = Engine(databases.new_store(), snapshot_every=0)
    fid = populate(engine)
    store = engine.store
    assert isinstance(store, SqlStore)
    state = engine.load(fid)
    data = state_to_json(state)
    store.save_snapshot(fid, 6, state.ruleset_version, data, "ab" * 32)
    store.save_snapshot(fid, 6, state.ruleset_version, data, "ab" * 32)  # again: ignored, as before
    store.save_snapshot(fid, 7, state.ruleset_version, data)  # without a hash: no digest
    lean = _rows(store, t.snapshots)
    assert [r[1] for r in lean] == [6, 7]
    with store.engine.begin() as conn:
        conn.execute(sa.delete(t.snapshots))
        for seq, event_hash in ((6, "ab" * 32), (7, None)):
            digest = state_digest(event_hash, data) if event_hash is not None else None
            conn.execute(t.snapshots.insert().values(fight_id=fid, seq=seq, ruleset_version=state.ruleset_version,
                                                     state=data, hash=event_hash, digest=digest))
    assert _rows(store, t.snapshots) == lean
    if store.dialect == "sqlite":
        with store.engine.connect() as conn:
            text = conn.execute(sa.text("SELECT state FROM snapshots WHERE seq = 6")).scalar()
        assert text == canonical_json(data)
    assert store.checked_snapshot(fid, 6) == (data, "ab" * 32)


def test_a_snapshot_written_then_loaded_gives_the_same_state(databases: Databases) -> None:
    """A cold load from the lean snapshot folds to the state the engine held; the tables are the same on a reload."""
    store = databases.new_store()
    engine = Engine(store, snapshot_every=5)
    fid = populate(engine)
    assert [s for s, _ in store.snapshot_seqs(fid)] == [5]
    before = dump_tables(store)
    fresh = Engine(store, snapshot_every=5)
    assert state_to_json(fresh.load(fid)) == state_to_json(engine.load(fid))
    assert fresh.verify(fid).ok
    assert dump_tables(store) == before
