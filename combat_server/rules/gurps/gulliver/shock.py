"""GULLIVER's damage-and-shock system (V-08, V-17 ... V-22, V-24, R-08, R-10, R-11):
shock counted in points, every threshold a share of HPmax.

Why points and not G-47's penalty: stun, knockout and dropped weapons are judged on
the same number (V-17), so a rat and a dragon react alike to the same share of their
HP; the DX/IQ penalty is only one reading of it (V-18)."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

from combat_server.rules.gurps.gulliver.locations import Location
from combat_server.rules.gurps.rolls import Mod

Number = Fraction | int

CRIPPLING_FACTOR = 2  # V-11, V-12, V-17
BRAIN_FACTOR = 2  # V-20, V-17
BRAIN_KINDS = ("skull", "eye")  # V-20: GULLIVER's brain is the skull location (and through the eye)
#: V-17: weapons that deal shock directly, by their dice (a Pain spell can be grown to 3d).
DIRECT_SHOCK_DICE = {"weak stunner": 2, "strong stunner": 4, "Pain spell": 1}
#: V-17: a damaging stun weapon's shock per point of damage (a Type II nerve pistol, 1d damage).
NERVE_PISTOL_FACTOR = 4


@attrs.frozen
class Factor:
    """One shock multiplier with its reason (V-17)."""

    value: Fraction
    reason: str
    rule: str


def shock_points(injury: Number, factors: tuple[Factor, ...] = ()) -> Fraction:
    """V-17: base shock is the injury after wounding and location; then each multiplier
    (A-28: the missing tables are x1, GM multipliers come as factors)."""
    out = Fraction(injury)
    for f in factors:
        out *= f.value
    return out


def band_penalty(shock: Number, hp_max: Number) -> int:
    """V-18 / A-38: -1 per floor((HPmax + 5) / 10) points from HPmax 8 up; below, the
    per-point bands (4-7: 2, 3: 3, 2: 5, 1: 10) and -(10 / HPmax) per point under 1 HP.
    Returned as a positive number, uncapped (A-37)."""
    shock = Fraction(shock)
    hp = Fraction(hp_max)
    if shock <= 0:
        return 0
    if hp >= 8:
        return math.floor(shock / math.floor((hp + 5) / 10))
    if hp < 1:
        per_point = 10 / hp
    elif hp < 2:
        per_point = Fraction(10)
    elif hp < 3:
        per_point = Fraction(5)
    elif hp < 4:
        per_point = Fraction(3)
    else:
        per_point = Fraction(2)
    return math.floor(shock * per_point)


def stun(shock: Number, hp_max: Number, rule: str) -> str:
    """V-19 for one blow: ``standard``: stunned over HPmax/2; ``ht_roll``: a HT roll over
    HPmax/3, stunned over 2/3. Returns "none", "roll" or "stunned"."""
    shock = Fraction(shock)
    if rule == "ht_roll":
        if shock * 3 > 2 * hp_max:
            return "stunned"
        return "roll" if shock * 3 > hp_max else "none"
    return "stunned" if shock * 2 > hp_max else "none"


def knockout(shock: Number, hp_max: Number) -> str:
    """V-22 for one blow: a HT roll over HPmax, knocked out over 2 x HPmax."""
    if shock > 2 * hp_max:
        return "unconscious"
    return "roll" if shock > hp_max else "none"


@attrs.frozen
class LimbStun:
    """V-21: whether the limb is stunned (drops what it holds) and whether a grip roll may keep it."""

    stunned: bool
    grip_roll: bool = False


def limb_stun(shock: Number, loc: Location, hp_max: Number) -> LimbStun:
    """V-21 / A-39: shock to an arm or leg over HPmax/2, a hand or foot over HPmax/3 stuns
    the limb; a grip roll is allowed when it passed the mark by less than max(1, HPmax/10).
    R-11: a kept grip leaves the limb stunned all the same."""
    if loc.cripple is None or loc.kind in ("neck",):
        return LimbStun(False)
    mark = loc.cripple * hp_max
    if not shock > mark:
        return LimbStun(False)
    return LimbStun(True, shock - mark < max(Fraction(1), Fraction(hp_max) / 10))


def will_mod(will: int, iq: int) -> Mod | None:
    """V-08: Strong or Weak Will (4e: Will above or below IQ) adds to HT rolls against shock
    effects (stun, knockout, grip, recovery), never to rolls against damage effects."""
    if will == iq:
        return None
    return Mod(will - iq, "Strong Will" if will > iq else "Weak Will", "V-08")


def recover(penalty: int, success: bool, margin: int) -> int:
    """V-24 advanced / R-10 / A-40: a success removes as many points as its margin (0 removes
    none); a failure leaves the penalty for another turn."""
    return max(0, penalty - margin) if success else penalty


def knockdown_only(failed: bool) -> str:
    """V-10: a failed roll against a heavy blow knocks down. R-08: with Stun from shock (V-19)
    on too, that is all a failed major-wound roll does; stun and knockout come from shock."""
    return "knockdown" if failed else "none"
