"""#14 item 3: unarmed is a property of an attack, not a name (G-41).

A weapon that parries an unarmed attack (punch, kick, bite, claws) may strike back at once;
the implicit punch is offered only where the sheet lists no unarmed attack and a hand is empty.
"""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.gurps.sheet import validate_sheet

from .conftest import KNIGHT, Table

WOLF = {"st": 9, "dx": 12, "ht": 12, "weapons": [{"name": "bite", "skill": 13, "damage": "thr+1", "damage_type": "cut",
                                                 "reach": "C", "parry": None}]}
LIZARD = {"st": 11, "dx": 11, "ht": 11, "weapons": [{"name": "tail lash", "skill": 12, "damage": "sw", "unarmed": True}]}


def _weapons(sheet: dict[str, Any]) -> list[str]:
    return [w.name for w in validate_sheet(sheet).all_weapons()]


def _counter_offered(table: Table, attacker: str, sheet: dict[str, Any], weapon: str) -> bool:
    """``attacker`` hits the knight with ``weapon``; the knight parries with its broadsword and succeeds."""
    table.add(attacker, sheet, side="npc")
    table.add("knight", KNIGHT)
    table.send("start_combat", {"order": [attacker, "knight"]})
    table.maneuver(attacker, "attack", [[3, 4, 4]], target="knight", weapon=weapon)
    table.defend("parry", [[1, 3, 3]], weapon="broadsword")  # 7 vs Parry 9
    return any(p.options.get("purpose") == "counter" for p in table.state.prompts)


def test_g41_a_bite_is_unarmed_by_its_sheet_and_parrying_it_with_a_weapon_strikes_back(table: Table) -> None:
    """G-41: a bite (unarmed unless the sheet says otherwise) parried with a sword: the counter-blow roll."""
    assert _counter_offered(table, "wolf", WOLF, "bite")


def test_g41_any_weapon_marked_unarmed_earns_the_counter_blow(table: Table) -> None:
    """G-41: the property, not the name: a tail lash marked unarmed is parried like a punch."""
    assert _counter_offered(table, "lizard", LIZARD, "tail lash")


def test_g41_an_armed_attack_parried_earns_no_counter_blow(table: Table) -> None:
    """G-41: a club is not unarmed: a good parry just stops it."""
    brute = {"st": 12, "dx": 11, "weapons": [{"name": "club", "skill": 12, "damage": "sw"}]}
    assert not _counter_offered(table, "brute", brute, "club")


def test_g41_a_kick_marked_armed_is_not_unarmed() -> None:
    """The sheet's word wins over the name: a kick with unarmed false (a spiked boot) is a weapon."""
    sheet = validate_sheet({"weapons": [{"name": "kick", "damage": "thr+1", "unarmed": False}]})
    assert sheet.weapons[0].unarmed is False and validate_sheet({"weapons": [{"name": "Kick"}]}).weapons[0].unarmed


@pytest.mark.parametrize("sheet, offered", [
    ({}, True),  # both hands empty
    ({"weapons": [{"name": "axe", "damage": "sw+2", "damage_type": "cut"}]}, True),  # one hand free
    (KNIGHT, False),  # sword and shield
    ({"weapons": [{"name": "greatsword", "damage": "sw+3", "damage_type": "cut", "two_handed": True}]}, False),
    ({"weapons": [{"name": "sword", "damage": "sw+1"}, {"name": "main-gauche", "damage": "thr"}]}, False),
    ({"weapons": [{"name": "sword", "damage": "sw+1"},
                  {"name": "bow", "kind": "ranged", "damage": "thr+1", "max_range": 200, "parry": None}]}, True),
    (WOLF, False),  # the sheet's unarmed attack replaces the punch
])
def test_g41_the_implicit_punch_needs_an_empty_hand_and_no_unarmed_attack(sheet: dict[str, Any], offered: bool) -> None:
    """G-41: an unarmed parry needs an empty hand: the punch is there only with one, and only if none is listed."""
    assert ("punch" in _weapons(sheet)) is offered


def test_g41_no_punch_parry_is_offered_when_the_hands_are_full(duel: Table) -> None:
    """G-41: the knight's sword and shield leave no empty hand: its defences list no punch."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    assert list(duel.prompt("defend").options["parry"]) == ["broadsword"]
