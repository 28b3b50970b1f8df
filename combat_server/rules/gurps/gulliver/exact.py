"""Exact numbers as events and explanations write them: a whole number's digits or "p/q".

Why text and not floats: GULLIVER keeps rationals (V-03, V-07 caps, V-15 thresholds), and a
float in a payload would give different stored bytes on different stores."""

from __future__ import annotations

from fractions import Fraction


def exact_text(value: Fraction | int) -> str:
    """``10`` -> "10", ``Fraction(10, 3)`` -> "10/3"."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def whole_or_exact(value: Fraction | int) -> Fraction | int:
    """A number as the rules carry it: an ``int`` when whole (GURPS's own numbers), else V-03's exact
    Fraction."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


def json_number(value: Fraction | int) -> int | str:
    """A number as a payload holds it: a whole number as an int (what every fight without V-03
    records), a fraction as "p/q" text (never a float: the same bytes on every store)."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else exact_text(value)
