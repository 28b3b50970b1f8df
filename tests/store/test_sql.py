"""The abstract store suite: every test runs against SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa

from combat_server.canonical import GENESIS_HASH, chain_hash
from combat_server.engine.fight import Engine
from combat_server.errors import Conflict, MigrationMissing
from combat_server.store import tables as t
from combat_server.store.sql import SqlStore, open_store
from tests.conftest import Databases, chained_notes, dump_tables, populate



def test_migrate_creates_tables_at_head(store: SqlStore) -> None:
    """A migrated store is at the alembic head revision."""
    assert store.current_revision() == store.head_revision()


def test_migrations_match_table_definitions(store: SqlStore) -> None:
    """The alembic migrations and the query-side table definitions describe the same schema."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with store.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), t.metadata)
    assert diff == []


def test_unmigrated_database_is_refused(databases: Databases) -> None:
    """Opening an empty database without migrating raises store/migration_missing."""
    with pytest.raises(MigrationMissing) as info:
        open_store(databases.new_url())
    assert info.value.code == "store/migration_missing"
    assert "combat-server migrate" in info.value.message


def test_append_with_expected_seq(engine: Engine) -> None:
    """Appending at the real last seq writes the events in order."""
    fid = engine.create_fight("gurps").fight_id
    first = engine.store.events(fid)[0]
    engine.store.append(fid, 1, chained_notes(first, 2, "a"), "cmd-a", "gm")
    assert [e.seq for e in engine.store.events(fid)] == [1, 2, 3]
    assert engine.store.command_range(fid, "cmd-a") == (2, 3)


def test_append_with_stale_seq_conflicts_and_writes_nothing(engine: Engine) -> None:
    """An append that expects an older last seq gets store/conflict and leaves the tables as they were."""
    fid = populate(engine)
    store = engine.store
    stale = store.events(fid, upto=3)[-1]
    before = dump_tables(store)
    with pytest.raises(Conflict) as info:
        store.append(fid, 3, chained_notes(stale, 2, "late"), "cmd-late", "gm")
    assert info.value.code == "store/conflict"
    assert dump_tables(store) == before


def test_racing_writers_one_wins_loser_writes_nothing(databases: Databases, store: SqlStore) -> None:
    """Two engines appending at the same seq at once: one wins, the other gets store/conflict, no mix."""
    fid = Engine(store).create_fight("gurps").fight_id
    other = SqlStore(store.url)
    first = store.events(fid)[0]
    batches = {"a": (store, chained_notes(first, 3, "a")), "b": (other, chained_notes(first, 3, "b"))}
    barrier = threading.Barrier(2)
    outcome: dict[str, Any] = {}

    def write(tag: str) -> None:
        s, events = batches[tag]
        barrier.wait()
        try:
            s.append(fid, 1, events, f"cmd-{tag}", "gm")
            outcome[tag] = "ok"
        except Conflict as exc:
            outcome[tag] = exc

    threads = [threading.Thread(target=write, args=(tag,)) for tag in batches]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    other.dispose()
    assert sorted(str(v) == "ok" for v in outcome.values()) == [False, True]
    winner = next(tag for tag, v in outcome.items() if v == "ok")
    loser = "b" if winner == "a" else "a"
    assert isinstance(outcome[loser], Conflict)
    assert store.events(fid)[1:] == batches[winner][1]
    assert store.command_range(fid, f"cmd-{loser}") is None


def test_seqs_are_gapless_and_start_at_one(engine: Engine) -> None:
    """After commands, undo and redo, the seqs are exactly 1..n."""
    fid = populate(engine)
    seqs = [e.seq for e in engine.store.events(fid)]
    assert seqs == list(range(1, len(seqs) + 1))


def test_hash_chain_links_every_event(engine: Engine) -> None:
    """Each stored event's hash is sha256(prev_hash + canonical event) and links to its predecessor."""
    fid = populate(engine)
    prev = GENESIS_HASH
    for e in engine.store.events(fid):
        assert e.prev_hash == prev
        assert e.hash == chain_hash(prev, e.canonical())
        prev = e.hash


def test_fights_lists_every_fight_with_last_seq(engine: Engine) -> None:
    """fights() lists each fight with its ruleset and last seq."""
    a = populate(engine)
    b = engine.create_fight("gurps", title="empty").fight_id
    rows = {r.fight_id: r for r in engine.store.fights()}
    assert set(rows) == {a, b}
    assert rows[a].last_seq == len(engine.store.events(a))
    assert rows[b].last_seq == 1 and rows[b].title == "empty" and rows[b].ruleset == "gurps"


def test_import_of_existing_fight_changes_nothing(engine: Engine) -> None:
    """Importing a fight id that already exists is refused and leaves the tables as they were."""
    fid = populate(engine)
    lines = list(engine.export_lines(fid))
    before = dump_tables(engine.store)
    with pytest.raises(Exception) as info:
        engine.import_lines(lines)
    assert getattr(info.value, "code", "") == "import/fight_exists"
    assert dump_tables(engine.store) == before


def test_raw_sql_payload_edit_is_visible_to_the_store(engine: Engine) -> None:
    """A raw SQL UPDATE of a payload really changes what the store reads (so verify can catch it)."""
    fid = populate(engine)
    cast = "CAST(:p AS JSONB)" if engine.store.dialect == "postgresql" else ":p"
    with engine.store.engine.begin() as conn:
        conn.execute(sa.text(f"UPDATE events SET payload = {cast} WHERE fight_id = :f AND seq = 4"),
                     {"p": '{"combatant": "orc", "changes": {"hp": 1}, "before": {"hp": 13}, "reason": "x"}',
                      "f": fid})
    assert engine.store.events(fid, after=3, upto=4)[0].payload["changes"] == {"hp": 1}


def test_fight_and_its_gm_seat_are_written_together(store: SqlStore) -> None:
    """Creating a fight with its GM seat is one transaction: a failing seat leaves no fight behind."""
    from combat_server.errors import StoreError
    from combat_server.store.sql import SeatRow

    engine = Engine(store)
    first = engine.create_fight("gurps", fight_id="with-gm", seats=[SeatRow("with-gm", "gm", "gm", "GM", (), "h" * 64)])
    assert [s.seat_id for s in store.seats(first.fight_id)] == ["gm"]
    before = dump_tables(store)
    with pytest.raises(StoreError):  # the token hash is unique: the second GM seat fails
        engine.create_fight("gurps", fight_id="orphan", seats=[SeatRow("orphan", "gm", "gm", "GM", (), "h" * 64)])
    assert dump_tables(store) == before


def test_a_store_taken_back_to_the_first_migration_upgrades_with_its_fights(databases: Databases) -> None:
    """A fight written at head survives a downgrade to 0001 (no digest column, the old index back)
    and the upgrade to head again; it still verifies, and its commands, now without a digest,
    are still answered as duplicates when retried."""
    from alembic import command

    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.store.sql import alembic_config

    store = databases.new_store()
    fight_id = populate(Engine(store))
    cfg = alembic_config(store.url)
    with store.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0001")
    assert store.current_revision() == "0001"
    assert store.migrate() == store.head_revision() == "0005"
    engine = Engine(store)
    assert engine.verify(fight_id).ok
    record = store.command_record(fight_id, "p-3")
    assert record is not None and record[2] is None
    retry = engine.execute(fight_id, Command("note", {"text": "anything"}, GM_ACTOR, "p-3"))
    assert retry.duplicate
