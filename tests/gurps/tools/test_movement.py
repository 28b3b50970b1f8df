"""The movement tools' arithmetic, worked by hand from seed 001 (G-03, G-05, G-07, G-10, G-11)."""

from __future__ import annotations

from combat_server.rules.kit.calculators import Harm

from .helpers import refused, rules_cited, run


# G-03
def test_g03_climbing_and_stealth_lose_the_encumbrance_level() -> None:
    assert run("encumbrance_penalty", encumbrance=2, skill="climbing").result == {"penalty": -2}
    assert run("encumbrance_penalty", encumbrance=3, skill="stealth", level=12).result == {"penalty": -3,
                                                                                          "effective": 9}


def test_g03_swimming_loses_twice_the_encumbrance_level() -> None:
    assert run("encumbrance_penalty", encumbrance=2, skill="swimming", level=13).result == {"penalty": -4,
                                                                                           "effective": 9}


# G-05
def test_g05_climbing_defaults_to_dx_minus_5_plus_the_climb_modifier_minus_el() -> None:
    """DX 12 -> 7; stone wall -3; EL 1 -> 3."""
    calc = run("climbing", climb="stone_wall", height=20, dx=12, encumbrance=1)
    assert calc.result["target"] == 3
    assert "G-05" in rules_cited(calc) and "G-03" in rules_cited(calc)


def test_g05_a_roll_to_start_and_another_every_five_minutes() -> None:
    """Stone wall at combat speed, 1 ft per 5 s: 100 ft = 500 s -> rolls at 0 and 300 s: 2."""
    calc = run("climbing", climb="stone_wall", height=100, speed="combat", skill=12)
    assert calc.result["seconds"] == 500
    assert calc.result["rolls"] == 2


def test_g05_combat_speed_costs_one_fp_per_roll_to_apply() -> None:
    calc = run("climbing", climb="stone_wall", height=100, speed="combat", skill=12)
    assert calc.harm == Harm(dice=0, adds=2, kind="fat", rule="G-05")


def test_g05_regular_speed_costs_no_fp() -> None:
    """A-05: rope down without equipment is -1; 30 ft/min: 60 ft in 120 s, one roll, skill 14 - 1 - EL 1 = 12."""
    calc = run("climbing", climb="rope_down", height=60, skill=14, encumbrance=1)
    assert (calc.result["seconds"], calc.result["rolls"], calc.result["target"]) == (120, 1, 12)
    assert calc.harm is None


def test_g05_a05_modern_building_is_one_foot_per_ten_seconds() -> None:
    assert run("climbing", climb="modern_building", height=3, speed="combat", skill=10).result["seconds"] == 30


def test_g05_a_ladder_needs_no_roll() -> None:
    """Ladder up at combat speed: 3 rungs/s, 12 rungs in 4 s, no roll."""
    calc = run("climbing", climb="ladder_up", height=12, speed="combat")
    assert calc.result == {"seconds": 4, "rolls": 0}


# G-07 (E-06 in test_e06.py)
def test_g07_run_up_adds_its_yards_to_basic_move() -> None:
    """BM 5, 2 yd: high 6 x 7 - 10 = 32 (cap 40), broad 2 x 7 - 3 = 11 (cap 14)."""
    assert run("jumping", basic_move=5, run_up=2).result == {"high_in": 32, "broad_ft": 11}


# G-10
def test_g10_paced_running_is_half_of_sprint_speed() -> None:
    """Move 7: sprint 7 x 1.2 = 8.4 (42/5), paced 4.2 (21/5)."""
    calc = run("running", move=7, fp=10, fp_max=10)
    assert (calc.result["sprint"], calc.result["paced"]) == ("42/5", "21/5")


def test_g10_a_ht_roll_per_15_seconds_sprinting_or_minute_paced() -> None:
    """30 s sprinting (2) + 2 minutes paced (2) = 4 HT rolls."""
    assert run("running", move=7, fp=10, fp_max=10, sprint_seconds=30, paced_minutes=2).result["ht_rolls"] == 4


def test_g10_r04_fp_of_a_third_or_less_halves_move() -> None:
    """R-04: FP 3 of 9 is 1/3 or less: Move 7 -> 7/2, sprint 21/5, paced 21/10."""
    calc = run("running", move=7, fp=3, fp_max=9)
    assert (calc.result["sprint"], calc.result["paced"]) == ("21/5", "21/10")
    assert "R-04" in rules_cited(calc)


def test_g10_failed_rolls_cost_one_fp_each_to_apply() -> None:
    calc = run("running", move=7, fp=10, fp_max=10, sprint_seconds=45, failed_rolls=2)
    assert calc.harm == Harm(dice=0, adds=2, kind="fat", rule="G-10")


def test_g10_more_failures_than_rolls_is_refused_naming_the_field() -> None:
    error = refused("running", move=7, fp=10, fp_max=10, sprint_seconds=30, failed_rolls=3)
    assert error.code == "tool/bad_input" and error.details["field"] == "failed_rolls"


# G-11
def test_g11_swimming_roll_minus_twice_el_plus_3_if_intentional() -> None:
    """Swimming 12, EL 1, entered intentionally: 12 - 2 + 3 = 13."""
    calc = run("swimming", skill=12, basic_move=5, ht=10, encumbrance=1, intentional=True, fp=10, fp_max=10)
    assert calc.result["target"] == 13


def test_g11_water_move_is_a_fifth_of_basic_move_at_least_1() -> None:
    def water(bm: int) -> object:
        return run("swimming", skill=12, basic_move=bm, ht=10, fp=10, fp_max=10).result["water_move"]
    assert (water(4), water(6), water(10)) == (1, 1, 2)


def test_g11_r04_water_move_halves_at_a_third_of_fp() -> None:
    assert run("swimming", skill=12, basic_move=10, ht=10, fp=4, fp_max=12).result["water_move"] == 1


def test_g11_top_speed_rolls_use_the_higher_of_ht_and_swimming() -> None:
    assert run("swimming", skill=9, basic_move=5, ht=11, fp=10, fp_max=10).result["endurance"] == 11


def test_bad_climbing_inputs_name_the_field() -> None:
    assert refused("climbing", climb="stone_wall", height=-1).details["field"] == "height"
    error = refused("climbing", climb="glacier", height=10)
    assert error.details["field"] == "climb" and "stone_wall" in error.details["known"]
    assert refused("climbing", height=10).code == "tool/missing_input"
    assert refused("climbing", climb="tree", height=10, altitude=3).code == "tool/unknown_input"
