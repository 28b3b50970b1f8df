"""E-06 (catalogue section 6) as a test of the throwing and jumping tools: ST 10, BL 20 lb, Basic Move 6."""

from __future__ import annotations

from .helpers import refused, run


def test_e06_six_pound_rock_flies_ten_yards_at_plain_thrust() -> None:
    """Ratio 0.30 -> the 0.40 row (x1.0) -> 10 yd; > BL/4 and <= BL/2: thrust unmodified (1d-2 at ST 10)."""
    calc = run("throwing", st=10, weight=6)
    assert calc.result["distance_yd"] == 10
    assert calc.result["damage"] == "1d-2 cr"
    assert calc.result["hands"] == 1


def test_e06_two_pound_rock_flies_25_yards_at_minus_two_per_die() -> None:
    """Ratio 0.10 -> x2.5 -> 25 yd; 2 <= BL/8 (2.5): thrust -2 per die: 1d-2-2 = 1d-4."""
    calc = run("throwing", st=10, weight=2)
    assert calc.result["distance_yd"] == 25
    assert calc.result["damage"] == "1d-4 cr"


def test_e06_fifty_pound_sack_flies_two_and_a_half_yards_two_handed() -> None:
    """Ratio 2.5 -> x0.25 -> 2.5 yd (kept exact: 5/2); > 2 x BL: two hands; <= 4 x BL: -floor(1/2) = 0 -> 1d-2."""
    calc = run("throwing", st=10, weight=50)
    assert calc.result["distance_yd"] == "5/2"
    assert calc.result["hands"] == 2
    assert calc.result["damage"] == "1d-2 cr"


def test_e06_a_170_pound_object_cannot_be_thrown() -> None:
    """170 lb > 8 x BL (160): refused naming the weight (G-12, A-07)."""
    error = refused("throwing", st=10, weight=170)
    assert error.code == "tool/bad_input" and error.details["field"] == "weight"


def test_e06_standing_jumps_with_basic_move_6() -> None:
    calc = run("jumping", basic_move=6)
    assert calc.result == {"high_in": 26, "broad_ft": 9}


def test_e06_four_yard_run_up_stays_under_the_cap() -> None:
    """High 6 x 10 - 10 = 50 (<= 52); broad 2 x 10 - 3 = 17 (<= 18)."""
    assert run("jumping", basic_move=6, run_up=4).result == {"high_in": 50, "broad_ft": 17}


def test_e06_six_yard_run_up_is_capped_at_twice_the_standing_jump() -> None:
    """High 62 -> 52; broad 21 -> 18 (G-07 cap)."""
    calc = run("jumping", basic_move=6, run_up=6)
    assert calc.result == {"high_in": 52, "broad_ft": 18}
    assert [s.value for s in calc.steps] == [26, 52, 9, 18]
