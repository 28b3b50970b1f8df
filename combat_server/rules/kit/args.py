"""Reading a command's arguments with the error a client can act on (``command/missing_field``,
``command/bad_field``, naming the field): the checks a JSON Schema in a command spec cannot
express (an empty string counts as missing; ranges worded per command)."""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.errors import reject


def text(args: Mapping[str, Any], key: str, command: str, required: bool = True) -> str:
    """``args[key]`` as text; absent or empty is ``""`` unless ``required``."""
    v = args.get(key)
    if v is None or v == "":
        if required:
            raise reject("command/missing_field", f"{command}: {key} is required", field=key)
        return ""
    if not isinstance(v, str):
        raise reject("command/bad_field", f"{command}: {key} must be text", field=key)
    return v


def whole(args: Mapping[str, Any], key: str, command: str, default: int = 0, lo: int = 0,
          hi: int = 100000) -> int:
    """``args[key]`` as a whole number in ``lo..hi`` (``default`` when absent); true/false is not a number."""
    v = args.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise reject("command/bad_field", f"{command}: {key} must be a whole number {lo}..{hi}", field=key)
    return v
