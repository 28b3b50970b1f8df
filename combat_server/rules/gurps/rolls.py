"""Success rolls (G-01, A-03), attack criticals (G-36), defence rolls (G-38), and the
kit's roll record (rules/kit/rolls.py) of a 3d roll-under roll judged by them."""

from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from combat_server.rules.kit.rolls import Mod, record as kit_record
from combat_server.rules.model import JSON

__all__ = ["Mod", "attack_outcome", "defense_outcome", "quick_contest", "record", "succeeded",
           "success_outcome"]


def success_outcome(total: int, effective: int, criticals: bool = True) -> str:
    """G-01 with A-03 criticals: 'critical success' | 'success' | 'failure' | 'critical failure'.

    With ``criticals`` off (the per-fight option ``generic_criticals``) a roll is
    simply a success at or under the effective number.
    """
    if not criticals:
        return "success" if total <= effective else "failure"
    if total <= 4 or (total == 5 and effective >= 15) or (total == 6 and effective >= 16):
        return "critical success"
    if total == 18 or (total == 17 and effective <= 15) or total >= effective + 10:
        return "critical failure"
    if total >= 17:
        return "failure"
    return "success" if total <= effective else "failure"


def attack_outcome(total: int, effective: int) -> str:
    """G-36 / A-18: 'critical hit' (3-4; 5 at >= 15; 6 at >= 16), 'hit', or 'miss' (17-18 always)."""
    if total <= 4 or (total == 5 and effective >= 15) or (total == 6 and effective >= 16):
        return "critical hit"
    if total >= 17:
        return "miss"
    return "hit" if total <= effective else "miss"


def defense_outcome(total: int, effective: int) -> str:
    """G-38: 3-4 always succeed, 17-18 always fail, otherwise roll <= effective defence."""
    if total <= 4:
        return "critical success" if total <= 4 else "success"
    if total >= 17:
        return "failure"
    return "success" if total <= effective else "failure"


def succeeded(outcome: str) -> bool:
    return outcome in ("success", "critical success", "hit", "critical hit")


def record(
    *,
    purpose: str,
    roller: str,
    dice: Sequence[int],
    base: int,
    base_reason: str,
    mods: Sequence[Mod],
    outcome_fn: str = "success",
    rule: str,
    cap: tuple[int, str, str] | None = None,
    criticals: bool = True,
) -> dict[str, JSON]:
    """The audit record of a 3d roll-under roll, judged as a success roll, an attack or a defence."""
    judge: Callable[[int, int], str] = partial(success_outcome, criticals=criticals)
    if outcome_fn == "attack":
        judge = attack_outcome
    elif outcome_fn == "defense":
        judge = defense_outcome
    return kit_record(purpose=purpose, roller=roller, dice=dice, base=base, base_reason=base_reason, mods=mods,
                      judge=judge, rule=rule, cap=cap)


def quick_contest(margin_a: int, ok_a: bool, margin_b: int, ok_b: bool) -> int:
    """G-01: +1 if A wins, -1 if B wins, 0 for a tie (succeed by more / fail by less)."""
    if ok_a and not ok_b:
        return 1
    if ok_b and not ok_a:
        return -1
    if margin_a > margin_b:
        return 1
    if margin_b > margin_a:
        return -1
    return 0
