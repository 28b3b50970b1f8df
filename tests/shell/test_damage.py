"""SHELL damage (S-32 ... S-38, S-45) with E-10 and E-11 as hand-checked vectors."""

from __future__ import annotations

import pytest

from combat_server.rules.shell import damage as dmg
from combat_server.rules.shell.damage import Wounds, blow, take


def test_e10_arm_hit_cripples_and_counts_only_the_threshold() -> None:
    """E-10: 7 + 0 + 1 + 2 = 10, chain DR 4 -> 6 to the arm of HP 10: crippled (>= 4), HT+2 roll
    (one blow), not yet permanent (< 8), stunned (6 >= 5); the total counts ceil(4) = 4."""
    b = blow(10, "right arm", "cut", armour_dr=4)
    assert b.damage == 6
    t = take(Wounds(), b, hp=10)
    assert t.stunned
    assert t.crippled == (dmg.Crippling("right arm", permanent=False, ht_roll=True, wp_roll=False),)
    assert t.wounds.at("right arm") == 6
    assert dmg.total(t.wounds, 10) == 4 and t.counted == 4
    assert not t.condition.unconscious


def test_e10_later_hit_makes_the_arm_permanent_without_ht_roll() -> None:
    """E-10: a later 3 to the same arm: 9 >= 8 -> permanent, WP roll, no HT roll; the total stays 4."""
    first = take(Wounds(), blow(6, "right arm", "cut"), hp=10)
    second = take(first.wounds, blow(3, "right arm", "cut"), hp=10)
    assert second.crippled == (dmg.Crippling("right arm", permanent=True, ht_roll=False, wp_roll=True),)
    assert dmg.total(second.wounds, 10) == 4 and second.counted == 0


def test_e10_same_damage_to_the_torso() -> None:
    """E-10: 6 to the torso of HP 10: total 6, stunned (>= 5), nothing crippled."""
    t = take(Wounds(), blow(6, "torso", "cut"), hp=10)
    assert (dmg.total(t.wounds, 10), t.stunned, t.crippled) == (6, True, ())


def test_s37_crippled_limb_already_crippled_is_not_reported_again() -> None:
    """S-37: a crippled arm hit again below 2x the threshold triggers nothing new."""
    first = take(Wounds(), blow(4, "left arm", "cut"), hp=10)
    again = take(first.wounds, blow(1, "left arm", "cut"), hp=10)
    assert again.crippled == ()


def test_s37_threshold_reached_over_several_blows_needs_no_ht_roll() -> None:
    """S-37: the HT+2 roll is only for a threshold dealt in one blow (2 + 2 on HP 10 arm)."""
    first = take(Wounds(), blow(2, "left leg", "cut"), hp=10)
    second = take(first.wounds, blow(2, "left leg", "cut"), hp=10)
    assert second.crippled == (dmg.Crippling("left leg", permanent=False, ht_roll=False, wp_roll=False),)
    assert second.stunned  # S-37 (1): crippling stuns


def test_e11a_crushing_head_with_skull_dr_and_x4() -> None:
    """E-11 a): 5 crushing to the head, helmet DR 2 + skull 2 -> 1, x4 = 4; HP 12: 4 >= 12/3 -> stunned
    and a WP roll; total 4."""
    b = blow(5, "head", "cr", armour_dr=2)
    assert b.damage == 4
    t = take(Wounds(), b, hp=12)
    assert t.stunned and t.wp_roll and dmg.total(t.wounds, 12) == 4


def test_e11a_cutting_head_blow_of_four_does_not_stun() -> None:
    """E-11 a): a cutting blow for the same 4 does not stun (threshold 6) and calls no WP roll."""
    t = take(Wounds(), blow(5, "head", "cut", armour_dr=2), hp=12)
    assert not t.stunned and not t.wp_roll


def test_a76_option_wp_roll_for_any_damage_type() -> None:
    """A-76 (cfg): with the option on, a stunning cutting blow to the groin calls a WP roll too."""
    b = blow(6, "groin", "cut")
    assert not take(Wounds(), b, hp=12).wp_roll
    assert take(Wounds(), b, hp=12, wp_roll_any_type=True).wp_roll


def test_e11b_impaling_heart_times_one_and_a_half() -> None:
    """E-11 b): impaling to the heart, raw 8, DR 2 -> 6 x 1.5 = 9; HP 12: stunned, total 9."""
    t = take(Wounds(), blow(8, "heart", "imp", armour_dr=2), hp=12)
    assert t.counted == 9 and t.stunned and not t.condition.unconscious


def test_e11c_impaling_a_limb_is_halved() -> None:
    """E-11 c): the same impaling blow to the arm: 6 / 2 = 3 < 4.8, not crippled; total 3."""
    t = take(Wounds(), blow(8, "left arm", "imp", armour_dr=2), hp=12)
    assert (t.counted, t.crippled) == (3, ())


def test_e11d_armour_piercing_halves_armour_dr() -> None:
    """E-11 d): armour-piercing against plate DR 7 -> DR 3; raw 8 -> 5."""
    assert blow(8, "torso", "cut", armour_dr=7, armour_piercing=True).damage == 5


def test_a75_natural_dr_is_not_halved_by_armour_piercing() -> None:
    """A-75: armour-piercing halves armour DR only: skull 2 + natural 1 + helmet 4 -> 2 + 1 + 2."""
    assert blow(10, "head", "cut", armour_dr=4, natural_dr=1, armour_piercing=True).damage == (10 - 5) * 4


def test_e11e_dm_after_dr_floored() -> None:
    """E-11 e): DM 50%, DR 3, raw 9 -> 6 -> floor(6 x 0.5) = 3."""
    assert blow(9, "torso", "cut", natural_dr=3, dm=50).damage == 3


def test_a75_dm_before_the_type_multiplier() -> None:
    """A-75: DR, then DM (floor), then the impaling x1.5 (floor): 9 - 0 -> 6 (DM 33%) -> 9."""
    assert blow(9, "groin", "imp", dm=33).damage == 9


def test_a74_negative_damage_is_zero() -> None:
    """A-74: a roll of 1d-4 that comes out negative does 0."""
    b = blow(-2, "torso", "cr")
    assert b.damage == 0 and not take(Wounds(), b, hp=10).stunned


def test_e11f_non_lethal_counts_for_unconsciousness_not_death() -> None:
    """E-11 f): HP 12 with 10 lethal + 8 non-lethal: total 18 -> unconscious; lethal 10 < 24 -> alive;
    after the fight the stun damage clears -> total 10."""
    w = take(Wounds(), blow(10, "torso", "cut"), hp=12).wounds
    t = take(w, blow(8, "torso", "cr"), hp=12, non_lethal=True)
    assert dmg.total(t.wounds, 12) == 18 and t.condition == dmg.Condition(unconscious=True, dead=False)
    assert dmg.total(dmg.clear_stun_damage(t.wounds), 12) == 10


def test_s35_non_lethal_only_crushing_torso_or_head() -> None:
    """S-35: only crushing damage to the torso or head may be non-lethal."""
    with pytest.raises(ValueError):
        take(Wounds(), blow(5, "left arm", "cr"), hp=12, non_lethal=True)
    with pytest.raises(ValueError):
        take(Wounds(), blow(5, "torso", "cut"), hp=12, non_lethal=True)


def test_s32_unconscious_at_hp_dead_at_twice() -> None:
    """S-32: total >= HPmax unconscious; lethal >= 2 x HPmax dead."""
    w = take(Wounds(), blow(9, "torso", "cut"), hp=10).wounds
    assert not dmg.condition(w, 10).unconscious
    w = take(w, blow(1, "torso", "cut"), hp=10).wounds
    assert dmg.condition(w, 10) == dmg.Condition(True, False)
    w = take(w, blow(10, "torso", "cut"), hp=10).wounds
    assert dmg.condition(w, 10).dead


def test_s35_crushing_torso_stuns_at_a_third() -> None:
    """S-35: crushing to the torso stuns at HP/3 (4 of 12); cutting needs HP/2 (6)."""
    assert take(Wounds(), blow(4, "torso", "cr"), hp=12).stunned
    assert not take(Wounds(), blow(4, "torso", "cut"), hp=12).stunned
    assert not take(Wounds(), blow(4, "torso", "cr"), hp=12).wp_roll  # S-35: WP only for head and groin


def test_s37_neck_times_four() -> None:
    """S-37: all neck damage is quadrupled."""
    assert blow(3, "neck", "cut").damage == 12


def test_s37_a78_eye_excess_times_four() -> None:
    """S-37 / A-78: HP 10, eye threshold 1: 3 to the eye counts 1 + 4 x 2 = 9 and blinds it."""
    t = take(Wounds(), blow(3, "left eye", "cut"), hp=10)
    assert t.counted == 9 and t.crippled[0].location == "left eye"


def test_s37_hand_counts_at_most_twenty_percent() -> None:
    """S-37: HP 10: 5 to the hand cripples it (>= 2) and counts only ceil(2) = 2."""
    t = take(Wounds(), blow(5, "right hand", "cut"), hp=10)
    assert t.counted == 2
    assert [c.location for c in t.crippled] == ["right hand"]


def test_r14_hand_counted_damage_adds_to_the_arm() -> None:
    """R-14: arm damage = arm hits + the hand's counted damage: hand 5 (counts 2) + arm 2 = 4 -> arm crippled,
    and the whole limb adds at most ceil(4) = 4 to the total."""
    w = take(Wounds(), blow(5, "right hand", "cut"), hp=10).wounds
    t = take(w, blow(2, "right arm", "cut"), hp=10)
    assert [c.location for c in t.crippled] == ["right arm"]
    t = take(t.wounds, blow(6, "right hand", "cut"), hp=10)
    assert dmg.total(t.wounds, 10) == 4


def test_a78_fractional_threshold_compares_exactly() -> None:
    """A-78: HP 12 arm threshold 4.8: 4 does not cripple, 5 does; the total counts ceil(4.8) = 5."""
    assert take(Wounds(), blow(4, "left arm", "cut"), hp=12).crippled == ()
    t = take(Wounds(), blow(7, "left arm", "cut"), hp=12)
    assert t.crippled and t.counted == 5


def test_s38_area_damage_goes_to_the_torso() -> None:
    """S-38: area attacks do general (torso) damage, and torso armour protects against it."""
    assert dmg.AREA_LOCATION == "torso"


@pytest.mark.parametrize("raw,dtype,hp,breaks", [(13, "cut", 13, False), (14, "cut", 13, True),
                                                 (27, "imp", 13, False), (28, "imp", 13, True)])
def test_s45_r12_object_breaks_only_when_damage_exceeds_hp(raw: int, dtype: str, hp: int, breaks: bool) -> None:
    """S-45 / R-12: damage equal to the object's HP does nothing; impaling does half (27 -> 13, 28 -> 14)."""
    assert dmg.object_damage(raw, dtype, hp).breaks is breaks


def test_a81_object_dr_only_when_given() -> None:
    """A-81: an object's DR, if it has one, is taken off; nothing accumulates between hits."""
    assert dmg.object_damage(15, "cut", 13, object_dr=2).breaks is False
    assert dmg.object_damage(15, "cut", 13).breaks is True


def test_s37_permanent_exactly_at_twice_the_threshold() -> None:
    """S-37: HP 10 arm (threshold 4): 4 then 4 more reaches exactly 8 = 2x -> permanent."""
    first = take(Wounds(), blow(4, "left arm", "cut"), hp=10)
    second = take(first.wounds, blow(4, "left arm", "cut"), hp=10)
    assert second.crippled == (dmg.Crippling("left arm", permanent=True, ht_roll=False, wp_roll=True),)


def test_s37_single_blow_of_twice_the_threshold_is_permanent_without_ht_roll() -> None:
    """A-78: permanence is checked before the single-blow HT roll: 8 at once on an HP 10 arm."""
    t = take(Wounds(), blow(8, "left arm", "cut"), hp=10)
    assert t.crippled == (dmg.Crippling("left arm", permanent=True, ht_roll=False, wp_roll=True),)
