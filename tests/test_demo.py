"""The demo fight is a real, verifiable fight written through the engine."""

from __future__ import annotations

from combat_server.demo import DEMO_COMBATANTS, DEMO_SEED, build_demo_fight
from combat_server.engine.fight import Engine
from combat_server.store.sql import SqlStore


def test_demo_fight_has_two_pcs_two_npcs_and_a_note(store: SqlStore) -> None:
    """build_demo_fight writes the four demo combatants and a note, with seeded dice."""
    engine = Engine(store)
    fid = build_demo_fight(engine)
    state = engine.load(fid)
    assert sorted(c.side for c in state.combatants.values()) == ["npc", "npc", "pc", "pc"]
    assert list(state.combatants) == [cid for cid, *_ in DEMO_COMBATANTS]
    assert len(state.notes) == 1
    assert state.dice_mode == "seeded"
    assert store.events(fid, upto=1)[0].payload["seed"] == DEMO_SEED


def test_the_demo_note_is_by_the_gm_as_a_note_from_the_gms_page_reads(store: SqlStore) -> None:
    """The seeded note is labelled as the GM's seat is ("Note by GM:"), not by its id ("Note by gm:")."""
    engine = Engine(store)
    fid = build_demo_fight(engine)
    notes = [e for e in engine.history(fid) if e.event.type == "note_added"]
    assert [e.event.actor for e in notes] == ["gm"]
    assert notes[0].explanation.startswith("Note by GM: ")


def test_demo_fight_verifies(store: SqlStore) -> None:
    """The demo fight's log verifies."""
    engine = Engine(store)
    assert engine.verify(build_demo_fight(engine)).ok


def test_demo_can_be_written_twice(store: SqlStore) -> None:
    """Each demo run writes a new fight, so the demo works on a database that already has one."""
    engine = Engine(store)
    assert build_demo_fight(engine) != build_demo_fight(engine)


def test_demo_plays_real_turns(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The demo plays GURPS turns through the real commands and stops with no defence waiting."""
    from combat_server.demo import play_demo_turns
    from combat_server.engine.fight import Engine
    from combat_server.store.sql import open_store

    engine = Engine(open_store(f"sqlite:///{tmp_path}/demo.sqlite", migrate=True))
    fid = build_demo_fight(engine)
    play_demo_turns(engine, fid, turns=4)
    state = engine.load(fid)
    types = [e.type for e in engine.store.events(fid)]
    assert state.status == "active" and types.count("maneuver_chosen") >= 4
    assert "attack_rolled" in types
    assert not [p for p in state.prompts if p.kind == "defend"]
    assert engine.verify(fid).ok


def test_any_rulesets_demo_is_built_from_its_declaration_and_played_from_its_description(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """#10: the SHELL demo comes from ShellRuleset.demo; the scripted turns read only the description
    (first rolling action at a foe, the best-numbered answer) and stop with no prompt waiting."""
    from combat_server.demo import play_demo_turns
    from combat_server.rules.shell.demo import DEMO
    from combat_server.store.sql import open_store

    engine = Engine(open_store(f"sqlite:///{tmp_path}/demo.sqlite", migrate=True))
    fid = build_demo_fight(engine, "shell")
    assert list(engine.load(fid).combatants) == [c["id"] for c in DEMO["combatants"]]
    play_demo_turns(engine, fid, turns=4)
    state = engine.load(fid)
    types = [e.type for e in engine.store.events(fid)]
    assert state.status == "active" and types.count("attack_declared") >= 4 and "attack_resolved" in types
    assert not state.prompts and engine.verify(fid).ok


def test_the_demo_of_an_unknown_ruleset_is_refused(store: SqlStore) -> None:
    import pytest

    from combat_server.errors import Rejected

    with pytest.raises(Rejected) as err:
        build_demo_fight(Engine(store), "nosuch")
    assert err.value.code == "fight/unknown_ruleset"
