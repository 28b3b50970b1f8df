"""The catalogue's GULLIVER worked examples as tests of the pure layer: E-15 (the HP 120
dragon), E-16 (a rat of HP 1 and a human of HP 10), E-19 (Toughness and AOA +33%) and
E-20 (New ST damage and blowthrough). The numbers are the catalogue's, each re-derived
by hand in the comments; the code implements the rules, not these cases."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps.gulliver import damage_tables
from combat_server.rules.gurps.gulliver.blowthrough import Projectile, capped_injury
from combat_server.rules.gurps.gulliver.locations import Location, location
from combat_server.rules.gurps.gulliver.size import Scale, scaled_base_hp

from tests.gurps.gulliver.policies import policy, wound

SHOCK = ("hit_locations", "damage_shock", "shock_points", "shock_penalty_bands", "shock_stun", "shock_knockout", "brain_shock")
ARM, HAND, LEG, FOOT = (location("humanoid", n) for n in ("right arm", "hand", "right leg", "foot"))
SKULL, TORSO, VITALS = (location("humanoid", n) for n in ("skull", "torso", "vitals"))

# ---------------------------------------------------------------------------------------------- E-15


@pytest.mark.parametrize("damage,penalty", [(30, 2), (11, 0), (59, 4), (100, 8)])
def test_e15_dragon_shock_penalty_one_per_twelve(damage: int, penalty: int) -> None:
    """E-15 / V-18 / A-38: HP 120 -> divisor floor(125/10) = 12; 30 -> 2, 11 -> 0, 59 -> 4,
    100 -> 8 (no -4 cap, A-37)."""
    assert policy(*SHOCK).shock(wound(damage), 120).penalty == penalty


def test_e15_dragon_slows_below_forty_not_thirty() -> None:
    """E-15 / V-09 / A-31: 120/3 = 40; at 39 HP slowed, at 40 not (the example's 30 is wrong)."""
    p = policy("injury_slowdown")
    assert p.slowed(39, 120) == (True, "V-09") and p.slowed(40, 120) == (False, "V-09")


def test_e15_dragon_knockdown_over_sixty_in_one_blow() -> None:
    """E-15 / V-10: one blow over 120/2 = 60 calls for the HT roll, anywhere on the body."""
    p = policy("knockdown")
    assert p.major_wound_roll(61, 120, LEG) == "V-10" and p.major_wound_roll(60, 120, LEG) is None


def test_e15_dragon_crippling_leg_over_sixty_foot_over_forty() -> None:
    """E-15 / V-11: leg > 120/2 = 60, foot > 120/3 = 40."""
    p = policy("hit_locations", "crippled_limbs")
    assert p.maim(61, LEG, 120, "cr").crippled and not p.maim(60, LEG, 120, "cr").crippled
    assert p.maim(41, FOOT, 120, "cr").crippled and not p.maim(40, FOOT, 120, "cr").crippled


def test_e15_dragon_stun_standard_and_alternative() -> None:
    """E-15 / V-19: standard: shock > 60 stuns outright. Alternative: > 40 HT roll, > 80 outright."""
    standard = policy(*SHOCK)
    assert standard.shock(wound(61), 120).stun == "stunned" and standard.shock(wound(60), 120).stun == "none"
    alternative = policy(*SHOCK, stun_rule="ht_roll")
    assert [alternative.shock(wound(n), 120).stun for n in (40, 41, 80, 81)] == ["none", "roll", "roll", "stunned"]


def test_e15_dragon_knockout_from_shock() -> None:
    """E-15 / V-22: > 120 HT roll, > 240 outright."""
    p = policy(*SHOCK)
    assert [p.shock(wound(n), 120).knockout for n in (120, 121, 240, 241)] == ["none", "roll", "roll", "unconscious"]


def test_e15_dragon_brain_hit_for_35() -> None:
    """E-15 / V-20: a brain hit of 35 -> shock 70 > 60: stunned outright; 70 <= 120: no KO roll."""
    got = policy(*SHOCK).shock(wound(35), 120, where=SKULL)
    assert got.points == 70 and got.stun == "stunned" and got.knockout == "none"


def test_e15_dragon_death_checks_every_sixty_from_minus_120() -> None:
    """E-15 / V-15: rolls at -120, -180, ..., -540 (eight), dead at -600."""
    p = policy("proportional_death")
    assert p.death_checks(-540, 120, 0) == ([1, 2, 3, 4, 5, 6, 7, 8], False)
    assert p.death_checks(-599, 120, 8) == ([], False) and p.death_checks(-600, 120, 8) == ([], True)
    assert p.death_checks(-179, 120, 0) == ([1], False)


def test_e15_dragon_with_iq_5_gets_plus_5_to_stay_conscious() -> None:
    """E-15 / V-60: racial IQ 5 -> +5 (10 - 5)."""
    mods = policy("monster_ko_bonus").consciousness_mods(iq=5, scale=Scale(non_pc_race=True))
    assert [(m.value, m.rule) for m in mods] == [(5, "V-60")]


def test_e15_dragon_with_iq_5_dies_sooner() -> None:
    """E-15 / V-61 / A-52: IQ 5 halves the zone: rolls at -60, -90, ..., -270; dead at -300."""
    p = policy("proportional_death", "monster_ko_zone")
    dragon = Scale(non_pc_race=True)
    assert p.death_checks(-270, 120, 0, iq=5, scale=dragon) == ([1, 2, 3, 4, 5, 6, 7, 8], False)
    assert p.death_checks(-89, 120, 0, iq=5, scale=dragon) == ([1], False)
    assert p.death_checks(-300, 120, 8, iq=5, scale=dragon) == ([], True)


# ---------------------------------------------------------------------------------------------- E-16


def test_e16_rat_death_rolls_every_half_point() -> None:
    """E-16 / V-15 / A-36: HP 1: from 0 to -2 crosses -1, -1.5 and -2 -> three rolls; dead at -5."""
    p = policy("proportional_death")
    assert p.death_checks(-2, 1, 0) == ([1, 2, 3], False)
    assert p.death_checks(Fraction(-9, 2), 1, 3)[0] == [4, 5, 6, 7, 8]
    assert p.death_checks(-5, 1, 8) == ([], True)


def test_e16_rat_one_point_of_shock() -> None:
    """E-16 / V-18 / V-19: HP 1, shock 1 -> -10 DX/IQ; 1 > 0.5 -> stunned outright."""
    got = policy(*SHOCK).shock(wound(1), 1)
    assert got.penalty == 10 and got.stun == "stunned"


def test_e16_rat_knockout_from_shock() -> None:
    """E-16 / V-22: HP 1: 1 point none (must exceed 1), 2 a HT roll, 3 outright (> 2)."""
    p = policy(*SHOCK)
    assert [p.shock(wound(n), 1).knockout for n in (1, 2, 3)] == ["none", "roll", "unconscious"]


def test_e16_human_shock_divisor_one() -> None:
    """E-16 / V-18: HP 10 -> divisor floor(15/10) = 1: 6 damage -> -6, no cap."""
    assert policy(*SHOCK).shock(wound(6), 10).penalty == 6


def test_e16_human_death_rolls() -> None:
    """E-16 / V-15: HP 10: rolls at -10, -15, ..., -45; dead at -50."""
    p = policy("proportional_death")
    assert p.death_checks(-45, 10, 0) == ([1, 2, 3, 4, 5, 6, 7, 8], False)
    assert p.death_checks(-44, 10, 0)[0] == [1, 2, 3, 4, 5, 6, 7]
    assert p.death_checks(-50, 10, 8) == ([], True)


def test_e16_human_cutting_12_to_the_arm() -> None:
    """E-16 / V-11 / V-12: arm cripples over 5, amputates over 10 on a failed HT roll, outright
    only over 20; HP actually removed = floor(5) + 1 = 6 (A-33)."""
    got = policy("hit_locations", "crippled_limbs", "amputation").maim(12, ARM, 10, "cut")
    assert got.crippled and got.severing == "roll" and got.taken == 6
    assert policy("hit_locations", "crippled_limbs", "amputation").maim(21, ARM, 10, "cut").severing == "automatic"


def test_e16_human_shock_of_that_blow() -> None:
    """E-16 / V-11 / V-17: shock = 2 x 6 = 12: > 5 stunned; > 10 a HT roll against KO; <= 20 not outright."""
    p = policy(*SHOCK, "crippled_limbs", "amputation")
    maimed = p.maim(12, ARM, 10, "cut")
    got = p.shock(wound(int(maimed.taken)), 10, where=ARM, maiming=maimed)
    assert got.points == 12 and got.stun == "stunned" and got.knockout == "roll"


def test_e16_human_hand_thresholds() -> None:
    """E-16: hand crippled at 4 (> 10/3), amputation roll at 7 (> 20/3), outright at 14 (> 40/3)."""
    p = policy("hit_locations", "crippled_limbs", "amputation")
    assert not p.maim(3, HAND, 10, "cut").crippled and p.maim(4, HAND, 10, "cut").crippled
    assert [p.maim(n, HAND, 10, "cut").severing for n in (6, 7, 13, 14)] == ["none", "roll", "roll", "automatic"]


# ---------------------------------------------------------------------------------------------- E-19


@pytest.mark.parametrize("penetrating,damage_type,where,before,after", [
    (4, "cr", None, 4, 1),  # punch 5 - DR 1 = 4; x1; - T 3 -> 1
    (4, "imp", VITALS, 12, 9),  # impaling thrust 5 - DR 1 = 4; vitals x3 = 12; - 3 -> 9
    (8, "cut", None, 12, 9),  # cutting 9 - DR 1 = 8; x1.5 = 12; - 3 -> 9
    (2, "cut", None, 3, 1),  # cutting 3 - DR 1 = 2; x1.5 = 3; T absorbs only 2 -> 1
])
def test_e19_razk_toughness(penetrating: int, damage_type: str, where: Location | None, before: int,
                            after: int) -> None:
    """E-19 / V-63: Razk, ST 15 -> T floor(15/5) = 3, taken after the multipliers, never more than the basic hits."""
    got = policy("new_toughness").injury(penetrating, damage_type, where=where, st=15)
    assert (got.before_toughness, got.hp) == (before, after)


def test_e19_st16_punches() -> None:
    """E-19 / V-63 / V-64: ST 16 -> T 3, no DR: punch 5 -> 2, punch 3 -> 0; a hand has T
    floor(3/2) = 1 (A-53), so punch 3 there -> 2."""
    assert policy("new_toughness").injury(5, "cr", st=16).hp == 2
    assert policy("new_toughness").injury(3, "cr", st=16).hp == 0
    assert policy("new_toughness", "location_toughness").injury(3, "cr", st=16, where=HAND).hp == 2


@pytest.mark.parametrize("rolled,bonus", [(8, 3), (3, 1), (12, 4)])
def test_e19_aoa_plus_33_percent(rolled: int, bonus: int) -> None:
    """E-19 / V-02 / R-09: 8 -> ceil(2.64) = 3 (11); 3 -> ceil(0.99) = 1 (4); 12 -> ceil(3.96) = 4 (16)."""
    mod = policy("aoa_percent_damage").aoa_strong_bonus(rolled, dice=2)
    assert (mod.value, mod.rule) == (bonus, "V-02")


# ---------------------------------------------------------------------------------------------- E-20


@pytest.mark.parametrize("st,text", [(1, "1d-5"), (14, "2d-2"), (15, "1d+2"), (24, "3d-2"), (29, "2d+3"),
                                     (47, "5d-1"), (72, "7d+1"), (122, "12d+1")])
def test_e20_new_thrust(st: int, text: str) -> None:
    """E-20 / V-66: e.g. 47: n 4, r 7 -> 5d-1; 122: n 12, r 2 -> 12d+1."""
    assert policy("new_st_damage").thrust(st).text() == text


@pytest.mark.parametrize("st,text", [(10, "1d+2"), (20, "3d"), (11, "1d+2")])
def test_e20_new_swing(st: int, text: str) -> None:
    """E-20 / V-67 / A-55: ST 10 -> thrust of 15 = 1d+2; 20 -> 30 = 3d; 11 -> floor(16.5) = 16 = 1d+2."""
    assert policy("new_st_damage", "new_swing_damage").swing(st).text() == text


def test_e20_st_1000_with_a_one_pound_baton() -> None:
    """E-20 / V-67: thrust 100d; swing = lower of 150d (avg 525) and 100d + sqrt(1)d (avg 353.5) = 101d."""
    p = policy("new_st_damage", "new_swing_damage")
    assert p.thrust(1000).text() == "100d" and p.swing(1000, weapon_lb=1).text() == "101d"


BLOW = ("blowthrough", "blowthrough_improved", "blowthrough_modifiers")


@pytest.mark.parametrize("where,projectile,cap", [
    ("torso", Projectile("imp"), 10), ("vitals", Projectile("imp"), 30), ("face", Projectile("imp"), 30),
    ("right arm", Projectile("imp"), 5), ("hand", Projectile("imp"), Fraction(10, 3)), ("skull", Projectile("imp"), None),
    ("torso", Projectile("burn", beam=True), 20), ("vitals", Projectile("burn", beam=True), 60),
    ("torso", Projectile("pi+", large_calibre=True, hollow_point=True), Fraction(45, 2)),
])
def test_e20_blowthrough_caps_for_a_human(where: str, projectile: Projectile, cap: Fraction | int | None) -> None:
    """E-20 / V-06 / V-07: 10 x LS 1; vitals/head x3, limb x1/2, hand x1/3, brain none, beam x2,
    .45 hollow-point x1.5 x1.5 = 22.5."""
    assert policy(*BLOW).blowthrough_cap(projectile, 10, where=location("humanoid", where)) == cap


def test_e20_hollow_point_cap_applies_at_most_22() -> None:
    """E-20 / A-30: 22.5 is compared exactly and floored when applied: 23 -> 22, 22 -> 22."""
    assert capped_injury(23, Fraction(45, 2)) == 22 and capped_injury(22, Fraction(45, 2)) == 22


def test_e20_grog_torso_cap_20_improved_24_base() -> None:
    """E-20 / V-05 / V-06: Grog, LS 2, racial HT 12: improved 10 x 2 = 20; base 12 x 2 = 24 (A-27)."""
    grog = Scale(linear_scale=Fraction(2), base_hp=scaled_base_hp(12, Fraction(2)))
    assert policy("blowthrough", "blowthrough_improved").blowthrough_cap(Projectile("imp"), 30, grog) == 20
    assert policy("blowthrough").blowthrough_cap(Projectile("imp"), 30, grog) == 24


def test_e20_impaling_14_to_a_human_torso_is_capped_to_10() -> None:
    """E-20: thrust 7 penetrating impaling x2 = 14 injury; torso cap 10 -> 10."""
    p = policy(*BLOW)
    hp = p.injury(7, "imp").hp
    assert hp == 14 and capped_injury(hp, p.blowthrough_cap(Projectile("imp"), 10)) == 10


def test_e20_low_st_thrust_is_a_fraction_of_st_10() -> None:
    """V-66 Low ST / V-03: ST 2 -> 1d / 5 (the ST 10 thrust 1d, x 2/10)."""
    roll = policy("new_st_damage", "tiny_damage").thrust(2)
    assert roll == damage_tables.DamageRoll(1, 0, Fraction(1, 5)) and roll.text() == "(1d) x 1/5"
