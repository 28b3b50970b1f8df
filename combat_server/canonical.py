"""Canonical JSON and the event hash chain.

The hash chain is only as good as the byte form it hashes: keys sorted, no
whitespace, UTF-8, and no floats (rules keep fractions exact as ``"a/b"`` strings
or integers), so the same event hashes the same on SQLite, PostgreSQL and after an
export/import round trip.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping

GENESIS_HASH = "0" * 64


# One encoder and one decoder for the process: json.dumps/json.loads with options build a new one per call.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def canonical_json(value: Any) -> str:
    return _ENCODER.encode(value)


def chain_hash(prev_hash: str, canonical_event: Any) -> str:
    """``sha256(prev_hash + canonical JSON of the event)`` as hex."""
    return hashlib.sha256((prev_hash + canonical_json(canonical_event)).encode("utf-8")).hexdigest()


def state_digest(event_hash: str, canonical_state: Any) -> str:
    """What a snapshot carries next to its state: ``sha256(event hash at its seq + canonical JSON
    of the state)``, so that a load can tell a snapshot that was edited or belongs elsewhere."""
    return chain_hash(event_hash, canonical_state)


def parse_stored(text: str) -> Any:
    """Parse stored JSON text strictly: NaN and Infinity are not JSON and never hashed."""
    return _DECODER.decode(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def plain_json(value: Any) -> Any:
    """Deep-copy a payload into plain JSON types (tuples -> lists), as the store returns it: a state
    folded from a fresh draft must equal the one refolded from the stored log."""
    if isinstance(value, Mapping):
        return {str(k): plain_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain_json(v) for v in value]
    return value
