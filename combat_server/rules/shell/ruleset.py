"""ShellRuleset: the SHELL rules (S-01 ... S-48, catalogue section 3) behind the engine's
Ruleset interface, built on the kit like gurps."""

from __future__ import annotations

from typing import ClassVar, Mapping

from combat_server.rules.commands import CommandSpec
from combat_server.rules.kit.calculators import CalculatorSpec
from combat_server.rules.describe import Description, Viewer
from combat_server.rules.kit.events import EventSpec, Secret
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState, Prompt
from combat_server.rules.options import OptionSpec
from combat_server.rules.rule_text import RuleText
from combat_server.rules.ruleset import Ruleset
from combat_server.rules.shell import actions, attacks, rolls, schema, sheet as sheet_mod
from combat_server.rules.shell.batch import Batch, derived_now, now
from combat_server.rules.shell.commands import COMMANDS
from combat_server.rules.shell.demo import DEMO
from combat_server.rules.shell.describe import describe
from combat_server.rules.shell.events import (COMBAT_SECRETS, EVENTS, HIDDEN_PROMPT_TEXT, VISIBLE_CONDITION,
                                              after_core, cond_of)
from combat_server.rules.shell.options import OPTIONS
from combat_server.rules.shell.rule_texts import RULE_TEXTS
from combat_server.rules.shell.sheet import Sheet, derive
from combat_server.rules.shell.state import Combat, Condition
from combat_server.rules.shell.tools import CALCULATORS
from combat_server.rules.shell.turns import set_order, settle, start_combat
from combat_server.rules.shell import damage


class ShellRuleset(Ruleset[Sheet, Condition, Combat]):
    name: ClassVar[str] = "shell"
    version: ClassVar[str] = "1.0"
    sheet_type: ClassVar[type] = Sheet
    condition_type: ClassVar[type] = Condition
    combat_type: ClassVar[type | None] = Combat
    option_specs: ClassVar[tuple[OptionSpec, ...]] = OPTIONS
    commands: ClassVar[Mapping[str, CommandSpec]] = COMMANDS
    events: ClassVar[Mapping[str, EventSpec]] = EVENTS
    demo: ClassVar[Mapping[str, JSON] | None] = DEMO
    visible_condition: ClassVar[tuple[str, ...]] = VISIBLE_CONDITION
    combat_secrets: ClassVar[tuple[Secret, ...]] = COMBAT_SECRETS
    hidden_prompt_text: ClassVar[Mapping[str, str]] = HIDDEN_PROMPT_TEXT
    #: A short text in our own words per S id and SHELL reading, opened by the clients from an id (#13).
    rule_texts: ClassVar[Mapping[str, RuleText]] = RULE_TEXTS
    #: The GM tools (#12): S-16's ``creature`` (rules/shell/tools.py), informational, so nothing to apply.
    calculators: ClassVar[Mapping[str, CalculatorSpec]] = CALCULATORS
    #: S-25: an attack's record holds the dice's total and AT as its target (a roll over, not under): the
    #: log reads it as R = 2d10 + AT - DEF, with DEF and R from attack_resolved's payload.
    roll_readings: ClassVar[Mapping[str, str]] = {"S-25": "2d10 {total} + AT {target} - DEF {def_total} = R {r}"}

    def validate_sheet(self, raw: Mapping[str, JSON]) -> Sheet:
        # whether an overload is refused is a per-fight option, and a sheet is validated before
        # the fight is known; start_combat refuses an overloaded sheet under "reject".
        return sheet_mod.validate_sheet(raw, overload="immobile")

    def sheet_schema(self) -> dict[str, JSON]:
        return dict(schema.SHEET_SCHEMA)

    def sheet_to_json(self, sheet: Sheet) -> dict[str, JSON]:
        return sheet_mod.sheet_to_json(sheet)

    def new_condition(self, sheet: Sheet) -> Condition:
        return Condition(end=derive(sheet).end)

    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        b = Batch(self, state, dice)
        t, args = command.type, command.args  # who may send it was checked against its spec (commands.py)
        if t == "start_combat":
            start_combat(b, args)
        elif t == "set_order":
            set_order(b, args)
        elif t == "act":
            actions.act(b, args)
        elif t == "defend":
            attacks.defend(b, args)
        elif t == "respond":
            attacks.respond(b, args)
        elif t == "roll":
            rolls.answer_roll(b, args)
        settle(b)
        return b.drafts

    def follow_up(self, state: FightState, dice: DiceSource) -> list[EventDraft]:
        # A core command (a GM adjustment knocking the current combatant out, a removal) moves the
        # round on exactly as after a SHELL command.
        b = Batch(self, state, dice)
        settle(b)
        return b.drafts

    def auto_answer(self, state: FightState, prompt: Prompt) -> Command | None:
        return Command("roll", {"prompt": prompt.id}) if prompt.kind == rolls.ROLL else None

    def apply(self, state: FightState, event: Event) -> FightState:
        return EVENTS.fold(self, state, event)

    def after_core(self, state: FightState, event: Event) -> FightState:
        return after_core(state, event)

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        return EVENTS.explain(state_before, event, hidden)

    def view_combatant(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        """The derived numbers (S-03, S-04, S-07, S-17, S-26) and the current ones (S-13)."""
        state.combatant(combatant_id)
        d = derived_now(state, combatant_id)
        cur = now(state, combatant_id, bool(state.options.get("fatigue_rederives_mv")))
        cond = cond_of(state, combatant_id)
        return {"hp": d.hp, "end": d.end, "wp": d.wp, "cha": d.cha, "per": d.per, "mv": d.mv, "el": d.el,
                "max_enc": d.max_enc, "carried": d.carried, "mv_points": cur.mv_points, "initiative": d.initiative,
                "st_damage": str(d.damage), "dodge_def": d.dodge_def, "shield_pr": d.shield_pr,
                "armour_dr": dict(d.armour_dr), "st_now": cur.st, "ag_now": cur.ag,
                "damage_total": damage.total(damage.Wounds(cond.wounds, cond.stun_damage), d.hp)}

    def describe(self, state: FightState, viewer: Viewer) -> Description:
        return describe(state, viewer, {**self.default_options, **state.options})
