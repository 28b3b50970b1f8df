"""Reading JSON into sheet parts with ``sheet/bad_field`` errors that name the
field by its path (``weapons[1].min_st``), so a GM knows exactly what to fix."""

from __future__ import annotations

from typing import Mapping, Sequence

from combat_server.errors import Rejected, reject
from combat_server.rules.model import JSON


def bad(field: str, message: str) -> Rejected:
    return reject("sheet/bad_field", f"sheet field {field}: {message}", field=field)


class Reader:
    """One JSON object being read; every accessor checks type and bounds."""

    def __init__(self, raw: JSON, path: str, known: Sequence[str]) -> None:
        if not isinstance(raw, Mapping):
            raise bad(path or "sheet", "must be an object")
        self.raw: Mapping[str, JSON] = raw
        self.path = path
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise bad(self.at(unknown[0]), f"is not a SHELL sheet field here (known: {', '.join(known)})")

    def at(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get_int(self, key: str, default: int, lo: int, hi: int) -> int:
        v = self.raw.get(key, default)
        if not isinstance(v, int) or isinstance(v, bool):
            raise bad(self.at(key), f"must be a whole number, got {v!r}")
        if not lo <= v <= hi:
            raise bad(self.at(key), f"must be between {lo} and {hi}, got {v}")
        return v

    def opt_int(self, key: str, lo: int, hi: int) -> int | None:
        return None if self.raw.get(key) is None else self.get_int(key, 0, lo, hi)

    def get_num(self, key: str, default: float, lo: float = 0.0) -> float:
        v = self.raw.get(key, default)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v or v < lo or v == float("inf"):
            raise bad(self.at(key), f"must be a number of at least {lo:g}, got {v!r}")
        return float(v)

    def get_bool(self, key: str, default: bool) -> bool:
        v = self.raw.get(key, default)
        if not isinstance(v, bool):
            raise bad(self.at(key), f"must be true or false, got {v!r}")
        return v

    def get_str(self, key: str, default: str | None = None, choices: Sequence[str] = ()) -> str:
        v = self.raw.get(key, default)
        if v is None:
            raise bad(self.at(key), "is required")
        if not isinstance(v, str) or not v.strip():
            raise bad(self.at(key), f"must be non-empty text, got {v!r}")
        if choices and v not in choices:
            raise bad(self.at(key), f"must be one of {', '.join(choices)}, got {v!r}")
        return v

    def get_list(self, key: str) -> list[JSON]:
        v = self.raw.get(key, [])
        if not isinstance(v, list):
            raise bad(self.at(key), "must be a list")
        return v

    def get_strs(self, key: str, choices: Sequence[str], default: Sequence[str] = ()) -> tuple[str, ...]:
        v = self.raw.get(key, list(default))
        if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
            raise bad(self.at(key), f"must be a non-empty list of {', '.join(choices)}")
        wrong = [x for x in v if isinstance(x, str) and x not in choices]
        if wrong:
            raise bad(self.at(key), f"unknown value {wrong[0]!r} (known: {', '.join(choices)})")
        if len(set(v)) != len(v):
            raise bad(self.at(key), "lists a value twice")
        return tuple(str(x) for x in v)


def unique(names: Sequence[str], field: str) -> None:
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise bad(field, f"the name {name!r} is used twice")
        seen.add(name)
