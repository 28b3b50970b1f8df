"""The dice duel: two fighters take turns striking; the one struck picks a ward.

Why a second ruleset: it proves the engine, the server and both clients work
from the ruleset interface alone (#9). It is built on rules/kit only: a Batch,
prompts, a roll record, event specs and a FixedOrder.

The rules (D- ids are this file's own):
- D-1 the GM begins the duel; the fighters act in the order they were added (FixedOrder).
- D-2 on its turn a fighter strikes another, ``careful`` (2 harm) or ``fierce``
  (2 + the ``fierce_bonus`` option harm, and it is *exposed* until its next turn).
- D-3 the fighter struck answers a ward prompt: ``block`` halves the harm (rounding down),
  ``sidestep`` rolls 1d6 against its nimbleness: at or under it, no harm; over it, full harm.
- D-4 harm comes off vigour; a fighter at 0 vigour is down and takes no more turns.
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.commands import ANSWERS, CONTROLS, GM, CommandSpec
from combat_server.rules.describe import (Action, Answer, Badge, Bar, Choice, Description, Field, PromptChoices,
                                          Stat, Summary, Threshold, Viewer)
from combat_server.rules.kit.batch import Batch
from combat_server.rules.kit.events import EventRegistry, EventSpec, on_payload
from combat_server.rules.kit.prompts import answered, open_prompt
from combat_server.rules.kit.rolls import record
from combat_server.rules.kit.turns import FixedOrder
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState
from combat_server.rules.options import OptionSpec
from combat_server.rules.ruleset import Ruleset

STANCES = ("careful", "fierce")
WARDS = ("block", "sidestep")
WARD = "ward"


@attrs.frozen
class Sheet:
    vigour: int
    nimbleness: int


@attrs.frozen
class Condition:
    vigour: int
    exposed: bool = False


@attrs.frozen
class Duel:
    order: tuple[str, ...] = ()
    index: int = -1
    round: int = 0
    current: str = ""


# --------------------------------------------------------------------------- events


@attrs.frozen
class Begun:
    order: list[str]


@attrs.frozen
class TurnBegun:
    combatant: str
    index: int
    round: int


@attrs.frozen
class Struck:
    attacker: str
    target: str
    stance: str
    harm: int


@attrs.frozen
class Warded:
    combatant: str
    ward: str
    harm: int
    vigour: int
    record: dict[str, Any] | None = None


def _duel(state: FightState) -> Duel:
    assert isinstance(state.combat, Duel)
    return state.combat


def _cond(state: FightState, cid: str) -> Condition:
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    return cond


def _fold_begun(state: FightState, p: Mapping[str, Any]) -> FightState:
    return attrs.evolve(state, status="active", combat=Duel(order=tuple(p["order"])))


def _fold_turn(state: FightState, p: Mapping[str, Any]) -> FightState:
    state = state.with_condition(p["combatant"], exposed=False)
    return attrs.evolve(state, combat=attrs.evolve(_duel(state), current=p["combatant"], index=p["index"],
                                                   round=p["round"]))


def _fold_struck(state: FightState, p: Mapping[str, Any]) -> FightState:
    return state.with_condition(p["attacker"], exposed=p["stance"] == "fierce")


def _fold_warded(state: FightState, p: Mapping[str, Any]) -> FightState:
    return state.with_condition(p["combatant"], vigour=p["vigour"])


def _name(state: FightState, cid: str) -> str:
    c = state.combatants.get(cid)
    return c.name if c is not None else cid


EVENTS = EventRegistry(
    EventSpec("duel_begun", Begun, on_payload(_fold_begun),
              lambda s, p, h: "The duel begins: " + ", ".join(_name(s, c) for c in p["order"]) + " (D-1)."),
    EventSpec("duel_turn_begun", TurnBegun, on_payload(_fold_turn),
              lambda s, p, h: f"Round {p['round']}: {_name(s, p['combatant'])}'s turn (D-1)."),
    EventSpec("duel_struck", Struck, on_payload(_fold_struck),
              lambda s, p, h: f"{_name(s, p['attacker'])} strikes {_name(s, p['target'])} {p['stance']}ly "
                              f"for {p['harm']} (D-2)."),
    EventSpec("duel_warded", Warded, on_payload(_fold_warded),
              lambda s, p, h: f"{_name(s, p['combatant'])} wards with a {p['ward']} and takes {p['harm']} (D-3, D-4)."),
)

COMMANDS: Mapping[str, CommandSpec] = {
    "begin_duel": CommandSpec("begin_duel", GM, help="begin the duel (D-1)"),
    "strike": CommandSpec(
        "strike", CONTROLS,
        {"attacker": {"type": "string"}, "target": {"type": "string"}, "stance": {"enum": list(STANCES)}},
        required=("attacker", "target", "stance"), subject="attacker", help="strike another fighter (D-2)"),
    "ward": CommandSpec("ward", ANSWERS, {"prompt": {"type": "string"}, "ward": {"enum": list(WARDS)}},
                        required=("prompt", "ward"), subject="prompt", prompt_kind=WARD,
                        help="answer a strike (D-3)"),
}


def _can_act(state: FightState) -> Any:
    return lambda cid: cid in state.combatants and _cond(state, cid).vigour > 0


def _next_turn(b: Batch) -> None:
    duel = _duel(b.state)
    living = [c for c in duel.order if c in b.state.combatants and _cond(b.state, c).vigour > 0]
    if len(living) < 2:
        return
    turn = FixedOrder().next_turn(duel.order, duel.index, duel.round, _can_act(b.state))
    if turn is not None:
        b.emit("duel_turn_begun", {"combatant": turn.combatant, "index": turn.index, "round": turn.round})


def _begin(b: Batch) -> None:
    if b.state.status != "setup":
        raise reject("duel/already_begun", "the duel has already begun")
    if len(b.state.combatants) < 2:
        raise reject("duel/too_few", "a duel needs two fighters")
    b.emit("duel_begun", {"order": list(b.state.combatants)})
    _next_turn(b)


def _strike(b: Batch, args: Mapping[str, Any]) -> None:
    attacker = b.controlled({"combatant": args["attacker"]})
    target = str(args["target"])
    state = b.state
    if state.status != "active" or _duel(state).current != attacker or state.prompts:
        raise reject("duel/not_your_turn", f"it is not {b.name(attacker)}'s turn to strike")
    if target == attacker or target not in state.combatants or _cond(state, target).vigour <= 0:
        raise reject("duel/bad_target", f"{b.name(attacker)} cannot strike {target!r}", field="target")
    harm = 2 + (int(b.option("fierce_bonus")) if args["stance"] == "fierce" else 0)
    b.emit("duel_struck", {"attacker": attacker, "target": target, "stance": args["stance"], "harm": harm},
           opens=[open_prompt(WARD, target, f"{b.name(attacker)} strikes {b.name(target)} for {harm}: ward!",
                              harm=harm)])


def _ward(b: Batch, args: Mapping[str, Any]) -> None:
    prompt = answered(b.state, args["prompt"], WARD)
    cid = str(prompt.combatant)
    harm = int(prompt.options["harm"])
    payload: dict[str, JSON] = {"combatant": cid, "ward": args["ward"]}
    if args["ward"] == "block":
        taken = harm // 2
    else:
        nimble = b.state.combatants[cid].sheet.nimbleness
        rec = record(purpose="sidestep", roller=cid, dice=b.roll(1, 6, "sidestep"), base=nimble,
                     base_reason="nimbleness", mods=(), judge=lambda t, e: "success" if t <= e else "failure",
                     rule="D-3")
        taken = 0 if rec["outcome"] == "success" else harm
        payload["record"] = rec
    payload.update(harm=taken, vigour=max(0, _cond(b.state, cid).vigour - taken))
    b.emit("duel_warded", payload, answers=prompt.id)
    _next_turn(b)


class DuelRuleset(Ruleset[Sheet, Condition, Duel]):
    name: ClassVar[str] = "duel"
    version: ClassVar[str] = "1.0"
    sheet_type: ClassVar[type] = Sheet
    condition_type: ClassVar[type] = Condition
    combat_type: ClassVar[type | None] = Duel
    commands: ClassVar[Mapping[str, CommandSpec]] = COMMANDS
    events: ClassVar[Mapping[str, EventSpec]] = EVENTS
    visible_condition: ClassVar[tuple[str, ...]] = ("exposed",)
    hidden_prompt_text: ClassVar[Mapping[str, str]] = {WARD: "{name} must ward a strike"}
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("fierce_bonus", "integer", 2, label="Fierce bonus", rules=("D-2",), minimum=0, maximum=4,
                   group="Strikes", help="Extra harm a fierce strike does."),
    )

    def validate_sheet(self, raw: Mapping[str, JSON]) -> Sheet:
        values = {}
        for key, (low, high, default) in (("vigour", (1, 30, 10)), ("nimbleness", (1, 6, 3))):
            value = raw.get(key, default)  # a field left out: the schema's default
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise reject("sheet/bad_field", f"{key} must be a whole number {low}..{high}", field=key)
            values[key] = value
        unknown = sorted(set(raw) - set(values))
        if unknown:
            raise reject("sheet/bad_field", f"no sheet field {unknown[0]!r}", field=unknown[0])
        return Sheet(**values)

    def sheet_schema(self) -> dict[str, JSON]:
        return {"type": "object", "title": "Duellist",
                "additionalProperties": False,
                "properties": {
                    "vigour": {"type": "integer", "title": "Vigour", "minimum": 1, "maximum": 30, "default": 10,
                               "description": "How much harm the fighter takes before going down (D-4)."},
                    "nimbleness": {"type": "integer", "title": "Nimbleness", "minimum": 1, "maximum": 6,
                                   "default": 3, "description": "A sidestep roll of 1d6 at or under it works (D-3)."},
                }}

    def sheet_to_json(self, sheet: Sheet) -> dict[str, JSON]:
        return {"vigour": sheet.vigour, "nimbleness": sheet.nimbleness}

    def new_condition(self, sheet: Sheet) -> Condition:
        return Condition(vigour=sheet.vigour)

    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        b = Batch(self, state, dice)
        if command.type == "begin_duel":
            _begin(b)
        elif command.type == "strike":
            _strike(b, command.args)
        elif command.type == "ward":
            _ward(b, command.args)
        return b.drafts

    def apply(self, state: FightState, event: Event) -> FightState:
        return EVENTS.fold(self, state, event)

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        return EVENTS.explain(state_before, event, hidden)

    def describe(self, state: FightState, viewer: Viewer) -> Description:
        actions: list[Action] = []
        if state.status == "setup" and viewer.is_gm and len(state.combatants) >= 2:
            actions.append(Action("begin", "begin_duel", "Begin the duel", rules=("D-1",)))
        duel = state.combat if isinstance(state.combat, Duel) else None
        current = duel.current if duel is not None and state.status == "active" else ""
        if current and not state.prompts and (viewer.is_gm or viewer.controls(current)):
            targets = tuple(Choice(c.id, c.name) for c in state.combatants.values()
                            if c.id != current and _cond(state, c.id).vigour > 0)
            actions.append(Action(
                "strike", "strike", f"{_name(state, current)} strikes", rules=("D-2",),
                args={"attacker": current}, combatant=current, fields=(
                    Field("target", "choice", "Target", required=True, choices=targets,
                          default=targets[0].value if targets else None),
                    Field("stance", "choice", "Stance", rule="D-2", required=True, default="careful", choices=(
                        Choice("careful", "Careful", "2 harm"),
                        Choice("fierce", "Fierce", "more harm, exposed until its next turn", aliases=("all-out",)),
                    )))))
        prompts = tuple(
            PromptChoices(p.id, p.kind, p.combatant, p.text, (
                Answer("Block", "ward", {"prompt": p.id, "ward": "block"}, help="halves the harm", rule="D-3"),
                Answer("Sidestep", "ward", {"prompt": p.id, "ward": "sidestep"}, rule="D-3", dice="1d6",
                       number=state.combatants[str(p.combatant)].sheet.nimbleness,
                       help="no harm at or under nimbleness"),
            ))
            for p in state.prompts
            if p.kind == WARD and (viewer.is_gm or (p.combatant is not None and viewer.controls(p.combatant))))
        bars = tuple(Bar(c.id, "vigour", "Vigour", _cond(state, c.id).vigour, c.sheet.vigour, "D-4",
                         (Threshold(0, "down", "D-4", "grave"),)) for c in state.combatants.values())
        badges = tuple(Badge(c.id, "exposed", "warn", "D-2", "until its next turn")
                       for c in state.combatants.values() if _cond(state, c.id).exposed)
        summaries = tuple(Summary(c.id, f"{c.name}: vigour {_cond(state, c.id).vigour}/{c.sheet.vigour}")
                          for c in state.combatants.values())
        waiting = ""
        if state.prompts:
            waiting = f"waiting for {_name(state, str(state.prompts[0].combatant))} to ward"
        elif current:
            waiting = f"waiting for {_name(state, current)} to strike"
        # the card (#13): what a duellist looks up, as labelled numbers
        stats = tuple(Stat(c.id, "Footwork", "Sidestep", f"{c.sheet.nimbleness} or less on 1d6", "D-3")
                      for c in state.combatants.values())
        return Description(tuple(actions), prompts, bars, badges, summaries, waiting, stats)
