"""Success rolls (G-01, A-03), attack criticals (G-36), defence rolls (G-38), and the
roll record every roll event carries: dice, modifiers with reasons and rule ids,
effective target, margin, outcome."""

from __future__ import annotations

from typing import Sequence

import attrs

from combat_server.rules.model import JSON


@attrs.frozen
class Mod:
    value: int
    reason: str
    rule: str

    def to_json(self) -> dict[str, JSON]:
        return {"value": self.value, "reason": self.reason, "rule": self.rule}


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
    """Build the audit record of a 3d roll-under roll."""
    total = sum(dice)
    effective = base + sum(m.value for m in mods)
    capped = ""
    if cap is not None and effective > cap[0]:
        effective, capped = cap[0], f"capped at {cap[0]}: {cap[1]} ({cap[2]})"
    if outcome_fn == "attack":
        outcome = attack_outcome(total, effective)
    elif outcome_fn == "defense":
        outcome = defense_outcome(total, effective)
    else:
        outcome = success_outcome(total, effective, criticals)
    rec: dict[str, JSON] = {
        "purpose": purpose,
        "roller": roller,
        "dice": list(dice),
        "total": total,
        "base": base,
        "base_reason": base_reason,
        "modifiers": [m.to_json() for m in mods if m.value != 0],
        "target": effective,
        "margin": effective - total,
        "outcome": outcome,
        "rule": rule,
    }
    if capped:
        rec["cap"] = capped
    return rec


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
