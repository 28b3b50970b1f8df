"""SHELL combat spellcasting (S-44, R-17): whether concentration survives a
round, and what a spell costs. The task roll itself is resolution.spell_target."""

from __future__ import annotations

import attrs


@attrs.frozen
class Interruption:
    lost: bool
    wp_roll: bool  # the cinematic option lets the caster roll WP to keep the spell


def concentration(steps_moved: int, defended: bool, damaged: bool, cinematic: bool = False) -> Interruption:
    """S-44: more than one step, a block or a dodge, or actual damage loses the spell.
    With ``cinematic_casting``, moving or defending calls a WP roll instead; damage
    still loses it. R-17: a lost spell costs no END."""
    if damaged:
        return Interruption(True, False)
    if steps_moved > 1 or defended:
        return Interruption(not cinematic, cinematic)
    return Interruption(False, False)


def rolls_now(casting_time: int, rounds_concentrated: int) -> bool:
    """S-44: casting time 0 rolls this turn; N > 0 rolls after N uninterrupted turns."""
    return rounds_concentrated >= casting_time

