"""Issue 16, fold once: a command's result carries, per event, the state right after it and its
explanation, so nothing downstream folds or explains the event again."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from combat_server.engine import fight
from combat_server.engine.fight import CommandResult, Engine
from combat_server.rules import core
from combat_server.rules.model import GM_ACTOR, Command, Principal, make_builder
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_bytes
from tests.conftest import SHEET


def _fight(engine: Engine) -> str:
    fid = engine.create_fight("gurps", dice_mode="seeded", seed="fold-once").fight_id
    for cid, side in (("alice", "pc"), ("orc", "npc")):
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": SHEET},
                                    GM_ACTOR, f"gm:add-{cid}"))
    engine.execute(fid, Command("start_combat", {"order": ["alice", "orc"]}, GM_ACTOR, "gm:start"))
    return fid


def _attack(engine: Engine, fid: str) -> Any:
    alice = Principal.of_seat("player-1", "player", ("alice",))
    return engine.execute(fid, Command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc",
                                                    "weapon": "sword"}, alice, "player-1:attack"))


def test_each_event_of_a_command_carries_the_state_right_after_it(engine: Engine) -> None:
    """Seeded dice: the attack rolls itself through defence and damage, several events in one command;
    the state given with each equals the stored log refolded up to that event, byte for byte."""
    fid = _fight(engine)
    result = _attack(engine, fid)
    assert len(result.events) > 1 and len(result.states) == len(result.events) == len(result.explanations)
    log = engine.store.events(fid)
    rs = get_ruleset("gurps", log[0].ruleset_version)
    for event, state in zip(result.events, result.states):
        assert state.seq == event.seq
        assert state_bytes(state) == state_bytes(core.fold(rs, log[:event.seq]))
    assert result.states[-1] is result.state


def test_each_event_carries_the_explanation_of_its_state_before(engine: Engine) -> None:
    fid = _fight(engine)
    before = engine.load(fid)
    result = _attack(engine, fid)
    rs = get_ruleset("gurps", before.ruleset_version)
    for event, explanation in zip(result.events, result.explanations):
        assert explanation == core.explain(rs, before, event)
        before = core.apply(rs, before, event)


def test_undo_carries_the_refolded_state(engine: Engine) -> None:
    fid = _fight(engine)
    engine.execute(fid, Command("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "x"}, GM_ACTOR, "gm:a"))
    undone = engine.execute(fid, Command("undo", {}, GM_ACTOR, "gm:u"))
    assert undone.states == (undone.state,)
    assert undone.state.combatants["orc"].condition.hp == 12  # back to full HP: HP = ST 12


def test_engine_folds_each_drafted_event_once(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kit's Batch folds each event as it drafts it; the engine reuses that state instead of folding again."""
    fid = _fight(engine)
    applied: list[int] = []
    real = core.apply

    def counting(ruleset: Any, state: Any, event: Any) -> Any:
        applied.append(event.seq)
        return real(ruleset, state, event)

    monkeypatch.setattr(core, "apply", counting)
    result = _attack(engine, fid)
    assert sorted(applied) == sorted(set(applied))  # no seq folded twice
    assert len(applied) == len(result.events)


def test_an_executed_commands_result_is_attrs_own(engine: Engine) -> None:
    """Engine.execute builds its CommandResult through model.make_builder (issue 16, session 11): the result
    is the class itself, equal to CommandResult(...) of the same fields and frozen; the builder names every
    field, so a field added to CommandResult is built too or the call fails loudly."""
    fid = _fight(engine)
    result = _attack(engine, fid)
    fields = {f.name: getattr(result, f.name) for f in attrs.fields(CommandResult)}
    assert type(result) is CommandResult and result == CommandResult(**fields)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        result.duplicate = True  # type: ignore[misc]
    assert make_builder(CommandResult) is not None  # not attrs' __init__ (the fallback)
    code = fight._RESULT.__code__
    assert code.co_varnames[:code.co_argcount] == tuple(fields)


def test_server_dice_are_one_stateless_source_for_every_command(engine: Engine) -> None:
    """Issue 16, session 13: a server-dice fight's commands share one ServerDice, which keeps nothing
    between rolls (each asks ``secrets``), so sharing it changes no roll."""
    from combat_server.engine.dice import ServerDice
    from combat_server.rules.model import DiceRequest

    fid = engine.create_fight("gurps").fight_id
    state = engine.load(fid)
    dice = engine.dice_for(state, None)
    assert type(dice) is ServerDice and engine.dice_for(state, None) is dice
    assert not vars(dice) and ServerDice.__init__ is object.__init__
    assert all(1 <= face <= 6 for face in dice.roll(DiceRequest(3, 6, "test")))
    assert not vars(dice)
