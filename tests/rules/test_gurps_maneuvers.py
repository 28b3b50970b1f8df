"""Maneuver bookkeeping through the engine (G-21, G-22, G-29, G-30, G-32, G-48):
what a maneuver leaves in force until the combatant's next turn, and when it ends."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from tests.rules.gurps_helpers import Fight, d3, payload

NewFight = Callable[..., Fight]

SWORD = {"weapons": [{"name": "sword", "skill": 12}]}
BOW = {"weapons": [{"name": "bow", "kind": "ranged", "skill": 12, "acc": 3, "bulk": -7, "max_range": 200,
                    "damage": "1d+1", "damage_type": "imp", "parry": None}]}


def rules_of(result: Any, event: str = "attack_rolled") -> set[str]:
    """The rule ids of the modifiers recorded on the last roll of ``event``."""
    return {m["rule"] for m in payload(result, event)["record"]["modifiers"]}


def test_g29_evaluate_bonus_is_lost_if_the_next_turn_is_not_an_attack(new_fight: NewFight) -> None:
    """G-29: Evaluate, then Do Nothing, then Attack: the +1 was for the next turn only and is gone."""
    f = new_fight({"a": SWORD, "b": {}})
    f.maneuver("a", "evaluate", target="b")
    f.pass_turn("b")
    f.pass_turn("a")
    f.pass_turn("b")
    assert "G-29" not in rules_of(f.maneuver("a", "attack", [d3(10)], target="b", weapon="sword"))


def test_g29_evaluate_bonus_is_only_against_that_opponent(new_fight: NewFight) -> None:
    """G-29: an Evaluate of b gives nothing to an attack on c."""
    f = new_fight({"a": SWORD, "b": {}, "c": {}})
    f.maneuver("a", "evaluate", target="b")
    f.pass_turn("b")
    f.pass_turn("c")
    assert "G-29" not in rules_of(f.maneuver("a", "attack", [d3(10)], target="c", weapon="sword"))


def test_g29_evaluate_bonus_helps_a_feint(new_fight: NewFight) -> None:
    """G-29: Evaluate gives +1 to a Feint against that opponent on the next turn."""
    f = new_fight({"a": SWORD, "b": {}})
    f.maneuver("a", "evaluate", target="b")
    f.pass_turn("b")
    r = f.maneuver("a", "feint", [d3(10)], target="b", weapon="sword")
    assert payload(r, "feint_rolled")["record"]["target"] == 13


def test_g29_evaluate_bonus_used_by_a_feint_is_not_used_again(new_fight: NewFight) -> None:
    """G-29: Evaluate, Feint (which gets the +1), then Attack: the attack two turns later gets no Evaluate bonus."""
    f = new_fight({"a": SWORD, "b": {}})
    f.maneuver("a", "evaluate", target="b")
    f.pass_turn("b")
    f.maneuver("a", "feint", [d3(10)], target="b", weapon="sword")
    f.roll("feint_resist", [d3(10)])
    f.pass_turn("b")
    assert "G-29" not in rules_of(f.maneuver("a", "attack", [d3(10)], target="b", weapon="sword"))


def test_g21_any_active_defence_spoils_the_aim(new_fight: NewFight) -> None:
    """G-21: an aiming archer who dodges loses the whole Aim bonus."""
    f = new_fight({"a": BOW, "b": SWORD})
    f.maneuver("a", "aim", target="b", weapon="bow")
    f.maneuver("b", "attack", [d3(10)], target="a", weapon="sword")
    f.defend("dodge", [d3(5)])
    assert "G-21" not in rules_of(f.maneuver("a", "attack", [d3(10)], target="b", weapon="bow"))


def test_g21_aim_bonus_needs_the_same_target(new_fight: NewFight) -> None:
    """G-21: aiming at b gives nothing to a shot at c."""
    f = new_fight({"a": BOW, "b": {}, "c": {}})
    f.maneuver("a", "aim", target="b", weapon="bow")
    f.pass_turn("b")
    f.pass_turn("c")
    assert "G-21" not in rules_of(f.maneuver("a", "attack", [d3(10)], target="c", weapon="bow"))


def test_g22_all_out_attacker_has_no_active_defence(new_fight: NewFight) -> None:
    """G-22: after an All-Out Attack, a hit on the attacker goes straight to damage."""
    f = new_fight({"a": SWORD, "b": SWORD})
    f.maneuver("a", "all_out_attack", [d3(18)], option="determined", target="b", weapon="sword")
    r = f.maneuver("b", "attack", [d3(10)], target="a", weapon="sword")
    assert "G-22" in payload(r, "attack_rolled")["no_defense"]
    assert f.open_purposes() == ["damage"]


def test_g32_after_move_and_attack_only_dodge_or_block(new_fight: NewFight) -> None:
    """G-32: after Move and Attack the attacker may Dodge or Block but not Parry."""
    f = new_fight({"a": {**SWORD, "shield_skill": 12}, "b": SWORD})
    f.maneuver("a", "move_and_attack", [d3(18)], target="b", weapon="sword")
    f.maneuver("b", "attack", [d3(10)], target="a", weapon="sword")
    opts = f.prompt("defend").options
    assert opts["parry"] == {} and opts["dodge"] is not None and opts["block"] is not None


def test_g30_feint_penalty_lasts_one_turn_only(new_fight: NewFight) -> None:
    """G-30: a Feint's penalty is for the feinter's next turn; an attack a turn later gets none."""
    f = new_fight({"a": SWORD, "b": {}})
    f.maneuver("a", "feint", [d3(6)], target="b", weapon="sword")
    assert payload(f.roll("feint_resist", [d3(14)]), "feint_resisted")["penalty"] == 6
    f.pass_turn("b")
    f.pass_turn("a")
    f.pass_turn("b")
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="sword")
    assert all(m["rule"] != "G-30" for m in f.prompt("defend").options["dodge"]["modifiers"])


def test_g22_all_out_attack_feint_penalises_the_same_turn_attack(new_fight: NewFight) -> None:
    """G-22/G-30: All-Out Attack (Feint) applies the feint's penalty to the attack made that same turn."""
    f = new_fight({"a": SWORD, "b": {}})
    f.maneuver("a", "all_out_attack", [d3(6)], option="feint", target="b", weapon="sword")
    f.roll("feint_resist", [d3(14)])
    f.roll("attack", [d3(10)])
    assert {"value": -6, "reason": "feinted by A", "rule": "G-30"} in f.prompt("defend").options["dodge"]["modifiers"]


def test_g48_stunned_combatant_must_do_nothing(new_fight: NewFight) -> None:
    """G-48: a stunned combatant's turn is a forced Do Nothing, followed by a HT roll to recover."""
    f = new_fight({"a": {}, "b": {}})
    f.adjust("b", stunned=True)
    r = f.pass_turn("a")
    chosen = [e.payload for e in r.events if e.type == "maneuver_chosen" and e.payload["combatant"] == "b"]
    assert chosen and chosen[0]["maneuver"] == "do_nothing" and "G-48" in chosen[0]["forced"]
    assert f.open_purposes() == ["stun_recovery"]


def test_g22_double_the_second_attack_lapses_when_the_first_killed_the_foe(new_fight: NewFight) -> None:
    """G-22, G-45: All-Out Attack (Double) whose first blow takes the foe to -5xHP: its second attack has
    no one to strike and lapses (an ``attack_lapsed`` closes its prompt) instead of refusing the roll that
    answers the prompt with maneuver/bad_target, which left the fight unable to go on."""
    f = new_fight({"a": SWORD, "b": {}})
    f.adjust("b", hp=-49)  # HT 10, HP 10: dead at -50 (G-45)
    f.maneuver("a", "all_out_attack", [d3(8)], target="b", weapon="sword", option="double")
    f.defend("none")
    f.roll("damage", [[6]])
    assert f.cond("b").dead
    result = f.roll("attack")
    lapsed = payload(result, "attack_lapsed")
    assert (lapsed["combatant"], lapsed["target"], lapsed["reason"]) == ("a", "b", "B is dead")
    assert "attack" not in f.open_purposes()
    state = f.engine.load(f.fid)
    assert state.combat is not None and state.combat.current == "a" and not state.prompts
