"""One test per maneuver and option (G-20..G-34), through the real engine with typed-in dice."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected

from .conftest import ARCHER, KNIGHT, ORC, Table


def rolled(result: object) -> dict:
    """The attack record of the first attack this command rolled."""
    return next(e.payload["record"] for e in result.events if e.type == "attack_rolled")  # type: ignore[attr-defined]


def mods(record: dict) -> dict[str, int]:
    return {m["reason"]: m["value"] for m in record["modifiers"]}


def test_attack_rolls_weapon_skill_and_opens_defence_prompt(duel: Table) -> None:
    """G-25/G-36: an Attack rolls against weapon skill; a hit asks the defender's seat to defend."""
    r = duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapon="broadsword")
    rec = rolled(r)
    assert (rec["target"], rec["total"], rec["outcome"]) == (13, 12, "hit")
    p = duel.prompt("defend")
    assert p.combatant == "orc"
    assert p.options["dodge"]["target"] == 8  # floor(23/4 + 3) = 8
    assert p.options["parry"]["axe"]["target"] == 9  # 3 + 12/2


def test_all_out_attack_determined_adds_four_and_leaves_no_defence(duel: Table) -> None:
    """G-22: AOA (Determined) +4 to hit; the attacker has no active defence until its next turn."""
    r = duel.maneuver("knight", "all_out_attack", [[6, 6, 5]], option="determined", target="orc")
    assert rolled(r)["target"] == 17
    duel.maneuver("orc", "attack", [[3, 3, 4]], target="knight")
    att = duel.last("attack_rolled").payload
    assert "All-Out Attack" in att["no_defense"]
    assert duel.prompt("roll").options["purpose"] == "damage"


def test_all_out_attack_double_makes_two_attacks(duel: Table) -> None:
    """G-22: AOA (Double): two attacks on the same foe with a weapon that needs no readying."""
    duel.maneuver("knight", "all_out_attack", [[6, 6, 6]], option="double", target="orc")
    p = duel.prompt("roll")
    assert p.options["purpose"] == "attack"
    duel.roll([3, 3, 5], "attack")
    assert len(duel.events("attack_rolled")) == 2
    assert duel.prompt("defend").combatant == "orc"


def test_all_out_attack_strong_adds_two_damage(duel: Table) -> None:
    """G-22: AOA (Strong) adds +2 or +1 per die, whichever is better, to ST-based melee damage."""
    duel.maneuver("knight", "all_out_attack", [[3, 3, 5]], option="strong", target="orc")
    duel.defend("none")
    duel.roll([4], "damage")
    dmg = duel.last("damage_rolled").payload
    assert dmg["basic"] == 4 + 1 + 2 + 2  # sw 1d+2 at ST 12, +1 weapon, +2 strong
    assert dmg["modifiers"][0]["rule"] == "G-22"


def test_all_out_attack_feint_then_attack_applies_penalty_same_turn(duel: Table) -> None:
    """G-22/G-30: AOA (Feint) feints, then attacks the same foe with the feint's penalty on its defence."""
    duel.maneuver("knight", "all_out_attack", [[2, 3, 4]], option="feint", target="orc")  # 9: margin 4
    duel.roll([6, 6, 3], "feint_resist")  # orc best 12 (axe), rolls 15: fails -> penalty 4
    assert duel.last("feint_resisted").payload["penalty"] == 4
    duel.roll([3, 4, 4], "attack")
    dodge = duel.prompt("defend").options["dodge"]
    assert dodge["target"] == 8 - 4
    assert any(m["rule"] == "G-30" for m in dodge["modifiers"])


def test_ranged_all_out_attack_determined_adds_one(table: Table) -> None:
    """G-23: ranged AOA (Determined) is +1."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    r = table.maneuver("archer", "all_out_attack", [[6, 6, 6]], option="determined", target="orc", weapon="bow", range=2)
    assert mods(rolled(r))["All-Out Attack (Determined), ranged"] == 1


def test_all_out_defense_increased_parry_adds_two(duel: Table) -> None:
    """G-24: Increased Parry +2 until the next turn."""
    duel.maneuver("knight", "all_out_defense", option="increased_parry")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    parry = duel.prompt("defend").options["parry"]["broadsword"]
    assert parry["target"] == 3 + 13 // 2 + 2


def test_all_out_defense_increased_dodge_allows_half_move(duel: Table) -> None:
    """G-24/A-12: Increased Dodge lets the defender move up to half Move (floor, min 1)."""
    r = duel.maneuver("knight", "all_out_defense", option="increased_dodge", yards=2)
    assert r.events[0].payload["move_allowance"] == 2  # Move 5 -> 2


def test_all_out_defense_double_allows_second_different_defence(duel: Table) -> None:
    """G-24: Double Defense: after a failed defence, a second, different one against the same attack."""
    duel.maneuver("knight", "all_out_defense", option="double")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    duel.defend("dodge", [[6, 6, 6]])
    again = duel.prompt("defend")
    assert again.options["dodge"] is None and again.options["block"] is not None
    duel.defend("block", [[3, 3, 3]])
    assert duel.last("defense_rolled").payload["success"] is True


def test_all_out_defense_double_gives_one_second_defence_not_a_third(duel: Table) -> None:
    """G-24: if the first defence fails, one more, different; when that fails too, the attack hits."""
    duel.maneuver("knight", "all_out_defense", option="double")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    duel.defend("dodge", [[6, 6, 6]])
    duel.defend("block", [[6, 6, 6]])
    assert not [p for p in duel.state.prompts if p.kind == "defend"]
    assert duel.prompt("roll").options["purpose"] == "damage"


def test_move_and_attack_melee_is_minus_four_capped_at_nine(duel: Table) -> None:
    """G-32/A-15: Move and Attack, melee: -4 after all other modifiers, capped at 9."""
    duel.maneuver("knight", "evaluate", target="orc")
    duel.maneuver("orc", "do_nothing")
    r = duel.maneuver("knight", "move_and_attack", [[3, 3, 3]], target="orc", yards=5)  # 13 + 1 - 4 = 10
    rec = rolled(r)
    assert rec["target"] == 9 and "capped at 9" in rec["cap"]


def test_move_and_attack_allows_only_dodge_or_block(duel: Table) -> None:
    """G-32: after Move and Attack the attacker may only Dodge or Block until its next turn."""
    duel.maneuver("knight", "move_and_attack", [[6, 6, 6]], target="orc")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    p = duel.prompt("defend")
    assert p.options["parry"] == {} and p.options["dodge"] and p.options["block"]


def test_move_and_attack_ranged_uses_bulk_when_worse(table: Table) -> None:
    """G-32: ranged Move and Attack is -2 or the weapon's Bulk, whichever is worse."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    r = table.maneuver("archer", "move_and_attack", [[6, 6, 6]], target="orc", weapon="bow", range=2)
    assert mods(rolled(r))["Move and Attack, ranged (-2 or Bulk -7)"] == -7


def test_aim_accumulates_acc_then_extra(table: Table) -> None:
    """G-21: Aim adds Acc to the next Attack, +1 after 2 s and +2 after 3+ s of aiming."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    for _ in range(3):
        table.maneuver("archer", "aim", target="orc", weapon="bow")
        table.maneuver("orc", "do_nothing")
    r = table.maneuver("archer", "attack", [[6, 6, 6]], target="orc", weapon="bow", range=2)
    rec = rolled(r)
    assert rec["target"] == 14 + 2 + 2
    assert table.cond("archer").aim_turns == 0  # used up


def test_active_defence_spoils_aim(table: Table) -> None:
    """G-21: any active defence loses the accumulated aim."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "aim", target="orc", weapon="bow")
    table.maneuver("orc", "attack", [[3, 4, 5]], target="archer")
    table.defend("dodge", [[3, 3, 3]])
    assert table.cond("archer").aim_turns == 0


def test_injury_while_aiming_calls_for_will_roll(table: Table) -> None:
    """G-21: injured while aiming: roll Will or lose the aim."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "aim", target="orc", weapon="bow")
    table.maneuver("orc", "attack", [[3, 4, 5]], target="archer")
    table.defend("none")
    table.roll([1, 1], "damage")  # sw+2 at ST 13: 2d-1+2
    assert table.prompt("roll").options["purpose"] == "aim_will"
    table.roll([6, 6, 5], "aim_will")
    assert table.cond("archer").aim_turns == 0


def test_evaluate_stacks_to_three(duel: Table) -> None:
    """G-29: up to three consecutive Evaluates give +1 each, at most +3."""
    for _ in range(4):
        duel.maneuver("knight", "evaluate", target="orc")
        duel.maneuver("orc", "do_nothing")
    assert duel.cond("knight").evaluate_bonus == 3
    r = duel.maneuver("knight", "all_out_attack", [[6, 6, 6]], option="determined", target="orc")
    assert rolled(r)["target"] == 13 + 3 + 4


def test_feint_penalty_applies_to_next_turn_attack(duel: Table) -> None:
    """G-30: a successful Feint subtracts the margin of victory from the foe's next defence against the feinter."""
    duel.maneuver("knight", "feint", [[3, 3, 3]], target="orc")  # 9 vs 13: margin 4
    duel.roll([3, 4, 4], "feint_resist")  # 11 vs 12: margin 1 -> victory by 3
    assert duel.cond("knight").feint_penalty == 3
    duel.maneuver("orc", "do_nothing")
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    assert duel.prompt("defend").options["dodge"]["target"] == 8 - 3


def test_feint_tie_goes_to_defender(duel: Table) -> None:
    """G-01/G-30: equal margins: the feint fails."""
    duel.maneuver("knight", "feint", [[3, 3, 4]], target="orc")  # 10 vs 13: margin 3
    duel.roll([3, 3, 3], "feint_resist")  # 9 vs 12: margin 3
    assert duel.last("feint_resisted").payload["penalty"] == 0


def test_feint_penalty_expires_after_the_feinters_next_turn(duel: Table) -> None:
    """G-30: the feint lasts one second: unused, it is gone after the feinter's next turn."""
    duel.maneuver("knight", "feint", [[3, 3, 3]], target="orc")
    duel.roll([6, 6, 6], "feint_resist")
    duel.maneuver("orc", "do_nothing")
    duel.maneuver("knight", "do_nothing")
    assert duel.cond("knight").feint_penalty == 0


def test_change_posture_from_lying_needs_two_maneuvers(duel: Table) -> None:
    """G-26: lying -> crawling/kneeling/sitting -> standing; never straight up."""
    duel.send("adjust", {"combatant": "knight", "changes": {"posture": "prone"}, "reason": "tripped"})
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "change_posture", posture="standing")
    assert err.value.code == "maneuver/bad_posture"
    duel.maneuver("knight", "change_posture", posture="kneeling")
    assert duel.cond("knight").posture == "kneeling"


def test_posture_modifiers_apply_to_attack_and_defence(duel: Table) -> None:
    """G-26/A-13: kneeling is -2 to melee attack and -2 to active defences."""
    duel.send("adjust", {"combatant": "knight", "changes": {"posture": "kneeling"}, "reason": "ducked"})
    r = duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert rolled(r)["target"] == 11
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    assert duel.prompt("defend").options["dodge"]["target"] == 8 - 2


def test_concentrate_is_broken_by_failed_will_minus_three_on_defence(duel: Table) -> None:
    """G-27: forced to defend before a two-turn task is finished: Will-3 or the task starts over."""
    duel.maneuver("knight", "concentrate", task="recite the ward", turns=2)
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    duel.defend("block", [[3, 3, 3]])
    duel.roll([6, 5, 4], "concentrate_will")  # 15 vs 10-3 = 7
    assert duel.cond("knight").concentrating == ""


def test_do_nothing_ends_the_turn(duel: Table) -> None:
    """G-28: Do Nothing passes the turn."""
    duel.maneuver("knight", "do_nothing")
    assert duel.current == "orc"


def test_move_is_limited_to_move_allowance(duel: Table) -> None:
    """G-31: move up to full Move (Basic Move 5, no encumbrance)."""
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "move", yards=6)
    assert err.value.code == "maneuver/too_far"
    r = duel.maneuver("knight", "move", yards=5)
    assert r.events[0].payload["moved"] == 5


def test_sprint_adds_twenty_percent_after_a_forward_move(duel: Table) -> None:
    """G-09/A-06: after a second of forward running, Move x1.2 (floor on a grid)."""
    duel.maneuver("knight", "move", yards=5, forward=True)
    duel.maneuver("orc", "do_nothing")
    r = duel.maneuver("knight", "move", yards=6, forward=True, sprint=True)
    assert r.events[0].payload["move_allowance"] == 6


def test_ready_readies_a_weapon(duel: Table) -> None:
    """G-33: Ready brings an unready weapon back into play."""
    duel.send("adjust", {"combatant": "knight", "changes": {"posture": "standing"}, "reason": "noop"})
    duel.maneuver("knight", "ready", weapon="broadsword")
    assert "broadsword" not in duel.cond("knight").unready


def test_wait_converts_to_attack_and_interrupts(duel: Table) -> None:
    """G-34: a triggered Wait converts into an Attack that interrupts the sequence, which then resumes."""
    duel.maneuver("knight", "wait", trigger="the orc moves", action="attack")
    assert duel.current == "orc"
    duel.send("trigger_wait", {"combatant": "knight", "target": "orc", "weapon": "broadsword"}, [[3, 4, 5]])
    assert duel.last("wait_triggered").payload["action"] == "attack"
    duel.defend("dodge", [[1, 2, 3]])
    assert duel.state.combat.interrupted_by == ""
    assert duel.current == "orc" and duel.state.combat.phase == "maneuver"


def test_unbalanced_weapon_cannot_parry_after_attacking(duel: Table) -> None:
    """G-41/R-07: an unbalanced weapon used to attack cannot parry until the wielder's next turn."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "attack", [[6, 6, 6]], target="knight")
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    assert "axe" not in duel.prompt("defend").options["parry"]


def test_block_only_once_per_turn(duel: Table) -> None:
    """G-40: only one block per turn."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "all_out_attack", [[3, 4, 5]], option="double", target="knight")
    duel.defend("block", [[3, 3, 3]])
    duel.roll([3, 4, 5], "attack")
    assert duel.prompt("defend").options["block"] is None


def test_stunned_defends_at_minus_four_and_must_do_nothing(duel: Table) -> None:
    """G-48/G-28: a stunned combatant defends at -4 and takes a forced Do Nothing."""
    duel.send("adjust", {"combatant": "orc", "changes": {"stunned": True, "stun_kind": "physical"},
                         "reason": "test"})
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    assert duel.prompt("defend").options["dodge"]["target"] == 8 - 4
    duel.defend("dodge", [[6, 6, 6]])
    duel.roll([1], "damage")
    forced = [e for e in duel.events("maneuver_chosen") if e.payload.get("forced")]
    assert forced and forced[-1].payload["combatant"] == "orc"


def test_throwing_an_object_rolls_dx_minus_three(duel: Table) -> None:
    """G-12: throwing an object at a target rolls DX-3 and needs an Attack maneuver."""
    r = duel.maneuver("knight", "attack", [[3, 4, 4]], target="orc", object={"name": "rock", "weight": 2}, range=3)
    rec = rolled(r)
    assert rec["base"] == 12 - 3


def test_throwing_more_than_eight_basic_lift_is_refused(duel: Table) -> None:
    """G-12/A-07: an object over 8 x BL cannot be thrown."""
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "attack", target="orc", object={"name": "boulder", "weight": 300}, range=1)
    assert err.value.code == "maneuver/too_heavy"


def test_maneuver_out_of_turn_is_refused(duel: Table) -> None:
    """G-19: only the combatant whose turn it is may choose a maneuver."""
    with pytest.raises(Rejected) as err:
        duel.maneuver("orc", "attack", target="knight")
    assert err.value.code == "command/not_your_turn"
