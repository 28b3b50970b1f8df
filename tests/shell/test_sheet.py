"""The SHELL sheet: validation naming the field, and derived numbers (S-03, S-04,
S-07, S-17, S-26, S-47, S-48) computed, never typed in."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from combat_server.errors import Rejected
from combat_server.rules.shell.schema import SHEET_SCHEMA
from combat_server.rules.shell.sheet import (
    Sheet, derive, max_range, st_shortfall, validate_sheet, weapon_damage,
)
from tests.shell.conftest import fighter_json


def test_e13_secondary_attributes_s04_a59() -> None:
    """E-13: ST 12, AG 13, IQ 10 -> HP 12, END 12, WP 10, CHA 11, PER 10, MV floor(25/4) = 6, max Enc 260."""
    d = derive(validate_sheet({"st": 12, "ag": 13, "iq": 10, "ht": 10}))
    assert (d.hp, d.end, d.wp, d.cha, d.per, d.mv, d.max_enc) == (12, 12, 10, 11, 10, 6, 260)


def test_s04_bought_points_change_the_derived_values() -> None:
    """S-04: bought points add to the base (HP = ST + bought), they do not replace it."""
    d = derive(validate_sheet({"st": 12, "hp_bonus": 3, "wp_bonus": -1, "mv_bonus": 2}))
    assert (d.hp, d.wp, d.mv) == (15, 9, 7)


def test_e13_encumbrance_initiative_and_mv_points(fighter: Sheet) -> None:
    """E-13 / S-07 / S-17: 70 lb of 260 (26.9%) is EL 2; initiative 13 - 4 = 9; MV points 6 - 2 = 4."""
    d = derive(fighter)
    assert d.carried == 70
    assert (d.el, d.initiative, d.mv_points) == (2, 9, 4)


def test_s07_overweight_body_counts_as_load() -> None:
    """S-07: body weight over 75% of max Enc (ST 10: 150 lb) is carried; 170 lb -> 20 lb -> EL 0."""
    sheet = validate_sheet({"body_weight": 170, "gear_weight": 1})
    assert derive(sheet).carried == 21
    assert derive(sheet).el == 1


def test_a61_overloaded_sheet_is_refused_by_default() -> None:
    """A-61 (default "reject"): more than max Enc is refused with a clear error."""
    with pytest.raises(Rejected) as err:
        validate_sheet({"gear_weight": 201})
    assert err.value.code == "sheet/overloaded"
    assert "201" in str(err.value) and "200" in str(err.value)


def test_a61_overloaded_sheet_is_immobile_under_the_option() -> None:
    """A-61 ("immobile"): the overloaded character has EL 4 and no MV points."""
    d = derive(validate_sheet({"gear_weight": 201}, overload="immobile"))
    assert (d.overloaded, d.el, d.mv_points) == (True, 4, 0)


def test_a58_st_off_the_chart_needs_max_enc() -> None:
    """A-58: max Enc beyond ST 7-20 is GM data; without it the sheet says which field is missing."""
    with pytest.raises(Rejected) as err:
        validate_sheet({"st": 22})
    assert err.value.details["field"] == "max_enc"
    assert derive(validate_sheet({"st": 22, "max_enc": 1000})).max_enc == 1000


@pytest.mark.parametrize("raw,field", [
    ({"st": "12"}, "st"),
    ({"ag": 0}, "ag"),
    ({"colour": "red"}, "colour"),
    ({"styles": [{"name": "Sword", "level": -1}]}, "styles[0].level"),
    ({"styles": [{"name": "Sword"}], "weapons": [{"name": "axe", "style": "Axe"}]}, "weapons[0].style"),
    ({"styles": [{"name": "Sword"}], "weapons": [{"name": "axe", "style": "Sword", "damage_types": ["pierce"]}]},
     "weapons[0].damage_types"),
    ({"styles": [{"name": "Bow", "kind": "ranged"}], "weapons": [{"name": "bow", "style": "Bow", "ranged": True}]},
     "weapons[0].range_yards"),
    ({"shield": {"size": "huge"}}, "shield.size"),
    ({"shield": {"size": "buckler"}}, "shield.hp"),
    ({"armour": [{"dr": 2, "locations": ["tail"]}]}, "armour[0].locations"),
    ({"armour": [{"material": "chain", "locations": ["torso"]}, {"dr": 2, "locations": ["torso"]}]},
     "armour[1].locations"),
    ({"mv_bonus": 3}, "mv_bonus"),
    ({"arts": [{"name": "Fire", "spells": [{"name": "Bolt"}]}]}, "arts[0].spells[0].min_level"),
])
def test_bad_sheet_fields_are_named(raw: dict[str, Any], field: str) -> None:
    """A wrong sheet is refused as sheet/bad_field, naming the exact field path."""
    with pytest.raises(Rejected) as err:
        validate_sheet(raw)
    assert err.value.code == "sheet/bad_field"
    assert err.value.details["field"] == field
    assert field in str(err.value)


def test_s04_npc_may_buy_more_than_two_mv() -> None:
    """S-04: the +2 MV limit is for PCs only."""
    assert derive(validate_sheet({"npc": True, "mv_bonus": 4})).mv == 9


def test_s47_defaults_from_shield_size_and_armour_material(fighter: Sheet) -> None:
    """S-47: a medium shield is PR 2 with 13 HP; chain is DR 4 on the locations it covers."""
    d = derive(fighter)
    assert fighter.shield is not None and (fighter.shield.pr, fighter.shield.hp) == (2, 13)
    assert d.shield_pr == 2
    assert dict(d.armour_dr) == {"torso": 4, "arm": 4, "leg": 4}


def test_s03_s11_weapon_damage_adds_st_damage_weapon_and_style_bonus() -> None:
    """S-32 / S-11 (E-10): ST 14 (2d), long sword +0, style level 4 (+1) -> 2d+1."""
    sheet = validate_sheet(fighter_json(st=14, styles=[{"name": "Swordsmanship", "level": 4}]))
    assert str(weapon_damage(sheet, sheet.weapon("long sword"))) == "2d+1"


def test_r20_ranged_style_adds_no_damage_bonus() -> None:
    """R-20: a level-7 bow skill adds nothing to the bow's damage."""
    sheet = validate_sheet({"styles": [{"name": "Bow", "level": 7, "kind": "ranged"}],
                            "weapons": [{"name": "bow", "style": "Bow", "ranged": True, "range_st": 15,
                                         "speed": 2, "damage_types": ["imp"]}]})
    assert str(weapon_damage(sheet, sheet.weapon("bow"))) == "1d"


def test_s48_damage_capped_at_min_st_plus_five() -> None:
    """S-48: ST 18 with a min-ST-10 sword deals damage as ST 15 (2d+1), not 3d."""
    sheet = validate_sheet(fighter_json(st=18, styles=[{"name": "Swordsmanship", "level": 1}]))
    assert str(weapon_damage(sheet, sheet.weapon("long sword"))) == "2d+1"


def test_s48_st_under_the_minimum_is_minus_one_per_point() -> None:
    """S-48: ST 8 with a min-ST-10 weapon is -2 to skill; two-handed (min 8) it is 0."""
    sheet = validate_sheet(fighter_json(st=8))
    sword = sheet.weapon("long sword")
    assert st_shortfall(sheet, sword) == -2
    assert st_shortfall(sheet, sword, two_handed=True) == 0


def test_s48_two_handed_use_adds_one_damage() -> None:
    """S-48: an either-handed weapon used two-handed does +1 damage (ST 12, style 3: 1d+2 -> 1d+3)."""
    sheet = validate_sheet(fighter_json())
    sword = sheet.weapon("long sword")
    assert (str(weapon_damage(sheet, sword)), str(weapon_damage(sheet, sword, two_handed=True))) == ("1d+2", "1d+3")


def test_s27_low_tech_range_is_a_multiple_of_st() -> None:
    """S-27: a range of ST x 2.5 at ST 12 is 30 yards."""
    sheet = validate_sheet({"st": 12, "styles": [{"name": "Throwing", "kind": "ranged"}],
                            "weapons": [{"name": "javelin", "style": "Throwing", "ranged": True, "range_st": 2.5}]})
    assert max_range(sheet, sheet.weapon("javelin")) == 30


def test_s26_dodge_def_uses_the_best_style(fighter: Sheet) -> None:
    """S-26: dodge = best style (Brawling 5, not the sword's 3) + AG 13 DEF (+2) - (1 + EL 2) = 4."""
    assert derive(fighter).dodge_def == 4


def test_schema_is_valid_and_accepts_a_typed_sheet() -> None:
    """The declared JSON Schema is itself valid and accepts a sheet validate_sheet accepts."""
    jsonschema.Draft202012Validator.check_schema(SHEET_SCHEMA)
    jsonschema.Draft202012Validator(SHEET_SCHEMA).validate(fighter_json())


def test_schema_names_every_sheet_field_with_a_title() -> None:
    """Every field validate_sheet reads is in the schema, with a title and help for the form."""
    props = SHEET_SCHEMA["properties"]
    assert isinstance(props, dict)
    import attrs
    assert set(props) == {f.name for f in attrs.fields(Sheet)}
    assert all(isinstance(p, dict) and p.get("title") for p in props.values())


def test_schema_refuses_what_validation_refuses() -> None:
    """An unknown field and an out-of-range attribute fail the schema too."""
    v = jsonschema.Draft202012Validator(SHEET_SCHEMA)
    assert not v.is_valid({"colour": "red"})
    assert not v.is_valid({"ag": 0})


def test_s32_bare_hand_is_minus_four_crushing() -> None:
    """S-32: bare hands are -4 cr: ST 10 with Brawling 1 -> 1d-4; Brawling 4 adds +1 (S-11) -> 1d-3."""
    from combat_server.rules.shell.sheet import bare_hand
    low = validate_sheet({"styles": [{"name": "Brawling", "level": 1}]})
    high = validate_sheet({"styles": [{"name": "Brawling", "level": 4}]})
    fist = bare_hand("Brawling")
    assert fist.damage_types == ("cr",) and fist.thrusting and fist.close_combat
    assert (str(weapon_damage(low, fist)), str(weapon_damage(high, fist))) == ("1d-4", "1d-3")
