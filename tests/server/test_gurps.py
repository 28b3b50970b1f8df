"""A GURPS attack played through the server: a player attacks, the GM defends
for the NPC, the player rolls damage with manual dice, everyone sees the wound."""

from __future__ import annotations

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer

from .conftest import SHEET, Connect


async def _fight(connect: Connect, dice_mode: str) -> tuple[CombatClient, CombatClient, CombatClient, str]:
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode=dice_mode, seed="g")
    await gm.subscribe(created["token"])
    for cid, side in (("alice", "pc"), ("bob", "pc"), ("orc", "npc")):
        await gm.command("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": SHEET})
    players = []
    for cid in ("alice", "bob"):
        c = await connect()
        await c.subscribe((await gm.add_seat("player", [cid]))["token"])
        players.append(c)
    await gm.command("start_combat", {"order": ["alice", "orc", "bob"]})
    return gm, players[0], players[1], created["fight_id"]


async def test_attack_defence_and_damage_with_manual_dice(server: CombatServer, connect: Connect) -> None:
    """Alice hits (12 vs 13), the GM's dodge for the orc fails (17 vs 8), 1d+3 cut with a 4: 7 x1.5 = 10 HP."""
    gm, alice, bob, _ = await _fight(connect, "manual")
    await alice.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc",
                                     "weapon": "broadsword"}, faces=[[3, 4, 5]])
    prompt = await gm.wait_for_prompt("defend", "orc")
    with pytest.raises(ServerError) as err:  # bob's seat cannot answer the orc's prompt
        await bob.command("defend", {"prompt": prompt["id"], "defense": "dodge"}, faces=[[6, 6, 5]])
    assert err.value.code == "auth/not_your_prompt"
    await gm.command("defend", {"prompt": prompt["id"], "defense": "dodge"}, faces=[[6, 6, 5]])
    damage = await alice.wait_for_prompt("roll", "alice")
    assert damage["options"]["purpose"] == "damage"
    result = await alice.command("roll", {"prompt": damage["id"]}, faces=[[4]])
    for c in (gm, alice, bob):
        await c.wait_for_seq(result["last_seq"])
        assert c.state is not None
        assert c.state["combatants"]["orc"]["condition"]["hp"] == 12 - 10
    types = [e.type for e in gm.events]
    assert types.index("attack_rolled") < types.index("defense_rolled")
    assert all(e.explanation for e in gm.events)


async def test_auto_rolled_steps_are_pushed_one_by_one_with_their_state(server: CombatServer,
                                                                         connect: Connect) -> None:
    """With server dice one command yields several events; each push carries the state right after it."""
    gm, alice, _bob, _ = await _fight(connect, "seeded")
    result = await alice.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc",
                                              "weapon": "broadsword"})
    await gm.wait_for_seq(result["last_seq"])
    pushed = [e for e in gm.events if e.seq >= result["first_seq"]]
    assert len(pushed) == result["last_seq"] - result["first_seq"] + 1
    for e in pushed:
        assert e.state is not None and e.state["seq"] == e.seq


async def test_gm_undoes_the_attack_to_turn_start(server: CombatServer, connect: Connect) -> None:
    """Undo to the start of the turn takes the attack out; everyone's state is back to full HP."""
    gm, alice, _bob, _ = await _fight(connect, "manual")
    await alice.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc",
                                     "weapon": "broadsword"}, faces=[[3, 4, 5]])
    prompt = await gm.wait_for_prompt("defend", "orc")
    await gm.command("defend", {"prompt": prompt["id"], "defense": "dodge"}, faces=[[6, 6, 5]])
    damage = await alice.wait_for_prompt("roll", "alice")
    await alice.command("roll", {"prompt": damage["id"]}, faces=[[4]])
    undo = await gm.command("undo", {"to": "turn_start"})
    await alice.wait_for_seq(undo["last_seq"])
    assert alice.state is not None
    assert alice.state["combatants"]["orc"]["condition"]["hp"] == 12
    assert alice.state["combat"]["current"] == "alice"


async def test_preview_gives_the_effective_skill_without_appending(server: CombatServer, connect: Connect) -> None:
    """A player previews Move and Attack: 13 - 4 = 9 (G-32), with the modifier's rule id; the log is untouched."""
    gm, alice, bob, fight_id = await _fight(connect, "manual")
    seq = server.engine.load(fight_id).seq
    preview = await alice.preview("maneuver", {"combatant": "alice", "maneuver": "move_and_attack", "target": "orc",
                                               "weapon": "broadsword"})
    assert preview["type"] == "preview_result" and preview["target"] == 9
    assert preview["modifiers"] == [{"value": -4, "reason": "Move and Attack, melee", "rule": "G-32"}]
    assert server.engine.load(fight_id).seq == seq


async def test_preview_is_refused_like_the_command(server: CombatServer, connect: Connect) -> None:
    """Bob cannot preview a maneuver for Alice: the same refusal as the real command."""
    gm, alice, bob, _ = await _fight(connect, "manual")
    with pytest.raises(ServerError) as err:
        await bob.preview("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc"})
    assert err.value.code == "auth/not_your_combatant"
