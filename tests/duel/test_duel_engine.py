"""A second, test-only ruleset played through the real engine on a SQLite file (#9, "How we know
it is done", first bullet): the engine knows it only through the Ruleset interface."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR, Command, FightState, Principal
from combat_server.rules.serialize import state_bytes
from combat_server.store.sql import SqlStore
from tests.duel.ruleset import Condition, DuelRuleset

ANNA = Principal("seat-anna", combatants=("anna",), label="Anna's player")
BORIS = Principal("seat-boris", combatants=("boris",), label="Boris's player")


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    store = SqlStore(f"sqlite:///{tmp_path / 'duel.db'}")
    store.migrate()
    yield Engine(store, snapshot_every=3)
    store.dispose()


def _begun(engine: Engine, options: dict[str, int] | None = None) -> str:
    fid = engine.create_fight("duel", options=options or {}, dice_mode="manual", title="a duel").fight_id
    for cid, name, vigour in (("anna", "Anna", 10), ("boris", "Boris", 8)):
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": name, "side": "pc",
                                                      "sheet": {"vigour": vigour, "nimbleness": 3}}, GM_ACTOR, cid))
    engine.execute(fid, Command("begin_duel", {}, GM_ACTOR, "begin"))
    return fid


def _vigour(state: FightState, cid: str) -> int:
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    return cond.vigour


def test_a_fierce_strike_blocked_halves_the_harm_and_exposes_the_striker(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine, {"fierce_bonus": 3})
    engine.execute(fid, Command("strike", {"attacker": "anna", "target": "boris", "stance": "fierce"}, ANNA, "s1"))
    state = engine.load(fid)
    (prompt,) = state.prompts
    assert prompt.kind == "ward" and prompt.combatant == "boris" and prompt.options["harm"] == 5
    assert [b.label for b in duel.describe(state, GM_ACTOR).badges] == ["exposed"]
    engine.execute(fid, Command("ward", {"prompt": prompt.id, "ward": "block"}, BORIS, "w1"))
    state = engine.load(fid)
    assert _vigour(state, "boris") == 8 - 2 and not state.prompts
    assert state.combat.current == "boris"


def test_a_sidestep_rolls_against_nimbleness_and_records_the_roll(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine)
    engine.execute(fid, Command("strike", {"attacker": "anna", "target": "boris", "stance": "careful"}, ANNA, "s1"))
    prompt = engine.load(fid).prompts[0]
    result = engine.execute(fid, Command("ward", {"prompt": prompt.id, "ward": "sidestep"}, BORIS, "w1"), faces=[[5]])
    warded = next(e for e in result.events if e.type == "duel_warded")
    assert warded.payload["record"]["outcome"] == "failure" and warded.payload["record"]["target"] == 3
    assert _vigour(engine.load(fid), "boris") == 8 - 2


def test_only_the_fighter_whose_turn_it_is_strikes(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine)
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("strike", {"attacker": "boris", "target": "anna", "stance": "careful"}, BORIS, "x"))
    assert err.value.code == "duel/not_your_turn"
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("strike", {"attacker": "anna", "target": "boris", "stance": "wild"}, ANNA, "y"))
    assert err.value.code == "command/bad_field" and err.value.details["known"] == ["careful", "fierce"]


def test_only_the_fighter_struck_answers_its_ward(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine)
    engine.execute(fid, Command("strike", {"attacker": "anna", "target": "boris", "stance": "careful"}, ANNA, "s1"))
    prompt = engine.load(fid).prompts[0]
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("ward", {"prompt": prompt.id, "ward": "block"}, ANNA, "w1"))
    assert err.value.code == "auth/not_your_prompt"


def test_a_bad_option_or_sheet_is_refused_naming_the_field(duel: DuelRuleset, engine: Engine) -> None:
    with pytest.raises(Rejected) as err:
        engine.create_fight("duel", options={"fierce_bonus": 9})
    assert err.value.code == "fight/bad_option"
    fid = engine.create_fight("duel").fight_id
    with pytest.raises(Rejected) as err:
        engine.execute(fid, Command("add_combatant", {"id": "x", "name": "X", "side": "pc",
                                                      "sheet": {"vigour": 0, "nimbleness": 3}}, GM_ACTOR, "x"))
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == "vigour"


def test_undo_puts_the_vigour_back_and_the_live_state_equals_a_refold(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine)
    engine.execute(fid, Command("strike", {"attacker": "anna", "target": "boris", "stance": "fierce"}, ANNA, "s1"))
    prompt = engine.load(fid).prompts[0]
    engine.execute(fid, Command("ward", {"prompt": prompt.id, "ward": "block"}, BORIS, "w1"))
    assert _vigour(engine.load(fid), "boris") == 6
    engine.execute(fid, Command("undo", {"to": "last_command"}, GM_ACTOR, "u1"))
    state = engine.load(fid)
    assert _vigour(state, "boris") == 8 and state.prompts[0].kind == "ward"
    assert state_bytes(state) == state_bytes(core.fold(duel, engine.store.events(fid)))


def test_the_description_is_json_and_offers_the_strike_to_its_seat_only(duel: DuelRuleset, engine: Engine) -> None:
    fid = _begun(engine)
    state = engine.load(fid)
    assert [a["id"] for a in to_json(duel.describe(state, ANNA))["actions"]] == ["strike"]
    assert to_json(duel.describe(state, BORIS))["actions"] == []
    assert [b["value"] for b in to_json(duel.describe(state, BORIS))["bars"]] == [10, 8]
