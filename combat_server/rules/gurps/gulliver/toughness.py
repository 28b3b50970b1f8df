"""Toughness (V-63, V-64, A-53): every creature's free damage resistance of
floor(Combat ST / 5), taken after the wound multipliers.

Why "never more than the basic hits": Toughness stands in for flesh soaking a blow,
so the extra injury that cutting and impaling multipliers add always gets through
(V-63: Razk, cutting 3 -> 2 basic x 1.5 = 3, only 2 absorbed -> 1)."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

#: V-63: Toughness does not work against poison or disease.
NOT_AGAINST = ("tox",)


Number = Fraction | int


@attrs.frozen
class Soaked:
    """A wound before and after Toughness, and what was absorbed."""

    before: Number
    after: Number
    absorbed: Number


def wound(basic_hits: Number, multiplier: Fraction, toughness: int, damage_type: str, exact: bool = False) -> Soaked:
    """V-63: basic hits (after DR) x wound and location multipliers (A-20: floor, at least 1;
    ``exact``: V-03's fractional wound against a small target, kept as it is), less Toughness
    but never more than the basic hits."""
    if basic_hits <= 0:
        return Soaked(0, 0, 0)
    before: Number = basic_hits * multiplier if exact else max(1, math.floor(basic_hits * multiplier))
    if damage_type in NOT_AGAINST:
        return Soaked(before, before, 0)
    absorbed = min(toughness, basic_hits, before)
    return Soaked(before, before - absorbed, absorbed)


def shock_basis(before: Fraction | int, after: Fraction | int, toughness: int, before_toughness: bool,
                shock_multiple: Fraction = Fraction(1)) -> Fraction:
    """V-64, for a wound ``before`` and ``after`` Toughness: option (a) shock is the injury after
    Toughness times any shock multiple (none if
    Toughness stopped it all); option (b) it is the injury before Toughness times the
    multiple, less Toughness, so a high-shock attack can stun through it."""
    if before_toughness:
        return max(Fraction(0), before * shock_multiple - toughness)
    return after * shock_multiple
