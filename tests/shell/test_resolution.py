"""SHELL attack resolution (S-25 ... S-31) and task rolls (S-01, S-02, S-10, S-12),
with E-08, E-09, E-12 and E-14 as hand-checked vectors."""

from __future__ import annotations

import pytest

from combat_server.rules.shell import resolution as res
from combat_server.rules.shell.resolution import AttackSituation, DefenceSituation, Mod, total
from combat_server.rules.shell.sheet import Spell, validate_sheet


def at(n: int) -> list[Mod]:
    return [Mod(n, "AT", "S-26")]


@pytest.mark.parametrize("roll,none,medium,buckler", [
    (9, "defended", "defended", "defended"), (6, "miss", "miss", "miss"), (10, "hit", "shield hit", "hit"),
    (11, "hit", "shield hit", "hit"), (12, "hit", "hit", "hit"), (2, "miss", "miss", "miss"),
    (20, "hit", "hit", "hit"),
])
def test_e08_s25_result_chart(roll: int, none: str, medium: str, buckler: str) -> None:
    """E-08: AT 5, DEF 3, R = 2d10 + 2 read without a shield, with a medium shield (PR 2), with a buckler (PR 0)."""
    dice = (roll // 2, roll - roll // 2) if roll > 2 else (1, 1)
    assert res.resolve(dice, at(5), at(3)).outcome == none
    assert res.resolve(dice, at(5), at(3), shield_pr=2).outcome == medium
    assert res.resolve(dice, at(5), at(3), shield_pr=0).outcome == buckler


def test_s25_attack_on_a_weapon_has_no_shield_band() -> None:
    """S-25: an attack aimed at a weapon hits the weapon at 12+, whatever the shield."""
    assert res.chart_result(12, shield_pr=3, at_weapon=True) == "hit"


def test_a68_defended_band_is_a_miss_for_a_defenceless_target() -> None:
    """A-68: 9-11 against a target that could not defend is a miss (nothing is damaged)."""
    assert res.chart_result(9, defenceless=True) == "miss"
    assert res.chart_result(12, defenceless=True) == "hit"


def test_a68_shield_band_applies_when_dodging() -> None:
    """A-68: the shield's PR band applies to a dodging defender too (the caller passes the PR)."""
    assert res.chart_result(13, shield_pr=2) == "shield hit"


def test_s25_roll_record_is_data() -> None:
    """The roll record carries the dice, each modifier with reason and rule, R and the outcome."""
    roll = res.resolve((4, 5), [Mod(4, "Sword level", "S-26"), Mod(2, "AG", "S-03")], [Mod(3, "DEF", "S-26")])
    data = roll.to_json()
    assert data["r"] == 12 and data["outcome"] == "hit" and data["at_total"] == 6 and data["def_total"] == 3
    assert data["at"] == [{"value": 4, "reason": "Sword level", "rule": "S-26"},
                          {"value": 2, "reason": "AG", "rule": "S-03"}]


def test_resolve_refuses_impossible_faces() -> None:
    """2d10 faces must be two numbers 1..10."""
    with pytest.raises(ValueError):
        res.resolve((0, 11), at(0), at(0))


# --- E-09 ---------------------------------------------------------------------

ATTACKER = validate_sheet({"ag": 14, "styles": [{"name": "Sword", "level": 4}],
                           "weapons": [{"name": "sword", "style": "Sword"}]})
DEFENDER = validate_sheet({"ag": 12, "styles": [{"name": "Shield", "level": 3}, {"name": "Brawl", "level": 5}]})


def attack_at(**situation: object) -> int:
    base = res.base_at(ATTACKER, ATTACKER.weapon("sword"))
    return total(base + res.situation_at(AttackSituation(**situation)))  # type: ignore[arg-type]


def test_e09_s26_base_at() -> None:
    """E-09: style level 4 + AG 14 (+2) = AT 6."""
    assert attack_at() == 6


@pytest.mark.parametrize("situation,value", [
    ({"maneuver": "guard"}, 7), ({"off_hand": True}, 3), ({"location": "arm"}, 5), ({"location": "neck"}, 2),
    ({"moved_steps": 3}, 4),
])
def test_e09_s29_at_modifiers(situation: dict[str, object], value: int) -> None:
    """E-09: guard 7, off-handed 3, arm 5, neck 2, moved more than a step 4."""
    assert attack_at(**situation) == value


def test_a60_ambidextrous_ignores_the_off_hand_penalty() -> None:
    """A-60: ambidextrous characters attack off-handed without the -3."""
    assert total(res.situation_at(AttackSituation(off_hand=True), ambidextrous=True)) == 0


def test_s22_disarm_is_minus_four_and_bare_hands_minus_six() -> None:
    """S-22: disarm (-2) aimed at the weapon (-2); bare-handed a further -2."""
    assert total(res.situation_at(AttackSituation(maneuver="disarm", location="weapon"))) == -4
    assert total(res.situation_at(AttackSituation(maneuver="disarm", location="weapon", bare_hand_disarm=True))) == -6


def test_s29_far_side_is_an_extra_minus_three() -> None:
    """S-29: the far-side arm is -1 -3 = -4."""
    assert total(res.situation_at(AttackSituation(location="arm", far_side=True))) == -4


def test_e09_block_and_dodge_def() -> None:
    """E-09: block DEF 3 + AG 12 (+1) = 4; dodge: best level 5 + 1 - (1 + EL 1) = 4."""
    assert total(res.block_def(DEFENDER, "Shield")) == 4
    assert total(res.dodge_def(DEFENDER, el=1)) == 4


@pytest.mark.parametrize("situation,block,dodge", [
    (DefenceSituation(last_maneuver="defend"), 6, 6), (DefenceSituation(last_maneuver="aim"), 2, 2),
    (DefenceSituation(stunned=True), 2, 2), (DefenceSituation(knocked_down=True), None, 0),
])
def test_e09_s31_def_modifiers(situation: DefenceSituation, block: int | None, dodge: int) -> None:
    """E-09: Defend 6/6, after Aim 2, stunned 2, knocked down dodge only at 4 - 4 = 0."""
    extra = total(res.situation_def(situation))
    if block is not None:
        assert total(res.block_def(DEFENDER, "Shield")) + extra == block
    assert total(res.dodge_def(DEFENDER, el=1)) + extra == dodge


def test_e09_r13_third_block_must_be_a_dodge() -> None:
    """E-09 / S-28 / R-13: level 3 blocks twice a round (declared blocks count, hit or miss)."""
    assert res.can_block(3, used=1)
    assert not res.can_block(3, used=2)


def test_s28_s41_knocked_down_or_close_combat_only_dodges() -> None:
    """S-28: knocked-down defenders only dodge; S-41: so do defenders in close combat."""
    assert not res.can_block(5, used=0, knocked_down=True)
    assert not res.can_block(5, used=0, close_combat=True)


# --- E-12 ---------------------------------------------------------------------

ARCHER = validate_sheet({"ag": 15, "styles": [{"name": "Bow", "level": 4, "kind": "ranged"}],
                         "weapons": [{"name": "bow", "style": "Bow", "ranged": True, "range_yards": 150,
                                      "speed": 2, "damage_types": ["imp"]}]})
TARGET = validate_sheet({"ag": 13, "styles": [{"name": "Shield", "level": 5}]})


def archer_at(aim: int = 2, units: int = 12) -> list[Mod]:
    return res.base_at(ARCHER, ARCHER.weapon("bow")) + res.situation_at(
        AttackSituation(ranged=True, aim_turns=aim, range_units=units))


def test_e12_archer_at() -> None:
    """E-12: level 4 + AG 15 (+2), aimed 2 turns (+2), 12 units (-3) -> AT 5."""
    assert total(archer_at()) == 5


def test_s30_aim_counts_at_most_three() -> None:
    """S-30: +1 per turn of aim, at most +3."""
    assert total(archer_at(aim=5)) - total(archer_at(aim=0)) == 3


@pytest.mark.parametrize("roll,outcome", [(9, "defended"), (12, "shield hit"), (13, "hit")])
def test_e12_speed_two_and_large_shield(roll: int, outcome: str) -> None:
    """E-12: base DEF 7 / speed 2 -> 3; large shield (PR 3) band 12-14."""
    defence = res.ranged_base_def(res.block_def(TARGET, "Shield"), 2)
    assert total(defence) == 3
    assert res.resolve((roll - 1, 1) if roll <= 11 else (10, roll - 10), archer_at(), defence,
                       shield_pr=3).outcome == outcome


def test_e12_speed_three_gun() -> None:
    """E-12: a gun (speed 3) against base DEF 7: floor(7/3) = 2."""
    assert total(res.ranged_base_def(res.block_def(TARGET, "Shield"), 3)) == 2


def test_e12_dodge_against_ranged_is_at_least_zero() -> None:
    """E-12 / S-27: best style 2, AG 10, EL 3: 2 + 0 - 4 = -2 -> base DEF 0 against ranged."""
    dodger = validate_sheet({"styles": [{"name": "Brawl", "level": 2}]})
    assert total(res.ranged_base_def(res.dodge_def(dodger, el=3), 2)) == 0


def test_r02_low_tech_speed_drops_to_one_beyond_half_range() -> None:
    """S-27 / R-02: beyond half the max range a low-tech weapon has speed 1; a gun keeps its speed."""
    assert res.effective_speed(2, 75, 150) == 2
    assert res.effective_speed(2, 76, 150) == 1
    assert res.effective_speed(3, 100, 150, low_tech=False) == 3


def test_e12_unaware_target_nine_is_a_miss() -> None:
    """E-12 / A-68: unaware target, base DEF 0: a roll of 4 gives R 9, a miss; a roll of 7 gives R 12, a hit."""
    assert res.resolve((2, 2), archer_at(), [], defenceless=True).outcome == "miss"
    assert res.resolve((3, 4), archer_at(), [], defenceless=True).outcome == "hit"


def test_a72_moving_target_penalty_uses_the_range_bands() -> None:
    """A-72: a target that moved 6 units last turn is -2, on top of the range band."""
    mods = res.situation_at(AttackSituation(ranged=True, range_units=2, target_moved=6))
    assert total(mods) == -2


def test_s30_cover_is_minus_three_per_obstruction() -> None:
    """S-30: two obstructions are -6."""
    assert total(res.situation_at(AttackSituation(ranged=True, range_units=1, obstructions=2))) == -6


# --- E-14 and 3d6 rolls -----------------------------------------------------------


@pytest.mark.parametrize("difficulty,target", [("average", 14), ("hard", 11), ("easy", 16)])
def test_e14_s10_task_target(difficulty: str, target: int) -> None:
    """E-14: IQ 12, Math 5, minimum 3: average 14, hard 11, easy 16."""
    assert res.task_target(12, 5, 3, difficulty) == target


def test_e14_s10_below_the_minimum_is_impossible() -> None:
    """E-14 / S-10: Math 5 against a minimum of 6 has no chance."""
    assert res.task_target(12, 5, 6) is None


def test_e14_s12_spell_target_and_failure_cost() -> None:
    """E-14: IQ 13, art 8, spell minimum 5, hard: 13 - 3 + 3 = 13; failure costs 1 END."""
    spell = Spell("Bolt", min_level=5, end_cost=3)
    assert res.spell_target(13, 8, spell) == 13
    assert (res.spell_end_cost(spell, True), res.spell_end_cost(spell, False)) == (3, 1)


def test_s12_failed_free_spell_costs_nothing() -> None:
    """S-12: a failure costs 1 END unless the spell's normal cost is 0."""
    assert res.spell_end_cost(Spell("Light", min_level=1, end_cost=0), False) == 0


def test_s12_mr_immunity() -> None:
    """S-12 / S-04: MR 3 ignores spells of minimum level 3 or less."""
    assert res.mr_immune(Spell("a", 3), 3) and not res.mr_immune(Spell("b", 4), 3)


def test_s01_attribute_roll_succeeds_at_or_under() -> None:
    """S-01: ST 13 breaks the door on 13 or less; hard is -3."""
    assert res.roll_3d6((6, 6, 1), res.attribute_target(13)).success
    assert not res.roll_3d6((6, 6, 2), res.attribute_target(13)).success
    assert res.attribute_target(13, "hard") == 10


def test_s02_contest_by_margins() -> None:
    """S-02: the bigger margin wins (even between two failures); equal margins tie."""
    a, b = res.roll_3d6((5, 5, 5), 14), res.roll_3d6((6, 6, 4), 13)  # -1 vs -3
    assert res.contest(a, b) == 1 and res.contest(b, a) == -1
    assert res.contest(a, res.roll_3d6((5, 5, 5), 14)) == 0


def test_e14_s42_takedown_modifier() -> None:
    """E-14 / S-42: attacker ST 14 vs defender ST 11 -> +3."""
    assert total(res.situation_at(AttackSituation(st_difference=14 - 11))) == 3


@pytest.mark.parametrize("weights,mod", [((180, 140), 5), ((180, 150), 4), ((140, 180), 1), ((150, 169), 3)])
def test_e14_s43_a80_pin_modifier(weights: tuple[int, int], mod: int) -> None:
    """E-14 / A-80: +3 ST, then +-1 per whole 20 lb truncated toward zero (40 -> 2, 30 -> 1, -40 -> -2, -19 -> 0)."""
    s = AttackSituation(st_difference=3, weight_difference=weights[0] - weights[1])
    assert total(res.situation_at(s)) == mod


def test_e14_s43_escaping_a_pin_is_a_takedown_against_the_pinner() -> None:
    """E-14: the pinned ST 11 defender escapes at 11 - 14 = -3."""
    assert total(res.situation_at(AttackSituation(st_difference=11 - 14))) == -3


def test_s21_defend_bonus_cites_the_defend_rule() -> None:
    """S-21: Defend's +2 DEF on the roll record names S-21, not the chart (S-18) alone."""
    (mod,) = res.situation_def(DefenceSituation(last_maneuver="defend"))
    assert (mod.value, mod.rule) == (2, "S-21")


def test_s24_a_gm_set_maneuver_modifier_cites_the_cinematic_rule() -> None:
    """S-24: a maneuver off the chart, with its AT set by the GM, cites S-24."""
    mods = res.situation_def(DefenceSituation(last_maneuver="swing from the chandelier", maneuver_def=-3))
    assert [(m.value, m.rule) for m in mods] == [(-3, "S-24")]
