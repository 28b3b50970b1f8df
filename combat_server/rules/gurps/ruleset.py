"""GurpsRuleset: plugs the gurps modules into the engine's Ruleset interface."""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

import attrs

from combat_server.rules.gurps import attacks, checks, derived, maneuvers, sheet as sheet_mod
from combat_server.rules.gurps.apply import after_core, apply_event
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.explain import combatant_view, explain_event
from combat_server.rules.gurps.turns import settle, start_combat
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.errors import reject
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState
from combat_server.rules.options import OptionSpec
from combat_server.rules.ruleset import Ruleset


class GurpsRuleset(Ruleset):
    name: ClassVar[str] = "gurps"
    version: ClassVar[str] = "1.0"
    sheet_type: ClassVar[type] = Sheet
    condition_type: ClassVar[type] = Condition
    combat_type: ClassVar[type | None] = Combat
    #: GURPS's per-fight switches: the catalogue's configurable proposals (A-xx "cfg").
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("posture_modifiers", "boolean", True, label="Posture modifiers", rules=("G-26", "A-13"),
                   group="Posture and movement",
                   help="Kneeling, crawling or lying fighters attack and defend worse and are harder to hit at range."),
        OptionSpec("step_yards", "integer", 1, label="Step (yards)", rules=("G-20", "A-11"), minimum=1, maximum=5,
                   group="Posture and movement",
                   help="How far a maneuver that allows a step moves the fighter."),
        OptionSpec("multiple_parry_penalty", "boolean", False, label="Penalty for repeated parries",
                   rules=("G-41", "A-19"), group="Defence",
                   help="Every parry after the first in a turn is at a further -4."),
        OptionSpec("basic_set_wound_multipliers", "boolean", False, label="Piercing wound multipliers",
                   rules=("G-42", "A-20"), group="Injury",
                   help="pi-, pi, pi+ and pi++ damage wound at x0.5, x1, x1.5 and x2 instead of x1."),
        OptionSpec("generic_criticals", "boolean", True, label="Criticals on other rolls", rules=("G-01", "A-03"),
                   group="Rolls",
                   help="Rolls other than attacks and defences can succeed or fail critically; off: plain pass or fail."),
    )
    command_types: ClassVar[frozenset[str]] = frozenset(
        {"start_combat", "maneuver", "defend", "roll", "fright_check", "trigger_wait", "spend_fatigue"}
    )

    command_fields: ClassVar[Mapping[str, frozenset[str]]] = {  # as documented in docs/gurps.md
        "start_combat": frozenset({"order"}),
        "maneuver": frozenset({"combatant", "maneuver", "option", "target", "weapon", "weapon2", "range",
                               "target_speed", "yards", "shots", "modifiers", "object", "posture", "task",
                               "trigger", "action", "forward", "sprint", "item"}),
        "defend": frozenset({"prompt", "defense", "weapon"}),
        "roll": frozenset({"prompt"}),
        "fright_check": frozenset({"combatant", "modifier", "reason"}),
        # The Wait's action takes the fields of that maneuver (G-34).
        "trigger_wait": frozenset({"combatant", "target", "weapon", "weapon2", "option", "range", "target_speed",
                                   "yards", "shots", "modifiers", "object", "item"}),
        "spend_fatigue": frozenset({"combatant", "points", "reason"}),
    }

    def validate_sheet(self, raw: Mapping[str, JSON]) -> Sheet:
        return sheet_mod.validate_sheet(raw)

    def sheet_to_json(self, sheet: Any) -> dict[str, JSON]:
        return sheet_mod.sheet_to_json(sheet)

    def new_condition(self, sheet: Any) -> Condition:
        return Condition(hp=sheet.hp_max, fp=sheet.fp_max)

    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        b = Batch(self, state, dice)
        actor = command.actor
        args = command.args

        def controls(cid: str) -> bool:
            return actor.is_gm if cid == "" else actor.controls(cid)

        t = command.type
        if t == "start_combat":
            start_combat(b, actor.is_gm, args)
        elif t in ("maneuver", "trigger_wait") and args.get("modifiers") and not actor.is_gm:
            # G-35 circumstance modifiers (and G-03's skill penalties) are the GM's call.
            raise reject("auth/gm_only", "only the GM states circumstance modifiers (G-35); "
                         "ask the GM, who can add them or adjust afterwards", field="modifiers")
        elif t == "maneuver":
            maneuvers.choose(b, controls, args)
        elif t == "defend":
            attacks.defend(b, controls, args)
        elif t == "roll":
            checks.answer_roll(b, controls, args)
        elif t == "fright_check":
            checks.fright_check(b, actor.is_gm, args)
        elif t == "trigger_wait":
            maneuvers.trigger_wait(b, controls, args)
        elif t == "spend_fatigue":
            checks.spend_fatigue(b, controls, args)
        settle(b)
        return b.drafts

    def follow_up(self, state: FightState, dice: DiceSource) -> list[EventDraft]:
        # G-19: after a core command (a combatant removed, knocked out by an adjustment or a
        # ruling) the sequence moves on as after any maneuver: skip who cannot act, end turns.
        b = Batch(self, state, dice)
        settle(b)
        return b.drafts

    def apply(self, state: FightState, event: Event) -> FightState:
        return apply_event(state, event)

    def after_core(self, state: FightState, event: Event) -> FightState:
        return after_core(state, event)

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        return explain_event(state_before, event, hidden)

    def view_combatant(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        return combatant_view(state, combatant_id)
