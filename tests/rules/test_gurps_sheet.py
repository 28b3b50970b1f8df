"""The GURPS character sheet (sheet.py): defaults from catalogue 1.0 and refusal
of impossible values with code ``sheet/bad_field`` naming the field."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.sheet import Sheet, validate_sheet
from tests.rules.gurps_helpers import Fight

NewFight = Callable[..., Fight]

BOW = {"name": "bow", "kind": "ranged", "skill": 12, "acc": 2, "max_range": 150, "bulk": -7, "parry": None}


# --------------------------------------------------------------------------- defaults


def test_empty_sheet_is_an_average_human() -> None:
    """Catalogue 1.0: an empty sheet is ST, DX, IQ, HT 10 with no weapons listed."""
    sheet = validate_sheet({})
    assert (sheet.st, sheet.dx, sheet.iq, sheet.ht, sheet.weapons) == (10, 10, 10, 10, ())


def test_hp_defaults_to_st() -> None:
    """Catalogue 1.0: HPmax defaults to ST."""
    assert validate_sheet({"st": 13}).hp_max == 13


def test_fp_defaults_to_ht() -> None:
    """Catalogue 1.0: FPmax defaults to HT."""
    assert validate_sheet({"ht": 12}).fp_max == 12


def test_will_and_per_default_to_iq() -> None:
    """Catalogue 1.0: Will and Per default to IQ."""
    sheet = validate_sheet({"iq": 13})
    assert (sheet.will_score, sheet.per_score) == (13, 13)


def test_typed_hp_fp_will_per_override_the_defaults() -> None:
    """Catalogue 1.0: HP, FP, Will and Per typed on the sheet replace the defaults."""
    sheet = validate_sheet({"st": 10, "ht": 10, "iq": 10, "hp": 15, "fp": 12, "will": 14, "per": 11})
    assert (sheet.hp_max, sheet.fp_max, sheet.will_score, sheet.per_score) == (15, 12, 14, 11)


def test_new_combatant_starts_at_full_hp_and_fp(new_fight: NewFight) -> None:
    """G-51: a combatant enters the fight at HP = HPmax and FP = FPmax."""
    f = new_fight({"a": {"st": 12, "ht": 11}, "b": {"hp": 15, "fp": 9}})
    assert (f.cond("a").hp, f.cond("a").fp) == (12, 11)
    assert (f.cond("b").hp, f.cond("b").fp) == (15, 9)


def test_unarmed_punch_is_always_available() -> None:
    """An unlisted punch is thr-1 crushing, reach C, at DX (or the unarmed skill)."""
    punch = validate_sheet({"dx": 12}).weapon("punch")
    assert (punch.skill, punch.damage, punch.damage_type, punch.reach) == (12, "thr-1", "cr", "C")
    assert validate_sheet({"dx": 12, "unarmed_skill": 14}).weapon("punch").skill == 14


def test_weapon_defaults() -> None:
    """A weapon given only a name is a melee, thrust crushing weapon that can parry."""
    w = validate_sheet({"weapons": [{"name": "stick"}]}).weapons[0]
    assert (w.kind, w.damage, w.damage_type, w.parry) == ("melee", "thr", "cr", 0)


def test_ranged_weapon_with_max_range_is_accepted() -> None:
    """G-35: a ranged weapon with its Max range, Acc and Bulk is a valid sheet entry."""
    w = validate_sheet({"weapons": [BOW]}).weapons[0]
    assert (w.kind, w.max_range, w.acc, w.bulk, w.parry) == ("ranged", 150, 2, -7, None)


def test_sheet_is_the_sheet_type() -> None:
    """validate_sheet returns a frozen Sheet."""
    assert isinstance(validate_sheet({}), Sheet)


# --------------------------------------------------------------------------- refusals

BAD_SHEETS = [
    pytest.param({"hp": -1}, "hp", id="negative-hp"),
    pytest.param({"hp": 0}, "hp", id="zero-hp"),
    pytest.param({"st": 10.5}, "st", id="fractional-st"),
    pytest.param({"st": "12"}, "st", id="text-st"),
    pytest.param({"st": True}, "st", id="boolean-st"),
    pytest.param({"st": 0}, "st", id="zero-st"),
    pytest.param({"dx": 41}, "dx", id="dx-over-40"),
    pytest.param({"fp": -3}, "fp", id="negative-fp"),
    pytest.param({"dr": -1}, "dr", id="negative-dr"),
    pytest.param({"encumbrance": 5}, "encumbrance", id="encumbrance-5"),
    pytest.param({"carried": -10}, "carried", id="negative-carried"),
    pytest.param({"strength": 12}, "strength", id="unknown-field"),
    pytest.param({"skills": {"Broadsword": 50}}, "skills", id="skill-over-40"),
    pytest.param({"weapons": {"name": "sword"}}, "weapons", id="weapons-not-a-list"),
    pytest.param({"weapons": [{"name": "axe", "damage_type": "laser"}]}, "weapons[0].damage_type",
                 id="unknown-damage-type"),
    pytest.param({"weapons": [{"name": "bow", "kind": "ranged", "skill": 12}]}, "weapons[0].max_range",
                 id="ranged-without-max-range"),
    pytest.param({"weapons": [{"name": "sword", "sharpness": 3}]}, "weapons[0].sharpness", id="unknown-weapon-field"),
    pytest.param({"weapons": [{"skill": 12}]}, "weapons[0].name", id="weapon-without-name"),
    pytest.param({"weapons": [{"name": "sword", "damage": "sw+x"}]}, "weapons[0].damage", id="unreadable-damage"),
    pytest.param({"weapons": [{"name": "sword", "kind": "magic"}]}, "weapons[0].kind", id="unknown-weapon-kind"),
    pytest.param({"weapons": [{"name": "sword", "skill": 12.5}]}, "weapons[0].skill", id="fractional-skill"),
    pytest.param({"weapons": [{"name": "sword", "weight": -1}]}, "weapons[0].weight", id="negative-weight"),
    pytest.param({"weapons": [{"name": "a"}, {"name": "sword"}, {"name": "sword"}]}, "weapons",
                 id="duplicate-weapon-names"),
    pytest.param({"weapons": [{"name": "a"}, {"name": "b", "damage_type": "zap"}]}, "weapons[1].damage_type",
                 id="second-weapon-indexed"),
]


@pytest.mark.parametrize(("raw", "field"), BAD_SHEETS)
def test_impossible_sheet_is_refused_naming_the_field(raw: dict[str, Any], field: str) -> None:
    """A sheet with an impossible value is refused with sheet/bad_field, naming the offending field."""
    with pytest.raises(Rejected) as exc:
        validate_sheet(raw)
    assert exc.value.code == "sheet/bad_field"
    assert exc.value.details["field"] == field


def test_engine_refuses_a_combatant_with_a_bad_sheet(new_fight: NewFight) -> None:
    """Adding a combatant whose sheet is impossible is refused and nothing is added."""
    f = new_fight({"a": {}, "b": {}})
    with pytest.raises(Rejected) as exc:
        f.run("add_combatant", {"name": "Ghost", "id": "g", "side": "npc", "sheet": {"hp": -5}})
    assert (exc.value.code, exc.value.details["field"]) == ("sheet/bad_field", "hp")
    assert "g" not in f.engine.load(f.fid).combatants
