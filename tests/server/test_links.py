"""#13 links that can be found again: `combat-server links FIGHT` replaces every seat's link (the old ones
fail with auth/bad_token), as a `links_reissued` event; `serve --demo` on a database that already holds the
demo fight reuses it and prints new links. Real processes on a real SQLite file, a real websocket client."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import AsyncIterator, Callable, Awaitable

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.engine.fight import Engine
from combat_server.store.sql import open_store
from tests.test_cli import run

Spawn = Callable[..., Awaitable[tuple[subprocess.Popen[bytes], list[str]]]]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def serve() -> AsyncIterator[Spawn]:
    procs: list[subprocess.Popen[bytes]] = []

    async def start(db: Path, port: int, *extra: str, lines: int = 1) -> tuple[subprocess.Popen[bytes], list[str]]:
        proc = subprocess.Popen([sys.executable, "-m", "combat_server.server", "--port", str(port),
                                 "--database-url", f"sqlite:///{db}", "--log-level", "warning", *extra],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        procs.append(proc)
        assert proc.stdout is not None
        out = []
        for _ in range(lines):
            out.append((await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)).decode())
        assert "listening on" in out[0], out
        return proc, out

    yield start
    for proc in procs:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _tokens(text: str) -> dict[str, str]:
    return {m.group(1).strip(): m.group(2) for m in re.finditer(r"^\s+(.+?)\s+http://\S+/#token=(\S+)$", text, re.M)}


async def _refused(url: str, token: str) -> str:
    c = await CombatClient.connect(url, reconnect=False)
    try:
        with pytest.raises(ServerError) as err:
            await c.subscribe(token)
        return err.value.code
    finally:
        await c.close()


async def test_links_replaces_every_seats_token_and_the_old_ones_fail(tmp_path: Path, serve: Spawn) -> None:
    db = tmp_path / "links.sqlite"
    port = _free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    proc, _ = await serve(db, port)
    gm = await CombatClient.connect(url)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="links")
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc"})
    player = await gm.add_seat("player", ["alice"], "Alice")
    await gm.close()
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)

    out = run("links", created["fight_id"], "--public-url", f"http://127.0.0.1:{port}",
              "--database-url", f"sqlite:///{db}", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert set(lines) == {"gm", "player", "spectator"}
    new = re.search(r"#token=(\S+)", lines["gm"]).group(1)  # type: ignore[union-attr]
    new_player = re.search(r"#token=(\S+)", lines["player"]).group(1)  # type: ignore[union-attr]

    await serve(db, port)
    assert await _refused(url, created["token"]) == "auth/bad_token"
    assert await _refused(url, player["token"]) == "auth/bad_token"
    c = await CombatClient.connect(url)
    sub = await c.subscribe(new)
    assert sub["seat"]["role"] == "gm"
    await c.close()
    c = await CombatClient.connect(url)
    assert (await c.subscribe(new_player))["seat"]["combatants"] == ["alice"]
    events = [e.type for e in c.events]
    await c.close()
    assert "links_reissued" in events


async def test_links_revokes_the_old_links_of_a_server_that_keeps_running(tmp_path: Path, serve: Spawn) -> None:
    """A GM whose link leaked runs `links` beside the running server: the old links join no more at once,
    though the server had cached them (it reads a token's seat from the store at every subscribe)."""
    db = tmp_path / "links.sqlite"
    port = _free_port()
    url = f"ws://127.0.0.1:{port}/ws"
    await serve(db, port)
    gm = await CombatClient.connect(url)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="links")
    await gm.subscribe(created["token"])  # the server now knows this token
    await gm.close()
    out = run("links", created["fight_id"], "--public-url", f"http://127.0.0.1:{port}",
              "--database-url", f"sqlite:///{db}", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert await _refused(url, created["token"]) == "auth/bad_token"
    new = re.search(r"^\s*gm\s.*#token=(\S+)", out.stdout, re.M).group(1)  # type: ignore[union-attr]
    c = await CombatClient.connect(url)
    assert (await c.subscribe(new))["seat"]["role"] == "gm"
    await c.close()


def test_links_of_an_unknown_fight_is_refused(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'x.sqlite'}"
    assert run("migrate", "--database-url", db, cwd=tmp_path).returncode == 0
    out = run("links", "nosuchfight", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith("error: fight/unknown:")


async def test_serve_demo_reuses_the_stored_demo_fight_and_prints_new_links(tmp_path: Path, serve: Spawn) -> None:
    db = tmp_path / "demo.sqlite"
    port = _free_port()
    proc, first = await serve(db, port, "--demo", lines=7)
    proc.send_signal(signal.SIGTERM)
    proc.wait(10)
    _, second = await serve(db, port, "--demo", lines=7)
    assert "already in this database" in second[2]
    old, new = _tokens("".join(first)), _tokens("".join(second))
    assert set(old) == set(new) == {"GM", "Brenna the Bold", "Tam Quickfingers", "spectators"}
    assert not set(old.values()) & set(new.values())
    assert len(open_store(f"sqlite:///{db}").fights()) == 1
    url = f"ws://127.0.0.1:{port}/ws"
    assert await _refused(url, old["GM"]) == "auth/bad_token"
    c = await CombatClient.connect(url)
    assert (await c.subscribe(new["GM"]))["seat"]["role"] == "gm"
    await c.close()


def test_a_gm_seat_cannot_record_new_links_it_would_never_get(engine: Engine) -> None:
    """reissue_links comes from the command line (which holds the seats table), never from a seat."""
    from combat_server.errors import Rejected
    from combat_server.rules.model import GM_ACTOR, Command

    fight_id = engine.create_fight("gurps").fight_id
    with pytest.raises(Rejected) as err:
        engine.execute(fight_id, Command("reissue_links", {"seats": ["gm"]}, GM_ACTOR))
    assert err.value.code == "links/command_line_only"


async def test_serve_demo_shell_starts_the_shell_demo_fight(tmp_path: Path, serve: Spawn) -> None:
    """#10: ``serve --demo shell`` builds the SHELL demo from the ruleset's declaration, started, with
    a seat per PC; a player's link subscribes to a SHELL fight in its first round."""
    db = tmp_path / "demo-shell.sqlite"
    port = _free_port()
    _, lines = await serve(db, port, "--demo", "shell", lines=7)
    links = _tokens("".join(lines))
    assert set(links) == {"GM", "Aldric Shieldbearer", "Maren the Wise", "spectators"}
    (fight,) = open_store(f"sqlite:///{db}").fights()
    assert fight.ruleset == "shell"
    c = await CombatClient.connect(f"ws://127.0.0.1:{port}/ws")
    subscribed = await c.subscribe(links["Maren the Wise"])
    assert subscribed["state"]["ruleset"] == "shell" and subscribed["state"]["combat"]["round"] == 1
    await c.close()


def test_links_of_a_fight_with_no_seat_yet_makes_them_all(engine: Engine) -> None:
    """A fight written without seats (``combat-server demo``, an engine's own fight): ``links`` makes the GM's,
    a player's per PC and the spectators', each opened by its new token, and revokes nothing (black-box pass:
    it was refused, "reissue_links: seats must name at least one seat")."""
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.server.links import reissue_links
    from combat_server.server.app import token_hash
    from tests.conftest import SHEET

    fight_id = engine.create_fight("gurps").fight_id
    for i, (cid, side) in enumerate((("alice", "pc"), ("orc", "npc"))):
        engine.execute(fight_id, Command("add_combatant", {"id": cid, "name": cid.title(), "side": side,
                                                           "sheet": SHEET}, GM_ACTOR, f"a{i}"))
    before = engine.load(fight_id).seq
    links = reissue_links(engine, fight_id, "http://table.example")
    assert [(link.role, link.label) for link in links] == [("gm", "GM"), ("player", "Alice"),
                                                           ("spectator", "spectators")]
    for link in links:
        seat = engine.store.seat_by_token_hash(token_hash(link.link.split("#token=", 1)[1]))
        assert seat is not None and seat.role == link.role
    assert engine.load(fight_id).seq == before  # nothing revoked, nothing to record
