"""GULLIVER's changes to a blow's damage before DR: All-Out Attack's +33% (V-02, R-09,
A-29), split HP (V-04), finishing a helpless monster (V-59) and V-68's +1 per die for
attacks ST does not power. Pure numbers; the policy picks which apply."""

from __future__ import annotations

import math
from fractions import Fraction

from combat_server.rules.gurps.rolls import Mod


def aoa_strong_standard(dice: int) -> Mod:
    """G-22: All-Out Attack (Strong) adds +2, or +1 per die if that is more (as ``attacks.roll_damage``)."""
    return Mod(max(2, dice), "All-Out Attack (Strong): +2 or +1 per die", "G-22")


def aoa_strong_percent(rolled: int) -> Mod:
    """V-02 / R-09 / A-29: +33% of the rolled damage, rounded up, in place of G-22's bonus
    (a roll of 8 -> ceil(2.64) = +3)."""
    return Mod(math.ceil(Fraction(max(0, rolled) * 33, 100)), "All-Out Attack (Strong): +33% of the damage rolled",
               "V-02")


def split_hp_factor(base_hp: int, other_half_hp: int) -> Fraction:
    """V-04: damage to the non-base half is multiplied by base HP / that half's HP before it
    reaches the single pool (horse 24 base, human half 12 -> x2)."""
    return Fraction(base_hp, other_half_hp)


def maximum_damage(dice: int, adds: int) -> int:
    """V-59: a deliberate killing blow on a helpless foe may be ruled maximum damage."""
    return max(0, 6 * dice + adds)


#: V-59: the brain multiplier for a finishing blow (the skull location's x4).
FINISHING_BRAIN_MULTIPLIER = Fraction(4)


def non_st_bonus(dice: int) -> Mod:
    """V-68: attacks not powered by ST (a fireball) get +1 per die, since Toughness now
    takes from them what the New ST table added to muscle."""
    return Mod(dice, "+1 per die for an attack not powered by ST (Toughness with the new ST table)", "V-68")
