"""The hazard tools, worked by hand from seed 000 (V-25..V-28, V-42, V-45)."""

from __future__ import annotations

from fractions import Fraction

from combat_server.rules.kit.calculators import Harm

from .helpers import refused, rules_cited, run


# V-25
def test_v25_a_giant_with_ls_4_takes_double_damage() -> None:
    calc = run("exposure", damage="2d", kind="burn", ls="4")
    assert calc.harm == Harm(dice=2, adds=0, kind="burn", rule="V-25", multiplier=Fraction(2))


def test_v25_a_two_inch_person_takes_a_sixth() -> None:
    """LS 1/36 -> sqrt = 1/6 exactly."""
    calc = run("exposure", damage="3d+1", ls="1/36")
    assert calc.harm is not None and calc.harm.multiplier == Fraction(1, 6)
    assert calc.result["multiplier"] == "1/6"


def test_v25_r01_damage_is_floored_once_after_the_roll() -> None:
    """3d+1 x 1/6 with 6, 6, 5: (17 + 1) / 6 = 3; with 6, 6, 4: 17/6 -> 2."""
    harm = run("exposure", damage="3d+1", ls="1/36").harm
    assert harm is not None
    assert (harm.total((6, 6, 5)), harm.total((6, 6, 4))) == (3, 2)
    assert "R-01" in rules_cited(run("exposure", damage="3d+1", ls="1/36"))


def test_v25_the_advanced_rule_reduces_to_sqrt_ls_for_normal_proportions() -> None:
    """LS 4: sqrt(Area Scale 16) = 4, sqrt(1/MAR 1/4) = 1/2 -> x2, as the detailed rule."""
    assert run("exposure", ls="4", method="advanced").result["multiplier"] == 2


def test_v25_the_advanced_rule_takes_odd_area_and_mar() -> None:
    """Area Scale 9 (sqrt 3), MAR 4 (sqrt(1/4) = 1/2) -> x 3/2."""
    assert run("exposure", method="advanced", area_scale="9", mar="4").result["multiplier"] == "3/2"


def test_v25_a_zero_linear_scale_is_refused_naming_it() -> None:
    error = refused("exposure", ls="0")
    assert error.code == "tool/bad_input" and error.details["field"] == "ls"
    assert refused("exposure", ls="big").details["field"] == "ls"


# V-26
def test_v26_the_seed_example_a_three_inch_pc_in_a_foot_wide_jet() -> None:
    """x 3/12 = 1/4 exposure, x sqrt(20) ~ 4.472 area-to-mass: ~1.118, about a full die."""
    calc = run("jet", damage="1d", jet_width=12, target_width=3, cube_square=True, area_to_mass="20")
    assert calc.harm is not None and calc.harm.multiplier == Fraction(1118, 1000)


def test_v26_a_giant_takes_at_most_the_jets_damage() -> None:
    assert run("jet", damage="1d", jet_width=12, target_width=48).result["multiplier"] == 1


# V-27
def test_v27_ht_rolls_against_exposure_at_half_size() -> None:
    """Size -8 -> -4; Size +6 -> +3 (seed examples)."""
    assert run("exposure_effects", size=-8, ht=10).result["ht_modifier"] == -4
    assert run("exposure_effects", size=6, ht=10).result["ht_target"] == 13


def test_v27_a41_odd_size_rounds_toward_zero() -> None:
    assert run("exposure_effects", size=-3, ht=10).result["ht_modifier"] == -1
    assert run("exposure_effects", size=5, ht=10).result["ht_modifier"] == 2


def test_v27_fatigue_scales_like_damage() -> None:
    """6 FP for a human x sqrt(1/36) = 1 FP, applied through the FP path."""
    calc = run("exposure_effects", size=-8, ht=10, amount=6, ls="1/36")
    assert calc.result["fatigue"] == 1
    assert calc.harm == Harm(dice=0, adds=6, kind="fat", rule="V-27", multiplier=Fraction(1, 6))


# V-28
def test_v28_water_counts_triple_its_difference_from_the_optimum() -> None:
    """Seed: 60 deg F water against 70 -> like 40 deg F air."""
    assert run("temperature", temperature=60, medium="water", ht=10).result["felt_as"] == 40


def test_v28_a_point_lost_per_full_or_partial_three_of_failure() -> None:
    """Failed by 6 -> 2; by 7 -> 3 (ceil)."""
    assert run("temperature", temperature=0, ht=10, failed_by=6).result["loss"] == 2
    assert run("temperature", temperature=0, ht=10, failed_by=7).result["loss"] == 3


def test_v28_the_loss_is_spread_over_the_half_hour() -> None:
    """6 FP in the half hour: one every 5 minutes (seed)."""
    assert run("temperature", temperature=0, ht=10, failed_by=18).result["every_minutes"] == 5


def test_v28_fat_insulates_against_freezing_only() -> None:
    assert run("temperature", temperature=0, ht=10, build="fat").result["ht_target"] == 12
    assert run("temperature", temperature=110, ht=10, build="fat").result["ht_target"] == 10


def test_v28_numbness_costs_a_dx_per_third_lost_to_cold() -> None:
    """FPmax 12: 8 FP lost to cold is two thirds -> DX -2."""
    assert run("temperature", temperature=0, ht=10, lost_to_cold=8, fp_max=12).result["dx_penalty"] == -2


def test_v28_hp_loss_is_applied_as_it_is() -> None:
    harm = run("temperature", temperature=0, ht=10, failed_by=4, loses="hp").harm
    assert harm == Harm(dice=0, adds=2, kind="injury", rule="V-28")


# V-42
def test_v42_gas_uses_the_exposure_rule() -> None:
    assert run("poison", route="gas_spray", damage="2d", ls="1/36").result["multiplier"] == "1/6"


def test_v42_contact_poison_uses_the_jet_rule_with_the_dose_size() -> None:
    """A 12-inch dose on a 3-inch target: 1/4 of it."""
    calc = run("poison", route="contact", damage="2d", dose_width=12, target_width=3)
    assert calc.result["multiplier"] == "1/4"
    assert calc.harm is not None and calc.harm.kind == "tox"


def test_v42_internal_poison_is_scaled_by_hp_alone() -> None:
    assert run("poison", route="internal", damage="2d", ls="1/36").result["multiplier"] == 1


# V-45
def test_v45_the_half_modifier_adds_to_acceleration_ht_rolls() -> None:
    assert run("acceleration", ht=12, modifier=-3, half_modifier=2).result["ht_target"] == 11


def test_v45_six_g_rolls_ht_each_hour() -> None:
    assert run("acceleration", ht=10, gravity=6, hours=3).result["rolls"] == 3
    assert run("acceleration", ht=10, gravity=1, hours=3).result["rolls"] == 0
