"""SHELL played in the terminal client through a pty (#10): the verbs, their words and the prompt's
answers all come from the SHELL description; manual dice typed as dice=..."""

from __future__ import annotations

import asyncio

import pexpect

from combat_server.client import CombatClient
from tests.terminal.conftest import LiveServer, Table, Terminal, live_server, terminal  # noqa: F401
from tests.shell.table import KNIGHT, MAGE


async def _shell_table(server: LiveServer) -> Table:
    gm = await CombatClient.connect(server.ws_url)
    try:
        created = await gm.create_fight("shell", dice_mode="manual", title="Terminal SHELL")
        await gm.subscribe(created["token"])
        for cid, name, sheet in (("knight", "Knight", KNIGHT), ("mage", "Mage", MAGE)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": "pc", "sheet": sheet})
        tokens, links = {"gm": created["token"]}, {"gm": created["link"]}
        for cid in ("knight", "mage"):
            seat = await gm.add_seat("player", [cid], cid)
            tokens[cid], links[cid] = seat["token"], seat["link"]
        await gm.command("start_combat", {"order": ["knight", "mage"]})
        return Table(server, created["fight_id"], tokens, links)
    finally:
        await gm.close()


def _join(terminal: Terminal, table: Table, seat: str) -> pexpect.spawn:  # noqa: F811
    child = terminal(table.server.ws_url, f"--token={table.tokens[seat]}", "--fight", table.fight_id)
    child.expect_exact(f"Connected to fight {table.fight_id}")
    child.expect_exact(f"{seat}> ")
    return child


def test_an_attack_a_dodge_and_a_spell_in_the_terminal(terminal: Terminal, live_server: LiveServer) -> None:  # noqa: F811
    table = asyncio.run(_shell_table(live_server))
    knight = _join(terminal, table, "knight")
    mage = _join(terminal, table, "mage")
    knight.sendline("attack mage")  # S-25: the defender states its defence; the 2d10 come with it
    knight.expect_exact("Knight attacks Mage at AT 5 (S-25).")
    mage.expect_exact("YOUR PROMPT")
    mage.sendline("dodge dice=1,1")  # dodge 2 + 1 - 1 = 2: R = 2 + 5 - 2 = 5
    for child in (knight, mage):
        child.expect_exact("Mage dodges; R = 2 + 5 - 2 = 5: miss (S-25, S-26, S-28).")
        child.expect_exact("Round 1: Mage's turn (S-17).")
    mage.sendline("cast Firebolt knight")
    mage.expect_exact("Mage begins casting Firebolt")
    mage.sendline("roll dice=2,3,4")  # 9 against IQ 14 - 3 + (7 - 4) = 14
    for child in (knight, mage):
        child.expect_exact("Mage's Firebolt (9 against 14) succeeds and takes effect; it costs 2 END "
                           "(S-12, S-44, R-17).")
