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
    assert taken["adds"] == [{"value": 1, "reason": "Sword level", "rule": "S-11"},
                             {"value": 2, "reason": "charge", "rule": "S-19"}]
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


def test_S37_a_failed_ht_roll_makes_it_permanent_and_the_wp_roll_cites_S37(table: Table) -> None:
    """S-37 items 3 and 4: HT+2 = 12 failed with 18, the arm is permanent; the WP roll to stay conscious
    is S-37's (item 4), not S-35's, in its record."""
    _duel(table, CHARGER, VICTIM)
    table.act("a", "attack", target="d", location="left arm", moved=11, charge=True)
    table.defend("none", (10, 10))
    table.roll([(3, 4)], "damage")
    table.roll([(6, 6, 6)], "cripple_ht")
    assert table.prompt("roll").options["purpose"] == "wp_conscious"
    result = table.roll([(3, 3, 3)], "wp_conscious")  # 9 <= WP 10
    check = [e for e in result.events if e.type == "check_rolled"][0].payload
    assert (check["purpose"], check["success"], check["record"]["rule"]) == ("wp_conscious", True, "S-37")


def test_S37_a_permanent_injury_at_twice_the_threshold_asks_a_wp_roll_citing_S37(table: Table) -> None:
    """S-37 items 2 and 4: 9 >= 2 x 4 on the arm, permanent without an HT roll; the WP roll cites S-37."""
    _duel(table, CHARGER, VICTIM)
    table.act("a", "attack", target="d", location="left arm", moved=11, charge=True)
    table.defend("none", (10, 10))
    table.roll([(3, 4)], "damage")
    table.roll([(4, 4, 4)], "cripple_ht")
    table.act("a", "attack", target="d", location="left arm")
    table.defend("none", (10, 10))
    table.roll([(3, 3)], "damage")
    result = table.roll([(3, 3, 3)], "wp_conscious")
    assert [e for e in result.events if e.type == "check_rolled"][0].payload["record"]["rule"] == "S-37"


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


# --- E-11: crushing head, impaling, AP, DM, non-lethal ---------------------------------------------

def _hit(table: Table, attacker: dict[str, Any], defender: dict[str, Any], faces: tuple[int, ...],
         **args: Any) -> dict[str, Any]:
    """One undefended hit (R >= 12 on 10 + 10) and its damage roll; the damage_taken payload."""
    _duel(table, attacker, defender)
    table.act("a", "attack", target="d", **args)
    table.defend("none", (10, 10))
    result = table.roll([faces], "damage")
    return dict([e for e in result.events if e.type == "damage_taken"][0].payload)


MACE = {"name": "mace", "damage": 1, "damage_types": ["cr"], "hp": 12}


def test_e11a_crushing_head_stuns_and_calls_a_wp_roll(table: Table) -> None:
    """E-11 a: ST 12 (1d+2) mace +1 cr rolls 2 -> 5; helmet DR 2 + skull 2 -> 1, x4 = 4 against HP 12:
    the crushing head threshold 12/3 = 4 stuns, and a WP roll against unconsciousness follows."""
    defender = sheet(st=12, ag=9, armour=[{"material": "leather", "locations": ["head"]}])
    taken = _hit(table, sheet(st=12, weapon=MACE), defender, (2,), location="head")
    assert taken["raw"] == 5 and taken["damage"] == 4 and taken["stunned"]
    assert [p.options["purpose"] for p in table.state.prompts] == ["wp_conscious"]


def test_S35_the_wp_roll_after_a_stunning_crushing_head_blow_cites_S35(table: Table) -> None:
    """S-35: the E-11 a blow's WP roll (WP 10, rolled 9) is S-35's in its record."""
    defender = sheet(st=12, ag=9, armour=[{"material": "leather", "locations": ["head"]}])
    _hit(table, sheet(st=12, weapon=MACE), defender, (2,), location="head")
    result = table.roll([(3, 3, 3)], "wp_conscious")
    assert [e for e in result.events if e.type == "check_rolled"][0].payload["record"]["rule"] == "S-35"


def test_e11a_a_cutting_blow_of_4_to_the_head_does_not_stun(table: Table) -> None:
    """E-11 a: the same 4 as cutting damage is under the cutting threshold 12/2 = 6: no stun, no WP roll."""
    defender = sheet(st=12, ag=9, armour=[{"material": "leather", "locations": ["head"]}])
    axe = {"name": "axe", "damage": 1, "damage_types": ["cut"], "hp": 12}
    taken = _hit(table, sheet(st=12, weapon=axe), defender, (2,), location="head")
    assert taken["damage"] == 4 and not taken["stunned"] and not table.state.prompts


SPEAR = {"name": "spear", "damage": 2, "damage_types": ["imp"], "hp": 10}


def test_e11b_impaling_the_heart_is_times_one_and_a_half(table: Table) -> None:
    """E-11 b: raw 8 (1d+2 rolls 6), DR 2 -> 6 x 1.5 = 9: stunned (>= 6), total 9 < 12."""
    defender = sheet(st=12, ag=9, armour=[{"material": "leather", "locations": ["heart", "torso"]}])
    taken = _hit(table, sheet(weapon=SPEAR), defender, (6,), location="heart")
    assert taken["damage"] == 9 and taken["stunned"] and not taken["unconscious"]


def test_e11c_impaling_an_arm_is_halved_and_does_not_cripple(table: Table) -> None:
    """E-11 c: the same blow to the arm: 6 x 1/2 = 3 under the threshold 4.8: not crippled, total 3."""
    defender = sheet(st=12, ag=9, armour=[{"material": "leather", "locations": ["arm"]}])
    taken = _hit(table, sheet(weapon=SPEAR), defender, (6,), location="right arm")
    assert taken["damage"] == 3 and taken["crippled"] == [] and taken["counted"] == 3


def test_e11d_armour_piercing_halves_plate(table: Table) -> None:
    """E-11 d: armour-piercing against plate DR 7: DR 3, raw 8 -> 5."""
    pick = {**SPEAR, "name": "pick", "armour_piercing": True}
    taken = _hit(table, sheet(weapon=pick), sheet(st=12, ag=9, armour=[{"material": "plate", "locations": ["torso"]}]),
                 (6,))
    assert taken["damage"] == 5


def test_e11e_dm_applies_after_dr(table: Table) -> None:
    """E-11 e: an NPC with DM 50% and DR 3, raw 9 -> 6 -> 3."""
    club = {"name": "club", "damage": 3, "damage_types": ["cr"], "hp": 10}
    taken = _hit(table, sheet(weapon=club), sheet(st=12, ag=9, npc=True, dm=50, dr=3), (6,))
    assert taken["raw"] == 9 and taken["damage"] == 3


def test_e11f_stun_damage_knocks_out_but_never_kills(table: Table) -> None:
    """E-11 f: HP 12 with 8 stun damage and a lethal 10: total 18 >= 12, unconscious (END 0); lethal 10 < 24, alive."""
    greatsword = {"name": "greatsword", "damage_types": ["cut"], "hp": 12}
    _duel(table, sheet(st=14, weapon=greatsword), sheet(st=12, ag=9))
    table.send("adjust", {"combatant": "d", "changes": {"stun_damage": 8}, "reason": "E-11 f: earlier stun blows"})
    table.act("a", "attack", target="d")
    table.defend("none", (10, 10))
    table.roll([(5, 5)], "damage")
    cond = table.cond("d")
    assert cond.wounds == {"torso": 10} and cond.unconscious and not cond.dead and cond.end == 0


def test_s35_a_non_lethal_blow_is_kept_as_stun_damage(table: Table) -> None:
    """S-35: a crushing blow to the torso chosen non-lethal goes to stun damage, not the location."""
    taken = _hit(table, sheet(st=12, weapon=MACE), sheet(st=12, ag=9), (2,), non_lethal=True)
    assert taken["stun_damage"] == 5 and taken["wounds"] == {}


# --- E-12: ranged ---------------------------------------------------------------------------------

BOW = {"name": "bow", "damage_types": ["imp"], "ranged": True, "range_st": 15, "speed": 2, "hp": 6}
ARCHER_E12 = {"st": 10, "ag": 15, "styles": [{"name": "Bow", "level": 4, "kind": "ranged"}],
              "weapons": [{**BOW, "style": "Bow"}]}
#: Shield 5 at AG 13: base DEF 7; a large shield (PR 3, HP 16).
TARGET_E12 = sheet(ag=13, styles=(("Shield", 5),), shield={"size": "large"})


def _aimed(table: Table, target: dict[str, Any] = TARGET_E12) -> None:
    """The archer aims two turns at the target (which only stands, moving 0), then shoots from 12 units."""
    table.add("a", ARCHER_E12)
    table.add("d", target, side="npc")
    start(table, "a", "d")
    for _ in range(2):
        table.act("a", "aim", target="d", weapon="bow")
        table.act("d", "move", moved=0)


@pytest.mark.parametrize("faces,r,result", [((4, 5), 11, "defended"), ((6, 6), 14, "shield hit"),
                                            ((6, 7), 15, "hit")])
def test_e12_an_aimed_arrow_against_a_large_shield(table: Table, faces: tuple[int, int], r: int, result: str) -> None:
    """E-12: AT 4 + 2 (AG 15) + 2 (aimed 2 turns) - 3 (12 units) = 5; the shield block's DEF 7 / speed 2 = 3;
    R = roll + 2 against PR 3 (band 12-14)."""
    _aimed(table)
    assert at_total(table.act("a", "attack", target="d", weapon="bow", range=12)) == 5
    out = resolved(table.defend("block", faces, **{"with": "shield"}))
    assert (out["def_total"], out["r"], out["result"]) == (3, r, result)


def test_e12_a_blocked_arrow_does_half_damage_to_the_shield(table: Table) -> None:
    """E-12 / S-36 / S-45: the blocked arrow (1d rolls 6) does 6 / 2 = 3 to the shield of HP 16: it holds."""
    _aimed(table)
    table.act("a", "attack", target="d", weapon="bow", range=12)
    table.defend("block", (4, 5), **{"with": "shield"})
    result = table.roll([(6,)], "damage")
    hit = [e for e in result.events if e.type == "object_damaged"][0].payload
    assert (hit["raw"], hit["damage"], hit["hp"], hit["breaks"]) == (6, 3, 16, False)


def test_e12_r02_beyond_half_range_speed_1_and_the_band_recomputed(table: Table) -> None:
    """E-12 / R-02: at 80 units (over half of 150) the bow's speed is 1 (DEF 7), and the range band is
    61-90 (-7): AT 6 + 2 - 7 = 1."""
    _aimed(table)
    assert at_total(table.act("a", "attack", target="d", weapon="bow", range=80)) == 1
    assert _def(table, "block", "shield") == 7


def test_e12_a_dodge_against_ranged_is_at_least_0(table: Table) -> None:
    """E-12 / A-70: best style 2, AG 10, EL 3: 2 + 0 - 4 = -2, at least 0 against a ranged attack."""
    _aimed(table, sheet(styles=(("Sword", 2),), gear_weight=100))
    table.act("a", "attack", target="d", weapon="bow", range=12)
    assert _def(table, "dodge") == 0


@pytest.mark.parametrize("faces,result", [((2, 2), "miss"), ((3, 4), "hit")])
def test_e12_an_unaware_target_has_base_def_0_and_9_to_11_misses(table: Table, faces: tuple[int, int],
                                                                 result: str) -> None:
    """E-12 / A-68: an unaware target: R = roll + 5; a roll of 4 gives R 9, a miss; 7 gives R 12, a hit."""
    _aimed(table)
    table.act("a", "attack", target="d", weapon="bow", range=12, unaware=True)
    assert table.prompt("defence").options["defenceless"]
    assert resolved(table.defend("none", faces))["result"] == result


# --- E-13: derived numbers, EL, initiative, fatigue ---------------------------------------------------

E13 = {"st": 12, "ag": 13, "iq": 10, "ht": 10, "gear_weight": 70, "styles": [{"name": "Sword", "level": 3}]}


def test_e13_derived_numbers_el_and_initiative(table: Table) -> None:
    """E-13: HP 12, END 12, WP 10, CHA 11, PER 10, MV 6, max Enc 260; 70 lb is EL 2; initiative 9; MV points 4."""
    table.add("a", E13)
    view = RULESET.view_combatant(table.state, "a")
    assert {k: view[k] for k in ("hp", "end", "wp", "cha", "per", "mv", "max_enc", "el", "initiative", "mv_points")} \
        == {"hp": 12, "end": 12, "wp": 10, "cha": 11, "per": 10, "mv": 6, "max_enc": 260, "el": 2, "initiative": 9,
            "mv_points": 4}


@pytest.mark.parametrize("end,st,ag,points", [(4, 11, 12, 3), (-2, 10, 11, 1)])
def test_e13_end_thresholds(table: Table, end: int, st: int, ag: int, points: int) -> None:
    """E-13 / S-13: END <= 4: ST 11, AG 12, MV 5 (points 3); END -2: ST 10, AG 11, MV 3 (points 1)."""
    table.add("a", E13)
    table.send("adjust", {"combatant": "a", "changes": {"end": end}, "reason": "E-13"})
    view = RULESET.view_combatant(table.state, "a")
    assert (view["st_now"], view["ag_now"], view["mv_points"]) == (st, ag, points)


def test_e13_combat_fatigue_and_the_wp_roll_at_end_minus_2(table: Table) -> None:
    """E-13 / S-46 / R-18: an active round at EL 2 adds 1/15 END (20/300); the END lost at -1 leaves -2 and
    calls a WP + END roll against 10 - 2 = 8."""
    table.add("a", E13)
    table.add("d", sheet(ag=9, weapon=SWORD), side="npc")
    start(table, "a", "d")
    table.send("adjust", {"combatant": "a", "changes": {"end": -1, "fatigue": 290}, "reason": "E-13"})
    table.act("a", "move", moved=1)
    table.act("d", "defend")
    assert table.cond("a").end == -2 and table.cond("a").fatigue == 10
    result = table.roll([(2, 3, 3)], "wp_end")
    check = [e for e in result.events if e.type == "check_rolled"][0].payload
    assert check["record"]["target"] == 8 and check["success"] and table.cond("a").wp_safe


# --- E-14: task rolls, spell, grappling -----------------------------------------------------------------

MAGE_E14 = sheet(iq=13, arts=[{"name": "Sorcery", "level": 8, "spells": [
    {"name": "Bolt", "min_level": 5, "end_cost": 3}, {"name": "Hex", "min_level": 9, "end_cost": 1}]}])


def test_e14_spell_target_13_and_a_failure_costs_1_end(table: Table) -> None:
    """E-14: IQ 13, art 8, minimum 5, hard: 13 - 3 + 3 = 13; a failed roll costs 1 END (S-12)."""
    _duel(table, MAGE_E14, sheet(ag=9))
    table.act("a", "cast", spell="Bolt", target="d")
    result = table.roll([(6, 6, 6)], "spell")
    cast = [e for e in result.events if e.type == "spell_cast"][0].payload
    assert cast["record"]["target"] == 13 and not cast["success"] and cast["end_cost"] == 1
    assert table.cond("a").end == 10 - 1


def test_e14_a_spell_below_its_minimum_level_cannot_be_tried(table: Table) -> None:
    """E-14 / S-10: minimum 9 over an art of 8: no chance, refused naming the spell."""
    from combat_server.errors import Rejected

    _duel(table, MAGE_E14, sheet(ag=9))
    with pytest.raises(Rejected) as err:
        table.act("a", "cast", spell="Hex")
    assert err.value.code == "spell/below_minimum" and err.value.details["field"] == "spell"


def _grapplers(table: Table, defender_weight: int) -> None:
    table.add("a", sheet(st=14, styles=(("Wrestling", 2),), body_weight=180))
    table.add("d", sheet(st=11, ag=9, styles=(("Wrestling", 2),), body_weight=defender_weight), side="npc")
    start(table, "a", "d")
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("none")


def _st_mods(result: Any) -> int:
    declared = [e for e in result.events if e.type == "attack_declared"][-1].payload["attack"]
    return sum(m["value"] for m in declared["at"] if m["rule"] in ("S-42", "S-43"))


def test_e14_takedown_st_14_against_11_is_plus_3(table: Table) -> None:
    """E-14 / S-42: AT +-1 per point of ST difference: 14 - 11 = +3."""
    _grapplers(table, 140)
    table.act("d", "defend")
    assert _st_mods(table.act("a", "takedown", target="d")) == 3


@pytest.mark.parametrize("weight,mods", [(140, 5), (150, 4)])
def test_e14_pin_adds_1_per_whole_20_lb(table: Table, weight: int, mods: int) -> None:
    """E-14 / S-43 / A-80: 180 lb against 140 lb: +3 + 2 = +5; against 150 lb: +3 + 1 (30/20 truncated) = +4."""
    _grapplers(table, weight)
    table.act("d", "defend")
    table.send("adjust", {"combatant": "d", "changes": {"knocked_down": True}, "reason": "E-14: down"})
    assert _st_mods(table.act("a", "pin", target="d")) == mods


def test_e14_escaping_the_pin_is_a_takedown_roll_at_minus_3(table: Table) -> None:
    """E-14 / S-43: the pinned defender's escape is its takedown roll against the pinner: 11 - 14 = -3."""
    _grapplers(table, 140)
    table.act("d", "defend")
    table.send("adjust", {"combatant": "d", "changes": {"knocked_down": True}, "reason": "E-14: down"})
    table.act("a", "pin", target="d")
    table.defend("dodge", (10, 10))
    assert table.cond("d").pinned_by == "a" and table.cond("a").knocked_down
    assert _st_mods(table.act("d", "escape", target="a")) == -3
