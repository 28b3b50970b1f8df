"""The log's dice strip reads a roll as its rule computes it: a GURPS roll is 3d6 against a target
("= 10 vs 14"), but SHELL's attack is R = 2d10 + AT - DEF read on the result chart (S-25), so its strip
says "2d10 12 + AT 5 - DEF 3 = R 14" (the ruleset's roll_readings), never "12 vs 5", a roll under."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any

import pytest

from combat_server.client import CombatClient
from tests.shell.table import KNIGHT, ORC

from .conftest import ServerProcess
from .helpers import expect, page_at

pytestmark = pytest.mark.browser


async def _shell_attack(server: ServerProcess) -> str:
    """A SHELL fight over the protocol, manual dice: the knight's long sword at the orc, who blocks with
    its shield; 6 + 6 on 2d10. Returns the GM's token."""
    async with await CombatClient.connect(f"ws://127.0.0.1:{server.port}/ws") as gm:
        created = await gm.create_fight("shell", dice_mode="manual", title="Strip of an S-25 roll")
        await gm.subscribe(created["token"], describe=True)
        for cid, name, side, sheet in (("knight", "Aldric", "pc", KNIGHT), ("orc", "Grask", "npc", ORC)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet})
        await gm.command("start_combat", {})  # S-17: Aldric 10 (AG 12) before Grask 10 (AG 10)
        await gm.wait_until(lambda c: any(a["id"] == "attack" for a in (c.description or {}).get("actions", [])))
        attack = next(a for a in gm.description["actions"] if a["id"] == "attack")  # type: ignore[index]
        await gm.command(attack["command"], {**attack["args"], "target": "orc", "weapon": "long sword"})
        await gm.wait_until(lambda c: bool(c.prompts("defence", "orc")))
        block = next(a for p in gm.description["prompts"] for a in p["answers"]  # type: ignore[index]
                     if a["label"] == "Block with shield")
        await gm.command(block["command"], block["args"], faces=[[6, 6]])
        return str(created["token"])


def test_a_shell_attacks_strip_reads_r_as_2d10_plus_at_minus_def(browser: Any, server: ServerProcess) -> None:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        token = pool.submit(asyncio.run, _shell_attack(server)).result()
    gm = page_at(browser, f"{server.url}/#token={token}")
    strip = gm.locator("#log li[data-type=attack_resolved] .roll-detail")
    # DEF 3 (Axe and Shield 3, AG 10) against AT 5: R = 12 + 5 - 3 = 14, past the small shield's PR 1: a hit
    expect(strip.locator(".reading")).to_have_text(" 2d10 12 + AT 5 - DEF 3 = R 14")
    expect(strip).not_to_contain_text("vs")
    expect(strip.locator(".outcome")).to_have_text("hit")
    assert gm.js_errors == []
    gm.context.close()
