"""SHELL damage (S-32 ... S-38, S-45): the A-75 pipeline for one blow, the
per-location bookkeeping with crippling (S-37, A-78, R-14), stun (S-32, S-35,
A-74), consciousness and death (S-13, S-32), and damage to objects (S-45, R-12,
A-81). Pure: the rolled damage is an input.

Why locations keep uncapped damage: A-78 -- permanence is judged at 2x the
threshold, which capped numbers could never reach; only the HP total is capped."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

import attrs

#: Bookkeeping locations (S-37, S-38) -> their S-29 kind. Limbs and eyes have sides.
_HUMANOID: dict[str, str] = {
    "torso": "torso", "heart": "heart", "groin": "groin", "head": "head", "face": "face", "neck": "neck",
    "left eye": "eye", "right eye": "eye",
    "left arm": "arm", "right arm": "arm", "left hand": "hand", "right hand": "hand",
    "left leg": "leg", "right leg": "leg", "left foot": "foot", "right foot": "foot",
}
HUMANOID_LOCATIONS = tuple(_HUMANOID)
#: A quadruped's four legs and feet (S-16): legs and feet by kind, for crippling (S-37) and armour.
_QUADRUPED: dict[str, str] = {
    "left foreleg": "leg", "right foreleg": "leg", "left hind leg": "leg", "right hind leg": "leg",
    "left forefoot": "foot", "right forefoot": "foot", "left hind foot": "foot", "right hind foot": "foot",
}
QUADRUPED_LIMBS = tuple(_QUADRUPED)
#: Every bookkeeping location of any body type (bodies.py says which body has which).
LOCATIONS: dict[str, str] = {**_HUMANOID, **_QUADRUPED}
#: R-14: a hand or foot belongs to its limb.
LIMB_OF: dict[str, str] = {"left hand": "left arm", "right hand": "right arm",
                           "left foot": "left leg", "right foot": "right leg",
                           "left forefoot": "left foreleg", "right forefoot": "right foreleg",
                           "left hind foot": "left hind leg", "right hind foot": "right hind leg"}
#: S-37 crippling thresholds, percent of base HPmax.
CRIPPLE_PCT: dict[str, int] = {"arm": 40, "leg": 40, "hand": 20, "foot": 20, "eye": 10}
LIMB_KINDS = ("arm", "leg", "hand", "foot")
SKULL_DR = 2  # S-37, natural


def kind(location: str) -> str:
    return LOCATIONS[location]


@attrs.frozen
class Step:
    """One step of the pipeline, for the event's explanation."""

    value: int
    reason: str
    rule: str


@attrs.frozen
class Blow:
    """The damage one hit does to its location, with each step of A-75."""

    location: str
    damage_type: str
    damage: int
    steps: tuple[Step, ...]


def blow(raw: int, location: str, damage_type: str, armour_dr: int = 0, natural_dr: int = 0,
         armour_piercing: bool = False, dm: int = 0) -> Blow:
    """A-75: raw -> minus DR (armour halved for armour-piercing; natural DR and the skull
    are not) -> x (1 - DM%) floored -> type multiplier floored (impaling, S-36; cutting has
    none, S-34, and crushing acts through stun, S-35) -> location
    multiplier (head and neck x4, S-37). Minimum 0 at every step (A-74).

    The eye's "excess x4" depends on the damage the eye already has, so it is applied
    by :func:`take` (the eye keeps its own, unmultiplied damage for crippling)."""
    k = kind(location)
    steps = [Step(max(0, raw), "rolled damage", "S-32")]
    dmg = max(0, raw)
    dr = (armour_dr // 2 if armour_piercing else armour_dr) + natural_dr + (SKULL_DR if k == "head" else 0)
    if dr:
        dmg = max(0, dmg - dr)
        steps.append(Step(dmg, f"DR {dr}" + (" (armour halved, armour-piercing)" if armour_piercing else ""),
                          "S-33"))
    if dm:
        dmg = max(0, dmg * (100 - dm) // 100)
        steps.append(Step(dmg, f"DM {dm}%", "S-33"))
    if damage_type == "imp" and k in ("heart", "groin"):
        dmg = dmg * 3 // 2
        steps.append(Step(dmg, f"impaling the {k} x1.5", "S-36"))
    elif damage_type == "imp" and k in LIMB_KINDS:
        dmg = dmg // 2
        steps.append(Step(dmg, f"impaling a limb x1/2", "S-36"))
    if k in ("head", "neck"):
        dmg *= 4
        steps.append(Step(dmg, f"{k} x4", "S-37"))
    return Blow(location, damage_type, dmg, tuple(steps))


# --- bookkeeping --------------------------------------------------------------


@attrs.frozen
class Wounds:
    """Damage per location (uncapped, A-78), and the non-lethal "stun" damage (S-35)."""

    locations: Mapping[str, int] = attrs.field(factory=dict)
    stun: int = 0

    def at(self, location: str) -> int:
        return self.locations.get(location, 0)


def threshold(location: str, hp: int) -> Fraction | None:
    """S-37: the crippling threshold as an exact fraction of base HPmax (A-78)."""
    pct = CRIPPLE_PCT.get(kind(location))
    return None if pct is None else Fraction(pct * hp, 100)


def _eye_total(d: int, hp: int) -> int:
    """S-37 / A-78: eye damage up to 10% of HPmax counts once, the excess x4, floored."""
    t = Fraction(hp, 10)
    return math.floor(min(Fraction(d), t) + 4 * max(Fraction(0), d - t))


def counted(w: Wounds, location: str, hp: int) -> int:
    """What ``location`` adds to the HP total (A-78, R-14)."""
    k, d = kind(location), w.at(location)
    if k == "eye":
        return _eye_total(d, hp)
    if k in ("hand", "foot"):
        return min(d, math.ceil(Fraction(20 * hp, 100)))
    if k in ("arm", "leg"):
        return min(limb_damage(w, location, hp), math.ceil(Fraction(40 * hp, 100)))
    return d


def limb_damage(w: Wounds, limb: str, hp: int) -> int:
    """R-14: the arm's (leg's) damage = its own hits + its hand's (foot's) counted damage."""
    extremity = next((e for e, l in LIMB_OF.items() if l == limb), None)
    return w.at(limb) + (0 if extremity is None else counted(w, extremity, hp))


def total(w: Wounds, hp: int) -> int:
    """S-38: the accumulated total (lethal, counted) that decides unconsciousness with stun damage."""
    return sum(counted(w, loc, hp) for loc in LOCATIONS if kind(loc) not in ("hand", "foot")) + w.stun


def lethal(w: Wounds, hp: int) -> int:
    return total(w, hp) - w.stun


@attrs.frozen
class Condition:
    unconscious: bool
    dead: bool


def condition(w: Wounds, hp: int) -> Condition:
    """S-32: unconscious at total >= HPmax (END is then set to 0, S-13); dead at lethal >= 2 x HPmax."""
    return Condition(unconscious=total(w, hp) >= hp, dead=lethal(w, hp) >= 2 * hp)


@attrs.frozen
class Crippling:
    """S-37 for one location after a blow."""

    location: str
    permanent: bool  # reached 2x the threshold (checked first, A-78)
    ht_roll: bool  # the whole threshold came in one blow: HT+2 decides temporary/permanent
    wp_roll: bool  # permanent: WP roll to stay conscious


@attrs.frozen
class Taken:
    """What one blow did: the new wounds and everything it triggers."""

    wounds: Wounds
    location_damage: int  # added to the location record
    counted: int  # added to the HP total (capped, eye excess x4)
    stunned: bool
    wp_roll: bool  # a stunning crushing blow to the head or groin (S-35, A-76)
    crippled: tuple[Crippling, ...]
    condition: Condition


def take(w: Wounds, b: Blow, hp: int, non_lethal: bool = False, wp_roll_any_type: bool = False) -> Taken:
    """Record ``b`` on ``w`` (S-37, S-38) and work out stun and crippling.

    Stun (S-32, S-35): the blow's damage >= 1/2 HPmax; for crushing on head,
    torso or groin >= 1/3. A crippled location also stuns (S-37). Non-lethal
    damage (S-35: crushing to torso or head) is kept apart and never kills."""
    k = kind(b.location)
    before = total(w, hp)
    if non_lethal:
        if b.damage_type != "cr" or k not in ("torso", "head"):
            raise ValueError("only crushing damage to the torso or head can be non-lethal (S-35)")
        new = Wounds(w.locations, w.stun + b.damage)
    else:
        locs = dict(w.locations)
        locs[b.location] = locs.get(b.location, 0) + b.damage
        new = Wounds(locs, w.stun)
    added = total(new, hp) - before
    blow_damage = added if k == "eye" else b.damage  # the eye's x4 excess is part of the blow
    crushing_zone = b.damage_type == "cr" and k in ("head", "torso", "groin")
    stunned = blow_damage * (3 if crushing_zone else 2) >= hp and blow_damage > 0
    wp = stunned and k in ("head", "groin") and (b.damage_type == "cr" or wp_roll_any_type)
    crippled = [] if non_lethal else _crippling(w, new, b, hp)
    return Taken(new, 0 if non_lethal else b.damage, added, stunned or bool(crippled), wp,
                 tuple(crippled), condition(new, hp))


def _crippling(old: Wounds, new: Wounds, b: Blow, hp: int) -> list[Crippling]:
    """S-37 / A-78 / R-14: the hit location, and its limb when a hand or foot is hit."""
    out: list[Crippling] = []
    for loc in (b.location, LIMB_OF.get(b.location)):
        if loc is None:
            continue
        t = threshold(loc, hp)
        if t is None:
            continue
        measure = (lambda w: limb_damage(w, loc, hp)) if kind(loc) in ("arm", "leg") else (lambda w: w.at(loc))
        was, now = measure(old), measure(new)
        if now < t or now == was:
            continue
        permanent = now >= 2 * t
        if was >= t and not (permanent and was < 2 * t):
            continue  # already crippled, and not newly permanent
        one_blow = was < t and now - was >= t and not permanent
        out.append(Crippling(loc, permanent, one_blow, permanent))
    return out


def clear_stun_damage(w: Wounds) -> Wounds:
    """S-35: stun damage is recovered after the fight or on regaining consciousness."""
    return Wounds(w.locations, 0)


# --- objects (S-45) -----------------------------------------------------------


@attrs.frozen
class ObjectHit:
    damage: int
    breaks: bool


def object_damage(raw: int, damage_type: str, object_hp: int, object_dr: int = 0) -> ObjectHit:
    """S-45: rolled damage (impaling halved), minus the object's DR if it has one
    (A-81); it breaks only when damage exceeds its HP (R-12). Nothing accumulates."""
    dmg = max(0, raw)
    if damage_type == "imp":
        dmg //= 2
    dmg = max(0, dmg - object_dr)
    return ObjectHit(dmg, dmg > object_hp)


AREA_LOCATION = "torso"  # S-38: area attacks do general (torso) damage; torso armour protects
