"""Exact numbers as events and explanations write them: a whole number's digits or "p/q".

Why text and not floats: GULLIVER keeps rationals (V-03, V-07 caps, V-15 thresholds), and a
float in a payload would give different stored bytes on different stores."""

from __future__ import annotations

from fractions import Fraction


def exact_text(value: Fraction | int) -> str:
    """``10`` -> "10", ``Fraction(10, 3)`` -> "10/3"."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
