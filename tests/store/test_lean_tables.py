"""Migration 0005 (issue 16, fewer pages per append): ``events`` and ``commands`` without a rowid on
SQLite, and the undo/redo events in a partial index on both backends. Stored fights keep every row
and fold as before; the keys still refuse what they refused; ``control_events`` reads the index."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any, Iterator

import pytest
import sqlalchemy as sa

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.rules.serialize import state_bytes
from combat_server.store import tables as t
from combat_server.store.recorder import SeatRow
from combat_server.store.sql import SqlStore, alembic_config, open_store
from tests.conftest import Databases, chained_notes, dump_tables, populate
from tests.fixtures import fixturekit as kit


def _migrate(store: SqlStore, revision: str, *, down: bool = False) -> None:
    from alembic import command

    cfg = alembic_config(store.url)
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, revision)


def _new_store_at_0004(databases: Databases) -> SqlStore:
    store = SqlStore(databases.new_url())
    _migrate(store, "0004")
    return store


@pytest.fixture
def store_0004(databases: Databases) -> Iterator[SqlStore]:
    """A store of the backend under test, migrated to 0004 only."""
    store = _new_store_at_0004(databases)
    yield store
    store.dispose()


def _fill(store: SqlStore) -> tuple[list[str], dict[str, str]]:
    """Every fixture fight, a populated fight with snapshots and a player seat: what a real 0004 database
    holds. Returns the fight ids and each one's state hash (refolded from the whole log)."""
    engine = Engine(store, snapshot_every=5)
    fights = [engine.import_lines(kit.export_path(name).read_text(encoding="utf-8").splitlines())
              for name in kit.fight_names()]
    played = populate(engine)
    store.add_seat(SeatRow(played, "alice-seat", "player", "Alice", ("alice",), "a" * 64), "2026-11-26T00:00:00+00:00")
    fights.append(played)
    return fights, {fid: kit.state_hash(engine, fid) for fid in fights}


def _schema(store: SqlStore) -> list[tuple[Any, ...]]:
    """The catalog's description of the log's tables and indexes (not alembic_version)."""
    with store.engine.connect() as conn:
        if store.dialect == "sqlite":
            rows = conn.exec_driver_sql("SELECT type, name, tbl_name, sql FROM sqlite_master "
                                        "WHERE name != 'alembic_version' ORDER BY name").all()
            return [tuple(r) for r in rows]
        schema = conn.exec_driver_sql("SELECT current_schema()").scalar()
        indexes = conn.exec_driver_sql("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
                                       "AND tablename != 'alembic_version' ORDER BY indexname").all()
        columns = conn.exec_driver_sql(
            "SELECT table_name, column_name, data_type, character_maximum_length, is_nullable, column_default "
            "FROM information_schema.columns WHERE table_schema = current_schema() "
            "ORDER BY table_name, column_name").all()
        constraints = conn.exec_driver_sql(
            "SELECT conrelid::regclass::text, contype, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2, 3").all()
        return [(name, str(text).replace(f"{schema}.", "")) for name, text in indexes] + \
            [tuple(r) for r in columns] + [tuple(r) for r in constraints]


def _sqlite_flags(store: SqlStore) -> dict[str, bool]:
    """SQLite: which of the log's tables are WITHOUT ROWID."""
    with store.engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all()
    return {name: "WITHOUT ROWID" in sql.upper() for name, sql in rows if name in t.metadata.tables}


def _index_definitions(store: SqlStore) -> dict[str, str]:
    """The log's indexes as the catalog states them, whitespace and schema names left out."""
    with store.engine.connect() as conn:
        if store.dialect == "sqlite":
            rows = conn.exec_driver_sql("SELECT name, sql FROM sqlite_master "
                                        "WHERE type = 'index' AND sql IS NOT NULL").all()
        else:
            schema = conn.exec_driver_sql("SELECT current_schema()").scalar()
            rows = [(name, str(text).replace(f"{schema}.", "")) for name, text in conn.exec_driver_sql(
                "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()").all()]
    return {name: re.sub(r"\s+", " ", text) for name, text in rows if not name.startswith("alembic_version")}


# ---------------------------------------------------------------- the migration keeps stored fights


def test_the_upgrade_from_0004_keeps_every_row_and_every_fold(store_0004: SqlStore) -> None:
    """A 0004 database holding fights (events, commands, snapshots, seats) upgrades to 0005 without a row
    lost or changed; each fight refolds to the same state, loads the same from its snapshots, and verifies."""
    store = store_0004
    fights, hashes = _fill(store)
    before = dump_tables(store)
    _migrate(store, "0005")
    after = dump_tables(store)
    assert after.pop("alembic_version") == [("0005",)]
    before.pop("alembic_version")
    assert after == before
    assert all(after[table] for table in ("events", "commands", "snapshots", "seats"))
    engine = Engine(store)
    assert {fid: kit.state_hash(engine, fid) for fid in fights} == hashes
    cold = Engine(store)  # a cold load starts from the newest snapshot, checked against its digest
    assert {fid: hashlib.sha256(state_bytes(cold.load(fid))).hexdigest() for fid in fights} == hashes
    assert all(engine.verify(fid).ok for fid in fights)


def test_stored_fights_keep_their_recorded_state_hashes_through_the_upgrade(store_0004: SqlStore) -> None:
    """The fixture fights written at 0004 refold, after the upgrade, to the state hashes recorded when
    they were first written (tests/fixtures/golden)."""
    store = store_0004
    engine = Engine(store)
    ids = {name: engine.import_lines(kit.export_path(name).read_text(encoding="utf-8").splitlines())
           for name in kit.fight_names()}
    store.migrate()
    golden = json.loads(kit.STATE_HASHES.read_text(encoding="utf-8"))
    assert {name: kit.state_hash(Engine(store), fid) for name, fid in ids.items()} == \
        {name: golden[name]["state_sha256"] for name in ids}


def test_the_downgrade_gives_back_the_0004_schema_and_rows_and_upgrades_again(store_0004: SqlStore) -> None:
    """0005 -> 0004 restores 0004's schema exactly (rowid tables, the (fight_id, type) index) with every row;
    upgrading again gives 0005's schema back with every row."""
    store = store_0004
    _fill(store)
    schema_0004, rows = _schema(store), dump_tables(store)
    _migrate(store, "0005")
    schema_0005 = _schema(store)
    assert schema_0005 != schema_0004
    _migrate(store, "0004", down=True)
    assert _schema(store) == schema_0004
    assert dump_tables(store) == rows
    _migrate(store, "0005")
    assert _schema(store) == schema_0005
    again = dump_tables(store)
    assert again.pop("alembic_version") == [("0005",)]
    rows.pop("alembic_version")
    assert again == rows


def test_a_0004_database_opened_by_the_server_upgrades_in_place(store_0004: SqlStore) -> None:
    """What `combat-server migrate` (and the server's start-up) does to a 0004 file: open_store with
    migrate upgrades it to head, and the fights written before are there."""
    store = store_0004
    fights, hashes = _fill(store)
    url = store.url
    store.dispose()
    reopened = open_store(url, migrate=True)
    try:
        assert reopened.current_revision() == reopened.head_revision() == "0005"
        assert {fid: kit.state_hash(Engine(reopened), fid) for fid in fights} == hashes
    finally:
        reopened.dispose()


def test_sqlite_foreign_keys_hold_after_the_rebuild(sqlite_databases: Databases) -> None:
    """SQLite: the rebuilt tables keep their foreign key to ``fights`` and every row satisfies it
    (PostgreSQL's tables are not rebuilt)."""
    store = _new_store_at_0004(sqlite_databases)
    try:
        _fill(store)
        _migrate(store, "0005")
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_key_check").all() == []
            for table in ("events", "commands"):
                keys = conn.exec_driver_sql(f"PRAGMA foreign_key_list({table})").all()
                assert [(k[2], k[3], k[4]) for k in keys] == [("fights", "fight_id", "fight_id")]
    finally:
        store.dispose()


# ---------------------------------------------------------------- the schema at head


def test_sqlite_events_and_commands_have_no_rowid_at_head(sqlite_databases: Databases) -> None:
    """SQLite: ``events`` and ``commands`` are WITHOUT ROWID (their rows live in their primary key's
    B-tree); the other tables keep a rowid, as tables.py says."""
    store = sqlite_databases.new_store()
    assert _sqlite_flags(store) == {"fights": False, "events": True, "commands": True, "snapshots": False,
                                    "seats": False}
    assert {name: not table.dialect_options["sqlite"]["with_rowid"] for name, table in t.metadata.tables.items()} \
        == _sqlite_flags(store)


def test_the_migrated_indexes_are_the_ones_tables_py_creates(databases: Databases) -> None:
    """What alembic's autogenerate diff does not compare (a partial index's WHERE): the migrated
    indexes and those created from tables.py are stated alike by the catalog."""
    migrated = databases.new_store()
    created = SqlStore(databases.new_url())
    with created.engine.begin() as conn:
        t.metadata.create_all(conn)
    try:
        assert _index_definitions(migrated) == _index_definitions(created)
    finally:
        created.dispose()
    assert "ix_events_control" in _index_definitions(migrated)
    assert "ix_events_fight_type" not in _index_definitions(migrated)


def test_the_control_index_holds_the_rules_control_event_types() -> None:
    """The partial index's types are the rules' undo/redo events: an event type added to
    ``core.CONTROL_EVENTS`` needs a migration of the index too."""
    assert set(t.CONTROL_EVENT_TYPES) == core.CONTROL_EVENTS


@pytest.mark.parametrize("table", ["events", "commands"])
def test_a_row_for_an_unknown_fight_is_refused(store: SqlStore, table: str) -> None:
    """The foreign key to ``fights`` still refuses an event or a command of no fight, on both backends."""
    first = Engine(store).create_fight("gurps").fight_id
    before = dump_tables(store)
    row = ({"fight_id": "nowhere", "seq": 1, "type": "note_added", "payload": {}, "actor": "gm", "command_id": "c",
            "recorded_at": "2026-11-26T00:00:00+00:00", "ruleset_version": "1", "prev_hash": "0" * 64,
            "hash": "1" * 64}
           if table == "events" else
           {"fight_id": "nowhere", "command_id": "c", "first_seq": 1, "last_seq": 1, "actor": "gm"})
    with pytest.raises(sa.exc.IntegrityError):
        with store.engine.begin() as conn:
            conn.execute(t.metadata.tables[table].insert().values(**row))
    assert first and dump_tables(store) == before


# ---------------------------------------------------------------- the keys still do their work


def test_a_retried_command_id_is_answered_and_a_reused_one_refused_after_the_upgrade(store_0004: SqlStore) -> None:
    """The commands primary key, rebuilt: a command written at 0004 and retried after the upgrade is
    answered as a duplicate; the same id for another command is refused and writes nothing."""
    store = store_0004
    fid = populate(Engine(store))
    store.migrate()
    engine = Engine(store)
    retry = engine.execute(fid, Command("note", {"text": "the bridge creaks"}, GM_ACTOR, "p-4"))
    assert retry.duplicate and store.command_range(fid, "p-4") == (retry.first_seq, retry.last_seq)
    before = dump_tables(store)
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("note", {"text": "something else"}, GM_ACTOR, "p-4"))
    assert err.value.code == "command/id_reused"
    assert dump_tables(store) == before


def test_appends_to_fights_interleaved_read_back_in_seq_order(engine: Engine) -> None:
    """Commands of three fights taken in turn: each fight reads back its own events, gapless from 1, in the
    order they were appended, and verifies (rows clustered by (fight_id, seq) on SQLite)."""
    fights = [engine.create_fight("gurps", title=f"f{i}").fight_id for i in range(3)]
    for n in range(12):
        for i, fid in enumerate(fights):
            engine.execute(fid, Command("note", {"text": f"f{i} n{n}"}, GM_ACTOR, f"c-{i}-{n}"))
    for i, fid in enumerate(fights):
        events = engine.store.events(fid)
        assert [e.seq for e in events] == list(range(1, 14))
        assert [e.payload["text"] for e in events[1:]] == [f"f{i} n{n}" for n in range(12)]
        assert engine.verify(fid).ok


def test_an_append_at_a_taken_seq_still_conflicts(engine: Engine) -> None:
    """The (fight_id, seq) key of the rebuilt table is still the optimistic-concurrency check."""
    from combat_server.errors import Conflict

    fid = engine.create_fight("gurps").fight_id
    first = engine.store.events(fid)[0]
    engine.store.append(fid, 1, chained_notes(first, 2, "a"), "cmd-a", "gm")
    with pytest.raises(Conflict):
        engine.store.append(fid, 2, [chained_notes(first, 2, "b")[1]], "cmd-b", "gm")
    assert [e.command_id for e in engine.store.events(fid)[1:]] == ["cmd-a", "cmd-a"]


# ---------------------------------------------------------------- control_events reads the partial index


def test_control_events_are_the_undo_and_redo_events_in_seq_order(engine: Engine) -> None:
    """control_events gives the fight's reverted/restored events after a seq, in seq order, and no other."""
    fid = populate(engine)
    engine.execute(fid, Command("undo", {}, GM_ACTOR, "u-2"))
    control = engine.store.control_events(fid)
    assert [e.type for e in control] == ["reverted", "restored", "reverted"]
    assert [e.seq for e in control] == sorted(e.seq for e in engine.store.events(fid) if e.type in core.CONTROL_EVENTS)
    assert engine.store.control_events(fid, after=control[0].seq) == control[1:]


def _control_events_plan(store: SqlStore, fight_id: str) -> str:
    """The plan of the statement control_events really sends (captured from the connection)."""
    sent: list[tuple[str, Any]] = []

    def capture(_conn: Any, _cursor: Any, statement: str, params: Any, _context: Any, _many: bool) -> None:
        sent.append((statement, params))

    sa.event.listen(store.engine, "before_cursor_execute", capture)
    try:
        store.control_events(fight_id, after=3)
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", capture)
    [(statement, params)] = sent
    with store.engine.connect() as conn:
        if store.dialect == "sqlite":
            rows = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, params).all()
            return "\n".join(str(r[-1]) for r in rows)
        # The plan psycopg's prepared statement gets once PostgreSQL settles on a generic plan (after five
        # executions): planned without the parameters' values, as a plain EXPLAIN would not show.
        names = re.findall(r"%\((\w+)\)s", statement)
        prepared = re.sub(r"%\((\w+)\)s", lambda m: f"${names.index(m.group(1)) + 1}", statement)
        conn.exec_driver_sql("ANALYZE events")
        conn.exec_driver_sql("SET enable_seqscan = off")  # a table this small is read whole otherwise
        conn.exec_driver_sql("SET plan_cache_mode = force_generic_plan")
        types = ["integer" if isinstance(params[name], int) else "text" for name in names]
        conn.exec_driver_sql(f"PREPARE control_events_plan ({', '.join(types)}) AS {prepared}")
        import psycopg  # EXECUTE's arguments cannot be bound server-side: psycopg quotes them itself

        with psycopg.ClientCursor(conn.connection.dbapi_connection) as cursor:
            cursor.execute(f"EXPLAIN EXECUTE control_events_plan({', '.join(['%s'] * len(names))})",
                           tuple(params[name] for name in names))
            rows = cursor.fetchall()
        return "\n".join(str(r[0]) for r in rows)


def test_control_events_reads_the_partial_index(engine: Engine) -> None:
    """The statement control_events sends is planned on ``ix_events_control`` (EXPLAIN on both backends),
    and needs no sort: the planners use a partial index only for literal types, which it renders."""
    fid = populate(engine)
    first = engine.store.events(fid)[-1]
    engine.store.append(fid, first.seq, chained_notes(first, 200, "bulk"), "cmd-bulk", "gm")
    plan = _control_events_plan(engine.store, fid)
    assert "ix_events_control" in plan, plan
    if engine.store.dialect == "sqlite":
        assert "TEMP B-TREE" not in plan, plan
