"""The GURPS worked examples E-01..E-07 of the rules catalogue (section 6), one
bullet per test. Pure arithmetic is checked on the pure modules; maneuver
modifiers, prompts and recorded rolls are checked through the real engine with
manual dice."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps import derived, injury as inj, rolls
from combat_server.rules.gurps.injury import SHOCK_CAP
from combat_server.rules.gurps.sheet import Sheet, Weapon
from combat_server.rules.gurps.state import Condition
from combat_server.rules.gurps.tables import THROW_DISTANCE, damage_for_st
from tests.rules.gurps_helpers import Fight, d3, payload

NewFight = Callable[..., Fight]


def mods_by_rule(record: dict[str, Any]) -> dict[str, int]:
    """The recorded modifiers of a roll, summed per catalogue rule id."""
    out: dict[str, int] = {}
    for m in record["modifiers"]:
        out[m["rule"]] = out.get(m["rule"], 0) + m["value"]
    return out


# --------------------------------------------------------------------------- E-01

E01_VICTIM = {"hp": 15, "dr": 2, "ht": 10}
E01_ATTACKER = {"weapons": [{"name": "axe", "skill": 12, "damage": "2d", "damage_type": "cut"}]}


def e01_hit(new_fight: NewFight) -> tuple[Fight, dict[str, Any]]:
    """E-01 set-up: a hits b (HPmax 15, DR 2) with a cutting weapon for 9 basic damage."""
    f = new_fight({"a": E01_ATTACKER, "b": E01_VICTIM})
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="axe")
    f.defend("none")
    return f, payload(f.roll("damage", [[4, 5]]), "injury_applied")


def test_e01_penetrating_damage_is_damage_minus_dr() -> None:
    """E-01: 9 basic damage against DR 2 leaves 7 penetrating."""
    assert inj.penetrating(9, 2) == 7


def test_e01_cutting_injury_is_floor_of_one_and_a_half() -> None:
    """E-01: 7 penetrating cutting gives floor(10.5) = 10 injury, leaving HP 5 of 15."""
    assert inj.injury(7, "cut") == 10
    assert 15 - inj.injury(7, "cut") == 5


def test_e01_shock_below_20_hp_is_one_per_hp_capped_at_4() -> None:
    """E-01: HPmax 15 losing 10 HP is -10 shock, capped at -4."""
    assert inj.shock(10, 15) == 10
    assert min(SHOCK_CAP, inj.shock(10, 15)) == 4


def test_e01_ten_of_fifteen_is_a_major_wound() -> None:
    """E-01: 10 > 15/2 is a major wound."""
    assert inj.major_wound(10, 15)


def test_e01_five_of_fifteen_is_not_reeling() -> None:
    """E-01: HP 5 < 15/3 is false, so the victim is not reeling."""
    assert not derived.reeling(Sheet(hp=15), Condition(hp=5, fp=10))


def test_e01_engine_records_penetration_injury_shock_and_major_wound(new_fight: NewFight) -> None:
    """E-01 through the engine: 9 - DR 2 = 7, x1.5 = 10 injury, HP 5, shock pending 4, major, not reeling."""
    f, injury = e01_hit(new_fight)
    assert (injury["injury"], injury["hp_after"]) == (10, 5)
    assert (injury["shock_added"], injury["shock_pending"]) == (10, 4)
    assert injury["major_wound"] is True and injury["reeling"] is False
    assert injury["death_thresholds"] == [] and injury["dead"] is False
    assert f.open_purposes() == ["major_wound"]


def test_e01_major_wound_ht_failed_by_1_to_4_stuns_and_knocks_down(new_fight: NewFight) -> None:
    """E-01/A-24: HT 10 rolling 14 (fail by 4) leaves the victim stunned and lying prone."""
    f, _ = e01_hit(new_fight)
    f.roll("major_wound", [d3(14)])
    cond = f.cond("b")
    assert cond.stunned and cond.posture == "prone" and not cond.unconscious


def test_e01_major_wound_ht_failed_by_5_knocks_out(new_fight: NewFight) -> None:
    """E-01/A-24: HT 10 rolling 15 (fail by 5) leaves the victim unconscious."""
    f, _ = e01_hit(new_fight)
    f.roll("major_wound", [d3(15)])
    assert f.cond("b").unconscious


def test_e01_major_wound_ht_success_has_no_effect(new_fight: NewFight) -> None:
    """E-01: a successful HT roll against the major wound leaves the victim standing and unstunned."""
    f, _ = e01_hit(new_fight)
    f.roll("major_wound", [d3(10)])
    cond = f.cond("b")
    assert not cond.stunned and not cond.unconscious and cond.posture == "standing"


def test_e01_capped_shock_is_in_force_on_victims_next_turn(new_fight: NewFight) -> None:
    """E-01/G-47: the victim's next turn starts with shock 4, which lowers its attack roll by 4."""
    f, _ = e01_hit(new_fight)
    r = f.roll("major_wound", [d3(10)])
    assert payload(r, "turn_started") == {"combatant": "b", "round": 1, "index": 1, "shock": 4}
    attack = payload(f.maneuver("b", "attack", [d3(18)], target="a", weapon="punch"), "attack_rolled")
    assert mods_by_rule(attack["record"]) == {"G-47": -4}


def test_e01_no_consciousness_roll_above_zero_hp(new_fight: NewFight) -> None:
    """E-01/G-44: at HP 5 the victim's turn opens no HT roll to stay conscious."""
    f, _ = e01_hit(new_fight)
    f.roll("major_wound", [d3(10)])
    assert f.open_purposes() == []
    assert f.engine.load(f.fid).combat.current == "b"


def test_e01_impaling_variant_leaves_hp_1_and_reeling() -> None:
    """E-01 variant: 7 penetrating impaling is 14 injury, HP 1, reeling (1 < 5)."""
    assert inj.injury(7, "imp") == 14
    assert derived.reeling(Sheet(hp=15), Condition(hp=15 - 14, fp=10))


def test_e01_crushing_variant_is_not_a_major_wound() -> None:
    """E-01 variant: 7 penetrating crushing is 7 injury, HP 8, shock -4, and 7 <= 7.5 is not major."""
    assert inj.injury(7, "cr") == 7
    assert min(SHOCK_CAP, inj.shock(7, 15)) == 4
    assert not inj.major_wound(7, 15)
    assert not derived.reeling(Sheet(hp=15), Condition(hp=8, fp=10))


# --------------------------------------------------------------------------- E-02


def test_e02a_high_hp_shock_floors_the_product_not_the_divisor() -> None:
    """E-02 a: HPmax 25, injury 7 -> floor(70/25) = 2 shock (not 3 from a floored divisor of 2)."""
    assert inj.shock(7, 25) == 2


def test_e02a_seven_of_twenty_five_is_not_a_major_wound() -> None:
    """E-02 a: 7 <= 12.5 is not a major wound."""
    assert not inj.major_wound(7, 25)


def test_e02b_thirteen_of_twenty_five_is_major_with_capped_shock() -> None:
    """E-02 b: injury 13 on HPmax 25 is major (13 > 12.5), shock floor(130/25) = 5 capped at 4."""
    assert inj.major_wound(13, 25)
    assert inj.shock(13, 25) == 5
    assert min(SHOCK_CAP, inj.shock(13, 25)) == 4


def test_e02c_two_thresholds_crossed_at_once() -> None:
    """E-02 c: HPmax 10 going from 2 to -23 crosses -10 and -20: two death checks, no automatic death."""
    assert inj.death_thresholds(2 - 25, 10, 0) == ([1, 2], False)


def e02c_fight(new_fight: NewFight) -> Fight:
    """E-02 c set-up: b (HPmax 10, HT 10) at HP 2 takes 25 crushing."""
    f = new_fight({"a": {"weapons": [{"name": "maul", "skill": 12, "damage": "4d+1"}]}, "b": {}})
    f.adjust("b", hp=2)
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="maul")
    f.defend("none")
    injury = payload(f.roll("damage", [[6, 6, 6, 6]]), "injury_applied")
    assert injury["hp_after"] == -23 and injury["death_thresholds"] == [1, 2]
    return f


def test_e02c_engine_opens_two_death_checks(new_fight: NewFight) -> None:
    """E-02 c: the engine asks for one HT roll per threshold crossed (A-23), for -1x and -2x HPmax."""
    f = e02c_fight(new_fight)
    checks = [p.options["threshold"] for p in f.prompts if p.options.get("purpose") == "death_check"]
    assert checks == [1, 2]


@pytest.mark.parametrize("failing", [0, 1], ids=["first-fails", "second-fails"])
def test_e02c_either_failed_death_check_kills(new_fight: NewFight, failing: int) -> None:
    """E-02 c: failing either of the two HT rolls (HT 10, roll 11) kills."""
    f = e02c_fight(new_fight)
    for i in range(2):
        if f.cond("b").dead:
            break
        f.roll("death_check", [d3(11 if i == failing else 10)])
    assert f.cond("b").dead


def test_e02c_next_turn_brings_a_consciousness_roll(new_fight: NewFight) -> None:
    """E-02 c/G-44: after surviving both checks, the victim's next turn opens a HT roll vs unconsciousness."""
    f = e02c_fight(new_fight)
    f.roll("death_check", [d3(10)])
    f.roll("death_check", [d3(10)])
    f.roll("major_wound", [d3(10)])
    assert f.engine.load(f.fid).combat.current == "b"
    assert f.open_purposes() == ["consciousness"]


def test_e02d_minus_five_times_hp_is_automatic_death() -> None:
    """E-02 d: at -23 with two checks made, 30 more injury reaches -53 <= -50: automatic death."""
    crossed, dead = inj.death_thresholds(-23 - 30, 10, 2)
    assert dead is True
    assert crossed == [3, 4]


def test_e02d_engine_kills_without_rolls(new_fight: NewFight) -> None:
    """E-02 d through the engine: the injury kills outright and opens no death check."""
    f = new_fight({"a": {"weapons": [{"name": "maul", "skill": 12, "damage": "5d"}]}, "b": {}})
    f.adjust("b", hp=-23, death_checks=2)
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="maul")
    f.defend("none")
    r = f.roll("damage", [[6, 6, 6, 6, 6]])
    injury = payload(r, "injury_applied")
    assert (injury["hp_after"], injury["dead"]) == (-53, True)
    assert "death_check" not in f.open_purposes()
    assert f.cond("b").dead


# --------------------------------------------------------------------------- E-03

E03_ATTACKS = [
    (14, 4, "critical hit"),
    (14, 5, "hit"),
    (15, 5, "critical hit"),
    (15, 6, "hit"),
    (16, 6, "critical hit"),
    (3, 4, "critical hit"),
    (2, 5, "miss"),
    (20, 16, "hit"),
    (20, 17, "miss"),
]


@pytest.mark.parametrize(("skill", "roll", "expected"), E03_ATTACKS,
                         ids=[f"skill{s}-roll{r}" for s, r, _ in E03_ATTACKS])
def test_e03_attack_roll_table(skill: int, roll: int, expected: str) -> None:
    """E-03: each (effective skill, roll) row gives the catalogue's result."""
    assert rolls.attack_outcome(roll, skill) == expected


def test_e03_critical_hit_gets_no_defence(new_fight: NewFight) -> None:
    """E-03: skill 14 rolling 4 is a critical hit: no defence prompt, straight to damage."""
    f = new_fight({"a": {"weapons": [{"name": "sword", "skill": 14}]}, "b": {}})
    r = f.maneuver("a", "attack", [[1, 1, 2]], target="b", weapon="sword")
    assert payload(r, "attack_rolled")["no_defense"] == "critical hit (G-36)"
    assert f.open_purposes() == ["damage"]


def test_e03_ordinary_hit_allows_a_defence(new_fight: NewFight) -> None:
    """E-03: skill 14 rolling 5 is an ordinary hit: the target is asked to defend."""
    f = new_fight({"a": {"weapons": [{"name": "sword", "skill": 14}]}, "b": {}})
    f.maneuver("a", "attack", [[1, 2, 2]], target="b", weapon="sword")
    assert [p.kind for p in f.prompts] == ["defend"]


def test_e03_roll_of_3_does_maximum_damage_without_rolling(new_fight: NewFight) -> None:
    """E-03: a roll of 3 with a 2d+1 weapon does 13 basic damage; no damage dice are asked for."""
    f = new_fight({"a": {"weapons": [{"name": "mace", "skill": 12, "damage": "2d+1"}]}, "b": {"hp": 20}})
    r = f.maneuver("a", "attack", [[1, 1, 1]], target="b", weapon="mace")
    assert payload(r, "attack_rolled")["record"]["outcome"] == "critical hit"
    damage = payload(f.roll("damage", faces=None), "damage_rolled")
    assert (damage["max_damage"], damage["dice"], damage["basic"]) == (True, [6, 6], 13)


def test_e03_dodge_1_rolling_4_succeeds() -> None:
    """E-03/G-38: a defence of 1 still succeeds on a roll of 4."""
    assert rolls.succeeded(rolls.defense_outcome(4, 1))


def test_e03_parry_19_rolling_17_fails() -> None:
    """E-03/G-38: a defence of 19 still fails on a roll of 17."""
    assert rolls.defense_outcome(17, 19) == "failure"


# --------------------------------------------------------------------------- E-04

# Basic Speed 5.75 and Basic Move 5 come from DX 12 + HT 11 = 23.
E04_SHEET = {"dx": 12, "ht": 11, "encumbrance": 2, "shield_skill": 11,
             "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}]}
E04 = Sheet(dx=12, ht=11, encumbrance=2, shield_skill=11, weapons=(Weapon("broadsword", skill=13),))
FRESH = Condition(hp=10, fp=11)


def test_e04_inputs_give_basic_speed_5_75_and_move_5() -> None:
    """E-04 input: DX 12 + HT 11 gives Basic Speed 5.75 and Basic Move 5."""
    assert derived.basic_speed(E04) == Fraction(23, 4)
    assert derived.basic_move(E04) == 5


def test_e04_dodge_is_floor_speed_plus_3_minus_el() -> None:
    """E-04: Dodge = floor(8.75) - 2 = 6."""
    assert derived.dodge(E04, FRESH) == 6


def test_e04_medium_encumbrance_move_is_3() -> None:
    """E-04: Move = floor(5 x 0.6) = 3."""
    assert derived.move(E04, FRESH) == 3


def test_e04_parry_is_3_plus_half_skill() -> None:
    """E-04: Broadsword 13 parries at 3 + 6 = 9."""
    assert derived.parry(E04.weapons[0]) == 9


def test_e04_block_is_3_plus_half_shield() -> None:
    """E-04: Shield 11 blocks at 3 + 5 = 8."""
    assert derived.block(E04) == 8


def e04_defences(new_fight: NewFight, setup: Callable[[Fight], None]) -> dict[str, Any]:
    """The defend prompt b (the E-04 sheet) gets when a hits it after ``setup``."""
    f = new_fight({"a": {"weapons": [{"name": "sword", "skill": 12}]}, "b": E04_SHEET}, order=["b", "a"])
    setup(f)
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="sword")
    return dict(f.prompt("defend").options)


def test_e04_all_out_defense_increased_parry_gives_11(new_fight: NewFight) -> None:
    """E-04/G-24: after All-Out Defense (Increased Parry), Parry is 9 + 2 = 11; Dodge and Block unchanged."""
    opts = e04_defences(new_fight, lambda f: f.maneuver("b", "all_out_defense", option="increased_parry"))
    assert opts["parry"]["broadsword"]["target"] == 11
    assert (opts["dodge"]["target"], opts["block"]["target"]) == (6, 8)


def test_e04_stunned_defends_at_minus_4(new_fight: NewFight) -> None:
    """E-04/G-48: stunned, Dodge 2, Parry 5, Block 4."""
    def stun(f: Fight) -> None:
        f.pass_turn("b")
        f.adjust("b", stunned=True)
    opts = e04_defences(new_fight, stun)
    assert (opts["dodge"]["target"], opts["parry"]["broadsword"]["target"], opts["block"]["target"]) == (2, 5, 4)


def test_e04_reeling_halves_dodge_and_move_rounding_up() -> None:
    """E-04/G-43: reeling (HP 3 of 10), Dodge ceil(6/2) = 3 and Move ceil(3/2) = 2."""
    reeling = Condition(hp=3, fp=11)
    assert (derived.dodge(E04, reeling), derived.move(E04, reeling)) == (3, 2)


def test_e04_reeling_and_tired_quarter_dodge_and_move() -> None:
    """E-04/A-21: reeling and FP < 1/3 (3 of 11): Dodge ceil(3/2) = 2, Move ceil(2/2) = 1."""
    both = Condition(hp=3, fp=3)
    assert (derived.dodge(E04, both), derived.move(E04, both)) == (2, 1)


def test_e04_reeling_and_stunned_dodge_is_minus_1(new_fight: NewFight) -> None:
    """E-04/A-21: reeling then stunned, Dodge 3 - 4 = -1 (the stun penalty comes after the halving)."""
    def hurt(f: Fight) -> None:
        f.pass_turn("b")
        f.adjust("b", hp=3, stunned=True)
    assert e04_defences(new_fight, hurt)["dodge"]["target"] == -1


@pytest.mark.parametrize(("roll", "success"), [(3, True), (4, True), (5, False)])
def test_e04_dodge_minus_1_still_succeeds_on_3_or_4(new_fight: NewFight, roll: int, success: bool) -> None:
    """E-04/G-38: at Dodge -1 a roll of 3 or 4 still succeeds, 5 fails."""
    f = new_fight({"a": {"weapons": [{"name": "sword", "skill": 12}]}, "b": E04_SHEET}, order=["b", "a"])
    f.pass_turn("b")
    f.adjust("b", hp=3, stunned=True)
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="sword")
    r = f.defend("dodge", [d3(roll)])
    assert payload(r, "defense_rolled")["success"] is success


def test_e04_extra_heavy_move_never_below_1() -> None:
    """E-04: Basic Move 4 at Extra-Heavy: floor(0.8) = 0 -> Move 1 (minimum)."""
    heavy = Sheet(dx=12, ht=11, move_bonus=-1, encumbrance=4)
    assert derived.basic_move(heavy) == 4
    assert derived.move(heavy, FRESH) == 1


def test_e04_extra_heavy_dodge_is_8_minus_4() -> None:
    """E-04: at Extra-Heavy, Dodge = 8 - 4 = 4."""
    heavy = Sheet(dx=12, ht=11, move_bonus=-1, encumbrance=4)
    assert derived.dodge(heavy, FRESH) == 4


# --------------------------------------------------------------------------- E-05

def melee(skill: int) -> dict[str, Any]:
    return {"weapons": [{"name": "sword", "skill": skill}]}


def bow(skill: int, bulk: int = -7, acc: int = 3) -> dict[str, Any]:
    return {"weapons": [{"name": "bow", "kind": "ranged", "skill": skill, "acc": acc, "bulk": bulk,
                         "max_range": 200, "damage": "1d+1", "damage_type": "imp", "parry": None}]}


def repeat(f: Fight, times: int, maneuver: str, **args: Any) -> None:
    """a takes ``maneuver`` on ``times`` consecutive turns while b does nothing."""
    for _ in range(times):
        f.maneuver("a", maneuver, **args)
        f.pass_turn("b")


def attack_target(result: Any) -> int:
    return int(payload(result, "attack_rolled")["record"]["target"])


def test_e05a_move_and_attack_melee_capped_at_9(new_fight: NewFight) -> None:
    """E-05 a: skill 15 + Evaluate 1 - 4 = 12, capped at 9 after every modifier (A-15)."""
    f = new_fight({"a": melee(15), "b": {}})
    repeat(f, 1, "evaluate", target="b")
    rec = payload(f.maneuver("a", "move_and_attack", [d3(10)], target="b", weapon="sword"), "attack_rolled")["record"]
    assert mods_by_rule(rec) == {"G-29": 1, "G-32": -4}
    assert rec["target"] == 9 and "cap" in rec


def test_e05b_move_and_attack_melee_minus_4(new_fight: NewFight) -> None:
    """E-05 b: melee skill 12 at Move and Attack is 12 - 4 = 8."""
    f = new_fight({"a": melee(12), "b": {}})
    assert attack_target(f.maneuver("a", "move_and_attack", [d3(10)], target="b", weapon="sword")) == 8


@pytest.mark.parametrize(("bulk", "expected"), [(-4, 10), (-1, 12)])
def test_e05c_move_and_attack_ranged_minus_2_or_bulk(new_fight: NewFight, bulk: int, expected: int) -> None:
    """E-05 c: ranged skill 14 at Move and Attack takes the worse of -2 and Bulk: Bulk -4 -> 10, Bulk -1 -> 12."""
    f = new_fight({"a": bow(14, bulk=bulk), "b": {}})
    assert attack_target(f.maneuver("a", "move_and_attack", [d3(10)], target="b", weapon="bow")) == expected


@pytest.mark.parametrize(("turns", "expected"), [(1, 15), (2, 16), (3, 17), (4, 17)])
def test_e05d_aim_adds_acc_then_1_then_2(new_fight: NewFight, turns: int, expected: int) -> None:
    """E-05 d: Acc 3, skill 12: one Aim -> 15, two -> 16, three or more -> 17."""
    f = new_fight({"a": bow(12), "b": {}})
    repeat(f, turns, "aim", target="b", weapon="bow")
    assert attack_target(f.maneuver("a", "attack", [d3(10)], target="b", weapon="bow")) == expected


def test_e05d_aim_then_all_out_attack_determined_ranged_is_18(new_fight: NewFight) -> None:
    """E-05 d: three Aims then All-Out Attack (Determined, ranged, +1) -> 18."""
    f = new_fight({"a": bow(12), "b": {}})
    repeat(f, 3, "aim", target="b", weapon="bow")
    r = f.maneuver("a", "all_out_attack", [d3(10)], option="determined", target="b", weapon="bow")
    assert attack_target(r) == 18


@pytest.mark.parametrize("evaluates", [3, 4])
def test_e05e_evaluate_stacks_to_3_then_determined_gives_19(new_fight: NewFight, evaluates: int) -> None:
    """E-05 e: three Evaluates then All-Out Attack (Determined), skill 12 -> 19; a fourth Evaluate adds nothing."""
    f = new_fight({"a": melee(12), "b": {}})
    repeat(f, evaluates, "evaluate", target="b")
    r = f.maneuver("a", "all_out_attack", [d3(10)], option="determined", target="b", weapon="sword")
    rec = payload(r, "attack_rolled")["record"]
    assert mods_by_rule(rec) == {"G-29": 3, "G-22": 4}
    assert rec["target"] == 19


FEINTER = {"weapons": [{"name": "broadsword", "skill": 14, "damage": "sw+1", "damage_type": "cut"}]}
FOE = {"dx": 10, "shield_skill": 13, "weapons": [{"name": "sword", "skill": 12}]}


def feint(new_fight: NewFight, feinter_roll: int, foe_roll: int) -> tuple[Fight, dict[str, Any]]:
    """E-05 f set-up: Broadsword 14 feints a foe whose best is Shield 13."""
    f = new_fight({"a": FEINTER, "b": FOE})
    f.maneuver("a", "feint", [d3(feinter_roll)], target="b", weapon="broadsword")
    assert f.prompt("roll", "feint_resist").options["best"] == 13
    return f, payload(f.roll("feint_resist", [d3(foe_roll)]), "feint_resisted")


@pytest.mark.parametrize(("foe_roll", "penalty"), [(11, 3), (14, 5), (8, 0)],
                         ids=["foe-margin-2-wins-by-3", "foe-fails-margin-5", "tie-goes-to-defender"])
def test_e05f_feint_quick_contest(new_fight: NewFight, foe_roll: int, penalty: int) -> None:
    """E-05 f: feinter rolls 9 (margin 5); foe rolls 11 -> -3, 14 (fails) -> -5, 8 (tie) -> feint fails."""
    _, resisted = feint(new_fight, 9, foe_roll)
    assert resisted["penalty"] == penalty


def test_e05f_failed_feint_roll_fails_regardless(new_fight: NewFight) -> None:
    """E-05 f: the feinter rolling 15 against 14 fails the feint even if the foe fails too."""
    _, resisted = feint(new_fight, 15, 16)
    assert resisted["penalty"] == 0


def test_e05f_feint_penalty_applies_to_next_turn_attack(new_fight: NewFight) -> None:
    """E-05 f: after winning by 3, the feinter's next-turn attack leaves the foe -3 on every defence."""
    f, _ = feint(new_fight, 9, 11)
    f.pass_turn("b")
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="broadsword")
    opts = f.prompt("defend").options
    # Foe: DX 10 + HT 10 -> Dodge 8; Shield 13 -> Block 9; sword 12 -> Parry 9.
    assert (opts["dodge"]["target"], opts["block"]["target"], opts["parry"]["sword"]["target"]) == (5, 6, 6)
    assert {"value": -3, "reason": "feinted by A", "rule": "G-30"} in opts["dodge"]["modifiers"]


# --------------------------------------------------------------------------- E-06  (ST 10, BL 20 lb)

THROWER = {"st": 10, "dx": 12}


def throw_multiplier(weight: Fraction, bl: Fraction) -> Fraction:
    """G-13 lookup: the first row whose ratio is at least weight / BL."""
    return next(mult for ratio, mult in THROW_DISTANCE if weight / bl <= ratio)


def throw(new_fight: NewFight, weight: float, yards: int) -> dict[str, Any]:
    f = new_fight({"a": THROWER, "b": {}})
    r = f.maneuver("a", "attack", [d3(10)], target="b", object={"name": "rock", "weight": weight}, range=yards)
    return payload(r, "attack_rolled")


def test_e06_basic_lift_of_st_10_is_20() -> None:
    """E-06 input: ST 10 gives BL 20 lb, thrust 1d-2."""
    assert derived.basic_lift(10) == 20
    assert damage_for_st(10)[0] == (1, -2)


@pytest.mark.parametrize(("weight", "mult", "yards"), [(6, Fraction(1), 10), (2, Fraction(5, 2), 25),
                                                       (50, Fraction(1, 4), Fraction(5, 2))])
def test_e06_throw_distance_uses_the_higher_row(weight: int, mult: Fraction, yards: Fraction) -> None:
    """E-06: 6 lb (0.30 -> 0.40 row) x1.0 = 10 yd; 2 lb (0.10) x2.5 = 25 yd; 50 lb (2.5) x0.25 = 2.5 yd."""
    m = throw_multiplier(Fraction(weight), Fraction(20))
    assert m == mult
    assert 10 * m == yards


@pytest.mark.parametrize(("weight", "in_range", "too_far"), [(6, 10, 11), (2, 25, 26), (50, 2, 3)])
def test_e06_engine_refuses_throws_beyond_the_distance(new_fight: NewFight, weight: int, in_range: int,
                                                       too_far: int) -> None:
    """E-06: the engine lets a 6/2/50-lb object be thrown 10/25/2.5 yd and refuses anything farther."""
    throw(new_fight, weight, in_range)
    with pytest.raises(Rejected) as exc:
        throw(new_fight, weight, too_far)
    assert exc.value.code == "maneuver/out_of_range"


@pytest.mark.parametrize(("weight", "dice", "adds"), [(6, 1, -2), (2, 1, -4), (50, 1, -2)],
                         ids=["6lb-thrust", "2lb-thrust-minus-2-per-die", "50lb-minus-half-die"])
def test_e06_thrown_damage_by_weight(new_fight: NewFight, weight: int, dice: int, adds: int) -> None:
    """E-06/G-14: 6 lb -> thrust 1d-2; 2 lb (<= BL/8) -> 1d-4; 50 lb (<= 4 BL) -> 1d-2 - floor(1/2) = 1d-2; crushing."""
    attack = throw(new_fight, weight, 1)["attack"]
    assert (attack["damage_dice"], attack["damage_adds"], attack["damage_type"]) == (dice, adds, "cr")


def test_e06_throwing_at_a_target_is_dx_minus_3(new_fight: NewFight) -> None:
    """E-06/G-12: hitting a specific target with a thrown object rolls against DX - 3."""
    rec = throw(new_fight, 6, 1)["record"]
    assert (rec["base"], rec["target"]) == (9, 9)


def test_e06_170_lb_cannot_be_thrown(new_fight: NewFight) -> None:
    """E-06: 170 lb > 8 x BL (160) cannot be thrown."""
    with pytest.raises(Rejected) as exc:
        throw(new_fight, 170, 1)
    assert exc.value.code == "maneuver/too_heavy"


@pytest.mark.parametrize("weight", [float("nan"), float("inf"), 0, -1])
def test_a_thrown_object_needs_a_positive_finite_weight(new_fight: NewFight, weight: float) -> None:
    """#15 item 14: NaN or Infinity as a thrown object's weight is maneuver/bad_object, not internal/error."""
    with pytest.raises(Rejected) as exc:
        throw(new_fight, weight, 1)
    assert exc.value.code == "maneuver/bad_object" and exc.value.details["field"] == "object.weight"


def test_e06_standing_jumps_with_basic_move_6() -> None:
    """E-06: Basic Move 6: standing high jump 26 in, broad jump 9 ft."""
    from combat_server.rules.gurps.feats import broad_jump_feet, high_jump_inches

    assert (high_jump_inches(6), broad_jump_feet(6)) == (26, 9)


def test_e06_running_jumps_are_capped_at_twice_standing() -> None:
    """E-06: 4-yd run-up -> 50 in / 17 ft; 6-yd run-up -> capped at 52 in / 18 ft."""
    from combat_server.rules.gurps.feats import broad_jump_feet, high_jump_inches

    assert (high_jump_inches(6, 4), broad_jump_feet(6, 4)) == (50, 17)
    assert (high_jump_inches(6, 6), broad_jump_feet(6, 6)) == (52, 18)


# --------------------------------------------------------------------------- E-07  (FPmax 12)

# ST 11, DX 11 + HT 10 -> Basic Speed 5.25: Move 5, Dodge 8.
E07 = Sheet(st=11, dx=11, ht=10, fp=12)


def test_e07_fp_4_of_12_has_no_effect() -> None:
    """E-07: FP 4 < 4 is false: Move 5, Dodge 8, ST 11."""
    cond = Condition(hp=11, fp=4)
    assert not derived.tired(E07, cond)
    assert (derived.move(E07, cond), derived.dodge(E07, cond), derived.effective_st(E07, cond)) == (5, 8, 11)


def test_e07_fp_3_of_12_halves_move_dodge_and_st_rounding_up() -> None:
    """E-07: FP 3: Move ceil(2.5) = 3, Dodge 4, ST ceil(5.5) = 6."""
    cond = Condition(hp=11, fp=3)
    assert derived.tired(E07, cond)
    assert (derived.move(E07, cond), derived.dodge(E07, cond), derived.effective_st(E07, cond)) == (3, 4, 6)


def test_e07_tired_keeps_hp_and_damage_of_full_st(new_fight: NewFight) -> None:
    """E-07: tired at FP 3, HPmax stays 11 and a swing still does the ST 11 damage 1d+1."""
    f = new_fight({"a": {"st": 11, "dx": 11, "ht": 10, "fp": 12,
                         "weapons": [{"name": "club", "skill": 12, "damage": "sw"}]}, "b": {}})
    f.adjust("a", fp=3)
    attack = payload(f.maneuver("a", "attack", [d3(10)], target="b", weapon="club"), "attack_rolled")["attack"]
    assert (attack["damage_dice"], attack["damage_adds"]) == (1, 1)
    assert f.engine.load(f.fid).combatants["a"].sheet.hp_max == 11


def test_e07_spending_3_fp_from_1_costs_2_hp() -> None:
    """E-07/A-26: at FP 1, spending 3 FP gives FP -2 and costs 2 HP (only points lost at or below 0)."""
    assert inj.spend_fatigue(1, 12, 3) == (-2, 2)


def test_e07_will_roll_before_each_maneuver_at_fp_0_or_less(new_fight: NewFight) -> None:
    """E-07/G-51: at FP -2, choosing Attack first rolls Will."""
    f = new_fight({"a": {"weapons": [{"name": "sword", "skill": 12}]}, "b": {}})
    f.adjust("a", fp=-2)
    r = f.maneuver("a", "attack", [d3(10), d3(10)], target="b", weapon="sword")
    assert [e.type for e in r.events][:2] == ["check_rolled", "maneuver_chosen"]
    assert payload(r, "check_rolled")["purpose"] == "fatigue_will"


def test_e07_no_will_roll_for_do_nothing(new_fight: NewFight) -> None:
    """E-07/G-51: at FP -2, Do Nothing needs no Will roll."""
    f = new_fight({"a": {}, "b": {}})
    f.adjust("a", fp=-2)
    r = f.pass_turn("a")
    assert "check_rolled" not in [e.type for e in r.events]


def test_e07_spending_past_minus_fpmax_stops_there_and_overflows_to_hp() -> None:
    """E-07: at FP -10, spending 4 FP stops at -12 and costs 2 + 2 = 4 HP."""
    assert inj.spend_fatigue(-10, 12, 4) == (-12, 4)


def test_e07_engine_spending_to_minus_fpmax_knocks_out(new_fight: NewFight) -> None:
    """E-07: through the engine, FP -10 spending 4 ends at -12, loses 4 HP, and is unconscious."""
    f = new_fight({"a": {"st": 11, "fp": 12}, "b": {}})
    f.adjust("a", fp=-10)
    r = f.run("spend_fatigue", {"combatant": "a", "points": 4, "reason": "spell"})
    spent = payload(r, "fatigue_spent")
    assert (spent["fp_after"], spent["hp_loss"], spent["unconscious"]) == (-12, 4, True)
    cond = f.cond("a")
    assert (cond.fp, cond.hp, cond.unconscious) == (-12, 7, True)
