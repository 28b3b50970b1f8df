"""A scripted GURPS table on a real SQLite file: the GM, manual dice, explicit order."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Sequence

import pytest

from combat_server.engine.fight import CommandResult, Engine
from combat_server.rules.model import GM_ACTOR, Principal, Command, FightState, Prompt
from combat_server.rules.serialize import state_bytes
from combat_server.store.sql import SqlStore

KNIGHT = {"st": 12, "dx": 12, "ht": 11, "shield_skill": 12, "shield_name": "medium shield",
          "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}]}
ORC = {"st": 13, "dx": 11, "ht": 12, "weapons": [{"name": "axe", "skill": 12, "damage": "sw+2",
                                                  "damage_type": "cut", "unbalanced": True}]}
ARCHER = {"st": 10, "dx": 13, "ht": 10, "weapons": [
    {"name": "bow", "kind": "ranged", "skill": 14, "damage": "thr+1", "damage_type": "imp", "acc": 2,
     "half_damage": 150, "max_range": 200, "bulk": -7, "parry": None},
    {"name": "knife", "kind": "melee", "skill": 12, "damage": "thr", "damage_type": "imp", "reach": "C"}]}


class Table:
    """One fight driven command by command, every dice face typed in."""

    def __init__(self, engine: Engine, fight_id: str) -> None:
        self.engine = engine
        self.fight_id = fight_id
        self._ids = itertools.count(1)

    def send(self, type_: str, args: dict[str, Any] | None = None, faces: Sequence[Sequence[int]] = (),
             actor: Principal = GM_ACTOR) -> CommandResult:
        return self.engine.execute(self.fight_id, Command(type_, args or {}, actor, f"cmd-{next(self._ids)}"),
                                   [list(f) for f in faces])

    def add(self, cid: str, sheet: dict[str, Any], side: str = "pc", name: str | None = None) -> None:
        self.send("add_combatant", {"id": cid, "name": name or cid.title(), "side": side, "sheet": sheet})

    def maneuver(self, cid: str, maneuver: str, faces: Sequence[Sequence[int]] = (), **args: Any) -> CommandResult:
        return self.send("maneuver", {"combatant": cid, "maneuver": maneuver, **args}, faces)

    def prompt(self, kind: str | None = None) -> Prompt:
        prompts = [p for p in self.state.prompts if kind is None or p.kind == kind]
        assert prompts, f"no {kind} prompt open: {self.state.prompts}"
        return prompts[0]

    def defend(self, defense: str, faces: Sequence[Sequence[int]] = (), **args: Any) -> CommandResult:
        return self.send("defend", {"prompt": self.prompt("defend").id, "defense": defense, **args}, faces)

    def roll(self, faces: Sequence[int], purpose: str | None = None) -> CommandResult:
        prompts = [p for p in self.state.prompts if p.kind == "roll"
                   and (purpose is None or p.options["purpose"] == purpose)]
        assert prompts, f"no roll prompt {purpose}: {self.state.prompts}"
        return self.send("roll", {"prompt": prompts[0].id}, [faces])

    @property
    def state(self) -> FightState:
        return self.engine.load(self.fight_id)

    def cond(self, cid: str) -> Any:
        return self.state.combatants[cid].condition

    @property
    def current(self) -> str:
        return str(self.state.combat.current)

    def events(self, type_: str) -> list[Any]:
        return [e for e in self.engine.store.events(self.fight_id) if e.type == type_]

    def last(self, type_: str) -> Any:
        return self.events(type_)[-1]

    def explained(self, seq: int) -> str:
        """The log's sentence for event ``seq``."""
        return next(e.explanation for e in self.engine.history(self.fight_id) if e.event.seq == seq)

    def refold_matches(self) -> bool:
        self.engine.forget(self.fight_id)
        fresh = self.engine.load(self.fight_id)
        return state_bytes(fresh) == state_bytes(self.engine._load_from_store(self.fight_id, use_snapshots=False)[0])


@pytest.fixture
def engine(store: SqlStore) -> Engine:
    """The real store, once on a SQLite file and once on PostgreSQL (tests/conftest.py)."""
    return Engine(store, snapshot_every=7)


@pytest.fixture
def table(engine: Engine) -> Table:
    fid = engine.create_fight("gurps", dice_mode="manual").fight_id
    return Table(engine, fid)


@pytest.fixture
def duel(table: Table) -> Table:
    """Knight (PC) against Orc (NPC), the knight acting first."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["knight", "orc"]})
    return table
