"""What a SHELL seat is offered (describe): the maneuvers of the combatant whose turn it is, to its
seat and the GM only; the defence prompt's answers with their DEF numbers; bars and badges."""

from __future__ import annotations

from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR, Principal
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import KNIGHT, MAGE, ORC, Table, start

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
