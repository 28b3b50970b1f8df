"""GurpsRuleset: plugs the gurps modules into the engine's Ruleset interface."""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

from combat_server.rules.gurps import attacks, checks, importing, lighting, maneuvers, sheet as sheet_mod, tool_apply
from combat_server.rules.describe import Description, Field, Viewer
from combat_server.rules.gurps.apply import after_core
from combat_server.rules.gurps.describe import describe
from combat_server.rules.gurps.batch import Batch, StandInDice
from combat_server.rules.gurps.commands import COMMANDS
from combat_server.rules.gurps.events import (
    COMBAT_SECRETS, EVENTS, HIDDEN_PROMPT_TEXT, PROMPT_SECRETS, VISIBLE_CONDITION,
)
from combat_server.rules.gurps.explain import combatant_view
from combat_server.rules.gurps.presentation import ADJUST_FIELDS, QUIET_EVENTS
from combat_server.rules.gurps.turns import settle, start_combat
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.demo import DEMO
from combat_server.rules.gurps.gulliver.options import OFFERED as GULLIVER_OFFERED
from combat_server.rules.gurps.rule_texts import RULE_TEXTS
from combat_server.rules.gurps.sheet_schema import sheet_schema
from combat_server.rules.gurps.state import Combat, Condition, light_of
from combat_server.rules.gurps.tools.catalog import CALCULATORS
from combat_server.rules import core
from combat_server.rules.commands import CommandSpec
from combat_server.rules.kit.calculators import CalculatorSpec
from combat_server.rules.kit.events import EventSpec, Secret
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState, Prompt
from combat_server.rules.options import OptionSpec
from combat_server.rules.rule_text import RuleText
from combat_server.rules.ruleset import Ruleset


#: Events whose roll record a preview shows, and the parts of the record it shows.
PREVIEWED = ("attack_rolled", "feint_rolled", "defense_rolled")
PREVIEW_FIELDS = ("purpose", "roller", "base", "base_reason", "modifiers", "target", "cap", "rule")


class GurpsRuleset(Ruleset[Sheet, Condition, Combat]):
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
    ) + GULLIVER_OFFERED  # issue #11: the GULLIVER switches wired so far (gulliver/options.py WIRED)
    commands: ClassVar[Mapping[str, CommandSpec]] = COMMANDS
    demo: ClassVar[Mapping[str, JSON] | None] = DEMO
    rule_texts: ClassVar[Mapping[str, RuleText]] = RULE_TEXTS
    events: ClassVar[Mapping[str, EventSpec]] = EVENTS
    calculators: ClassVar[Mapping[str, CalculatorSpec]] = CALCULATORS
    tool_apply_command: ClassVar[str] = "apply_tool"
    visible_condition: ClassVar[tuple[str, ...]] = VISIBLE_CONDITION
    combat_secrets: ClassVar[tuple[Secret, ...]] = COMBAT_SECRETS
    prompt_secrets: ClassVar[tuple[Secret, ...]] = PROMPT_SECRETS
    hidden_prompt_text: ClassVar[Mapping[str, str]] = HIDDEN_PROMPT_TEXT
    adjust_fields: ClassVar[tuple[Field, ...]] = ADJUST_FIELDS
    quiet_events: ClassVar[frozenset[str]] = QUIET_EVENTS

    def validate_sheet(self, raw: Mapping[str, JSON]) -> Sheet:
        return sheet_mod.validate_sheet(raw)

    def sheet_schema(self) -> dict[str, JSON]:
        return sheet_schema()

    def sheet_to_json(self, sheet: Sheet) -> dict[str, JSON]:
        return sheet_mod.sheet_to_json(sheet)

    def new_condition(self, sheet: Sheet) -> Condition:
        return Condition(hp=sheet.hp_max, fp=sheet.fp_max)

    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        b = Batch(self, state, dice)
        args = command.args
        t = command.type  # who may send it was checked against its spec (commands.py)
        if t == "start_combat":
            start_combat(b, args)
        elif t == "maneuver":
            maneuvers.choose(b, args)
        elif t == "defend":
            attacks.defend(b, args)
        elif t == "roll":
            checks.answer_roll(b, args)
        elif t == "fright_check":
            checks.fright_check(b, args)
        elif t == "trigger_wait":
            maneuvers.trigger_wait(b, args)
        elif t == "answer_wait":
            maneuvers.answer_wait(b, args)
        elif t == "spend_fatigue":
            checks.spend_fatigue(b, args)
        elif t == "import_character":
            importing.import_character(b, args, command.actor)
        elif t == "apply_tool":
            tool_apply.apply_tool(b, args)
        elif t == "set_light":
            lighting.set_light(b, args)
        settle(b)
        return b.drafts

    def follow_up(self, state: FightState, dice: DiceSource) -> list[EventDraft]:
        # G-19: after a core command (a combatant removed, knocked out by an adjustment or a
        # ruling) the sequence moves on as after any maneuver: skip who cannot act, end turns.
        if state.status != "active" or state.combat is None:
            return []  # settle's own first test: it would emit nothing (issue 16: no Batch for nothing)
        b = Batch(self, state, dice)
        settle(b)
        return b.drafts

    def auto_answer(self, state: FightState, prompt: Prompt) -> Command | None:
        # A roll prompt's answer is the dice alone (damage, HT and Will checks, ...): no choice to make.
        return Command("roll", {"prompt": prompt.id}) if prompt.kind == "roll" else None

    def preview(self, state: FightState, command: Command) -> Mapping[str, JSON] | None:
        # decide is pure: decided on stand-in dice, its first attack, feint or defence roll shows the
        # number and modifiers the real roll records (G-35, G-32, ...).
        drafts = core.decide(self, state, command, StandInDice())
        if any(d.type == "action_declared" for d in drafts):  # G-34: the roll it makes once the Waits are asked
            b = Batch(self, state, StandInDice())
            maneuvers.resolve(b, str(command.args["combatant"]), command.args)
            drafts = b.drafts
        for draft in drafts:
            record = draft.payload.get("record")
            if draft.type in PREVIEWED and isinstance(record, Mapping):
                return {k: record[k] for k in PREVIEW_FIELDS if k in record}
        return None

    def apply(self, state: FightState, event: Event) -> FightState:
        return EVENTS.fold(self, state, event)

    def after_core(self, state: FightState, event: Event) -> FightState:
        return after_core(state, event)

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        return EVENTS.explain(state_before, event, hidden)

    def view_combatant(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        return combatant_view(state, combatant_id)

    def view_context(self, state: FightState) -> object:
        # V-46: each combatant's view gives the light it sees (explain.light_view)
        return light_of(state.combat)

    def describe(self, state: FightState, viewer: Viewer) -> Description:
        return describe(self, state, viewer)
