"""The roll record every roll event carries: the dice, the base number and why, each
modifier with its reason and rule id, the effective target, the margin and the
outcome. It is the audit a contested ruling is settled with; how the outcome is
judged (roll under, roll over, criticals) is the ruleset's ``judge``."""

from __future__ import annotations

from typing import Callable, Sequence

import attrs

from combat_server.rules.model import JSON

#: Fields of a roll record that reveal the roller's sheet: a reader who may not see it keeps
#: the dice, total, outcome and rule.
RECORD_SECRETS = ("base", "base_reason", "modifiers", "target", "margin", "cap")


@attrs.frozen
class Mod:
    value: int
    reason: str
    rule: str

    def to_json(self) -> dict[str, JSON]:
        return {"value": self.value, "reason": self.reason, "rule": self.rule}


def record(
    *,
    purpose: str,
    roller: str,
    dice: Sequence[int],
    base: int,
    base_reason: str,
    mods: Sequence[Mod],
    judge: Callable[[int, int], str],
    rule: str,
    cap: tuple[int, str, str] | None = None,
) -> dict[str, JSON]:
    """The record of one roll; ``judge(total, effective)`` names the outcome, ``cap`` is
    (most, why, rule id) for a target a rule limits. Zero modifiers are left out."""
    total = sum(dice)
    effective = base + sum(m.value for m in mods)
    capped = ""
    if cap is not None and effective > cap[0]:
        effective, capped = cap[0], f"capped at {cap[0]}: {cap[1]} ({cap[2]})"
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
        "outcome": judge(total, effective),
        "rule": rule,
    }
    if capped:
        rec["cap"] = capped
    return rec
