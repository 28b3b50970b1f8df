"""Size and scale per combatant (catalogue 2.0, A-27): the numbers GULLIVER's
options read from a creature, as a sheet extension the gurps sheet will merge.

Why a separate block of fields: these come from GULLIVER Books 1-4, which the seed
does not contain (2.0), so the GM types them; every one has a default that makes a
creature an ordinary human-scaled fighter, and with no option on nothing reads them."""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import TYPE_CHECKING, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.gurps.gulliver.locations import BODIES
from combat_server.rules.model import JSON

if TYPE_CHECKING:
    from combat_server.rules.gurps.sheet import Sheet

#: A human's mass (lb): the unit GULLIVER scales from (V-31's mass factor is 1 at 150 lb).
HUMAN_MASS_LB = 150


@attrs.frozen
class Scale:
    """A combatant's GULLIVER numbers. ``None``: not typed, use the default (below)."""

    linear_scale: Fraction = Fraction(1)  # LS: 1 = human
    size: int = 0  # Size level (GULLIVER's, typed by the GM: Books 1-4 are not in the seed)
    combat_st: int | None = None  # V-01; default ST
    load_st: int | None = None  # V-01; default ST
    mass_lb: Fraction | None = None  # default 150 x LS^3
    base_hp: Fraction | None = None  # A-27: racial, size-scaled HPmax before bought HP; default HPmax
    toughness_bonus: int = 0  # V-63/V-65: bought Toughness levels on top of ST/5
    non_pc_race: bool = False  # V-60, V-61: a monster race
    racial_iq: int | None = None  # V-60, V-61; default IQ
    low_iq_trait: bool = False  # V-62: a PC race taking the combined monster trait
    body: str = "humanoid"  # A-63: which hit-location table
    other_half_hp: int | None = None  # V-04: HP of the non-base body half (split HP)
    other_half_locations: tuple[str, ...] = ()  # V-04: the locations of that half


def area_scale(ls: Fraction) -> Fraction:
    """2.0: Area Scale = LS^2."""
    return ls * ls


def volume_scale(ls: Fraction) -> Fraction:
    """2.0: Volume Scale = LS^3."""
    return ls ** 3


def combat_st(scale: Scale, st: int) -> int:
    """V-01: the ST that fighting uses; the sheet's ST unless the GM typed one."""
    return st if scale.combat_st is None else scale.combat_st


def load_st(scale: Scale, st: int) -> int:
    """V-01: the ST that lifting and hauling use; the sheet's ST unless typed."""
    return st if scale.load_st is None else scale.load_st


def mass_lb(scale: Scale) -> Fraction:
    """Mass in lb: typed, or a human's 150 lb x Volume Scale."""
    return scale.mass_lb if scale.mass_lb is not None else HUMAN_MASS_LB * volume_scale(scale.linear_scale)


def base_hp(scale: Scale, hp_max: int) -> Fraction:
    """A-27: HPmax before Extra/Reduced HP, size-scaled; the full HPmax when not typed."""
    return scale.base_hp if scale.base_hp is not None else Fraction(hp_max)


def scaled_base_hp(racial_base: int, ls: Fraction) -> Fraction:
    """V-05: an unscaled racial base HP times LS (Grog: 12 x LS 2 = 24)."""
    return racial_base * ls


def toughness(scale: Scale, st: int) -> int:
    """V-63: T = floor(Combat ST / 5), plus bought levels (V-65)."""
    return combat_st(scale, st) // 5 + scale.toughness_bonus


def racial_iq(scale: Scale, iq: int) -> int:
    return iq if scale.racial_iq is None else scale.racial_iq


def scale_of(sheet: Sheet) -> Scale:
    """A combatant's size and scale: the sheet's ``gulliver`` block (an ordinary human when empty).
    The one accessor other modules use, so none reaches into the sheet's field by name."""
    return sheet.gulliver


def combat_st_of(sheet: Sheet) -> int:
    """V-01: the sheet's Combat ST (its ST unless the block types one)."""
    return combat_st(sheet.gulliver, sheet.st)


def load_st_of(sheet: Sheet) -> int:
    """V-01: the sheet's Load ST (its ST unless the block types one)."""
    return load_st(sheet.gulliver, sheet.st)


# --------------------------------------------------------------------------- the sheet extension

_TEXT: dict[str, tuple[str, str]] = {
    "linear_scale": ("Linear Scale", "Height relative to a human (1); a Giant is 4, a 2-inch person 1/36. "
                                     "A number or a fraction such as \"1/36\"."),
    "size": ("Size", "GULLIVER Size level (0 for a human)."),
    "combat_st": ("Combat ST", "ST for blows, bites and muscle-powered weapons (V-01); default ST."),
    "load_st": ("Load ST", "ST for lifting and hauling (V-01); default ST."),
    "mass_lb": ("Mass (lb)", "Body mass; default 150 lb x Linear Scale cubed."),
    "base_hp": ("Base HP", "HP before bought Extra/Reduced HP, scaled for size (A-27); default full HP."),
    "toughness_bonus": ("Extra Toughness", "Toughness bought on top of Combat ST / 5 (V-63, V-65)."),
    "non_pc_race": ("Monster race", "A non-PC race: the monster knockout and death options apply (V-60, V-61)."),
    "racial_iq": ("Racial IQ", "The race's IQ for the monster options (V-60, V-61); default IQ."),
    "low_iq_trait": ("Low-IQ race trait", "A PC race taking the combined monster approach as a trait (V-62)."),
    "body": ("Body type", "Which hit-location table the creature uses (A-63)."),
    "other_half_hp": ("HP of the other half", "Split HP (V-04): the HP of the body half that is not the base."),
    "other_half_locations": ("Locations of the other half", "Split HP (V-04): the hit locations on that half."),
}
_INT_BOUNDS: dict[str, tuple[int, int]] = {
    "size": (-30, 30), "combat_st": (1, 100000), "load_st": (1, 100000), "toughness_bonus": (0, 1000),
    "racial_iq": (1, 40), "other_half_hp": (1, 100000),
}
#: A positive number written as text: "4", "0.5" or "1/36".
FRACTION_TEXT = r"^([0-9]+(\.[0-9]+)?|[0-9]+/[0-9]+)$"
_MAX_LS = Fraction(10000)
_MAX_MASS = Fraction(10 ** 12)
_MAX_HP = Fraction(10 ** 6)


def scale_schema() -> dict[str, JSON]:
    """The JSON Schema of the extension (a ``gulliver`` object on the sheet), titles and help per field."""
    def fraction(limit: Fraction) -> dict[str, JSON]:
        # x-rational: the bounds hold for the value of the text form too ("1/36"), which JSON Schema's
        # minimum and maximum (numbers only) cannot say; clients that honour it check it, validate_scale does
        return {"type": ["number", "string"], "pattern": FRACTION_TEXT, "exclusiveMinimum": 0,
                "maximum": int(limit), "x-rational": True}

    props: dict[str, JSON] = {
        "linear_scale": {**fraction(_MAX_LS), "default": 1},
        "mass_lb": fraction(_MAX_MASS),
        "base_hp": fraction(_MAX_HP),
        "non_pc_race": {"type": "boolean", "default": False},
        "low_iq_trait": {"type": "boolean", "default": False},
        "body": {"enum": list(BODIES), "default": "humanoid"},
        "other_half_locations": {"type": "array", "items": {"enum": _ALL_LOCATIONS}, "uniqueItems": True,
                                 "minItems": 1, "default": []},
    }
    for key, (lo, hi) in _INT_BOUNDS.items():
        props[key] = {"type": "integer", "minimum": lo, "maximum": hi}
    props["size"] = {**_dict(props["size"]), "default": 0}
    props["toughness_bonus"] = {**_dict(props["toughness_bonus"]), "default": 0}
    return {
        "title": "GULLIVER size and scale",
        "description": "What the GULLIVER options read from a creature (catalogue 2.0); every field has a "
                       "human-scaled default.",
        "type": "object",
        "properties": {k: {**_dict(props[k]), "title": t, "description": h} for k, (t, h) in _TEXT.items()},
        "additionalProperties": False,
        # V-04: both halves described or neither; the other half's locations are on the creature's body (A-63)
        "dependentRequired": {"other_half_hp": ["other_half_locations"], "other_half_locations": ["other_half_hp"]},
        "allOf": [_body_locations(body) for body in BODIES],
    }


#: Every location name of every body table (the editor offers them; the body's own table decides).
_ALL_LOCATIONS: list[JSON] = sorted({name for where in BODIES.values() for name in where})


def _body_locations(body: str) -> dict[str, JSON]:
    """The schema's rule that split HP's locations belong to the chosen body (humanoid when unset)."""
    chosen: dict[str, JSON] = {"properties": {"body": {"const": body}}, "required": ["body"]}
    if body == "humanoid":
        chosen = {"anyOf": [{"not": {"required": ["body"]}},
                            {"properties": {"body": {"const": body}}, "required": ["body"]}]}
    names: list[JSON] = list(BODIES[body])
    return {"if": chosen, "then": {"properties": {"other_half_locations": {"items": {"enum": names}}}}}


def _dict(value: JSON) -> dict[str, JSON]:
    assert isinstance(value, dict)
    return value


def _bad(field: str, message: str) -> Exception:
    return reject("sheet/bad_field", f"sheet field gulliver.{field}: {message}", field=f"gulliver.{field}")


def _positive_fraction(raw: Mapping[str, JSON], key: str, limit: Fraction) -> Fraction | None:
    value = raw.get(key)
    if value is None:
        return None
    try:
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError
        if isinstance(value, str) and not re.match(FRACTION_TEXT, value):
            raise ValueError
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueError
        frac = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)  # a float as written: 0.1 -> 1/10
    except (ValueError, ZeroDivisionError):
        raise _bad(key, f"must be a positive number or fraction such as \"1/36\", got {value!r}") from None
    if not 0 < frac <= limit:
        raise _bad(key, f"must be more than 0 and at most {limit}, got {value}")
    return frac


def validate_scale(raw: JSON) -> Scale:
    """The ``gulliver`` block of a sheet, checked field by field (``sheet/bad_field`` naming it)."""
    if not isinstance(raw, Mapping):
        raise reject("sheet/bad_field", "sheet field gulliver: must be an object", field="gulliver")
    unknown = sorted(set(raw) - set(_TEXT))
    if unknown:
        raise _bad(unknown[0], f"unknown field (known: {', '.join(_TEXT)})")
    kw: dict[str, object] = {}
    for key, limit in (("linear_scale", _MAX_LS), ("mass_lb", _MAX_MASS), ("base_hp", _MAX_HP)):
        value = _positive_fraction(raw, key, limit)
        if value is not None:
            kw[key] = value
    for key, (lo, hi) in _INT_BOUNDS.items():
        v = raw.get(key)
        if v is None:
            continue
        if not isinstance(v, int) or isinstance(v, bool):
            raise _bad(key, f"must be a whole number, got {v!r}")
        if not lo <= v <= hi:
            raise _bad(key, f"must be between {lo} and {hi}, got {v}")
        kw[key] = v
    for key in ("non_pc_race", "low_iq_trait"):
        v = raw.get(key)
        if v is not None:
            if not isinstance(v, bool):
                raise _bad(key, f"must be true or false, got {v!r}")
            kw[key] = v
    body = raw.get("body")
    if body is not None:
        if not isinstance(body, str) or body not in BODIES:  # a list or an object is no table's name
            raise _bad("body", f"must be one of {', '.join(BODIES)}, got {body!r}")
        kw["body"] = body
    halves = raw.get("other_half_locations")
    if halves is not None:
        if not isinstance(halves, list) or not all(isinstance(x, str) and x for x in halves) \
                or len(set(halves)) != len(halves):
            raise _bad("other_half_locations", "must be a list of distinct location names")
        where = BODIES[str(kw.get("body", "humanoid"))]
        strange = [h for h in halves if h not in where]
        if strange:
            raise _bad("other_half_locations", f"{strange[0]!r} is not a location of this body "
                                               f"(known: {', '.join(where)})")
        kw["other_half_locations"] = tuple(halves)
    if ("other_half_hp" in kw) != bool(kw.get("other_half_locations")):
        raise _bad("other_half_hp", "split HP needs both the other half's HP and its locations (V-04)")
    return Scale(**kw)  # type: ignore[arg-type]


def _exact(value: Fraction) -> JSON:
    """A rational in its one stored form: a whole number, or "p/q" text (never a float)."""
    return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def scale_to_json(scale: Scale) -> dict[str, JSON]:
    """The block as stored: only the fields that differ from their default, rationals exact,
    so a sheet without GULLIVER numbers keeps its bytes and validate_scale reads it back equal."""
    out: dict[str, JSON] = {}
    for field in attrs.fields(Scale):
        value = getattr(scale, field.name)
        if value == field.default:
            continue
        if isinstance(value, Fraction):
            out[field.name] = _exact(value)
        elif isinstance(value, tuple):
            out[field.name] = list(value)
        else:
            out[field.name] = value
    return out
