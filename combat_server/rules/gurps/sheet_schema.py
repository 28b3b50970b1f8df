"""The GURPS sheet as a JSON Schema (draft 2020-12), from which clients build a sheet editor.

Why a schema built here from sheet.py's bound tables, and not a hand-written
document: validate_sheet and the editor must refuse the same things, so the
numbers come from one place (tests/rules/test_gurps_sheet_schema.py checks that
every sheet the schema allows is accepted and every bound it states is enforced).
A rule JSON Schema cannot say is an annotation, ``x-unique-by`` (weapon names are
unique), and so is ``x-decimals`` (at most that many decimals: JSON Schema's
``multipleOf: 0.001`` would refuse 1.001 through binary floating point, which
validate_sheet accepts); ``x-primary`` names the fields an editor shows first (the rest can fold away).
"""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.gurps.gulliver.size import scale_schema
from combat_server.rules.gurps.sheet import (_INT_FIELDS, _WEAPON_INT, BULLET_FIELDS, BULLET_TYPES, EYES, MAX_WEIGHT, TRAITS,
                                             WEIGHT_DECIMALS)
from combat_server.rules.gurps.tables import DAMAGE_TYPES
from combat_server.rules.model import JSON

#: Damage as validate_sheet reads it (spaces aside): ``thr``/``sw`` with adds, or fixed dice ``2d+1`` (0..50 dice).
DAMAGE_PATTERN = r"^((thr|sw)([+-][0-9]+)?|([0-9]|[1-4][0-9]|50)?d([+-][0-9]+)?)$"

# field -> (title, help, default shown to people). Help is a short line in our own words.
_SHEET_TEXT: Mapping[str, tuple[str, str]] = {
    "st": ("ST", "Strength: thrust and swing damage, and HP unless HP is typed."),
    "dx": ("DX", "Dexterity: the default for weapon skills and for Basic Speed."),
    "iq": ("IQ", "Intelligence: Will and Perception unless typed."),
    "ht": ("HT", "Health: FP, Basic Speed, and the rolls to stay conscious and alive."),
    "hp": ("HP", "Hit points; leave empty to use ST (G-43)."),
    "fp": ("FP", "Fatigue points; leave empty to use HT (G-51)."),
    "will": ("Will", "Leave empty to use IQ; fright checks roll against it (G-18)."),
    "per": ("Per", "Perception; leave empty to use IQ."),
    "speed_bonus_quarters": ("Speed bonus (quarters)", "Basic Speed bought up or down, in steps of 0.25."),
    "move_bonus": ("Move bonus", "Basic Move bought up or down, in yards."),
    "sm": ("Size modifier", "Bigger targets are easier to hit (G-35)."),
    "dr": ("DR", "Damage resistance of armour and toughness, taken off each hit (G-42)."),
    "carried": ("Carried (lb)", "Weight carried; gives the encumbrance level (G-02)."),
    "encumbrance": ("Encumbrance level", "0 (none) to 4 (extra-heavy); set it to override the carried weight."),
    "shield_skill": ("Shield skill", "Skill with a ready shield or cloak: allows a Block (G-40)."),
    "shield_name": ("Shield name", "What the shield is called in the log."),
    "unarmed_skill": ("Unarmed skill", "Brawling or similar: the punch's skill; empty uses DX."),
    "skills": ("Other skills", "Skill names and their levels, for rolls the GM asks for."),
    "weapons": ("Weapons", "Each weapon the combatant can fight with; a punch is added when none is unarmed and a hand is empty (G-41)."),
    "db": ("Shield DB", "A ready shield's Defence Bonus: added to Dodge, Parry and Block."),
    "traits": ("Traits", "Traits the rules use: " + "; ".join(f"{k}: {v}" for k, v in TRAITS.items()) + "."),
    "dr_locations": ("DR by location", "DR of each hit location (from a GCS file); the rules use DR above."),
    "gulliver": ("GULLIVER size and scale", "What the fight's GULLIVER options read from this creature: Linear "
                                            "Scale, Combat and Load ST, base HP, monster race, body type, split HP "
                                            "(A-27); every field has a human-scaled default."),
    "eyes": ("Eyes and eyewear", "What shifts the light this fighter sees, with the fight's light levels (GULLIVER V-46)."),
}
_EYES_TEXT: Mapping[str, tuple[str, str]] = {
    "light_sensitivity": ("Light sensitivity", "Bad Sight (light sensitivity): slightly dim and brighter light "
                                               "counts 2 levels brighter; the mild form 1 (V-46)."),
    "night_vision": ("Night Vision", "full: no darkness penalty short of total darkness; partial (the 5-point "
                                     "version): dim to very dark count one level brighter (V-46)."),
    "night_blindness": ("Night Blindness", "Dim to very dark count one level darker (V-46)."),
    "eyewear": ("Eyewear", "Levels darker: sunglasses 1, welder's goggles 2 (V-46)."),
}
_WEAPON_TEXT: Mapping[str, tuple[str, str]] = {
    "name": ("Name", "Unique on this sheet; the log and the maneuver form use it."),
    "kind": ("Kind", "Melee weapons strike at reach; ranged and thrown ones need a range."),
    "skill": ("Skill", "The effective skill level with this weapon, before modifiers."),
    "damage": ("Damage", "thr or sw with adds (sw+2) from ST, or fixed dice like 2d+1."),
    "damage_type": ("Damage type", "Decides the wound multiplier (G-42)."),
    "reach": ("Reach", "Yards it strikes at: C, 1, 1,2 ..."),
    "parry": ("Parry", "Modifier to the parry with it; empty: it cannot parry (a bow)."),
    "unbalanced": ("Unbalanced", "Cannot parry in the turn it attacked (R-07)."),
    "weight": ("Weight (lb)", "The weapon's weight."),
    "acc": ("Acc", "Accuracy: added when aimed (G-21)."),
    "half_damage": ("1/2D (yd)", "From this range on, damage is halved (A-17); 0: none."),
    "max_range": ("Max (yd)", "The farthest it reaches; a ranged weapon needs one."),
    "bulk": ("Bulk", "Penalty when it is used on the move (G-23)."),
    "rof": ("RoF", "Shots per attack (G-39)."),
    "shots": ("Shots", "Shots before reloading; 0: not counted. Every ranged attack spends its shots (RoF)."),
    "reload": ("Reload (turns)", "Ready maneuvers it takes to reload once its shots are spent (G-33)."),
    "min_range": ("Min (yd)", "The closest it can be used at."),
    "needs_ready": ("Needs a Ready", "Must be readied again after each use (G-22, G-33)."),
    "st_based": ("ST-based damage", "Damage comes from ST (All-Out Attack Strong adds to it, G-22); "
                                    "thr/sw damage always is, fixed dice are not unless this says so."),
    "unarmed": ("Unarmed", "A punch, kick, bite or claws (G-41): a weapon that parries it may strike back; "
                           "unstated: true for a weapon named punch, kick, bite or claws."),
    "off_hand": ("Off hand", "Held in the off hand."),
    "firearm": ("Firearm", "Bullets and beams: cannot be blocked or parried (G-40, G-41)."),
    "min_st": ("Min ST", "Minimum ST to use it well; 0: none given."),
    "two_handed": ("Two-handed", "Needs both hands."),
    "recoil": ("Recoil", "A firearm's Recoil; 0: none given."),
    "beam": ("Beam", "A beam, fireball or lightning attack: with GULLIVER's blowthrough modifiers (V-07) its "
                     "blowthrough cap is doubled on the torso, vitals and head."),
    "large_calibre": ("Calibre .40+", "A bullet of calibre .40 or more (piercing damage only): x1.5 blowthrough "
                                      "cap with GULLIVER's blowthrough modifiers (V-07, A-30)."),
    "hollow_point": ("Hollow-point", "A hollow-point bullet (piercing damage only): x1.5 blowthrough cap with "
                                     "GULLIVER's blowthrough modifiers (V-07, A-30); stacks with calibre."),
    "shock_multiplier": ("Shock multiplier", "With GULLIVER's shock points (V-17): the shock of its injury is "
                                             "multiplied by this (a Type II nerve pistol x4); 1: none."),
    "shock_only": ("Stunner (shock only)", "With GULLIVER's shock points (V-17): its damage roll is shock dealt "
                                           "directly (a weak stunner 2d, a strong one 4d), never HP lost."),
}


def _described(field: str, text: Mapping[str, tuple[str, str]], body: dict[str, JSON]) -> dict[str, JSON]:
    title, help_ = text[field]
    return {"title": title, "description": help_, **body}


def _int(bounds: tuple[int, int], nullable: bool, default: JSON = None) -> dict[str, JSON]:
    out: dict[str, JSON] = {"type": ["integer", "null"] if nullable else "integer",
                            "minimum": bounds[0], "maximum": bounds[1]}
    if default is not None:
        out["default"] = default
    return out


def _weapon_schema() -> dict[str, JSON]:
    props: dict[str, JSON] = {
        "name": {"type": "string", "minLength": 1, "pattern": r"\S"},
        "kind": {"enum": ["melee", "ranged", "thrown"], "default": "melee"},
        "damage": {"type": "string", "pattern": DAMAGE_PATTERN, "default": "thr"},
        "damage_type": {"enum": list(DAMAGE_TYPES), "default": "cr"},
        "reach": {"type": "string", "default": "1"},
    }
    defaults = {"skill": 10, "parry": 0, "acc": 0, "half_damage": 0, "max_range": 0, "bulk": 0, "rof": 1,
                "shots": 0, "min_range": 0, "min_st": 0, "recoil": 0, "reload": 1, "shock_multiplier": 1}
    for key, bounds in _WEAPON_INT.items():
        props[key] = _int(bounds, key == "parry", defaults[key])
    props["weight"] = _weight_schema()
    for key, default in (("unbalanced", False), ("needs_ready", False), ("st_based", True),
                         ("off_hand", False), ("firearm", False), ("two_handed", False), ("unarmed", False),
                         ("beam", False), ("large_calibre", False), ("hollow_point", False), ("shock_only", False)):
        props[key] = {"type": "boolean", "default": default}
    order = list(_WEAPON_TEXT)
    return {
        "type": "object",
        "title": "Weapon",
        "properties": {k: _described(k, _WEAPON_TEXT, props[k]) for k in order},
        "required": ["name"],
        "additionalProperties": False,
        "x-primary": ["name", "kind", "skill", "damage", "damage_type"],
        "allOf": [
            {"if": {"properties": {"kind": {"const": "ranged"}}, "required": ["kind"]},
             "then": {"properties": {"max_range": {"type": "integer", "minimum": 1}}, "required": ["max_range"]}},
            *({"if": {"properties": {key: {"const": True}}, "required": [key]},  # V-07: only bullets
               "then": {"properties": {"damage_type": {"enum": list(BULLET_TYPES)}}, "required": ["damage_type"]}}
              for key in BULLET_FIELDS),
        ],
    }


def _weight_schema() -> dict[str, JSON]:
    """A weight in lb as validate_sheet bounds it (#15 item 4): 0..MAX_WEIGHT, at most WEIGHT_DECIMALS decimals."""
    return {"type": "number", "minimum": 0, "maximum": MAX_WEIGHT, "x-decimals": WEIGHT_DECIMALS, "default": 0}


def sheet_schema() -> dict[str, JSON]:
    """The JSON Schema of a GURPS sheet (what ``add_combatant``'s ``sheet`` takes)."""
    props: dict[str, JSON] = {}
    defaults = {"st": 10, "dx": 10, "iq": 10, "ht": 10, "speed_bonus_quarters": 0, "move_bonus": 0, "sm": 0,
                "dr": 0, "db": 0}
    for key, bounds in _INT_FIELDS.items():
        props[key] = _int(bounds, key not in defaults, defaults.get(key))
    props["carried"] = _weight_schema()
    props["shield_name"] = {"type": "string", "default": ""}
    props["skills"] = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 40}}
    props["weapons"] = {"type": "array", "items": _weapon_schema(), "x-unique-by": "name"}
    props["traits"] = {"type": "array", "items": {"enum": list(TRAITS)}, "uniqueItems": True, "default": []}
    props["dr_locations"] = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0,
                                                                         "maximum": 500}}
    props["gulliver"] = {k: v for k, v in scale_schema().items() if k not in ("title", "description")}
    props["eyes"] = {"type": "object", "additionalProperties": False,
                     "properties": {k: _described(k, _EYES_TEXT, {"enum": list(allowed), "default": default})
                                    for k, (allowed, default) in EYES.items()}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "GURPS character sheet",
        "description": "Derived scores (Basic Speed, Move, Dodge, parries) are computed, never typed in.",
        "type": "object",
        "properties": {k: _described(k, _SHEET_TEXT, props[k]) for k in _SHEET_TEXT},
        "additionalProperties": False,
        "x-primary": ["st", "dx", "iq", "ht", "dr", "shield_skill", "weapons"],
    }
