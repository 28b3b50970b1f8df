"""SHELL's commands as specs (rules/commands.py): their fields and who may send them.
The engine checks both before the rules decide; clients read the same table."""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.commands import ANSWERS, CONTROLS, GM, CommandSpec
from combat_server.rules.model import JSON
from combat_server.rules.shell import damage
from combat_server.rules.shell.actions import MANEUVER_NAMES
from combat_server.rules.shell.sheet import DAMAGE_TYPES

_TEXT: Mapping[str, JSON] = {"type": "string"}
_FLAG: Mapping[str, JSON] = {"type": "boolean"}


def _whole(lo: int, hi: int, help: str = "") -> Mapping[str, JSON]:
    out: dict[str, JSON] = {"type": "integer", "minimum": lo, "maximum": hi}
    if help:
        out["description"] = help
    return out


_ACT: Mapping[str, Mapping[str, JSON]] = {
    "combatant": _TEXT,
    "maneuver": {"enum": list(MANEUVER_NAMES), "x-error": "maneuver/unknown"},
    "target": _TEXT,
    "weapon": {**_TEXT, "description": "a weapon on the sheet; empty: bare hand (S-32)"},
    "location": {"enum": sorted(damage.LOCATIONS) + ["weapon"], "description": "hit location (S-29)"},
    "far_side": {**_FLAG, "description": "the location faces away: -3 (S-29)"},
    "moved": _whole(0, 1000, "units moved this turn (S-17, S-19)"),
    "charge": {**_FLAG, "description": "a head-on charge: +1 damage per 5 units moved (S-19)"},
    "two_handed": _FLAG,
    "damage_type": {"enum": list(DAMAGE_TYPES)},
    "non_lethal": {**_FLAG, "description": "crushing to torso or head as stun damage (S-35)"},
    "area": {**_FLAG, "description": "an area attack: general (torso) damage (S-38)"},
    "range": _whole(0, 100000, "units to the target (S-30)"),
    "obstructions": _whole(0, 10, "cover: -3 each (S-30)"),
    "wild_swing": _FLAG, "off_hand": _FLAG, "higher": _FLAG, "cant_see": _FLAG,
    "unaware": {**_FLAG, "description": "the target is unaware: no defence (S-28); GM only"},
    "target_weapon": _TEXT,
    "then_pin": {**_FLAG, "description": "after a successful takedown, the free pin roll (A-80)"},
    "spell": _TEXT,
    "name": {**_TEXT, "description": "a GM-defined maneuver's name (S-24)"},
    "at_mod": _whole(-20, 20, "a GM-defined maneuver's AT modifier (S-24)"),
    "def_mod": _whole(-20, 20, "a GM-defined maneuver's DEF modifier (S-24)"),
}

COMMANDS: Mapping[str, CommandSpec] = {s.name: s for s in (
    CommandSpec("start_combat", GM, {"order": {"type": "array", "items": {"type": "string"},
                                               "x-error": "combat/bad_order",
                                               "description": "the GM's order for round 1, every combatant once (R-21)"}},
                help="start round 1: initiative AG - 2 x EL, ties by AG then 2d10 roll-offs (S-17, A-64, R-21)"),
    CommandSpec("set_order", GM, {"order": {"type": "array", "items": {"type": "string"}, "x-error": "combat/bad_order",
                                            "description": "every combatant who can act, once"}},
                required=("order",), help="settle a tied round's initiative with the GM's order instead of dice (R-21)"),
    CommandSpec("act", CONTROLS, _ACT, required=("combatant", "maneuver"), subject="combatant",
                gm_fields=("unaware", "name", "at_mod", "def_mod"),
                denied="only the GM rules a target unaware or defines a maneuver (S-24, S-28)",
                help="the combatant's step and maneuver, or its move, on its turn (S-17 ... S-24, S-40 ... S-44)"),
    CommandSpec("defend", ANSWERS, {"prompt": _TEXT, "defence": {"enum": ["dodge", "block", "none"],
                                                                 "x-error": "defence/bad_choice"},
                                    "with": {**_TEXT, "description": "the blocking weapon, or shield"},
                                    "wild": _FLAG, "off_hand": _FLAG, "higher": _FLAG, "cant_see": _FLAG},
                required=("prompt", "defence"), subject="prompt", prompt_kind="defence",
                help="state the defence against an attack (S-25, S-26, S-28)"),
    CommandSpec("respond", ANSWERS, {"prompt": _TEXT,
                                     "response": {"enum": ["stop_thrust", "shield_block", "none"],
                                                  "x-error": "close/bad_response"},
                                     "weapon": _TEXT,
                                     "set": {**_FLAG, "description": "the weapon is set against the charge: "
                                                                     "damage by the charger's ST (S-40)"}},
                required=("prompt", "response"), subject="prompt", prompt_kind="close_response",
                help="answer a step into close combat (S-40)"),
    CommandSpec("roll", ANSWERS, {"prompt": _TEXT}, required=("prompt",), subject="prompt", prompt_kind="roll",
                help="roll for a roll prompt (damage, spell, HT or WP)"),
)}
