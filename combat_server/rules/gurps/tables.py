"""Data tables the GURPS-Lite chapter refers to but does not print (A-01).

* Thrust/swing damage by ST: the chapter's "Damage Table, p. 6" is missing from
  seed 001. Source: GURPS Basic Set 4th ed., Characters p. 16 (anchor row ST 10:
  thr 1d-2, sw 1d, as the catalogue notes). Above ST 40 rows come every 5 ST; an
  ST between rows uses the row below.
* Range/speed modifiers (G-35, A-17): the catalogue's proposed table.
* Posture modifiers (G-26, A-13): the catalogue's proposed table (cfg).
* Encumbrance (G-02), throwing distance and damage (G-13, G-14).
"""

from __future__ import annotations

from fractions import Fraction

# ST -> (thrust, swing) as (dice, adds). Basic Set p. 16.
_DAMAGE_ROWS: dict[int, tuple[str, str]] = {
    1: ("1d-6", "1d-5"), 2: ("1d-6", "1d-5"), 3: ("1d-5", "1d-4"), 4: ("1d-5", "1d-4"),
    5: ("1d-4", "1d-3"), 6: ("1d-4", "1d-3"), 7: ("1d-3", "1d-2"), 8: ("1d-3", "1d-2"),
    9: ("1d-2", "1d-1"), 10: ("1d-2", "1d"), 11: ("1d-1", "1d+1"), 12: ("1d-1", "1d+2"),
    13: ("1d", "2d-1"), 14: ("1d", "2d"), 15: ("1d+1", "2d+1"), 16: ("1d+1", "2d+2"),
    17: ("1d+2", "3d-1"), 18: ("1d+2", "3d"), 19: ("2d-1", "3d+1"), 20: ("2d-1", "3d+2"),
    21: ("2d", "4d-1"), 22: ("2d", "4d"), 23: ("2d+1", "4d+1"), 24: ("2d+1", "4d+2"),
    25: ("2d+2", "5d-1"), 26: ("2d+2", "5d"), 27: ("3d-1", "5d+1"), 28: ("3d-1", "5d+1"),
    29: ("3d", "5d+2"), 30: ("3d", "5d+2"), 31: ("3d+1", "6d-1"), 32: ("3d+1", "6d-1"),
    33: ("3d+2", "6d"), 34: ("3d+2", "6d"), 35: ("4d-1", "6d+1"), 36: ("4d-1", "6d+1"),
    37: ("4d", "6d+2"), 38: ("4d", "6d+2"), 39: ("4d+1", "7d-1"), 40: ("4d+1", "7d-1"),
    45: ("5d", "7d+1"), 50: ("5d+2", "8d-1"), 55: ("6d", "8d+1"), 60: ("7d-1", "9d"),
    65: ("7d+1", "9d+2"), 70: ("8d", "10d"), 75: ("8d+2", "10d+2"), 80: ("9d", "11d"),
    85: ("9d+2", "11d+2"), 90: ("10d", "12d"), 95: ("10d+2", "12d+2"), 100: ("11d", "13d"),
}
MAX_TABLE_ST = 100


def parse_dice(spec: str) -> tuple[int, int]:
    """``"2d+1"`` -> (2, 1). Raises ValueError on anything else."""
    s = spec.strip().replace(" ", "")
    if "d" not in s:
        raise ValueError(f"not a dice expression: {spec!r}")
    dice_s, _, rest = s.partition("d")
    dice = int(dice_s) if dice_s else 1
    adds = int(rest) if rest else 0
    if dice < 0 or dice > 50:
        raise ValueError(f"dice out of range in {spec!r}")
    return dice, adds


def format_dice(dice: int, adds: int) -> str:
    if adds == 0:
        return f"{dice}d"
    return f"{dice}d{adds:+d}"


def damage_for_st(st: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(thrust, swing) for ST, each as (dice, adds)."""
    st = max(1, min(st, MAX_TABLE_ST))
    row = max(k for k in _DAMAGE_ROWS if k <= st)
    thr, sw = _DAMAGE_ROWS[row]
    return parse_dice(thr), parse_dice(sw)


# G-02: EL -> (max carried as multiple of BL, Move multiplier, Dodge penalty).
ENCUMBRANCE = (
    (1, Fraction(1), 0),
    (2, Fraction(4, 5), -1),
    (3, Fraction(3, 5), -2),
    (6, Fraction(2, 5), -3),
    (10, Fraction(1, 5), -4),
)
ENCUMBRANCE_NAMES = ("None", "Light", "Medium", "Heavy", "Extra-Heavy")

# G-35 / A-17: first bound >= range + speed gives the modifier.
RANGE_SPEED = (
    (2, 0), (3, -1), (5, -2), (7, -3), (10, -4), (15, -5), (20, -6), (30, -7), (50, -8), (70, -9),
    (100, -10), (150, -11), (200, -12), (300, -13), (500, -14), (700, -15), (1000, -16),
)


def range_speed_modifier(yards: int) -> int:
    for bound, mod in RANGE_SPEED:
        if yards <= bound:
            return mod
    # Beyond the table: -1 more per further x1.5 step (Basic Set pattern), kept simple and monotone.
    mod, bound = -16, 1000
    while yards > bound:
        bound = bound * 3 // 2
        mod -= 1
    return mod


# G-26 / A-13 (cfg): posture -> (melee attack, active defence, ranged-attack-against, movement)
POSTURES: dict[str, dict[str, object]] = {
    "standing": {"attack": 0, "defense": 0, "target": 0, "move": "full"},
    "kneeling": {"attack": -2, "defense": -2, "target": -2, "move": "third"},
    "crawling": {"attack": -4, "defense": -3, "target": -2, "move": "third"},
    "sitting": {"attack": -2, "defense": -2, "target": -2, "move": "none"},
    "prone": {"attack": -4, "defense": -3, "target": -2, "move": "one"},
    "face_up": {"attack": -4, "defense": -3, "target": -2, "move": "one"},
}
LYING = ("prone", "face_up")
# G-26: lying -> crawling/kneeling/sitting -> standing; kneeling <-> standing directly.
POSTURE_STEPS: dict[str, tuple[str, ...]] = {
    "standing": ("kneeling", "sitting", "crawling", "prone", "face_up"),
    "kneeling": ("standing", "sitting", "crawling", "prone", "face_up"),
    "sitting": ("standing", "kneeling", "crawling", "prone", "face_up"),
    "crawling": ("standing", "kneeling", "sitting", "prone", "face_up"),
    "prone": ("crawling", "kneeling", "sitting", "face_up"),
    "face_up": ("crawling", "kneeling", "sitting", "prone"),
}

# G-13: weight ratio -> distance multiplier; use the first row >= ratio.
THROW_DISTANCE = (
    (Fraction(5, 100), Fraction(35, 10)), (Fraction(10, 100), Fraction(25, 10)), (Fraction(15, 100), Fraction(2)),
    (Fraction(20, 100), Fraction(15, 10)), (Fraction(40, 100), Fraction(1)), (Fraction(50, 100), Fraction(8, 10)),
    (Fraction(1), Fraction(6, 10)), (Fraction(15, 10), Fraction(4, 10)), (Fraction(2), Fraction(3, 10)),
    (Fraction(25, 10), Fraction(25, 100)), (Fraction(3), Fraction(20, 100)), (Fraction(4), Fraction(15, 100)),
    (Fraction(6), Fraction(10, 100)), (Fraction(10), Fraction(6, 100)), (Fraction(12), Fraction(5, 100)),
)

# G-42: wounding multipliers; A-20: unlisted types x1 (cfg).
WOUND_MULTIPLIERS: dict[str, Fraction] = {"cr": Fraction(1), "cut": Fraction(3, 2), "imp": Fraction(2)}
DAMAGE_TYPES = ("cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "tox", "fat", "aff", "spec")
