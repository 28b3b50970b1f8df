"""The SQLite watcher (store/sqlite_watch.py): another connection's commit to the file is handed on as
(fight, last seq), nothing when nobody else wrote, and stopping it never closes its connection under a
look still running in its worker thread (that crashed a CI run with a segmentation fault)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.store.sql import open_store
from combat_server.store.sqlite_watch import SqliteWatcher, sqlite_file


def _fight(path: Path) -> tuple[Engine, str]:
    engine = Engine(open_store(f"sqlite:///{path}", migrate=True))
    return engine, engine.create_fight("gurps").fight_id


def test_a_sqlite_url_names_its_file_and_memory_none() -> None:
    assert sqlite_file("sqlite:////tmp/x/combat.sqlite") == "/tmp/x/combat.sqlite"
    assert sqlite_file("sqlite://") is None and sqlite_file("sqlite:///:memory:") is None
    assert sqlite_file("postgresql+psycopg://u@h/db") is None


async def test_a_commit_by_another_connection_is_handed_on_with_the_fights_last_seq(tmp_path: Path) -> None:
    engine, fid = _fight(tmp_path / "w.sqlite")
    heard: list[tuple[str, int]] = []
    watcher = SqliteWatcher(str(tmp_path / "w.sqlite"), lambda: [fid], lambda f, s: heard.append((f, s)), 0.01)
    task = asyncio.get_running_loop().create_task(watcher.run())
    try:
        while watcher.changes == 0:  # the first look reads where the file is
            await asyncio.sleep(0.01)
        heard.clear()
        looked = watcher.changes
        await asyncio.sleep(0.1)
        assert heard == [] and watcher.changes == looked  # nobody wrote: nothing read, nothing handed on
        result = engine.execute(fid, Command("note", {"text": "beside"}, GM_ACTOR))
        while not heard:
            await asyncio.sleep(0.01)
        assert heard == [(fid, result.last_seq)]
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        engine.store.dispose()


async def test_stopping_waits_for_a_look_in_flight_before_closing_the_connection(tmp_path: Path) -> None:
    engine, fid = _fight(tmp_path / "w.sqlite")
    started, release = threading.Event(), threading.Event()
    closed_while_looking: list[bool] = []

    class SlowLook(SqliteWatcher):
        looking = False

        def _look(self, fights: list[str]) -> list[tuple[str, int]]:
            self.looking = True
            started.set()
            release.wait(5)
            out = super()._look(fights)  # uses the connection: it must still be open
            self.looking = False
            return out

        def _close(self) -> None:
            closed_while_looking.append(self.looking)
            super()._close()

    watcher = SlowLook(str(tmp_path / "w.sqlite"), lambda: [fid], lambda f, s: None, 0.0)
    task = asyncio.get_running_loop().create_task(watcher.run())
    try:
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        await asyncio.sleep(0.05)
        assert not task.done()  # waiting for the look
        release.set()
        await asyncio.gather(task, return_exceptions=True)
        assert task.cancelled() and closed_while_looking == [False]
    finally:
        release.set()
        engine.store.dispose()
