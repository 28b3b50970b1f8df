"""Crash safety: SIGKILL the server process in the middle of a fight, restart it
on the same SQLite file, let the clients reconnect with their last seq, and
check that no acknowledged event is lost or duplicated and the fight goes on."""

from __future__ import annotations

import asyncio
import collections
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.engine.fight import Engine
from combat_server.store.sql import open_store

from .conftest import SHEET


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def start_serve(url: str, port: int) -> subprocess.Popen[bytes]:
    """A real ``serve`` process on ``url``, returned once it prints that it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "combat_server.server", "--port", str(port), "--database-url", url,
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
    assert b"listening on" in line, line
    return proc


async def _start(db: Path, port: int) -> subprocess.Popen[bytes]:
    return await start_serve(f"sqlite:///{db}", port)


@pytest.fixture
async def spawn(tmp_path: Path) -> AsyncIterator[Callable[[Path, int], Any]]:
    procs: list[subprocess.Popen[bytes]] = []

    async def start(db: Path, port: int) -> subprocess.Popen[bytes]:
        proc = await _start(db, port)
        procs.append(proc)
        return proc

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


async def test_sigkill_mid_fight_loses_and_doubles_nothing(tmp_path: Path, spawn: Any) -> None:
    """Acknowledged events survive a SIGKILL; reconnected clients see each seq exactly once."""
    db = tmp_path / "fight.sqlite"
    port = _free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    server = await spawn(db, port)

    gm = await CombatClient.connect(url, reconnect_timeout=60, chain=True)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="crash")
    await gm.subscribe(created["token"])
    for cid, side in (("alice", "pc"), ("orc", "npc")):
        await gm.command("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": SHEET})
    alice_token = (await gm.add_seat("player", ["alice"]))["token"]
    spectator_token = (await gm.add_seat("spectator"))["token"]
    alice = await CombatClient.connect(url, reconnect_timeout=60, chain=True)
    await alice.subscribe(alice_token)
    spectator = await CombatClient.connect(url, reconnect_timeout=60, chain=True)
    await spectator.subscribe(spectator_token)

    acknowledged: dict[str, tuple[int, int]] = {}
    killed = asyncio.Event()

    async def play(client: CombatClient, name: str, n: int) -> None:
        for i in range(n):
            command_id = f"{name}-{i}"
            try:
                r = await client.command("note", {"text": command_id}, command_id=command_id, timeout=60)
            except ServerError as exc:  # pragma: no cover - would be a failure below
                raise AssertionError(f"{command_id}: {exc}") from exc
            acknowledged[f"{client.seat['seat_id'] if client.seat else '?'}:{command_id}"] = (
                r["first_seq"], r["last_seq"])
            if name == "gm" and i == 20:
                server.send_signal(signal.SIGKILL)  # mid-fight, with commands in flight
                server.wait()
                killed.set()

    async def restart() -> None:
        await killed.wait()
        await asyncio.sleep(0.3)
        await spawn(db, port)

    await asyncio.gather(play(gm, "gm", 40), play(alice, "alice", 40), restart())

    store = open_store(f"sqlite:///{db}")
    try:
        events = store.events(created["fight_id"])
        last = events[-1].seq
        assert [e.seq for e in events] == list(range(1, last + 1))
        for key, (first, last_seq) in acknowledged.items():  # nothing acknowledged was lost
            assert [e.command_id for e in events[first - 1:last_seq]] == [key] * (last_seq - first + 1)
        per_command = collections.Counter(e.command_id for e in events if e.type == "note_added")
        assert all(n == 1 for n in per_command.values()), "a command was applied twice"
        assert len(per_command) == 80
        for c in (gm, alice, spectator):
            await c.wait_for_seq(last, timeout=30)
            assert [e.seq for e in c.events] == list(range(1, last + 1))
            assert [e.event["hash"] for e in c.events] == [e.hash for e in events]
            assert c.reconnects >= 1
        # The fight goes on after the restart.
        more = await alice.command("note", {"text": "still here"})
        assert more["first_seq"] == last + 1
        assert Engine(store).verify(created["fight_id"]).ok
    finally:
        store.dispose()
        for c in (gm, alice, spectator):
            await c.close()


def test_module_runs_without_the_main_cli() -> None:
    """``python -m combat_server.server --help`` works on its own."""
    out = subprocess.run([sys.executable, "-m", "combat_server.server", "--help"], capture_output=True, text=True,
                         timeout=60, env={**os.environ})
    assert out.returncode == 0 and "--server-key" in out.stdout
    assert out.stdout.startswith("usage: python -m combat_server.server [")  # no `serve`: it is implied here
