"""Hit-location tables as data (A-24, A-63): one table per body type, the humanoid
one by default; a creature's table replaces the humanoid one, it does not add to it.

GULLIVER takes hit locations from GURPS (V-08: "CII p. 53", external to the seed);
the numbers here are the GURPS Basic Set 4th-edition tables (p. 552), matching the
4th-edition core of seed 001 and the location names GCS files use for DR
(``Sheet.dr_locations``). GULLIVER's "brain" is the ``skull`` location.

Each location says which options read it (``used_by``), so the docs and the wiring
know why it is there: crippling (V-11, V-12, V-13), brain hits (V-20), limb stun
(V-21), the heart (V-44), location Toughness (V-64), blowthrough factors (V-07)."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import attrs

from combat_server.rules.gurps.injury import wound_multiplier as standard_multiplier

#: The piercing and impaling types a location multiplier table names (G-42, A-20).
PIERCING = ("pi-", "pi", "pi+", "pi++")


@attrs.frozen
class Location:
    """One hit location.

    ``kind``: what the rules treat it as (torso, vitals, skull, face, neck, eye, groin,
    arm, leg, hand, foot, tail). ``rolls``: the 3d totals that hit it at random (none:
    only by aiming). ``wounding``: wound multipliers by damage type that replace G-42's
    here; unlisted types keep G-42's. ``cripple``: the share of HPmax a single blow must
    exceed to cripple it (V-11, V-13), or None. ``toughness``: the share of Toughness
    that protects it (V-64). ``blowthrough``: its factor on the blowthrough cap (V-07),
    None for no cap (the brain). ``dr_key``: the ``dr_locations`` entry of its DR.
    """

    name: str
    kind: str
    penalty: int
    rolls: tuple[int, ...] = ()
    wounding: Mapping[str, Fraction] = attrs.field(factory=dict)
    cripple: Fraction | None = None
    toughness: Fraction = Fraction(1)
    blowthrough: Fraction | None = Fraction(1)
    natural_dr: int = 0
    dr_key: str = ""
    heart: bool = False
    used_by: tuple[str, ...] = ()


_HALF = Fraction(1, 2)
_THIRD = Fraction(1, 3)
#: Limbs: large piercing and impaling wound no worse than crushing there (Basic Set).
_LIMB_WOUNDING = {"imp": Fraction(1), "pi+": Fraction(1), "pi++": Fraction(1)}
_SKULL_WOUNDING = {t: Fraction(4) for t in ("cr", "cut", "imp", *PIERCING, "burn", "cor")}
_VITALS_WOUNDING = {"imp": Fraction(3), **{t: Fraction(3) for t in PIERCING}}
_NECK_WOUNDING = {"cr": Fraction(3, 2), "cor": Fraction(3, 2), "cut": Fraction(2)}
_EYE_WOUNDING = {"imp": Fraction(4), **{t: Fraction(4) for t in PIERCING}}


def _limb(name: str, kind: str, penalty: int, rolls: tuple[int, ...], cripple: Fraction, blow: Fraction,
          toughness: Fraction = Fraction(1), dr_key: str = "") -> Location:
    return Location(name, kind, penalty, rolls, _LIMB_WOUNDING, cripple, toughness, blow, dr_key=dr_key or kind,
                    used_by=("V-07", "V-11", "V-12", "V-21", "V-64"))


def _table(*locations: Location) -> dict[str, Location]:
    return {loc.name: loc for loc in locations}


HUMANOID: dict[str, Location] = _table(
    Location("eye", "eye", -9, (), _EYE_WOUNDING, None, Fraction(0), None, dr_key="eye", used_by=("V-07", "V-64")),
    Location("skull", "skull", -7, (3, 4), _SKULL_WOUNDING, None, Fraction(0), None, natural_dr=2, dr_key="skull",
             used_by=("V-07", "V-20", "V-59", "V-64")),
    Location("face", "face", -5, (5,), {"cor": Fraction(3, 2)}, None, Fraction(1), Fraction(3), dr_key="face",
             used_by=("V-07",)),
    _limb("right leg", "leg", -2, (6, 7), _HALF, _HALF),
    _limb("right arm", "arm", -2, (8,), _HALF, _HALF),
    Location("torso", "torso", 0, (9, 10), {}, None, dr_key="torso", used_by=("V-07",)),
    Location("groin", "groin", -3, (11,), {}, None, _HALF, Fraction(1), dr_key="groin", used_by=("V-64",)),
    _limb("left arm", "arm", -2, (12,), _HALF, _HALF),
    _limb("left leg", "leg", -2, (13, 14), _HALF, _HALF),
    _limb("hand", "hand", -4, (15,), _THIRD, _THIRD, _HALF),
    _limb("foot", "foot", -4, (16,), _THIRD, _THIRD, _HALF),
    Location("neck", "neck", -5, (17, 18), _NECK_WOUNDING, _HALF, _HALF, Fraction(1), dr_key="neck",
             used_by=("V-13", "V-64")),
    Location("vitals", "vitals", -3, (), _VITALS_WOUNDING, None, Fraction(1), Fraction(3), dr_key="vitals",
             heart=True, used_by=("V-07", "V-44")),
)

QUADRUPED: dict[str, Location] = _table(
    Location("eye", "eye", -9, (), _EYE_WOUNDING, None, Fraction(0), None, dr_key="eye", used_by=("V-07", "V-64")),
    Location("skull", "skull", -7, (3, 4), _SKULL_WOUNDING, None, Fraction(0), None, natural_dr=2, dr_key="skull",
             used_by=("V-07", "V-20", "V-59", "V-64")),
    Location("face", "face", -5, (5,), {"cor": Fraction(3, 2)}, None, Fraction(1), Fraction(3), dr_key="face",
             used_by=("V-07",)),
    Location("neck", "neck", -5, (6,), _NECK_WOUNDING, _HALF, _HALF, Fraction(1), dr_key="neck",
             used_by=("V-13", "V-64")),
    _limb("foreleg", "leg", -2, (7, 8), _HALF, _HALF),
    Location("torso", "torso", 0, (9, 10, 11), {}, None, dr_key="torso", used_by=("V-07",)),
    Location("groin", "groin", -3, (12,), {}, None, _HALF, Fraction(1), dr_key="groin", used_by=("V-64",)),
    _limb("hind leg", "leg", -2, (13, 14), _HALF, _HALF),
    _limb("foot", "foot", -4, (15, 16), _THIRD, _THIRD, _HALF),
    _limb("tail", "tail", -3, (17, 18), _HALF, _HALF),
    Location("vitals", "vitals", -3, (), _VITALS_WOUNDING, None, Fraction(1), Fraction(3), dr_key="vitals",
             heart=True, used_by=("V-07", "V-44")),
)

#: A-63: body type -> its table.
BODIES: dict[str, dict[str, Location]] = {"humanoid": HUMANOID, "quadruped": QUADRUPED}
#: A-24: without a table, every hit is to the torso.
DEFAULT_LOCATION = "torso"


def table(body: str) -> dict[str, Location]:
    return BODIES[body]


def location(body: str, name: str) -> Location:
    return BODIES[body][name]


def location_for_roll(body: str, total: int) -> Location:
    """The location a random 3d hit-location roll lands on."""
    for loc in BODIES[body].values():
        if total in loc.rolls:
            return loc
    raise ValueError(f"no {body} location for a roll of {total}")


def wound_multiplier(loc: Location, damage_type: str, basic_set: bool = False) -> Fraction:
    """The location's multiplier for this damage type, else G-42's (A-20)."""
    if damage_type in loc.wounding:
        return loc.wounding[damage_type]
    return standard_multiplier(damage_type, basic_set)


def crippling_threshold(loc: Location, hp_max: Fraction | int) -> Fraction | None:
    """V-11 / V-13: the damage a single blow must *exceed* to cripple this location."""
    return None if loc.cripple is None else loc.cripple * hp_max


def location_toughness(loc: Location, toughness: int) -> int:
    """V-64 / A-53: the Toughness this location gets, halved ones rounded down."""
    return int(loc.toughness * toughness)  # int() floors a non-negative Fraction


def location_dr(loc: Location, dr_locations: Mapping[str, int], torso_dr: int) -> int:
    """DR by location (a GCS sheet's ``dr_locations``), the torso's DR where none is given, plus natural DR."""
    return dr_locations.get(loc.dr_key, torso_dr) + loc.natural_dr
