"""A batch of events being decided: each emitted event is folded at once, so the
next decision step sees the state it produced (pure). Each draft carries the state
before and after it, which the engine reuses instead of folding the event again
(issue 16, fold once). A ruleset subclasses it to add typed readers of its own state."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from combat_server.canonical import plain_json
from combat_server.rules import core
from combat_server.rules.model import JSON, DiceRequest, DiceSource, Event, EventDraft, FightState
from combat_server.rules.ruleset import Ruleset


class Batch:
    def __init__(self, ruleset: Ruleset, state: FightState, dice: DiceSource) -> None:
        self.ruleset = ruleset
        self.state = state
        self.dice = dice
        self.drafts: list[EventDraft] = []

    def emit(self, type_: str, payload: Mapping[str, JSON], opens: Sequence[Mapping[str, JSON]] = (),
             answers: str | None = None) -> None:
        """Record one event; ``opens``: prompts it opens (``prompts.open_prompt``), ``answers``: the one it closes."""
        body = dict(payload)
        seq = self.state.seq + 1
        if answers is not None:
            body["answers"] = answers
        if opens:
            body["opens"] = [dict(o, id=f"p{seq}-{i}") for i, o in enumerate(opens, start=1)]
        body = plain_json(body)  # as the store will hold it, so the state folded here is the refold's
        event = Event(self.state.fight_id, seq, type_, body, "", "", "", self.state.ruleset_version, "", "")
        before, self.state = self.state, core.apply(self.ruleset, self.state, event)
        self.drafts.append(EventDraft(type_, body, before, self.state))

    def roll(self, count: int, sides: int, purpose: str) -> tuple[int, ...]:
        """Dice from the fight's source; the faces end up in the event that uses them."""
        return tuple(self.dice.roll(DiceRequest(count, sides, purpose)))

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
        """A per-fight option, or the ruleset's default for fights created before it existed."""
        return self.state.options.get(key, self.ruleset.default_options.get(key))
