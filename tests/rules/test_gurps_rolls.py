"""Roll outcomes (rolls.py): generic success rolls with criticals (G-01, A-03),
attack rolls (G-36, A-18), active defence rolls (G-38), Quick Contests (G-01)
and the audit record every roll carries."""

from __future__ import annotations

import pytest

from combat_server.rules.gurps import rolls
from combat_server.rules.gurps.rolls import Mod


# --------------------------------------------------------------------------- A-03 generic criticals

GENERIC = [
    (3, 1, "critical success"),
    (4, 2, "critical success"),
    (5, 14, "success"),
    (5, 15, "critical success"),
    (6, 15, "success"),
    (6, 16, "critical success"),
    (10, 10, "success"),
    (11, 10, "failure"),
    (15, 6, "failure"),
    (16, 6, "critical failure"),
    (17, 15, "critical failure"),
    (17, 16, "failure"),
    (17, 20, "failure"),
    (18, 25, "critical failure"),
]


@pytest.mark.parametrize(("roll", "skill", "expected"), GENERIC, ids=[f"roll{r}-skill{s}" for r, s, _ in GENERIC])
def test_a03_generic_success_roll_outcome(roll: int, skill: int, expected: str) -> None:
    """A-03: crit success 3-4 (5 at >= 15, 6 at >= 16); crit failure 18, 17 at <= 15, or >= skill + 10."""
    assert rolls.success_outcome(roll, skill) == expected


@pytest.mark.parametrize("roll", [3, 4])
def test_a03_3_and_4_always_succeed(roll: int) -> None:
    """A-03: a 3 or 4 succeeds even at an effective skill of -5."""
    assert rolls.succeeded(rolls.success_outcome(roll, -5))


@pytest.mark.parametrize("roll", [17, 18])
def test_a03_17_and_18_always_fail(roll: int) -> None:
    """A-03: a 17 or 18 fails even at an effective skill of 25."""
    assert not rolls.succeeded(rolls.success_outcome(roll, 25))


# --------------------------------------------------------------------------- G-36 / A-18 attack criticals


@pytest.mark.parametrize(("roll", "skill", "expected"), [
    (5, 14, "hit"), (5, 15, "critical hit"), (5, 16, "critical hit"),
    (6, 15, "hit"), (6, 16, "critical hit"), (6, 17, "critical hit"),
    (7, 20, "hit"),
])
def test_a18_critical_hit_on_5_from_skill_15_and_on_6_from_16(roll: int, skill: int, expected: str) -> None:
    """G-36/A-18: "skill of 15" reads as 15 or more for a 5, 16 or more for a 6."""
    assert rolls.attack_outcome(roll, skill) == expected


@pytest.mark.parametrize(("roll", "skill"), [(3, -3), (4, 0), (3, 20)])
def test_g36_3_and_4_are_critical_hits_at_any_skill(roll: int, skill: int) -> None:
    """G-36: a 3 or 4 is a critical hit whatever the effective skill."""
    assert rolls.attack_outcome(roll, skill) == "critical hit"


@pytest.mark.parametrize(("roll", "skill"), [(17, 20), (18, 30), (17, 17)])
def test_g36_17_and_18_always_miss(roll: int, skill: int) -> None:
    """G-36/A-18: 17 or 18 always misses, and is simply a miss (no critical-miss table)."""
    assert rolls.attack_outcome(roll, skill) == "miss"


@pytest.mark.parametrize(("roll", "skill", "expected"), [(12, 12, "hit"), (13, 12, "miss"), (8, 2, "miss")])
def test_g36_hit_is_roll_at_or_under_effective_skill(roll: int, skill: int, expected: str) -> None:
    """G-36: otherwise a roll <= effective skill hits and a roll above misses."""
    assert rolls.attack_outcome(roll, skill) == expected


# --------------------------------------------------------------------------- G-38 defence


@pytest.mark.parametrize(("roll", "defence"), [(3, -5), (4, 1), (4, -1)])
def test_g38_3_and_4_always_defend(roll: int, defence: int) -> None:
    """G-38: a 3 or 4 succeeds even with a defence of 1 or less."""
    assert rolls.succeeded(rolls.defense_outcome(roll, defence))


@pytest.mark.parametrize(("roll", "defence"), [(17, 19), (18, 30), (17, 17)])
def test_g38_17_and_18_always_fail(roll: int, defence: int) -> None:
    """G-38: a 17 or 18 fails even with a defence of 17 or more."""
    assert rolls.defense_outcome(roll, defence) == "failure"


@pytest.mark.parametrize(("roll", "defence", "ok"), [(10, 10, True), (11, 10, False), (5, -1, False)])
def test_g38_otherwise_roll_at_or_under_defence(roll: int, defence: int, ok: bool) -> None:
    """G-38: between 5 and 16 the defence succeeds on a roll <= effective defence."""
    assert rolls.succeeded(rolls.defense_outcome(roll, defence)) is ok


# --------------------------------------------------------------------------- G-01 Quick Contest


@pytest.mark.parametrize(("a", "b", "winner"), [
    ((5, True), (2, True), 1),
    ((2, True), (5, True), -1),
    ((0, True), (-1, False), 1),
    ((-1, False), (0, True), -1),
    ((-2, False), (-4, False), 1),
    ((-4, False), (-2, False), -1),
    ((3, True), (3, True), 0),
    ((-2, False), (-2, False), 0),
])
def test_g01_quick_contest(a: tuple[int, bool], b: tuple[int, bool], winner: int) -> None:
    """G-01: the winner succeeded by more or failed by less; equal margins tie."""
    assert rolls.quick_contest(a[0], a[1], b[0], b[1]) == winner


def test_g01_quick_contest_success_beats_failure_whatever_the_margins() -> None:
    """G-01: a success beats a failure even when the failure's margin is numerically larger (skill-based crits)."""
    assert rolls.quick_contest(-1, True, 0, False) == 1


# --------------------------------------------------------------------------- the roll record


def test_roll_record_states_dice_modifiers_target_and_margin() -> None:
    """Every roll records its dice, base, non-zero modifiers with reasons and rules, target, margin and outcome."""
    rec = rolls.record(purpose="attack", roller="a", dice=[2, 3, 4], base=12, base_reason="sword skill",
                       mods=[Mod(1, "Evaluate x1", "G-29"), Mod(0, "nothing", "G-00"), Mod(-4, "M&A", "G-32")],
                       outcome_fn="attack", rule="G-36")
    assert rec["dice"] == [2, 3, 4] and rec["total"] == 9
    assert rec["modifiers"] == [{"value": 1, "reason": "Evaluate x1", "rule": "G-29"},
                                {"value": -4, "reason": "M&A", "rule": "G-32"}]
    assert (rec["target"], rec["margin"], rec["outcome"]) == (9, 0, "hit")


def test_roll_record_cap_applies_after_modifiers() -> None:
    """A-15: a cap replaces the summed target when it is higher, and the record says why."""
    rec = rolls.record(purpose="attack", roller="a", dice=[4, 4, 2], base=15, base_reason="sword skill",
                       mods=[Mod(2, "Evaluate x2", "G-29"), Mod(-4, "M&A", "G-32")], outcome_fn="attack",
                       rule="G-36", cap=(9, "Move and Attack, melee", "G-32"))
    assert (rec["target"], rec["margin"], rec["outcome"]) == (9, -1, "miss")
    assert "G-32" in str(rec["cap"])


def test_roll_record_cap_leaves_lower_targets_alone() -> None:
    """A-15: a target already at or below the cap is not raised to it."""
    rec = rolls.record(purpose="attack", roller="a", dice=[2, 2, 2], base=10, base_reason="sword skill",
                       mods=[Mod(-4, "M&A", "G-32")], outcome_fn="attack", rule="G-36",
                       cap=(9, "Move and Attack, melee", "G-32"))
    assert rec["target"] == 6 and "cap" not in rec
