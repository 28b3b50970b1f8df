"""Helpers for the GURPS rules tests: drive a real engine with manual dice."""

from __future__ import annotations

import itertools
from typing import Any, Mapping, Sequence

from combat_server.engine.fight import CommandResult, Engine
from combat_server.rules.gurps.state import Condition
from combat_server.rules.model import GM_ACTOR, Command, Prompt

Faces = Sequence[Sequence[int]]


def d3(total: int) -> list[int]:
    """Three d6 faces that sum to ``total`` (3..18)."""
    assert 3 <= total <= 18, total
    faces, rest = [1, 1, 1], total - 3
    for i in range(3):
        add = min(5, rest)
        faces[i] += add
        rest -= add
    return faces


def payload(result: CommandResult, event_type: str) -> dict[str, Any]:
    """The payload of the last event of ``event_type`` in a command's result."""
    found = [e.payload for e in result.events if e.type == event_type]
    assert found, f"no {event_type} event in {[e.type for e in result.events]}"
    return dict(found[-1])


class Fight:
    def __init__(self, engine: Engine, fight_id: str) -> None:
        self.engine = engine
        self.fid = fight_id
        self._ids = itertools.count(1)

    def run(self, kind: str, args: Mapping[str, Any], faces: Faces | None = None) -> CommandResult:
        cmd = Command(kind, dict(args), GM_ACTOR, f"cmd-{next(self._ids)}")
        return self.engine.execute(self.fid, cmd, faces=[list(f) for f in faces] if faces else None)

    def maneuver(self, cid: str, maneuver: str, faces: Faces | None = None, **args: Any) -> CommandResult:
        return self.run("maneuver", {"combatant": cid, "maneuver": maneuver, **args}, faces)

    def pass_turn(self, cid: str) -> CommandResult:
        return self.maneuver(cid, "do_nothing")

    def adjust(self, cid: str, **changes: Any) -> CommandResult:
        return self.run("adjust", {"combatant": cid, "changes": changes, "reason": "test setup"})

    @property
    def prompts(self) -> tuple[Prompt, ...]:
        return self.engine.load(self.fid).prompts

    def prompt(self, kind: str, purpose: str | None = None) -> Prompt:
        for p in self.prompts:
            if p.kind == kind and (purpose is None or p.options.get("purpose") == purpose):
                return p
        raise AssertionError(f"no open {kind} prompt {purpose or ''}: {self.prompts}")

    def open_purposes(self) -> list[str]:
        return [str(p.options.get("purpose", p.kind)) for p in self.prompts]

    def roll(self, purpose: str, faces: Faces | None = None) -> CommandResult:
        return self.run("roll", {"prompt": self.prompt("roll", purpose).id}, faces)

    def defend(self, defense: str, faces: Faces | None = None, weapon: str | None = None) -> CommandResult:
        args: dict[str, Any] = {"prompt": self.prompt("defend").id, "defense": defense}
        if weapon:
            args["weapon"] = weapon
        return self.run("defend", args, faces)

    def cond(self, cid: str) -> Condition:
        cond = self.engine.load(self.fid).combatants[cid].condition
        assert isinstance(cond, Condition)
        return cond
