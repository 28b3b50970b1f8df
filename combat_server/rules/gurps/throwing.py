"""Throwing an object (G-12..G-14), as pure numbers: shared by the thrown-object attack
(attacks.py) and the throwing-distance tool (tools/strength.py), so both read the table alike."""

from __future__ import annotations

from fractions import Fraction

from combat_server.rules.gurps.tables import THROW_DISTANCE, damage_for_st

#: G-12 / A-07: nothing heavier than 8 x BL can be thrown.
MAX_THROW_RATIO = 8


def distance_modifier(ratio: Fraction) -> Fraction:
    """G-13 / A-07: the row of the first ratio at or above ``ratio`` (the higher row); below 0.05 the 0.05 row."""
    return next((m for r, m in THROW_DISTANCE if ratio <= r), THROW_DISTANCE[-1][1])


def per_die_modifier(weight: Fraction, bl: Fraction) -> int | None:
    """G-14: the thrust damage's modifier per die for the object's weight; ``None`` for the
    ``<= 4 x BL`` row, whose -1/2 per die is -floor(dice / 2) in total (A-08)."""
    rows: tuple[tuple[Fraction, int | None], ...] = (
        (bl / 8, -2), (bl / 4, -1), (bl / 2, 0), (bl, 1), (2 * bl, 0), (4 * bl, None))
    return next((mod for limit, mod in rows if weight <= limit), -1)


def thrown_damage(st: int, weight: Fraction, bl: Fraction) -> tuple[int, int]:
    """G-14: (dice, adds) of an object thrown with ``st``: thrust, modified by the object's weight."""
    tdice, tadds = damage_for_st(st)[0]
    per_die = per_die_modifier(weight, bl)
    return tdice, tadds + (-(tdice // 2) if per_die is None else per_die * tdice)
