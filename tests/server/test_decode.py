"""Issue 16, server CPU: a client message is decoded by orjson where it reads what json reads, and by
json otherwise, so every message means what it meant and every bad one gets the same error."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat_server.server.protocol import ProtocolError, decode_client_message

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=15,
)


def _same(a: Any, b: Any) -> bool:
    """Equal with the same types all the way down (1 and 1.0 differ on the wire's schema checks)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


@given(st.dictionaries(st.text(max_size=4), values, max_size=4))
def test_a_message_decodes_to_what_json_reads(message: dict[str, Any]) -> None:
    text = json.dumps(message, ensure_ascii=False)
    assert _same(decode_client_message(text), json.loads(text))


@pytest.mark.parametrize("text", [
    '{"seq": -9223372036854775809}',  # orjson alone reads a float here
    '{"seq": 18446744073709551616}',  # past 64 bits
    '{"x": 1e400}',  # json reads infinity here, refused later by the schema checks
    '{"a": "\\ud800"}',  # a lone surrogate, refused later by the text checks
    '{"a": 1, "a": 2}',
])
def test_what_orjson_refuses_or_reads_otherwise_is_read_as_json_reads_it(text: str) -> None:
    assert _same(decode_client_message(text), json.loads(text))


@pytest.mark.parametrize("text", ['{"a":', "[1]", "nul", '{"a": 1,}', '\ufeff{"a": 1}', '{"a": "x\ny"}', '{"a": 01}',
                                  '{"hp": NaN}', '{"hp": Infinity}', '{"hp": -Infinity}'])  # json's extensions
def test_bad_json_is_refused_with_the_same_code(text: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode_client_message(text)
    assert caught.value.code == "protocol/bad_json"
