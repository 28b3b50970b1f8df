"""A hidden SHELL attacker's AT stays with the GM, over the real websocket protocol on loopback.

S-25: R = 2d10 + AT - DEF. The defender's player sees the dice and the outcome (the roll's record
keeps them), but neither the AT itself (in its defence prompt's help text), nor a number it is a
term of (the prompt's target "2d10 <= 11 + DEF - AT", the resolved attack's ``r``): from any of
those and its own DEF the player would read the hidden sheet's AT off (docs/protocol.md, *What
each seat sees*). The GM, who sees every sheet, keeps them all.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.client import CombatClient
from tests.server.conftest import Connect, connect, make_server, server  # noqa: F401  (fixtures)
from tests.shell.table import KNIGHT, ORC


@pytest.fixture
async def table(connect: Connect) -> tuple[CombatClient, CombatClient]:  # noqa: F811
    """A manual-dice SHELL fight: the GM's hidden orc attacks the knight, whose player must defend."""
    gm = await connect()
    created = await gm.create_fight("shell", dice_mode="manual", title="hidden orc")
    await gm.subscribe(created["token"], describe=True)
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": ORC, "hidden": True})
    await gm.command("add_combatant", {"id": "knight", "name": "Knight", "side": "pc", "sheet": KNIGHT})
    seat = await gm.add_seat("player", ["knight"], "Knight")
    player = await connect()
    await player.subscribe(seat["token"], describe=True)
    await gm.command("start_combat", {"order": ["orc", "knight"]})  # the GM's order for round 1
    await gm.command("act", {"combatant": "orc", "maneuver": "attack", "target": "knight", "weapon": "axe"})
    await player.wait_until(lambda c: bool((c.description or {}).get("prompts")))
    await gm.wait_until(lambda c: bool((c.description or {}).get("prompts")))
    return gm, player


def _answers(client: CombatClient) -> dict[str, dict[str, Any]]:
    (prompt,) = (client.description or {})["prompts"]
    return {a["label"]: a for a in prompt["answers"]}


async def test_a_players_defence_prompt_names_no_hidden_attackers_at(
        table: tuple[CombatClient, CombatClient]) -> None:
    """S-25: the knight's player chooses between its defences by their DEF, without the orc's AT."""
    _, player = table
    answers = _answers(player)
    assert set(answers) >= {"Dodge", "No defence"}
    for answer in answers.values():
        assert "AT" not in answer["help"], answer["help"]
        assert answer["number"] is None
    assert answers["Dodge"]["help"].startswith("DEF ")


async def test_the_gm_sees_the_hidden_attackers_at_in_the_defence_prompt(
        table: tuple[CombatClient, CombatClient]) -> None:
    """The GM sees every sheet: its copy of the knight's prompt keeps the AT and the 2d10 target."""
    gm, _ = table
    dodge = _answers(gm)["Dodge"]
    assert " against AT " in dodge["help"] and isinstance(dodge["number"], int)


async def test_a_resolved_attack_of_a_hidden_attacker_reaches_a_player_without_r(
        table: tuple[CombatClient, CombatClient]) -> None:
    """R = 2d10 + AT - DEF with the dice and DEF shown gives AT away: the player's copy has no ``r``,
    the GM's has it (S-25)."""
    gm, player = table
    dodge = _answers(player)["Dodge"]
    result = await player.command(dodge["command"], dodge["args"], faces=[[2, 3]])

    def resolved(client: CombatClient) -> dict[str, Any]:
        return next(e.event for e in client.events if e.seq >= result["first_seq"]
                    and e.event["type"] == "attack_resolved")

    await player.wait_until(lambda c: c.last_seq >= result["last_seq"])
    await gm.wait_until(lambda c: c.last_seq >= result["last_seq"])
    seen = resolved(player)["payload"]
    assert seen["record"]["dice"] == [2, 3] and seen["result"]
    assert "r" not in seen
    assert "r" in resolved(gm)["payload"]
    history = await player.request({"type": "replay", "after": result["first_seq"] - 1})
    assert all("r" not in item["event"]["payload"] for item in history["items"]
               if item["event"]["type"] == "attack_resolved")
