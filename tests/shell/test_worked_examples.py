"""The catalogue's SHELL worked examples E-08 ... E-14 played through the ruleset on a real
engine (SQLite and PostgreSQL): every number is the one the catalogue works out by hand."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.shell.attacks import defences
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import SWORD, Table, at_total, resolved, sheet, start

RULESET = ShellRuleset()


def _duel(table: Table, attacker: dict[str, Any], defender: dict[str, Any]) -> None:
    table.add("a", attacker)
    table.add("d", defender, side="npc")
    start(table, "a", "d")


# --- E-08: the attack table (S-25) -------------------------------------------------------------

E08 = [  # 2d10 faces, R, no shield, medium shield (PR 2), buckler (PR 0)
    ((4, 5), 11, "defended", "defended", "defended"),
    ((3, 3), 8, "miss", "miss", "miss"),
    ((5, 5), 12, "hit", "shield hit", "hit"),
    ((5, 6), 13, "hit", "shield hit", "hit"),
    ((6, 6), 14, "hit", "hit", "hit"),
    ((1, 1), 4, "miss", "miss", "miss"),
    ((10, 10), 22, "hit", "hit", "hit"),
]


@pytest.mark.parametrize("faces,r,bare,medium,buckler", E08)
@pytest.mark.parametrize("shield", [None, "medium", "buckler"])
def test_e08_attack_table(table: Table, faces: tuple[int, int], r: int, bare: str, medium: str, buckler: str,
                          shield: str | None) -> None:
    """E-08: AT 5 (level 5, AG 10) against block DEF 3 (level 3, AG 10): R = 2d10 + 2 on the chart."""
    defender = sheet(styles=(("Sword", 3),), weapon=SWORD)
    if shield is not None:
        defender["shield"] = {"size": shield, "hp": 8}
    _duel(table, sheet(styles=(("Sword", 5),), weapon=SWORD), defender)
    assert at_total(table.act("a", "attack", target="d")) == 5
    out = resolved(table.defend("block", faces, **{"with": "sword"}))
    assert out["def_total"] == 3 and out["r"] == r
    assert out["result"] == {None: bare, "medium": medium, "buckler": buckler}[shield]


# --- E-09: AT and DEF derivation --------------------------------------------------------------

ATTACKER_E09 = sheet(ag=14, styles=(("Sword", 4),), weapon=SWORD)
#: blocks with Sword 3 at AG 12 (DEF 4); Sling 5, its best skill; 30 lb of 200 is EL 1
DEFENDER_E09 = sheet(ag=12, styles=(("Sword", 3),), gear_weight=30, weapons=[
    {**SWORD, "style": "Sword"},
    {"name": "sling", "style": "Sling", "ranged": True, "range_st": 10, "damage_types": ["cr"]}])
DEFENDER_E09["styles"].append({"name": "Sling", "level": 5, "kind": "ranged"})


@pytest.mark.parametrize("args,at", [({}, 6), ({"off_hand": True}, 3), ({"location": "left arm"}, 5),
                                     ({"location": "neck"}, 2), ({"moved": 2}, 4)])
def test_e09_attack_modifiers(table: Table, args: dict[str, Any], at: int) -> None:
    """E-09: base AT 6 (level 4, AG 14); off-handed 3, at an arm 5, at the neck 2, after more than a step 4."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    assert at_total(table.act("a", "attack", target="d", **args)) == at


def _def(table: Table, kind: str, with_: str = "") -> int | None:
    state = table.state
    attack = state.combat.attack
    found = [d for d in defences(state, attack) if d.defence == kind and (not with_ or d.with_ == with_)]
    return found[0].total if found else None


def test_e09_block_and_dodge_def(table: Table) -> None:
    """E-09: block DEF 4 (Sword 3, AG 12); dodge 5 + 1 - (1 + EL 1) = 4 from the best style, not the one in use."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    table.act("a", "attack", target="d")
    assert _def(table, "block", "sword") == 4 and _def(table, "dodge") == 4


def test_e09_guard_counterattack_at_7(table: Table) -> None:
    """E-09 / S-20: a defended attack on a Guard is answered at once by its counterattack at AT 6 + 1."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    table.act("a", "guard", weapon="sword")
    table.act("d", "attack", target="a")
    result = table.defend("dodge", (4, 4))
    assert resolved(result)["result"] == "miss"
    assert at_total(result) == 7 and table.prompt("defence").combatant == "d"


@pytest.mark.parametrize("maneuver,block,dodge", [("defend", 6, 6), ("aim", 2, 2)])
def test_e09_last_maneuver_def(table: Table, maneuver: str, block: int, dodge: int) -> None:
    """E-09: after Defend block 6 and dodge 6; after Aim block 2 (S-18 modifiers last until the next action)."""
    table.add("d", DEFENDER_E09, side="npc")
    table.add("a", ATTACKER_E09)
    start(table, "d", "a")
    table.act("d", maneuver, **({"target": "a", "weapon": "sling"} if maneuver == "aim" else {}))
    table.act("a", "attack", target="d")
    assert _def(table, "block", "sword") == block and _def(table, "dodge") == dodge


def test_e09_stunned_blocks_at_2_and_knocked_down_dodges_at_0(table: Table) -> None:
    """E-09: stunned, block 4 - 2 = 2; knocked down, dodge only at 4 - 4 = 0 (S-28, S-31)."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    table.send("adjust", {"combatant": "d", "changes": {"stunned": True}, "reason": "E-09"})
    table.act("a", "attack", target="d")
    assert _def(table, "block", "sword") == 2
    table.send("adjust", {"combatant": "d", "changes": {"stunned": False, "knocked_down": True}, "reason": "E-09"})
    assert _def(table, "dodge") == 0 and _def(table, "block") is None


def test_e09_two_blocks_a_round_at_level_3_then_dodge_only(table: Table) -> None:
    """E-09 / S-28 / R-13: level 3 blocks twice a round; a declared block counts even against a miss."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    table.act("a", "attack", target="d")
    table.defend("block", (1, 1), **{"with": "sword"})
    assert table.cond("d").blocks_used == 1


def test_e09_a_third_attack_in_the_round_must_be_dodged(table: Table) -> None:
    """E-09 / S-28: with both of level 3's blocks used this round, only the dodge (4) is left."""
    _duel(table, ATTACKER_E09, DEFENDER_E09)
    table.send("adjust", {"combatant": "d", "changes": {"blocks_used": 2}, "reason": "two blocks already"})
    table.act("a", "attack", target="d")
    assert _def(table, "block") is None and _def(table, "dodge") == 4


# --- E-10: damage, charge, arm crippling -------------------------------------------------------

#: ST 14 (2d), long sword +0 cut, Sword 4 (+1 damage); an NPC with MV 6 + 5 = 11 to charge 11 units.
CHARGER = sheet(st=14, styles=(("Sword", 4),), weapon={"name": "long sword", "damage_types": ["cut"], "hp": 10},
                npc=True, mv_bonus=5)
#: HP 10, chain DR 4 on the arms and torso; AG 9, so it acts after the charger (S-17).
VICTIM = sheet(ag=9, styles=(("Sword", 1),), armour=[{"material": "chain", "locations": ["arm", "torso"]}])


def test_e10_a_charge_cripples_the_arm(table: Table) -> None:
    """E-10: 7 + 1 (style) + 2 (charge, 11 units) = 10, - DR 4 = 6 cutting to the arm: crippled (>= 4),
    stunned, an HT+2 roll (the whole threshold in one blow); the arm records 6, the total counts 4."""
    _duel(table, CHARGER, VICTIM)
    table.act("a", "attack", target="d", location="left arm", moved=11, charge=True)
    table.defend("none", (10, 10))
    result = table.roll([(3, 4)], "damage")
    taken = [e for e in result.events if e.type == "damage_taken"][0].payload
    assert taken["raw"] == 10 and taken["damage"] == 6 and taken["counted"] == 4
    assert taken["crippled"] == [{"location": "left arm", "permanent": False}] and taken["stunned"]
    assert table.prompt("roll").options["purpose"] == "cripple_ht"
    assert RULESET.view_combatant(table.state, "d")["damage_total"] == 4
    table.roll([(4, 4, 4)], "cripple_ht")  # 12 <= HT 10 + 2: temporary
    assert table.cond("d").crippled == ("left arm",) and table.cond("d").permanent == ()


def test_e10_a_later_hit_makes_the_arm_permanent(table: Table) -> None:
    """E-10: a later 3-point hit to the same arm: 9 >= 8 (2 x threshold) is permanent (no HT roll), a WP
    roll follows, and the HP total stays 4."""
    _duel(table, CHARGER, VICTIM)
    table.act("a", "attack", target="d", location="left arm", moved=11, charge=True)
    table.defend("none", (10, 10))
    table.roll([(3, 4)], "damage")
    table.roll([(4, 4, 4)], "cripple_ht")
    assert table.current == "a" and table.state.combat.round == 2  # d, stunned, lost its turn (S-32)
    table.act("a", "attack", target="d", location="left arm")
    table.defend("none", (10, 10))
    result = table.roll([(3, 3)], "damage")  # 6 + 1 = 7, - DR 4 = 3
    taken = [e for e in result.events if e.type == "damage_taken"][0].payload
    assert taken["damage"] == 3 and taken["wounds"]["left arm"] == 9
    assert taken["crippled"] == [{"location": "left arm", "permanent": True}]
    assert table.prompt("roll").options["purpose"] == "wp_conscious"
    assert RULESET.view_combatant(table.state, "d")["damage_total"] == 4


def test_e10_the_same_blow_to_the_torso_stuns_without_crippling(table: Table) -> None:
    """E-10: 6 to the torso: total 6, stunned (>= 5), no crippling."""
    _duel(table, CHARGER, VICTIM)
    table.act("a", "attack", target="d", moved=11, charge=True)
    table.defend("none", (10, 10))
    result = table.roll([(3, 4)], "damage")
    cond = table.cond("d")
    assert cond.wounds == {"torso": 6} and cond.crippled == ()
    assert [e.type for e in result.events if e.type in ("damage_taken", "turn_lost")] == ["damage_taken", "turn_lost"]
    assert result.events[0].payload["stunned"]  # and its turn, next, is lost to the stun (S-32)
