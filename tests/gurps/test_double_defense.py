"""#14 item 7: All-Out Defense (Double Defense): a parry with the other hand after a failed parry
is a different defence (G-24); the same weapon, or a two-handed one, gives none."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected

from .conftest import ORC, Table

#: Rapier in one hand, main-gauche in the other.
DUELLIST = {"st": 10, "dx": 14, "ht": 10, "weapons": [
    {"name": "rapier", "skill": 15, "damage": "thr+1", "damage_type": "imp"},
    {"name": "main-gauche", "skill": 13, "damage": "thr", "damage_type": "imp", "reach": "C"}]}


def _double_defends(table: Table, sheet: dict[str, Any]) -> Table:
    table.add("duellist", sheet)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["duellist", "orc"]})
    table.maneuver("duellist", "all_out_defense", option="double")
    table.maneuver("orc", "attack", [[3, 4, 5]], target="duellist")
    return table


def test_g24_a_parry_with_the_other_hand_after_a_failed_parry_is_a_different_defence(table: Table) -> None:
    """G-24: the rapier's parry fails; the second prompt offers the main-gauche (other hand), not the rapier."""
    t = _double_defends(table, DUELLIST)
    t.defend("parry", [[6, 6, 6]], weapon="rapier")
    again = t.prompt("defend")
    assert list(again.options["parry"]) == ["main-gauche"]
    assert again.options["dodge"] is not None
    t.defend("parry", [[1, 2, 3]], weapon="main-gauche")  # 6 vs 3 + 13/2 = 9
    assert t.last("defense_rolled").payload["success"] is True
    assert not [p for p in t.state.prompts if p.kind in ("defend",)]


def test_g24_the_same_weapon_cannot_parry_twice(table: Table) -> None:
    """G-24: a second try with the rapier is refused as not available."""
    t = _double_defends(table, DUELLIST)
    t.defend("parry", [[6, 6, 6]], weapon="rapier")
    with pytest.raises(Rejected) as err:
        t.defend("parry", [[1, 1, 1]], weapon="rapier")
    assert err.value.code == "defense/not_allowed"


def test_g24_a_two_handed_weapon_leaves_no_other_hand_to_parry_with(table: Table) -> None:
    """G-24: after a failed parry with a two-handed greatsword there is no other hand: only Dodge is left."""
    sheet = {"st": 13, "dx": 12, "weapons": [{"name": "greatsword", "skill": 14, "damage": "sw+3",
                                              "damage_type": "cut", "two_handed": True},
                                             {"name": "dagger", "skill": 12, "damage": "thr", "reach": "C"}]}
    t = _double_defends(table, sheet)
    t.defend("parry", [[6, 6, 6]], weapon="greatsword")
    again = t.prompt("defend")
    assert again.options["parry"] == {} and again.options["dodge"] is not None


def test_g24_the_tried_parry_is_recorded_with_its_weapon(table: Table) -> None:
    """The defence event says which weapon parried (tried_as), so a refold knows the hand."""
    t = _double_defends(table, DUELLIST)
    t.defend("parry", [[6, 6, 6]], weapon="rapier")
    assert t.last("defense_rolled").payload["tried_as"] == "parry:rapier"
    assert t.refold_matches()
