"""Fatigue under GULLIVER (V-47, V-48, V-50, V-52, V-53, V-54): what movement and
effort cost, what low fatigue does, and the two fatigue bases.

Why exact rationals: under V-53 each point is scaled by ST/10 and halved or doubled by
a HT roll (A-50), so fatigue is kept as a Fraction and thresholds compare exactly."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

from combat_server.rules.gurps.tables import ENCUMBRANCE

Number = Fraction | int

#: V-47: (pace up to this share of Move, seconds per fatigue point).
PACES: tuple[tuple[Fraction, int, str], ...] = (
    (Fraction(1, 3), 3600, "walking"),
    (Fraction(1, 2), 600, "jogging"),
    (Fraction(2, 3), 60, "fast jogging"),
    (Fraction(1), 20, "running"),
)
SPRINT_SECONDS = 10  # V-47
EXTRA_EFFORT_SPRINT_SECONDS = 1  # V-47, beyond Move + the sprint bonus
SUPER_HEAVY = 5  # V-52: the level past Extra-Heavy (x10)
#: G-02's level names and V-52's Super-Heavy, by level.
LOAD_NAMES = ("no", "Light", "Medium", "Heavy", "Extra-Heavy", "Super-Heavy")


@attrs.frozen
class Pace:
    name: str
    seconds_per_point: int


def movement_pace(moved: Number, move: int, sprint_bonus: Number = Fraction(1, 5)) -> Pace | None:
    """V-47 / A-48: the pace of a turn's movement and its fatigue interval (None: standing)."""
    if moved <= 0 or move <= 0:
        return None
    share = Fraction(moved) / move
    for limit, seconds, name in PACES:
        if share <= limit:
            return Pace(name, seconds)
    if share <= 1 + Fraction(sprint_bonus):
        return Pace("sprinting", SPRINT_SECONDS)
    return Pace("Extra Effort sprinting", EXTRA_EFFORT_SPRINT_SECONDS)


#: V-48: the heat readings a fight may be played in (the ``fatigue_heat`` reading) and what each adds.
HEAT = {"none": 0, "hot": 1, "very_hot": 2}


def heat_surcharge(heat: str) -> int:
    """V-48: +1 per fatigue assessment when hot, +2 when very hot (or in hot clothing or armour)."""
    return 0 if heat == "" else HEAT[heat]


EXTRA_EFFORT_PER_TURN = 1  # V-48


def skill_penalty(fatigue: Number, fatigue_max: Number) -> int:
    """V-50 / A-49: -1 DX and IQ at 2/3 of full fatigue or less, -2 at 1/2, -3 at 1/3 (positive here)."""
    f = Fraction(fatigue)
    if f * 3 <= fatigue_max:
        return 3
    if f * 2 <= fatigue_max:
        return 2
    return 1 if f * 3 <= 2 * fatigue_max else 0


def encumbrance_factor(level: int) -> Fraction:
    """V-52: exertion fatigue divided by the encumbrance Move multiplier (Light x5/4, Medium
    x5/3, Heavy x5/2, Extra-Heavy x5, Super-Heavy x10)."""
    if level >= SUPER_HEAVY:
        return Fraction(10)
    return 1 / ENCUMBRANCE[level][1]


def standing_cost(level: int) -> int:
    """V-52: standing still is free, except under a Super-Heavy load: 1 a turn."""
    return 1 if level >= SUPER_HEAVY else 0


def st_basis_cost(points: Number, combat_st: int, ht_success: bool, margin: int) -> Fraction:
    """V-53: each point x Combat ST/10; then the HT roll: success halves it, and again per full
    5 of success; each full 5 of failure doubles it; failure by 1-4 leaves it."""
    return Fraction(points) * Fraction(combat_st, 10) * ht_roll_factor(ht_success, margin)


def ht_roll_factor(ht_success: bool, margin: int) -> Fraction:
    """V-53's HT roll on fatigue applied: success x1/2, and x1/2 again per full 5 of success;
    x2 per full 5 of failure; failure by 1-4 x1."""
    if ht_success:
        return 1 / Fraction(2) ** (1 + max(0, margin) // 5)
    return Fraction(2) ** (max(0, -margin) // 5)


def st_left(st: int, fatigue: Number, fatigue_max: Number) -> Fraction:
    """V-53 / V-54: Combat and Load ST fall in the same proportion as fatigue."""
    return st * Fraction(fatigue) / Fraction(fatigue_max) if fatigue_max else Fraction(st)


@attrs.frozen
class FatigueState:
    """What the fatigue level does: halved Move and Dodge, a collapse (``will_roll`` under
    G-51, outright under V-53/V-54) and unconsciousness; ``rule`` cites which basis."""

    halved: bool
    collapse: str  # none | will_roll | collapsed
    unconscious: bool
    rule: str


def g51_state(fp: Number, fp_max: int) -> FatigueState:
    """G-51 / R-04: halved below FPmax/3, a Will roll to act at 0 or less, unconscious at -FPmax."""
    return FatigueState(fp * 3 < fp_max, "will_roll" if fp <= 0 else "none", fp <= -fp_max, "G-51")


def st_basis_state(fatigue: Number, combat_st: int) -> FatigueState:
    """V-53: halved at floor(Combat ST/3) or less, collapse at Combat ST/10 or less, out at 0."""
    f = Fraction(fatigue)
    return FatigueState(f <= combat_st // 3, "collapsed" if f * 10 <= combat_st else "none", f <= 0, "V-53")


def ht_basis_state(fatigue: Number) -> FatigueState:
    """V-54 / A-51: halved at 3 or less, collapse at 1 or less, unconscious at 0."""
    return FatigueState(fatigue <= 3, "collapsed" if fatigue <= 1 else "none", fatigue <= 0, "V-54")


def g51_spend(level: Number, fp_max: int, cost: Number) -> tuple[Fraction, int]:
    """G-51 / A-26 with exact amounts (V-52's and V-53's fractions): fatigue lost while FP was
    already at 0 or below costs as much HP, and FP never goes below -FPmax (the rest is HP 1:1);
    the HP lost is rounded down (HP are whole). For whole numbers this is ``injury.spend_fatigue``
    point by point (tests/gurps/gulliver/test_alternatives.py)."""
    level, cost = Fraction(level), Fraction(cost)
    above = min(cost, max(level, Fraction(0)))  # taken while FP was above 0: no HP
    rest = cost - above
    after = level - cost
    floor_at = Fraction(-fp_max)
    if after < floor_at:
        after = min(level, floor_at)  # never below -FPmax, nor raised back up to it
    return after, math.floor(rest) if rest > 0 else 0


def basis_spend(level: Number, cost: Number) -> tuple[Fraction, int]:
    """V-53 / V-54 (A-51: out at 0, in place of G-51's -FPmax): Fatigue stops at 0; fatigue past
    it is taken from HP 1:1 (G-51's overflow rule, the reading this layer chose), rounded down."""
    level, cost = Fraction(level), Fraction(cost)
    after = level - cost
    if after >= 0:
        return after, 0
    return min(level, Fraction(0)), math.floor(cost - max(level, Fraction(0)))


def floor_st(value: Fraction) -> int:
    """A fatigued ST for table lookups (damage, lift): rounded down, at least 1."""
    return max(1, math.floor(value))
