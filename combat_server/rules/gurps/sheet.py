"""The GURPS character sheet: what a GM types in. Derived scores are never typed
in (see derived.py); a sheet with impossible values is refused naming the field."""

from __future__ import annotations

import math
from typing import Any, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.gurps.json_hooks import drop_defaults, make_hook
from combat_server.rules.gurps.gulliver.size import Scale, scale_to_json, validate_scale
from combat_server.rules.gurps.gulliver.light import Eyes
from combat_server.rules.gurps.state import (NEW_ATTACK_FIELDS, NEW_COMBAT_FIELDS, NEW_CONDITION_FIELDS, Attack, Combat,
                                             Condition)
from combat_server.rules.gurps.tables import DAMAGE_TYPES, parse_dice
from combat_server.rules.model import JSON


#: Weapons that are unarmed unless the sheet says otherwise (G-41).
UNARMED_NAMES = ("punch", "kick", "bite", "claws")

#: The implicit punch: thr-1 cr, reach C (G-41: an empty hand parries unarmed).
IMPLICIT_PUNCH = "punch"


@attrs.frozen
class Weapon:
    """A melee, thrown or missile weapon. ``damage`` is ``thr+1``, ``sw-2`` or fixed ``2d+1``."""

    name: str
    kind: str = "melee"  # melee | ranged | thrown
    skill: int = 10
    damage: str = "thr"
    damage_type: str = "cr"
    reach: str = "1"
    parry: int | None = 0  # None: cannot parry (e.g. a bow)
    unbalanced: bool = False
    weight: float = 0.0
    acc: int = 0
    half_damage: int = 0  # 1/2D range, yards (0: none)
    max_range: int = 0
    bulk: int = 0
    rof: int = 1
    shots: int = 0
    min_range: int = 0
    needs_ready: bool = False  # must be readied again after each use (G-22 Double)
    st_based: bool = True  # thr/sw damage; AOA Strong applies only to these (G-22)
    off_hand: bool = False
    firearm: bool = False  # bullets and beams: no block (G-40) and no parry (G-41)
    min_st: int = 0  # minimum ST (GCS "strength"); 0: none given
    two_handed: bool = False  # GCS's dagger mark on the minimum ST
    recoil: int = 0  # 0: none given (GCS "recoil", the single-shot figure)
    reload: int = 1  # Ready maneuvers to reload once its shots are spent (G-33); counted only with ``shots``
    # GULLIVER (#11), read only by the fight's options that use them:
    beam: bool = False  # V-07: a beam, fireball or lightning attack (x2 blowthrough on the body and head)
    large_calibre: bool = False  # V-07 / A-30: a bullet of calibre .40 or more (x1.5 blowthrough)
    hollow_point: bool = False  # V-07 / A-30: a hollow-point bullet (x1.5 blowthrough)
    shock_multiplier: int = 1  # V-17 / A-28: its shock is the injury times this (a Type II nerve pistol x4)
    shock_only: bool = False  # V-17: a stunner: its roll is shock points dealt directly, never damage
    #: G-41: an unarmed attack (punch, kick, bite, claws): parrying it with a weapon earns a counter-blow.
    #: Unstated, a weapon named like one of UNARMED_NAMES is one (the name the rules read before, #14).
    unarmed: bool = attrs.field(default=attrs.Factory(lambda w: w.name.lower() in UNARMED_NAMES, takes_self=True))

    @property
    def counts_shots(self) -> bool:
        """Ammunition is counted for a weapon whose sheet gives its shots (0: not counted)."""
        return self.shots > 0


@attrs.frozen
class Sheet:
    st: int = 10
    dx: int = 10
    iq: int = 10
    ht: int = 10
    hp: int | None = None  # HPmax; default ST
    fp: int | None = None  # FPmax; default HT
    will: int | None = None  # default IQ
    per: int | None = None  # default IQ
    speed_bonus_quarters: int = 0  # bought-up Basic Speed, in 0.25 steps
    move_bonus: int = 0  # bought-up Basic Move
    sm: int = 0
    dr: int = 0
    carried: float = 0.0  # lb, gives the encumbrance level (G-02)
    encumbrance: int | None = None  # or set the level directly
    shield_skill: int | None = None  # ready shield or cloak (G-40)
    shield_name: str = ""
    unarmed_skill: int | None = None  # Brawling etc.; default DX
    skills: Mapping[str, int] = attrs.field(factory=dict)
    weapons: tuple[Weapon, ...] = ()
    db: int = 0  # a ready shield's Defence Bonus: added to Dodge, Parry and Block (GCS shields)
    traits: tuple[str, ...] = ()  # the traits the rules use (TRAITS), by their GCS name
    dr_locations: Mapping[str, int] = attrs.field(factory=dict)  # DR by hit location; ``dr`` is the torso's
    #: GULLIVER size and scale (A-27, catalogue 2.0): read only by the fight's GULLIVER options (issue #11);
    #: other modules reach it through ``gulliver.size.scale_of``.
    gulliver: Scale = Scale()
    #: V-46 (GULLIVER light levels): what shifts the light this combatant sees (``EYES``); only the
    #: entries that differ from their default are kept, so the JSON holds what was typed.
    eyes: Mapping[str, JSON] = attrs.field(factory=dict)

    @property
    def hp_max(self) -> int:
        return self.hp if self.hp is not None else self.st

    @property
    def fp_max(self) -> int:
        return self.fp if self.fp is not None else self.ht

    @property
    def will_score(self) -> int:
        return self.will if self.will is not None else self.iq

    @property
    def per_score(self) -> int:
        return self.per if self.per is not None else self.iq

    def weapon(self, name: str) -> Weapon:
        for w in self.all_weapons():
            if w.name == name:
                return w
        raise reject("maneuver/unknown_weapon", f"no weapon {name!r} on this sheet",
                     known=[w.name for w in self.all_weapons()])

    def all_weapons(self) -> tuple[Weapon, ...]:
        """The sheet's weapons, plus the implicit punch where G-41 allows one (:meth:`empty_hand`)."""
        if any(w.unarmed or w.name == IMPLICIT_PUNCH for w in self.weapons) or not self.empty_hand():
            return self.weapons
        skill = self.unarmed_skill if self.unarmed_skill is not None else self.dx
        punch = Weapon(name=IMPLICIT_PUNCH, kind="melee", skill=skill, damage="thr-1", damage_type="cr", reach="C",
                       parry=0, unarmed=True)
        return self.weapons + (punch,)

    def empty_hand(self) -> bool:
        """G-41: an unarmed parry (and punch) needs an empty hand. The sheet's melee weapons are taken
        as held (a two-handed one in both hands) and a shield on one arm; a hand is free while they
        fill fewer than two. Ranged and thrown weapons are taken as slung or sheathed."""
        held = sum(2 if w.two_handed else 1 for w in self.weapons if w.kind == "melee" and not w.unarmed)
        return held + (1 if self.shield_skill is not None else 0) < 2


#: Traits the rules use, and what for. Sheets name them; the GCS importer keeps only these.
TRAITS: Mapping[str, str] = {
    "Combat Reflexes": "+1 to Dodge, Parry and Block",
    "High Pain Threshold": "no shock penalty from injury (G-47)",
}

#: Fields added after fights were stored: left out of a sheet's JSON at their default, so
#: stored fights' events and states keep their bytes (tests/test_fixtures.py).
_NEW_SHEET_FIELDS = {"db": 0, "traits": (), "dr_locations": {}, "gulliver": {}, "eyes": {}}
_NEW_WEAPON_FIELDS = {"min_st": 0, "two_handed": False, "recoil": 0, "reload": 1, "beam": False,
                      "large_calibre": False, "hollow_point": False, "shock_multiplier": 1, "shock_only": False}
#: V-07 / A-30: the weapon fields only a bullet (a piercing attack) may set.
BULLET_FIELDS = ("large_calibre", "hollow_point")
#: The piercing damage types: what a bullet does (G-42).
BULLET_TYPES = ("pi-", "pi", "pi+", "pi++")

_INT_FIELDS = {
    "st": (1, 200), "dx": (1, 40), "iq": (1, 40), "ht": (1, 40), "hp": (1, 2000), "fp": (1, 200),
    "will": (1, 40), "per": (1, 40), "speed_bonus_quarters": (-40, 40), "move_bonus": (-10, 20),
    "sm": (-10, 20), "dr": (0, 500), "encumbrance": (0, 4), "shield_skill": (0, 40), "unarmed_skill": (0, 40),
    "db": (0, 10),
}
_WEAPON_INT = {
    "skill": (0, 40), "parry": (-5, 5), "acc": (0, 25), "half_damage": (0, 100000), "max_range": (0, 100000),
    "bulk": (-20, 0), "rof": (1, 1000), "shots": (0, 10000), "min_range": (0, 10000),
    "min_st": (0, 200), "recoil": (0, 100), "reload": (1, 100), "shock_multiplier": (1, 100),
}


def _bad(field: str, message: str) -> Exception:
    return reject("sheet/bad_field", f"sheet field {field}: {message}", field=field)


def _int(raw: Mapping[str, JSON], key: str, bounds: tuple[int, int], prefix: str = "") -> int | None:
    if key not in raw or raw[key] is None:
        return None
    v = raw[key]
    if not isinstance(v, int) or isinstance(v, bool):
        raise _bad(prefix + key, f"must be a whole number, got {v!r}")
    lo, hi = bounds
    if not lo <= v <= hi:
        raise _bad(prefix + key, f"must be between {lo} and {hi}, got {v}")
    return v


#: Weights (``carried``, a weapon's ``weight``) in lb: 0..MAX_WEIGHT with at most WEIGHT_DECIMALS decimals.
#: Bounded so the number has one exact JSON form on every store (#15 item 4); NaN and Infinity are
#: not numbers a sheet can hold (#15 item 14).
MAX_WEIGHT = 1_000_000
WEIGHT_DECIMALS = 3


def _weight(raw: Mapping[str, JSON], key: str, prefix: str = "") -> float:
    v = raw[key]
    field = prefix + key
    if not isinstance(v, (int, float)) or isinstance(v, bool):
        raise _bad(field, f"must be a number of pounds, got {v!r}")
    if not math.isfinite(v):
        raise _bad(field, f"must be a finite number of pounds, got {v!r}")
    if not 0 <= v <= MAX_WEIGHT:
        raise _bad(field, f"must be between 0 and {MAX_WEIGHT} lb, got {v}")
    if round(v, WEIGHT_DECIMALS) != v:
        raise _bad(field, f"must have at most {WEIGHT_DECIMALS} decimals, got {v}")
    return float(v)


def _weapon(raw: Any, i: int) -> Weapon:
    p = f"weapons[{i}]."
    if not isinstance(raw, Mapping):
        raise _bad(f"weapons[{i}]", "must be an object")
    unknown = set(raw) - {f.name for f in attrs.fields(Weapon)}
    if unknown:
        raise _bad(p + sorted(unknown)[0], "is not a weapon field")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _bad(p + "name", "is required")
    kw: dict[str, Any] = {"name": name.strip()}
    kind = raw.get("kind", "melee")
    if kind not in ("melee", "ranged", "thrown"):
        raise _bad(p + "kind", "must be melee, ranged or thrown")
    kw["kind"] = kind
    for key, bounds in _WEAPON_INT.items():
        if key == "parry" and key in raw and raw[key] is None:
            kw["parry"] = None
            continue
        v = _int(raw, key, bounds, p)
        if v is not None:
            kw[key] = v
    damage = raw.get("damage", "thr")
    if not isinstance(damage, str):
        raise _bad(p + "damage", "must be text like 'sw+2', 'thr' or '2d+1'")
    base = damage.replace(" ", "")
    try:
        if base.startswith(("thr", "sw")):
            rest = base[3:] if base.startswith("thr") else base[2:]
            if rest:
                int(rest)
            kw["st_based"] = bool(raw.get("st_based", True))
        else:
            parse_dice(base)
            kw["st_based"] = bool(raw.get("st_based", False))
    except ValueError:
        raise _bad(p + "damage", f"cannot read damage {damage!r}") from None
    kw["damage"] = base
    dtype = raw.get("damage_type", "cr")
    if dtype not in DAMAGE_TYPES:
        raise _bad(p + "damage_type", f"unknown damage type {dtype!r} (known: {', '.join(DAMAGE_TYPES)})")
    kw["damage_type"] = dtype
    for key in ("unbalanced", "needs_ready", "off_hand", "firearm", "two_handed", "unarmed", "beam",
                *BULLET_FIELDS, "shock_only"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise _bad(p + key, "must be true or false")
            kw[key] = raw[key]
    for key in BULLET_FIELDS:  # V-07: calibre and hollow points are a bullet's, and bullets pierce
        if kw.get(key) and dtype not in BULLET_TYPES:
            raise _bad(p + key, f"only a bullet (piercing damage: {', '.join(BULLET_TYPES)}) has it, "
                                f"not {dtype} damage (V-07)")
    if "reach" in raw:
        if not isinstance(raw["reach"], str):
            raise _bad(p + "reach", "must be text like 'C', '1' or '1,2'")
        kw["reach"] = raw["reach"]
    if "weight" in raw:
        kw["weight"] = _weight(raw, "weight", p)
    if kind != "melee" and kw.get("max_range", 0) == 0 and kind == "ranged":
        raise _bad(p + "max_range", "a ranged weapon needs a Max range")
    return Weapon(**kw)


#: V-46: the eyes block's fields -> (allowed values, default); a viewer's light shifts by them (light.Eyes).
EYES: Mapping[str, tuple[tuple[JSON, ...], JSON]] = {
    "light_sensitivity": ((0, 1, 2), 0),  # Bad Sight (light sensitivity) 2, the mild form 1
    "night_vision": (("", "partial", "full"), ""),  # the 5-point version is "partial"
    "night_blindness": ((False, True), False),
    "eyewear": ((0, 1, 2), 0),  # sunglasses 1, welder's or dark wrap-around goggles 2
}


def _eyes(raw: JSON) -> dict[str, JSON]:
    """V-46: the eyes block, checked field by field (``sheet/bad_field`` naming ``eyes.<field>``);
    entries at their default are dropped."""
    if not isinstance(raw, Mapping):
        raise _bad("eyes", "must be an object")
    out: dict[str, JSON] = {}
    for key, value in raw.items():
        if key not in EYES:
            raise _bad(f"eyes.{key}", f"is not an eyes field (known: {', '.join(EYES)})")
        allowed, default = EYES[key]
        if not any(type(value) is type(a) and value == a for a in allowed):
            raise _bad(f"eyes.{key}", f"must be one of {', '.join(repr(a) for a in allowed)}, got {value!r}")
        if value != default:
            out[key] = value
    return out


def eyes_of(sheet: Sheet) -> Eyes:
    """The sheet's eyes as the light rules read them (V-46); a sheet without the block sees as GURPS's default."""
    return Eyes(**sheet.eyes) if sheet.eyes else _NO_EYES


_NO_EYES = Eyes()


def validate_sheet(raw: Mapping[str, JSON]) -> Sheet:
    if not isinstance(raw, Mapping):
        raise reject("sheet/bad_field", "a sheet must be an object")
    known = {f.name for f in attrs.fields(Sheet)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise _bad(unknown[0], f"is not a GURPS sheet field (known: {', '.join(sorted(known))})")
    kw: dict[str, Any] = {}
    for key, bounds in _INT_FIELDS.items():
        v = _int(raw, key, bounds)
        if v is not None:
            kw[key] = v
    if "carried" in raw:
        kw["carried"] = _weight(raw, "carried")
    if "shield_name" in raw:
        if not isinstance(raw["shield_name"], str):
            raise _bad("shield_name", "must be text")
        kw["shield_name"] = raw["shield_name"]
    traits = raw.get("traits", [])
    if not isinstance(traits, (list, tuple)) or not all(isinstance(t, str) for t in traits):
        raise _bad("traits", "must be a list of trait names")
    for t in traits:
        if t not in TRAITS:
            raise _bad("traits", f"no rule uses the trait {t!r} (known: {', '.join(TRAITS)})")
    kw["traits"] = tuple(sorted(set(traits)))
    dr_locations = raw.get("dr_locations", {})
    if not isinstance(dr_locations, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 500
        for k, v in dr_locations.items()
    ):
        raise _bad("dr_locations", "must map hit locations to DR 0..500")
    kw["dr_locations"] = dict(dr_locations)
    if "gulliver" in raw:
        kw["gulliver"] = validate_scale(raw["gulliver"])  # sheet/bad_field naming gulliver.<field>
    kw["eyes"] = _eyes(raw.get("eyes", {}))
    skills = raw.get("skills", {})
    if not isinstance(skills, Mapping) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 40
        for k, v in skills.items()
    ):
        raise _bad("skills", "must map skill names to levels 0..40")
    kw["skills"] = dict(skills)
    weapons = raw.get("weapons", [])
    if not isinstance(weapons, (list, tuple)):
        raise _bad("weapons", "must be a list")
    kw["weapons"] = tuple(_weapon(w, i) for i, w in enumerate(weapons))
    names = [w.name for w in kw["weapons"]]
    if len(set(names)) != len(names):
        raise _bad("weapons", "weapon names must be unique")
    return Sheet(**kw)


def _weapon_json(data: dict[str, Any]) -> dict[str, Any]:
    """A weapon's JSON without the fields at their defaults; ``unarmed`` defaults by name."""
    data = drop_defaults(data, _NEW_WEAPON_FIELDS)
    if data.get("unarmed") == (str(data["name"]).lower() in UNARMED_NAMES):
        del data["unarmed"]
    return data


def sheet_to_json(sheet: Sheet) -> dict[str, JSON]:
    data: dict[str, Any] = attrs.asdict(sheet, recurse=True)
    data["gulliver"] = scale_to_json(sheet.gulliver)  # exact rationals; {} (left out) when every field is default
    data["weapons"] = [_weapon_json(dict(w)) for w in data["weapons"]]
    if "traits" in data:
        data["traits"] = list(data["traits"])
    return drop_defaults(data, _NEW_SHEET_FIELDS)


def _unstructure_hooks() -> None:
    """States (snapshots, hashes) leave the new fields out at their defaults too, so a stored
    fight refolds to the same bytes (serialize.state_bytes)."""
    from combat_server.rules.serialize import converter

    conv = converter()
    conv.register_unstructure_hook(Scale, scale_to_json)
    conv.register_structure_hook(Scale, lambda raw, _type: validate_scale(raw))
    weapon = make_hook(Weapon, conv.unstructure, {})
    conv.register_unstructure_hook(Weapon, lambda w: _weapon_json(weapon(w)))
    conv.register_unstructure_hook(Sheet, make_hook(Sheet, conv.unstructure, _NEW_SHEET_FIELDS))
    conv.register_unstructure_hook(Combat, make_hook(Combat, conv.unstructure, NEW_COMBAT_FIELDS))
    conv.register_unstructure_hook(Attack, make_hook(Attack, conv.unstructure, NEW_ATTACK_FIELDS))
    conv.register_unstructure_hook(Condition, make_hook(Condition, conv.unstructure, NEW_CONDITION_FIELDS))


#: The JSON each hook's class gets, by its new fields (tests/gurps/test_condition_fast_paths.py).
NEW_FIELDS_OF: dict[type, Mapping[str, Any]] = {Sheet: _NEW_SHEET_FIELDS, Combat: NEW_COMBAT_FIELDS,
                                                Attack: NEW_ATTACK_FIELDS, Condition: NEW_CONDITION_FIELDS}


_unstructure_hooks()
