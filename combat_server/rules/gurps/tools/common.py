"""Input schemas and exact arithmetic the GURPS tools share (#12)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

from combat_server.errors import reject
from combat_server.rules.model import JSON

#: A ratio such as a Linear Scale: a decimal or a fraction written as text (``"1/36"``), kept exact.
RATIO_PATTERN = r"^[0-9]+(\.[0-9]+)?(/[0-9]+)?$"


def whole(title: str, lo: int, hi: int, unit: str = "", default: int | None = None) -> dict[str, JSON]:
    """An integer input with its title, unit and range."""
    out: dict[str, JSON] = {"type": "integer", "minimum": lo, "maximum": hi, "title": title}
    if unit:
        out["x-unit"] = unit
    if default is not None:
        out["default"] = default
    return out


def amount(title: str, lo: float, hi: float, unit: str = "", default: float | None = None) -> dict[str, JSON]:
    """A number input (decimals allowed) with its title, unit and range."""
    out: dict[str, JSON] = {"type": "number", "minimum": lo, "maximum": hi, "title": title}
    if unit:
        out["x-unit"] = unit
    if default is not None:
        out["default"] = default
    return out


def ratio(title: str, default: str | None = "1") -> dict[str, JSON]:
    """A scale factor typed as ``1/36`` or ``0.25`` (exact), greater than 0; ``default`` None: optional."""
    out: dict[str, JSON] = {"type": "string", "pattern": RATIO_PATTERN, "title": title,
                            "description": "a number or a fraction such as 1/36"}
    if default is not None:
        out["default"] = default
    return out


def choice(title: str, values: tuple[str, ...], default: str | None = None) -> dict[str, JSON]:
    out: dict[str, JSON] = {"enum": list(values), "title": title}
    if default is not None:
        out["default"] = default
    return out


def flag(title: str, default: bool = False) -> dict[str, JSON]:
    return {"type": "boolean", "title": title, "default": default}


def exact(value: JSON) -> Fraction:
    """A checked number input as an exact fraction (a float through its decimal text: 0.1 is 1/10)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"not a number: {value!r}")
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


#: The range a ratio input may take: scales beyond it are no creature's (and would overflow a float root).
RATIO_LIMIT = 10 ** 6


def read_ratio(tool: str, inputs: Mapping[str, JSON], name: str) -> Fraction:
    """A ratio input (``1/36``, ``0.25``, ``2.5/3``) as an exact fraction, from 1/10^6 to 10^6; anything
    else (0, a zero denominator) is ``tool/bad_input`` naming the field."""
    top, _slash, bottom = str(inputs[name]).partition("/")
    under = Fraction(bottom) if bottom else Fraction(1)
    value = Fraction(top) / under if under else Fraction(0)
    if not Fraction(1, RATIO_LIMIT) <= value <= RATIO_LIMIT:
        raise reject("tool/bad_input", f"{tool}: input {name!r} must be from 1/{RATIO_LIMIT} to {RATIO_LIMIT}, "
                     f"e.g. 1/36", field=name)
    return value


def square_root(value: Fraction) -> tuple[Fraction, bool]:
    """The square root of a fraction: exact when numerator and denominator are squares,
    else rounded to 3 decimals (sqrt(20) ~ 4.472); the flag says whether it is exact."""
    n, d = math.isqrt(value.numerator), math.isqrt(value.denominator)
    if n * n == value.numerator and d * d == value.denominator:
        return Fraction(n, d), True
    return Fraction(round(math.sqrt(value) * 1000), 1000), False


def dice_text(dice: int, adds: int) -> str:
    if not dice:
        return str(adds)
    return f"{dice}d{adds:+d}" if adds else f"{dice}d"
