"""GurpsRuleset: plugs the gurps modules into the engine's Ruleset interface."""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

import attrs

from combat_server.rules.gurps import derived, sheet as sheet_mod
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState
from combat_server.rules.ruleset import Ruleset


class GurpsRuleset(Ruleset):
    name: ClassVar[str] = "gurps"
    version: ClassVar[str] = "1.0"
    sheet_type: ClassVar[type] = Sheet
    condition_type: ClassVar[type] = Condition
    combat_type: ClassVar[type | None] = Combat
    default_options: ClassVar[Mapping[str, JSON]] = {
        "posture_modifiers": True,  # A-13 (cfg): Basic Set posture table
        "multiple_parry_penalty": False,  # A-19 (cfg): -4 per extra parry
        "unlisted_damage_multiplier_one": True,  # A-20 (cfg)
        "generic_criticals": True,  # A-03 (cfg)
        "step_yards": 1,  # A-11 (cfg)
    }
    command_types: ClassVar[frozenset[str]] = frozenset()

    def validate_sheet(self, raw: Mapping[str, JSON]) -> Sheet:
        return sheet_mod.validate_sheet(raw)

    def sheet_to_json(self, sheet: Any) -> dict[str, JSON]:
        return sheet_mod.sheet_to_json(sheet)

    def new_condition(self, sheet: Any) -> Condition:
        return Condition(hp=sheet.hp_max, fp=sheet.fp_max)

    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        raise NotImplementedError

    def apply(self, state: FightState, event: Event) -> FightState:
        raise NotImplementedError
