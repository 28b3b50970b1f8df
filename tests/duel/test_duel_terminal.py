"""The duel, a ruleset the terminal client has never heard of, played through a pty (#9, "How we
know it is done"): the strike verb and its words, the ward prompt's answers and the vigour bar
all come from the duel's description."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Iterator

import pexpect
import pytest

from combat_server.client import CombatClient
from tests.terminal.conftest import LiveServer, Table, Terminal, start_server, stop_server, terminal  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def duel_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    proc, server = start_server(tmp_path_factory.mktemp("duel") / "server.sqlite", module="tests.duel.serve")
    try:
        yield server
    finally:
        stop_server(proc)


async def _duel_table(server: LiveServer) -> Table:
    gm = await CombatClient.connect(server.ws_url)
    try:
        created = await gm.create_fight("duel", options={"fierce_bonus": 3}, title="Terminal duel")
        await gm.subscribe(created["token"])
        for cid, name, vigour in (("anna", "Anna", 12), ("boris", "Boris", 8)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": "pc",
                                               "sheet": {"vigour": vigour, "nimbleness": 3}})
        tokens, links = {"gm": created["token"]}, {"gm": created["link"]}
        for cid in ("anna", "boris"):
            seat = await gm.add_seat("player", [cid], cid)
            tokens[cid], links[cid] = seat["token"], seat["link"]
        await gm.command("begin_duel", {})
        return Table(server, created["fight_id"], tokens, links)
    finally:
        await gm.close()


def _join(terminal: Terminal, table: Table, seat: str) -> pexpect.spawn:  # noqa: F811
    child = terminal(table.server.ws_url, f"--token={table.tokens[seat]}", "--fight", table.fight_id)
    child.expect_exact(f"Connected to fight {table.fight_id}")
    child.expect_exact(f"{seat}> ")
    return child


def test_a_player_strikes_and_the_other_wards_in_the_terminal(terminal: Terminal, duel_server: LiveServer) -> None:  # noqa: F811
    table = asyncio.run(_duel_table(duel_server))
    anna = _join(terminal, table, "anna")
    boris = _join(terminal, table, "boris")
    anna.sendline("strike boris fierce")
    anna.expect_exact("Anna strikes Boris fiercely for 5 (D-2).")
    anna.expect(r"anna\s+Anna\s+PC\s+12/12 █+\s+exposed")  # the duel's badge, as a condition
    boris.expect_exact("YOUR PROMPT")
    boris.sendline("block")
    boris.expect_exact("Boris wards with a block and takes 2 (D-3, D-4).")
    for child in (anna, boris):
        child.expect(r"boris\s+Boris\s+PC\s+6/8")

