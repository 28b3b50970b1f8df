"""Several server processes on one PostgreSQL database (DESIGN.md, process layout).

Every append on PostgreSQL also sends ``NOTIFY combat_appends, 'fight_id last_seq'``
in the same statement (:meth:`SqlStore.append`), delivered when it commits. Each
server process LISTENs on one extra connection and hands each notification to
:meth:`CombatServer.peer_appended`, which pushes the other process's events to
this process's subscribers from the store, in order, with no gap (the hub's
``synced_seq``). The notifications of this process's own appends are skipped
(:class:`~combat_server.store.sql.OwnNotifications`): it publishes those itself. Nothing here decides anything: the unique (fight, seq) key
keeps one writer winning, and the loser's engine retries on the fresh log.

A notification can be lost while the listening connection is down; each time
LISTEN takes effect (at start and after every reconnection),
:meth:`CombatServer.resync_peers` checks every watched fight against the store
and drops the cached state of the others, so a subscriber never misses an event
for long. A silent connection is checked every ``HEARTBEAT_SECONDS``.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

import sqlalchemy as sa
import structlog

from combat_server.store.recorder import Recorder
from combat_server.store.sql import APPEND_CHANNEL, OwnNotifications, SqlStore

log = structlog.get_logger("combat_server.peers")

#: Seconds between reconnection attempts of the listening connection.
RETRY_SECONDS = 1.0
#: Seconds without a notification after which the listening connection is checked.
HEARTBEAT_SECONDS = 10.0


def libpq_url(sqlalchemy_url: str) -> str:
    """The libpq connection URI of a ``postgresql+psycopg://`` SQLAlchemy URL (query options kept)."""
    url = sa.engine.make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def parse_payload(payload: str) -> tuple[str, int] | None:
    """``'fight_id last_seq'`` -> (fight_id, last_seq); ``None`` for anything else."""
    parts = payload.rsplit(" ", 1)
    if len(parts) != 2 or not parts[0] or not parts[1].isascii() or not parts[1].isdecimal():
        return None
    return parts[0], int(parts[1])


class PeerListener:
    """LISTEN for other processes' appends; ``run()`` until cancelled, reconnecting as needed."""

    def __init__(self, database_url: str, on_append: Callable[[str, int], None],
                 on_reconnect: Callable[[], Awaitable[None]], own: OwnNotifications | None = None) -> None:
        self.conninfo = libpq_url(database_url)
        self.on_append = on_append
        self.on_reconnect = on_reconnect
        #: The notifications this process's store sent, skipped (issue 16): this process published those appends.
        self.own = own
        #: Set while LISTEN is in effect (tests wait for it).
        self.listening = asyncio.Event()
        #: The server process id of the listening connection (tests terminate it).
        self.backend_pid: int | None = None
        self.connections = 0

    @classmethod
    def for_store(cls, store: Recorder, on_append: Callable[[str, int], None],
                  on_reconnect: Callable[[], Awaitable[None]]) -> "PeerListener":
        """The listener of ``store``'s database, skipping what that store's own appends notified."""
        own = store.own_notifications if isinstance(store, SqlStore) else None
        return cls(store.url, on_append, on_reconnect, own)

    async def run(self) -> None:
        """LISTEN, hand each notification on, and start over after any failure (a database
        restart, a dropped connection, an error in a handler): a listener that died would
        silently stop every other process's pushes."""
        while True:
            try:
                await self._session()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("peer_listen_lost", error=f"{type(exc).__name__}: {exc}".strip())
            finally:
                self.listening.clear()
            await asyncio.sleep(RETRY_SECONDS)

    async def _session(self) -> None:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        try:
            conn.add_notify_handler(self._heard)
            await conn.execute(f"LISTEN {APPEND_CHANNEL}")
            self.backend_pid = conn.info.backend_pid
            self.connections += 1
            self.listening.set()
            # Appends made before LISTEN took effect (at start, or while disconnected) sent
            # notifications nobody here heard: check every fight against the store.
            await self.on_reconnect()
            loop = asyncio.get_running_loop()
            fileno = conn.fileno()
            while True:
                # Between heartbeats the socket is watched directly (issue 16): psycopg's notifies()
                # set up and took down a reader, a future and a timer for every notification, and this
                # process hears one per command. The SELECT 1 turns a connection that died silently (a
                # network cut, no RST) into an error within HEARTBEAT_SECONDS.
                lost: asyncio.Future[None] = loop.create_future()
                loop.add_reader(fileno, self._read, conn.pgconn, lost)
                try:
                    await asyncio.wait((lost,), timeout=HEARTBEAT_SECONDS)
                finally:
                    loop.remove_reader(fileno)
                    if not lost.done():
                        lost.cancel()
                if not lost.cancelled():
                    lost.result()  # raises what broke the connection (or a handler)
                await conn.execute("SELECT 1")  # notifications read meanwhile go to _heard as well
        finally:
            await conn.close()

    @staticmethod
    def _read(pgconn: Any, lost: "asyncio.Future[None]") -> None:
        """The socket is readable: hand on every notification that came in (through psycopg's handler)."""
        if lost.done():
            return
        try:
            pgconn.consume_input()
            while (note := pgconn.notifies()) is not None:
                pgconn.notify_handler(note)  # psycopg decodes it and calls _heard
        except Exception as exc:  # the connection broke, or a handler failed: start over
            lost.set_exception(exc)

    def _heard(self, note: Any) -> None:
        if self.own is not None and self.own.claim(note.payload):
            return
        parsed = parse_payload(note.payload)
        if parsed is not None:
            self.on_append(*parsed)  # never waits: the next notification is read at once


__all__ = ["PeerListener", "libpq_url", "parse_payload", "RETRY_SECONDS"]
