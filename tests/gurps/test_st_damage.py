"""#14 item 4: ST-based damage on the sheet, and All-Out Attack (Strong) without a hidden flag (G-22)."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps import derived
from combat_server.rules.gurps.sheet import validate_sheet

from .conftest import Table

#: A force sword: fixed 3d+2 burn, not from ST.
FORCE_SWORD = {"st": 10, "dx": 13, "weapons": [{"name": "force sword", "skill": 14, "damage": "3d+2",
                                                "damage_type": "burn"}]}


@pytest.mark.parametrize("st, damage, expected", [
    (13, "sw+2", (2, 1)),  # swing at ST 13 is 2d-1: +2 -> 2d+1
    (13, "thr+1", (1, 1)),  # thrust at ST 13 is 1d: +1
    (10, "thr-1", (1, -3)),  # thrust at ST 10 is 1d-2
    (10, "3d+2", (3, 2)),  # fixed dice stay as written
])
def test_weapon_damage_is_computed_from_st_with_the_damage_table(st: int, damage: str, expected: tuple[int, int]) -> None:
    """The catalogue's thrust/swing table (anchor: ST 10 -> thr 1d-2, sw 1d) plus the weapon's adds."""
    sheet = validate_sheet({"st": st, "weapons": [{"name": "w", "damage": damage}]})
    assert derived.weapon_damage(sheet, sheet.weapons[0]) == expected


def test_thr_and_sw_damage_is_st_based_without_a_flag() -> None:
    """G-22: written as thr/sw the weapon is ST-based; fixed dice are not (unless the sheet says so)."""
    sheet = validate_sheet({"weapons": [{"name": "a", "damage": "sw+1"}, {"name": "b", "damage": "2d"}]})
    assert [w.st_based for w in sheet.weapons] == [True, False]


def test_g22_strong_adds_to_a_swing_weapon_written_as_sw(duel: Table) -> None:
    """G-22: the orc's axe (sw+2 at ST 13 = 2d+1) with Strong: +2 (better than +1 per die for 2 dice)."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "all_out_attack", [[3, 4, 4]], option="strong", target="knight")
    duel.defend("none")
    duel.roll([3, 3], "damage")
    dmg = duel.last("damage_rolled").payload
    assert dmg["basic"] == 3 + 3 + 1 + 2
    assert [m["rule"] for m in dmg["modifiers"]] == ["G-22"]


def test_g22_strong_with_fixed_damage_is_refused_not_silently_nothing(table: Table) -> None:
    """G-22: Strong applies only to ST-based thrust or swing damage: with a force sword it is refused,
    naming the option and the rule, and nothing is appended."""
    table.add("jedi", FORCE_SWORD)
    table.add("orc", {"weapons": [{"name": "axe", "damage": "sw+2"}]}, side="npc")
    table.send("start_combat", {"order": ["jedi", "orc"]})
    before = len(table.engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.maneuver("jedi", "all_out_attack", [[3, 4, 4]], option="strong", target="orc", weapon="force sword")
    assert err.value.code == "maneuver/bad_option" and "G-22" in err.value.message
    assert err.value.details["field"] == "option"
    assert len(table.engine.store.events(table.fight_id)) == before


def test_g22_strong_is_not_offered_for_a_fixed_damage_weapon() -> None:
    """G-22: the All-Out Attack options a weapon allows (what describe offers) leave Strong out for fixed damage."""
    from combat_server.rules.gurps.maneuvers import aoa_options

    sheet = validate_sheet(FORCE_SWORD)
    assert "strong" not in aoa_options(sheet.weapons[0])
    assert "strong" in aoa_options(validate_sheet({"weapons": [{"name": "mace", "damage": "sw+2"}]}).weapons[0])
