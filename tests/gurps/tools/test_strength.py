"""The strength tools' arithmetic, worked by hand from seed 001 (G-04, G-08, G-13; E-06 in test_e06.py)."""

from __future__ import annotations

from combat_server.rules.kit.calculators import Harm

from .helpers import refused, run


def test_g04_a_precision_task_is_a_dx_roll() -> None:
    assert run("unlisted_feat", kind="precision", dx=12, modifier=-2).result == {"target": 10}


def test_g04_an_endurance_task_is_a_ht_roll() -> None:
    assert run("unlisted_feat", kind="endurance", ht=11).result == {"target": 11}


def test_g04_work_scales_with_basic_lift() -> None:
    """ST 14: BL 196/5 = 39.2 -> 39 (whole from 10 up); 100 lb for an average person (BL 20) -> 100 x 39/20 = 195."""
    assert run("unlisted_feat", kind="work", st=14, reference=100).result == {"scaled": 195}


def test_g04_speed_scales_with_basic_move() -> None:
    """Basic Move 6 against the average 5: 10 -> 12."""
    assert run("unlisted_feat", kind="speed", basic_move=6, reference=10).result == {"scaled": 12}


def test_g08_what_a_weight_allows_from_basic_lift() -> None:
    """ST 10, BL 20: 150 lb is within two-handed lift (160), shove (240), back (300), shift (1000)."""
    calc = run("lifting", st=10, weight=150)
    assert calc.result["can"] == ["two-handed lift", "shove or knock over", "carry on back", "shift slightly"]
    assert calc.result["limits"] == {"one-handed lift": 40, "two-handed lift": 160, "shove or knock over": 240,
                                     "carry on back": 300, "shift slightly": 1000}


def test_g08_a_running_start_doubles_the_shove() -> None:
    assert run("lifting", st=10, weight=400, running_start=True).result["can"][0] == "shove or knock over"


def test_g08_helpers_add_their_basic_lift() -> None:
    """BL 20 + 20 = 40: 300 lb is within two-handed lift (320)."""
    calc = run("lifting", st=10, weight=300, helpers_bl=20)
    assert calc.result["basic_lift"] == 40 and "two-handed lift" in calc.result["can"]


def test_g08_carrying_above_ten_times_bl_costs_one_fp_a_second() -> None:
    """250 lb on the back at BL 20 (> 200, <= 300) for 3 s: 3 FP."""
    assert run("lifting", st=10, weight=250, seconds_carried=3).harm == Harm(dice=0, adds=3, kind="fat", rule="G-08")


def test_g08_carrying_under_ten_times_bl_costs_nothing() -> None:
    assert run("lifting", st=10, weight=200, seconds_carried=3).harm is None


def test_g13_ratios_between_rows_use_the_higher_row() -> None:
    """ST 12, BL 29 (28.8 -> 29): 10 lb is ratio 0.345 -> the 0.40 row, x1.0 -> 12 yd."""
    assert run("throwing", st=12, weight=10).result["distance_yd"] == 12


def test_g13_a07_ratios_below_the_table_use_its_first_row() -> None:
    """ST 10: 0.5 lb is ratio 0.025 -> the 0.05 row, x3.5 -> 35 yd."""
    assert run("throwing", st=10, weight=0.5).result["distance_yd"] == 35


def test_g13_weight_must_be_positive() -> None:
    assert refused("throwing", st=10, weight=0).details["field"] == "weight"
