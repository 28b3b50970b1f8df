"""Several server processes on one PostgreSQL database (DESIGN.md, process layout).

Every append on PostgreSQL also sends ``NOTIFY combat_appends, 'fight_id last_seq'``
in the same statement (:meth:`SqlStore.append`), delivered when it commits. Each
server process LISTENs on one extra connection and hands each notification to
:meth:`CombatServer.peer_appended`, which pushes the other process's events to
this process's subscribers from the store, in order, with no gap (the hub's
``synced_seq``). Nothing here decides anything: the unique (fight, seq) key
keeps one writer winning, and the loser's engine retries on the fresh log.

A notification can be lost while the listening connection is down; after it
reconnects, :meth:`CombatServer.resync_peers` checks every watched fight against
the store, so a subscriber never misses an event for long.
"""

from __future__ import annotations

import asyncio
from typing import Awaitable, Callable

import sqlalchemy as sa
import structlog

from combat_server.store.sql import APPEND_CHANNEL

log = structlog.get_logger("combat_server.peers")

#: Seconds between reconnection attempts of the listening connection.
RETRY_SECONDS = 1.0


def libpq_url(sqlalchemy_url: str) -> str:
    """The libpq connection URI of a ``postgresql+psycopg://`` SQLAlchemy URL (query options kept)."""
    url = sa.engine.make_url(sqlalchemy_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


def parse_payload(payload: str) -> tuple[str, int] | None:
    """``'fight_id last_seq'`` -> (fight_id, last_seq); ``None`` for anything else."""
    parts = payload.split(" ")
    if len(parts) != 2 or not parts[0] or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1])


class PeerListener:
    """LISTEN for other processes' appends; ``run()`` until cancelled, reconnecting as needed."""

    def __init__(self, database_url: str, on_append: Callable[[str, int], None],
                 on_reconnect: Callable[[], Awaitable[None]]) -> None:
        self.conninfo = libpq_url(database_url)
        self.on_append = on_append
        self.on_reconnect = on_reconnect
        #: Set while LISTEN is in effect (tests wait for it).
        self.listening = asyncio.Event()
        #: The server process id of the listening connection (tests terminate it).
        self.backend_pid: int | None = None
        self.connections = 0

    async def run(self) -> None:
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            except psycopg.Error as exc:
                log.warning("peer_listen_failed", error=str(exc).strip())
                await asyncio.sleep(RETRY_SECONDS)
                continue
            try:
                await conn.execute(f"LISTEN {APPEND_CHANNEL}")
                self.backend_pid = conn.info.backend_pid
                self.connections += 1
                self.listening.set()
                if self.connections > 1:
                    log.info("peer_listen_resumed", connections=self.connections)
                    await self.on_reconnect()  # notifications sent while we were away are lost
                async for note in conn.notifies():
                    parsed = parse_payload(note.payload)
                    if parsed is not None:
                        self.on_append(*parsed)  # never waits: the next notification is read at once
            except psycopg.Error as exc:
                log.warning("peer_listen_lost", error=str(exc).strip())
            finally:
                self.listening.clear()
                await conn.close()
            await asyncio.sleep(RETRY_SECONDS)


__all__ = ["PeerListener", "libpq_url", "parse_payload", "RETRY_SECONDS"]
