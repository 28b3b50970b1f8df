"""GULLIVER collisions as GM tools (V-29 … V-35, E-18): the arithmetic, worked by hand from the seed.

Numbers in the docstrings are the hand calculation; square roots are taken to four
significant digits, as E-18 writes them (√(20/3) = 2.582).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.tools import collisions
from combat_server.rules.gurps.tools.collisions import (
    COLLISION, COLLISION_SPEED, OVERRUN, POWERED_MASS, SPLAT, ScaledHarm, root,
)
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm
from combat_server.rules.model import JSON


def run(spec: CalculatorSpec, **inputs: JSON) -> Calculation:
    return spec.calculate(inputs)


def value(calc: Calculation, key: str) -> Fraction:
    return Fraction(str(calc.result[key]))


# --- E-18 -------------------------------------------------------------------------------------


def test_e18_head_on_speeds() -> None:
    """E-18: Green 1000 lb at 40 mph meets Yellow 500 lb at 50 mph head-on: 90 mph combined;
    Green changes 90 × 500/1500 = 30 -> 10 mph, Yellow 90 × 1000/1500 = 60 -> -10 mph (V-29, V-30)."""
    calc = run(COLLISION_SPEED, geometry="head_on", speed_a=40, mass_a=1000, speed_b=50, mass_b=500)
    assert calc.result == {"combined": 90, "change_a": 30, "change_b": 60, "new_a": 10, "new_b": -10}


def test_e18_head_on_damage_is_the_higher_dice_times_the_other_sides_hardness() -> None:
    """E-18: Green's own dice 3 × √(1000/150) = 7.75d, Yellow's 6 × √(500/150) = 10.95d; both take
    the higher, 10.95d, × 2 for steel = 21.9d (V-31, V-32)."""
    calc = run(COLLISION, speed_a=40, mass_a=1000, speed_b=50, mass_b=500, material_a="metal",
               material_b="metal", hp_max=10)
    assert round(float(value(calc, "dice_a")), 2) == 7.75
    assert value(calc, "dice_b") == Fraction("10.95")
    assert value(calc, "dice") == Fraction("10.95")
    assert value(calc, "dice_to_a") == value(calc, "dice_to_b") == Fraction("21.9")


def test_e18_rear_end_ends_at_a_common_speed() -> None:
    """E-18: Yellow (50 mph) runs into Green (40 mph) from behind: 10 mph combined; Green gains
    10 × 500/1500 = 3.33 -> 43.33, Yellow loses 6.67 -> 43.33 mph (inelastic, V-29, V-30)."""
    calc = run(COLLISION_SPEED, geometry="rear_end", speed_a=40, mass_a=1000, speed_b=50, mass_b=500)
    assert value(calc, "combined") == 10
    assert value(calc, "change_a") == Fraction(10, 3)
    assert value(calc, "change_b") == Fraction(20, 3)
    assert value(calc, "new_a") == value(calc, "new_b") == Fraction(130, 3)


def test_e18_motorbike_into_a_stationary_tank_takes_16d_less_half_its_hp() -> None:
    """E-18: a 600-lb bike at 40 mph into a 60-ton tank stops dead: 4d × √(600/150) = 8d to both,
    × 2 for steel = 16d; the bike (HP 30, say) subtracts ½ HP = 15 (V-31, V-32, V-33).
    Rolled as 4d whose total is × 4 (A-42): average 14 × 4 - 15 = 41."""
    calc = run(COLLISION, speed_a=40, mass_a=600, speed_b=0, mass_b=120_000, material_a="metal",
               material_b="metal", hp_max=30, impact="full_body")
    assert value(calc, "change_a") == 40
    assert value(calc, "dice") == 8
    assert value(calc, "dice_to_a") == 16
    assert calc.harm == ScaledHarm(dice=4, adds=0, kind="cr", rule="V-31", multiplier=Fraction(4), minus=Fraction(15))
    assert value(calc, "average") == 41


def test_e18_powered_bike_hits_with_900_lb() -> None:
    """E-18 / V-35: 30 kW × 10 = 300 lb, standard traction caps at 600 × ½ = 300: 900 lb effective;
    then 4d × √(900/150) = 4 × 2.449 = 9.80d, × 2 = 19.6d."""
    powered = run(POWERED_MASS, mass=600, engine_kw=30, traction="standard")
    assert powered.result == {"bonus": 300, "effective_mass": 900}
    calc = run(COLLISION, speed_a=40, mass_a=900, speed_b=0, mass_b=120_000, material_a="metal",
               material_b="metal", hp_max=30)
    assert round(float(value(calc, "dice")), 2) == 9.80
    assert round(float(value(calc, "dice_to_a")), 1) == 19.6


# --- V-29 / V-30 ------------------------------------------------------------------------------


def test_v29_right_angle_counts_only_the_strikers_speed() -> None:
    """V-29: A at 30 mph broadsides B at 20 mph: the impact is 30 mph; B broadsiding A: 20 mph."""
    a = run(COLLISION_SPEED, geometry="a_broadsides_b", speed_a=30, mass_a=150, speed_b=20, mass_b=150)
    b = run(COLLISION_SPEED, geometry="b_broadsides_a", speed_a=30, mass_a=150, speed_b=20, mass_b=150)
    assert (value(a, "combined"), value(b, "combined")) == (Fraction(30), Fraction(20))


def test_v29_striking_each_other_at_right_angles_averages_the_speeds() -> None:
    """V-29: both strike equally: (30 + 20) / 2 = 25 mph; equal masses share it, 12.5 each (V-30)."""
    calc = run(COLLISION_SPEED, geometry="right_angle_both", speed_a=30, mass_a=150, speed_b=20, mass_b=150)
    assert calc.result == {"combined": 25, "change_a": "25/2", "change_b": "25/2"}


def test_v30_friction_absorbs_the_heavy_sides_residual() -> None:
    """V-30: a 10-ton semi at 60 mph hits a 150-lb PC: the truck's change 60 × 150/20150 = 0.45 mph
    is lost to friction; the PC takes the whole 60 mph in the truck's direction."""
    calc = run(COLLISION_SPEED, geometry="head_on", speed_a=0, mass_a=150, speed_b=60, mass_b=20_000)
    assert (value(calc, "change_a"), value(calc, "change_b")) == (Fraction(60), Fraction(0))
    assert (value(calc, "new_a"), value(calc, "new_b")) == (Fraction(-60), Fraction(60))


# --- V-31 … V-33 ------------------------------------------------------------------------------


def test_r03_fractional_speed_dice_roll_ceil_dice_scaled() -> None:
    """R-03: a 150-lb runner hits a concrete wall at 25 mph: 2.5d × 1 × 2 = 5d, rolled as 3d whose
    total is × 5/3; very localised, nothing absorbed: average 10.5 × 5/3 = 17.5."""
    calc = run(COLLISION, speed_a=25, mass_a=150, speed_b=0, mass_b=1_000_000, material_b="concrete", hp_max=10,
               impact="very_localised")
    assert calc.harm == ScaledHarm(dice=3, adds=0, kind="cr", rule="V-31", multiplier=Fraction(5, 3),
                                   minus=Fraction(0))
    assert value(calc, "average") == Fraction(35, 2)


def test_r01_the_rolled_total_is_scaled_reduced_and_floored_once() -> None:
    """R-01 with E-18's head-on: 6d × 73/20 - 2.5 (¼ of HP 10). A total of 10 gives 36.5 - 2.5 = 34;
    a total of 7 gives 25.55 - 2.5 = 23.05 -> 23 (flooring 25.55 to 25 first would give 22.5 -> 22);
    all ones, 6 × 3.65 - 2.5 = 19.4 -> 19."""
    calc = run(COLLISION, speed_a=40, mass_a=1000, speed_b=50, mass_b=500, material_a="metal",
               material_b="metal", hp_max=10, impact="localised")
    harm = calc.harm
    assert isinstance(harm, ScaledHarm)
    assert (harm.dice, harm.multiplier, harm.minus) == (6, Fraction(73, 20), Fraction(5, 2))
    assert harm.total((1, 1, 1, 1, 2, 4)) == 34
    assert harm.total((1, 1, 1, 1, 1, 2)) == 23
    assert harm.total((1, 1, 1, 1, 1, 1)) == 19


def test_v32_a_sharp_point_is_very_hard_and_impales() -> None:
    """V-32: a 150-lb body at 10 mph onto a sharp point: 1d × 2, impaling, no absorption."""
    calc = run(COLLISION, speed_a=10, mass_a=150, mass_b=1_000_000, material_b="sharp_point", hp_max=10,
               impact="very_localised")
    assert calc.harm == ScaledHarm(dice=1, adds=0, kind="imp", rule="V-31", multiplier=Fraction(2), minus=Fraction(0))


def test_v32_hardness_of_the_other_side_is_what_counts() -> None:
    """V-32: two 150-lb characters at 10 mph each, head-on: 20 mph, 10 mph change each, 1d each.
    A is struck by a character (× 1), B by A's mattress armour (× ⅓)."""
    calc = run(COLLISION, speed_a=10, mass_a=150, speed_b=10, mass_b=150, material_a="mattress",
               material_b="character", hp_max=10, impact="very_localised")
    assert (value(calc, "dice_to_a"), value(calc, "dice_to_b")) == (Fraction(1), Fraction(1, 3))
    assert calc.harm == Harm(dice=1, adds=0, kind="cr", rule="V-31")


@pytest.mark.parametrize(("impact", "adds"), [("full_body", -6), ("localised", -3), ("very_localised", 0)])
def test_v33_absorption_is_a_share_of_hpmax(impact: str, adds: int) -> None:
    """V-33, A-43: HP 11 at 30 mph into soft soil (3d × 1): ½ HP = 5.5 -> 3d - 6 for every whole roll
    (floor(T - 5.5) = T - 6); ¼ HP = 2.75 -> 3d - 3; very localised subtracts nothing."""
    calc = run(COLLISION, speed_a=30, mass_a=150, mass_b=1_000_000, material_b="soft_soil", hp_max=11, impact=impact)
    assert calc.harm == Harm(dice=3, adds=adds, kind="cr", rule="V-31")


# --- V-34 -------------------------------------------------------------------------------------


def test_v34_splat_uses_the_strikers_speed_mass_and_hardness() -> None:
    """V-34: a 600-lb stone boulder at 10 mph pins a HP 12 man to a wall: 1d × √(600/150) = 2d, × 2
    for stone = 4d (rolled 1d × 4), less ¼ HP = 3 (localised): average 14 - 3 = 11, 1..21."""
    calc = run(SPLAT, speed=10, mass=600, material="stone", hp_max=12)
    assert calc.harm == ScaledHarm(dice=1, adds=0, kind="cr", rule="V-34", multiplier=Fraction(4), minus=Fraction(3))
    assert (value(calc, "average"), calc.result["least"], calc.result["most"]) == (Fraction(11), 1, 21)


def test_v34_a_wheeled_vehicle_three_sizes_larger_overruns_with_root_weight_over_20_dice() -> None:
    """V-34, A-44: a 10 000-lb truck, 3 Size levels larger: √10000 / 20 = 5d."""
    calc = run(OVERRUN, weight=10_000, propulsion="wheeled", size_difference=3)
    assert calc.result["can_overrun"] is True
    assert calc.harm == Harm(dice=5, adds=0, kind="cr", rule="V-34")


def test_v34_a_wheeled_vehicle_two_sizes_larger_cannot_overrun() -> None:
    """V-34: wheeled needs 3+ Size levels; 2 is not enough, so no harm."""
    calc = run(OVERRUN, weight=10_000, propulsion="wheeled", size_difference=2)
    assert calc.result["can_overrun"] is False
    assert calc.harm is None


def test_v34_a_knocked_flat_target_counts_one_size_smaller() -> None:
    """V-34: a bike knocked flat, 2 Size levels below the truck, counts as 3 below: overrun."""
    calc = run(OVERRUN, weight=10_000, size_difference=2, target_knocked_flat=True)
    assert calc.result["can_overrun"] is True


def test_v34_legged_overrunners_need_only_the_same_size() -> None:
    """V-34: legged, same Size: overrun. A 1600-lb beast: √1600 / 20 = 2d."""
    calc = run(OVERRUN, weight=1600, propulsion="legged", size_difference=0)
    assert calc.harm == Harm(dice=2, adds=0, kind="cr", rule="V-34")


def test_v34_a_vehicle_overrun_by_a_vehicle_takes_double_with_fractional_dice() -> None:
    """V-34, R-03: a 900-lb car overruns a car: √900 / 20 = 1.5d, doubled = 3d. A 400-lb one:
    √400 / 20 = 1d, doubled 2d; a 625-lb one: 25 / 20 = 1.25d -> 2.5d, rolled 3d × 5/6."""
    assert run(OVERRUN, weight=900, size_difference=3, target_is_vehicle=True).harm == Harm(3, 0, "cr", "V-34")
    calc = run(OVERRUN, weight=625, size_difference=3, target_is_vehicle=True)
    assert calc.harm == ScaledHarm(dice=3, adds=0, kind="cr", rule="V-34", multiplier=Fraction(5, 6),
                                   minus=Fraction(0))


# --- V-35 -------------------------------------------------------------------------------------


def test_v35_a_creature_adds_load_st_times_10() -> None:
    """V-35: a 150-lb man of Load ST 12 charging: 150 + 12 × 10 = 270 lb."""
    assert run(POWERED_MASS, mass=150, load_st=12).result == {"bonus": 120, "effective_mass": 270}


def test_v35_torque_doubles_the_bonus_below_a_quarter_of_top_speed() -> None:
    """V-35: 30 kW × 10 = 300, × 2 below ¼ top speed = 600: a 2000-lb car hits as 2600 lb."""
    calc = run(POWERED_MASS, mass=2000, engine_kw=30, torque="below_quarter_top_speed")
    assert calc.result == {"bonus": 600, "effective_mass": 2600}


def test_v35_thrust_counts_a_tenth_in_air_and_whole_in_water() -> None:
    """V-35: thrust 500 lb: + 50 lb in air, + 500 lb in water."""
    assert run(POWERED_MASS, mass=1000, thrust=500).result["bonus"] == 50
    assert run(POWERED_MASS, mass=1000, thrust=500, medium="water").result["bonus"] == 500


def test_v35_traction_caps_the_bonus_at_half_the_weight_then_off_road() -> None:
    """V-35, A-28: 100 kW × 10 = 1000 lb, capped at 600 × ½ = 300, × Off-Road 0.5 = 150: 750 lb."""
    calc = run(POWERED_MASS, mass=600, engine_kw=100, traction="standard", off_road=0.5)
    assert calc.result == {"bonus": 150, "effective_mass": 750}


# --- the declarations and bad input -----------------------------------------------------------


@pytest.mark.parametrize(("spec", "raw", "field"), [
    (COLLISION, {"speed_a": -5, "mass_a": 150, "mass_b": 150, "material_b": "metal", "hp_max": 10}, "speed_a"),
    (COLLISION, {"speed_a": 5, "mass_a": 0, "mass_b": 150, "material_b": "metal", "hp_max": 10}, "mass_a"),
    (COLLISION, {"speed_a": 5, "mass_a": 150, "mass_b": 150, "material_b": "marshmallow", "hp_max": 10}, "material_b"),
    (COLLISION, {"speed_a": 5, "mass_a": 150, "mass_b": 150, "material_b": "metal", "hp_max": 10,
                 "geometry": "sideways"}, "geometry"),
    (SPLAT, {"speed": 5, "mass": 150, "material": "metal", "hp_max": -1}, "hp_max"),
    (OVERRUN, {"weight": 1000, "size_difference": 1.5}, "size_difference"),
    (POWERED_MASS, {"mass": 600, "engine_kw": -30}, "engine_kw"),
])
def test_a_bad_input_is_refused_naming_the_field(spec: CalculatorSpec, raw: dict[str, JSON], field: str) -> None:
    with pytest.raises(Rejected) as info:
        spec.calculate(raw)
    assert info.value.code == "tool/bad_input"
    assert info.value.details["field"] == field


def test_an_unknown_material_lists_the_known_ones() -> None:
    with pytest.raises(Rejected) as info:
        run(SPLAT, speed=5, mass=150, material="marshmallow", hp_max=10)
    assert "concrete" in info.value.details["known"]


def test_every_collision_tool_is_declared_for_the_gm_with_prefills_from_the_sheet() -> None:
    """Each tool cites its V ids, is GM-only, and prefills only combatant numbers (hp, mass, st)."""
    assert {s.name for s in collisions.SPECS} == {"collision", "collision_speed", "powered_mass", "splat", "overrun"}
    for spec in collisions.SPECS:
        assert any(rule.startswith("V-") for rule in spec.rules)
        assert not spec.players
        paths = {p for v in spec.prefill.values() for p in ((v,) if isinstance(v, str) else v)}
        # load_st.st: V-01's Load ST where the view has it; gulliver.mass_lb: the size block's typed mass (A-27)
        assert paths <= {"hp_max", "mass", "st", "load_st.st", "gulliver.mass_lb"}
        for schema in spec.inputs.values():
            assert schema.get("title")


def test_every_step_cites_a_rule_id() -> None:
    calc = run(COLLISION, speed_a=40, mass_a=1000, speed_b=50, mass_b=500, material_b="metal", hp_max=10)
    assert calc.steps
    assert all(step.rule[:2] in {"V-", "R-", "A-"} for step in calc.steps)


def test_square_roots_are_exact_when_rational_else_four_significant_digits() -> None:
    assert root(Fraction(4)) == 2
    assert root(Fraction(9, 4)) == Fraction(3, 2)
    assert root(Fraction(120)) == Fraction("10.95")
    assert root(Fraction(2)) == Fraction("1.414")
    assert root(Fraction(1, 4800)) == Fraction("0.01443")


def test_the_steps_read_like_the_catalogues_worked_example() -> None:
    """E-18's figures appear in the steps as the catalogue writes them: 10.95d, × 2, 21.9d."""
    calc = run(COLLISION, speed_a=40, mass_a=1000, speed_b=50, mass_b=500, material_a="metal",
               material_b="metal", hp_max=10)
    texts = [step.text for step in calc.steps]
    assert "B's own dice = 60 mph / 10 × √(500 lb / 150) = 10.95d" in texts
    assert any(text.endswith("× 2: 21.9d") for text in texts)
    assert calc.summary.startswith("A takes 21.9d (roll 6d × 73/20) - 2.5 cr")


def test_a44_trampling_dice_off_a_square_weight_are_four_significant_digits() -> None:
    """A-44, R-03: a 600-lb bike, 3 Size levels larger: √600 / 20 = √1.5 = 1.225d, rolled 2d × 0.6125."""
    calc = run(OVERRUN, weight=600, size_difference=3)
    assert calc.result["dice"] == "49/40"
    assert calc.harm == ScaledHarm(dice=2, adds=0, kind="cr", rule="V-34", multiplier=Fraction(49, 80),
                                   minus=Fraction(0))


def test_V30_a_collision_at_0_mph_averages_0_not_minus_5_halves() -> None:
    """V-30 / V-33: A at 0 mph meets B at 0 mph: no speed change, no dice; ¼ HP = 2.5 of absorption
    leaves an average of 0 (least 0, most 0), never -5/2."""
    calc = COLLISION.calculate({"speed_a": 0, "mass_a": 150, "speed_b": 0, "mass_b": 150,
                                "material_b": "character", "hp_max": 10})
    assert (value(calc, "average"), calc.result["least"], calc.result["most"]) == (0, 0, 0)
