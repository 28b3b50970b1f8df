"""Other writers of one SQLite file: the command line beside a running server.

``combat-server links``, ``import-character`` or ``import`` may write to the database file a
``serve`` process is using. PostgreSQL tells the server of every append (``pg_listen.py``);
SQLite tells nobody, so the server would show those events only at the fight's next command,
and a link ``links`` revoked would go on acting on the connections it had opened.

:class:`SqliteWatcher` asks SQLite every ``POLL_SECONDS`` whether anyone committed since it last
asked (``PRAGMA data_version``, a per-connection counter that moves when another connection
commits: one cheap statement, nothing read). When it moved, it reads the last seq of each fight
the server holds (watched or cached) and hands each to the server's ``peer_appended``, which
does nothing for what it pushed already and pushes the rest in order, as for another process
on PostgreSQL. The server's own commits move the counter too; their seqs are already pushed.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Callable, Collection

import sqlalchemy as sa
import structlog

log = structlog.get_logger("combat_server.peers")

#: Seconds between two looks at the database: how long a command-line change may take to show.
POLL_SECONDS = 0.5


def sqlite_file(database_url: str) -> str | None:
    """The file a ``sqlite:///`` URL names, or ``None`` for an in-memory database (nobody else writes to it)."""
    url = sa.engine.make_url(database_url)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    return str(url.database)


class SqliteWatcher:
    """Watches one SQLite file for commits by other connections; ``run()`` until cancelled."""

    def __init__(self, path: str, fights: Callable[[], Collection[str]],
                 on_append: Callable[[str, int], None], interval: float = POLL_SECONDS) -> None:
        self.path = path
        #: The fights to check when something changed (the server's watched and cached ones).
        self.fights = fights
        self.on_append = on_append
        self.interval = interval
        self._conn: sqlite3.Connection | None = None
        self._version: int | None = None
        #: How many times a change was seen (tests wait for it).
        self.changes = 0

    async def run(self) -> None:
        """Look, hand on, sleep; a failed look (a locked or vanished file) is logged and retried.

        The connection is used by one look at a time, in a worker thread, and closed only when no look
        runs: a look still running when the server stops is waited for (closing a sqlite3 connection
        another thread is using crashes the process: a CI run did)."""
        try:
            while True:
                await asyncio.sleep(self.interval)
                look = asyncio.ensure_future(asyncio.to_thread(self._look, list(self.fights())))
                try:
                    seqs = await asyncio.shield(look)
                except asyncio.CancelledError:
                    await asyncio.wait((look,))  # the thread finishes its statement before the connection closes
                    raise
                except Exception as exc:  # the next look tries again, on a new connection
                    log.warning("sqlite_watch_failed", error=f"{type(exc).__name__}: {exc}")
                    self._close()
                    continue
                for fight_id, seq in seqs:
                    self.on_append(fight_id, seq)
        finally:
            self._close()

    def _look(self, fights: list[str]) -> list[tuple[str, int]]:
        """The last seq of each of ``fights`` if anyone committed since the last look, else nothing."""
        if self._conn is None:
            # Read-only: this connection never takes a write lock. Its counter starts where the file is now.
            self._conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True, check_same_thread=False)
        version = int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        if version == self._version:
            return []
        self._version = version
        self.changes += 1
        out = []
        for fight_id in fights:  # the primary key (fight_id, seq) answers each in a few page reads
            row = self._conn.execute("SELECT max(seq) FROM events WHERE fight_id = ?", (fight_id,)).fetchone()
            if row is not None and row[0] is not None:
                out.append((fight_id, int(row[0])))
        return out

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
            self._version = None


__all__ = ["SqliteWatcher", "sqlite_file", "POLL_SECONDS"]
