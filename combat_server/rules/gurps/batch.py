"""A batch of events being decided: each emitted event is folded at once, so the
next decision step sees the state it produced (pure; the engine re-folds the same
drafts for real)."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from combat_server.errors import reject
from combat_server.rules import core
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.rules.model import JSON, DiceRequest, DiceSource, Event, EventDraft, FightState
from combat_server.rules.ruleset import Ruleset


def prompt(kind: str, combatant: str | None, text: str, **options: JSON) -> dict[str, JSON]:
    """A prompt to open; its id is given when the event carrying it is emitted."""
    return {"kind": kind, "combatant": combatant, "text": text, "options": options}


def roll_prompt(combatant: str | None, purpose: str, text: str, count: int = 3, sides: int = 6,
                **options: JSON) -> dict[str, JSON]:
    return prompt("roll", combatant, text, purpose=purpose, count=count, sides=sides, **options)


class Batch:
    def __init__(self, ruleset: Ruleset, state: FightState, dice: DiceSource) -> None:
        self.ruleset = ruleset
        self.state = state
        self.dice = dice
        self.drafts: list[EventDraft] = []

    def emit(self, type_: str, payload: Mapping[str, JSON], opens: Sequence[Mapping[str, JSON]] = (),
             answers: str | None = None) -> None:
        body = dict(payload)
        seq = self.state.seq + 1
        if answers is not None:
            body["answers"] = answers
        if opens:
            body["opens"] = [dict(o, id=f"p{seq}-{i}") for i, o in enumerate(opens, start=1)]
        event = Event(self.state.fight_id, seq, type_, body, "", "", "", self.state.ruleset_version, "", "")
        self.state = core.apply(self.ruleset, self.state, event)
        self.drafts.append(EventDraft(type_, body))

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        return tuple(self.dice.roll(DiceRequest(count, sides, purpose)))

    @property
    def combat(self) -> Combat:
        combat = self.state.combat
        if not isinstance(combat, Combat):
            raise reject("combat/not_started", "combat has not started: the GM sends start_combat first")
        return combat

    def cond(self, cid: str) -> Condition:
        cond = self.state.combatant(cid).condition
        assert isinstance(cond, Condition)
        return cond

    def sheet(self, cid: str) -> Sheet:
        sheet = self.state.combatant(cid).sheet
        assert isinstance(sheet, Sheet)
        return sheet

    def name(self, cid: str) -> str:
        c = self.state.combatants.get(cid)
        return c.name if c is not None else cid

    def controlled(self, args: Mapping[str, Any]) -> str:
        """The ``combatant`` a command names; that the sender controls it was checked against the
        command's spec (``rules/commands.py: authorise``)."""
        cid = str(args["combatant"])
        self.state.combatant(cid)
        return cid

    def option(self, key: str) -> Any:
        return self.state.options.get(key, self.ruleset.default_options.get(key))
