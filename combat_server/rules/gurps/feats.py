"""Physical-feat calculators the GM invokes (gm-tool rules, not part of the turn loop)."""

from __future__ import annotations


def high_jump_inches(basic_move: int, run_up_yards: int = 0) -> int:
    """G-07: (6 x Basic Move) - 10 in; a run-up adds its yards to Basic Move, capped at twice standing."""
    standing = 6 * basic_move - 10
    return min(6 * (basic_move + run_up_yards) - 10, 2 * standing) if run_up_yards else standing


def broad_jump_feet(basic_move: int, run_up_yards: int = 0) -> int:
    """G-07: (2 x Basic Move) - 3 ft; a run-up adds its yards to Basic Move, capped at twice standing."""
    standing = 2 * basic_move - 3
    return min(2 * (basic_move + run_up_yards) - 3, 2 * standing) if run_up_yards else standing
