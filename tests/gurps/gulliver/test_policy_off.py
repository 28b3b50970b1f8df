"""With every GULLIVER option off, the policy returns exactly what the gurps modules
compute today (issue #11: stored fights must refold unchanged once the modules call
the policy). Each test sweeps one policy function against the gurps function it will
replace."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps import derived, injury as inj
from combat_server.rules.gurps.gulliver.blowthrough import Projectile
from combat_server.rules.gurps.gulliver.locations import location
from combat_server.rules.gurps.gulliver.light import Light
from combat_server.rules.gurps.gulliver.policy import Policy
from combat_server.rules.gurps.gulliver.size import Scale
from combat_server.rules.gurps.rolls import Mod
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Condition
from combat_server.rules.gurps.tables import DAMAGE_TYPES, damage_for_st

from tests.gurps.gulliver.policies import OFF, wound


def test_all_off_is_the_default_policy() -> None:
    """No options given = every switch off."""
    assert OFF == Policy()


def test_thrust_and_swing_are_the_g_table() -> None:
    """ST 1..120 (the table clamps at 100): the policy's rolls are damage_for_st's, unscaled."""
    for st in range(1, 121):
        thr, sw = damage_for_st(st)
        assert OFF.thrust(st).pair == thr and OFF.thrust(st).scale == 1
        assert OFF.swing(st, weapon_lb=3).pair == sw and OFF.swing(st).scale == 1


def test_st_for_damage_and_lifting_is_the_sheet_st() -> None:
    """V-01 off: the sheet's ST for blows and for lifting, whatever Combat/Load ST says."""
    giant = Scale(combat_st=40, load_st=80)
    assert OFF.damage_st(12, giant) == 12 and OFF.lift_st(12, giant) == 12


def test_rolled_damage_is_the_total_at_least_zero() -> None:
    """G-42: basic damage = max(0, rolled total), as attacks.roll_damage."""
    for rolled in range(-6, 40):
        for hp_max in (1, 5, 10, 30):
            assert OFF.blow_damage(rolled, OFF.thrust(10), hp_max) == max(0, rolled)


def test_aoa_strong_is_plus_two_or_one_per_die() -> None:
    """G-22: the same Mod attacks.roll_damage adds (value, reason and rule)."""
    for dice in range(0, 8):
        assert OFF.aoa_strong_bonus(rolled=9, dice=dice) == Mod(max(2, dice),
                                                                "All-Out Attack (Strong): +2 or +1 per die", "G-22")


@pytest.mark.parametrize("basic_set", [False, True])
def test_injury_is_g42(basic_set: bool) -> None:
    """G-42 / A-20: injury.injury for every damage type and penetrating damage 0..30; no Toughness."""
    for damage_type in DAMAGE_TYPES:
        for pen in range(0, 31):
            got = OFF.injury(pen, damage_type, basic_set=basic_set, st=20)
            assert got.hp == got.before_toughness == inj.injury(pen, damage_type, basic_set)
            assert got.multiplier == inj.wound_multiplier(damage_type, basic_set) and got.absorbed == 0


def test_no_blowthrough_cap() -> None:
    """V-05 off: no wound is capped."""
    assert OFF.blowthrough_cap(Projectile("imp"), 10) is None


def test_shock_is_g47() -> None:
    """G-47 / A-25: the penalty of each injury is injury.shock's; High Pain Threshold removes it."""
    for hp_max in range(1, 61):
        for hp in range(0, 41):
            got = OFF.shock(wound(hp), hp_max)
            assert got.penalty == inj.shock(hp, hp_max)
            assert (got.stun, got.knockout, got.limb.stunned) == ("none", "none", False)
            assert OFF.shock(wound(hp), hp_max, high_pain_threshold=True).penalty == 0


def test_pending_shock_is_summed_and_capped_at_four() -> None:
    """G-47 / A-25: min(4, pending + new), as attacks.apply_injury; it ends after the turn."""
    for pending in range(0, 5):
        for added in range(0, 8):
            assert OFF.pending_shock(pending, added) == min(inj.SHOCK_CAP, pending + added)
    assert OFF.shock_after_turn(3, success=True, margin=1) == 0
    assert OFF.shock_roll_mods(will=14, iq=10) == []


def test_major_wound_roll_is_g46_on_the_torso() -> None:
    """G-46: a roll for a single injury over HPmax/2 (injury.major_wound)."""
    for hp_max in range(1, 41):
        for hp in range(0, 41):
            due = OFF.major_wound_roll(hp, hp_max)
            assert (due == "G-46") is inj.major_wound(hp, hp_max) and due in ("G-46", None)


@pytest.mark.parametrize("outcome,margin,effect", [
    ("success", 0, "none"), ("critical success", 5, "none"), ("failure", -1, "stunned_knockdown"),
    ("failure", -4, "stunned_knockdown"), ("failure", -5, "unconscious"), ("critical failure", -2, "unconscious"),
])
def test_major_wound_effect_is_checks_major_wound(outcome: str, margin: int, effect: str) -> None:
    """G-46 / A-24, as checks._major_wound: by 1-4 stunned and down, by 5+ or a critical failure out."""
    assert OFF.major_wound_effect(outcome, margin) == effect


def test_death_checks_are_g45() -> None:
    """G-45 / A-23: injury.death_thresholds for HP 1..30, every HP down to -6 x HPmax, any rolls made."""
    for hp_max in range(1, 31):
        for new_hp in range(-6 * hp_max, 1):
            for already in range(0, 5):
                assert OFF.death_checks(new_hp, hp_max, already) == inj.death_thresholds(new_hp, hp_max, already)
    assert OFF.death_rule() == "G-45" and OFF.consciousness_rule() == "G-44"


def test_consciousness_roll_every_turn_at_zero_hp() -> None:
    """G-44: a roll each turn at HP <= 0, no modifier."""
    assert OFF.consciousness_roll_due(0) and OFF.consciousness_roll_due(-3, passed_before=True)
    assert not OFF.consciousness_roll_due(1)
    assert OFF.consciousness_mods(iq=4) == []


def test_slowdown_is_g43_reeling() -> None:
    """G-43: derived.reeling (HP < HPmax/3), cited as G-43."""
    for hp_max in range(1, 31):
        for hp in range(-5, hp_max + 1):
            sheet = Sheet(hp=hp_max)
            assert OFF.slowed(hp, hp_max) == (derived.reeling(sheet, Condition(hp=hp, fp=10)), "G-43")


def test_fatigue_is_g51() -> None:
    """G-51 / R-04: FPmax, halved below FPmax/3 (derived.tired), Will roll at 0, out at -FPmax;
    a point costs a point; no DX/IQ penalty, no movement or effort fatigue."""
    for fp_max in range(1, 21):
        assert OFF.fatigue_max(fp_max, st=15, ht=12) == fp_max
        for fp in range(-fp_max - 2, fp_max + 1):
            state = OFF.fatigue_state(fp, fp_max)
            assert state.halved == derived.tired(Sheet(fp=fp_max), Condition(hp=10, fp=fp))
            assert state.collapse == ("will_roll" if fp <= 0 else "none")
            assert state.unconscious == (fp <= -fp_max)
            assert OFF.fatigue_dx_iq_penalty(fp, fp_max) == 0
    assert OFF.fatigue_cost(3, st=20, encumbrance=4, heat="very_hot") == 3
    assert OFF.movement_pace(5, 5) is None and OFF.extra_effort_cost() == 0


def test_spending_fatigue_is_g51_a26() -> None:
    """G-51 / A-26: the policy's spending equals injury.spend_fatigue point by point (HP for points
    lost at FP <= 0, never below -FPmax, the rest HP 1:1), and ST halves (rounded up) when tired."""
    for fp_max in range(1, 13):
        for fp in range(-fp_max - 3, fp_max + 1):
            for points in range(0, 2 * fp_max + 4):
                assert OFF.spend_fatigue(fp, fp_max, points) == inj.spend_fatigue(fp, fp_max, points)
            sheet, cond = Sheet(st=13, fp=fp_max), Condition(hp=10, fp=fp)
            assert OFF.fatigued_st(13, fp, fp_max) == (7 if derived.tired(sheet, cond) else 13)


def test_nothing_is_crippled_and_no_heart_roll() -> None:
    """V-11, V-44 off: a limb takes the whole blow, the heart calls for nothing."""
    arm = location("humanoid", "right arm")
    assert OFF.maim(12, arm, 10, "cut").taken == 12 and not OFF.maim(12, arm, 10, "cut").crippled
    assert OFF.heart_roll(30, 10, location("humanoid", "vitals")) is None


def test_no_toughness_no_light_effect_no_finishing_blow() -> None:
    """V-63, V-46, V-59, V-04, V-68 off: T 0, light changes nothing, no maximum damage, x1, no bonus."""
    assert OFF.toughness(30) == 0
    assert OFF.light("dark") == Light("dark")
    assert OFF.finishing_damage(3, 2) is None
    assert OFF.split_factor(Scale(other_half_hp=12, other_half_locations=("torso",)), 24) == Fraction(1)
    assert OFF.non_st_bonus(3, st_powered=False) is None
