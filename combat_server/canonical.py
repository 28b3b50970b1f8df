"""Canonical JSON and the event hash chain.

The hash chain is only as good as the byte form it hashes: keys sorted, no
whitespace, UTF-8, and no floats (rules keep fractions exact as ``"a/b"`` strings
or integers), so the same event hashes the same on SQLite, PostgreSQL and after an
export/import round trip.
"""

from __future__ import annotations

import hashlib
import json
from collections import abc
from typing import Any, Mapping

import orjson

GENESIS_HASH = "0" * 64


# One encoder and one decoder for the process: json.dumps/json.loads with options build a new one per call.
_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

#: orjson for the values it writes exactly as ``_ENCODER`` does; everything else goes to it by ``default``.
_FAST_OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATACLASS
                 | orjson.OPT_PASSTHROUGH_DATETIME)
#: Every digit as ``0`` and every ``.``, ``e`` and ``E`` as ``.``: a digit followed by one of them is then one
#: substring test (a regular expression was slower than the encoding it saved).
_FLOAT_MARKS = bytes.maketrans(b"123456789eE", b"000000000..")


def _may_differ(text: bytes) -> bool:
    """Whether ``text`` may hold what orjson writes otherwise than ``_ENCODER``: a float (orjson writes
    ``1e16`` and ``0.00001`` where ``json`` writes ``1e+16`` and ``1e-05``; every float has a ``.`` or an
    exponent right after a digit) or a ``null`` (orjson's NaN and infinities, which ``json`` refuses)."""
    # ``find``, not ``in``: ``bytes.__contains__`` first tries its argument as an int and formats the
    # TypeError it catches, about 1.3 k instructions per test (issue 16, session 12).
    return text.translate(_FLOAT_MARKS).find(b"0.") != -1 or text.find(b"null") != -1


def _not_plain(value: Any) -> Any:
    raise TypeError  # orjson stops: _ENCODER encodes (or refuses) it


def _fast(value: Any) -> bytes | None:
    """orjson's text of ``value`` where it is ``_ENCODER``'s byte for byte, else ``None``.

    Why two encoders: the chain hashes these exact bytes, and ``json`` wrote every stored
    event's, so ``json``'s text is the definition; orjson writes the same text for strings,
    integers up to 64 bits, booleans, objects and arrays, about 10x faster, and hashing an
    event and its command was a tenth of a command's server CPU (issue 16). Anything it could
    write differently (:func:`_may_differ`, unless the value's floats are written alike:
    :func:`_floats_written_alike`) or refuses (bigger integers, non-string keys, subclasses, lone
    surrogates, nesting past 254 levels) is left to ``json``, which also raises what it raised.
    """
    data = _written(value)
    return data if data is not None and _written_alike(data, value) else None


def _written(value: Any) -> bytes | None:
    """orjson's text of ``value`` (sorted keys, ``json``'s separators), or ``None`` where it refuses it."""
    try:
        return orjson.dumps(value, default=_not_plain, option=_FAST_OPTIONS)
    except TypeError:
        return None


def _written_alike(text: bytes, value: Any) -> bool:
    """Whether ``text``, orjson's text of ``value``, is ``_ENCODER``'s: nothing in it that could differ, or
    ``value``'s floats written alike. A digit and a dot inside a string (an event's ``recorded_at``), a
    ``null`` or a float send it to the walk."""
    return not _may_differ(text) or _floats_written_alike(value)


#: The types :func:`_fast` lets through that :func:`_floats_written_alike` need not look at.
_SCALARS = frozenset({str, int, bool, type(None)})


def _floats_written_alike(value: Any) -> bool:
    """Whether every float in ``value`` is written by orjson as by ``_ENCODER`` (``float.__repr__``): none
    is NaN or infinite (orjson's ``null``, which ``json`` refuses) or written otherwise (``1e16``,
    ``0.00001``). Anything but an exact dict, list, tuple, string, int, bool, float or ``None`` answers no.
    Called only on what orjson wrote, so nested at most 254 deep.

    Why: a snapshot's state holds ``null`` members and the weapons' weights (``0.0``), so its text went to
    ``json`` every time, 1.1 M instructions per snapshot (issue 16); the text cannot tell orjson's NaN from
    ``None``, but the value can, and this walk costs a fifth of ``json``'s text. It also replaced the text
    test that looked for floats outside strings (every event's ``recorded_at`` has a digit and a dot),
    which cost three times the walk for an event's body (tests/test_canonical.py compares the canonical
    text with ``json``'s on any value)."""
    kind = type(value)
    if kind is dict:
        value = value.values()
    elif kind is not list and kind is not tuple:
        if kind is float:
            return orjson.dumps(value) == float.__repr__(value).encode("ascii")
        return kind in _SCALARS
    for item in value:
        if type(item) not in _SCALARS and not _floats_written_alike(item):
            return False
    return True


def canonical_bytes(value: Any) -> bytes:
    """:func:`canonical_json` as UTF-8 bytes (what the hash chain hashes)."""
    data = _fast(value)
    return data if data is not None else _ENCODER.encode(value).encode("utf-8")


def canonical_json(value: Any) -> str:
    """Keys sorted, no whitespace, not ASCII-escaped, no NaN: the text the hash chain covers."""
    data = _fast(value)
    return data.decode("utf-8") if data is not None else _ENCODER.encode(value)


def canonical_plain_bytes(value: Any) -> bytes:
    """``canonical_bytes(plain_json(value))``, without the deep copy where orjson writes ``value`` as it is.

    Why: a command's digest hashed a plain copy of its arguments, which the decoder already gave as
    plain dicts and lists (issue 16). Where :func:`_fast` writes ``value`` at all, it holds only exact
    dicts with string keys, lists, tuples and scalars, whose text :func:`plain_json` does not change
    (a tuple is written as the list it becomes); anything else is copied first, as before
    (tests/test_canonical.py compares the two on any value)."""
    data = _fast(value)
    return data if data is not None else canonical_bytes(plain_json(value))


def chain_hash(prev_hash: str, canonical_event: Any) -> str:
    """``sha256(prev_hash + canonical JSON of the event)`` as hex."""
    return _chained(prev_hash, canonical_bytes(canonical_event))


def _chained(prev_hash: str, canonical: bytes) -> str:
    """The chain's one formula: ``sha256(prev_hash + canonical)`` as hex, ``canonical`` a value's canonical text."""
    return hashlib.sha256(prev_hash.encode("utf-8") + canonical).hexdigest()


#: The members of an event's canonical body (``Event.canonical``): the keys :func:`event_hash` writes in one go.
_BODY_KEYS = frozenset({"fight_id", "seq", "type", "payload", "actor", "command_id", "recorded_at", "ruleset_version"})
#: The body's members but the payload, each of which must be an exact string or int for :func:`event_hash`'s slice.
_HEAD_KEYS = ("actor", "command_id", "fight_id", "recorded_at", "ruleset_version", "seq", "type")
#: Where the payload's text starts and ends in a body's text: the keys before and after ``payload``, sorted.
_PAYLOAD_KEY = b',"payload":'
_AFTER_PAYLOAD = b',"recorded_at":'


def event_hash(prev_hash: str, body: dict[str, Any]) -> tuple[str, str]:
    """``chain_hash(prev_hash, body)`` of an event's canonical body, and ``canonical_json(body["payload"])``
    (the text the store writes in the event's row), with the body written once, by one orjson call.

    Why: the chain hashed the body's text, and the append wrote the payload's text again (issue 16); then
    the payload and the rest of the body were written by two calls and spliced, about 2.6 k instructions
    more per event than one call and a slice (issue 16, server CPU, session 13). A dict's canonical text
    is its sorted ``"key":value`` pairs, each value written as it is written alone, so the payload's
    text is a slice of the body's: it starts after the first ``,"payload":`` and ends at the last
    ``,"recorded_at":``. Outside a string there is no other ``,"payload":`` before it (the keys before
    ``payload`` are ``actor``, ``command_id`` and ``fight_id``) and no other ``,"recorded_at":`` after it
    (``ruleset_version``, ``seq`` and ``type`` follow); inside a string every quote is escaped. That holds
    for a body of exactly these keys whose members but the payload are exact strings and ints, which
    orjson writes as ``_ENCODER`` does (or refuses: an int past 64 bits, a lone surrogate); the payload's
    text is checked as :func:`_fast` checks any value's. Any other body goes the definition's way
    (tests/test_canonical.py compares the two on any body)."""
    payload = body["payload"]
    if body.keys() == _BODY_KEYS:
        for key in _HEAD_KEYS:
            kind = type(body[key])
            if kind is not str and kind is not int:
                break
        else:
            whole = _written(body)
            if whole is not None:
                text = whole[whole.find(_PAYLOAD_KEY) + 11:whole.rfind(_AFTER_PAYLOAD)]
                if _written_alike(text, payload):
                    return _chained(prev_hash, whole), text.decode("utf-8")
    return chain_hash(prev_hash, body), canonical_json(payload)


def chain_hash_of_bytes(prev_hash: str, canonical: bytes) -> str:
    """``chain_hash(prev_hash, value)`` from ``canonical_bytes(value)``, for a caller that wrote the text already."""
    return _chained(prev_hash, canonical)


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
    kind = type(value)  # exact types first: isinstance against typing's Mapping is slow (issue 16)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is dict or isinstance(value, abc.Mapping):
        return {str(k): plain_json(v) for k, v in value.items()}
    if kind is list or kind is tuple or isinstance(value, (list, tuple)):
        return [plain_json(v) for v in value]
    return value
