"""SHELL hit-location tables per body type, and what a creature's size puts out of reach
(S-16 animals and aliens, S-29 location modifiers, A-63).

Why data: S-16 says hit-location modifiers differ by body type and gives one figure
(a normal-sized quadruped is -2 to the head or face); A-63 settles that a body
type's table **replaces** the humanoid one (the quadruped's face is -2, not
-3 - 2). A table maps each bookkeeping location (damage.LOCATIONS) the body has to
its S-29 kind and AT modifier, so damage, crippling and armour keep working on the
kind (a foreleg is a leg, S-37) and a location the body lacks cannot be aimed at.
Bodies: humanoid (the S-29 chart), quadruped, and S-16's centaur, whose far side
depends on which way it is attacked from.
"""

from __future__ import annotations

from typing import Mapping

import attrs

from combat_server.rules.shell import charts, damage

HUMANOID = "humanoid"
NORMAL = "normal"


@attrs.frozen
class Location:
    """One row of a body's table: the bookkeeping name, its S-29 kind and its AT modifier."""

    name: str
    kind: str
    at: int


def _humanoid() -> tuple[Location, ...]:
    """Today's S-29 chart over the humanoid bookkeeping locations."""
    return tuple(Location(name, damage.kind(name), charts.LOCATION_AT[damage.kind(name)])
                 for name in damage.HUMANOID_LOCATIONS)


#: S-16 / A-63: the quadruped's own table (a dog, a horse, a lion): head and face -2 (S-16's
#: example, replacing the humanoid -2 / -3); four legs and feet at the humanoid leg and foot
#: modifiers; no arms or hands. The other rows keep their S-29 values.
_QUADRUPED_AT: Mapping[str, int] = {
    "torso": 0, "heart": -2, "groin": -2, "head": -2, "face": -2, "neck": -4, "eye": -5, "leg": -1, "foot": -3,
}


def _quadruped() -> tuple[Location, ...]:
    names = [n for n in damage.HUMANOID_LOCATIONS if damage.kind(n) in _QUADRUPED_AT and damage.kind(n) not in
             ("leg", "foot")] + list(damage.QUADRUPED_LIMBS)
    return tuple(Location(name, damage.kind(name), _QUADRUPED_AT[damage.kind(name)]) for name in names)


def _centaur() -> tuple[Location, ...]:
    """S-16's centaur: a humanoid portion (head, arms, hands at their S-29 values) on a quadruped's
    four legs and feet."""
    upper = tuple(row for row in _humanoid() if row.kind not in ("leg", "foot"))
    lower = tuple(row for row in _quadruped() if row.name in damage.QUADRUPED_LIMBS)
    return upper + lower


#: Body type -> its hit-location table (S-16, A-63). Humanoid is the S-29 chart unchanged.
BODIES: Mapping[str, tuple[Location, ...]] = {HUMANOID: _humanoid(), "quadruped": _quadruped(),
                                              "centaur": _centaur()}

_HIND = ("left hind leg", "right hind leg", "left hind foot", "right hind foot")
_HUMANOID_PORTION = ("head", "face", "neck", "left eye", "right eye", "left arm", "right arm", "left hand",
                     "right hand")
#: S-16: where the "far side" (S-29's -3) lies depends on the shape: a centaur's hind legs and feet
#: seen from the front, its humanoid portion seen from behind. A body not listed has the usual far
#: side, the locations facing away, for the attacker to judge.
FAR_SIDE: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    "centaur": {"front": _HIND, "behind": _HUMANOID_PORTION},
}
FACINGS = ("front", "behind")

#: Size relative to a man-sized attacker -> the location kinds it puts out of reach (S-16):
#: a tiny creature's eyes cannot be aimed at (a leprechaun's eyes with a broadsword); a huge
#: one's head, face, neck and eyes are out of reach from the ground, unless the attacker
#: stands higher than it (S-29's higher-ground case).
SIZES: Mapping[str, tuple[str, ...]] = {
    "tiny": ("eye",), NORMAL: (), "huge": ("head", "face", "neck", "eye"),
}
#: The sizes whose out-of-reach kinds come within reach of an attacker standing higher.
REACHED_FROM_ABOVE = ("huge",)


def table(body: str) -> tuple[Location, ...]:
    return BODIES[body]


def location(body: str, name: str) -> Location | None:
    """The row of ``name`` in the body's table, or None when the body has no such location."""
    return next((row for row in BODIES[body] if row.name == name), None)


def kind_at(body: str, kind: str) -> int:
    """The AT modifier for aiming at a location kind on this body (S-29, replaced per A-63)."""
    return next(row.at for row in BODIES[body] if row.kind == kind)


def far_side(body: str, facing: str) -> tuple[str, ...]:
    """The locations on the far side (S-29's -3) of this body seen from ``facing`` (S-16)."""
    return FAR_SIDE.get(body, {}).get(facing, ())


def unreachable(size: str, higher: bool = False) -> tuple[str, ...]:
    """The location kinds a creature of ``size`` puts out of reach (S-16)."""
    if higher and size in REACHED_FROM_ABOVE:
        return ()
    return SIZES[size]
