"""Death and knockout thresholds: GURPS's (G-44, G-45), GULLIVER's half-HP steps (V-15,
A-36) and the monster options (V-60, V-61, V-62, A-52), and the finishing blow (V-59).

Why thresholds are indexed 1, 2, ...: the gurps condition counts the death checks
already rolled (``Condition.death_checks``); a schedule with eight steps instead of
four keeps that one integer meaning "rolled up to here"."""

from __future__ import annotations

from fractions import Fraction

from combat_server.rules.gurps.rolls import Mod

Number = Fraction | int

AUTOMATIC_DEATH = 5  # x HPmax, G-45 and V-15


def schedule(hp_max: Number, half_steps: bool, zone: Fraction = Fraction(1)) -> tuple[tuple[Fraction, ...], Fraction]:
    """The death-check thresholds (as HP values) and the automatic-death HP.

    G-45: -1, -2, -3, -4 x HPmax. V-15: -1, -1.5, ... -4.5 x HPmax (eight rolls).
    V-61: every threshold x IQ/10 for a low-IQ monster (A-52: automatic death too)."""
    steps = [Fraction(2 + i, 2) for i in range(8)] if half_steps else [Fraction(k) for k in range(1, 5)]
    return tuple(-s * hp_max * zone for s in steps), -AUTOMATIC_DEATH * hp_max * zone


def multiple(k: int, half_steps: bool) -> Fraction:
    """The k-th death check's threshold as a multiple of -HPmax: G-45 k; V-15 (k + 1) / 2."""
    return Fraction(k + 1, 2) if half_steps else Fraction(k)


def crossed(new_hp: Number, hp_max: Number, already: int, half_steps: bool,
            zone: Fraction = Fraction(1)) -> tuple[list[int], bool]:
    """A-23 / A-36: the thresholds (1-based) beyond ``already`` that HP has reached (one roll
    each), and whether death is automatic."""
    thresholds, auto = schedule(hp_max, half_steps, zone)
    hits = [i for i, t in enumerate(thresholds, start=1) if i > already and new_hp <= t]
    return hits, new_hp <= auto


def zone(iq: int) -> Fraction:
    """V-61: a low-IQ monster's below-zero HP is scaled by IQ/10 (IQ 10 or more: unchanged)."""
    return Fraction(iq, 10) if iq < 10 else Fraction(1)


def consciousness_bonus(racial_iq: int) -> Mod | None:
    """V-60: +1 per point of racial IQ below 10 to rolls to stay conscious."""
    if racial_iq >= 10:
        return None
    return Mod(10 - racial_iq, f"monster, racial IQ {racial_iq}", "V-60")


def fresh_roll_due(fresh_injury: Number, hp_max: Number) -> bool:
    """V-60: after a successful roll the monster stays up until fresh injury of HPmax/10 or more."""
    return fresh_injury * 10 >= hp_max
