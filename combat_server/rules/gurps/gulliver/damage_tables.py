"""Thrust and swing by ST: GURPS's table (G, ``rules/gurps/tables.py``) or GULLIVER's
New ST damage (V-66 thrust, V-67 swing, A-54, A-55), and V-03's fractional damage for
weak creatures.

Why a roll carries a ``scale``: V-03 and V-66's "Low ST" keep damage as the ST 10 roll
times ST/10, a rational the victim's HP may keep (V-03), so the roll cannot be folded
into whole dice and adds."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

from combat_server.rules.gurps.tables import damage_for_st, format_dice

PER_DIE = Fraction(7, 2)  # a die's average
#: V-66 thrust below ST 10 (ST -> (dice, adds)); from 10 on the general rule applies.
_LOW_THRUST = {1: (1, -5), 2: (1, -4), 3: (1, -4), 4: (1, -3), 5: (1, -3), 6: (1, -2), 7: (1, -2),
               8: (1, -1), 9: (1, -1)}
#: V-66 general rule: ST mod 10 -> (extra dice, adds) on n = floor(ST/10) dice.
_BY_REMAINDER = {0: (0, 0), 1: (0, 0), 2: (0, 1), 3: (0, 1), 4: (1, -2), 5: (0, 2), 6: (0, 2), 7: (1, -1),
                 8: (0, 3), 9: (0, 3)}


@attrs.frozen
class DamageRoll:
    """``dice``d6 + ``adds``, the total times ``scale`` (1 but for V-03 low ST)."""

    dice: int
    adds: int
    scale: Fraction = Fraction(1)

    @property
    def pair(self) -> tuple[int, int]:
        return self.dice, self.adds

    def average(self) -> Fraction:
        return (self.dice * PER_DIE + self.adds) * self.scale

    def text(self) -> str:
        base = format_dice(self.dice, self.adds)
        return base if self.scale == 1 else f"({base}) x {self.scale}"


def standard(st: int) -> tuple[DamageRoll, DamageRoll]:
    """GURPS's thrust and swing (``tables.damage_for_st``), unchanged."""
    (td, ta), (sd, sa) = damage_for_st(st)
    return DamageRoll(td, ta), DamageRoll(sd, sa)


def new_thrust(st: int) -> DamageRoll:
    """V-66: the table below ST 10; from ST 10, n = floor(ST/10), r = ST mod 10: 0-1 nd,
    2-3 nd+1, 4 (n+1)d-2, 5-6 nd+2, 7 (n+1)d-1, 8-9 nd+3 (A-54: 14 -> 2d-2 is meant)."""
    st = max(1, st)
    if st < 10:
        return DamageRoll(*_LOW_THRUST[st])
    extra, adds = _BY_REMAINDER[st % 10]
    return DamageRoll(st // 10 + extra, adds)


def new_swing(st: int, weapon_lb: float = 0) -> DamageRoll:
    """V-67: thrust of floor(ST x 1.5) (A-55). With a weapon weight given, the extra over
    thrust is at most sqrt(weight) dice, the lower compared by average (A-55): whole dice
    floor(sqrt(w)), the rest of a die as adds at 3.5 a die, rounded down."""
    thrust = new_thrust(st)
    swing = new_thrust(st * 3 // 2)
    if weapon_lb <= 0:
        return swing
    extra = swing.average() - thrust.average()
    weight = Fraction(weapon_lb).limit_denominator(1000)
    if extra <= 0 or (extra / PER_DIE) ** 2 <= weight:
        return swing
    root = math.sqrt(weight)
    whole = math.isqrt(math.floor(weight))
    adds = math.floor((root - whole) * 7 / 2)
    return DamageRoll(thrust.dice + whole, thrust.adds + adds)


def low_st(at_st_10: DamageRoll, st: int) -> DamageRoll:
    """V-03 / V-66 Low ST: below ST 10, the ST 10 roll times ST/10 (ST 2 -> 1d / 5)."""
    return DamageRoll(at_st_10.dice, at_st_10.adds, Fraction(st, 10))


def scaled_total(rolled: int, roll: DamageRoll, target_hp_max: int) -> Fraction:
    """V-03: a scaled roll's damage; the fraction is kept only against a target under 10 HP,
    bigger ones drop it (floor). An unscaled roll is the rolled total, at least 0."""
    total = max(0, rolled) * roll.scale
    if roll.scale == 1 or target_hp_max < 10:
        return total
    return Fraction(math.floor(total))
