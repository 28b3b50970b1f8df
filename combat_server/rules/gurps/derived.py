"""Derived scores (G-02, G-39..G-41, G-43, G-51): computed from the sheet and the
live condition, never typed in. Fractions stay exact until a rule rounds."""

from __future__ import annotations

import math
from fractions import Fraction

from combat_server.rules.gurps.gulliver.damage_tables import DamageRoll
from combat_server.rules.gurps import fatigue
from combat_server.rules.gurps.gulliver.fatigue import SUPER_HEAVY
from combat_server.rules.gurps.gulliver.policy import OFF, Policy
from combat_server.rules.gurps.gulliver.size import scale_of
from combat_server.rules.gurps.sheet import Sheet, Weapon
from combat_server.rules.gurps.state import Condition, exact_hp
from combat_server.rules.gurps.tables import ENCUMBRANCE, parse_dice


def basic_lift(st: int) -> Fraction:
    """BL = ST^2/5 lb, rounded to a whole number when 10 or more (catalogue 1.0)."""
    bl = Fraction(st * st, 5)
    return Fraction(round(bl)) if bl >= 10 else bl


def basic_speed(sheet: Sheet) -> Fraction:
    """(HT + DX) / 4, fractions kept (catalogue 1.0)."""
    return Fraction(sheet.ht + sheet.dx, 4) + Fraction(sheet.speed_bonus_quarters, 4)


def basic_move(sheet: Sheet) -> int:
    return math.floor(basic_speed(sheet)) + sheet.move_bonus


def lift_st(sheet: Sheet, policy: Policy = OFF) -> int:
    """The ST that lifts and carries: GULLIVER V-01's Load ST (the ``gulliver`` block's, A-27) when
    the fight uses Combat and Load ST, else the sheet's ST (G-02)."""
    return policy.lift_st(sheet.st, scale_of(sheet))


def carrying_bl(sheet: Sheet, policy: Policy = OFF) -> Fraction:
    """Basic Lift for what the combatant carries (G-02's encumbrance, V-52's Super-Heavy): BL of
    :func:`lift_st` (V-01: Load ST's)."""
    return basic_lift(lift_st(sheet, policy))


def encumbrance_level(sheet: Sheet, policy: Policy = OFF) -> int:
    """G-02: the lowest level whose limit (a multiple of BL) covers the carried weight; V-01: BL of
    Load ST (a typed-in level stays as typed)."""
    if sheet.encumbrance is not None:
        return sheet.encumbrance
    if sheet.carried <= 0:
        return 0
    bl = carrying_bl(sheet, policy)
    carried = Fraction(sheet.carried).limit_denominator(1000)
    for level, (limit, _mult, _dodge) in enumerate(ENCUMBRANCE):
        if carried <= limit * bl:
            return level
    return 4  # over 10 x BL: still Extra-Heavy (the FP cost per second is the GM's call, G-08)


def fatigue_load(sheet: Sheet, policy: Policy = OFF) -> int:
    """V-52's load level: G-02's 0..4, or Super-Heavy (5) for a carried weight over 10 x BL
    (V-01: Load ST's BL; a typed-in level stays as typed)."""
    level = encumbrance_level(sheet, policy)
    if sheet.encumbrance is None and level == 4 and Fraction(sheet.carried).limit_denominator(1000) > \
            ENCUMBRANCE[4][0] * carrying_bl(sheet, policy):
        return SUPER_HEAVY
    return level


def reeling(sheet: Sheet, cond: Condition) -> bool:
    """G-43: HP below one third of HPmax (V-03's exact HP when fractional damage left a fraction)."""
    return exact_hp(cond) * 3 < sheet.hp_max


def tired(sheet: Sheet, cond: Condition, policy: Policy = OFF) -> bool:
    """G-51 (R-04): FP below one third of FPmax; V-53 / V-54 through the policy (fatigue.tired)."""
    return fatigue.tired(sheet, cond, policy)


def _half_up(value: int) -> int:
    return -((-value) // 2)


def halvings(value: int, sheet: Sheet, cond: Condition | None, policy: Policy = OFF) -> int:
    """A-21 steps 2 and 3: injury halving (G-43) then fatigue halving (G-51, or V-53 / V-54's
    thresholds), each rounding up."""
    if cond is not None:
        return halved(value, reeling(sheet, cond), tired(sheet, cond, policy))
    return value


def halved(value: int, is_reeling: bool, is_tired: bool) -> int:
    """A-21 steps 2 and 3 given the answers of :func:`reeling` (G-43) and :func:`tired` (G-51, V-53,
    V-54): a combatant's view halves both Move and Dodge and shows both answers, so it asks each
    question once instead of three times (issue 16, server CPU per push)."""
    if is_reeling:
        value = _half_up(value)  # G-43
    if is_tired:
        value = _half_up(value)  # G-51 (V-53, V-54)
    return value


def unhurt_move(sheet: Sheet, policy: Policy = OFF) -> int:
    """G-02 / A-21 step 1: Basic Move x the encumbrance multiplier, floor, minimum 1 (V-01: the
    level by Load ST)."""
    return max(1, math.floor(basic_move(sheet) * ENCUMBRANCE[encumbrance_level(sheet, policy)][1]))


def defence_bonus(sheet: Sheet) -> int:
    """A ready shield's DB plus Combat Reflexes' +1, on every active defence: what GCS adds
    (its dodge/parry/block bonuses), so an imported sheet defends as its GCS file says."""
    return sheet.db + (1 if "Combat Reflexes" in sheet.traits else 0)


def unhurt_dodge(sheet: Sheet, policy: Policy = OFF) -> int:
    """G-39 / G-02: floor(Basic Speed + 3) + defence bonus - EL, minimum 1 (V-01: EL by Load ST)."""
    return max(1, math.floor(basic_speed(sheet) + 3) + defence_bonus(sheet) - encumbrance_level(sheet, policy))


def move(sheet: Sheet, cond: Condition | None = None, policy: Policy = OFF) -> int:
    """A-21 order: encumbrance (floor, min 1), injury halving (ceil), fatigue halving (ceil)."""
    return halvings(unhurt_move(sheet, policy), sheet, cond, policy)


def dodge(sheet: Sheet, cond: Condition | None = None, policy: Policy = OFF) -> int:
    """G-39: floor(Basic Speed + 3) - EL, min 1 (G-02); then G-43 and G-51 halvings."""
    return halvings(unhurt_dodge(sheet, policy), sheet, cond, policy)


def effective_st(sheet: Sheet, cond: Condition, policy: Policy = OFF) -> int:
    """G-51: ST halves (round up) below 1/3 FP; HP and damage keep the full ST (V-47: nor are they
    recalculated under GULLIVER). V-53 / V-54: Combat ST falls in proportion to Fatigue."""
    return fatigue.fatigued_st(sheet, cond, policy)


def parry(weapon: Weapon, sheet: Sheet | None = None) -> int | None:
    """G-41: 3 + floor(skill / 2) + the weapon's parry bonus (+ the sheet's defence bonus);
    None if it cannot parry."""
    if weapon.parry is None or weapon.kind == "ranged":
        return None
    return 3 + weapon.skill // 2 + weapon.parry + (defence_bonus(sheet) if sheet is not None else 0)


def block(sheet: Sheet) -> int | None:
    """G-40: 3 + floor(Shield or Cloak skill / 2) + defence bonus; None without a shield."""
    if sheet.shield_skill is None:
        return None
    return 3 + sheet.shield_skill // 2 + defence_bonus(sheet)


def damage_kind(w: Weapon) -> str:
    """What a weapon's roll does, as its damage text shows it: its damage type, or "shock" for a
    stunner, whose roll is shock dealt directly (GULLIVER V-17)."""
    return "shock" if w.shock_only else w.damage_type


def weapon_damage(sheet: Sheet, weapon: Weapon, policy: Policy = OFF) -> tuple[int, int]:
    """The weapon's damage as (dice, adds): thr/sw from the fight's ST table (G's, or GULLIVER's
    V-66 / V-67 through the policy) plus adds, or fixed dice."""
    return weapon_roll(sheet, weapon, policy).pair


def weapon_roll(sheet: Sheet, weapon: Weapon, policy: Policy = OFF) -> DamageRoll:
    """The weapon's damage roll: thr/sw by the fight's ST table for the sheet's ST (V-01: its Combat ST;
    V-03: below ST 10, the ST 10 roll x ST/10, kept as the roll's exact ``scale``) plus the weapon's
    adds, or fixed dice (x1)."""
    spec = weapon.damage
    scale = scale_of(sheet)
    if spec.startswith("thr"):
        roll = policy.thrust(sheet.st, scale)
        rest = spec[3:]
    elif spec.startswith("sw"):
        roll = policy.swing(sheet.st, scale, weapon_lb=weapon.weight)
        rest = spec[2:]
    else:
        return DamageRoll(*parse_dice(spec))
    return DamageRoll(roll.dice, roll.adds + (int(rest) if rest else 0), roll.scale)


def half_move(move_value: int) -> int:
    """A-12: floor(Move / 2), minimum 1 step."""
    return max(1, move_value // 2)
