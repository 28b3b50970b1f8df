"""The data tables (tables.py) the chapter refers to: thrust/swing damage by ST
(catalogue 1.0, Basic Set p. 16), the range/speed table (G-35, A-17), the
throwing-distance table (G-13, A-07), encumbrance rows (G-02), wounding
multipliers (G-42) and dice notation."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps.tables import (
    ENCUMBRANCE,
    THROW_DISTANCE,
    WOUND_MULTIPLIERS,
    damage_for_st,
    format_dice,
    parse_dice,
    range_speed_modifier,
)

# --------------------------------------------------------------------------- damage table

DAMAGE_ROWS = [
    (1, "1d-6", "1d-5"),
    (5, "1d-4", "1d-3"),
    (9, "1d-2", "1d-1"),
    (10, "1d-2", "1d"),
    (11, "1d-1", "1d+1"),
    (12, "1d-1", "1d+2"),
    (13, "1d", "2d-1"),
    (14, "1d", "2d"),
    (15, "1d+1", "2d+1"),
    (16, "1d+1", "2d+2"),
    (17, "1d+2", "3d-1"),
    (18, "1d+2", "3d"),
    (20, "2d-1", "3d+2"),
]


@pytest.mark.parametrize(("st", "thrust", "swing"), DAMAGE_ROWS, ids=[f"ST{r[0]}" for r in DAMAGE_ROWS])
def test_damage_table_rows(st: int, thrust: str, swing: str) -> None:
    """Catalogue 1.0 (anchor ST 10: thr 1d-2, sw 1d) and Basic Set p. 16: thrust and swing by ST."""
    assert damage_for_st(st) == (parse_dice(thrust), parse_dice(swing))


def test_damage_table_between_rows_uses_the_row_below() -> None:
    """Above ST 40 rows come every 5 ST: ST 43 uses the ST 40 row (4d+1 / 7d-1)."""
    assert damage_for_st(43) == ((4, 1), (7, -1))


def test_damage_table_averages_never_decrease_with_st() -> None:
    """The damage table is monotone: a stronger character never has a lower average thrust or swing."""
    def avg(d: tuple[int, int]) -> Fraction:
        return Fraction(7, 2) * d[0] + d[1]

    rows = [damage_for_st(st) for st in range(1, 101)]
    for weaker, stronger in zip(rows, rows[1:]):
        assert avg(stronger[0]) >= avg(weaker[0]) and avg(stronger[1]) >= avg(weaker[1])


# --------------------------------------------------------------------------- dice notation


@pytest.mark.parametrize(("spec", "parsed"), [("2d+1", (2, 1)), ("1d-2", (1, -2)), ("3d", (3, 0)),
                                              (" 2d + 1 ", (2, 1)), ("d", (1, 0))])
def test_parse_dice(spec: str, parsed: tuple[int, int]) -> None:
    """Dice notation nd+k reads as (n, k); spaces are ignored and a bare 'd' is one die."""
    assert parse_dice(spec) == parsed


@pytest.mark.parametrize("spec", ["12", "two dice", "2d+x", ""])
def test_parse_dice_refuses_non_dice(spec: str) -> None:
    """Text that is not nd+k is refused with ValueError."""
    with pytest.raises(ValueError):
        parse_dice(spec)


@pytest.mark.parametrize(("dice", "adds", "text"), [(1, -2, "1d-2"), (3, 0, "3d"), (2, 1, "2d+1")])
def test_format_dice_round_trips(dice: int, adds: int, text: str) -> None:
    """format_dice writes the catalogue's notation and parse_dice reads it back."""
    assert format_dice(dice, adds) == text
    assert parse_dice(text) == (dice, adds)


# --------------------------------------------------------------------------- G-35 / A-17 range and speed


@pytest.mark.parametrize(("yards", "mod"), [(0, 0), (2, 0), (3, -1), (4, -2), (5, -2), (6, -3), (7, -3), (10, -4),
                                            (11, -5), (20, -6), (100, -10), (101, -11), (1000, -16)])
def test_a17_range_speed_uses_the_first_bound_at_least_the_sum(yards: int, mod: int) -> None:
    """G-35/A-17: range + speed is looked up at the first bound >= the sum."""
    assert range_speed_modifier(yards) == mod


def test_a17_range_speed_keeps_falling_beyond_the_table() -> None:
    """A-17: beyond 1000 yd the modifier keeps getting worse, never better."""
    assert range_speed_modifier(1001) < -16
    assert range_speed_modifier(5000) <= range_speed_modifier(1001)


# --------------------------------------------------------------------------- G-13 / A-07 throwing


def test_g13_throwing_table_is_implemented_exactly() -> None:
    """G-13/A-07: the table's 15 rows, as given (ratios 10 and 12 included)."""
    F = Fraction
    assert THROW_DISTANCE == (
        (F("0.05"), F("3.5")), (F("0.10"), F("2.5")), (F("0.15"), F("2.0")), (F("0.20"), F("1.5")),
        (F("0.40"), F("1.0")), (F("0.50"), F("0.8")), (F("1.0"), F("0.60")), (F("1.5"), F("0.40")),
        (F("2.0"), F("0.30")), (F("2.5"), F("0.25")), (F("3.0"), F("0.20")), (F("4.0"), F("0.15")),
        (F("6.0"), F("0.10")), (F("10"), F("0.06")), (F("12"), F("0.05")),
    )


# --------------------------------------------------------------------------- G-02 / G-42 rows


def test_g02_encumbrance_rows() -> None:
    """G-02: limits 1/2/3/6/10 x BL, Move x1/0.8/0.6/0.4/0.2, Dodge -0..-4."""
    assert [(lim, mult, dodge) for lim, mult, dodge in ENCUMBRANCE] == [
        (1, Fraction(1), 0), (2, Fraction(4, 5), -1), (3, Fraction(3, 5), -2), (6, Fraction(2, 5), -3),
        (10, Fraction(1, 5), -4)]


def test_g42_wounding_multipliers() -> None:
    """G-42: crushing x1, cutting x1.5, impaling x2."""
    assert WOUND_MULTIPLIERS == {"cr": 1, "cut": Fraction(3, 2), "imp": 2}
