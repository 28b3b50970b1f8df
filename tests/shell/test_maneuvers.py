"""One test per SHELL maneuver (S-17 ... S-24, S-40 ... S-44) played through the ruleset on a real
engine: what it allows, what it changes, and how long its modifiers last."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.model import GM_ACTOR
from combat_server.rules.shell.ruleset import ShellRuleset
from combat_server.rules.shell.attacks import defences
from tests.shell.table import SWORD, Table, at_total, refused, sheet, start

#: Sword 3 at AG 12, ST 12: AT 4, block DEF 4; HP 12.
FIGHTER = sheet(st=12, ag=12, styles=(("Sword", 3),), weapon=SWORD)
#: Sword 2 at AG 10, ST 10: AT 2, block DEF 2; HP 10; acts second.
FOE = sheet(styles=(("Sword", 2),), weapon=SWORD)


def _duel(table: Table, a: dict[str, Any] = FIGHTER, d: dict[str, Any] = FOE) -> None:
    table.add("a", a)
    table.add("d", d, side="npc")
    start(table, "a", "d")


def _dodge_def(table: Table) -> int:
    state = table.state
    return next(x.total for x in defences(state, state.combat.attack) if x.defence == "dodge")


def test_s19_attack_after_a_charge_is_at_minus_2_and_adds_1_damage_per_5_units(table: Table) -> None:
    """S-19: moving 5 (MV points 6 - 0) then attacking: AT 4 - 2; a charge adds floor(5/5) = +1 damage."""
    _duel(table)
    assert at_total(table.act("a", "attack", target="d", moved=5, charge=True)) == 2
    table.defend("none", (10, 10))
    result = table.roll([(3,)], "damage")  # ST 12 is 1d+2: 3 + 2 + 1 = 6
    assert [e for e in result.events if e.type == "damage_taken"][0].payload["raw"] == 6


#: Bow 3 at AG 10, ST 10: a bow of speed 2 reaching ST x 15 = 150; MV (10 + 10) / 4 + 8 = 13 to run with.
RUNNER = sheet(styles=(("Bow", 3),), weapon={"name": "bow", "damage_types": ["imp"], "ranged": True, "range_st": 15,
                                              "speed": 2, "hands": "two", "hp": 6}, mv_bonus=8, npc=True)


def test_S19_a_ranged_attack_cannot_charge(table: Table) -> None:
    """S-19: the charge bonus is for a head-on approach into melee: a bow shot after moving 10 with
    charge is refused naming the field, and appends nothing; the same shot without it is taken."""
    _duel(table, RUNNER)
    err = refused(table, "attack/charge_ranged", lambda: table.act("a", "attack", target="d", weapon="bow", range=5,
                                                                   moved=10, charge=True))
    assert err.details["field"] == "charge"
    result = table.act("a", "attack", target="d", weapon="bow", range=5, moved=10)
    declared = [e for e in result.events if e.type == "attack_declared"][0].payload["attack"]
    assert declared["charge"] == 0


def test_S31_the_defender_cannot_claim_higher_ground_the_attacker_already_claimed(table: Table) -> None:
    """S-29 / S-31: higher ground is one side's: the attack from higher (AT 4 + 1 = 5) leaves no +1 DEF for
    a defender also claiming higher; the dodge is refused, appends nothing, and is taken without the claim."""
    _duel(table)
    assert at_total(table.act("a", "attack", target="d", higher=True)) == 5
    err = refused(table, "defence/both_higher", lambda: table.defend("dodge", (5, 5), higher=True))
    assert err.details["field"] == "higher"
    result = table.defend("dodge", (5, 5))
    mods = [e for e in result.events if e.type == "attack_resolved"][0].payload["def_mods"]
    assert not [m for m in mods if m["rule"] == "S-31" and "higher" in m["reason"]]


def test_S31_a_defender_higher_than_an_attacker_who_did_not_claim_it_gets_plus_1(table: Table) -> None:
    """S-31: without the attacker's claim, the defender's higher ground is +1 DEF."""
    _duel(table)
    table.act("a", "attack", target="d")
    result = table.defend("dodge", (5, 5), higher=True)
    mods = [e for e in result.events if e.type == "attack_resolved"][0].payload["def_mods"]
    assert [m["value"] for m in mods if m["reason"] == "higher than the attacker"] == [1]


def test_s17_a_step_is_all_the_other_maneuvers_allow(table: Table) -> None:
    """S-17: one step and a maneuver: guarding after moving 2 is refused naming the field."""
    _duel(table)
    with pytest.raises(Rejected) as err:
        table.act("a", "guard", moved=2)
    assert err.value.code == "maneuver/too_far" and err.value.details["field"] == "moved"


#: ST 7, AG 10, 100 lb of gear: MV (7 + 10) / 4 = 4, EL 4, so MV points 4 - 4 = 0 (S-07, S-17).
LADEN = sheet(st=7, styles=(("Sword", 2),), weapon=SWORD, gear_weight=100)


def test_S17_the_step_is_not_drawn_from_mv_points(table: Table) -> None:
    """S-17: one step, then one maneuver, whatever the MV points: with 0 of them the attack may still
    take its step (1 unit, no "moved more than 1 step" penalty), but no more, and a move goes nowhere."""
    _duel(table, LADEN)
    refused(table, "maneuver/too_far", lambda: table.act("a", "move", moved=1))
    err = refused(table, "maneuver/too_far", lambda: table.act("a", "attack", target="d", moved=2))
    assert err.details["most"] == 1
    result = table.act("a", "attack", target="d", moved=1)
    declared = [e for e in result.events if e.type == "attack_declared"][0].payload["attack"]
    assert not [m for m in declared["at"] if m["reason"].startswith("moved")]


def test_S17_a_step_with_another_maneuver_needs_no_mv_points(table: Table) -> None:
    """S-17: a Defend after one step, with MV points 0."""
    _duel(table, LADEN)
    table.act("a", "defend", moved=1)
    assert table.cond("a").moved == 1


#: IQ 13, Sorcery 8: Bolt (minimum level 5, END 2, time 0).
CASTER = sheet(iq=13, styles=(("Staff", 1),), arts=[{"name": "Sorcery", "level": 8, "spells": [
    {"name": "Bolt", "min_level": 5, "end_cost": 2, "casting_time": 0}]}])
#: An NPC with MR 5: immune to spells of minimum level 5 or less (S-04, S-12).
WARDED = sheet(styles=(("Sword", 2),), weapon=SWORD, npc=True, mr=5)


def test_S12_a_spell_at_an_immune_target_asks_for_no_roll(table: Table) -> None:
    """S-12 / S-04: Bolt's minimum level 5 <= MR 5: immune. The cast asks for no 3d6 roll (there is
    nothing to roll for): the spell takes no effect at once, costs no END, and the turn passes."""
    _duel(table, CASTER, WARDED)
    end = table.cond("a").end
    result = table.act("a", "cast", spell="Bolt", target="d")
    cast = [e for e in result.events if e.type == "spell_cast"]
    assert [(e.payload["immune"], e.payload["end_cost"], e.payload["record"]) for e in cast] == [(True, 0, None)]
    assert not [p for p in table.state.prompts if p.kind == "roll"]
    assert table.cond("a").end == end and table.cond("a").casting == "" and table.current == "d"


def test_s17_move_up_to_mv_points_and_no_further(table: Table) -> None:
    """S-17: MV (12 + 12) / 4 = 6, EL 0: a move of 6 is allowed, 7 is not."""
    _duel(table)
    with pytest.raises(Rejected):
        table.act("a", "move", moved=7)
    table.act("a", "move", moved=6)
    assert table.cond("a").moved == 6 and table.current == "d"


def test_s20_guard_counterattacks_only_once(table: Table) -> None:
    """S-20 / A-65: the counterattack uses the Guard: a second defended attack gets none."""
    table.add("a", FIGHTER)
    table.add("d", FOE, side="npc")
    table.add("e", sheet(ag=9, styles=(("Sword", 2),), weapon=SWORD), side="npc")
    start(table, "a", "d", "e")
    table.act("a", "guard", weapon="sword")
    table.act("d", "attack", target="a")
    table.defend("dodge", (1, 1))
    assert table.prompt("defence").combatant == "d"  # the counterattack
    table.defend("dodge", (1, 1))  # d dodges it: miss
    table.act("e", "attack", target="a")
    table.defend("dodge", (1, 1))
    assert not table.state.prompts and table.cond("a").guard_weapon == ""


def test_s20_no_counterattack_after_a_hit(table: Table) -> None:
    """S-20 / A-65: a shield hit or a body hit is not "successfully defended": no counterattack."""
    _duel(table, FOE, FIGHTER)
    table.act("a", "attack", target="d")
    table.defend("dodge", (10, 10))
    table.roll([(1,)], "damage")
    assert not [p for p in table.state.prompts if p.kind == "defence"]


def test_s21_defend_adds_2_def_until_its_next_action(table: Table) -> None:
    """S-21 / S-18: Defend: +2 DEF against every attack until the defender acts again; no attack."""
    table.add("d", FOE, side="npc")
    table.add("a", FIGHTER)
    start(table, "d", "a")
    table.act("d", "defend")
    table.act("a", "attack", target="d")
    assert _dodge_def(table) == 2 + 0 - 1 + 2  # level 2, AG 10, -(1 + EL 0), +2


def test_s22_disarm_hit_takes_the_weapon_without_damage(table: Table) -> None:
    """S-22 / A-66: AT 4 - 2 (disarm) - 2 (at the weapon) = 0; a hit (R >= 12, no shield band) disarms."""
    hook = {**SWORD, "name": "hook", "can_disarm": True}
    _duel(table, sheet(st=12, ag=12, styles=(("Sword", 3),), weapon=hook))
    assert at_total(table.act("a", "disarm", target="d", weapon="hook")) == 0
    result = table.defend("none", (6, 6))
    assert [e.type for e in result.events][:2] == ["attack_resolved", "disarmed"]
    assert table.cond("d").lost == ("sword",) and not table.state.prompts


def test_s22_only_flagged_weapons_or_bare_hands_disarm(table: Table) -> None:
    """S-22: a sword not flagged "can disarm" cannot; bare hands can, at a further -2."""
    _duel(table)
    with pytest.raises(Rejected) as err:
        table.act("a", "disarm", target="d", weapon="sword")
    assert err.value.code == "attack/cannot_disarm"
    assert at_total(table.act("a", "disarm", target="d", weapon="bare hand")) == 4 - 2 - 2 - 2


BOWMAN = sheet(ag=12, styles=(("Bow", 3),), weapons=[{"name": "bow", "style": "Bow", "ranged": True, "range_st": 15,
                                                      "speed": 2, "damage_types": ["imp"]}])


def test_s23_aim_adds_1_a_turn_up_to_3_for_ranged_attacks(table: Table) -> None:
    """S-23 / S-30 / R-15: four turns of aim give +3, not +4; AT 3 + 1 (AG 12) + 3 at range 2 (band 0) = 7."""
    _duel(table, BOWMAN)
    for _ in range(4):
        table.act("a", "aim", target="d", weapon="bow")
        table.act("d", "move", moved=0)
    assert table.cond("a").aim_turns == 4
    assert at_total(table.act("a", "attack", target="d", weapon="bow", range=2)) == 7


def test_r15_an_injury_ends_the_aim(table: Table) -> None:
    """R-15: an aimer who is injured starts again."""
    _duel(table, BOWMAN, FIGHTER)
    table.act("a", "aim", target="d", weapon="bow")
    table.act("d", "attack", target="a")
    table.defend("none", (10, 10))
    table.roll([(4,)], "damage")
    assert table.cond("a").aim_turns == 0 and table.cond("a").aim_target == ""


def test_s23_aim_is_for_ranged_weapons_only(table: Table) -> None:
    """R-15: the aim bonus is for ranged attacks; aiming a sword is refused."""
    _duel(table)
    with pytest.raises(Rejected) as err:
        table.act("a", "aim", target="d", weapon="sword")
    assert err.value.code == "maneuver/aim_ranged_only"


def test_s28_stand_up_after_a_knockdown(table: Table) -> None:
    """S-28: a knocked-down fighter may only dodge at -4 until it stands; standing takes its maneuver."""
    _duel(table)
    table.send("adjust", {"combatant": "a", "changes": {"knocked_down": True}, "reason": "tripped"})
    table.act("a", "stand")
    assert not table.cond("a").knocked_down and table.current == "d"


MAGE = sheet(iq=14, ag=11, styles=(("Staff", 1),), arts=[{"name": "Magic", "level": 6, "spells": [
    {"name": "Ward", "min_level": 3, "end_cost": 2, "casting_time": 1}]}])


def test_s44_a_spell_with_casting_time_1_rolls_on_the_next_turn(table: Table) -> None:
    """S-44: Ward (time 1): begun this turn, rolled on the caster's next turn against IQ 14 - 3 + 3 = 14;
    success costs 2 END. R-19: a round spent only casting is not an active round."""
    _duel(table, MAGE)
    table.act("a", "cast", spell="Ward")
    assert table.cond("a").casting == "Ward" and not table.state.prompts
    table.act("d", "defend")
    assert table.cond("a").fatigue == 0  # R-19
    table.act("a", "cast")
    result = table.roll([(4, 4, 4)], "spell")
    cast = [e for e in result.events if e.type == "spell_cast"][0].payload
    assert cast["record"]["target"] == 14 and cast["success"] and table.cond("a").end == 10 - 2
    assert table.cond("a").casting == ""


def test_s44_damage_loses_the_spell_and_costs_no_end(table: Table) -> None:
    """S-44 / R-17: a caster who takes damage loses the spell; a lost spell costs no END."""
    _duel(table, MAGE, FIGHTER)
    table.act("a", "cast", spell="Ward")
    table.act("d", "attack", target="a")
    table.defend("none", (10, 10))
    result = table.roll([(2,)], "damage")
    assert "spell_lost" in [e.type for e in result.events]
    assert table.cond("a").casting == "" and table.cond("a").end == 10


def test_s44_dodging_loses_the_spell(table: Table) -> None:
    """S-44: blocking or dodging loses the spell."""
    _duel(table, MAGE, FIGHTER)
    table.act("a", "cast", spell="Ward")
    table.act("d", "attack", target="a")
    result = table.defend("dodge", (1, 1))
    assert "spell_lost" in [e.type for e in result.events] and table.cond("a").casting == ""


BRAWLER = sheet(st=14, ag=12, styles=(("Brawling", 3),), body_weight=180)
SPEARMAN = sheet(st=10, ag=10, styles=(("Spear", 3),), body_weight=150,
                 weapons=[{"name": "spear", "style": "Spear", "damage_types": ["imp"], "thrusting": True}])


def test_s40_entering_close_combat_unopposed(table: Table) -> None:
    """S-40 / S-41: let in, both are in close combat: only dodges, and only bare hands or close weapons."""
    _duel(table, BRAWLER, FOE)
    table.act("a", "enter_close", target="d", moved=1)
    assert "stop_thrust:bare hand" in table.prompt("close_response").options["responses"]
    table.respond("none")
    assert table.cond("a").close_with == "d" and table.cond("d").close_with == "a"
    with pytest.raises(Rejected) as err:
        table.act("d", "attack", target="a", weapon="sword")
    assert err.value.code == "attack/close_combat"


def test_s40_a_stop_thrust_that_does_damage_keeps_the_attacker_out(table: Table) -> None:
    """S-40: the spear's stop thrust hits and does damage: entry prevented, the attacker's turn forfeit."""
    _duel(table, BRAWLER, SPEARMAN)
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("stop_thrust", weapon="spear")
    assert table.prompt("defence").combatant == "a"
    table.defend("dodge", (10, 10))
    result = table.roll([(6,)], "damage")
    entry = [e for e in result.events if e.type == "close_entry"][0].payload
    assert not entry["entered"] and table.cond("a").close_with == "" and table.cond("d").blocks_used == 1


def test_s40_a_missed_stop_thrust_lets_the_attacker_in(table: Table) -> None:
    """S-40 / A-79: a stop thrust that misses: the attacker enters."""
    _duel(table, BRAWLER, SPEARMAN)
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("stop_thrust", weapon="spear")
    table.defend("dodge", (1, 1))
    assert table.cond("a").close_with == "d"


def test_s40_a_stop_thrust_without_damage_goes_to_a_st_contest(table: Table) -> None:
    """S-40 / S-02: a hit that does no damage: the ST contest decides (the defender wins by more: kept out)."""
    armoured = {**BRAWLER, "armour": [{"material": "plate", "locations": ["torso"]}]}
    _duel(table, armoured, SPEARMAN)
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("stop_thrust", weapon="spear")
    table.defend("dodge", (10, 10))
    result = table.roll([(1,), (1, 1, 1), (6, 6, 6)], "damage")  # 1 - DR 7 = 0; ST 10 by 7, ST 14 fails by 4
    entry = [e for e in result.events if e.type == "close_entry"][0].payload
    assert entry["contest"]["defender_won"] and not entry["entered"]


def test_s40_a_shield_block_that_hits_keeps_the_attacker_out_without_damage(table: Table) -> None:
    """S-40: a shield block: any hit prevents entry and does no damage."""
    shielded = {**FOE, "shield": {"size": "small"}}
    _duel(table, BRAWLER, shielded)
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("shield_block")
    result = table.defend("dodge", (10, 10))
    assert [e.type for e in result.events][:2] == ["attack_resolved", "close_entry"]
    assert table.cond("a").close_with == "" and table.cond("a").wounds == {}


def _in_close(table: Table, defender: dict[str, Any] = FOE) -> None:
    _duel(table, BRAWLER, defender)
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("none")
    table.act("d", "defend")


def test_s42_a_takedown_knocks_the_defender_down(table: Table) -> None:
    """S-42: a takedown that hits (R >= 12; no shield in close combat) knocks the defender down."""
    _in_close(table)
    table.act("a", "takedown", target="d")
    assert [x.defence for x in defences(table.state, table.state.combat.attack)] == ["dodge", "none"]  # S-41
    table.defend("dodge", (10, 10))
    assert table.cond("d").knocked_down


def test_a80_a_takedown_may_be_followed_at_once_by_a_pin(table: Table) -> None:
    """A-80 / S-43 / R-16: then_pin: after the takedown the free pin roll; the pinner goes down too."""
    _in_close(table)
    table.act("a", "takedown", target="d", then_pin=True)
    table.defend("dodge", (10, 10))
    assert table.prompt("defence").combatant == "d"
    table.defend("dodge", (10, 10))
    assert table.cond("d").pinned_by == "a" and table.cond("a").pinning == "d" and table.cond("a").knocked_down


def test_s43_only_a_downed_defender_can_be_pinned(table: Table) -> None:
    """S-43: a pin against a standing defender is refused."""
    _in_close(table)
    with pytest.raises(Rejected) as err:
        table.act("a", "pin", target="d")
    assert err.value.code == "attack/not_down"


def test_s43_escaping_the_pin(table: Table) -> None:
    """S-43: the pinned may only try to escape; a successful takedown roll against the pinner frees it."""
    _in_close(table)
    table.act("a", "takedown", target="d", then_pin=True)
    table.defend("dodge", (10, 10))
    table.defend("dodge", (10, 10))
    with pytest.raises(Rejected) as err:
        table.act("d", "attack", target="a")
    assert err.value.code == "maneuver/pinned"
    table.act("d", "escape", target="a")
    table.defend("dodge", (10, 10))
    assert table.cond("d").pinned_by == "" and table.cond("a").pinning == ""


def test_s20_a_guard_strikes_first_at_a_foe_about_to_act(table: Table) -> None:
    """S-20 / A-65: a Guard may strike the combatant about to act, before it acts: a plain attack (AT 4),
    after which that combatant still takes its turn."""
    _duel(table)
    table.act("a", "guard", weapon="sword")
    assert at_total(table.act("a", "preempt", target="d")) == 4
    table.defend("dodge", (1, 1))
    assert table.current == "d" and not table.state.combat.acted


def test_s24_other_maneuvers_need_the_cinematic_option(table: Table) -> None:
    """S-24: without cinematic_maneuvers, a GM-defined maneuver is refused."""
    _duel(table)
    with pytest.raises(Rejected) as err:
        table.act("a", "other", name="lunge", at_mod=2, def_mod=-3, target="d")
    assert err.value.code == "maneuver/cinematic_off"


def test_r21_a_tie_is_rolled_off_on_2d10_higher_first(table: Table) -> None:
    """R-21 / A-64: equal initiative and AG: each rolls 2d10 (a roll prompt for the GM), higher first."""
    table.add("a", FOE)
    table.add("b", FOE, side="npc")
    table.send("start_combat")
    assert table.prompt("roll").options["tied"] == [["a", "b"]]
    table.roll([(1, 2), (5, 5)], "initiative")
    assert table.state.combat.order == ("b", "a") and table.current == "b"
    assert table.last("round_started").payload["rolloffs"][0]["rolls"] == {"a": [1, 2], "b": [5, 5]}


def test_r21_a_roll_off_tie_rolls_again(table: Table) -> None:
    """R-21: tied again on the roll-off: those still tied roll again."""
    table.add("a", FOE)
    table.add("b", FOE, side="npc")
    table.send("start_combat")
    table.roll([(3, 4), (5, 2)], "initiative")
    table.roll([(9, 9), (1, 1)], "initiative")
    assert table.state.combat.order == ("a", "b")


def test_r21_the_gm_may_settle_a_tie_with_an_order(table: Table) -> None:
    """R-21: instead of the dice, the GM's order (an event too); it must name every combatant who can act."""
    table.add("a", FOE)
    table.add("b", FOE, side="npc")
    table.send("start_combat")
    with pytest.raises(Rejected) as err:
        table.send("set_order", {"order": ["b"]})
    assert err.value.code == "combat/bad_order" and err.value.details["field"] == "order"
    table.send("set_order", {"order": ["b", "a"]})
    assert table.state.combat.order == ("b", "a") and table.last("round_started").payload["explicit"]


def test_s40_a_spear_set_against_a_charge_does_damage_by_the_chargers_st(table: Table) -> None:
    """S-40: the brawler charges 5 units (+1); the spear set against it strikes with the charger's ST 14
    (2d) plus the charge bonus, not its wielder's ST 10 (1d): 2d rolls 3 + 3, + 1 = 7."""
    charger = {**BRAWLER, "npc": True}
    _duel(table, charger, SPEARMAN)
    table.act("a", "enter_close", target="d", moved=5, charge=True)
    answers = [a for p in ShellRuleset().describe(table.state, GM_ACTOR).prompts for a in p.answers]
    assert "Set the spear against the charge" in [a.label for a in answers]
    table.respond("stop_thrust", weapon="spear", set=True)
    table.defend("dodge", (10, 10))
    assert table.prompt("roll").options["count"] == 2
    result = table.roll([(3, 3)], "damage")
    assert [e for e in result.events if e.type == "damage_taken"][0].payload["raw"] == 7


def test_a64_a_broken_heavy_shield_lowers_el_and_initiative_is_recomputed(table: Table) -> None:
    """S-07 / S-17 / A-64: a 30 lb shield is 15% of ST 10's 200 lb: EL 1, initiative 11 - 2 = 9. Broken
    (a block that takes 6 > HP 5, S-45), it weighs nothing: next round EL 0, initiative 11."""
    heavy = sheet(ag=11, styles=(("Sword", 3),), weapon=SWORD, shield={"size": "small", "hp": 5, "weight": 30})
    table.add("a", FIGHTER)
    table.add("d", heavy, side="npc")
    table.send("start_combat")
    assert [(b["id"], b["el"], b["initiative"]) for b in table.last("round_started").payload["basis"]] == [
        ("a", 0, 12), ("d", 1, 9)]
    table.act("a", "attack", target="d")
    table.defend("block", (4, 5), **{"with": "shield"})  # R = 9 + 4 - 4: blocked
    table.roll([(4,)], "damage")  # 1d+2 = 6 > 5: the shield breaks
    table.act("d", "defend")
    assert [(b["id"], b["el"], b["initiative"]) for b in table.last("round_started").payload["basis"]] == [
        ("a", 0, 12), ("d", 0, 11)]
