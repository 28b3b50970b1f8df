"""What a single heavy blow does to a body under GULLIVER: slowdown (V-09, A-31),
knockdown (V-10, A-32), crippled limbs (V-11, A-33), amputation (V-12, A-34), the neck
(V-13, A-35) and the heart (V-44, A-46). Every threshold is a share of HPmax (V-08).

Why "exceeds": each rule says "more than", so HPmax x 1/2 itself does not cripple;
with fractional thresholds (10/3 for a hand) the comparison stays exact."""

from __future__ import annotations

import math
from fractions import Fraction

import attrs

from combat_server.rules.gurps.gulliver.locations import Location

Number = Fraction | int


def slowed(hp: Number, hp_max: Number) -> bool:
    """V-09 / A-31: Move and Dodge halve below HPmax/3 (an HP 120 dragon at 39, not 30)."""
    return hp * 3 < hp_max


def heavy_blow(injury: Number, hp_max: Number) -> bool:
    """V-10 / A-32 (and G-46's major wound): a single blow of more than HPmax/2."""
    return injury * 2 > hp_max


@attrs.frozen
class Maiming:
    """A blow to a limb or the neck: ``taken`` is the HP it removes (the excess is lost, V-11),
    ``shock_basis`` what its doubled shock is counted from (A-33), ``severing``: "none",
    "roll" or "automatic" (V-12, V-13), ``fatal``: a severed neck or a broken one (V-13)."""

    crippled: bool
    taken: Number
    shock_basis: Number
    severing: str = "none"
    fatal: bool = False
    neck: bool = False

    @property
    def rule(self) -> str:
        """The rule an explanation cites: V-13 for the neck, V-12 for a severing blow, else V-11."""
        return "V-13" if self.neck else "V-12" if self.severing != "none" else "V-11"


def maim(blow: Number, loc: Location, hp_max: Number, damage_type: str, *, amputation: bool, neck: bool,
         full_blow_shock: bool) -> Maiming:
    """V-11 .. V-13 for one blow. A-33: the HP removed is the smallest amount that cripples,
    floor(threshold) + 1 (HP 10: arm 6, hand 4), never more than the blow; its shock is
    doubled from that amount, or from the whole blow under ``full_blow_shock``. V-12 / A-34:
    a cutting blow over twice the threshold severs on a failed HT roll, over four times outright.
    V-13 / A-35: the neck cripples like a limb; cutting past the amputation marks beheads,
    crushing breaks the neck (fatal); impaling and piercing only cripple."""
    if loc.cripple is None or (loc.kind == "neck" and not neck):
        return Maiming(False, blow, blow)
    threshold = loc.cripple * hp_max
    if not blow > threshold:
        return Maiming(False, blow, blow)
    taken = min(blow, math.floor(threshold) + 1)
    basis = blow if full_blow_shock else taken
    severs = damage_type == "cut" if loc.kind != "neck" else damage_type in ("cut", "cr")
    severing = "none"
    if severs and (amputation or loc.kind == "neck"):
        if blow > 4 * threshold:
            severing = "automatic"
        elif blow > 2 * threshold:
            severing = "roll"
    neck_hit = loc.kind == "neck"
    return Maiming(True, taken, basis, severing, fatal=neck_hit and severing != "none", neck=neck_hit)


def heart_roll_modifier(blow: Number, hp_max: Number) -> int | None:
    """V-44 / A-46: a heart wound of HPmax or more calls for HT, at -4 from 2 x HPmax and -8
    from 3 x HPmax; None: no roll."""
    if blow < hp_max:
        return None
    if blow >= 3 * hp_max:
        return -8
    return -4 if blow >= 2 * hp_max else 0


def heart_attack(failed_by: int, critical_failure: bool) -> str:
    """V-44: a failed roll is a minor heart attack, by 4+ (or a critical failure) a major one,
    by 8+ a fatal one. ``failed_by`` <= 0 is a success."""
    if failed_by >= 8:
        return "fatal"
    if failed_by >= 4 or critical_failure:
        return "major"
    return "minor" if failed_by > 0 else "none"


#: V-44: the heart attack's own damage dice, times LS.
HEART_ATTACK_DICE = {"minor": 2, "major": 6}
