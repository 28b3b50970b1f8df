"""Injury arithmetic (G-42..G-47, G-51): pure numbers, no state changes."""

from __future__ import annotations

import math
from fractions import Fraction

from combat_server.rules.gurps.tables import WOUND_MULTIPLIERS

SHOCK_CAP = 4  # G-47


def penetrating(basic: int, dr: int) -> int:
    """G-42: damage minus DR; nothing if damage <= DR."""
    return max(0, basic - dr)


# Basic Set multipliers for the piercing types the seed names but does not list (A-20 cfg).
BASIC_SET_EXTRA = {"pi-": Fraction(1, 2), "pi": Fraction(1), "pi+": Fraction(3, 2), "pi++": Fraction(2)}


def wound_multiplier(damage_type: str, basic_set: bool = False) -> Fraction:
    """G-42: cr x1, cut x1.5, imp x2; A-20: every other type x1, unless the fight
    switches on the Basic Set piercing multipliers (option ``basic_set_wound_multipliers``)."""
    if basic_set and damage_type in BASIC_SET_EXTRA:
        return BASIC_SET_EXTRA[damage_type]
    return WOUND_MULTIPLIERS.get(damage_type, Fraction(1))


def injury(pen: int, damage_type: str, basic_set: bool = False) -> int:
    """A-20: floor(penetrating x multiplier), minimum 1 when anything penetrated."""
    if pen <= 0:
        return 0
    return max(1, math.floor(pen * wound_multiplier(damage_type, basic_set)))


def shock(injury_hp: int, hp_max: int) -> int:
    """G-47 / A-25: -1 per HP below HPmax 20, else floor(injury x 10 / HPmax); one injury, uncapped."""
    if injury_hp <= 0:
        return 0
    if hp_max < 20:
        return injury_hp
    return injury_hp * 10 // hp_max


def major_wound(injury_hp: int | Fraction, hp_max: int) -> bool:
    """G-46: a single injury of more than HPmax / 2 (V-03's exact fraction compared as it is)."""
    return injury_hp * 2 > hp_max


def death_thresholds(new_hp: int, hp_max: int, already: int) -> tuple[list[int], bool]:
    """G-45 / A-23: the -k x HPmax thresholds (k = 1..4) newly reached, and automatic death at -5x."""
    crossed = [k for k in range(already + 1, 5) if new_hp <= -k * hp_max]
    return crossed, new_hp <= -5 * hp_max


def spend_fatigue(fp: int, fp_max: int, points: int) -> tuple[int, int]:
    """G-51 / A-26: returns (new FP, HP lost). A point costs 1 HP if FP was already <= 0
    before it was lost; FP never drops below -FPmax, further points cost HP 1:1."""
    hp_loss = 0
    for _ in range(points):
        if fp <= -fp_max:
            hp_loss += 1  # overflow below -FPmax
            continue
        if fp <= 0:
            hp_loss += 1
        fp -= 1
    return fp, hp_loss
