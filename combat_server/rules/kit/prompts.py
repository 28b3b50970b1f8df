"""Prompts: what the fight waits for from a person (or from the dice).

A prompt is opened by the event that needs it (the event's ``opens``, in the order
they must be answered) and closed by the event that answers it (``answers``); the
fold of any event applies both (:func:`fold_prompts`), so a ruleset never writes
prompt bookkeeping of its own. Ids are given at emit time (``p{seq}-{n}``), so
replay gives the same ids.
"""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from combat_server.rules.model import JSON, Event, FightState, Prompt


def open_prompt(kind: str, combatant: str | None, text: str, **options: JSON) -> dict[str, JSON]:
    """A prompt to open; its id is given when the event carrying it is emitted (``Batch.emit``)."""
    return {"kind": kind, "combatant": combatant, "text": text, "options": options}


def roll_prompt(combatant: str | None, purpose: str, text: str, count: int = 3, sides: int = 6,
                **options: JSON) -> dict[str, JSON]:
    """A prompt answered by dice alone (``purpose`` says which rule reads them)."""
    return open_prompt("roll", combatant, text, purpose=purpose, count=count, sides=sides, **options)


def answered(state: FightState, prompt_id: Any, kind: str) -> Prompt:
    """The open prompt a command answers (its spec already checked that it is open and whose it is)."""
    return next(p for p in state.prompts if p.id == prompt_id and p.kind == kind)


def fold_prompts(state: FightState, event: Event) -> FightState:
    """Close the prompt ``event`` answers and open the ones it opens."""
    p = event.payload
    prompts = state.prompts
    if "answers" in p:
        prompts = tuple(pr for pr in prompts if pr.id != p["answers"])
    for raw in p.get("opens", ()):
        prompts = prompts + (
            Prompt(id=raw["id"], kind=raw["kind"], combatant=raw.get("combatant"), text=raw["text"],
                   options=dict(raw.get("options", {}))),
        )
    return attrs.evolve(state, prompts=prompts)
