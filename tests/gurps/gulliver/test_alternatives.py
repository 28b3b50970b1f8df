"""The alternative modules' own tables and boundaries: V-66's table against its general
rule, V-18's bands, V-44's outcomes, V-47's paces, V-52's factors, V-53's HT roll, V-46's
light levels. Each number is the catalogue's, checked by hand in the docstring."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps.gulliver import damage_tables, fatigue, light, shock, wounds
from combat_server.rules.gurps.gulliver.death import schedule

# V-66's printed table, ST 1..30.
V66_TABLE = {1: "1d-5", 2: "1d-4", 3: "1d-4", 4: "1d-3", 5: "1d-3", 6: "1d-2", 7: "1d-2", 8: "1d-1", 9: "1d-1",
             10: "1d", 11: "1d", 12: "1d+1", 13: "1d+1", 14: "2d-2", 15: "1d+2", 16: "1d+2", 17: "2d-1",
             18: "1d+3", 19: "1d+3", 20: "2d", 21: "2d", 22: "2d+1", 23: "2d+1", 24: "3d-2", 25: "2d+2",
             26: "2d+2", 27: "3d-1", 28: "2d+3", 29: "2d+3", 30: "3d"}


@pytest.mark.parametrize("st,text", sorted(V66_TABLE.items()))
def test_v66_the_general_rule_reproduces_the_table(st: int, text: str) -> None:
    """V-66: ST 1..30 as printed; from 10 on produced by the n = floor(ST/10), r = ST mod 10 rule."""
    assert damage_tables.new_thrust(st).text() == text


def test_a54_average_thrust_never_falls_as_st_rises() -> None:
    """A-54: 14 -> 2d-2 (avg 5) sits between 1d+1 (4.5) and 1d+2 (5.5): averages rise with ST."""
    averages = [damage_tables.new_thrust(st).average() for st in range(1, 400)]
    assert all(a <= b for a, b in zip(averages, averages[1:]))


@pytest.mark.parametrize("hp_max,shock_points,penalty", [
    (1, 1, 10), (2, 1, 5), (3, 1, 3), (4, 1, 2), (7, 2, 4), (8, 3, 3), (14, 3, 3), (15, 3, 1), (24, 3, 1),
    (25, 3, 1), (25, 2, 0), (34, 6, 2), (35, 8, 2), (Fraction(1, 2), 1, 20),
])
def test_v18_bands(hp_max: Fraction | int, shock_points: int, penalty: int) -> None:
    """V-18 / A-38: 1 HP -10 a point, 2 -5, 3 -3, 4-7 -2, 8-14 -1, 15-24 -1 per 2, 25-34 -1 per 3,
    35 -1 per 4; 0.5 HP -20 a point."""
    assert shock.band_penalty(shock_points, hp_max) == penalty


@pytest.mark.parametrize("failed_by,critical,outcome", [(0, False, "none"), (1, False, "minor"),
                                                        (3, False, "minor"), (2, True, "major"),
                                                        (4, False, "major"), (8, False, "fatal")])
def test_v44_heart_attack_outcomes(failed_by: int, critical: bool, outcome: str) -> None:
    """V-44: fail -> minor; by 4+ or a critical failure -> major; by 8+ -> fatal."""
    assert wounds.heart_attack(failed_by, critical) == outcome


def test_v44_heart_attack_damage_dice() -> None:
    """V-44: minor 2d x LS, major 6d x LS."""
    assert wounds.HEART_ATTACK_DICE == {"minor": 2, "major": 6}


def test_v15_schedule_values() -> None:
    """V-15: HP 10: -10, -15, ..., -45, dead at -50; G-45: -10, -20, -30, -40."""
    assert schedule(10, half_steps=True) == (tuple(Fraction(-v) for v in range(10, 50, 5)), -50)
    assert schedule(10, half_steps=False) == ((-10, -20, -30, -40), -50)


def test_v47_pace_boundaries_exactly() -> None:
    """V-47: pace as a share of Move 6: 2 (1/3) walking, 3 (1/2) jogging, 4 (2/3) fast jogging, 6 (1)
    running, 7 (<= 1 + 1/5) sprinting, 8 beyond: Extra Effort sprinting at 1 a second."""
    got = [fatigue.movement_pace(n, 6) for n in (2, 3, 4, 6, 7, 8)]
    assert [(p.name, p.seconds_per_point) for p in got if p is not None] == [
        ("walking", 3600), ("jogging", 600), ("fast jogging", 60), ("running", 20), ("sprinting", 10),
        ("Extra Effort sprinting", 1)]
    assert fatigue.movement_pace(0, 6) is None


@pytest.mark.parametrize("level,factor", [(0, 1), (1, Fraction(5, 4)), (2, Fraction(5, 3)), (3, Fraction(5, 2)),
                                          (4, 5), (5, 10)])
def test_v52_encumbrance_factors(level: int, factor: Fraction) -> None:
    """V-52: Light x1.25, Medium x1.67 (5/3), Heavy x2.5, Extra-Heavy x5, Super-Heavy x10."""
    assert fatigue.encumbrance_factor(level) == factor


def test_v52_only_super_heavy_costs_standing_still() -> None:
    assert [fatigue.standing_cost(level) for level in range(6)] == [0, 0, 0, 0, 0, 1]


@pytest.mark.parametrize("success,margin,cost", [(True, 0, Fraction(1)), (True, 4, Fraction(1)),
                                                 (True, 5, Fraction(1, 2)), (True, 10, Fraction(1, 4)),
                                                 (False, -1, Fraction(2)), (False, -4, Fraction(2)),
                                                 (False, -5, Fraction(4)), (False, -10, Fraction(8))])
def test_v53_ht_roll_halves_or_doubles(success: bool, margin: int, cost: Fraction) -> None:
    """V-53, 1 point at ST 20 (x2 = 2): success halves (1), each full 5 more halves again; each full
    5 of failure doubles; failing by 1-4 leaves 2."""
    assert fatigue.st_basis_cost(1, 20, success, margin) == cost


@pytest.mark.parametrize("level,cost,after,hp", [
    (Fraction(5, 4), Fraction(1, 2), Fraction(3, 4), 0), (1, 3, 0, 2), (Fraction(1, 2), Fraction(7, 4), 0, 1),
    (0, Fraction(5, 2), 0, 2)])
def test_v53_v54_fatigue_stops_at_0_and_the_rest_is_hp(level: Fraction | int, cost: Fraction | int,
                                                       after: Fraction | int, hp: int) -> None:
    """V-53 / V-54 (A-51: out at 0): 5/4 - 1/2 = 3/4; 1 - 3: 0 and 2 HP; 1/2 - 7/4: 0 and floor(5/4) = 1 HP;
    at 0, 5/2 more: floor(5/2) = 2 HP."""
    assert fatigue.basis_spend(level, cost) == (after, hp)


@pytest.mark.parametrize("level,cost,after,hp", [
    (Fraction(1, 2), 2, Fraction(-3, 2), 1), (Fraction(43, 4), Fraction(5, 4), Fraction(19, 2), 0),
    (Fraction(-19, 2), Fraction(5, 2), -10, 2)])
def test_g51_exact_spending_a26(level: Fraction, cost: Fraction | int, after: Fraction | int, hp: int) -> None:
    """G-51 / A-26 with V-52's fractions, FPmax 10: from 1/2, 2 points leave -3/2, the 3/2 lost at 0 or
    below cost floor(3/2) = 1 HP; 43/4 - 5/4 = 19/2, no HP; from -19/2, 5/2 stops at -10 and all 5/2
    cost floor = 2 HP."""
    assert fatigue.g51_spend(level, 10, cost) == (after, hp)


@pytest.mark.parametrize("level,penalty", [(10, 0), (7, 0), (Fraction(20, 3), 1), (5, 2), (4, 2), (3, 3)])
def test_v50_penalty_bands(level: Fraction | int, penalty: int) -> None:
    """V-50 / A-49, FPmax 10: <= 20/3 -1, <= 5 -2, <= 10/3 -3."""
    assert fatigue.skill_penalty(level, 10) == penalty


@pytest.mark.parametrize("level,vision,dx_iq,darkness,blind", [
    ("blinding", 0, 0, 0, True), ("near-blinding", -8, -4, 0, False), ("harsh", -4, -2, 0, False),
    ("very bright", -2, -1, 0, False), ("normal", 0, 0, 0, False), ("dim", 0, 0, -1, False),
    ("very dim", 0, 0, -2, False), ("dark", 0, 0, -4, False), ("very dark", 0, 0, -8, False),
    ("total darkness", 0, 0, 0, True),
])
def test_v46_light_levels(level: str, vision: int, dx_iq: int, darkness: int, blind: bool) -> None:
    """V-46's table."""
    got = light.seen_level(level)
    assert (got.vision, got.dx_iq, got.darkness, got.blind) == (vision, dx_iq, darkness, blind)


def test_v46_eyes_and_eyewear_shift_the_level() -> None:
    """V-46: Bad Sight makes bright +2 levels (harsh); partial Night Vision makes dark very dim;
    Night Blindness makes dark very dark; sunglasses make very bright bright; full Night Vision
    removes the darkness penalty but not total darkness."""
    assert light.seen_level("bright", light.Eyes(light_sensitivity=2)).name == "harsh"
    assert light.seen_level("dark", light.Eyes(night_vision="partial")).name == "very dim"
    assert light.seen_level("dark", light.Eyes(night_blindness=True)).name == "very dark"
    assert light.seen_level("very bright", light.Eyes(eyewear=1)).name == "bright"
    assert light.seen_level("very dark", light.Eyes(night_vision="full")).darkness == 0
    assert light.seen_level("total darkness", light.Eyes(night_vision="full")).blind
