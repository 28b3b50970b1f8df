"""The server's upkeep keeps long pauses off the event loop (docs/benchmarks.md, issue 4 (2)).

Two sources of 15-250 ms pauses were measured under load and moved: CPython's
full garbage collections (now :class:`GcPolicy` sweeps) and SQLite's WAL
checkpoints inside a commit (now :func:`checkpoint_loop`, in a worker thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref
from pathlib import Path
from typing import Iterator

import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.server.cli import checkpoint_loop
from combat_server.server.gcpolicy import NEVER, GcPolicy
from combat_server.store.sql import SqlStore, open_store

from .conftest import Connect


class Node:
    """Something that can sit in a reference cycle and be watched with a weakref."""

    def __init__(self) -> None:
        self.other: object = self


def _cycle() -> "weakref.ref[Node]":
    node = Node()
    return weakref.ref(node)


@pytest.fixture
def policy() -> Iterator[GcPolicy]:
    was = gc.get_threshold()
    p = GcPolicy(min_release=4, full_interval=600.0)
    p.install()
    try:
        yield p
    finally:
        p.uninstall()
        gc.set_threshold(*was)


# --------------------------------------------------------------------------- GC policy


def test_policy_turns_automatic_full_collections_off(policy: GcPolicy) -> None:
    assert gc.get_threshold() == (policy.young_threshold, 20, NEVER)
    assert gc.get_freeze_count() > 0  # start-up objects are out of the collector's sight


def test_sweep_collects_a_cycle_made_since_the_last_sweep(policy: GcPolicy) -> None:
    ref = _cycle()
    assert ref() is not None  # a cycle: reference counting alone does not free it
    done = policy.sweep(released=0, live=10)
    assert ref() is None
    assert not done.full and done.collected >= 1


def test_a_cycle_frozen_by_a_sweep_waits_for_the_full_pass(policy: GcPolicy) -> None:
    node = Node()
    ref = weakref.ref(node)
    policy.sweep(released=0, live=10)  # node is alive: frozen with everything else
    del node
    policy.sweep(released=2, live=10)  # too few connections closed: a young sweep
    assert ref() is not None
    done = policy.sweep(released=4, live=10)  # min_release reached: full pass
    assert done.full and ref() is None


def test_full_pass_counts_closed_connections_since_the_previous_one(policy: GcPolicy) -> None:
    assert policy.sweep(released=4, live=10).full
    assert not policy.sweep(released=7, live=10).full  # 3 more since the full pass
    assert policy.sweep(released=8, live=10).full


def test_full_pass_needs_a_quarter_of_the_open_connections_closed() -> None:
    p = GcPolicy(min_release=64, release_fraction=0.25)
    assert not p.due_full(released=63, live=100, now=p._last_full)  # below min_release
    assert not p.due_full(released=99, live=400, now=p._last_full)  # below a quarter of 400
    assert p.due_full(released=100, live=400, now=p._last_full)


def test_full_pass_runs_after_full_interval_only_if_something_closed() -> None:
    p = GcPolicy(min_release=64, full_interval=600.0)
    later = p._last_full + 601
    assert p.due_full(released=1, live=1000, now=later)
    assert not p.due_full(released=0, live=1000, now=later)


async def test_server_counts_closed_connections_for_the_policy(server: object, connect: Connect) -> None:
    from combat_server.server import CombatServer

    assert isinstance(server, CombatServer)
    before = server.connections_closed
    client = await connect()
    await client.close()
    for _ in range(200):
        if server.connections_closed == before + 1:
            break
        await asyncio.sleep(0.01)
    assert server.connections_closed == before + 1


async def test_policy_run_sweeps_on_its_interval(policy: GcPolicy) -> None:
    policy.sweep_interval = 0.01
    ref = _cycle()
    task = asyncio.get_running_loop().create_task(policy.run(lambda: 0, lambda: 0))
    try:
        for _ in range(200):
            if ref() is None:
                break
            await asyncio.sleep(0.01)
        assert ref() is None
    finally:
        task.cancel()


# --------------------------------------------------------------------------- SQLite WAL checkpoints


@contextlib.contextmanager
def _wal_fight(tmp_path: Path, background: bool) -> Iterator[tuple[Path, SqlStore, Engine, str]]:
    """A SQLite file store with a fight in it, its WAL copied in: (file, store, engine, fight id)."""
    path = tmp_path / "wal.sqlite"
    store = open_store(f"sqlite:///{path}", migrate=True, background_checkpoints=background)
    try:
        engine = Engine(store)
        fid = engine.create_fight("gurps", title="wal").fight_id
        store.checkpoint()
        yield path, store, engine, fid
    finally:
        store.dispose()


def _notes(engine: Engine, fight_id: str, n: int, size: int = 3000) -> None:
    for i in range(n):
        engine.execute(fight_id, Command("note", {"text": f"{i} " + "x" * size}, GM_ACTOR, f"note-{i}"))


def test_commits_never_checkpoint_with_background_checkpoints(tmp_path: Path) -> None:
    with _wal_fight(tmp_path, background=True) as (path, store, engine, fid):
        size = path.stat().st_size
        _notes(engine, fid, 1500)  # > 1,000 WAL pages: a default connection would have checkpointed
        assert path.stat().st_size == size
        busy, frames, copied = store.checkpoint()
        assert busy == 0 and frames > 1000 and copied == frames
        assert path.stat().st_size > size + 1500 * 3000


def test_default_store_still_checkpoints_on_commit(tmp_path: Path) -> None:
    with _wal_fight(tmp_path, background=False) as (path, _store, engine, fid):
        size = path.stat().st_size
        _notes(engine, fid, 1500)
        assert path.stat().st_size > size  # a commit crossed 1,000 pages and copied the WAL


async def test_checkpoint_loop_copies_the_wal_off_the_event_loop(tmp_path: Path) -> None:
    with _wal_fight(tmp_path, background=True) as (path, store, engine, fid):
        size = path.stat().st_size
        _notes(engine, fid, 50)
        assert path.stat().st_size == size
        task = asyncio.get_running_loop().create_task(checkpoint_loop(store, interval=0.01))
        try:
            for _ in range(300):
                if path.stat().st_size > size:
                    break
                await asyncio.sleep(0.01)
        finally:
            task.cancel()
        assert path.stat().st_size > size + 50 * 3000
        assert Engine(open_store(f"sqlite:///{path}")).load(fid).seq == engine.load(fid).seq


def test_checkpoint_is_a_no_op_on_postgresql(pg_databases) -> None:  # type: ignore[no-untyped-def]
    store = open_store(pg_databases.new_url(), migrate=True, background_checkpoints=True)
    try:
        assert not store.background_checkpoints  # the server starts no checkpoint loop for it
        assert store.checkpoint() == (0, 0, 0)
    finally:
        store.dispose()
