"""Size and scale per combatant (catalogue 2.0, A-27): the sheet extension GULLIVER's
options read, its defaults (an ordinary human), its validation (``sheet/bad_field``
naming the field) and its JSON Schema with a title and help per field."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.errors import Rejected
from combat_server.rules.gurps.gulliver.size import (Scale, area_scale, base_hp, combat_st, combat_st_of, load_st,
                                                     load_st_of, mass_lb, scale_of, scale_schema, scale_to_json,
                                                     scaled_base_hp, toughness, validate_scale, volume_scale)


def refused(raw: dict[str, Any]) -> Rejected:
    with pytest.raises(Rejected) as err:
        validate_scale(raw)
    return err.value


def test_an_empty_block_is_an_ordinary_human() -> None:
    """Every field has a human-scaled default: LS 1, Size 0, the sheet's ST and HP, 150 lb, humanoid."""
    scale = validate_scale({})
    assert scale == Scale()
    assert (combat_st(scale, 12), load_st(scale, 12), base_hp(scale, 14), mass_lb(scale)) == (12, 12, 14, 150)
    assert scale.body == "humanoid"


@pytest.mark.parametrize("text,value", [("4", 4), ("0.5", Fraction(1, 2)), ("1/36", Fraction(1, 36)),
                                        (0.25, Fraction(1, 4))])
def test_linear_scale_accepts_numbers_decimals_and_fractions(text: str | float, value: Fraction) -> None:
    """The forms the schema's pattern allows: a number, a decimal or a fraction as text."""
    assert validate_scale({"linear_scale": text}).linear_scale == value


def test_scales_from_linear_scale() -> None:
    """2.0: a Giant (LS 4) has Area Scale 16, Volume Scale 64 and, untyped, 150 x 64 = 9600 lb."""
    giant = validate_scale({"linear_scale": 4})
    assert (area_scale(giant.linear_scale), volume_scale(giant.linear_scale), mass_lb(giant)) == (16, 64, 9600)


def test_linear_scale_as_a_fraction() -> None:
    """A 2-inch person is LS 1/36, kept exact; mass 150/46656 lb."""
    tiny = validate_scale({"linear_scale": "1/36"})
    assert tiny.linear_scale == Fraction(1, 36) and mass_lb(tiny) == Fraction(150, 36 ** 3)


def test_a27_base_hp_before_purchases_scaled_for_size() -> None:
    """A-27 / V-05: Grog, racial base 12 at LS 2 -> 24, whatever HP he bought (30)."""
    grog = validate_scale({"linear_scale": 2, "base_hp": int(scaled_base_hp(12, Fraction(2)))})
    assert base_hp(grog, 30) == 24


def test_v63_toughness_from_combat_st_plus_bought_levels() -> None:
    """V-63: Combat ST 16 -> floor(16/5) = 3; with 2 bought levels (V-65) 5."""
    assert toughness(validate_scale({"combat_st": 16}), st=10) == 3
    assert toughness(validate_scale({"combat_st": 16, "toughness_bonus": 2}), st=10) == 5


@pytest.mark.parametrize("raw,field", [
    ({"linear_scale": 0}, "gulliver.linear_scale"), ({"linear_scale": "big"}, "gulliver.linear_scale"),
    ({"linear_scale": True}, "gulliver.linear_scale"), ({"mass_lb": -5}, "gulliver.mass_lb"),
    ({"combat_st": 0}, "gulliver.combat_st"), ({"combat_st": 2.5}, "gulliver.combat_st"),
    ({"racial_iq": 41}, "gulliver.racial_iq"), ({"non_pc_race": "yes"}, "gulliver.non_pc_race"),
    ({"body": "octopus"}, "gulliver.body"), ({"wings": 2}, "gulliver.wings"),
    ({"linear_scale": float("nan")}, "gulliver.linear_scale"), ({"linear_scale": "1e3"}, "gulliver.linear_scale"),
    ({"base_hp": "-1/2"}, "gulliver.base_hp"), ({"mass_lb": 10 ** 13}, "gulliver.mass_lb"),
])
def test_bad_fields_are_refused_naming_them(raw: dict[str, Any], field: str) -> None:
    """Bad input gets sheet/bad_field naming the field, never an internal error."""
    err = refused(raw)
    assert err.code == "sheet/bad_field" and err.details["field"] == field and field in str(err)


def test_v04_split_hp_needs_both_halves_described() -> None:
    """V-04: the other half's HP without its locations (or the reverse) is refused."""
    assert refused({"other_half_hp": 12}).details["field"] == "gulliver.other_half_hp"
    assert refused({"other_half_locations": ["right arm"]}).details["field"] == "gulliver.other_half_hp"


def test_v04_split_hp_locations_must_be_on_the_body() -> None:
    """V-04: a humanoid has no foreleg; a quadruped does."""
    err = refused({"other_half_hp": 12, "other_half_locations": ["foreleg"]})
    assert err.details["field"] == "gulliver.other_half_locations" and "foreleg" in str(err)
    ok = validate_scale({"body": "quadruped", "other_half_hp": 12, "other_half_locations": ["foreleg"]})
    assert ok.other_half_locations == ("foreleg",)


def test_the_schema_titles_and_explains_every_field() -> None:
    """The sheet editor builds its form from the schema: each field has a title and help."""
    schema = scale_schema()
    props = schema["properties"]
    assert isinstance(props, dict) and schema["additionalProperties"] is False
    for key, prop in props.items():
        assert isinstance(prop, dict) and prop["title"] and prop["description"], key


def test_the_schema_states_the_bounds_validation_enforces() -> None:
    """Each integer bound the schema states is the one validate_scale refuses past."""
    props = scale_schema()["properties"]
    assert isinstance(props, dict)
    for key, prop in props.items():
        assert isinstance(prop, dict)
        if "exclusiveMinimum" in prop:  # the rational fields: above 0, up to the maximum
            top = prop["maximum"]
            assert isinstance(top, int)
            validate_scale({key: top})
            assert refused({key: top + 1}).details["field"] == f"gulliver.{key}"
            assert refused({key: 0}).details["field"] == f"gulliver.{key}"
            continue
        if prop.get("type") != "integer":
            continue
        lo, hi = prop["minimum"], prop["maximum"]
        assert isinstance(lo, int) and isinstance(hi, int)
        # split HP is only valid with the other half's locations (V-04)
        rest: dict[str, Any] = {"other_half_locations": ["right arm"]} if key == "other_half_hp" else {}
        validate_scale({key: lo, **rest})
        validate_scale({key: hi, **rest})
        assert refused({key: hi + 1, **rest}).details["field"] == f"gulliver.{key}"
        assert refused({key: lo - 1, **rest}).details["field"] == f"gulliver.{key}"


def test_the_stored_form_is_exact_and_reads_back_equal() -> None:
    """An empty block stores as {} (a sheet's bytes unchanged); rationals store as whole numbers or
    "p/q" text, never floats, and read back equal."""
    assert scale_to_json(Scale()) == {}
    scale = validate_scale({"linear_scale": 0.25, "mass_lb": "1.5", "base_hp": 24, "combat_st": 30,
                            "other_half_hp": 12, "other_half_locations": ["right arm"]})
    stored = scale_to_json(scale)
    assert stored == {"linear_scale": "1/4", "mass_lb": "3/2", "base_hp": 24, "combat_st": 30,
                      "other_half_hp": 12, "other_half_locations": ["right arm"]}
    assert validate_scale(stored) == scale


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=Fraction(1, 1000), max_value=100), st.integers(-30, 30),
       st.one_of(st.none(), st.integers(1, 500)), st.booleans(), st.sampled_from(("humanoid", "quadruped")))
def test_any_block_survives_storing(ls: Fraction, size: int, combat: int | None, monster: bool, body: str) -> None:
    """validate -> store -> validate gives the same Scale, whatever the (valid) numbers."""
    raw: dict[str, Any] = {"linear_scale": f"{ls.numerator}/{ls.denominator}", "size": size,
                           "non_pc_race": monster, "body": body}
    if combat is not None:
        raw["combat_st"] = combat
    scale = validate_scale(raw)
    assert validate_scale(scale_to_json(scale)) == scale


# --------------------------------------------------------------------------- the block on the gurps sheet


def test_the_gurps_sheet_schema_has_the_block_as_its_gulliver_object() -> None:
    """Item 2 of the wiring step: the sheet editor's schema carries the block (titled, every field
    explained), so the web and terminal editors offer it like any other sheet field."""
    from combat_server.rules.gurps.sheet_schema import sheet_schema

    block = sheet_schema()["properties"]["gulliver"]
    assert isinstance(block, dict) and block["title"] == "GULLIVER size and scale" and block["type"] == "object"
    assert block["properties"] == scale_schema()["properties"]


def test_a_sheet_stores_its_block_exactly_and_reads_it_back() -> None:
    """A-27: the sheet JSON keeps the block's rationals exact ("1/36", never a float); validating the
    stored sheet gives the same Scale."""
    from combat_server.rules.gurps.sheet import sheet_to_json, validate_sheet

    sheet = validate_sheet({"st": 12, "gulliver": {"linear_scale": 0.5, "combat_st": 20, "non_pc_race": True}})
    stored = sheet_to_json(sheet)
    assert stored["gulliver"] == {"linear_scale": "1/2", "combat_st": 20, "non_pc_race": True}
    assert validate_sheet(stored) == sheet
    assert scale_of(sheet).combat_st == 20 and combat_st_of(sheet) == 20 and load_st_of(sheet) == 12


def test_a_sheet_without_numbers_leaves_the_block_out() -> None:
    """Stored fights keep their bytes: an empty (or all-default) block is not in the sheet JSON."""
    from combat_server.rules.gurps.sheet import sheet_to_json, validate_sheet

    assert "gulliver" not in sheet_to_json(validate_sheet({"st": 11}))
    assert "gulliver" not in sheet_to_json(validate_sheet({"st": 11, "gulliver": {"linear_scale": 1, "size": 0}}))


@pytest.mark.parametrize("block,field", [
    ({"combat_st": 0}, "gulliver.combat_st"), ({"linear_scale": "1/0"}, "gulliver.linear_scale"),
    ({"body": "octopus"}, "gulliver.body"), ({"other_half_hp": 12}, "gulliver.other_half_hp"),
    ("giant", "gulliver"),
])
def test_a_bad_block_on_a_sheet_is_refused_naming_its_field(block: Any, field: str) -> None:
    """validate_sheet refuses a bad block value with sheet/bad_field naming gulliver.<field>."""
    from combat_server.rules.gurps.sheet import validate_sheet

    with pytest.raises(Rejected) as err:
        validate_sheet({"st": 10, "gulliver": block})
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == field
