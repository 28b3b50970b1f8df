"""SHELL's tables as data, each cited by its rule id (S-03, S-07, S-11, S-18,
S-28, S-29, S-30, S-46) with the catalogue's readings (A-58, A-71, R-20).

Why one module: the tables are looked up by every other module, and a table in
one place cannot drift from its copy."""

from __future__ import annotations

import attrs

#: S-03: ST -> maximum encumbrance (lb), levels 7..20. Beyond the chart it is GM data (A-58).
MAX_ENC: dict[int, int] = {
    7: 140, 8: 160, 9: 180, 10: 200, 11: 230, 12: 260, 13: 300,
    14: 350, 15: 400, 16: 460, 17: 520, 18: 600, 19: 700, 20: 800,
}


@attrs.frozen
class Dice:
    """``dice``d6 ``+ add``: a damage expression (S-03, S-32)."""

    dice: int
    add: int = 0

    def plus(self, n: int) -> Dice:
        return Dice(self.dice, self.add + n)

    def __str__(self) -> str:
        return f"{self.dice}d" + (f"{self.add:+d}" if self.add else "")


def st_damage(st: int) -> Dice:
    """S-03 base damage for ST, extended beyond 7..20 by A-58's formulas."""
    if st >= 10:
        return Dice(1 + (st - 10) // 4, (st - 10) % 4)
    return Dice(1, st - 10)


def ag_at_mod(ag: int) -> int:
    """S-03 AG -> AT modifier = floor((AG-10)/2) (A-58)."""
    return (ag - 10) // 2


def ag_def_mod(ag: int) -> int:
    """S-03 AG -> DEF modifier = ceil((AG-10)/2) (A-58)."""
    return -((10 - ag) // 2)


#: S-07: EL by carried weight as a percentage of max Enc (upper bound inclusive).
EL_BANDS: tuple[tuple[int, int], ...] = ((10, 0), (20, 1), (30, 2), (60, 3), (100, 4))


def encumbrance_level(carried: float, max_enc: float) -> int | None:
    """S-07 EL, or None when the load is over 100% of max Enc (A-61: not allowed)."""
    for pct, level in EL_BANDS:
        if carried * 100 <= pct * max_enc:
            return level
    return None


#: S-46: active rounds per 1 END lost, by EL.
FATIGUE_ROUNDS: dict[int, int] = {0: 25, 1: 20, 2: 15, 3: 10, 4: 5}


def style_damage_bonus(level: int, hand_to_hand: bool = True) -> int:
    """S-11: +1 damage per 3 levels above the first; R-20: hand-to-hand styles only."""
    return max(0, (level - 1) // 3) if hand_to_hand else 0


def blocks_per_round(level: int) -> int:
    """S-28: one block, plus one per 2 levels of the style in use above the first."""
    return 1 + max(0, level - 1) // 2


def charge_bonus(units_moved: int) -> int:
    """S-19 with A-57: +1 damage per 5 units moved this turn."""
    return max(0, units_moved) // 5


#: S-18: maneuver -> (AT mod, DEF mod). "other" is set by the GM (S-24).
MANEUVERS: dict[str, tuple[int, int]] = {
    "attack": (0, 0), "guard": (1, 0), "defend": (0, 2), "disarm": (-2, -1), "aim": (0, -2),
}
#: The rule of each maneuver on the chart (S-19 ... S-23); any other is a GM-set cinematic one (S-24).
MANEUVER_RULES: dict[str, str] = {
    "attack": "S-19", "guard": "S-20", "defend": "S-21", "disarm": "S-22", "aim": "S-23",
}


def maneuver_rule(name: str) -> str:
    """The rule id a maneuver's AT/DEF modifier cites in the roll record."""
    return MANEUVER_RULES.get(name, "S-24")

#: S-29: hit-location AT modifiers. Location kinds; sides are bookkeeping (damage.py).
LOCATION_AT: dict[str, int] = {
    "torso": 0, "arm": -1, "leg": -1, "head": -2, "heart": -2, "groin": -2,
    "face": -3, "hand": -3, "foot": -3, "neck": -4, "eye": -5, "weapon": -2,
}

#: S-30: the first range bands' upper bounds (units); A-71 extends them by floor(x1.5).
_FIRST_BANDS = (2, 5, 10, 16, 25, 40)


def range_penalty(units: int) -> int:
    """S-30 range-band AT modifier (also the moving-target penalty, A-72)."""
    bound_index = 0
    bound = _FIRST_BANDS[0]
    while units > bound:
        bound_index += 1
        bound = _FIRST_BANDS[bound_index] if bound_index < len(_FIRST_BANDS) else bound * 3 // 2
    return -bound_index


#: S-47 typical armour DR.
ARMOUR_DR: dict[str, int] = {
    "cloth": 1, "leather": 2, "studded": 3, "chain": 4, "scale": 5, "banded": 6, "plate": 7,
}
#: S-25 / S-47 shields by size: (PR, HP). The buckler's HP is not given: GM data.
SHIELDS: dict[str, tuple[int, int | None]] = {
    "buckler": (0, None), "small": (1, 10), "medium": (2, 13), "large": (3, 16),
}
