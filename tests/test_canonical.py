"""combat_server/canonical.py: the hash chain's text is ``json``'s byte for byte, whichever encoder wrote it
(issue 16, server CPU: orjson where it writes the same text, ``json`` for the rest)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat_server.canonical import canonical_bytes, canonical_json, chain_hash

#: The definition: what wrote every stored event's hashed text before orjson did.
REFERENCE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

scalars = (st.none() | st.booleans() | st.integers() | st.integers(-2**70, 2**70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text() | st.sampled_from(["1.5", "2e3", "null", "\x00\x1f\x7f\u2028"]))
values = st.recursive(
    scalars,
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=4) | st.integers(0, 9), inner, max_size=4)),
    max_leaves=25,
)


def _reference(value: Any) -> str | type[BaseException]:
    try:
        return REFERENCE.encode(value)
    except (ValueError, TypeError) as exc:
        return type(exc)


@given(values)
def test_the_canonical_text_is_the_json_modules_text_for_any_value(value: Any) -> None:
    """Floats, NaN, integers past 64 bits, non-string keys, control characters: the same text, or the same refusal."""
    expected = _reference(value)
    if isinstance(expected, str):
        assert canonical_json(value) == expected
        assert canonical_bytes(value) == expected.encode("utf-8")
    else:
        with pytest.raises(expected):
            canonical_json(value)


@pytest.mark.parametrize("value, text", [
    ({"b": 1, "a": "é"}, '{"a":"é","b":1}'),
    ({"x": 1e16, "y": 1e-05}, '{"x":1e+16,"y":1e-05}'),  # orjson alone would write 1e16 and 0.00001
    ({"n": None, "big": 2**64}, '{"big":18446744073709551616,"n":null}'),
    ({2: "two", 1: "one"}, '{"1":"one","2":"two"}'),
])
def test_the_canonical_text_by_hand(value: Any, text: str) -> None:
    assert canonical_json(value) == text


def test_nan_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        canonical_json({"hp": float("nan")})


def test_a_lone_surrogate_is_written_as_json_writes_it() -> None:
    """orjson refuses it; the text is json's (which the hash then cannot encode, as before)."""
    assert canonical_json({"a": "\ud800"}) == '{"a":"\ud800"}'


def test_the_chain_hash_is_sha256_of_the_previous_hash_and_the_text() -> None:
    prev = "0" * 64
    body = {"seq": 1, "type": "fight_created", "payload": {"title": "t"}}
    expected = hashlib.sha256((prev + '{"payload":{"title":"t"},"seq":1,"type":"fight_created"}').encode()).hexdigest()
    assert chain_hash(prev, body) == expected


def test_an_events_time_does_not_send_it_to_the_slow_path() -> None:
    """A float or a null is looked for outside strings: ``recorded_at`` has a digit and a dot in every event."""
    from combat_server.canonical import _fast

    value = {"recorded_at": "2026-11-26T04:13:52.123456+00:00", "seq": 3, "reason": "null 1.5"}
    assert _fast(value) == REFERENCE.encode(value).encode("utf-8")


@pytest.mark.parametrize("value", [
    {"reason": 'a "quoted" 1.5 and \\ null', "n": 2},
    {"x": 1.5, "t": "04:13:52.1"},
    {"x": None},
])
def test_what_may_differ_is_left_to_json(value: dict[str, Any]) -> None:
    from combat_server.canonical import _fast

    assert _fast(value) is None and canonical_json(value) == REFERENCE.encode(value)


@given(st.dictionaries(st.text(max_size=6), st.text(alphabet='"\\\\1.eEnul :,{}[]', max_size=12) | st.floats(), max_size=4))
def test_strings_full_of_quotes_and_backslashes_never_hide_a_float(value: dict[str, Any]) -> None:
    expected = _reference(value)
    if isinstance(expected, str):
        assert canonical_json(value) == expected
