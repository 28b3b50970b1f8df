"""A GURPS fight with several GULLIVER options on (issue #11), played in the real terminal client in
pseudo-terminals against a real server: the player aims an axe blow at the orc's arm, the GM answers
for the orc, and both logs explain each step with the GULLIVER rule it follows.

Hand-checked: ST 12 under V-67 swings as V-66's thrust of 18, 1d+3; aimed at the right arm (-2,
A-24) skill 14 -> 12, 3d 11 hits; the orc does not defend; the die shows 4: 7 cut, x1.5 on the arm =
10, less Toughness floor(10/5) = 2 (V-63): 8; over HPmax 10 / 2, the arm is crippled and only
floor(5) + 1 = 6 is taken (V-11): HP 10 -> 4; a blow over HPmax/2 anywhere calls for the knockdown
roll (V-10): HT 10 against 12 fails: knocked down.
"""

from __future__ import annotations

import asyncio
import re

import pexpect

from combat_server.client import CombatClient

from .conftest import LiveServer, Table, Terminal

OPTIONS = ("new_st_damage", "new_swing_damage", "new_toughness", "hit_locations", "crippled_limbs", "knockdown")
ALICE = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"}]}
ORC = {"st": 10, "dx": 10, "ht": 10, "hp": 10}


async def _gulliver_table(server: LiveServer) -> Table:
    gm = await CombatClient.connect(server.ws_url)
    try:
        created = await gm.create_fight("gurps", dice_mode="manual", title="GULLIVER in the terminal",
                                        options={name: True for name in OPTIONS})
        await gm.subscribe(created["token"])
        await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": ALICE})
        await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": ORC})
        seat = await gm.add_seat("player", ["alice"], "alice")
        await gm.command("start_combat", {"order": ["alice", "orc"]})
        return Table(server, created["fight_id"], {"gm": created["token"], "alice": seat["token"]},
                     {"gm": created["link"], "alice": seat["link"]})
    finally:
        await gm.close()


def _join(terminal: Terminal, table: Table, seat: str) -> pexpect.spawn:
    child = terminal(table.server.ws_url, f"--token={table.tokens[seat]}", "--fight", table.fight_id)
    child.expect_exact(f"Connected to fight {table.fight_id}")
    child.expect_exact("GM> " if seat == "gm" else f"{seat}> ")
    return child


def _says(child: pexpect.spawn, text: str) -> None:
    """Wait for ``text`` in the child's output; the client wraps long log lines at spaces."""
    child.expect(r"\s+".join(re.escape(word) for word in text.split()))


def test_an_aimed_gulliver_blow_in_the_terminal_cites_its_v_rules(terminal: Terminal, live_server: LiveServer) -> None:
    """The player aims at the orc's right arm and rolls damage; the GM answers the orc's defence and
    knockdown roll; both seats read V-67, A-24, V-63, V-11 and V-10 in the log, and the roster shows HP 4."""
    table = asyncio.run(_gulliver_table(live_server))
    alice = _join(terminal, table, "alice")
    gm = _join(terminal, table, "gm")
    alice.sendline('attack orc axe location="right arm" dice=3,4,4')
    _says(alice, "Alice attacks Orc with axe: 3d [3, 4, 4] = 11 vs 12")
    _says(alice, "Aimed at the right arm (A-24).")
    gm.expect_exact("answer: defend")
    gm.sendline("defend none")
    alice.expect_exact("answer: roll")
    alice.sendline("roll dice=4")
    for child in (alice, gm):
        _says(child, "dice from the swing of V-67 (in place of A-01)")
        _says(child, "less Toughness 2 of 2 (V-63 (in place of G-42)) -> injury 8")
        _says(child, "right arm is crippled (V-11)")
    gm.expect_exact("(Roll 3d6 for major wound)")
    gm.sendline("roll dice=4,4,4")
    for child in (alice, gm):
        _says(child, "is knocked down (V-10 (in place of G-46))")
        child.expect(r"orc\s+Orc\s+NPC\s+4/10")
