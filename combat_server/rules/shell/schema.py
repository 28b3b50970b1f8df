"""The JSON Schema of a SHELL sheet, for clients to build the sheet form from.
``sheet.validate_sheet`` stays the authority (it also checks cross-field rules,
e.g. a weapon naming a style on the sheet); tests keep the two in step."""

from __future__ import annotations

from combat_server.rules.model import JSON
from combat_server.rules.shell import bodies, charts
from combat_server.rules.shell.sheet import ARMOUR_LOCATIONS, DAMAGE_TYPES, DIFFICULTIES, HANDS, STYLE_KINDS


def _int(title: str, help: str, lo: int, hi: int, default: int) -> dict[str, JSON]:
    return {"type": "integer", "title": title, "description": help, "minimum": lo, "maximum": hi,
            "default": default}


def _num(title: str, help: str) -> dict[str, JSON]:
    return {"type": "number", "title": title, "description": help, "minimum": 0, "default": 0}


def _bool(title: str, help: str) -> dict[str, JSON]:
    return {"type": "boolean", "title": title, "description": help, "default": False}


def _text(title: str, help: str) -> dict[str, JSON]:
    return {"type": "string", "title": title, "description": help, "minLength": 1}


def _obj(props: dict[str, JSON], required: list[str]) -> dict[str, JSON]:
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


_STYLE = _obj({
    "name": _text("Name", "What the style is called, e.g. Swordsmanship."),
    "level": _int("Level", "Skill level; 1 is a beginner.", 0, 40, 1),
    "kind": {"enum": list(STYLE_KINDS), "default": "hand-to-hand", "title": "Kind",
             "description": "Only hand-to-hand styles add +1 damage per 3 levels above the first."},
    "damage_bonus": {**_bool("Level damage bonus", "Whether this style keeps the level damage bonus."),
                     "default": True},
    "max_el": {"type": ["integer", "null"], "minimum": 0, "maximum": 4, "title": "Highest encumbrance",
               "description": "The heaviest encumbrance level the style can be used at, if it has one."},
    "at_bonus": _int("Attack bonus", "Added to attacks made with this style.", -20, 20, 0),
    "block_bonus": _int("Block bonus", "Added to blocks and parries with this style.", -20, 20, 0),
    "dodge_bonus": _int("Dodge bonus", "Added to dodges when this is the best style.", -20, 20, 0),
}, ["name"])

_SPELL = _obj({
    "name": _text("Name", "The spell's name."),
    "min_level": _int("Minimum level", "The art level needed to try it at all.", 0, 40, 0),
    "end_cost": _int("END cost", "Endurance spent when it succeeds; a failure spends 1 (or 0 if this is 0).",
                     0, 100, 0),
    "casting_time": _int("Casting time", "Whole rounds of undisturbed concentration before the roll.", 0, 100, 0),
    "difficulty": {"enum": list(DIFFICULTIES), "default": "hard", "title": "Difficulty",
                   "description": "Spells are hard unless their description says otherwise."},
}, ["name", "min_level"])

_ART = _obj({
    "name": _text("Name", "The magical art, e.g. Necromancy."),
    "level": _int("Level", "Skill level in the art.", 0, 40, 1),
    "spells": {"type": "array", "items": _SPELL, "title": "Spells", "description": "Spells known in this art."},
}, ["name"])

_WEAPON = _obj({
    "name": _text("Name", "Unique on this sheet."),
    "style": _text("Style", "The fighting style (from this sheet) it is used with."),
    "damage": _int("Damage", "Added to the wielder's ST damage: a long sword is 0, bare hands -4.", -20, 40, 0),
    "damage_types": {"type": "array", "items": {"enum": list(DAMAGE_TYPES)}, "minItems": 1, "uniqueItems": True,
                     "default": ["cut"], "title": "Damage types", "description": "cut, cr (crushing), imp."},
    "at_mod": _int("AT modifier", "The weapon's own modifier to attacks.", -20, 20, 0),
    "def_mod": _int("DEF modifier", "The weapon's own modifier to parries.", -20, 20, 0),
    "min_st": _int("Minimum ST", "Below it, -1 per point; above it by 5+, damage stops growing. 0: none.",
                   0, 100, 0),
    "hands": {"enum": list(HANDS), "default": "one", "title": "Hands",
              "description": "either: two-handed use needs 2 less ST and does +1 damage."},
    "hp": _int("HP", "How much a single hit must exceed to break it.", 0, 1000, 10),
    "weight": _num("Weight (lb)", "Counts toward encumbrance."),
    "ranged": _bool("Ranged", "Shot or thrown; needs a range and a speed."),
    "range_yards": _int("Range (yards)", "Maximum range for weapons with a fixed range.", 0, 100000, 0),
    "range_st": _num("Range (x ST)", "Maximum range of a low-tech weapon, as a multiple of ST."),
    "speed": _int("Speed", "Divides the target's base DEF: thrown 1, bows 2, guns and magic 3.", 1, 10, 1),
    "low_tech": {**_bool("Low-tech", "Speed drops to 1 beyond half the maximum range."), "default": True},
    "can_disarm": _bool("Can disarm", "Only such weapons may be used to disarm."),
    "thrusting": _bool("Thrusting", "Can stop-thrust someone entering close combat."),
    "close_combat": _bool("Close-combat weapon", "Usable once in close combat (daggers)."),
    "armour_piercing": _bool("Armour-piercing", "Halves armour DR, not natural DR."),
    "can_parry_ranged": _bool("Parries missiles", "May parry ranged attacks."),
}, ["name", "style"])

_SHIELD = _obj({
    "name": _text("Name", "What the shield is called."),
    "size": {"enum": list(charts.SHIELDS), "title": "Size",
             "description": "Sets protection rating and HP unless given: small 1/10, medium 2/13, large 3/16."},
    "pr": _int("Protection rating", "How many results above 11 hit the shield instead of you.", 0, 20, 0),
    "hp": _int("HP", "How much a single hit must exceed to break it.", 0, 1000, 0),
    "weight": _num("Weight (lb)", "Counts toward encumbrance."),
}, ["size"])

_ARMOUR = _obj({
    "name": _text("Name", "What the piece is called."),
    "material": {"enum": list(charts.ARMOUR_DR), "title": "Material",
                 "description": "Sets the DR unless given: cloth 1 ... plate 7."},
    "dr": _int("DR", "Subtracted from damage to the locations it covers.", 0, 100, 0),
    "locations": {"type": "array", "items": {"enum": list(ARMOUR_LOCATIONS)}, "minItems": 1, "uniqueItems": True,
                  "title": "Covers", "description": "Hit locations it protects; one piece per location."},
    "weight": _num("Weight (lb)", "Counts toward encumbrance."),
}, ["locations"])

_PRIMARY = "Human average is 10."
SHEET_SCHEMA: dict[str, JSON] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "SHELL character sheet",
    "description": "Typed-in values only; HP, END, WP, MV, EL, damage, DEF and the rest are computed.",
    **_obj({
        "st": _int("ST", "Strength: damage, carrying, HP and END. " + _PRIMARY, 1, 100, 10),
        "ag": _int("AG", "Agility: attack and defence, initiative. " + _PRIMARY, 1, 100, 10),
        "iq": _int("IQ", "Intelligence: spells and willpower. " + _PRIMARY, 1, 100, 10),
        "ht": _int("HT", "Health: resisting crippling and disease. " + _PRIMARY, 1, 100, 10),
        "npc": _bool("NPC", "Non-player characters are not held to the PC limits (MV +2 at most)."),
        "hp_bonus": _int("HP bought", "Change to HP (ST).", -50, 100, 0),
        "end_bonus": _int("END bought", "Change to END (ST).", -50, 100, 0),
        "wp_bonus": _int("WP bought", "Change to WP (IQ).", -50, 100, 0),
        "cha_bonus": _int("CHA bought", "Change to CHA ((ST+IQ)/2).", -50, 100, 0),
        "per_bonus": _int("PER bought", "Change to PER (IQ).", -50, 100, 0),
        "mv_bonus": _int("MV bought", "Change to MV ((ST+AG)/4); PCs at most +2.", -50, 100, 0),
        "flight": _int("Flight", "Flying movement.", 0, 100, 0),
        "dr": _int("Natural DR", "Taken off every hit; armour-piercing does not halve it.", 0, 100, 0),
        "dm": _int("DM (%)", "Percentage of damage ignored after DR.", 0, 100, 0),
        "mr": _int("MR", "Immune to spells whose minimum level is at most this.", 0, 100, 0),
        "at_mod": _int("AT Mod", "A general modifier to every attack.", -20, 20, 0),
        "def_mod": _int("DEF Mod", "A general modifier to every defence.", -20, 20, 0),
        "max_enc": {"type": ["integer", "null"], "minimum": 1, "title": "Max encumbrance (lb)",
                    "description": "Only for ST outside 7-20, where the chart gives none."},
        "body_weight": _num("Body weight (lb)", "Above 75% of max encumbrance, the excess is carried load."),
        "gear_weight": _num("Other gear (lb)", "Everything carried besides weapons, shield and armour."),
        "ambidextrous": _bool("Ambidextrous", "No off-hand penalties."),
        "styles": {"type": "array", "items": _STYLE, "title": "Fighting styles"},
        "arts": {"type": "array", "items": _ART, "title": "Magical arts"},
        "weapons": {"type": "array", "items": _WEAPON, "title": "Weapons"},
        "shield": {"anyOf": [_SHIELD, {"type": "null"}], "title": "Shield"},
        "armour": {"type": "array", "items": _ARMOUR, "title": "Armour"},
        "body": {"enum": list(bodies.BODIES), "default": bodies.HUMANOID, "title": "Body type",
                 "description": "Whose hit-location table attackers aim at (S-16, A-63): a quadruped's "
                                "head and face are -2 and it has four legs, no arms; a centaur has a "
                                "humanoid's upper body on four legs."},
        "size": {"enum": list(bodies.SIZES), "default": bodies.NORMAL, "title": "Size",
                 "description": "Beside a man-sized attacker (S-16): a tiny creature's eyes are out of reach; "
                                "a huge one's head, face, neck and eyes unless the attacker stands higher."},
    }, []),
}
