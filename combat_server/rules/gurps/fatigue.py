"""Fatigue as a fight keeps it: G-51's FP, or GULLIVER's Fatigue on ST (V-53) or HT (V-54)
through the fight's policy. The condition's ``fp`` holds the whole part and ``fp_exact`` the
exact level when it is not whole (A-50: V-52's and V-53's fractions are kept, never rounded).

Why one module: every place that reads fatigue (Move and Dodge halving, the Will roll, the
collapse, the bars, V-50's penalty) asks the same three questions (what is the level, what is
its maximum, what does it do), so they are answered here once, through the policy."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.fatigue import FatigueState
from combat_server.rules.gurps.gulliver.policy import Policy
from combat_server.rules.gurps.gulliver.size import combat_st_of
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Condition


def level(cond: Condition) -> Fraction:
    """The current Fatigue (FP under G-51), exact (A-50)."""
    return Fraction(cond.fp_exact) if cond.fp_exact else Fraction(cond.fp)


def maximum(sheet: Sheet, policy: Policy) -> int:
    """Full Fatigue: G-51's FPmax, V-53's Combat ST or V-54's HT (with bought Extra or Reduced Fatigue)."""
    return policy.fatigue_max(sheet.fp_max, combat_st_of(sheet), sheet.ht)


def state(sheet: Sheet, cond: Condition, policy: Policy) -> FatigueState:
    """What the current level does under the fight's basis (G-51, V-53 or V-54)."""
    return policy.fatigue_state(level(cond), maximum(sheet, policy), combat_st_of(sheet))


def tired(sheet: Sheet, cond: Condition, policy: Policy) -> bool:
    """Move and Dodge halve: G-51 below FPmax/3 (R-04); V-53 at floor(Combat ST/3) or less; V-54 at 3 or less."""
    if not cond.fp_exact and policy.fatigue_basis() == "G-51":  # the hot path: G-51 on whole FP
        return cond.fp * 3 < sheet.fp_max
    return state(sheet, cond, policy).halved


def fatigued_st_general(sheet: Sheet, cond: Condition, policy: Policy) -> int:
    """``fatigued_st`` by the policy's general rule, without its G-51 shortcut (the definition the
    shortcut is tested against: tests/gurps/test_condition_fast_paths.py)."""
    return policy.fatigued_st(combat_st_of(sheet), level(cond), maximum(sheet, policy))


def fatigued_st(sheet: Sheet, cond: Condition, policy: Policy) -> int:
    """ST as fatigue leaves it (G-51 halving, or V-53 / V-54's proportional loss)."""
    if not cond.fp_exact and policy.fatigue_basis() == "G-51":  # the hot path: G-51 on whole FP, no Fraction
        st = combat_st_of(sheet)
        return -((-st) // 2) if cond.fp * 3 < sheet.fp_max else st  # G-51: halved, rounded up, below FPmax/3
    return fatigued_st_general(sheet, cond, policy)


def text(value: Fraction | int) -> str:
    """A level as the log and cards show it: "7", or "57/4" (A-50)."""
    return exact_text(value)


def held(value: Fraction) -> dict[str, Any]:
    """The condition fields that hold ``value``: its floor in ``fp``, the exact text in ``fp_exact``
    only when it is not whole ("" otherwise, so whole levels store as they always did)."""
    return {"fp": math.floor(value), "fp_exact": "" if value.denominator == 1 else exact_text(value)}
