"""Canonical JSON and the event hash chain.

The hash chain is only as good as the byte form it hashes: keys sorted, no
whitespace, UTF-8, and no floats (rules keep fractions exact as ``"a/b"`` strings
or integers), so the same event hashes the same on SQLite, PostgreSQL and after an
export/import round trip.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def chain_hash(prev_hash: str, canonical_event: Any) -> str:
    """``sha256(prev_hash + canonical JSON of the event)`` as hex."""
    return hashlib.sha256((prev_hash + canonical_json(canonical_event)).encode("utf-8")).hexdigest()
