"""What a SHELL seat is offered (describe): the maneuvers of the combatant whose turn it is, to its
seat and the GM only; the defence prompt's answers with their DEF numbers; bars and badges."""

from __future__ import annotations

from typing import Any

from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR, Principal
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import ARCHER, BRAWLER, KNIGHT, MAGE, ORC, Table, refused, start

RULESET = ShellRuleset()
KNIGHT_SEAT = Principal("seat-k", combatants=("knight",))
MAGE_SEAT = Principal("seat-m", combatants=("mage",))


def _fight(table: Table) -> None:
    table.add("knight", KNIGHT)
    table.add("mage", MAGE)
    table.add("orc", ORC, side="npc")
    start(table, "knight", "mage", "orc")


def test_the_maneuvers_go_to_the_acting_combatants_seat_only(table: Table) -> None:
    """S-17 ... S-24, S-40: the knight's seat gets its maneuvers; the mage's seat nothing yet."""
    _fight(table)
    ids = [a["id"] for a in to_json(RULESET.describe(table.state, KNIGHT_SEAT))["actions"]]
    assert ids == ["attack", "guard", "defend", "disarm", "enter_close", "move"]
    assert to_json(RULESET.describe(table.state, MAGE_SEAT))["actions"] == []


def test_the_defence_prompt_offers_each_defence_with_the_roll_it_holds_on(table: Table) -> None:
    """S-25 / S-26 / A-68: against AT 5 the orc's dodge (3 + 0 - 1 = 2) holds on 2d10 <= 11 + 2 - 5 = 8, its
    blocks with the axe, bare hand and shield (DEF 3) on 9; the shield band shown; and no defence."""
    _fight(table)
    table.act("knight", "attack", target="orc")
    (prompt,) = to_json(RULESET.describe(table.state, GM_ACTOR))["prompts"]
    assert [(a["label"], a.get("number")) for a in prompt["answers"]] == [
        ("Dodge", 8), ("Block with axe", 9), ("Block with bare hand", 9), ("Block with shield", 9),
        ("No defence", None)]
    assert prompt["answers"][0]["help"].startswith("DEF 2 against AT 5")
    assert "shield band R 12-12" in prompt["answers"][0]["help"]


def test_bars_and_badges(table: Table) -> None:
    """S-32 / S-13: HP and END bars per combatant; a knockdown, a spell in progress, a Defend are badges."""
    _fight(table)
    table.send("adjust", {"combatant": "orc", "changes": {"knocked_down": True}, "reason": "test"})
    table.act("knight", "defend")
    table.act("mage", "cast", spell="Stone Skin")
    described = to_json(RULESET.describe(table.state, GM_ACTOR))
    bars = {(b["combatant"], b["name"]): (b["value"], b["max"]) for b in described["bars"]}
    assert bars[("orc", "hp")] == (14, 14) and bars[("mage", "end")] == (10, 10)
    labels = {(b["combatant"], b["label"]) for b in described["badges"]}
    assert {("orc", "knocked down"), ("mage", "casting Stone Skin"), ("knight", "defend")} <= labels


def _action(table: Table, action_id: str) -> dict[str, Any]:
    found = [a for a in to_json(RULESET.describe(table.state, GM_ACTOR))["actions"] if a["id"] == action_id]
    assert found, action_id
    return found[0]


def _field(action: dict[str, Any], name: str) -> dict[str, Any]:
    return next(f for f in action["fields"] if f["name"] == name)


def test_a_disarm_names_its_weapon_and_the_weapon_struck_at(table: Table) -> None:
    """S-22: only a weapon flagged to disarm, or a bare hand, disarms; left out, the rules would take the knight's
    long sword (attack/cannot_disarm), so "With" is required. The target's weapon is asked too, each open only
    for the target that holds it; the defaults are a disarm the rules take."""
    _fight(table)
    disarm = _action(table, "disarm")
    with_ = _field(disarm, "weapon")
    assert with_["required"] and [c["value"] for c in with_["choices"]] == ["bare hand"]
    struck = _field(disarm, "target_weapon")
    assert struck["required"]
    assert [(c["value"], c["when"]) for c in struck["choices"]] == [("quarterstaff", {"target": ["mage"]}),
                                                                  ("axe", {"target": ["orc"]})]
    assert _field(disarm, "target")["default"] == "orc"  # a foe first
    assert struck["default"] == "axe"  # the default target's
    args = {**disarm["args"], **{f["name"]: f["default"] for f in disarm["fields"]}}
    table.send(disarm["command"], args)
    assert table.state.combat.attack is not None


def test_a_ranged_attack_and_a_ranged_guards_strike_require_the_range(table: Table) -> None:
    """S-30: the rules refuse a ranged attack without its range (command/missing_field), so the range is a
    required field: for the bow in the attack's form, and for a pre-emptive strike from a Guard with the bow
    (S-20), which had no field at all."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    start(table, "archer", "orc")
    attack = _action(table, "attack")
    assert _field(attack, "range")["required"] and _field(attack, "range")["when"] == {"weapon": ["bow"]}
    table.act("archer", "guard", weapon="bow")
    preempt = _action(table, "preempt-archer")
    assert [(f["name"], f["required"]) for f in preempt["fields"]] == [("range", True)]
    table.send(preempt["command"], {**preempt["args"], "range": 10})
    assert table.state.combat.attack is not None


def test_a_disarm_without_the_weapon_struck_at_says_which_field_is_missing(table: Table) -> None:
    """S-22: at a target holding two weapons, a disarm that does not name the one struck at is refused as a
    missing target_weapon (not "holds no weapon ''"); at a target holding none, as nothing to strike at."""
    table.add("knight", {**KNIGHT, "weapons": [*KNIGHT["weapons"], {**KNIGHT["weapons"][0], "name": "dagger"}]})
    table.add("brawler", BRAWLER, side="npc")
    table.add("orc", ORC, side="npc")
    start(table, "orc", "brawler", "knight")
    err = refused(table, "command/missing_field",
                  lambda: table.act("orc", "disarm", target="knight", weapon="bare hand"))
    assert err.details["field"] == "target_weapon" and "target_weapon" in err.message
    err = refused(table, "attack/no_weapon", lambda: table.act("orc", "disarm", target="brawler", weapon="bare hand"))
    assert err.message == "Brawler holds no weapon to strike at (S-22)"
