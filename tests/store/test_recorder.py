"""The narrow recorder (issue 16): the engine and the server see a store through
``combat_server/store/recorder.py`` and store errors only; driver errors never pass the store."""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path
from typing import Any, Callable

import pytest
import sqlalchemy as sa

from combat_server.engine.fight import Engine
from combat_server.errors import StoreError, StoreUnavailable
from combat_server.store.recorder import Recorder, SeatDirectory, SeatRow, Store
from combat_server.store.sql import TRANSLATED_IN_BODY, SqlStore, _translated
from tests.conftest import Databases

ROOT = Path(__file__).resolve().parents[2] / "combat_server"


def _protocol_methods(proto: type) -> set[str]:
    return {name for name in vars(proto) if not name.startswith("_")}


def test_the_sql_store_is_a_recorder_and_a_seat_directory(store: SqlStore) -> None:
    as_store: Store = store  # mypy --strict checks the signatures; this checks every name is there
    for proto in (Recorder, SeatDirectory):
        assert _protocol_methods(proto) <= set(dir(as_store)), proto


def test_an_unreachable_database_is_store_unavailable_not_a_driver_error(databases: Databases) -> None:
    url = ("sqlite:////nonexistent-dir-of-combat-tests/fights.sqlite" if databases.backend == "sqlite"
           else "postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=2")
    store = SqlStore(url)
    try:
        with pytest.raises(StoreUnavailable) as info:
            store.fight("f")
        assert info.value.code == "store/unavailable"
        assert "could not be reached" in info.value.message
    finally:
        store.dispose()


def test_any_other_driver_refusal_is_store_refused_without_the_values_written(store: SqlStore) -> None:
    """Issue 16: every driver error becomes a store error. A second seat with a seat id the fight
    already has breaks the seats' key; the error names the driver's error type, never the row's values
    (a payload may hold a hidden sheet), and the seat already there is kept."""
    fight = Engine(store).create_fight("gurps", fight_id="refused").fight_id
    seat = SeatRow(fight, "p1", "player", "Secret Agent Zed", ("a",), "h" * 64)
    store.add_seat(seat, "2026-11-26T00:00:00Z")
    with pytest.raises(StoreError) as info:
        store.add_seat(SeatRow(fight, "p1", "player", "Other Label", ("b",), "k" * 64), "2026-11-26T00:00:01Z")
    assert info.value.code == "store/refused"
    assert "IntegrityError" in info.value.message or "UniqueViolation" in info.value.message
    assert "Other Label" not in info.value.message and "k" * 64 not in info.value.message
    assert [s.label for s in store.seats(fight) if s.seat_id == "p1"] == ["Secret Agent Zed"]


#: Driver errors a failing write may raise that ``append`` does not turn into a conflict itself, and one
#: error that is not the driver's (passed on as it is).
_WRITE_ERRORS: list[Callable[[], BaseException]] = [
    lambda: sqlite3.InterfaceError("Cannot operate on a closed database."),
    lambda: sqlite3.DatabaseError("database disk image is malformed"),
    lambda: sqlite3.DataError("string or blob too big"),
    lambda: sqlite3.ProgrammingError("Incorrect number of bindings supplied"),
    lambda: sa.exc.InterfaceError("INSERT ...", None, Exception("connection already closed")),
    lambda: sa.exc.DataError("INSERT ...", None, Exception("value too long")),
    lambda: sa.exc.DBAPIError("INSERT ...", None, Exception("refused")),
    lambda: ValueError("not a driver error"),
]


@pytest.mark.parametrize("make_error", _WRITE_ERRORS)
def test_append_raises_for_a_failing_write_what_the_translating_wrapper_raises(
        store: SqlStore, monkeypatch: pytest.MonkeyPatch, make_error: Callable[[], BaseException]) -> None:
    """Issue 16, server CPU: ``append`` translates the driver's errors in its own body (one call less per
    command than :func:`_translated`'s wrapper); for the same error of the write it raises what the wrapper
    did: the same store error, code and message, caused by the driver's error."""
    fight = Engine(store).create_fight("gurps", fight_id="translated").fight_id
    first = store.events(fight)[0]
    raised: list[BaseException] = []

    def failing_write(*_: Any) -> None:
        raised.append(make_error())
        raise raised[-1]

    monkeypatch.setattr(store, "_write_sqlite", failing_write)
    monkeypatch.setattr(store, "_append_postgresql", failing_write)
    with pytest.raises(BaseException) as got:
        store.append(fight, first.seq - 1, [first], "cmd-1", "gm")
    with pytest.raises(BaseException) as want:
        _translated(failing_write)()
    assert type(got.value) is type(want.value)
    assert str(got.value) == str(want.value)
    assert getattr(got.value, "code", None) == getattr(want.value, "code", None)
    assert got.value.__cause__ is raised[0] or got.value is raised[0]


def test_a_conflict_whose_log_end_cannot_be_read_is_store_unavailable(
        store: SqlStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write refused by the log's key is a conflict, told with where the log ends; when that read fails
    because the database went away, ``append`` raises ``store/unavailable``, as the wrapper did, not the
    driver's error."""
    fight = Engine(store).create_fight("gurps", fight_id="conflict-unreachable").fight_id
    first = store.events(fight)[0]

    def refused(*_: Any) -> None:
        raise sqlite3.IntegrityError("UNIQUE constraint failed: events.fight_id, events.seq")

    def unreachable() -> None:
        raise sa.exc.OperationalError("SELECT max(seq) ...", None, Exception("the server closed the connection"))

    monkeypatch.setattr(store, "_write_sqlite", refused)
    monkeypatch.setattr(store, "_append_postgresql", refused)
    monkeypatch.setattr(store.engine, "connect", unreachable)
    with pytest.raises(StoreUnavailable) as info:
        store.append(fight, first.seq - 1, [first], "cmd-1", "gm")
    assert info.value.code == "store/unavailable"
    assert isinstance(info.value.__cause__, sa.exc.OperationalError)


def test_only_the_methods_that_translate_in_their_body_are_left_unwrapped() -> None:
    """Every public store method raises store errors only: by :func:`_translated`'s wrapper, or, for
    :data:`TRANSLATED_IN_BODY`, in its own body (tested above)."""
    assert TRANSLATED_IN_BODY == {"append"}
    assert not hasattr(SqlStore.append, "__wrapped__")
    assert all(hasattr(getattr(SqlStore, name), "__wrapped__")
               for name in ("fight", "events", "save_snapshot", "save_snapshot_text", "add_seat", "seats",
                            "command_record"))


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("path", sorted((ROOT / "server").glob("*.py")) + sorted((ROOT / "engine").glob("*.py")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_server_and_engine_import_neither_sqlalchemy_nor_store_internals(path: Path) -> None:
    """Only the recorder protocols, the store package's front door (``open_store``, for ``serve``) and what
    tells the server of other writers (PostgreSQL's listener, SQLite's watcher)."""
    bad = {m for m in _imports(path) if m.split(".")[0] in ("sqlalchemy", "psycopg", "sqlite3")
           or (m.startswith("combat_server.store.") and m not in ("combat_server.store.recorder",
                                                                  "combat_server.store.pg_listen",
                                                                  "combat_server.store.sqlite_watch"))}
    assert bad == set(), path
