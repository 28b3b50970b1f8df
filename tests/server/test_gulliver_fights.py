"""GURPS fights with GULLIVER options on, created from what welcome offers and played over the
protocol on real websockets, on SQLite and PostgreSQL (issue #11). One with the fatigue options:
Fatigue on Combat ST (V-53, A-50) with its HT roll on every cost, Extra Effort and heat (V-48), the
encumbrance factor (V-52), movement by pace (V-47, A-48) and the DX/IQ penalty (V-50, A-49). One with
a size-block monster under the combined approach (V-62: V-60's knockout bonus, V-61's death zone).
After each step the pushed state (condition and derived view) and the log are checked against
numbers worked by hand."""

from __future__ import annotations

from typing import Any

from combat_server.client import CombatClient

from tests.conftest import Databases

from .conftest import Connect, MakeServer

SWITCHES = ("fatigue_on_st", "encumbrance_fatigue", "effort_heat_fatigue", "movement_fatigue",
            "fatigue_skill_penalty")
#: ST 15 (BL 45 lb), DX 12, HT 12, HP 15: Fatigue 15 under V-53. 60 lb is a Light load (<= 2 x 45):
#: Move floor(6 x 4/5) = 4, Dodge 9 - 1 = 8, V-52's factor x5/4.
HERO = {"st": 15, "dx": 12, "ht": 12, "carried": 60,
        "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "dx": 10, "ht": 10, "hp": 10}
HT_BY_1 = [3, 4, 4]  # 11 against HT 12: success by 1, V-53 halves the cost
HT_FAIL_1 = [4, 4, 5]  # 13: failure by 1, V-53 leaves it


def _last(client: CombatClient, type_: str) -> Any:
    return next(e for e in reversed(client.events) if e.type == type_)


def _hero(client: CombatClient) -> tuple[dict[str, Any], dict[str, Any]]:
    assert client.state is not None
    return client.state["combatants"]["hero"]["condition"], client.state["derived"]["hero"]


async def _sent(client: CombatClient, command: str, args: dict[str, Any],
                faces: list[list[int]] | None = None) -> None:
    result = await client.command(command, args, faces=faces)
    await client.wait_for_seq(result["last_seq"])


async def test_a_fatigue_fight_with_gulliver_options_over_the_protocol(
        databases: Databases, make_server: MakeServer, connect: Connect) -> None:
    """Hot weather (V-48 +1). Extra Effort on an Evaluate: (1 + 1) x5/4 x15/10 = 15/4, the HT roll by 1
    halves it: 15/8; Fatigue 15 -> 105/8. A 4-yd Move is a second of running (V-47). Climbing, 5 points:
    (5 + 1) x5/4 x15/10 = 45/4, HT failed by 1: 105/8 - 90/8 = 15/8: at most floor(15/3) = 5, so Move
    4 -> 2 and Dodge 8 -> 4, and at most 15/3 of 15: -3 on the club (V-50). A spell, 1 point, not
    exertion: (1 + 1), halved = 1: 7/8 <= 15/10: collapsed outright (V-53); the hero's turn is Do
    Nothing. Another spell failed by 1: 2 from 7/8 is 0, unconscious, the 9/8 past it is 1 HP."""
    server = await make_server(url=databases.new_url())
    gm = await connect(server.ws_url)
    (gurps,) = [r for r in gm.welcome["rulesets"] if r["name"] == "gurps"]
    offered = {o["name"]: o for o in gurps["options"]}
    assert all(offered[name]["group"] == "GULLIVER: fatigue" for name in SWITCHES)
    assert "hot" in offered["fatigue_heat"]["choices"]
    options: dict[str, Any] = {name: True for name in SWITCHES}
    created = await gm.create_fight("gurps", dice_mode="manual", options={**options, "fatigue_heat": "hot"})
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "hero", "name": "Hero", "side": "pc", "sheet": HERO})
    await gm.command("add_combatant", {"id": "foe", "name": "Foe", "side": "npc", "sheet": FOE})
    await _sent(gm, "start_combat", {"order": ["hero", "foe"]})
    cond, view = _hero(gm)
    assert (cond["fp"], view["fp_max"], view["fatigue_rule"], view["move"], view["dodge"]) == (15, 15, "V-53", 4, 8)

    # 1. Extra Effort (V-48) in hot weather, Light load (V-52), x Combat ST/10 and the HT roll (V-53)
    await _sent(gm, "maneuver", {"combatant": "hero", "maneuver": "evaluate", "target": "foe", "extra_effort": True},
                faces=[HT_BY_1])
    spent = _last(gm, "fatigue_spent")
    assert (spent.event["payload"]["rule"], spent.event["payload"]["cost"]) == ("V-48", "15/8")
    assert spent.explanation == (
        "Hero takes 1 fatigue for Extra Effort this turn (V-48 (in place of G-51)): +1 for hot conditions "
        "(V-48), x5/4 for Light encumbrance (V-52), x Combat ST 15/10 (V-53), x1/2: the HT roll succeeded by 1 "
        "(V-53) = 15/8; Fatigue 15 -> 105/8 of 15 (V-53 (in place of G-51), A-50).")
    cond, view = _hero(gm)
    assert (cond["fp"], cond["fp_exact"], view["fatigue"]) == (13, "105/8", "105/8")
    await _sent(gm, "maneuver", {"combatant": "foe", "maneuver": "do_nothing"})

    # 2. A second of running (V-47: 4 yd of Move 4), no whole point yet
    await _sent(gm, "maneuver", {"combatant": "hero", "maneuver": "move", "yards": 4})
    paced = _last(gm, "pace_timed").event["payload"]
    assert (paced["pace"], paced["seconds"], paced["interval"], paced["move"]) == ("running", 1, 20, 4)
    assert _hero(gm)[0]["pace_seconds"] == {"running": 1}
    await _sent(gm, "maneuver", {"combatant": "foe", "maneuver": "do_nothing"})

    # 3. The GM charges a climb: halved Move and Dodge (V-53's third), V-50's -3
    await _sent(gm, "spend_fatigue", {"combatant": "hero", "points": 5, "reason": "climbing the wall"},
                faces=[HT_FAIL_1])
    p = _last(gm, "fatigue_spent").event["payload"]
    assert (p["cost"], p["fatigue_after"], p["fp_after"]) == ("45/4", "15/8", 1)
    cond, view = _hero(gm)
    assert (view["move"], view["dodge"], view["tired"], view["fatigue"]) == (2, 4, True, "15/8")

    # 4. The club at -3 for fatigue (V-50): 14 - 3 = 11, a roll of 11 hits; the foe takes 2
    await _sent(gm, "maneuver", {"combatant": "hero", "maneuver": "attack", "target": "foe", "weapon": "club"},
                faces=[[3, 4, 4]])
    attack = _last(gm, "attack_rolled").event["payload"]
    assert {"value": -3, "reason": "fatigue: Fatigue 15/8 of 15", "rule": "V-50"} in attack["record"]["modifiers"]
    assert attack["record"]["target"] == 11
    defend = await gm.wait_for_prompt("defend", "foe")
    await gm.command("defend", {"prompt": defend["id"], "defense": "none"})
    damage = await gm.wait_for_prompt("roll", "hero")
    await _sent(gm, "roll", {"prompt": damage["id"]}, faces=[[2]])
    assert gm.state is not None and gm.state["combatants"]["foe"]["condition"]["hp"] == 8
    await _sent(gm, "maneuver", {"combatant": "foe", "maneuver": "do_nothing"})
    assert gm.state["combat"]["current"] == "hero"

    # 5. A spell (not exertion): collapse at Combat ST/10, outright (V-53); the hero's turn passes
    await _sent(gm, "spend_fatigue", {"combatant": "hero", "points": 1, "reason": "a spell", "exertion": False},
                faces=[HT_BY_1])
    p = _last(gm, "fatigue_spent").event["payload"]
    assert (p["cost"], p["fatigue_after"], p["collapsed"]) == ("1", "7/8", True)
    cond, _view = _hero(gm)
    assert (cond["fp"], cond["collapsed"]) == (0, True)
    forced = _last(gm, "maneuver_chosen").event["payload"]
    assert (forced["combatant"], forced["maneuver"], forced["forced"]) == ("hero", "do_nothing", "collapsed (V-53)")
    assert gm.state is not None and gm.state["combat"]["current"] == "foe"
    await _sent(gm, "maneuver", {"combatant": "foe", "maneuver": "do_nothing"})

    # 6. Another spell: Fatigue 0, unconscious (V-53), the rest past 0 off HP (rounded down)
    await _sent(gm, "spend_fatigue", {"combatant": "hero", "points": 1, "reason": "a spell", "exertion": False},
                faces=[HT_FAIL_1])
    p = _last(gm, "fatigue_spent").event["payload"]
    assert (p["cost"], p["hp_loss"], p["unconscious"]) == ("2", 1, True)
    cond, _view = _hero(gm)
    assert (cond["fp"], cond["hp"], cond["unconscious"]) == (0, 14, True)
    said = " ".join(e.explanation for e in gm.events)
    for cited in ("V-47", "V-48", "V-50", "V-52", "V-53"):
        assert cited in said, cited


# --------------------------------------------------------------------------- size-block monsters (V-60 ... V-62)

#: A maul of fixed 10d crushing, a dagger of 1d-5 (a 6 does 1).
MAULER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "maul", "skill": 14, "damage": "10d", "damage_type": "cr"},
    {"name": "dagger", "skill": 14, "damage": "1d-5", "damage_type": "cr"}]}
#: An ogre of a monster race, racial IQ 6 (the size block, A-27): 20 HP, HT 12.
OGRE = {"st": 20, "ht": 12, "hp": 20, "iq": 6, "gulliver": {"non_pc_race": True}}


async def _hit(gm: CombatClient, weapon: str, faces: list[int]) -> None:
    """The mauler hits the ogre (3d 11 against 14), the ogre does not defend, the damage dice show ``faces``."""
    await _sent(gm, "maneuver", {"combatant": "hero", "maneuver": "attack", "target": "ogre", "weapon": weapon},
                faces=[[3, 4, 4]])
    defend = await gm.wait_for_prompt("defend", "ogre")
    await gm.command("defend", {"prompt": defend["id"], "defense": "none"})
    damage = await gm.wait_for_prompt("roll", "hero")
    await _sent(gm, "roll", {"prompt": damage["id"]}, faces=[faces])


async def _roll(gm: CombatClient, purpose: str, faces: list[int]) -> dict[str, Any]:
    """The ogre's open roll for ``purpose``, rolled with ``faces``: its prompt."""
    prompt = await gm.wait_for_prompt("roll", "ogre")
    assert prompt["options"]["purpose"] == purpose
    await _sent(gm, "roll", {"prompt": prompt["id"]}, faces=[faces])
    return dict(prompt)


async def test_a_monster_fight_with_the_combined_approach_over_the_protocol(
        databases: Databases, make_server: MakeServer, connect: Connect) -> None:
    """V-62 (V-60 with V-61): the maul's 22 takes the ogre to -2 (no check: its zone is x6/10, the first at
    -12); its major-wound roll passes; at its turn HT 12 + 4 (IQ 6) against 15 keeps it up for good. The
    dagger's 1 (under 20/10 fresh) asks nothing. The maul's 10 takes it to -13: past -12, a death check
    (passed), and 11 fresh injury: at its turn the roll is due again; 18 fails: unconscious."""
    server = await make_server(url=databases.new_url())
    gm = await connect(server.ws_url)
    (gurps,) = [r for r in gm.welcome["rulesets"] if r["name"] == "gurps"]
    assert {o["name"]: o for o in gurps["options"]}["monster_combined"]["group"] == "GULLIVER: monsters"
    created = await gm.create_fight("gurps", dice_mode="manual", options={"monster_combined": True})
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "hero", "name": "Hero", "side": "pc", "sheet": MAULER})
    await gm.command("add_combatant", {"id": "ogre", "name": "Ogre", "side": "npc", "sheet": OGRE})
    await _sent(gm, "start_combat", {"order": ["hero", "ogre"]})

    await _hit(gm, "maul", [6, 6, 3, 1, 1, 1, 1, 1, 1, 1])
    injury = _last(gm, "injury_applied").event["payload"]
    assert (injury["hp_after"], injury["death_thresholds"], injury["death_zone"]) == (
        -2, [], {"factor": "3/5", "rule": "V-62"})
    await _roll(gm, "major_wound", [3, 3, 3])
    await _roll(gm, "consciousness", [5, 5, 5])
    check = _last(gm, "check_rolled")
    assert [(m["value"], m["rule"]) for m in check.event["payload"]["record"]["modifiers"]] == [(4, "V-62")]
    assert check.event["payload"]["stays_up"] == "V-62" and "V-62" in check.explanation
    assert gm.state is not None and gm.state["combatants"]["ogre"]["condition"]["stays_up"] is True
    await _sent(gm, "maneuver", {"combatant": "ogre", "maneuver": "do_nothing"})

    await _hit(gm, "dagger", [6])
    assert _last(gm, "injury_applied").event["payload"]["fresh_injury"] == {"total": 1, "roll_again": False,
                                                                            "rule": "V-62"}
    assert not gm.prompts("roll", "ogre")
    await _sent(gm, "maneuver", {"combatant": "ogre", "maneuver": "do_nothing"})

    await _hit(gm, "maul", [1] * 10)
    injury = _last(gm, "injury_applied").event["payload"]
    assert (injury["hp_after"], injury["death_thresholds"]) == (-13, [1])
    assert injury["fresh_injury"] == {"total": 11, "roll_again": True, "rule": "V-62"}
    death = await _roll(gm, "death_check", [3, 3, 3])
    assert "x IQ/10 = 3/5, V-62" in death["text"]
    await _roll(gm, "consciousness", [6, 6, 6])
    assert gm.state is not None
    ogre = gm.state["combatants"]["ogre"]["condition"]
    assert (ogre["hp"], ogre["dead"], ogre["unconscious"]) == (-13, False, True)
