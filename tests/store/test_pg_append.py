"""The PostgreSQL append on kept driver connections (issue 16, a lean append).

Appends run straight on psycopg, on connections the store keeps checked out of
SQLAlchemy's pool. What must not change: a conflict is still ``store/conflict``
and leaves the connection usable; a lost connection (a killed backend, a restart
of PostgreSQL) is still a store error, the broken connection is replaced, and
all the others opened before it are not trusted either, so no command fails for
each of them in turn; the engine's retry makes the command itself go through.
"""

from __future__ import annotations

import uuid
from typing import Iterator

import attrs
import pytest
import sqlalchemy as sa

from combat_server.engine.fight import Engine
from combat_server.errors import Conflict, StoreError, StoreUnavailable
from combat_server.rules.model import GM_ACTOR, Command, Event
from combat_server.store.sql import OwnNotifications, SqlStore, open_store
from tests.conftest import PG_BASE_URL, Databases, chained_notes

pytestmark = pytest.mark.postgres


@attrs.define
class Victim:
    """A migrated store whose connections carry their own ``application_name``: the test can kill them all."""

    store: SqlStore
    name: str

    def terminate(self) -> set[int]:
        """Terminate every server process of the store's connections (kept and pooled), as a restart would;
        returns their ids once they are gone."""
        admin = sa.create_engine(PG_BASE_URL, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
        try:
            with admin.connect() as conn:
                rows = conn.execute(sa.text("SELECT pid, pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
                                            "WHERE application_name = :name"), {"name": self.name}).all()
        finally:
            admin.dispose()
        assert rows and all(done for _, done in rows)
        return {pid for pid, _ in rows}


@pytest.fixture
def victim(pg_databases: Databases) -> Iterator[Victim]:
    name = f"victim_{uuid.uuid4().hex[:10]}"
    store = open_store(f"{pg_databases.new_url()}&application_name={name}", migrate=True, check=False)
    yield Victim(store, name)
    store.dispose()



def _append(store: SqlStore, fight_id: str, tag: str, n: int = 1) -> list[Event]:
    """Append ``n`` notes after the log's last event, under command id ``cmd-tag``."""
    last = store.last_event(fight_id)
    assert last is not None
    events = chained_notes(last, n, tag)
    store.append(fight_id, last.seq, events, f"cmd-{tag}", "gm")
    return events


def _fight(store: SqlStore) -> tuple[Engine, str]:
    engine = Engine(store)
    return engine, engine.create_fight("gurps").fight_id


def _note(engine: Engine, fight_id: str, tag: str) -> None:
    engine.execute(fight_id, Command("note", {"text": tag}, GM_ACTOR, f"cmd-{tag}"))


def test_appends_reuse_one_kept_connection(victim: Victim) -> None:
    """Appends one after another run on the same kept connection: no connection per command."""
    store = victim.store
    _, fid = _fight(store)
    _append(store, fid, "a")
    pids = store._kept.backend_pids if store._kept else None
    _append(store, fid, "b", n=3)
    assert pids and len(pids) == 1 and store._kept and store._kept.backend_pids == pids
    assert [e.seq for e in store.events(fid)] == [1, 2, 3, 4, 5]


def test_a_conflict_on_the_kept_connection_is_store_conflict_and_keeps_the_connection(victim: Victim) -> None:
    """A (fight, seq) someone else appended first: store/conflict with the log's real end, nothing of the batch
    written, and the same kept connection serves the next append."""
    store = victim.store
    _, fid = _fight(store)
    first = store.events(fid)[0]
    store.append(fid, 1, chained_notes(first, 2, "winner"), "cmd-winner", "gm")
    pids = store._kept.backend_pids if store._kept else None
    with pytest.raises(Conflict) as info:
        store.append(fid, 1, chained_notes(first, 1, "loser"), "cmd-loser", "gm")
    assert info.value.details["actual"] == 3
    assert store.command_record(fid, "cmd-loser") is None
    _append(store, fid, "next")
    assert store._kept and store._kept.backend_pids == pids
    assert [e.seq for e in store.events(fid)] == [1, 2, 3, 4]


def test_a_reused_command_id_on_the_kept_connection_is_store_conflict(victim: Victim) -> None:
    """The commands table's unique (fight, command id) key still refuses the whole batch on the kept connection;
    the engine tells it from a seq conflict by the command record."""
    store = victim.store
    _, fid = _fight(store)
    _append(store, fid, "once")
    last = store.last_event(fid)
    assert last is not None
    with pytest.raises(Conflict):
        store.append(fid, last.seq, chained_notes(last, 1, "again"), "cmd-once", "gm")
    assert store.last_event(fid) == last
    assert store.command_range(fid, "cmd-once") == (2, 2)


def test_a_killed_kept_connection_fails_one_append_as_a_store_error_and_is_replaced(victim: Victim) -> None:
    """pg_terminate_backend on the kept connection: the append on it raises a store error (never psycopg's),
    writes nothing, and the next append runs on a new connection."""
    store = victim.store
    _, fid = _fight(store)
    _append(store, fid, "before")
    killed = victim.terminate()
    assert store._kept and store._kept.backend_pids <= killed
    with pytest.raises(Conflict) as info:
        _append(store, fid, "lost")
    assert info.value.code == "store/conflict" and "busy" in info.value.message
    _append(store, fid, "after")
    assert store._kept.backend_pids and store._kept.backend_pids.isdisjoint(killed)
    assert [e.command_id for e in store.events(fid)[1:]] == ["cmd-before", "cmd-after"]


def test_one_lost_connection_retires_every_kept_connection(victim: Victim) -> None:
    """After a restart every kept connection is dead: the first append to find out retires them all (and the
    pool's), so the appends after it do not each fail on another dead connection."""
    store = victim.store
    _, fid = _fight(store)
    kept = store._kept
    assert kept is not None
    taken = [kept._take() for _ in range(3)]  # three threads appending at once leave three kept connections
    for k in taken:
        kept._give(k)
    assert len(kept.backend_pids) == 3
    killed = victim.terminate()
    with pytest.raises(Conflict):
        _append(store, fid, "lost")
    assert kept.backend_pids == frozenset()
    for tag in ("a", "b", "c"):
        _append(store, fid, tag)
    assert store.fight(fid).last_seq == 4
    assert kept.backend_pids.isdisjoint(killed)


def test_a_lost_connection_seen_by_a_read_retires_the_kept_connections(victim: Victim) -> None:
    """A read that finds its pooled connection dead (store/unavailable) tells the appends too: the next append
    opens a fresh connection instead of failing on its dead kept one."""
    store = victim.store
    _, fid = _fight(store)
    _append(store, fid, "before")
    assert store.fight(fid).last_seq == 2  # leaves a connection in the pool
    victim.terminate()
    with pytest.raises(StoreUnavailable):
        store.fight(fid)
    _append(store, fid, "after")
    assert store.fight(fid).last_seq == 3


def test_a_restart_fails_no_command_the_engine_retries_on_fresh_connections(victim: Victim) -> None:
    """Every connection of the store killed between two commands (a restart of PostgreSQL): the next command
    goes through once, on fresh connections, and the log stays gapless."""
    store = victim.store
    engine, fid = _fight(store)
    _note(engine, fid, "before")
    assert store.fight(fid).last_seq == 2  # leaves a connection in the pool
    victim.terminate()
    _note(engine, fid, "during")
    _note(engine, fid, "after")
    assert [(e.seq, e.command_id) for e in store.events(fid)[1:]] == [
        (2, "cmd-before"), (3, "cmd-during"), (4, "cmd-after")]


def test_a_driver_error_is_not_leaked_and_the_connection_stays_usable(victim: Victim) -> None:
    """A value the driver refuses (a NUL in text) is ``store/refused``, never the driver's error, with no
    statement values in its message; nothing is written and the connection serves on."""
    store = victim.store
    _, fid = _fight(store)
    last = store.last_event(fid)
    assert last is not None
    bad = attrs.evolve(chained_notes(last, 1, "nul")[0], actor="g\x00m")
    with pytest.raises(StoreError) as info:
        store.append(fid, last.seq, [bad], "cmd-nul-secret", "gm")
    assert info.value.code == "store/refused" and "DataError" in info.value.message
    assert "cmd-nul-secret" not in str(info.value)
    assert store.fight(fid).last_seq == 1
    pids = store._kept.backend_pids if store._kept else None
    _append(store, fid, "next")
    assert store._kept and store._kept.backend_pids == pids


def test_the_store_knows_the_notifications_of_its_own_appends(victim: Victim) -> None:
    """Each append's NOTIFY payload ("fight_id last_seq") is claimable once by this process's listener;
    another process's payload is not."""
    store = victim.store
    _, fid = _fight(store)
    _append(store, fid, "two", n=2)
    own = store.own_notifications
    assert own is not None
    assert own.claim(f"{fid} 3")
    assert not own.claim(f"{fid} 3")
    assert not own.claim(f"{fid} 2")


def test_own_notifications_are_bounded() -> None:
    """Payloads never heard back (the listener was down, or heard them first) are forgotten oldest first."""
    own = OwnNotifications(limit=2)
    for payload in ("f 1", "f 2", "f 3"):
        own.add(payload)
    assert [own.claim(p) for p in ("f 1", "f 2", "f 3")] == [False, True, True]


def test_a_disposed_store_stops_listening_on_its_engine(pg_databases: Databases) -> None:
    """A store given a shared engine hooks its disconnect errors while open, and unhooks them when disposed."""
    from combat_server.store.sql import make_engine

    url = pg_databases.new_url()
    engine = make_engine(url)
    store = SqlStore(url, engine)
    assert store._kept is not None
    assert sa.event.contains(engine, "handle_error", store._kept._on_error)
    store.dispose()
    assert not sa.event.contains(engine, "handle_error", store._kept._on_error)
