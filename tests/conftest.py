"""Real stores for the tests: a SQLite file and a schema of the real PostgreSQL.

Every test that takes ``store_url`` runs once per backend (the abstract store
suite, DESIGN.md). PostgreSQL tests get their own schema, dropped afterwards,
so parallel or repeated runs never collide. A missing PostgreSQL fails the run:
in CI (``CI=true``) and locally alike, it is never skipped.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import pytest
import sqlalchemy as sa
from hypothesis import settings

from combat_server.canonical import chain_hash
from combat_server.engine.fight import Engine
from combat_server.rules.model import Event
from combat_server.store import tables as t
from combat_server.store.sql import SqlStore, open_store

# Property tests judge results, never time: a shared, loaded machine must not fail one by Hypothesis's
# 200 ms deadline (a test's own @settings still sets its example count).
settings.register_profile("combat", deadline=None)
settings.load_profile("combat")

PG_BASE_URL = os.environ.get("COMBAT_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BACKENDS = ("sqlite", "postgresql")


def _pg_admin() -> sa.Engine:
    engine = sa.create_engine(PG_BASE_URL, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except sa.exc.OperationalError as exc:
        in_ci = os.environ.get("CI", "").lower() == "true"
        pytest.fail(
            f"PostgreSQL is not reachable at {PG_BASE_URL} ({exc.orig}); "
            + ("CI must run the PostgreSQL suite. " if in_ci else "")
            + "Start it (`.ci/run` does) instead of skipping these tests.",
            pytrace=False,
        )
    return engine


class Databases:
    """Hands out fresh, empty databases of one backend and removes them at the end."""

    def __init__(self, backend: str, tmp: Path) -> None:
        self.backend = backend
        self.tmp = tmp
        self._schemas: list[str] = []
        self._stores: list[SqlStore] = []
        self._admin: sa.Engine | None = None

    def new_url(self) -> str:
        """The URL of a new empty database (no tables, not migrated)."""
        if self.backend == "sqlite":
            return f"sqlite:///{self.tmp / f'db-{uuid.uuid4().hex[:8]}.sqlite'}"
        if self._admin is None:
            self._admin = _pg_admin()
        schema = f"t_{os.getpid()}_{uuid.uuid4().hex[:10]}"
        with self._admin.connect() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        self._schemas.append(schema)
        return f"{PG_BASE_URL}?options=-csearch_path%3D{schema}"

    def new_store(self, migrate: bool = True) -> SqlStore:
        store = open_store(self.new_url(), migrate=migrate, check=False)
        self._stores.append(store)
        return store

    def close(self) -> None:
        for store in self._stores:
            store.dispose()
        if self._admin is not None:
            with self._admin.connect() as conn:
                for schema in self._schemas:
                    conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            self._admin.dispose()


@pytest.fixture(params=[
    pytest.param("sqlite", id="sqlite"),
    pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres),
])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Databases]:
    """A factory of fresh databases, once per backend."""
    dbs = Databases(request.param, tmp_path)
    yield dbs
    dbs.close()


@pytest.fixture
def store(databases: Databases) -> SqlStore:
    """A migrated, empty store of the backend under test."""
    return databases.new_store()


@pytest.fixture
def engine(store: SqlStore) -> Engine:
    """An engine on ``store`` that snapshots every 5 events."""
    return Engine(store, snapshot_every=5)


@pytest.fixture
def sqlite_databases(tmp_path: Path) -> Iterator[Databases]:
    dbs = Databases("sqlite", tmp_path)
    yield dbs
    dbs.close()


@pytest.fixture
def pg_databases(tmp_path: Path) -> Iterator[Databases]:
    dbs = Databases("postgresql", tmp_path)
    yield dbs
    dbs.close()


def chained_notes(after: Event, n: int, tag: str) -> list[Event]:
    """``n`` chained ``note_added`` events following ``after``, under command id ``cmd-tag``: a batch to
    append to the store directly."""
    out: list[Event] = []
    prev = after
    for i in range(n):
        body = Event(after.fight_id, prev.seq + 1, "note_added", {"text": f"{tag} {i}", "by": "gm"}, "gm",
                     f"cmd-{tag}", "2026-01-01T00:00:00+00:00", after.ruleset_version, prev.hash, "")
        prev = attrs.evolve(body, hash=chain_hash(prev.hash, body.canonical()))
        out.append(prev)
    return out


def dump_tables(store: SqlStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in a stable order: compare before/after a refused operation."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.engine.connect() as conn:
        for table in t.metadata.sorted_tables:
            rows = conn.execute(sa.select(table)).all()
            out[table.name] = sorted((tuple(repr(v) for v in r) for r in rows))
        out["alembic_version"] = [tuple(r) for r in conn.execute(sa.text("SELECT version_num FROM alembic_version"))]
    return out


SHEET = {"st": 12, "dx": 11, "ht": 11,
         "weapons": [{"name": "sword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}]}


@pytest.fixture
def sheet() -> dict[str, Any]:
    """A valid GURPS sheet."""
    return dict(SHEET)


def populate(engine: Engine, fight_id: str | None = None, prefix: str = "p") -> str:
    """A fight with two combatants, an adjustment, a note, an undo and a redo (core commands only)."""
    from combat_server.rules.model import GM_ACTOR, Command

    fid = fight_id or engine.create_fight("gurps", dice_mode="seeded", seed="s", title="populated").fight_id
    run: Callable[[str, dict[str, Any], str], Any] = lambda kind, args, cid: engine.execute(
        fid, Command(kind, args, GM_ACTOR, f"{prefix}-{cid}"))
    run("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": SHEET}, "1")
    run("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": {"st": 13, "ht": 12}}, "2")
    run("adjust", {"combatant": "orc", "changes": {"hp": 4}, "reason": "arrow"}, "3")
    run("note", {"text": "the bridge creaks"}, "4")
    run("undo", {}, "5")
    run("redo", {}, "6")
    run("adjust", {"combatant": "alice", "changes": {"hp": 9, "posture": "kneeling"}, "reason": "fall"}, "7")
    return fid
