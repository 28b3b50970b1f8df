"""The option combinations the catalogue calls out: R-08 (Knockdown V-10 with Stun from
shock V-19), R-09 (V-02 instead of G-22's bonus), V-53 against V-54 on the same
fatigue, V-62 (both monster rules), V-68 (Toughness with the New ST table)."""

from __future__ import annotations

import pytest

from combat_server.rules.gurps.gulliver.fatigue import st_left
from combat_server.rules.gurps.gulliver.locations import location
from combat_server.rules.gurps.gulliver.size import Scale

from tests.gurps.gulliver.policies import OFF, policy, wound

ARM = location("humanoid", "right arm")
R08 = ("damage_shock", "knockdown", "shock_stun")


@pytest.mark.parametrize("outcome,margin", [("failure", -1), ("failure", -4), ("failure", -6),
                                            ("critical failure", -2)])
def test_r08_a_failed_major_wound_roll_only_knocks_down(outcome: str, margin: int) -> None:
    """R-08: with V-10 and V-19 on, any failed major-wound roll knocks down only (no stun, no
    knockout from the roll); G-46 alone would stun, or knock out at 5+."""
    assert policy(*R08).major_wound_effect(outcome, margin) == "knockdown"
    assert OFF.major_wound_effect(outcome, margin) in ("stunned_knockdown", "unconscious")


def test_r08_success_does_nothing() -> None:
    assert policy(*R08).major_wound_effect("success", 2) == "none"


@pytest.mark.parametrize("alone", [("knockdown",), ("damage_shock", "shock_stun")])
def test_r08_needs_both_options(alone: tuple[str, ...]) -> None:
    """R-08 applies only with both on: V-10 or V-19 alone keeps G-46's stun and knockdown (fail by 2)."""
    assert policy(*alone).major_wound_effect("failure", -2) == "stunned_knockdown"


def test_r08_stun_comes_from_shock_alone() -> None:
    """R-08: HP 10 takes 6 to the arm: V-10 calls for the knockdown roll, V-19 stuns from shock
    6 > 5 on its own, so a failed roll adds the knockdown and no second stun."""
    p = policy("hit_locations", *R08)
    assert p.major_wound_roll(6, 10, ARM) == "V-10"
    assert p.shock(wound(6), 10, where=ARM).stun == "stunned"
    assert p.major_wound_effect("failure", -3) == "knockdown"


def test_r09_the_percentage_replaces_the_flat_bonus() -> None:
    """R-09: 4 dice rolling 14: G-22 gives +4 (1 per die); V-02 gives ceil(4.62) = +5, never both."""
    assert OFF.aoa_strong_bonus(14, dice=4).value == 4
    mod = policy("aoa_percent_damage").aoa_strong_bonus(14, dice=4)
    assert (mod.value, mod.rule) == (5, "V-02")


def test_v53_against_v54_on_the_same_fatigue() -> None:
    """V-53 vs V-54, ST 20 and HT 12. Fatigue 4: V-53 halves (4 <= floor(20/3) = 6), V-54 does not
    (4 > 3). Fatigue 2: V-53 collapses (2 <= 20/10), V-54 only halves (2 > 1)."""
    st_based, ht_based = policy("fatigue_on_st"), policy("fatigue_on_ht")
    assert st_based.fatigue_state(4, 20, st=20).halved and not ht_based.fatigue_state(4, 12, st=20).halved
    assert st_based.fatigue_state(2, 20, st=20).collapse == "collapsed"
    assert ht_based.fatigue_state(2, 12, st=20).collapse == "none" and ht_based.fatigue_state(2, 12).halved


def test_v53_against_v54_cost_of_a_point() -> None:
    """V-53: 1 point x ST 20/10 = 2 (on a HT roll failed by 2); V-54: a flat 1, no roll."""
    assert policy("fatigue_on_st").fatigue_cost(1, st=20, ht_success=False, margin=-2) == 2
    assert policy("fatigue_on_ht").fatigue_cost(1, st=20, ht_success=False, margin=-2) == 1


def test_v53_st_falls_with_fatigue() -> None:
    """V-53: Fatigue 24 dropping to 12 halves Combat ST 20 -> 10 and Load ST 40 -> 20."""
    assert (st_left(20, 12, 24), st_left(40, 12, 24)) == (10, 20)


def test_v62_combines_v60_and_v61_for_a_monster() -> None:
    """V-62 alone acts as V-60 and V-61 together: IQ 4 monster of HP 20 gets +6 to stay conscious and
    its first death check at -20 x 4/10 = -8."""
    p = policy("monster_combined")
    ogre = Scale(non_pc_race=True)
    assert [m.value for m in p.consciousness_mods(iq=4, scale=ogre)] == [6]
    assert p.death_checks(-8, 20, 0, iq=4, scale=ogre) == ([1], False)
    assert p.death_checks(-7, 20, 0, iq=4, scale=ogre) == ([], False)


def test_v62_with_v15_gives_the_dragon_its_reduced_zone() -> None:
    """V-62 with V-15 is E-15's IQ 5 dragon: rolls from -60 every -30, dead at -300."""
    p = policy("monster_combined", "proportional_death")
    dragon = Scale(non_pc_race=True)
    assert p.death_checks(-90, 120, 0, iq=5, scale=dragon) == ([1, 2], False)
    assert p.death_checks(-300, 120, 8, iq=5, scale=dragon)[1]


def test_v68_restores_the_balance_for_a_fireball() -> None:
    """V-68: ST 15 (T 3) hit by a 3d fireball rolling 10 (burn, x1): with V-63 and V-66 only, 10 - 3 = 7;
    with V-68 the +3 bonus brings the roll to 13 and the injury back to 13 - 3 = 10."""
    base = policy("new_toughness", "new_st_damage")
    assert base.injury(10, "burn", st=15).hp == 7
    on = policy("new_toughness", "new_st_damage", "toughness_st_balance")
    bonus = on.non_st_bonus(3, st_powered=False)
    assert bonus is not None and on.injury(10 + bonus.value, "burn", st=15).hp == 10

