"""The SQLAlchemy event store, one class for SQLite and PostgreSQL.

The (fight_id, seq) primary key is the optimistic-concurrency check: whoever
inserts a seq first wins; the loser gets :class:`Conflict` and nothing of its
batch is written (one transaction). Driver errors never leak: they become
``store/...`` errors.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine

from combat_server.canonical import canonical_bytes, canonical_json, chain_hash_of_bytes, parse_stored, state_digest
from combat_server.errors import Conflict, Corrupt, MigrationMissing, StoreError, StoreUnavailable, UnknownFight
from combat_server.rules.model import JSON, Event
from combat_server.store import tables as t
from combat_server.store.recorder import FightRow, SeatRow

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

_EVENT_COLUMNS = "fight_id, seq, type, payload, actor, command_id, recorded_at, ruleset_version, prev_hash, hash"
_SQLITE_EVENT = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#: The statement that opens the transaction Python's sqlite3 driver opens by itself before an INSERT, by its
#: ``isolation_level`` ("" and "DEFERRED" alike); ``None`` (autocommit) is not here: it opens none.
_SQLITE_BEGIN: dict[str | None, str] = {"": "BEGIN", "DEFERRED": "BEGIN DEFERRED", "IMMEDIATE": "BEGIN IMMEDIATE",
                                        "EXCLUSIVE": "BEGIN EXCLUSIVE"}
_SQLITE_COMMAND = ("INSERT INTO commands (fight_id, command_id, first_seq, last_seq, actor, digest) "
                   "VALUES (?, ?, ?, ?, ?, ?)")
_SQLITE_SNAPSHOT = ("INSERT INTO snapshots (fight_id, seq, ruleset_version, state, hash, digest) "
                    "VALUES (?, ?, ?, ?, ?, ?)")
#: PostgreSQL NOTIFY channel of appends, payload "fight_id last_seq" (several server processes, DESIGN.md).
APPEND_CHANNEL = "combat_appends"
_PG_EVENT_VALUES = "(%s, %s, %s, %s::json, %s, %s, %s, %s, %s, %s)"
_PG_SNAPSHOT = ("INSERT INTO snapshots (fight_id, seq, ruleset_version, state, hash, digest) "
                "VALUES (%s, %s, %s, %s::json, %s, %s)")
_PG_COMMAND = ("INSERT INTO commands (fight_id, command_id, first_seq, last_seq, actor, digest) "
               "VALUES (%s, %s, %s, %s, %s, %s)")


def default_database_url() -> str:
    """``COMBAT_DATABASE_URL``, else a SQLite file in the working directory."""
    return os.environ.get("COMBAT_DATABASE_URL") or "sqlite:///combat.sqlite"


#: The driver's errors a store method raises as store errors (:func:`store_error`).
_DRIVER_ERRORS = (sa.exc.DBAPIError, sqlite3.DatabaseError, sqlite3.InterfaceError)


def store_error(exc: BaseException) -> StoreError:
    """The store error a driver's error (one of :data:`_DRIVER_ERRORS`) is raised as: "cannot reach the
    database" is ``store/unavailable``, any other refusal ``store/refused`` (issue 16: the engine and the
    server know store errors only, never the driver's)."""
    orig = getattr(exc, "orig", None) or exc
    if isinstance(exc, (sa.exc.OperationalError, sa.exc.InterfaceError, sqlite3.OperationalError,
                        sqlite3.InterfaceError)):
        return StoreUnavailable(None, f"the database could not be reached: {type(orig).__name__}: "
                                      f"{str(orig).strip()[:200]}")
    # Any other refusal of the driver (a DataError, a constraint the method does not turn into a
    # conflict): a store error too, never the driver's. Its text is left out: it may quote the
    # values written, and event payloads hold hidden sheets.
    return StoreError("store/refused", f"the database refused the request ({type(orig).__name__}); "
                                       "nothing was written")


def _translated(method: Callable[..., Any]) -> Callable[..., Any]:
    """The method with the driver's errors raised as store errors (:func:`store_error`)."""
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return method(*args, **kwargs)
        except _DRIVER_ERRORS as exc:
            raise store_error(exc) from exc

    return wrapper


#: SqlStore methods left as they are: schema checks (open_store turns their errors into
#: store/unreachable) and the server's upkeep (it logs what fails there and tries again).
_UNTRANSLATED = frozenset({"migrate", "current_revision", "head_revision", "check_schema", "checkpoint", "wal_size",
                           "dispose"})
#: SqlStore methods that raise :func:`store_error` in their own body instead of through :func:`_translated`'s
#: wrapper: ``append`` runs once per command (issue 16, server CPU: the wrapper's call and its ``*args``).
TRANSLATED_IN_BODY = frozenset({"append"})


def _translate_driver_errors(cls: type) -> type:
    for name, value in list(vars(cls).items()):
        if callable(value) and not name.startswith("_") and name not in _UNTRANSLATED | TRANSLATED_IN_BODY:
            setattr(cls, name, _translated(value))
    return cls


#: A WAL file larger than this is checkpointed with TRUNCATE (and trimmed to it by journal_size_limit) by
#: :meth:`SqlStore.checkpoint`: sustained writes never let it grow without bound (#15 item 8).
WAL_LIMIT_BYTES = 64 * 1024 * 1024
#: How long (ms) a TRUNCATE checkpoint may wait for readers and writers before giving up until the next call.
TRUNCATE_WAIT_MS = 200


#: ``serve --durability``: SQLite's ``synchronous`` setting (WAL mode). ``normal``: a committed event
#: survives a crash of the process, not a power loss or an OS crash (the last commits may be lost
#: then, never half-written); ``full``: every commit is fsynced, and survives those too, at the cost
#: measured in docs/benchmarks.md. PostgreSQL's durability is its own configuration's.
DURABILITY = {"normal": "NORMAL", "full": "FULL"}


def _sqlite_pragmas(autocheckpoint: bool, wal_limit: int = WAL_LIMIT_BYTES,
                    durability: str = "normal") -> Callable[[Any, Any], None]:
    synchronous = DURABILITY[durability]

    def on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA synchronous={synchronous}")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=10000")
        cur.execute(f"PRAGMA journal_size_limit={int(wal_limit)}")
        if not autocheckpoint:
            cur.execute("PRAGMA wal_autocheckpoint=0")
        cur.close()

    return on_connect


def make_engine(url: str, *, background_checkpoints: bool = False, wal_limit: int = WAL_LIMIT_BYTES,
                durability: str = "normal") -> Engine:
    """``background_checkpoints`` (SQLite): commits never checkpoint the WAL; call
    :meth:`SqlStore.checkpoint` from another thread instead (the server does).
    ``durability`` (SQLite): ``normal`` or ``full``, see :data:`DURABILITY`.

    JSON columns are written as canonical JSON on both engines: the bytes stored are
    the bytes hashed (#15 item 4)."""
    if url.startswith("sqlite"):
        # hide_parameters: a driver error's message must not carry the statement's values (event
        # payloads hold hidden sheets) into the logs.
        engine = sa.create_engine(url, connect_args={"check_same_thread": False, "timeout": 10},
                                  hide_parameters=True, json_serializer=canonical_json)
        sa_event.listen(engine, "connect", _sqlite_pragmas(not background_checkpoints, wal_limit, durability))
        return engine
    # No pre-ping: it would cost a round trip per command. A connection dropped by a
    # database restart fails one command (the client retries with the same command id)
    # and SQLAlchemy invalidates the pool on that disconnect error.
    return sa.create_engine(url, pool_size=10, max_overflow=20, pool_recycle=1800, hide_parameters=True,
                            json_serializer=canonical_json)


def alembic_config(url: str) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


class OwnNotifications:
    """The payloads of the NOTIFYs this store's appends sent, until this process's listener hears them.

    Why (issue 16): the listener hears every append, its own process's too, and a
    notification that overtakes the push of the command that sent it queued a refresh
    of the fight for nothing. A (fight, seq) is appended once, by one writer: a payload
    this store sent names an append this process made and publishes itself. The set is
    bounded (a payload heard before it was added stays until pushed out) and shared
    between the engine's threads and the listener's loop.
    """

    def __init__(self, limit: int = 4096) -> None:
        self._limit = limit
        self._sent: dict[str, None] = {}
        self._lock = threading.Lock()

    def add(self, payload: str) -> None:
        with self._lock:
            self._sent[payload] = None
            if len(self._sent) > self._limit:
                del self._sent[next(iter(self._sent))]

    def claim(self, payload: str) -> bool:
        """Whether this store sent ``payload`` (it is forgotten: each is heard once)."""
        with self._lock:
            return self._sent.pop(payload, 0) is None


#: libpq's PQTRANS_IDLE: a connection in autocommit between statements (psycopg.pq.TransactionStatus.IDLE).
_IDLE = 0


class _Kept:
    """One driver connection kept checked out of the pool for appends, with its cursor."""

    __slots__ = ("fairy", "driver", "cursor", "generation", "backend_pid")

    def __init__(self, fairy: Any, generation: int) -> None:
        self.fairy = fairy
        self.driver = fairy.dbapi_connection
        self.driver.autocommit = True  # the append is one statement: atomic on its own, one round trip
        self.cursor = self.driver.cursor()
        self.generation = generation
        self.backend_pid: int = self.driver.info.backend_pid


class _KeptConnections:
    """PostgreSQL: the driver connections appends run on, kept checked out of SQLAlchemy's pool.

    Why (issue 16, a lean append, as :meth:`SqlStore.append` does on SQLite): checking a
    connection out of the pool and back, and SQLAlchemy's execution context around the
    statement, cost more of the server's CPU per append than psycopg itself
    (docs/benchmarks.md). A thread takes an idle kept connection (or opens one when all
    are busy: at most as many as threads append at once, the engine's few workers) and
    gives it back after its statement. SQLAlchemy still opens them (URL, connect
    arguments, pool size) and says which driver errors mean a lost connection.

    A lost connection (a restart of PostgreSQL, a killed backend) makes every kept
    connection suspect, like SQLAlchemy's pool does for its own: the generation is
    bumped and older connections are closed as they come back instead of failing one
    command each; SQLAlchemy's pool is replaced too, so the engine's retry of the
    command reads on fresh connections. A disconnect SQLAlchemy sees on its own
    connections (a read) bumps the generation as well (``handle_error``).
    """

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._dbapi_error: Any = engine.dialect.loaded_dbapi.Error  # psycopg.Error
        self._idle: list[_Kept] = []
        self._lock = threading.Lock()
        self.generation = 0
        #: Server process ids of the kept connections (what a test terminates to play a restart).
        self.backend_pids: frozenset[int] = frozenset()
        sa_event.listen(engine, "handle_error", self._on_error)

    def _on_error(self, context: Any) -> None:
        if context.is_disconnect:
            self.stale()

    def stale(self) -> None:
        """Every kept connection open now is closed when next taken or given back."""
        with self._lock:
            self.generation += 1
            idle, self._idle = self._idle, []
        for kept in idle:
            self._discard(kept)

    def execute(self, sql: str, params: tuple[Any, ...]) -> None:
        """Run one autocommit statement on a kept connection; a driver error is raised as SQLAlchemy's."""
        kept = self._take()
        try:
            kept.cursor.execute(sql, params)
        except self._dbapi_error as exc:
            disconnect = self._engine.dialect.is_disconnect(exc, kept.driver, kept.cursor)
            if disconnect:
                if kept.generation == self.generation:  # the first to notice: the others are as stale
                    self.stale()
                    self._engine.dispose()
                self._discard(kept)
            elif kept.driver.info.transaction_status == _IDLE:  # a refused statement: the connection is fine
                self._give(kept)
            else:
                self._discard(kept)
            raise sa.exc.DBAPIError.instance(sql, None, exc, self._dbapi_error, hide_parameters=True,
                                             connection_invalidated=disconnect,
                                             dialect=self._engine.dialect) from exc
        except BaseException:
            self._discard(kept)  # interrupted mid-statement: its state is unknown
            raise
        self._give(kept)

    def _take(self) -> _Kept:
        with self._lock:
            if self._idle:  # never stale: stale() empties the list
                return self._idle.pop()
            generation = self.generation
        fairy = self._engine.raw_connection()  # raises SQLAlchemy's OperationalError if PostgreSQL is down
        try:
            kept = _Kept(fairy, generation)
        except BaseException:
            fairy.invalidate()
            fairy.close()
            raise
        with self._lock:
            self.backend_pids = self.backend_pids | {kept.backend_pid}
        return kept

    def _give(self, kept: _Kept) -> None:
        with self._lock:
            if kept.generation == self.generation:
                self._idle.append(kept)
                return
        self._discard(kept)

    def _discard(self, kept: _Kept) -> None:
        """Close a kept connection for good (it never goes back to the pool: it is in autocommit)."""
        with self._lock:
            self.backend_pids = self.backend_pids - {kept.backend_pid}
        try:
            kept.fairy.invalidate()
            kept.fairy.close()
        except Exception:  # closing a broken connection: nothing more to release
            pass

    def close(self) -> None:
        if sa_event.contains(self._engine, "handle_error", self._on_error):
            sa_event.remove(self._engine, "handle_error", self._on_error)
        self.stale()


@_translate_driver_errors
class SqlStore:
    """The fight log in SQL (a :class:`~combat_server.store.recorder.Store`). Every public method is one
    transaction, and raises store errors only (:func:`_translated`)."""

    def __init__(self, url: str, engine: Engine | None = None, *, background_checkpoints: bool = False,
                 wal_limit: int = WAL_LIMIT_BYTES, durability: str = "normal") -> None:
        if durability not in DURABILITY:
            raise ValueError(f"durability must be one of {', '.join(DURABILITY)}, not {durability!r}")
        self.url = url
        self.wal_limit = wal_limit
        self.durability = durability
        self.engine = engine or make_engine(url, background_checkpoints=background_checkpoints, wal_limit=wal_limit,
                                            durability=durability)
        self.background_checkpoints = background_checkpoints and self.engine.dialect.name == "sqlite"
        #: PostgreSQL: the driver connections appends go through, kept checked out (issue 16, a lean append).
        self._kept = _KeptConnections(self.engine) if self.engine.dialect.name == "postgresql" else None
        #: PostgreSQL: what this store's appends notified, for this process's listener to skip (pg_listen.py).
        self.own_notifications = OwnNotifications() if self._kept is not None else None
        #: SQLite: the one connection appends go through, kept checked out (issue 16, a lean append:
        #: the pool checkout, reset and return per command cost a third of the append). SQLite has
        #: one writer at a time anyway; the lock keeps threads (tests, tools) off it together.
        self._writer: Connection | None = None
        self._writer_lock = threading.Lock()
        #: SQLite: the writer's driver connection and a cursor on it, kept between appends (issue 16, session 12).
        self._writer_cursor: tuple[Any, Any] | None = None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def checkpoint(self) -> tuple[int, int, int]:
        """Copy the SQLite WAL into the database file without blocking writers (PASSIVE).

        Why: by default the commit that crosses 1,000 WAL pages runs the
        checkpoint itself, fsync included: 15-20 ms inside one command, about once
        a second at 150 commands/s (docs/benchmarks.md). A store opened with
        ``background_checkpoints`` leaves that to whoever calls this, off the
        event loop. Returns SQLite's (busy, WAL frames, frames checkpointed);
        ``(0, 0, 0)`` on PostgreSQL, which has no WAL of ours to copy.

        A PASSIVE checkpoint never shrinks the file, and one that never completes
        (a writer always active) lets it grow without bound (1.95 GB next to a
        177 MB database, #15 item 8): past ``wal_limit`` bytes it is followed by
        a TRUNCATE checkpoint, which waits for the readers and writers in hand
        (at most ``TRUNCATE_WAIT_MS``) and empties the file. The figures
        returned are the PASSIVE checkpoint's.
        """
        if self.engine.dialect.name != "sqlite":
            return (0, 0, 0)
        with self.engine.connect() as conn:
            row = conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").one()
            if self.wal_size() > self.wal_limit:
                # The copying is done (as far as readers allow); what is left is to empty the file. A pending
                # TRUNCATE holds off new writers while it waits for readers: keep that wait short (the writer
                # may be the event loop); if it does not get through, the next call tries again.
                conn.exec_driver_sql(f"PRAGMA busy_timeout={TRUNCATE_WAIT_MS}")
                try:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").one()
                finally:
                    conn.exec_driver_sql("PRAGMA busy_timeout=10000")
            conn.commit()
        return (int(row[0]), int(row[1]), int(row[2]))

    def wal_size(self) -> int:
        """Bytes in the SQLite WAL file now (0 if there is none, or on PostgreSQL)."""
        path = self.engine.url.database if self.engine.dialect.name == "sqlite" else None
        if not path or path == ":memory:":
            return 0
        try:
            return os.path.getsize(path + "-wal")
        except OSError:
            return 0

    # ------------------------------------------------------------ schema

    def migrate(self) -> str:
        """Upgrade to the newest migration; returns the revision now current."""
        from alembic import command

        cfg = alembic_config(self.url)
        with self.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
        return self.current_revision() or ""

    def current_revision(self) -> str | None:
        from alembic.runtime.migration import MigrationContext

        with self.engine.connect() as conn:
            rev: str | None = MigrationContext.configure(conn).get_current_revision()
            return rev

    def head_revision(self) -> str:
        from alembic.script import ScriptDirectory

        head = ScriptDirectory.from_config(alembic_config(self.url)).get_current_head()
        if head is None:
            raise StoreError("store/no_migrations", f"no alembic migrations found in {MIGRATIONS_DIR}")
        return head

    def check_schema(self) -> None:
        current, head = self.current_revision(), self.head_revision()
        if current != head:
            raise MigrationMissing(
                None,
                f"database schema is at {current or 'nothing'}, needs {head}: run `combat-server migrate`",
                current=current, head=head,
            )

    # ------------------------------------------------------------ fights

    def create_fight(self, first: Event, ruleset: str, title: str, seats: Sequence[SeatRow] = ()) -> None:
        """The fight, its first event and its first seats (the GM's) in one transaction:
        a crash can never leave a fight nobody may run."""
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    t.fights.insert().values(
                        fight_id=first.fight_id, ruleset=ruleset, ruleset_version=first.ruleset_version,
                        title=title, created_at=first.recorded_at,
                    )
                )
                self._insert_events(conn, [first])
                for seat in seats:
                    conn.execute(
                        t.seats.insert().values(
                            fight_id=seat.fight_id, seat_id=seat.seat_id, role=seat.role, label=seat.label,
                            combatants=list(seat.combatants), token_hash=seat.token_hash,
                            created_at=first.recorded_at,
                        )
                    )
        except sa.exc.IntegrityError as exc:
            raise StoreError("fight/exists", f"fight {first.fight_id} already exists") from exc

    def fight(self, fight_id: str) -> FightRow:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.fights).where(t.fights.c.fight_id == fight_id)).first()
            if row is None:
                raise UnknownFight(None, f"no fight {fight_id!r}", fight_id=fight_id)
            return FightRow(row.fight_id, row.ruleset, row.ruleset_version, row.title, row.created_at,
                            self._last_seq(conn, fight_id))

    def fights(self) -> list[FightRow]:
        last = (
            sa.select(t.events.c.fight_id, sa.func.max(t.events.c.seq).label("last_seq"))
            .group_by(t.events.c.fight_id)
            .subquery()
        )
        q = (
            sa.select(t.fights, last.c.last_seq)
            .join(last, last.c.fight_id == t.fights.c.fight_id, isouter=True)
            .order_by(t.fights.c.created_at, t.fights.c.fight_id)
        )
        with self.engine.connect() as conn:
            return [
                FightRow(r.fight_id, r.ruleset, r.ruleset_version, r.title, r.created_at, r.last_seq or 0)
                for r in conn.execute(q)
            ]

    # ------------------------------------------------------------ events

    @staticmethod
    def _last_seq(conn: Connection, fight_id: str) -> int:
        value = conn.execute(sa.select(sa.func.max(t.events.c.seq)).where(t.events.c.fight_id == fight_id)).scalar()
        return int(value or 0)

    @staticmethod
    def _insert_events(conn: Connection, events: Sequence[Event]) -> None:
        conn.execute(
            t.events.insert(),
            [
                {
                    "fight_id": e.fight_id, "seq": e.seq, "type": e.type, "payload": dict(e.payload),
                    "actor": e.actor, "command_id": e.command_id, "recorded_at": e.recorded_at,
                    "ruleset_version": e.ruleset_version, "prev_hash": e.prev_hash, "hash": e.hash,
                }
                for e in events
            ],
        )

    @staticmethod
    def _event_row(e: Event) -> tuple[Any, ...]:
        payload = e.payload_text  # the engine's text of the payload, written when it hashed the event
        return (e.fight_id, e.seq, e.type, canonical_json(e.payload) if payload is None else payload, e.actor,
                e.command_id, e.recorded_at, e.ruleset_version, e.prev_hash, e.hash)

    def _write_sqlite(self, command_row: tuple[Any, ...] | None, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """One transaction on the kept writer connection: the command row (if any), then ``sql`` for each row."""
        with self._writer_lock:
            conn = self._writer
            if conn is None or conn.invalidated or conn.closed:
                conn = self._writer = self.engine.connect()
            driver = conn.connection.dbapi_connection
            assert driver is not None
            try:
                begin = _SQLITE_BEGIN.get(driver.isolation_level)
                if begin is None or driver.in_transaction:
                    # What the driver's implicit transaction would not do as the statements below do: as before.
                    self._write_sqlite_implicit(driver, command_row, sql, rows)
                    return
                kept = self._writer_cursor
                if kept is None or kept[0] is not driver:
                    kept = (driver, driver.cursor())
                    self._writer_cursor = kept
                cur = kept[1]
                # The BEGIN the driver would have issued before the first INSERT and the COMMIT of
                # ``driver.commit()``, as statements of the driver's cache: it prepares its own BEGIN and
                # COMMIT again for every transaction (issue 16, session 12: about 3 k instructions a command,
                # with the cursor kept instead of made and closed).
                cur.execute(begin)
                self._insert_sqlite(cur, command_row, sql, rows)
                cur.execute("COMMIT")
            except sqlite3.IntegrityError:
                driver.rollback()  # nothing of the batch is written; the connection is fine
                raise
            except BaseException:
                self._writer = None  # whatever broke it, the next append starts on a fresh connection
                self._writer_cursor = None
                try:
                    driver.rollback()
                finally:
                    conn.invalidate()
                raise

    @staticmethod
    def _write_sqlite_implicit(driver: Any, command_row: tuple[Any, ...] | None, sql: str,
                               rows: Sequence[tuple[Any, ...]]) -> None:
        """:meth:`_write_sqlite`'s statements in the driver's own transaction handling (a driver in
        autocommit mode, or one already inside a transaction): a fresh cursor, ``driver.commit()``."""
        cur = driver.cursor()
        try:
            SqlStore._insert_sqlite(cur, command_row, sql, rows)
        finally:
            cur.close()
        driver.commit()

    @staticmethod
    def _insert_sqlite(cur: Any, command_row: tuple[Any, ...] | None, sql: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """A transaction's statements: the command row (if any), then ``sql`` for each row (executemany for a batch)."""
        if command_row is not None:
            cur.execute(_SQLITE_COMMAND, command_row)
        if len(rows) > 1:
            cur.executemany(sql, rows)
        else:
            cur.execute(sql, rows[0])

    def _append_postgresql(self, events: Sequence[Event], command_row: tuple[Any, ...] | None) -> None:
        # One statement, one round trip: the command row and the events inserted by
        # data-modifying CTEs, then a NOTIFY on APPEND_CHANNEL ("fight_id last_seq")
        # that PostgreSQL delivers to the other server processes only when the
        # statement commits (autocommit: it is atomic on its own). Straight on a kept
        # driver connection (:class:`_KeptConnections`): no pool checkout and no
        # SQLAlchemy execution context per command; a driver error is raised as the
        # SQLAlchemy error it would have been, so :meth:`append` translates it as before.
        values = ", ".join([_PG_EVENT_VALUES] * len(events))
        params: list[Any] = []
        ctes = []
        if command_row is not None:
            ctes.append(f"c AS ({_PG_COMMAND})")
            params.extend(command_row)
        ctes.append(f"e AS (INSERT INTO events ({_EVENT_COLUMNS}) VALUES {values} RETURNING seq)")
        for e in events:
            params.extend(self._event_row(e))
        sql = f"WITH {', '.join(ctes)} SELECT pg_notify('{APPEND_CHANNEL}', %s || ' ' || max(seq)) FROM e"
        params.append(events[0].fight_id)
        assert self._kept is not None and self.own_notifications is not None
        self._kept.execute(sql, tuple(params))
        self.own_notifications.add(f"{events[0].fight_id} {events[-1].seq}")

    def append(self, fight_id: str, expected_seq: int, events: Sequence[Event], command_id: str, actor: str,
               digest: str | None = None) -> None:
        """Append a command's events atomically, iff the log still ends at ``expected_seq``.

        The (fight_id, seq) primary key is the check: the batch starts at
        ``expected_seq + 1``, so if another writer got there first the insert fails
        and nothing of the batch is written. A reused command id fails the same way
        on the commands table; the engine tells the two apart. A driver's error is raised as
        :func:`store_error`, here rather than by :func:`_translated`'s wrapper (:data:`TRANSLATED_IN_BODY`).
        """
        try:
            if not events:
                return
            if events[0].seq != expected_seq + 1:
                raise Conflict(None, f"batch starts at seq {events[0].seq}, not {expected_seq + 1}",
                               expected=expected_seq)
            command_row = (fight_id, command_id, events[0].seq, events[-1].seq, actor, digest) if command_id else None
            try:
                if self._kept is not None:  # PostgreSQL (``self.dialect``, without the property's two look-ups)
                    self._append_postgresql(events, command_row)
                else:
                    # The hot path (issue 16, a lean append): plain parameterised SQL (executemany for a batch),
                    # one transaction, straight on the driver connection SQLAlchemy's pool gave the kept writer
                    # connection. Through ``exec_driver_sql`` each statement cost 22 us of bookkeeping for 6 us
                    # of SQLite (docs/benchmarks.md); the pool, URL and connect-time pragmas stay SQLAlchemy's.
                    self._write_sqlite(command_row, _SQLITE_EVENT, [self._event_row(e) for e in events])
            except (sa.exc.IntegrityError, sqlite3.IntegrityError) as exc:
                with self.engine.connect() as conn:
                    last = self._last_seq(conn, fight_id)
                raise Conflict(None, f"fight {fight_id} moved on to seq {last} (expected {expected_seq})",
                               expected=expected_seq, actual=last) from exc
            except sa.exc.OperationalError as exc:
                raise Conflict(None, f"fight {fight_id} is busy: {exc.orig}", expected=expected_seq) from exc
            except sqlite3.OperationalError as exc:
                raise Conflict(None, f"fight {fight_id} is busy: {exc}", expected=expected_seq) from exc
        except _DRIVER_ERRORS as exc:
            raise store_error(exc) from exc

    def import_events(self, events: Sequence[Event], ruleset: str, title: str) -> None:
        """Write a whole imported log in one transaction (all or nothing)."""
        first = events[0]
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    t.fights.insert().values(
                        fight_id=first.fight_id, ruleset=ruleset, ruleset_version=first.ruleset_version,
                        title=title, created_at=first.recorded_at,
                    )
                )
                for chunk_start in range(0, len(events), 1000):
                    self._insert_events(conn, events[chunk_start:chunk_start + 1000])
                by_command: dict[str, list[int]] = {}
                for e in events:
                    if e.command_id:
                        by_command.setdefault(e.command_id, []).append(e.seq)
                if by_command:
                    conn.execute(
                        t.commands.insert(),
                        [
                            {"fight_id": first.fight_id, "command_id": cid, "first_seq": min(s),
                             "last_seq": max(s), "actor": ""}
                            for cid, s in by_command.items()
                        ],
                    )
        except sa.exc.IntegrityError as exc:
            raise StoreError("import/fight_exists", f"fight {first.fight_id} already exists here") from exc

    def events(self, fight_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
        q = _select_events().where(t.events.c.fight_id == fight_id, t.events.c.seq > after)
        if upto is not None:
            q = q.where(t.events.c.seq <= upto)
        with self.engine.connect() as conn:
            return [_row_to_event(r) for r in conn.execute(q.order_by(t.events.c.seq))]

    def events_page(self, fight_id: str, after: int, upto: int, limit: int) -> list[Event]:
        """At most ``limit`` events (after, upto], in seq order.

        One range read of the (fight_id, seq) primary key with a LIMIT: a page
        costs the same at seq 100 as at seq 100,000, whatever the fight's length
        (replay and catch-up pages, issue 15 item 2).
        """
        q = (_select_events()
             .where(t.events.c.fight_id == fight_id, t.events.c.seq > after, t.events.c.seq <= upto)
             .order_by(t.events.c.seq).limit(limit))
        with self.engine.connect() as conn:
            return [_row_to_event(r) for r in conn.execute(q)]

    def iter_events(self, fight_id: str, batch: int = 2000, upto: int | None = None) -> Iterator[Event]:
        """The fight's events in seq order, read ``batch`` at a time, up to ``upto`` (default: the end)."""
        after = 0
        while upto is None or after < upto:
            end = after + batch if upto is None else min(after + batch, upto)
            chunk = self.events(fight_id, after=after, upto=end)
            if not chunk:
                return
            yield from chunk
            after = chunk[-1].seq

    def last_event(self, fight_id: str) -> Event | None:
        q = _select_events().where(t.events.c.fight_id == fight_id).order_by(t.events.c.seq.desc()).limit(1)
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
            return _row_to_event(row) if row is not None else None

    def control_events(self, fight_id: str, after: int = 0) -> list[Event]:
        """The fight's undo/redo events (every cold load and undo asks), in seq order, read from the
        partial index ``ix_events_control`` (migration 0005) on both backends.

        Both planners use a partial index only when they can prove the query's WHERE implies
        the index's: the types are rendered into the statement as literals
        (:func:`_control_events_query`), since bound parameters prove nothing. With the
        index on (fight_id, seq) the rows come out in seq order: no sort, and no ``seq + 0``
        to keep SQLite off the primary key, which the (fight_id, type) index needed.
        """
        q = _control_events_query().params(fight_id=fight_id, after=after)
        with self.engine.connect() as conn:
            return [_row_to_event(r) for r in conn.execute(q)]

    def command_record(self, fight_id: str, command_id: str) -> tuple[int, int, str | None] | None:
        """The seq range a command id produced and the digest of what it asked for (``None`` for rows
        written before migration 0003); ``None`` for an unknown id."""
        q = sa.select(t.commands.c.first_seq, t.commands.c.last_seq, t.commands.c.digest).where(
            t.commands.c.fight_id == fight_id, t.commands.c.command_id == command_id
        )
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
            return (row.first_seq, row.last_seq, row.digest) if row else None

    def commands_last_seq(self, fight_id: str) -> int:
        """The highest seq the commands table says a command produced (0: none): past the last
        event, the log lost its end (``verify``)."""
        q = sa.select(sa.func.max(t.commands.c.last_seq)).where(t.commands.c.fight_id == fight_id)
        with self.engine.connect() as conn:
            return int(conn.execute(q).scalar() or 0)

    def log_ends(self, fight_id: str) -> tuple[int, int]:
        """The log's last seq and the highest seq the commands table says a command produced, in one
        query (both on the tables' (fight_id, ...) keys): a load checks that the log did not lose its end."""
        last_event = sa.select(sa.func.max(t.events.c.seq)).where(t.events.c.fight_id == fight_id).scalar_subquery()
        last_command = (sa.select(sa.func.max(t.commands.c.last_seq))
                        .where(t.commands.c.fight_id == fight_id).scalar_subquery())
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(last_event, last_command)).one()
        return int(row[0] or 0), int(row[1] or 0)

    def command_range(self, fight_id: str, command_id: str) -> tuple[int, int] | None:
        record = self.command_record(fight_id, command_id)
        return None if record is None else (record[0], record[1])

    # ------------------------------------------------------------ snapshots

    def save_snapshot(self, fight_id: str, seq: int, ruleset_version: str, state: dict[str, JSON],
                      event_hash: str | None = None) -> None:
        """``event_hash``: the hash of event ``seq``; stored with a digest of the state so that a
        load can check the snapshot (a snapshot without it is never used by a load)."""
        self.save_snapshot_text(fight_id, seq, ruleset_version, canonical_bytes(state), event_hash)

    def save_snapshot_text(self, fight_id: str, seq: int, ruleset_version: str, canonical: bytes,
                           event_hash: str | None = None) -> None:
        """:meth:`save_snapshot` of a state given as ``canonical_bytes(state)``, its canonical text, which the
        column holds and the digest covers (the engine writes it from the text of its parts, issue 16)."""
        digest = chain_hash_of_bytes(event_hash, canonical) if event_hash is not None else None  # = state_digest(..)
        text = canonical.decode("utf-8")  # the column's text, as SQLAlchemy's JSON type binds it (json_serializer)
        if self.dialect == "sqlite":
            # On the kept writer connection: no pool checkout and no statement compiled per snapshot
            # (issue 16; tests/store/test_lean_writes.py).
            try:
                self._write_sqlite(None, _SQLITE_SNAPSHOT, [(fight_id, seq, ruleset_version, text, event_hash, digest)])
            except sqlite3.IntegrityError:
                pass  # the same snapshot was written by another process: identical by construction
            return
        try:
            with self.engine.begin() as conn:
                # The text cast to json, as SQLAlchemy binds its JSON type (PostgreSQL's json keeps it as given).
                conn.exec_driver_sql(_PG_SNAPSHOT, (fight_id, seq, ruleset_version, text, event_hash, digest))
        except sa.exc.IntegrityError:
            pass  # the same snapshot was written by another process: identical by construction

    def snapshots(self, fight_id: str, ruleset_version: str, upto: int | None = None) -> list[tuple[int, dict[str, JSON]]]:
        """Snapshots of this ruleset version, newest first (others are ignored, DESIGN.md)."""
        q = sa.select(t.snapshots.c.seq, t.snapshots.c.state).where(
            t.snapshots.c.fight_id == fight_id, t.snapshots.c.ruleset_version == ruleset_version
        )
        if upto is not None:
            q = q.where(t.snapshots.c.seq <= upto)
        with self.engine.connect() as conn:
            return [(r.seq, r.state) for r in conn.execute(q.order_by(t.snapshots.c.seq.desc()))]

    def snapshot_seqs(self, fight_id: str) -> list[tuple[int, str]]:
        q = sa.select(t.snapshots.c.seq, t.snapshots.c.ruleset_version).where(t.snapshots.c.fight_id == fight_id)
        with self.engine.connect() as conn:
            return [(r.seq, r.ruleset_version) for r in conn.execute(q.order_by(t.snapshots.c.seq))]

    def checked_snapshot(self, fight_id: str, seq: int) -> tuple[dict[str, JSON], str] | None:
        """The snapshot at ``seq`` and the event hash it was taken at, if its digest holds;
        ``None`` for no snapshot or one written before migration 0004 (no hash: refold instead).

        Raises :class:`Corrupt` if the stored state does not match its digest (edited)."""
        q = sa.select(sa.cast(t.snapshots.c.state, sa.Text).label("state"), t.snapshots.c.hash,
                      t.snapshots.c.digest).where(t.snapshots.c.fight_id == fight_id, t.snapshots.c.seq == seq)
        with self.engine.connect() as conn:
            row = conn.execute(q).first()
        if row is None or row.hash is None:
            return None
        try:
            state = parse_stored(row.state)
            ok = isinstance(state, dict) and state_digest(row.hash, state) == row.digest
        except ValueError:
            ok = False
        if not ok:
            raise Corrupt(None, f"fight {fight_id}: the snapshot at seq {seq} does not match its digest",
                          fight_id=fight_id, seq=seq)
        return state, str(row.hash)

    def snapshot(self, fight_id: str, seq: int) -> dict[str, JSON] | None:
        q = sa.select(t.snapshots.c.state).where(t.snapshots.c.fight_id == fight_id, t.snapshots.c.seq == seq)
        with self.engine.connect() as conn:
            value = conn.execute(q).scalar()
            return dict(value) if value is not None else None

    # ------------------------------------------------------------ seats

    def add_seat(self, seat: SeatRow, created_at: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                t.seats.insert().values(
                    fight_id=seat.fight_id, seat_id=seat.seat_id, role=seat.role, label=seat.label,
                    combatants=list(seat.combatants), token_hash=seat.token_hash, created_at=created_at,
                )
            )

    def replace_tokens(self, fight_id: str, token_hashes: Mapping[str, str]) -> None:
        """Give seats new token hashes in one transaction: their old tokens stop working at once."""
        with self.engine.begin() as conn:
            for seat_id, digest in token_hashes.items():
                conn.execute(t.seats.update().where(t.seats.c.fight_id == fight_id, t.seats.c.seat_id == seat_id)
                             .values(token_hash=digest))

    def seat_by_token_hash(self, token_hash: str) -> SeatRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(sa.select(t.seats).where(t.seats.c.token_hash == token_hash)).first()
            return _row_to_seat(r) if r is not None else None

    def seats(self, fight_id: str) -> list[SeatRow]:
        with self.engine.connect() as conn:
            q = sa.select(t.seats).where(t.seats.c.fight_id == fight_id).order_by(t.seats.c.created_at)
            return [_row_to_seat(r) for r in conn.execute(q)]

    def dispose(self) -> None:
        with self._writer_lock:
            self._writer_cursor = None
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        if self._kept is not None:
            self._kept.close()
        self.engine.dispose()


@functools.cache
def _select_events() -> Any:
    """Events with the payload read as the stored text (``json`` or TEXT), parsed by
    :func:`_row_to_event`: an unreadable payload names its seq instead of a traceback."""
    cols = [sa.cast(c, sa.Text).label("payload") if c.name == "payload" else c for c in t.events.columns]
    return sa.select(*cols)


@functools.cache
def _control_events_query() -> Any:
    """:meth:`SqlStore.control_events`' statement, its types as literals (``literal_execute``: rendered in
    the SQL, still one cached compilation) so that the planner may use the partial index."""
    kinds: sa.BindParameter[list[str]] = sa.bindparam("control_types", list(t.CONTROL_EVENT_TYPES), expanding=True,
                                                      literal_execute=True)
    return (_select_events()
            .where(t.events.c.fight_id == sa.bindparam("fight_id"), t.events.c.seq > sa.bindparam("after"),
                   t.events.c.type.in_(kinds))
            .order_by(t.events.c.seq))


def _row_to_event(r: Any) -> Event:
    """An event from a row of :func:`_select_events` (payload as text); a row of a plain
    ``select(events)`` (payload already parsed by the driver) is taken as it is."""
    try:
        payload = r.payload if isinstance(r.payload, dict) else parse_stored(r.payload)
        if not isinstance(payload, dict):
            raise ValueError("not an object")
    except ValueError as exc:
        raise Corrupt(None, f"fight {r.fight_id}: the payload of seq {r.seq} cannot be read ({exc})",
                      fight_id=r.fight_id, seq=r.seq) from None
    return Event(
        fight_id=r.fight_id, seq=r.seq, type=r.type, payload=payload, actor=r.actor,
        command_id=r.command_id, recorded_at=r.recorded_at, ruleset_version=r.ruleset_version,
        prev_hash=r.prev_hash, hash=r.hash,
    )


def _row_to_seat(r: Any) -> SeatRow:
    return SeatRow(r.fight_id, r.seat_id, r.role, r.label, tuple(r.combatants), r.token_hash)


def open_store(url: str | None = None, *, migrate: bool = False, check: bool = True,
               background_checkpoints: bool = False, durability: str = "normal") -> SqlStore:
    """Open the store at ``url``; migrate it, or refuse to use an unmigrated one.

    ``background_checkpoints``: see :meth:`SqlStore.checkpoint`; ``durability``: see
    :data:`DURABILITY` (both SQLite only).
    """
    url = url or default_database_url()
    sqlite_path = sa.engine.make_url(url).database if url.startswith("sqlite") else None
    if not migrate and sqlite_path and sqlite_path != ":memory:" and not Path(sqlite_path).exists():
        # Refuse before SQLite creates an empty file as a side effect of looking.
        raise MigrationMissing(None, f"no database at {sqlite_path}: run `combat-server migrate` first",
                               current=None, head=None)
    store = SqlStore(url, background_checkpoints=background_checkpoints, durability=durability)
    try:
        if migrate:
            store.migrate()
        elif check:
            store.check_schema()
    except sa.exc.OperationalError as exc:
        raise StoreError("store/unreachable", f"cannot open database {store.url}: {exc.orig}") from exc
    except sa.exc.DatabaseError as exc:  # e.g. a SQLite URL naming a file that is not a database
        store.dispose()
        raise StoreError("store/unreadable", f"cannot open database {store.url}: {exc.orig}") from exc
    return store
