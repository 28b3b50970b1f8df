"""GULLIVER's new event fields and a hidden sheet, on a real server (issue #11): what the size
block (A-27) and the monster options put in a payload about a hidden combatant reaches the GM
only; a player sees the dice and the outcome (docs/protocol.md, What each seat sees)."""

from __future__ import annotations

from typing import Any

from combat_server.client import CombatClient
from combat_server.server import CombatServer

from .conftest import Connect

#: ST 12: the broadsword (sw+1) rolls 1d+3 cut; the spear (thr+2) 1d+1 impaling; skill 14.
ALICE: dict[str, Any] = {
    "st": 12, "dx": 12, "ht": 11,
    "weapons": [{"name": "broadsword", "skill": 14, "damage": "sw+1", "damage_type": "cut"},
                {"name": "spear", "skill": 14, "damage": "thr+2", "damage_type": "imp"}],
}


async def _table(connect: Connect, orc: dict[str, Any], *options: str) -> tuple[CombatClient, CombatClient]:
    """Manual dice, the options on; Alice (PC, her player's seat) and a hidden orc; Alice's turn."""
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="manual", options={name: True for name in options})
    await gm.subscribe(created["token"], describe=True)
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": ALICE})
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": orc, "hidden": True})
    player = await connect()
    await player.subscribe((await gm.add_seat("player", ["alice"], "Alice"))["token"], describe=True)
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    return gm, player


async def _alice_hits(gm: CombatClient, player: CombatClient, weapon: str, damage: list[int], **aim: str) -> None:
    """Alice's 3d 11 hits (skill 14, or 11 aimed at the vitals), the orc does not defend, the die shows
    ``damage``."""
    await player.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": weapon,
                                      **aim}, faces=[[3, 4, 4]])
    defend = await gm.wait_for_prompt("defend", "orc")
    await gm.command("defend", {"prompt": defend["id"], "defense": "none"})
    roll = await player.wait_for_prompt("roll", "alice")
    await player.command("roll", {"prompt": roll["id"]}, faces=[damage])


async def _purpose(gm: CombatClient, purpose: str) -> str:
    """The id of the orc's open roll prompt for ``purpose``, as the GM sees it."""
    await gm.wait_until(lambda c: any(p["options"].get("purpose") == purpose for p in c.prompts("roll", "orc")))
    (prompt,) = [p for p in gm.prompts("roll", "orc") if p["options"].get("purpose") == purpose]
    return str(prompt["id"])


def _payload(client: CombatClient, etype: str) -> dict[str, Any]:
    (found,) = [e for e in client.events if e.type == etype]
    return dict(found.event["payload"])


async def test_v61_a_hidden_monsters_death_zone_is_for_the_gm_only(server: CombatServer, connect: Connect) -> None:
    """V-61 / A-52: a monster's zone is x racial IQ/10, so its factor (7/10 for racial IQ 7) names a number
    of the hidden sheet's size block: the GM's injury_applied has it, the player's and its replay do not."""
    orc = {"st": 10, "ht": 10, "hp": 20, "gulliver": {"non_pc_race": True, "racial_iq": 7}}
    gm, player = await _table(connect, orc, "monster_ko_zone")
    await _alice_hits(gm, player, "broadsword", [4])  # 4 + 3 = 7 cut, x1.5 = 10 injury: HP 20 -> 10
    await player.wait_for_seq(gm.last_seq)
    assert _payload(gm, "injury_applied")["death_zone"] == {"factor": "7/10", "rule": "V-61"}
    assert "death_zone" not in _payload(player, "injury_applied")
    (replayed,) = [i for i in await player.replay() if i["event"]["type"] == "injury_applied"]
    assert "death_zone" not in replayed["event"]["payload"] and "7/10" not in replayed["explanation"]


async def test_v44_a_hidden_victims_linear_scale_is_for_the_gm_only(server: CombatServer, connect: Connect) -> None:
    """V-44: heart-attack damage is 2d x the victim's LS (the size block, A-27). Aimed at the vitals
    (-3: 11 hits), 4 + 1 = 5 imp x3 = 15 >= HPmax 10: a HT roll; HT 10 rolls 12, a minor heart attack;
    2d [3, 4] x LS 2 = 14. The GM sees "x LS 2"; the player sees the dice, not the LS."""
    orc = {"st": 10, "ht": 10, "hp": 10, "gulliver": {"linear_scale": 2}}
    gm, player = await _table(connect, orc, "hit_locations", "heart_attack")
    await _alice_hits(gm, player, "spear", [4], location="vitals")
    await gm.command("roll", {"prompt": await _purpose(gm, "heart_attack")}, faces=[[4, 4, 4]])
    await gm.command("roll", {"prompt": await _purpose(gm, "heart_attack_damage")}, faces=[[3, 4]])
    await player.wait_for_seq(gm.last_seq)
    assert _payload(gm, "heart_attack_rolled")["linear_scale"] == "2"
    (gm_said,) = [e.explanation for e in gm.events if e.type == "heart_attack_rolled"]
    assert "x LS 2" in gm_said
    seen = _payload(player, "heart_attack_rolled")
    assert seen["dice"] == [3, 4] and "linear_scale" not in seen and "injury" not in seen
    (said,) = [e.explanation for e in player.events if e.type == "heart_attack_rolled"]
    assert said == "Orc's minor heart attack does 2d [3, 4] (V-44)."


async def test_v47_a_hidden_movers_pace_is_for_the_gm_only(server: CombatServer, connect: Connect) -> None:
    """V-47 / A-48: the pace is the yards moved as a share of Move, so with the visible yards it gives the
    hidden Move away (6 yd sprinting: 6/Move in (1, 6/5], Move 5). The orc (DX 10, HT 10: Move 5) runs
    5 yd forward (1/20), then sprints 6 yd ten times (1/10 each, G-09: after a turn running): the tenth
    sprint makes 1/20 + 10/10 = 21/20, 1 fatigue. The GM sees each second's pace and the point's; the
    player sees the yards and the point, not the pace, its interval or the seconds at it."""
    gm, player = await _table(connect, {"st": 10, "dx": 10, "ht": 10}, "movement_fatigue")
    for yards in [5] + [6] * 10:
        await player.command("maneuver", {"combatant": "alice", "maneuver": "do_nothing"})
        await gm.command("maneuver", {"combatant": "orc", "maneuver": "move", "yards": yards, "sprint": True})
    await player.wait_for_seq(gm.last_seq)
    gm_paced = [e.event["payload"] for e in gm.events if e.type == "pace_timed"]
    assert [(p["pace"], p["move"]) for p in gm_paced] == [("running", 5)] + [("sprinting", 5)] * 10
    assert _payload(gm, "fatigue_spent")["pace"] == "sprinting: 1 per 10 s"
    seen = [e for e in player.events if e.type == "pace_timed"]
    assert [e.event["payload"]["moved"] for e in seen] == [5] + [6] * 10
    assert not {"pace", "interval", "seconds", "move"} & {k for e in seen for k in e.event["payload"]}
    assert seen[-1].explanation == "Orc moved 6 yd (V-47 (in place of G-10), A-48)."
    spent = _payload(player, "fatigue_spent")
    assert spent["points"] == 1 and spent["reason"] == "movement" and "pace" not in spent
    said = " ".join(e.explanation for e in player.events)
    assert "sprint" not in said and "per 10 s" not in said


async def test_v61_waiting_for_a_hidden_monsters_roll_names_no_number(server: CombatServer, connect: Connect) -> None:
    """V-61 / A-52: the orc (HP 4, racial IQ 7) takes 10 (4 + 3 = 7 cut, x1.5): HP -6, past its first death
    check at -4 x 7/10 = -14/5. The GM's description waits on "Orc reached -7/10 x HP: ..." (the zone gives
    the racial IQ); a player's says only that the orc rolls, as its redacted prompt does."""
    orc = {"st": 10, "ht": 10, "hp": 4, "gulliver": {"non_pc_race": True, "racial_iq": 7}}
    gm, player = await _table(connect, orc, "monster_ko_zone")
    await _alice_hits(gm, player, "broadsword", [4])
    await player.wait_for_seq(gm.last_seq)
    await gm.wait_until(lambda c: "7/10" in ((c.description or {}).get("waiting_for") or ""))
    await player.wait_until(lambda c: "Orc" in ((c.description or {}).get("waiting_for") or ""))
    waiting = str((player.description or {})["waiting_for"])
    assert waiting == "Waiting for Orc: Orc rolls the dice"
