"""Blowthrough (V-05, V-06, V-07, A-30): the most injury a piercing or impaling wound
can do before the projectile passes through; the rest is lost.

Why the cap stays a Fraction: a hand's cap is 10/3 (V-07); A-30 compares the exact
injury with it and floors only what is applied."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

from combat_server.rules.gurps.gulliver.locations import PIERCING, Location

#: V-05: the wounds blowthrough applies to (bullets are piercing).
THROUGH_TYPES = ("imp", *PIERCING)
IMPROVED_PER_LS = 10  # V-06
BEAM_FACTOR = Fraction(2)  # V-07
BULLET_FACTOR = Fraction(3, 2)  # V-07 / A-30: each of calibre >= .40 and hollow-point
#: V-07: the locations a beam, fireball or lightning doubles the cap in.
BEAM_KINDS = ("torso", "vitals", "skull", "face")


@attrs.frozen
class Projectile:
    """What V-07 needs to know about the attack."""

    damage_type: str
    beam: bool = False  # beam, fireball or lightning
    large_calibre: bool = False  # a bullet of calibre .40 or more
    hollow_point: bool = False


def applies(p: Projectile, modifiers: bool = True) -> bool:
    """V-05: piercing and impaling wounds (bullets and impaling weapons); beams only with V-07
    (``modifiers``), the rule that names them."""
    return p.damage_type in THROUGH_TYPES or (p.beam and modifiers)


def base_cap(base_hp: Fraction, ls: Fraction, improved: bool) -> Fraction:
    """V-05: the base HP (A-27: before bought HP, size-scaled: Grog 24); V-06: 10 x LS (Grog 20)."""
    return IMPROVED_PER_LS * ls if improved else base_hp


def factors(loc: Location, p: Projectile) -> list[tuple[Fraction, str]]:
    """V-07's factors on the base cap for this location and projectile, each with its reason:
    the location (vitals/head x3, limb x1/2, hand/foot x1/3; none listed for x1), beams x2 on the
    body or head, bullets x1.5 for calibre .40+ and x1.5 hollow-point (A-30: they stack).
    The brain has no cap at all (``cap`` returns None there)."""
    out: list[tuple[Fraction, str]] = []
    if loc.blowthrough is not None and loc.blowthrough != 1:
        out.append((loc.blowthrough, loc.name))
    if p.beam and loc.kind in BEAM_KINDS:
        out.append((BEAM_FACTOR, "beam"))
    if p.large_calibre:
        out.append((BULLET_FACTOR, "calibre .40+"))
    if p.hollow_point:
        out.append((BULLET_FACTOR, "hollow-point"))
    return out


def cap(base: Fraction, loc: Location, p: Projectile, modifiers: bool) -> Fraction | None:
    """V-07: the base cap times ``factors`` (location, beam, bullet); none in the brain.
    Without V-07 every location has the base cap. None: no cap."""
    if not modifiers:
        return base
    if loc.blowthrough is None:
        return None
    out = base
    for value, _ in factors(loc, p):
        out *= value
    return out


def capped_injury(injury: Fraction | int, limit: Fraction | None) -> Fraction | int:
    """A-30: the injury, or floor(cap) when it is more than the cap (22.5 -> 22)."""
    if limit is None or injury <= limit:
        return injury
    return math.floor(limit)
