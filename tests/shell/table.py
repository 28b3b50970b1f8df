"""A SHELL table driven command by command through a real Engine and store, every die
typed in (manual dice), with readers for what the tests assert."""

from __future__ import annotations

import itertools
from typing import Any, Callable, Sequence

import pytest

from combat_server.errors import Rejected

from combat_server.engine.fight import CommandResult, Engine
from combat_server.rules.model import GM_ACTOR, Command, FightState, Principal, Prompt
from combat_server.rules.serialize import state_bytes
from combat_server.rules.shell.state import Condition

#: A shield fighter: Sword and Shield 4, AG 12 (AT +1, DEF +1), ST 13, long sword, medium shield, chain.
KNIGHT: dict[str, Any] = {
    "st": 13, "ag": 12, "iq": 10, "ht": 12, "body_weight": 180,
    "styles": [{"name": "Sword and Shield", "level": 4}],
    "weapons": [{"name": "long sword", "style": "Sword and Shield", "damage_types": ["cut", "imp"],
                 "hands": "either", "min_st": 11, "hp": 10, "weight": 3, "thrusting": True}],
    "shield": {"size": "medium", "weight": 12},
    "armour": [{"material": "chain", "locations": ["torso", "arm", "leg"], "weight": 30}],
}
#: An orc: Axe and Shield 3, AG 10, ST 14 (2d), axe +1 cut, small shield, leather on the torso.
ORC: dict[str, Any] = {
    "st": 14, "ag": 10, "iq": 8, "ht": 12, "npc": True, "body_weight": 200,
    "styles": [{"name": "Axe and Shield", "level": 3}],
    "weapons": [{"name": "axe", "style": "Axe and Shield", "damage": 1, "damage_types": ["cut"], "min_st": 12,
                 "hp": 12, "weight": 4}],
    "shield": {"size": "small", "weight": 8},
    "armour": [{"material": "leather", "locations": ["torso"], "weight": 10}],
}
#: An archer: Bow 4 (ranged), AG 15 (AT +2), ST 10, a bow of speed 2 reaching ST x 15 = 150.
ARCHER: dict[str, Any] = {
    "st": 10, "ag": 15, "iq": 10, "ht": 10, "body_weight": 140,
    "styles": [{"name": "Bow", "level": 4, "kind": "ranged"}, {"name": "Knife", "level": 1}],
    "weapons": [{"name": "bow", "style": "Bow", "damage_types": ["imp"], "ranged": True, "range_st": 15,
                 "speed": 2, "hands": "two", "hp": 6, "weight": 2},
                {"name": "knife", "style": "Knife", "damage": -2, "damage_types": ["imp"], "thrusting": True,
                 "close_combat": True, "hp": 5, "weight": 1}],
}
#: A mage: Elementalism 7, IQ 14; Firebolt (time 0, END 2, min 4), Stone Skin (time 1, END 3, min 5).
MAGE: dict[str, Any] = {
    "st": 10, "ag": 11, "iq": 14, "ht": 10, "body_weight": 130,
    "styles": [{"name": "Staff", "level": 2}],
    "arts": [{"name": "Elementalism", "level": 7, "spells": [
        {"name": "Firebolt", "min_level": 4, "end_cost": 2, "casting_time": 0},
        {"name": "Stone Skin", "min_level": 5, "end_cost": 3, "casting_time": 1}]}],
    "weapons": [{"name": "quarterstaff", "style": "Staff", "damage": 1, "damage_types": ["cr"], "hands": "two",
                 "hp": 12, "weight": 4}],
}
#: A brawler: Brawling 3, ST 14, AG 12, 180 lb, bare hands only.
BRAWLER: dict[str, Any] = {"st": 14, "ag": 12, "iq": 9, "ht": 11, "body_weight": 180,
                           "styles": [{"name": "Brawling", "level": 3}]}


class Table:
    """One SHELL fight driven command by command."""

    def __init__(self, engine: Engine, fight_id: str) -> None:
        self.engine = engine
        self.fight_id = fight_id
        self._ids = itertools.count(1)

    def send(self, type_: str, args: dict[str, Any] | None = None, faces: Sequence[Sequence[int]] = (),
             actor: Principal = GM_ACTOR) -> CommandResult:
        return self.engine.execute(self.fight_id, Command(type_, args or {}, actor, f"cmd-{next(self._ids)}"),
                                   [list(f) for f in faces])

    def add(self, cid: str, sheet: dict[str, Any], side: str = "pc") -> None:
        self.send("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": sheet})

    def act(self, cid: str, maneuver: str, actor: Principal = GM_ACTOR, **args: Any) -> CommandResult:
        return self.send("act", {"combatant": cid, "maneuver": maneuver, **args}, actor=actor)

    def prompt(self, kind: str) -> Prompt:
        found = [p for p in self.state.prompts if p.kind == kind]
        assert found, f"no {kind} prompt open: {self.state.prompts}"
        return found[0]

    def defend(self, defence: str, faces: Sequence[int], actor: Principal = GM_ACTOR, **args: Any) -> CommandResult:
        return self.send("defend", {"prompt": self.prompt("defence").id, "defence": defence, **args}, [faces],
                         actor=actor)

    def respond(self, response: str, faces: Sequence[Sequence[int]] = (), **args: Any) -> CommandResult:
        return self.send("respond", {"prompt": self.prompt("close_response").id, "response": response, **args},
                         faces)

    def roll(self, faces: Sequence[Sequence[int]], purpose: str | None = None) -> CommandResult:
        found = [p for p in self.state.prompts if p.kind == "roll" and purpose in (None, p.options["purpose"])]
        assert found, f"no roll prompt {purpose}: {self.state.prompts}"
        return self.send("roll", {"prompt": found[0].id}, faces)

    @property
    def state(self) -> FightState:
        return self.engine.load(self.fight_id)

    def cond(self, cid: str) -> Condition:
        cond = self.state.combatants[cid].condition
        assert isinstance(cond, Condition)
        return cond

    @property
    def current(self) -> str:
        return str(self.state.combat.current)

    def last(self, type_: str) -> Any:
        return [e for e in self.engine.store.events(self.fight_id) if e.type == type_][-1]

    def refold_matches(self) -> bool:
        self.engine.forget(self.fight_id)
        fresh = self.engine.load(self.fight_id)
        return state_bytes(fresh) == state_bytes(self.engine._load_from_store(self.fight_id, use_snapshots=False)[0])


def sheet(st: int = 10, ag: int = 10, styles: tuple[tuple[str, int], ...] = (("Sword", 1),), weapon: dict[str, Any] | None = None,
          **over: Any) -> dict[str, Any]:
    """A sheet with the given attributes and styles; ``weapon`` (its ``style`` defaults to the first style)."""
    raw: dict[str, Any] = {"st": st, "ag": ag, "styles": [{"name": n, "level": lv} for n, lv in styles]}
    if weapon is not None:
        raw["weapons"] = [{"style": styles[0][0], **weapon}]
    raw.update(over)
    return raw


SWORD: dict[str, Any] = {"name": "sword", "damage_types": ["cut", "imp"], "hp": 10, "thrusting": True}


def at_total(result: CommandResult) -> int:
    """The AT of the attack a command declared."""
    declared = [e for e in result.events if e.type == "attack_declared"][-1]
    return sum(m["value"] for m in declared.payload["attack"]["at"])


def resolved(result: CommandResult) -> Any:
    return [e for e in result.events if e.type == "attack_resolved"][-1].payload


def start(table: Table, *order: str) -> None:
    table.send("start_combat", {"order": list(order)})


def refused(table: Table, code: str, send: Callable[[], Any]) -> Rejected:
    """``send()`` is refused with ``code`` and appends nothing: the log and the state are unchanged."""
    seq, before = table.state.seq, state_bytes(table.state)
    with pytest.raises(Rejected) as err:
        send()
    assert err.value.code == code, (err.value.code, err.value.message)
    assert len(table.engine.store.events(table.fight_id)) == seq and table.state.seq == seq
    assert state_bytes(table.state) == before
    return err.value
