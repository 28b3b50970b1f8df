"""``serve --durability normal|full`` (issue 16): SQLite's ``synchronous`` on every store connection.
``normal`` keeps a committed event through a crash of the process, ``full`` through a power loss too
(docs/benchmarks.md measures its cost)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from combat_server.server.cli import add_serve_command
from combat_server.store.sql import SqlStore, open_store

#: SQLite's numbers for PRAGMA synchronous.
NORMAL, FULL = 1, 2


def _synchronous(store: SqlStore) -> int:
    with store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA synchronous").scalar_one())


@pytest.mark.parametrize("durability, expected", [("normal", NORMAL), ("full", FULL)])
def test_the_store_opens_sqlite_with_the_durability_asked_for(tmp_path: Path, durability: str, expected: int) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'd.sqlite'}", migrate=True, durability=durability)
    try:
        assert _synchronous(store) == expected
        assert store.durability == durability
    finally:
        store.dispose()


def test_normal_is_the_default(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'd.sqlite'}", migrate=True)
    try:
        assert _synchronous(store) == NORMAL
    finally:
        store.dispose()


def test_an_unknown_durability_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="durability must be one of normal, full"):
        SqlStore(f"sqlite:///{tmp_path / 'd.sqlite'}", durability="maybe")


def test_serve_takes_durability_normal_or_full() -> None:
    parser = argparse.ArgumentParser()
    add_serve_command(parser.add_subparsers())
    assert parser.parse_args(["serve"]).durability == "normal"
    assert parser.parse_args(["serve", "--durability", "full"]).durability == "full"
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--durability", "sometimes"])
