"""A GURPS fight with several GULLIVER options, created from what welcome offers and played
over the protocol (issue #11): one aimed axe blow goes through the new swing table (V-66,
V-67), the arm's multiplier (A-24), Toughness (V-63), crippling (V-11) and the knockdown roll
(V-10), each step in the log citing its rule."""

from __future__ import annotations

from combat_server.server import CombatServer

from .conftest import Connect

OPTIONS = ("new_st_damage", "new_swing_damage", "new_toughness", "blowthrough", "blowthrough_improved",
           "hit_locations", "crippled_limbs", "knockdown")
#: ST 12: V-67 swing = V-66 thrust of 18 = 1d+3.
ALICE = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"}]}
#: ST 10 (Toughness 2), HT 10, 10 HP: an arm cripples over 5.
ORC = {"st": 10, "dx": 10, "ht": 10, "hp": 10}


async def test_an_aimed_blow_with_gulliver_options_over_the_protocol(server: CombatServer, connect: Connect) -> None:
    """Aimed at the right arm (-2: 14 -> 12; 3d 11 hits). The axe's 1d+3 rolls 4 -> 7; x1.5 cut on
    the arm = 10; Toughness 2 -> 8 (V-63); over 10/2: crippled, floor(5) + 1 = 6 taken (V-11);
    8 > 5 anywhere: the knockdown roll (V-10), HT 10 rolls 12: knocked down."""
    gm = await connect()
    (gurps,) = [r for r in gm.welcome["rulesets"] if r["name"] == "gurps"]
    offered = {o["name"]: o for o in gurps["options"]}
    assert all(offered[name]["group"].startswith("GULLIVER") for name in OPTIONS if name != "hit_locations")
    created = await gm.create_fight("gurps", dice_mode="manual", options={name: True for name in OPTIONS})
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": ALICE})
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": ORC})
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    await gm.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": "axe",
                                  "location": "right arm"}, faces=[[3, 4, 4]])
    defend = await gm.wait_for_prompt("defend", "orc")
    await gm.command("defend", {"prompt": defend["id"], "defense": "none"})
    damage = await gm.wait_for_prompt("roll", "alice")
    await gm.command("roll", {"prompt": damage["id"]}, faces=[[4]])
    knockdown = await gm.wait_for_prompt("roll", "orc")
    assert (knockdown["options"]["purpose"], knockdown["options"]["rule"]) == ("major_wound", "V-10")
    result = await gm.command("roll", {"prompt": knockdown["id"]}, faces=[[4, 4, 4]])
    await gm.wait_for_seq(result["last_seq"])
    assert gm.state is not None
    orc = gm.state["combatants"]["orc"]["condition"]
    assert (orc["hp"], orc["crippled"], orc["posture"]) == (4, ["right arm"], "prone")
    said = " ".join(e.explanation for e in gm.events)
    for cited in ("Aimed at the right arm (A-24)", "dice from the swing of V-67 (in place of A-01)",
                  "less Toughness 2 of 2 (V-63 (in place of G-42)) -> injury 8",
                  "right arm is crippled (V-11)", "is knocked down (V-10 (in place of G-46))"):
        assert cited in said, cited
