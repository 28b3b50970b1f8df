"""The gurps commands as specs: their fields, types and ranges, and who may send them.

Why a table: the engine checks every command against its spec before the rules
see it (``rules/commands.py: check_command``), so the handlers in maneuvers.py, attacks.py
and checks.py only decide; clients read the same specs (docs/gurps.md lists them).
"""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.gurps.gulliver.light import NAMES as LIGHT_LEVELS
from combat_server.rules.gurps.maneuvers import MANEUVER_FIELDS, MANEUVERS, WAIT_ACTIONS
from combat_server.rules.gurps.tables import POSTURE_STEPS
from combat_server.rules.model import JSON
from combat_server.rules.commands import ANSWERS, ANY, CONTROLS, GM, CommandSpec

_TEXT: Mapping[str, JSON] = {"type": "string"}
_OPTIONAL_TEXT: Mapping[str, JSON] = {"type": ["string", "null"]}  # null or "": not given


def _whole(lo: int, hi: int) -> Mapping[str, JSON]:
    return {"type": "integer", "minimum": lo, "maximum": hi}


#: A circumstance modifier's largest size, either way. No rule gives one past about 30 (G-35's range table,
#: hit locations); the bound keeps a sum of them, and the effective skill the log and the views carry,
#: an exact integer for every client (JSON numbers past 2**53 lose digits in a browser).
MODIFIER_LIMIT = 100

#: G-35: circumstance modifiers, each with a reason; the GM's to state.
_MODIFIERS: Mapping[str, JSON] = {
    "type": ["array", "null"],
    "items": {"type": "object", "required": ["value", "reason"],
              "properties": {"value": _whole(-MODIFIER_LIMIT, MODIFIER_LIMIT),
                             "reason": {"type": "string", "pattern": "\\S"}}},
    "description": "[{value, reason}], GM only (G-35)",
}

#: The fields an attack, feint, ready or move takes (a Wait's action takes them too, G-34).
_ACTION_FIELDS: Mapping[str, Mapping[str, JSON]] = {
    "combatant": _TEXT,
    "option": _OPTIONAL_TEXT,
    "target": _OPTIONAL_TEXT,
    "weapon": _OPTIONAL_TEXT,
    "weapon2": _OPTIONAL_TEXT,
    "range": {**_whole(0, 100000), "description": "yards to the target"},
    "target_speed": _whole(0, 10000),
    "yards": {**_whole(0, 10000), "description": "yards moved"},
    "shots": _whole(1, 1000),
    "modifiers": _MODIFIERS,
    "object": {"type": ["object", "null"], "description": "{name, weight} to throw (G-12)"},
    "item": _OPTIONAL_TEXT,
    "location": {**_OPTIONAL_TEXT, "description": "the hit location aimed at, at its penalty (the fight's "
                                                  "hit_locations option, A-24)"},
}

_DENIED_MODIFIERS = "only the GM states circumstance modifiers (G-35); ask the GM, who can add them or adjust afterwards"

COMMANDS: Mapping[str, CommandSpec] = {s.name: s for s in (
    CommandSpec("start_combat", GM, {"order": {"type": "array", "items": {"type": "string"},
                                               "x-error": "combat/bad_order",
                                               "description": "every combatant once (A-10)"}},
                help="fix the turn order and start the first turn (G-19)"),
    CommandSpec("maneuver", CONTROLS, {
        **_ACTION_FIELDS,
        "maneuver": {"enum": sorted(MANEUVERS), "x-error": "maneuver/unknown"},
        "posture": {"enum": [*sorted(POSTURE_STEPS), None], "x-error": "maneuver/bad_posture",
                    "description": "change_posture: the new posture; another maneuver: kneeling <-> standing as its "
                                   "step (G-26); null: no step"},
        "task": _OPTIONAL_TEXT,
        "turns": {**_whole(1, 100), "description": "turns the task still needs, this one included (G-27)"},
        "trigger": _OPTIONAL_TEXT,
        "action": {"enum": list(WAIT_ACTIONS), "x-error": "maneuver/bad_wait"},
        "wait_option": {**_OPTIONAL_TEXT, "description": "a Wait that converts to All-Out Attack: its option, "
                                                          "declared in advance (G-34)"},
        "forward": {"type": "boolean"},
        "sprint": {"type": "boolean"},
        "extra_effort": {"type": "boolean", "description": "GULLIVER V-48 (effort_heat_fatigue): Extra Effort "
                                                           "this turn, 1 fatigue; refused without the option"},
    }, required=("combatant", "maneuver"), subject="combatant", gm_fields=("modifiers",), denied=_DENIED_MODIFIERS,
        variant="maneuver", variants=MANEUVER_FIELDS,
        help="the combatant's maneuver on its turn (G-20..G-34)"),
    CommandSpec("defend", ANSWERS, {"prompt": _TEXT,
                                    "defense": {"enum": ["dodge", "parry", "block", "none"],
                                                "x-error": "defense/bad_choice"},
                                    "weapon": _OPTIONAL_TEXT},
                required=("prompt", "defense"), subject="prompt", prompt_kind="defend",
                help="answer a defence prompt (G-38)"),
    CommandSpec("roll", ANSWERS, {"prompt": _TEXT}, required=("prompt",), subject="prompt", prompt_kind="roll",
                help="roll for a roll prompt (damage, HT or Will checks, ...)"),
    CommandSpec("fright_check", GM, {"combatant": _TEXT, "modifier": _whole(-MODIFIER_LIMIT, MODIFIER_LIMIT),
                                      "reason": _TEXT},
                required=("combatant",), denied="only the GM calls for a Fright Check",
                help="call for a Fright Check (G-18)"),
    CommandSpec("set_light", GM, {"level": {"enum": list(LIGHT_LEVELS), "x-error": "light/unknown_level",
                                            "description": "the light level, brightest first (GULLIVER V-46)"},
                                  "reason": _TEXT},
                required=("level",), denied="only the GM sets the light level (V-46)",
                help="set the fight's light level: Vision, DX and IQ, and darkness penalties (GULLIVER V-46)"),
    CommandSpec("trigger_wait", CONTROLS, dict(_ACTION_FIELDS), required=("combatant",), subject="combatant",
                gm_fields=("modifiers",), denied=_DENIED_MODIFIERS,
                help="the Wait's trigger happened: its action interrupts the turn (G-34)"),
    CommandSpec("answer_wait", ANSWERS, {
        "prompt": _TEXT,
        "trigger": {"type": "boolean", "description": "true: the Wait's action interrupts now; false: let it pass"},
        **{k: v for k, v in _ACTION_FIELDS.items() if k not in ("combatant", "yards")},
    }, required=("prompt", "trigger"), subject="prompt", prompt_kind="wait", gm_fields=("modifiers",),
        denied=_DENIED_MODIFIERS,
        help="answer a Wait prompt: another combatant starts a maneuver; trigger the Wait or let it pass (G-34)"),
    CommandSpec("spend_fatigue", CONTROLS, {
        "combatant": _TEXT, "points": _whole(1, 100), "reason": _TEXT,
        "exertion": {"type": "boolean", "description": "physical exertion (the default); false for a spell or "
                                                       "power: GULLIVER's V-52 and V-53 scale exertion only"}},
        required=("combatant", "points"), subject="combatant", help="spend FP (G-51)"),
    # ANY: the GM imports a new character or over any combatant, a player over its own (checked in importing.py)
    CommandSpec("import_character", ANY, {
        "file_name": {"type": "string", "description": "the file's name, recorded in the log"},
        "content": {"type": "string", "maxLength": 1 << 20,
                    "description": "the .gcs file's text (GCS data version 4 or 5), at most 1 MiB",
                    # a client offers a file picker and drop target for this command (docs/protocol.md, Files)
                    "contentMediaType": "application/json",
                    "x-file": {"accept": ".gcs", "label": "GURPS Character Sheet (.gcs)", "name": "file_name",
                               "over": "combatant", "report": "unused",
                               "report_label": "Not used by the rules"}},
        "combatant": {"type": "string", "description": "re-import over this combatant: its HP, FP and conditions stay"},
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,63}$", "description": "a new combatant's id"},
        # a new combatant's side and hiding, with the defaults the rules take (a client offers them before
        # it sends the file: an NPC's sheet hidden from the start never reaches the players)
        "side": {"enum": ["pc", "npc"], "default": "pc", "title": "Side", "description": "a new combatant's side"},
        "hidden": {"type": "boolean", "default": False, "title": "Hidden from players",
                   "description": "a new combatant's sheet is seen only by the GM (and its player)"},
    }, required=("file_name", "content"),
        help="import a GURPS Character Sheet (.gcs) file as a new combatant, or over one (#13)"),
    CommandSpec("apply_tool", GM, {
        "tool": {"type": "string", "description": "a GM tool's name (subscribed.tools)"},
        "inputs": {"type": "object", "description": "the tool's inputs, checked against its input schema"},
        "targets": {"type": "array", "items": {"type": "string"},
                    "description": "the combatants it hurts: at least one, each once"},
    }, required=("tool", "targets"), denied="only the GM applies a GM tool's result",
        help="roll a GM tool's damage or fatigue and apply it to combatants through the injury path (#12)"),
)}
