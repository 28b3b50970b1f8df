"""A client message its schema refuses is answered in JSON's spelling, naming the field and what it takes
(``protocol/schema``): jsonschema's own messages are Python's (``None is not of type 'object'``) and echo
the whole value back."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.server.protocol import (
    CLIENT_MESSAGES, ProtocolError, read_client_message, schema, validate_client_message,
)


def refusal(message: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as err:
        validate_client_message(message)
    assert err.value.code == "protocol/schema"
    return err.value.message


@pytest.mark.parametrize(("message", "expected"), [
    ({"type": "command", "command": "adjust", "args": None, "command_id": "x"},
     "command: args: must be an object, not null"),
    ({"type": "create_fight", "ruleset": True}, "create_fight: ruleset: must be a string, not true"),
    ({"type": "subscribe", "token": "t", "after": "x"}, 'subscribe: after: must be an integer, not "x"'),
    ({"type": "state_at", "seq": 2.5}, "state_at: seq: must be an integer, not 2.5"),
])
def test_a_value_of_the_wrong_type_is_named_as_json_writes_it(message: dict[str, Any], expected: str) -> None:
    assert refusal(message) == expected


def test_a_missing_field_is_named() -> None:
    assert refusal({"type": "subscribe"}) == 'subscribe: (message): the field "token" is missing'


def test_unknown_fields_are_named_with_the_ones_the_message_takes() -> None:
    message = refusal({"type": "subscribe", "token": "t", "bogus": 1})
    known = ", ".join(sorted(schema("subscribe")["properties"]))
    assert message == f'subscribe: (message): unknown field "bogus" (known: {known})'


def test_a_value_outside_its_choices_names_them() -> None:
    assert refusal({"type": "add_seat", "role": "wizard"}) == \
        'add_seat: role: must be one of "player", "spectator", not "wizard"'


def test_a_number_below_its_minimum_names_the_minimum() -> None:
    assert refusal({"type": "replay", "after": -3}) == "replay: after: must be at least 0, not -3"


def test_an_empty_text_that_must_not_be_is_said_so() -> None:
    assert refusal({"type": "command", "command": "adjust", "args": {}, "command_id": ""}) == \
        "command: command_id: must not be empty"


def test_a_long_value_is_cut_short_in_the_message() -> None:
    message = refusal({"type": "command", "command": "x" * 300, "args": {}, "command_id": "a"})
    assert message.startswith('command: command: "xxx') and 'x... does not match the pattern "^[a-z]' in message
    assert len(message) < 200


@pytest.mark.parametrize("kind", CLIENT_MESSAGES)
@pytest.mark.parametrize("bad", [None, True, False, [None], {"k": None}, 1.5, "x" * 500])
def test_no_refusal_of_any_field_is_worded_in_python(kind: str, bad: Any) -> None:
    """Every field of every client message given a value it does not take: the message never shows
    Python's spelling (None, True, False, single-quoted texts) and never the whole long text."""
    for field in schema(kind)["properties"]:
        if field == "type":
            continue
        try:
            validate_client_message({"type": kind, field: bad})
        except ProtocolError as exc:
            if exc.code != "protocol/schema":
                continue
            for python in ("None", "True", "False", "'"):
                assert python not in exc.message, (kind, field, bad, exc.message)
            assert "x" * 100 not in exc.message


@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_numbers(word: str) -> None:
    """Python's json reads them; JSON has none: protocol/bad_json naming the word, not 'must be an integer,
    not null' (orjson writes them as null)."""
    with pytest.raises(ProtocolError) as err:
        read_client_message(f'{{"type": "state_at", "seq": {word}}}')
    assert err.value.code == "protocol/bad_json"
    assert f"{word} is not a JSON number" in err.value.message
