"""GULLIVER falling as GM tools (V-36 … V-41, E-17): the arithmetic, worked by hand from the seed.

A human is 150 lb with HP 10 (E-17); square roots to four significant digits (√2 = 1.414).
"""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.tools import falling
from combat_server.rules.gurps.tools.collisions import ScaledHarm
from combat_server.rules.gurps.tools.falling import FALL_TABLE, FALLING, FALLING_OBJECT, TERMINAL_VELOCITY, TRIP
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm
from combat_server.rules.model import JSON

HUMAN: dict[str, JSON] = {"mass": 150, "hp_max": 10}


def run(spec: CalculatorSpec, **inputs: JSON) -> Calculation:
    return spec.calculate(inputs)


def fall(**inputs: JSON) -> Calculation:
    return FALLING.calculate({**HUMAN, **inputs})


def value(calc: Calculation, key: str) -> Fraction:
    return Fraction(str(calc.result[key]))


def scaled(dice: int, scale: Fraction, minus: Fraction, adds: int = 0, kind: str = "cr",
           rule: str = "V-40") -> ScaledHarm:
    return ScaledHarm(dice=dice, adds=adds, kind=kind, rule=rule, multiplier=scale, minus=minus)


# --- E-17 -------------------------------------------------------------------------------------


def test_e17_ten_yards_onto_concrete_is_6d_minus_5() -> None:
    """E-17: 10 yd -> 15 yd/s = 30 mph after 1.5 s -> 3d; × √(150/150) = 1; concrete × 2 = 6d;
    - ½ HP = 5: average 21 - 5 = 16, least 2 × 3 - 5 = 1, most 2 × 18 - 5 = 31."""
    calc = fall(height=10, surface="concrete")
    assert value(calc, "mph") == 30
    assert calc.harm == scaled(3, Fraction(2), Fraction(5))
    assert (value(calc, "average"), calc.result["least"], calc.result["most"]) == (Fraction(16), 1, 31)


def test_e17_acrobatics_takes_20_mph_off() -> None:
    """E-17: 30 - 20 = 10 mph -> 1d × 2 = 2d - 5: average 7 - 5 = 2, least 0."""
    calc = fall(height=10, surface="concrete", skill="acrobatics")
    assert value(calc, "mph") == 10
    assert calc.harm == scaled(1, Fraction(2), Fraction(5))
    assert (value(calc, "average"), calc.result["least"]) == (Fraction(2), 0)
    harm = calc.harm
    assert isinstance(harm, ScaledHarm)
    assert harm.total((1,)) == 0  # 1 × 2 - 5 is below 0: no injury


def test_e17_spiky_rocks_subtract_a_quarter_hp_and_floor_at_the_end() -> None:
    """E-17: localised, ¼ HP = 2.5: 6d - 2.5 -> average 18.5, floored 18 (R-01)."""
    calc = fall(height=10, surface="rock", landing="localised")
    assert value(calc, "average") == Fraction(37, 2)
    assert math.floor(value(calc, "average")) == 18
    harm = calc.harm
    assert isinstance(harm, ScaledHarm)
    assert harm.total((3, 3, 4)) == 17  # 10 × 2 - 2.5 = 17.5 -> 17


def test_e17_mud_multiplies_by_two_thirds() -> None:
    """E-17: 3d × ⅔ = 2d - 5 -> average 7 - 5 = 2."""
    calc = fall(height=10, surface="mud")
    assert calc.harm == scaled(3, Fraction(2, 3), Fraction(5))
    assert value(calc, "average") == 2


def test_e17_a_300_lb_person_multiplies_by_root_2() -> None:
    """E-17: × √(300/150) × 2 = × 2.828 on 3d -> average 10.5 × 2.828 = 29.7, minus ½ HP."""
    calc = fall(height=10, surface="concrete", mass=300, hp_max=20)
    assert calc.harm == scaled(3, Fraction("2.828"), Fraction(10))
    assert round(float(value(calc, "average") + 10), 1) == 29.7


def test_e17_two_g_for_one_and_a_half_seconds_is_6d() -> None:
    """E-17 / V-37: 15 yd/s × 2 g = 30 yd/s = 60 mph -> 6d; on soft soil (× 1), 6d - 5."""
    calc = fall(time=1.5, gravity=2, surface="soft_soil")
    assert value(calc, "mph") == 60
    assert calc.harm == Harm(dice=6, adds=-5, kind="cr", rule="V-40")


def test_e17_a_long_limp_fall_reaches_125_mph() -> None:
    """E-17 / V-38: tv 100 × 1.25 = 125 mph -> 12.5d = 12d+2 (A-45) -> × 2 - 5: average 44 × 2 - 5 = 83."""
    calc = fall(height=1000, surface="concrete", pose="limp")
    assert (value(calc, "tv"), value(calc, "mph")) == (Fraction(125), Fraction(125))
    assert calc.harm == scaled(12, Fraction(2), Fraction(5), adds=2)
    assert value(calc, "average") == 83


# --- V-36 -------------------------------------------------------------------------------------


def test_v36_the_table_row_for_ten_yards() -> None:
    """V-36: 10 yd: 15 yd/s, 30 mph, 1.5 s, 3d."""
    calc = run(FALL_TABLE, height=10)
    assert calc.result == {"yards": 10, "yards_per_second": 15, "mph": 30, "seconds": "3/2", "damage": "3d"}


def test_a45_a_height_between_rows_takes_the_next_row() -> None:
    """A-45: 11 yd lies between the 10 and 15 yd rows: the 15 yd row, 35 mph, 3d+2."""
    assert run(FALL_TABLE, height=11).result["damage"] == "3d+2"
    assert run(FALL_TABLE, height=11).result["mph"] == 35


def test_v36_slow_impacts_keep_the_tables_small_forms() -> None:
    """V-36: 1 mph is 1d/10, 6 mph 1d-1, 12 mph 1d+1."""
    assert [run(FALL_TABLE, speed=s).result["damage"] for s in (1, 6, 12)] == ["1d/10", "1d-1", "1d+1"]


def test_v36_a_speed_above_the_table_is_refused() -> None:
    with pytest.raises(Rejected) as info:
        run(FALL_TABLE, speed=151)
    assert (info.value.code, info.value.details["field"]) == ("tool/bad_input", "speed")


def test_v36_a_height_above_the_table_is_refused() -> None:
    with pytest.raises(Rejected) as info:
        run(FALL_TABLE, height=281)
    assert (info.value.code, info.value.details["field"]) == ("tool/bad_input", "height")


# --- V-37 -------------------------------------------------------------------------------------


def test_v37_gravity_over_a_distance_uses_the_formula() -> None:
    """V-37, V-41: 10 yd at 2 g: v = √(2 × 20 × 10) = 20 yd/s = 40 mph -> 4d; soft soil, 4d - 5."""
    calc = fall(height=10, gravity=2, surface="soft_soil")
    assert value(calc, "mph") == 40
    assert calc.harm == Harm(dice=4, adds=-5, kind="cr", rule="V-40")


def test_v37_breakfall_skill_takes_20_plus_twice_the_margin() -> None:
    """V-37: 30 yd -> 50 mph; Breakfall made by 3: -(20 + 6) = 24 mph -> 2.4d, rolled 3d × 4/5 (R-03);
    soft soil - 5: average 10.5 × 0.8 - 5 = 3.4."""
    calc = fall(height=30, surface="soft_soil", skill="breakfall", breakfall_margin=3)
    assert value(calc, "mph") == 24
    assert calc.harm == scaled(3, Fraction(4, 5), Fraction(5))
    assert value(calc, "average") == Fraction(17, 5)


def test_v37_a_dx_roll_and_leg_power_both_take_speed_off() -> None:
    """V-37: 30 mph - 10 (DX roll) - 3 yd/s × 2 (leg power) = 14 mph -> 1.4d, rolled 2d × 7/10;
    HP 4, - 2: average 7 × 0.7 - 2 = 2.9."""
    calc = fall(height=10, surface="soft_soil", skill="dx_roll", leg_power=3, hp_max=4)
    assert value(calc, "mph") == 14
    assert calc.harm == scaled(2, Fraction(7, 10), Fraction(2))


# --- V-38 -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("inputs", "mph"), [
    ({}, 100),
    ({"linear_scale": 4}, 200),
    ({"pose": "diving"}, 150),
    ({"air_density": 4}, 50),
    ({"linear_scale": 2}, Fraction("141.4")),
])
def test_v38_terminal_velocity(inputs: dict[str, JSON], mph: Fraction) -> None:
    """V-38: 100 mph × √LS × √g / √density, × 1.5 diving: LS 4 -> 200, thin-air 4 -> 50, LS 2 -> 141.4."""
    assert value(run(TERMINAL_VELOCITY, **inputs), "mph") == mph


def test_v38_a_long_spread_eagle_fall_is_capped_at_100_mph() -> None:
    """V-38: 1000 yd would be 283 mph, capped at tv 100 mph -> 10d (V-36 row); soft soil, 10d - 5."""
    calc = fall(height=1000, surface="soft_soil")
    assert value(calc, "mph") == 100
    assert calc.harm == Harm(dice=10, adds=-5, kind="cr", rule="V-40")


# --- V-39 -------------------------------------------------------------------------------------


def test_v39_a_human_trips_from_two_yards() -> None:
    """V-39: a 2-yd human: the 2 yd row, 12 mph, 1d+1; soft soil: 1d+1 - 5 = 1d-4."""
    calc = run(TRIP, surface="soft_soil", **HUMAN)
    assert calc.harm == Harm(dice=1, adds=-4, kind="cr", rule="V-39")


def test_v39_a_successful_balance_roll_halves_the_height() -> None:
    """V-39: 2 × ½ = 1 yd: 9 mph, 1d; 1d - 5."""
    calc = run(TRIP, surface="soft_soil", balance_roll="succeeded", **HUMAN)
    assert value(calc, "height") == 1
    assert calc.harm == Harm(dice=1, adds=-5, kind="cr", rule="V-39")


def test_v39_posture_and_stance_multipliers_stack() -> None:
    """V-39: horizontal × ½ and very low × ½: 2 × ¼ = 0.5 yd: 6 mph, 1d-1; - 5 -> 1d-6."""
    calc = run(TRIP, surface="soft_soil", posture="horizontal", stance="very_low", **HUMAN)
    assert value(calc, "height") == Fraction(1, 2)
    assert calc.harm == Harm(dice=1, adds=-6, kind="cr", rule="V-39")


def test_v39_a_critical_failure_is_a_localised_impact_on_a_hit_location() -> None:
    """V-39: ¼ HP = 2.5 instead of 5: 1d+1 - 2.5 -> 1d-2 for every whole roll."""
    calc = run(TRIP, surface="soft_soil", balance_roll="critical_failure", **HUMAN)
    assert calc.result["hit_location"] is True
    assert calc.harm == Harm(dice=1, adds=-2, kind="cr", rule="V-39")


# --- V-40 -------------------------------------------------------------------------------------


def test_v40_a_belly_flop_into_water_halves() -> None:
    """V-40: 10 yd, 3d × ½ - 5: average 5.25 - 5 = 0.25."""
    calc = fall(height=10, surface="water")
    assert calc.harm == scaled(3, Fraction(1, 2), Fraction(5))
    assert value(calc, "average") == Fraction(1, 4)


def test_v40_a_proper_dive_is_a_fifth_but_at_diving_terminal_velocity() -> None:
    """V-40: a dive from 1000 yd: diving tv 150 mph -> 15d × ⅕ - 5: average 10.5 - 5 = 5.5."""
    calc = fall(height=1000, surface="water_dive")
    assert value(calc, "mph") == 150
    assert calc.harm == scaled(15, Fraction(1, 5), Fraction(5))


def test_v40_a_sharp_pole_top_impales_with_nothing_absorbed() -> None:
    """V-40: 5 yd -> 20 mph -> 2d, sharp point × 2, very localised: 2d × 2 impaling."""
    calc = fall(height=5, surface="sharp_point", landing="very_localised")
    assert calc.harm == scaled(2, Fraction(2), Fraction(0), kind="imp")


# --- V-41 -------------------------------------------------------------------------------------


def test_v41_a_falling_safe_crunches_the_one_beneath() -> None:
    """V-41, V-34: a 100-lb metal safe falls 10 yd (30 mph) onto HP 10: 3 × √(100/150) = √6 = 2.449d,
    × 2 = 4.898d, rolled 3d × 4.898/3; ¼ HP = 2.5: average 10.5 × 4.898 / 3 - 2.5 = 14.643."""
    calc = run(FALLING_OBJECT, height=10, mass=100, material="metal", hp_max=10)
    assert calc.harm == scaled(3, Fraction("2.449") * 2 / 3, Fraction(5, 2), rule="V-41")
    assert value(calc, "average") == Fraction("14.643")


def test_v41_the_catcher_takes_the_speed_left_after_its_throwing_speed() -> None:
    """V-41: a 150-lb person falls 10 yd (30 mph); the catcher's Ts 10 yd/s takes 20 mph off:
    10 mph -> 1d × 1 (a character); ¼ HP = 2.5 -> 1d-3."""
    calc = run(FALLING_OBJECT, height=10, mass=150, material="character", catcher_ts=10, hp_max=10)
    assert value(calc, "mph") == 10
    assert calc.harm == Harm(dice=1, adds=-3, kind="cr", rule="V-41")


def test_v41_the_caught_faller_lands_softly_on_the_catcher() -> None:
    """V-41: the same catch seen by the faller: 10 mph onto a character (× 1), - ½ HP: 1d-5."""
    calc = fall(height=10, surface="character", catcher_ts=10)
    assert calc.harm == Harm(dice=1, adds=-5, kind="cr", rule="V-40")


def test_v41_falling_time_gives_distance_by_the_formula() -> None:
    """V-41: 1.5 s at 10 yd/s² is 15 yd/s = 30 mph, the table's 10-yd row."""
    assert value(run(FALLING_OBJECT, time=1.5, mass=150, material="character", hp_max=10), "mph") == 30


# --- declarations and bad input ---------------------------------------------------------------


@pytest.mark.parametrize(("raw", "field"), [
    ({"height": -1, "surface": "concrete"}, "height"),
    ({"height": 10, "time": 1, "surface": "concrete"}, "height"),
    ({"surface": "concrete"}, "height"),
    ({"height": 10, "surface": "lava"}, "surface"),
    ({"height": 10, "surface": "concrete", "breakfall_margin": -1}, "breakfall_margin"),
    ({"height": 10, "surface": "concrete", "mass": 0}, "mass"),
    ({"height": 10, "surface": "concrete", "pose": "cannonball"}, "pose"),
])
def test_a_bad_fall_is_refused_naming_the_field(raw: dict[str, JSON], field: str) -> None:
    with pytest.raises(Rejected) as info:
        FALLING.calculate({**HUMAN, **raw})
    assert info.value.code == "tool/bad_input"
    assert info.value.details["field"] == field


def test_every_falling_tool_is_declared_for_the_gm_with_prefills_from_the_sheet() -> None:
    assert {s.name for s in falling.SPECS} == {"fall_table", "terminal_velocity", "falling", "trip",
                                               "falling_object"}
    for spec in falling.SPECS:
        assert any(rule.startswith("V-") for rule in spec.rules)
        assert not spec.players
        paths = {p for v in spec.prefill.values() for p in ((v,) if isinstance(v, str) else v)}
        assert paths <= {"hp_max", "mass", "gulliver.mass_lb"}  # the size block's typed mass first
        for schema in spec.inputs.values():
            assert schema.get("title")


def test_a_fall_explains_each_step_with_its_rule() -> None:
    """The steps of E-17's fall, in order, each citing its rule id."""
    rules = [step.rule for step in fall(height=10, surface="concrete").steps]
    assert rules == ["V-36", "V-38", "V-36", "V-40", "V-40", "V-40", "R-01"]


@pytest.mark.parametrize(("spec", "raw", "field"), [
    (FALL_TABLE, {}, "height"),
    (FALL_TABLE, {"height": 5, "speed": 20}, "height"),
    (TERMINAL_VELOCITY, {"linear_scale": 0}, "linear_scale"),
    (TRIP, {**HUMAN, "surface": "concrete", "posture": "crouching"}, "posture"),
    (TRIP, {**HUMAN, "surface": "concrete", "linear_size": -2}, "linear_size"),
    (FALLING_OBJECT, {"height": 5, "time": 1, "mass": 100, "material": "metal", "hp_max": 10}, "height"),
    (FALLING_OBJECT, {"height": 5, "mass": 100, "material": "metal", "hp_max": 10, "catcher_ts": -1}, "catcher_ts"),
])
def test_every_falling_tool_refuses_bad_input_naming_the_field(spec: CalculatorSpec, raw: dict[str, JSON],
                                                               field: str) -> None:
    with pytest.raises(Rejected) as info:
        spec.calculate(raw)
    assert info.value.code == "tool/bad_input"
    assert info.value.details["field"] == field


def test_v41_a_falling_object_is_capped_at_its_own_terminal_velocity() -> None:
    """V-41, V-38: a 150-lb dummy dropped 1000 yd with tv 100 mph lands at 100 mph: 10d × 1 (character),
    ¼ HP = 2.5 -> 10d-3."""
    calc = run(FALLING_OBJECT, height=1000, mass=150, material="character", terminal_velocity=100, hp_max=10)
    assert value(calc, "mph") == 100
    assert calc.harm == Harm(dice=10, adds=-3, kind="cr", rule="V-41")


def test_V40_a_fall_from_0_yards_averages_0_not_minus_5() -> None:
    """V-40 / V-33 / R-01: no fall, no dice: ½ HP = 5 of absorption takes nothing away, so the average
    injury is 0 (least 0, most 0), never -5."""
    calc = fall(height=0, surface="concrete")
    assert (value(calc, "average"), calc.result["least"], calc.result["most"]) == (0, 0, 0)


def test_V40_absorption_above_the_rolls_mean_averages_0() -> None:
    """V-40 / V-33: 1 yd onto a mattress: 1d × ⅓ (mean 7/6) - 5 would average -23/6; the injury dealt is
    never below 0 (least 0, most 6/3 - 5 -> 0), so the average is 0, in the result and the summary."""
    calc = fall(height=1, surface="mattress")
    assert (value(calc, "average"), calc.result["least"], calc.result["most"]) == (0, 0, 0)
    assert "average 0," in calc.summary and "-" not in calc.steps[-1].text.split("average")[-1]
