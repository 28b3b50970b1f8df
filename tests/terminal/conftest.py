"""A real server in a subprocess and the real terminal client in pseudo-terminals.

``live_server`` runs ``python -m combat_server.server`` on a free loopback port
over a temporary SQLite file (one per module; ``start_server`` starts more). ``table`` sets up a fresh fight
with the Python client library: manual dice (the tests type the faces), two PCs
``alice`` and ``bob`` (turn order alice, bob) and a hidden NPC ``orc``, with a
GM seat and one player seat each. ``terminal(...)`` spawns ``combat-server
client`` in a pty (plain output: ``TERM=dumb``, 160 columns) and closes it after
the test.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import pexpect
import pytest

from combat_server.client import CombatClient

SHEET: dict[str, Any] = {
    "st": 12, "dx": 12, "ht": 11, "shield_skill": 12,
    "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}],
}


@attrs.frozen
class LiveServer:
    http_url: str
    ws_url: str


def start_server(db: Path, port: int = 0, module: str = "combat_server.server") -> tuple[subprocess.Popen[str], LiveServer]:
    """``python -m combat_server.server`` on ``port`` (0: a free one); returns once it listens.
    ``module``: a launcher that registers a test-only ruleset first runs instead."""
    proc = subprocess.Popen(
        [sys.executable, "-m", module, "--port", str(port), "--database-url", f"sqlite:///{db}",
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"listening on (\S+) \(websocket (\S+)\)", line)
    if not found:
        stop_server(proc)
        raise AssertionError(f"server did not start: {line!r}")
    return proc, LiveServer(found.group(1), found.group(2))


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    proc, server = start_server(tmp_path_factory.mktemp("terminal") / "server.sqlite")
    try:
        yield server
    finally:
        stop_server(proc)


@attrs.frozen
class Table:
    server: LiveServer
    fight_id: str
    tokens: dict[str, str]
    links: dict[str, str]


async def make_table(server: LiveServer) -> Table:
    gm = await CombatClient.connect(server.ws_url)
    try:
        created = await gm.create_fight("gurps", dice_mode="manual", title="Terminal test")
        await gm.subscribe(created["token"])
        for cid, name, side, hidden in (("alice", "Alice", "pc", False), ("bob", "Bob", "pc", False),
                                        ("orc", "Orc", "npc", True)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": SHEET,
                                               "hidden": hidden})
        tokens, links = {"gm": created["token"]}, {"gm": created["link"]}
        for cid in ("alice", "bob"):
            seat = await gm.add_seat("player", [cid], cid)
            tokens[cid], links[cid] = seat["token"], seat["link"]
        await gm.command("start_combat", {"order": ["alice", "bob", "orc"]})
        return Table(server, created["fight_id"], tokens, links)
    finally:
        await gm.close()


@pytest.fixture
def table(live_server: LiveServer) -> Table:
    return asyncio.run(make_table(live_server))


Terminal = Callable[..., pexpect.spawn]


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    spawned: list[pexpect.spawn] = []

    def spawn(*args: str, timeout: float = 10) -> pexpect.spawn:
        env = dict(os.environ, TERM="dumb", COLUMNS="160", LINES="50")
        child = pexpect.spawn(sys.executable, ["-m", "combat_server.cli", "client", *args], env=env,
                              encoding="utf-8", codec_errors="replace", dimensions=(50, 160), timeout=timeout,
                              cwd=str(Path(__file__).parent))
        spawned.append(child)
        return child

    yield spawn
    for child in spawned:
        if child.isalive():
            child.terminate(force=True)
