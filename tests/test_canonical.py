"""combat_server/canonical.py: the hash chain's text is ``json``'s byte for byte, whichever encoder wrote it
(issue 16, server CPU: orjson where it writes the same text, ``json`` for the rest)."""

from __future__ import annotations

import enum
import hashlib
import json
import types
import uuid
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import attrs

from combat_server.rules.core import walk
from combat_server.rules.model import Event
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_to_json
from tests.fixtures import fixturekit as kit

from combat_server.canonical import (
    canonical_bytes, canonical_json, canonical_plain_bytes, chain_hash, chain_hash_of_bytes, event_hash, plain_json,
    _fast,
)

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
    {"x": 1e16, "t": "04:13:52.1"},
    {"x": [1, {"y": 1e-05}]},
    {"x": (None, 2.5, 1e300)},
    {"reason": 'a "quoted" 1.5 and \\ null', "n": 2e-7},
])
def test_what_may_differ_is_left_to_json(value: dict[str, Any]) -> None:
    from combat_server.canonical import _fast

    assert _fast(value) is None and canonical_json(value) == REFERENCE.encode(value)


@pytest.mark.parametrize("value", [
    {"reason": 'a "quoted" 1.5 and \\ null', "n": 2},
    {"x": 1.5, "t": "04:13:52.1"},
    {"x": None},
    {"weapons": [{"weight": 0.0, "reach": None}], "hp": 1e15, "n": [0.0001, -0.0, 5e-324]},
])
def test_nulls_and_floats_written_alike_stay_on_the_fast_path(value: dict[str, Any]) -> None:
    """A ``null`` is ``None`` and each float ``json``'s text when the value says so (a snapshot's state)."""
    from combat_server.canonical import _fast

    assert _fast(value) == REFERENCE.encode(value).encode("utf-8")


@pytest.mark.parametrize("value", [
    {"x": float("nan")}, {"x": [None, float("inf")]}, {"x": {"y": (1, -float("inf"))}}, float("nan"), None,
])
def test_orjsons_null_for_nan_and_infinity_is_never_taken_for_none(value: Any) -> None:
    """orjson writes NaN and the infinities as ``null``, which ``json`` refuses: refused as before."""
    from combat_server.canonical import _fast

    if value is None:
        assert _fast(value) == b"null"
    else:
        assert _fast(value) is None
        with pytest.raises(ValueError):
            canonical_json(value)


@pytest.mark.parametrize("value", [
    {"x": [1, enum.Enum("E", "A").A], "y": None}, {"x": uuid.UUID(int=5), "y": None},
])
def test_what_json_refuses_is_refused_with_a_null_beside_it(value: Any) -> None:
    """orjson writes an Enum and a UUID, ``json`` refuses them: a value with a ``null`` is walked, and refused."""
    from combat_server.canonical import _fast

    assert _fast(value) is None
    with pytest.raises(TypeError):
        canonical_json(value)


_EDGE_FLOATS = st.sampled_from([0.0, -0.0, 1e15, 1e16, 1e-4, 1e-5, 5e-324, 1.7976931348623157e308, 0.1 + 0.2,
                                123456789012345.6, 1e22, float("nan"), float("inf"), -float("inf")])
_NULLS_AND_FLOATS = st.recursive(
    st.none() | _EDGE_FLOATS | st.floats() | st.integers(-5, 5) | st.sampled_from(["null", "1.5", 'a"b\\'])
    | st.booleans(),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=3), inner,
                                                                                       max_size=4),
    max_leaves=30)


@given(_NULLS_AND_FLOATS)
def test_values_with_nulls_and_floats_get_jsons_text(value: Any) -> None:
    """The walk that lets a ``null`` through (``_floats_written_alike``) gives ``json``'s text, or ``json``'s refusal."""
    expected = _reference(value)
    if isinstance(expected, str):
        assert canonical_bytes(value) == expected.encode("utf-8")
    else:
        with pytest.raises(expected):
            canonical_bytes(value)


@pytest.mark.parametrize("name", kit.fight_names())
def test_a_stored_fights_states_are_written_by_orjson_as_by_json(name: str) -> None:
    """Every state a stored fight passes through (what a snapshot writes and digests) has ``json``'s text, by
    orjson: its ``null`` members and weapon weights no longer send it to ``json``."""
    from combat_server.canonical import _fast

    lines = kit.export_path(name).read_text(encoding="utf-8").splitlines()
    events = [Event(**{k: v for k, v in json.loads(line).items() if k in attrs.fields_dict(Event)})
              for line in lines[1:]]
    ruleset = get_ruleset(kit.header(name)["ruleset"], events[0].ruleset_version)
    fast = 0
    for _event, _before, after in walk(ruleset, events):
        data = state_to_json(after)
        written = _fast(data)
        fast += written is not None
        assert canonical_bytes(data) == REFERENCE.encode(data).encode("utf-8")
        assert written is None or written == REFERENCE.encode(data).encode("utf-8")
    assert fast == len(events)


@given(st.dictionaries(st.text(max_size=6), st.text(alphabet='"\\\\1.eEnul :,{}[]', max_size=12) | st.floats(), max_size=4))
def test_strings_full_of_quotes_and_backslashes_never_hide_a_float(value: dict[str, Any]) -> None:
    expected = _reference(value)
    if isinstance(expected, str):
        assert canonical_json(value) == expected


plain_values = st.recursive(
    scalars,
    lambda inner: (st.lists(inner, max_size=4) | st.tuples(inner, inner)
                   | st.dictionaries(st.text(max_size=4) | st.integers(0, 9), inner, max_size=4)
                   | st.dictionaries(st.text(max_size=4), inner, max_size=3).map(types.MappingProxyType)),
    max_leaves=25,
)


def _outcome(write: Any, value: Any) -> Any:
    try:
        return write(value)
    except (ValueError, TypeError) as exc:
        return type(exc)


@given(plain_values)
def test_a_plain_texts_fast_path_is_the_text_of_the_plain_copy(value: Any) -> None:
    """canonical_plain_bytes (a command's digest) writes canonical_bytes(plain_json(value)), or refuses the same way."""
    assert (_outcome(canonical_plain_bytes, value)
            == _outcome(lambda v: canonical_bytes(plain_json(v)), value))
    assert _outcome(canonical_plain_bytes, {"type": "adjust", "args": value}) == _outcome(
        lambda v: canonical_bytes({"type": "adjust", "args": plain_json(v)}), value)


texts = st.text(max_size=6) | st.sampled_from(['"payload":0,', '","payload":0,"recorded_at":"', "\\", '"', "a\ud800",
                                             "\x1f\u2028", ',"recorded_at":', '\\",\\"payload\\":'])
#: Payloads whose keys and strings are the body's own keys, as ``event_hash`` looks for them in the body's text.
payloads = values | st.dictionaries(st.sampled_from(["payload", "recorded_at", "seq", "type", "a"]), texts | values,
                                    max_size=4)
body_members = {"fight_id": texts, "seq": st.integers(0, 2**70) | st.booleans(), "type": texts, "payload": payloads,
                "actor": texts | values, "command_id": texts, "recorded_at": texts | st.floats(),
                "ruleset_version": texts}


@given(st.fixed_dictionaries(body_members), st.sampled_from(["0" * 64, "ab" * 32]))
def test_an_events_hash_and_payload_text_are_the_definitions(body: dict[str, Any], prev: str) -> None:
    """event_hash (the engine, once per event) gives chain_hash of the body and canonical_json of its payload."""
    expected = _outcome(lambda b: (chain_hash(prev, b), canonical_json(b["payload"])), body)
    assert _outcome(lambda b: event_hash(prev, b), body) == expected


@given(st.fixed_dictionaries({k: v for k, v in body_members.items() if k != "ruleset_version"},
                             optional={"ruleset_version": texts, "zzz": texts | values, "aaa": texts}))
def test_a_body_with_other_keys_gets_the_definitions_hash(body: dict[str, Any]) -> None:
    """A body whose keys are not exactly an event's (a member more or less) is hashed by the definition."""
    expected = _outcome(lambda b: (chain_hash("0" * 64, b), canonical_json(b["payload"])), body)
    assert _outcome(lambda b: event_hash("0" * 64, b), body) == expected


def test_an_events_hash_by_hand() -> None:
    """The payload's text goes where its key is, among sorted keys, and is the row's payload text."""
    body = {"fight_id": "f", "seq": 2, "type": "note_added", "payload": {"text": '"payload":0,', "n": [1, 2]},
            "actor": "gm", "command_id": "c", "recorded_at": "2026-11-26T04:13:52.123456+00:00", "ruleset_version": "1"}
    text = ('{"actor":"gm","command_id":"c","fight_id":"f","payload":{"n":[1,2],"text":"\\"payload\\":0,"},'
            '"recorded_at":"2026-11-26T04:13:52.123456+00:00","ruleset_version":"1","seq":2,"type":"note_added"}')
    digest, payload = event_hash("0" * 64, body)
    assert digest == hashlib.sha256(("0" * 64 + text).encode()).hexdigest()
    assert payload == '{"n":[1,2],"text":"\\"payload\\":0,"}'


def test_a_payload_holding_the_bodys_keys_is_sliced_at_the_bodys_own() -> None:
    """The body's keys inside the payload (as keys, and as text in strings) do not move the payload's slice."""
    payload = {"payload": {"recorded_at": 1}, "recorded_at": ',"recorded_at":', "seq": ',"payload":'}
    body = {"fight_id": "f", "seq": 2, "type": "t", "payload": payload, "actor": ',"payload":', "command_id": "c",
            "recorded_at": ',"recorded_at":', "ruleset_version": "1"}
    assert event_hash("0" * 64, body) == (chain_hash("0" * 64, body), REFERENCE.encode(payload))


@given(values, st.sampled_from(["0" * 64, "cd" * 32]))
def test_a_digest_of_bytes_is_the_chain_hash(value: Any, prev: str) -> None:
    """chain_hash_of_bytes (a snapshot's digest from the bytes the engine wrote) is chain_hash of the value."""
    expected = _outcome(lambda v: chain_hash(prev, v), value)
    assert _outcome(lambda v: chain_hash_of_bytes(prev, canonical_bytes(v)), value) == expected
