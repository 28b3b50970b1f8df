"""A GM's ``adjust`` refuses values the rules cannot take (a condition field's ADJUSTABLE_TO domain,
rules/model.py): a closed set of values, or values that refer to the fight (a combatant, a weapon)."""

from __future__ import annotations

import itertools
import tempfile
from typing import Any, Iterator, Mapping

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.describe import Action
from combat_server.rules.gurps.tables import POSTURES
from combat_server.rules.model import GM_ACTOR, Command, Principal
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_bytes
from combat_server.store.sql import open_store

SWORDSMAN = {"st": 12, "dx": 12, "iq": 10, "ht": 11,
             "weapons": [{"name": "sword", "damage": "sw+1", "damage_type": "cut", "skill": 13, "reach": "1"}]}


@pytest.fixture(scope="module")
def engine() -> Iterator[Engine]:
    with tempfile.TemporaryDirectory() as d:
        store = open_store(f"sqlite:///{d}/adjust.sqlite", migrate=True)
        try:
            yield Engine(store)
        finally:
            store.dispose()


def _fight(engine: Engine, ruleset: str, started: bool = False, fight_id: str | None = None) -> str:
    """A seeded fight with Alice (a PC) and an orc; started: combat under way, Alice first. Its dice follow
    from the seed and the fight's id: a given id rolls the same every run."""
    fid = engine.create_fight(ruleset, dice_mode="seeded", seed="adjust", fight_id=fight_id).fight_id
    for cid, side in (("alice", "pc"), ("orc", "npc")):
        args: dict[str, Any] = {"id": cid, "name": cid.title(), "side": side}
        if ruleset == "gurps":
            args["sheet"] = SWORDSMAN
        engine.execute(fid, Command("add_combatant", args, GM_ACTOR))
    if started:
        engine.execute(fid, Command("start_combat", {"order": ["alice", "orc"]}, GM_ACTOR))
    return fid


def _adjust(engine: Engine, fid: str, changes: Mapping[str, Any], who: str = "alice") -> None:
    engine.execute(fid, Command("adjust", {"combatant": who, "changes": dict(changes), "reason": "GM"}, GM_ACTOR))


def _refusal(engine: Engine, fid: str, changes: Mapping[str, Any]) -> Rejected:
    with pytest.raises(Rejected) as caught:
        _adjust(engine, fid, changes)
    return caught.value


def test_a_posture_the_rules_do_not_know_is_refused_and_nothing_is_stored(engine: Engine) -> None:
    """The black-box reproduction: posture "flying" in a gurps fight is refused (adjust/bad_value, naming the
    field and the postures), and the log and the state stay as they were; the fight goes on."""
    fid = _fight(engine, "gurps", started=True)
    before, log = state_bytes(engine.load(fid)), len(engine.history(fid))
    refused = _refusal(engine, fid, {"posture": "flying"})
    assert refused.code == "adjust/bad_value"
    assert refused.details == {"field": "posture", "allowed": sorted(POSTURES)}
    assert "standing" in str(refused) and "flying" in str(refused)
    assert state_bytes(engine.load(fid)) == before and len(engine.history(fid)) == log
    engine.execute(fid, Command("maneuver", {"combatant": "alice", "maneuver": "do_nothing"}, GM_ACTOR))


@pytest.mark.parametrize("posture", sorted(POSTURES))
def test_every_posture_of_the_rules_is_accepted(engine: Engine, posture: str) -> None:
    fid = _fight(engine, "gurps")
    _adjust(engine, fid, {"posture": posture})
    assert engine.load(fid).combatants["alice"].condition.posture == posture


@pytest.mark.parametrize("field, nonsense, good", [("stun_kind", "dizzy", "fright"), ("aod_defense", "luck", "parry"),
                                                   ("maneuver", "dance", "all_out_defense"),
                                                   ("wait_action", "dance", "ready"),
                                                   ("wait_option", "dance", "strong")])
def test_a_closed_set_field_takes_its_values_and_none_other(engine: Engine, field: str, nonsense: str,
                                                            good: str) -> None:
    """A field the rules look up in a table takes the table's values and "" (none), and nothing else."""
    fid = _fight(engine, "gurps")
    assert _refusal(engine, fid, {field: nonsense}).details["field"] == field
    _adjust(engine, fid, {field: good})
    _adjust(engine, fid, {field: ""})
    assert getattr(engine.load(fid).combatants["alice"].condition, field) == ""


@pytest.mark.parametrize("ruleset, field", [("gurps", "aim_target"), ("gurps", "feint_target"),
                                            ("gurps", "evaluate_target"), ("shell", "close_with"),
                                            ("shell", "pinned_by"), ("shell", "cast_target")])
def test_a_field_naming_a_combatant_takes_one_of_this_fight_or_none(engine: Engine, ruleset: str, field: str) -> None:
    fid = _fight(engine, ruleset)
    refused = _refusal(engine, fid, {field: "bob"})
    assert refused.code == "adjust/bad_value" and refused.details == {"field": field, "allowed": ["", "alice", "orc"]}
    _adjust(engine, fid, {field: "orc"})
    assert getattr(engine.load(fid).combatants["alice"].condition, field) == "orc"
    _adjust(engine, fid, {field: ""})


def test_an_aimed_weapon_is_one_of_the_combatants_sheet(engine: Engine) -> None:
    fid = _fight(engine, "gurps")
    assert "sword" in _refusal(engine, fid, {"aim_weapon": "bow"}).details["allowed"]
    _adjust(engine, fid, {"aim_weapon": "sword"})
    assert engine.load(fid).combatants["alice"].condition.aim_weapon == "sword"


def test_a_shell_spell_being_cast_is_one_of_the_sheet_or_none(engine: Engine) -> None:
    fid = _fight(engine, "shell")
    assert _refusal(engine, fid, {"casting": "Fireball"}).details == {"field": "casting", "allowed": [""]}
    _adjust(engine, fid, {"casting": ""})


def test_a_ruling_that_overrides_with_a_bad_value_is_refused(engine: Engine) -> None:
    """``rule`` with verdict override adjusts through the same checks: a nonsense value is refused."""
    fid = _fight(engine, "gurps")
    engine.execute(fid, Command("dispute", {"seq": 2, "comment": "she flies"}, GM_ACTOR))
    dispute = next(p.id for p in engine.load(fid).prompts if p.kind == "dispute")
    with pytest.raises(Rejected) as caught:
        engine.execute(fid, Command("rule", {"dispute": dispute, "verdict": "override", "adjustments": [
            {"combatant": "alice", "changes": {"posture": "flying"}}]}, GM_ACTOR))
    assert caught.value.code == "adjust/bad_value"


# ------------------------------------------------------------------ the probe: nonsense is refused or harmless

_CORE = set(core.CORE_SPECS) | {"apply_tool", "import_character"}
_VIEWERS = (GM_ACTOR, Principal.of_seat("pa", "player", ("alice",)), Principal.of_seat("po", "player", ("orc",)),
            Principal.of_seat("sp", "spectator"))
#: States the nonsense is set in besides a fresh one, so that the fields read only in them are read.
_CONTEXTS: Mapping[str, tuple[Mapping[str, Any], ...]] = {
    "gurps": ({}, {"maneuver": "wait", "wait_trigger": "t", "wait_action": "attack"},
              {"maneuver": "wait", "wait_trigger": "t", "wait_action": "ready"},
              {"maneuver": "aim", "aim_weapon": "sword", "aim_target": "orc", "aim_turns": 1},
              {"stunned": True, "stun_kind": "fright", "stun_turns": 2},
              {"maneuver": "all_out_defense", "maneuver_option": "increased_dodge", "aod_defense": "dodge"}),
    "shell": ({}, {"close_with": "orc"}, {"pinned_by": "orc"}, {"maneuver": "aim", "aim_target": "orc", "aim_turns": 1},
              {"maneuver": "guard", "guard_weapon": "bare hand"}, {"maneuver": "cast", "cast_target": "orc", "cast_turns": 1}),
}


def _filled(action: Action) -> dict[str, Any]:
    """An action's args with its required fields filled in (default, first choice, minimum)."""
    args = dict(action.args)
    for f in action.fields:
        if f.default is not None:
            args[f.name] = f.default
        elif not f.required:
            continue
        elif f.choices:
            args[f.name] = f.choices[0].value
        elif f.type == "integer":
            args[f.name] = f.minimum if f.minimum is not None else 1
        else:
            args[f.name] = False if f.type == "boolean" else "x"
    return args


def _play(engine: Engine, fid: str, steps: int) -> None:
    """Describe the fight for every seat, then take the GM's first accepted prompt answer or action (a
    different action first each step), ``steps`` times: any exception but a refusal fails."""
    ruleset = engine.ruleset_of(fid)
    for step in range(steps):
        state = engine.load(fid)
        gm = [ruleset.describe(state, viewer) for viewer in _VIEWERS][0]
        actions = [a for a in gm.actions if a.command not in _CORE]
        actions = actions[step % len(actions):] + actions[:step % len(actions)] if actions else []
        candidates = [Command(a.command, dict(a.args), GM_ACTOR) for p in gm.prompts for a in p.answers]
        candidates += [Command(a.command, _filled(a), GM_ACTOR) for a in actions]
        for command in candidates:
            try:
                engine.execute(fid, command)
                break
            except Rejected:
                continue
        else:
            return


def _nonsense(ruleset: str) -> list[tuple[str, object]]:
    fits = core.adjust_checks(get_ruleset(ruleset).condition_type)
    return [(name, value) for name, (kept, fit, _) in fits.items() if not kept
            for value in ("zzz", 10**6, -5) if fit(value)]


@pytest.mark.parametrize("ruleset, field, value", [(r, f, v) for r in ("gurps", "shell") for f, v in _nonsense(r)])
def test_a_nonsense_value_is_refused_or_harmless(engine: Engine, ruleset: str, field: str, value: object) -> None:
    """The black-box probe over every adjustable field: nonsense set on Alice (in each of the states that
    read the field, Alice first or second in the turn order) is refused, or start_combat, the maneuvers that follow and every seat's description
    run without an exception."""
    for (i, context), order in itertools.product(enumerate(_CONTEXTS[ruleset]), (["alice", "orc"], ["orc", "alice"])):
        fid = _fight(engine, ruleset, fight_id=f"probe-{ruleset}-{field}-{value}-{i}-{order[0]}")
        if context:
            _adjust(engine, fid, context)
        try:
            _adjust(engine, fid, {field: value})
        except Rejected as refused:
            assert refused.code == "adjust/bad_value"
            return
        engine.execute(fid, Command("start_combat", {"order": order}, GM_ACTOR))
        _play(engine, fid, 6)


@pytest.mark.parametrize("ruleset, field", [("gurps", "hp"), ("gurps", "fp"), ("shell", "end")])
def test_a_number_past_the_adjust_limit_is_refused_and_nothing_is_stored(engine: Engine, ruleset: str,
                                                                        field: str) -> None:
    """An HP of 2**53 - 1 would reach the views as a number a browser cannot hold exactly once the rules add
    to it: a condition's number is a whole number within ADJUST_LIMIT either way."""
    fid = _fight(engine, ruleset)
    before, log = state_bytes(engine.load(fid)), len(engine.history(fid))
    for value in (core.ADJUST_LIMIT + 1, -core.ADJUST_LIMIT - 1, 2 ** 53 - 1):
        refused = _refusal(engine, fid, {field: value})
        assert refused.code == "adjust/bad_value"
        assert refused.details == {"field": field, "minimum": -core.ADJUST_LIMIT, "maximum": core.ADJUST_LIMIT}
        assert f"{field} cannot be set to {value}: a whole number from -1000000 to 1000000" in refused.message
    assert state_bytes(engine.load(fid)) == before and len(engine.history(fid)) == log
    _adjust(engine, fid, {field: core.ADJUST_LIMIT})
    assert getattr(engine.load(fid).combatants["alice"].condition, field) == core.ADJUST_LIMIT
