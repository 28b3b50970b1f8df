"""#14 item 1: a step comes with a maneuver (G-26), and a maneuver takes only its own fields.

Through the real engine on SQLite and PostgreSQL with typed-in dice (tests/gurps/conftest.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected

from .conftest import ARCHER, ORC, Table


def _kneel(table: Table, cid: str) -> None:
    table.send("adjust", {"combatant": cid, "changes": {"posture": "kneeling"}, "reason": "knocked to one knee"})


def _refused(table: Table, type_: str, args: dict[str, Any]) -> Rejected:
    """The command is refused and appends nothing."""
    before = len(table.engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.send(type_, args)
    assert len(table.engine.store.events(table.fight_id)) == before
    return err.value


def _attack_mods(duel: Table) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in duel.last("attack_rolled").payload["record"]["modifiers"]}


def test_g26_an_attack_from_kneeling_with_a_step_to_standing_is_made_standing(duel: Table) -> None:
    """G-26: kneeling -> standing is the Attack's step: no -2 for kneeling, and the knight stays up."""
    _kneel(duel, "knight")
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapon="broadsword", posture="standing")
    assert "attacker kneeling" not in _attack_mods(duel)
    assert duel.last("attack_rolled").payload["record"]["target"] == 13
    assert duel.cond("knight").posture == "standing"


def test_g26_without_the_step_the_kneeling_attack_is_at_minus_two(duel: Table) -> None:
    """G-26 / A-13: the same Attack without the step is made kneeling, at -2."""
    _kneel(duel, "knight")
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapon="broadsword")
    assert _attack_mods(duel)["attacker kneeling"] == -2
    assert duel.cond("knight").posture == "kneeling"


def test_g26_kneeling_as_the_step_of_a_ready(duel: Table) -> None:
    """G-26/G-33: standing -> kneeling as the step of a Ready; the step moves no yards."""
    r = duel.maneuver("knight", "ready", item="a potion", posture="kneeling")
    chosen = next(e for e in r.events if e.type == "maneuver_chosen").payload
    assert (chosen["posture"], chosen["moved"]) == ("kneeling", 0)
    assert duel.cond("knight").posture == "kneeling"


def test_g26_the_step_spent_on_posture_leaves_no_yards(duel: Table) -> None:
    """G-26: the step goes into standing up; moving a yard as well is refused, naming the field."""
    _kneel(duel, "knight")
    err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc",
                                      "posture": "standing", "yards": 1})
    assert (err.code, err.details["field"]) == ("maneuver/too_far", "yards")


def test_g26_only_kneeling_and_standing_switch_as_a_step(duel: Table) -> None:
    """G-26: from lying down, standing up takes Change Posture maneuvers, not a step."""
    duel.send("adjust", {"combatant": "knight", "changes": {"posture": "prone"}, "reason": "knocked down"})
    err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc",
                                      "posture": "standing"})
    assert err.code == "maneuver/bad_posture" and "Change Posture" in err.message


def test_g26_a_maneuver_without_a_step_refuses_a_posture(duel: Table) -> None:
    """G-20/G-26: Move and All-Out Attack take no posture step: the field is refused, not dropped."""
    for maneuver, extra in (("move", {"yards": 1}), ("all_out_attack", {"option": "determined", "target": "orc"})):
        err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": maneuver, "posture": "kneeling", **extra})
        assert err.code == "command/unknown_field" and err.details["fields"] == ["posture"]


@pytest.mark.parametrize("maneuver, args, field", [
    ("do_nothing", {"weapon": "broadsword"}, "weapon"),
    ("attack", {"target": "orc", "task": "pray"}, "task"),
    ("move", {"yards": 1, "target": "orc"}, "target"),
    ("concentrate", {"task": "pray", "shots": 2}, "shots"),
    ("wait", {"trigger": "the orc moves", "action": "attack", "target": "orc"}, "target"),
    ("all_out_defense", {"option": "increased_parry", "weapon2": "broadsword"}, "weapon2"),
    ("feint", {"target": "orc", "modifiers": [{"value": 1, "reason": "x"}]}, "modifiers"),
])
def test_g20_a_field_the_chosen_maneuver_does_not_take_is_refused(duel: Table, maneuver: str, args: dict[str, Any],
                                                                 field: str) -> None:
    """#14: nothing a client sends is silently dropped: command/unknown_field names the field."""
    err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": maneuver, **args})
    assert err.code == "command/unknown_field" and err.details["fields"] == [field]
    assert f"maneuver {maneuver}" in err.message


def test_g34_a_trigger_wait_refuses_a_field_its_action_does_not_take(table: Table) -> None:
    """G-34: a Wait that converts to Ready takes a weapon or item, not a target: refused, nothing appended."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "wait", trigger="the orc charges", action="ready")
    err = _refused(table, "trigger_wait", {"combatant": "archer", "item": "arrow", "target": "orc"})
    assert err.code == "command/unknown_field" and err.details["fields"] == ["target"]


def test_the_maneuver_spec_lists_each_maneuvers_fields_for_clients() -> None:
    """Clients get the fields each maneuver takes in the spec (subscribed.commands[].variants)."""
    from combat_server.rules.gurps.commands import COMMANDS

    spec = COMMANDS["maneuver"].to_json()
    assert spec["variant"] == "maneuver"
    assert spec["variants"]["do_nothing"] == []  # type: ignore[index]
    assert "posture" in spec["variants"]["attack"] and "posture" not in spec["variants"]["move"]  # type: ignore[index,operator]


@pytest.mark.parametrize("args, field", [
    ({"weapon": "broadsword", "range": 3}, "range"),
    ({"weapon": "broadsword", "target_speed": 2}, "target_speed"),
    ({"weapon": "broadsword", "object": {"name": "stool", "weight": 5}}, "weapon"),
])
def test_g20_a_field_that_does_not_apply_to_the_weapon_is_refused(duel: Table, args: dict[str, Any], field: str) -> None:
    """#14: a range for a melee blow, or a weapon while throwing an object, is refused, naming the field."""
    err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc", **args})
    assert err.code == "command/unknown_field" and err.details["fields"] == [field]


def test_g22_a_second_weapon_is_only_for_all_out_attack_double(duel: Table) -> None:
    """G-22: weapon2 with All-Out Attack (Determined) does not apply: refused, not dropped."""
    err = _refused(duel, "maneuver", {"combatant": "knight", "maneuver": "all_out_attack", "option": "determined",
                                      "target": "orc", "weapon2": "broadsword"})
    assert err.code == "command/unknown_field" and err.details["fields"] == ["weapon2"]
