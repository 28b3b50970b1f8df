"""One blow through the whole GULLIVER pipeline (blow.resolve): with every option off it is
today's attacks.roll_damage + apply_injury; with options on, several of them compose on
one blow in the catalogue's order, each step and effect citing its rule."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps import injury as inj
from combat_server.rules.gurps.gulliver.blow import Hit, Target, resolve
from combat_server.rules.gurps.gulliver.damage_tables import DamageRoll
from combat_server.rules.gurps.gulliver.size import Scale

from tests.gurps.gulliver.policies import OFF, policy

TWO_DICE = DamageRoll(2, 0)


@pytest.mark.parametrize("damage_type", ["cr", "cut", "imp", "pi-", "burn"])
def test_all_off_is_todays_damage_and_injury(damage_type: str) -> None:
    """Off: torso, DR, G-42 injury, G-47 shock, G-46 major wound, G-45 death checks, as
    attacks.roll_damage and apply_injury compute them, for rolled 0..20, DR 0..4, HP 4..24."""
    for hp_max in (4, 10, 24):
        for rolled in range(0, 21):
            for dr in range(0, 5):
                got = resolve(OFF, Hit(rolled, TWO_DICE, damage_type), Target(hp_max=hp_max, hp=hp_max // 2, dr=dr))
                hp = inj.injury(inj.penetrating(rolled, dr), damage_type)
                assert got.location.name == "torso" and got.hp_lost == hp
                assert got.shock.penalty == inj.shock(hp, hp_max)
                assert any(r.what == "major wound" for r in got.rolls) is inj.major_wound(hp, hp_max)
                crossed, dead = inj.death_thresholds(hp_max // 2 - hp, hp_max, 0)
                assert list(got.death_checks) == crossed and any(e.what == "dead" for e in got.effects) is dead


def test_all_off_half_damage_range_halves_rounding_down() -> None:
    """A-17, as attacks.roll_damage: at 1/2D a rolled 9 does floor(9/2) = 4."""
    got = resolve(OFF, Hit(9, TWO_DICE, "imp", half_damage=True), Target(hp_max=10, hp=10))
    assert got.basic == 4 and got.hp_lost == 8 and got.steps[2].rule == "A-17"


def test_all_off_aoa_strong_adds_g22_bonus() -> None:
    """G-22: rolled 7 on 3 dice, Strong: +3 (1 per die) -> 10."""
    got = resolve(OFF, Hit(7, DamageRoll(3, 0), "cr", aoa_strong=True), Target(hp_max=10, hp=10))
    assert got.basic == 10 and got.mods[0].rule == "G-22"


def test_e16_a_cut_to_the_arm_through_every_step() -> None:
    """E-16: penetrating 8 cutting x1.5 = 12 to a HP 10 arm: crippled (> 5), a HT roll against
    amputation (> 10, not > 20), 6 HP taken; shock 2 x 6 = 12: stunned (> 5), a knockout roll (> 10)."""
    p = policy("hit_locations", "crippled_limbs", "amputation", "damage_shock", "shock_points", "shock_stun",
               "shock_knockout")
    got = resolve(p, Hit(8, TWO_DICE, "cut", aimed="right arm"), Target(hp_max=10, hp=10))
    assert got.injury.hp == 12 and got.hp_lost == 6 and got.shock.points == 12
    assert [(r.what, r.rule) for r in got.rolls] == [("right arm severed", "V-12"), ("knockout", "V-22")]
    assert [(e.what, e.rule) for e in got.effects] == [("right arm crippled", "V-11"), ("stunned", "V-19")]
    assert [s.rule for s in got.steps] == ["A-63", "G-42", "G-42", "G-42", "V-11"]


def test_e15_a_brain_hit_on_the_dragon() -> None:
    """E-15 / V-20: rolled 11 crushing at the skull (natural DR 2): 9 x4 = 36; shock x2 = 72 > 60:
    stunned; 72 <= 120: no knockout roll; the dragon's Will 12 vs IQ 5 would add +7 to shock rolls."""
    p = policy("hit_locations", "damage_shock", "brain_shock", "shock_stun", "shock_knockout")
    got = resolve(p, Hit(11, DamageRoll(4, 0), "cr", aimed="skull"), Target(hp_max=120, hp=120, iq=5, will=12))
    assert (got.dr, got.injury.hp, got.shock.points) == (2, 36, 72)
    assert [e.what for e in got.effects] == ["stunned"] and got.rolls == ()


def test_e19_razk_vitals_through_the_pipeline() -> None:
    """E-19 / V-63: impaling 5 to Razk's vitals (DR 1, ST 15): 4 x3 = 12, less T 3 -> 9."""
    got = resolve(policy("hit_locations", "new_toughness"), Hit(5, DamageRoll(1, 0), "imp", aimed="vitals"),
                  Target(hp_max=15, hp=15, st=15, dr=1))
    assert got.hp_lost == 9 and [s.rule for s in got.steps][-1] == "V-63"


def test_e20_hollow_point_capped_at_22() -> None:
    """E-20 / V-06 / V-07 / A-30: .45 hollow-point (pi+, x1) to a human torso: 20 stays 20; 25 is
    capped at floor(22.5) = 22, the step citing V-07."""
    p = policy("blowthrough", "blowthrough_improved", "blowthrough_modifiers")
    bullet = dict(large_calibre=True, hollow_point=True)
    assert resolve(p, Hit(20, DamageRoll(3, 0), "pi+", **bullet), Target(hp_max=10, hp=10)).hp_lost == 20
    got = resolve(p, Hit(25, DamageRoll(3, 0), "pi+", **bullet), Target(hp_max=10, hp=10))
    assert got.hp_lost == 22 and got.steps[-1].rule == "V-07" and got.steps[-1].reason == "blowthrough cap 45/2"


def test_v04_a_centaur_hit_on_its_human_half() -> None:
    """V-04: horse half 24 (base), human arms 12: a 4-point crushing blow to an arm costs 8 of the 24."""
    centaur = Scale(other_half_hp=12, other_half_locations=("right arm", "left arm"))
    got = resolve(policy("hit_locations", "split_hp"), Hit(4, TWO_DICE, "cr", aimed="left arm"),
                  Target(hp_max=24, hp=24, scale=centaur))
    assert got.hp_lost == 8 and got.steps[-1].rule == "V-04"


def test_v03_a_rat_takes_fractional_damage_and_dies_by_half_points() -> None:
    """V-03 / V-15: a ST 5 rat bites (the ST 10 thrust 1d-2 x 1/2) another rat of HP 1 at 0 HP: rolled
    3 -> 3/2 kept (HPmax < 10); a major wound (3/2 > 1/2); 0 - 3/2 crosses -1 and -1.5: two death checks."""
    p = policy("tiny_damage", "proportional_death")
    bite = p.thrust(5)
    got = resolve(p, Hit(3, bite, "cr"), Target(hp_max=1, hp=0))
    assert got.hp_lost == Fraction(3, 2) and got.death_checks == (1, 2)
    assert [r.rule for r in got.rolls] == ["G-46", "V-15 (in place of G-45)", "V-15 (in place of G-45)"]


def test_v44_a_spear_in_the_heart() -> None:
    """V-44: impaling 10 to the vitals of HP 10: x3 = 30 >= 3 x HP: a heart-attack roll at -8, and
    G-46's major-wound roll (the vitals are torso)."""
    got = resolve(policy("hit_locations", "heart_attack"), Hit(10, TWO_DICE, "imp", aimed="vitals"),
                  Target(hp_max=10, hp=10))
    heart = next(r for r in got.rolls if r.what == "heart attack")
    assert [m.value for m in heart.modifiers] == [-8] and got.rolls[0].what == "major wound"


def test_v59_a_twist_past_the_skull_ignores_dr() -> None:
    """V-59: a follow-up twist on a helpless foe with DR 6: off DR counts (10 - 6 - 2 = 2 x4 = 8);
    on it does not (10 x4 = 40), the step citing V-59."""
    twist = Hit(10, TWO_DICE, "cr", aimed="skull", past_skull_dr=True)
    assert resolve(policy("hit_locations"), twist, Target(hp_max=20, hp=0, dr=6)).injury.hp == 8
    got = resolve(policy("hit_locations", "finishing_blow"), twist, Target(hp_max=20, hp=0, dr=6))
    assert got.injury.hp == 40 and got.steps[2].rule == "V-59"


def test_r08_a_heavy_blow_with_knockdown_and_shock_stun() -> None:
    """R-08 / V-10 / V-19: 7 crushing to the torso of HP 10: the roll due is V-10's knockdown
    (G-46's stun comes from shock instead): stunned outright by shock 7 > 5."""
    got = resolve(policy("damage_shock", "knockdown", "shock_stun"), Hit(7, TWO_DICE, "cr"), Target(hp_max=10, hp=10))
    assert [(r.what, r.rule) for r in got.rolls] == [("knockdown", "V-10 (in place of G-46)")]
    assert [e.what for e in got.effects] == ["stunned"]


def test_v21_a_stunned_hand_may_keep_its_grip() -> None:
    """V-21 / A-39 / R-11: HP 20, 7 crushing to the hand (mark 20/3): 7 - 20/3 = 1/3 < 2: the hand is
    stunned and a grip roll (with Will 13 vs IQ 10: +3) may keep the weapon."""
    p = policy("hit_locations", "damage_shock", "limb_stun")
    got = resolve(p, Hit(7, TWO_DICE, "cr", aimed="hand"), Target(hp_max=20, hp=20, will=13))
    grip = next(r for r in got.rolls if r.what == "grip (hand)")
    assert grip.rule == "R-11" and [(m.value, m.rule) for m in grip.modifiers] == [(3, "V-08")]
    assert ("hand stunned: drops what it holds", "V-21") in [(e.what, e.rule) for e in got.effects]


@pytest.mark.parametrize("rolled,damage_type,rolls,effects", [
    (8, "cut", ["beheaded"], ["paralysed"]),  # 8 x2 = 16 > 10: a HT roll against beheading
    (11, "cut", [], ["paralysed", "beheaded", "dead"]),  # 22 > 20: outright
    (14, "cr", [], ["paralysed", "neck broken", "dead"]),  # 14 x1.5 = 21 > 20: a broken neck
    (11, "imp", [], ["paralysed"]),  # impaling only cripples
])
def test_v13_neck_blows(rolled: int, damage_type: str, rolls: list[str], effects: list[str]) -> None:
    """V-13 / A-35, HP 10 neck (cut x2, cr x1.5): past 10 a roll, past 20 outright; fatal either way."""
    p = policy("hit_locations", "crippled_limbs", "neck_injury")
    got = resolve(p, Hit(rolled, TWO_DICE, damage_type, aimed="neck"), Target(hp_max=10, hp=10))
    assert [r.what for r in got.rolls if r.rule == "V-13"] == rolls
    assert [e.what for e in got.effects] == effects
