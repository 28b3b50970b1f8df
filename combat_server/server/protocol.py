"""The wire protocol, version 5 (issue 16: pushes carry a patch of the seat's view, not the view; since 3 a
slim record, what the client holds left out; since 4 the chain's fields only for a subscriber that asks
for them, and shorter patch ops; since 5 a view hash made of its members' digests): message names,
schemas, error and close codes.

Everything a client can rely on lives here (docs/protocol.md describes it for
people): one JSON object per websocket text message, ``type`` names the message,
``ref`` (optional, client-chosen) is echoed in the reply. Client messages are
validated against ``combat_server/schemas/<type>.json`` before anything else
happens; a refusal is an ``error`` message with a stable ``code``.

Codes raised by the engine and the rules (``command/...``, ``auth/gm_only``,
``roll/bad_faces``, ...) pass through unchanged; the codes below are the ones the
server itself adds. The table is the specification: tests walk it.
"""

from __future__ import annotations

import importlib
import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

import orjson

from combat_server.errors import CombatError
from combat_server.rules.core import shown_as_json

PROTOCOL_VERSION = 5
SCHEMA_DIR = Path(__file__).resolve().parents[1] / "schemas"

#: Limits on what a client sends (docs/protocol.md, "Limits"). Every string in a message
#: (object keys too) is at most MAX_TEXT characters: notes, comments, names and labels are
#: kept and pushed to every seat, so one seat must not be able to blow up the traffic.
MAX_TEXT = 2000
#: Objects and arrays nest at most this deep (checked on the raw text, before decoding:
#: the validators and the store recurse, and a deep message would exhaust the stack).
MAX_DEPTH = 32
#: Integers anywhere in a message: what every JSON client and both stores hold exactly.
MAX_INT = 2 ** 53 - 1

#: Messages a client may send.
CLIENT_MESSAGES = ("create_fight", "subscribe", "command", "preview", "calculate", "add_seat", "list_seats", "new_link",
                   "state_at", "replay", "view")
#: Messages the server sends.
SERVER_MESSAGES = (
    "welcome", "fight_created", "subscribed", "seat_added", "seats", "event", "events", "result", "error",
    "state", "history", "preview_result", "calculation", "description", "full_view",
)

#: Error codes the server adds to those of the engine: code -> (keeps connection open, meaning).
SERVER_ERRORS: Mapping[str, tuple[bool, str]] = {
    "protocol/bad_json": (True, "the message is not a JSON object"),
    "protocol/unknown_type": (True, "no client message has this type"),
    "protocol/schema": (True, "the message does not match its JSON Schema"),
    "protocol/version": (True, "the message asks for a protocol version this server does not speak"),
    "protocol/too_big": (True, "the message is longer than the server accepts (past a hard limit: close 1009)"),
    "protocol/too_deep": (True, f"objects and arrays nest at most {MAX_DEPTH} levels deep"),
    "protocol/binary": (True, "binary frames are not part of the protocol"),
    "rate/limited": (True, "too many messages on this connection; slow down (the message was dropped)"),
    "auth/bad_token": (True, "no seat has this token (a replaced link stops working: ask the GM for the new one)"),
    "auth/server_key": (True, "this server creates fights only with its server key"),
    "auth/not_joined": (True, "subscribe with a seat token first"),
    "auth/already_joined": (True, "this connection already holds a seat; open another connection"),
    "auth/read_only": (True, "spectators can only watch"),
    "auth/gm_only": (True, "only the GM seat may do this"),
    "seat/unknown_combatant": (True, "a player seat names a combatant the fight does not have"),
    "seat/no_combatants": (True, "a player seat must be bound to at least one combatant"),
    "seat/unknown": (True, "the fight has no seat of that id (list_seats names them)"),
    "seat/own_link": (True, "a seat cannot replace its own link over the wire (combat-server links FIGHT does)"),
    "command/stale_seq": (True, "expect_seq is not the fight's last seq any more: look at the new state"),
    "replay/bad_seq": (True, "there is no such seq in this fight (yet)"),
    "store/unavailable": (True, "the database could not be reached; send the command again with the same "
                                "command_id (it is answered, never applied twice)"),
    "internal/error": (True, "a bug on the server; nothing was appended"),
}

#: Close codes (RFC 6455 section 7.4.2: 4000-4999 are for applications).
CLOSE_TOO_SLOW = 4008  # the client fell too far behind; reconnect with the last seq seen
CLOSE_FLOODING = 4029  # far past the rate limit, repeatedly
CLOSE_SHUTDOWN = 1001  # going away (RFC 6455 section 7.4.1)
CLOSE_TOO_BIG = 1009  # message too big (RFC 6455 section 7.4.1), past the hard size limit
CLOSE_LINK_REPLACED = 4003  # the seat got a new link (new_link): this connection's token no longer joins

CLOSE_REASONS: Mapping[int, str] = {
    CLOSE_TOO_SLOW: "too slow: reconnect and subscribe with your last seq",
    CLOSE_FLOODING: "flooding: too many messages past the rate limit",
    CLOSE_SHUTDOWN: "server shutting down",
    CLOSE_LINK_REPLACED: "this seat's link was replaced: ask the GM for the new one",
}


class ProtocolError(CombatError):
    """A refusal by the server itself (not by the engine); ``code`` is in :data:`SERVER_ERRORS`."""

    def __init__(self, code: str, message: str | None = None, **details: Any) -> None:
        super().__init__(code, message or SERVER_ERRORS[code][1], **details)


@lru_cache(maxsize=None)
def schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one message (client or server)."""
    text = (SCHEMA_DIR / f"{name}.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@lru_cache(maxsize=None)
def validator(name: str) -> Any:
    """A compiled Draft 2020-12 validator (jsonschema ships no type stubs, hence ``Any``)."""
    return importlib.import_module("jsonschema").Draft202012Validator(schema(name))


def decode_client_message(text: str) -> dict[str, Any]:
    """Decode one client message (not yet validated), or raise ``protocol/bad_json`` or
    ``protocol/too_deep`` (checked first, on the text: decoding would recurse that deep)."""
    return read_client_message(text)[0]


def read_client_message(text: str) -> tuple[dict[str, Any], bool]:
    """:func:`decode_client_message`, and :func:`holds_no_value_problem` of ``text``, for what one
    encoding of the text and one scan of its bytes settle for all three checks (issue 16, server CPU:
    the text was encoded and scanned twice per command, and its brackets counted twice more); the same
    message, errors and answer as the two calls."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: json reads it (and the text checks refuse it)
        if too_deep(text, MAX_DEPTH):
            raise ProtocolError("protocol/too_deep", limit=MAX_DEPTH) from None
        return _decoded(None, text), False
    scan = data.translate(_SCAN)
    # too_deep's own first test: "[" and "{" are single bytes in UTF-8, nowhere else part of a character.
    if scan.count(b"[") > MAX_DEPTH and too_deep(text, MAX_DEPTH):
        raise ProtocolError("protocol/too_deep", limit=MAX_DEPTH)
    # holds_no_value_problem: an ASCII text's UTF-8 is itself, so its digit runs are the scan's.
    plain = (len(text) <= MAX_TEXT and text.isascii() and "\\u" not in text
             and b"0000000000000000" not in scan)
    # (no run of 16 digits: none of 19)
    return _decoded(data if plain or b"0000000000000000000" not in scan else None, text), plain


def _not_a_json_number(word: str) -> Any:
    """Python's json reads ``NaN``, ``Infinity`` and ``-Infinity``; JSON has no such numbers (and orjson, which
    writes the answers, would write them back as ``null``): a message holding one is not JSON."""
    raise ValueError(f"{word} is not a JSON number (write a number, or null)")


def _decoded(data: bytes | None, text: str) -> dict[str, Any]:
    """The message ``text`` holds (``data``: its UTF-8 when orjson reads it as json does), or ``protocol/bad_json``."""
    try:
        if data is not None:
            try:
                message = orjson.loads(data)
            except orjson.JSONDecodeError:
                message = json.loads(text, parse_constant=_not_a_json_number)
        else:
            message = json.loads(text, parse_constant=_not_a_json_number)
    except ValueError as exc:
        raise ProtocolError("protocol/bad_json", f"not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise ProtocolError("protocol/bad_json", "a message is a JSON object")
    return message


#: Every byte as a space but digits as ``0``: 19 digits in a row are then one substring test (a regular
#: expression took as long as ``json.loads`` itself).
_DIGIT_RUNS = bytes.maketrans(bytes(range(256)), bytes(48 if 48 <= b <= 57 else 32 for b in range(256)))
#: :data:`_DIGIT_RUNS`, and ``[`` and ``{`` both as ``[`` (:func:`read_client_message` counts them).
_SCAN = bytes.maketrans(bytes(range(256)), bytes(48 if 48 <= b <= 57 else 91 if b in (91, 123) else 32
                                                 for b in range(256)))


#: A JSON string (with its escapes) or a bracket: strings are skipped whole so brackets in them do not
#: count. The closing quote is optional, so an unterminated string ends the scan instead of being
#: tried again from every later quote (which would take time quadratic in the length).
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def too_deep(text: str, limit: int) -> bool:
    """Whether objects and arrays in ``text`` nest more than ``limit`` levels deep.

    Almost every message has fewer brackets than the limit in all, which one count
    settles; only the others are scanned.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _TOKENS.finditer(text):
        c = match.group()
        if c == "[" or c == "{":
            depth += 1
            if depth > limit:
                return True
        elif c == "]" or c == "}":
            depth -= 1
    return False


#: NUL (PostgreSQL stores no NUL in text or JSON) and lone UTF-16 surrogates (not text:
#: they cannot be encoded as UTF-8, so they could be neither stored nor sent back).
_BAD_CHAR = re.compile("[\x00\ud800-\udfff]")


def long_text_args() -> dict[str, dict[str, int]]:
    """Per command type, the args a command spec lets run past MAX_TEXT, with their ``maxLength``.

    Why: a few args carry a document, not a text that is kept and pushed (``import_character``'s
    file, #13); their spec states the bound (``maxLength``), and the command check enforces it.
    Read from every registered ruleset's specs, so the protocol names no command itself.
    """
    global _LONG_TEXT_ARGS
    if _LONG_TEXT_ARGS is None:
        from combat_server.rules import core
        from combat_server.rules.ruleset import registered_rulesets

        found: dict[str, dict[str, int]] = {}
        for ruleset in registered_rulesets():
            for spec in core.command_specs(ruleset):
                for field, schema in spec.args.items():
                    limit = schema.get("maxLength")
                    if isinstance(limit, int) and limit > MAX_TEXT:
                        found.setdefault(spec.name, {})[field] = max(limit, found.get(spec.name, {}).get(field, 0))
        _LONG_TEXT_ARGS = found
    return _LONG_TEXT_ARGS


_LONG_TEXT_ARGS: dict[str, dict[str, int]] | None = None


def _value_problem(value: Any, path: list[str], long_args: Mapping[str, int] | None = None) -> tuple[str, str] | None:
    """The first value no message may hold, as (path, what is wrong), or ``None``.

    ``long_args``: the command's args that may be longer than MAX_TEXT (:func:`long_text_args`).
    """
    if type(value) is str:
        limit = MAX_TEXT
        if long_args and len(path) == 2 and path[0] == "args" and path[1] in long_args:
            limit = long_args[path[1]]
        if len(value) > limit:
            return "/".join(path), f"text longer than {limit} characters ({len(value)})"
        bad = _BAD_CHAR.search(value)
        if bad is not None:
            what = "the NUL character (\\u0000)" if bad.group() == "\x00" else \
                f"a lone surrogate (\\u{ord(bad.group()):04x}), which is not text"
            return "/".join(path), f"text may not contain {what}"
        return None
    if type(value) is int:
        if -MAX_INT <= value <= MAX_INT:
            return None
        return "/".join(path), f"integers are limited to {MAX_INT} in magnitude"
    # Non-finite numbers (NaN, Infinity, 1e400) are refused by the field that takes them
    # (sheet/bad_field, #15 item 14), which can say what it expected.
    if type(value) is dict:
        for k, v in value.items():
            path.append(k)
            problem = _value_problem(k, path) or _value_problem(v, path, long_args)
            path.pop()
            if problem is not None:
                return problem
        return None
    if type(value) is list:
        for i, v in enumerate(value):
            path.append(str(i))
            problem = _value_problem(v, path)
            path.pop()
            if problem is not None:
                return problem
    return None


def reply_ref(message: Mapping[str, Any]) -> str | None:
    """The ``ref`` to echo, if the message has a usable one (even when the rest is invalid)."""
    ref = message.get("ref")
    return ref if isinstance(ref, str) and 0 < len(ref) <= 128 and _BAD_CHAR.search(ref) is None else None


_PLAIN_REF = re.compile(r'"ref"\s*:\s*"([A-Za-z0-9_.:\-]{1,128})"')


def peek_ref(text: str) -> str | None:
    """The ``ref`` of a message that is not decoded (rate-limited or too big), when it is a plain
    word: enough for a client to match the refusal to its request without the server parsing it."""
    match = _PLAIN_REF.search(text)
    return match.group(1) if match is not None else None


def holds_no_value_problem(text: str) -> bool:
    """Whether no value decoded from the JSON ``text`` can be one :func:`_value_problem` refuses, read off
    the text (issue 16: walking a command message's values cost as much as decoding it): no string
    longer than MAX_TEXT when the whole text is not; no lone surrogate in ASCII text; no NUL, which
    decoded JSON can only hold from a ``\\u`` escape (a raw one is not JSON); no integer past MAX_INT,
    which takes 16 digits in a row. ``False`` says nothing: :func:`_value_problem` decides."""
    return (len(text) <= MAX_TEXT and text.isascii() and "\\u" not in text
            and b"0000000000000000" not in text.encode("ascii").translate(_DIGIT_RUNS))


def validate_client_message(message: dict[str, Any], text: str | None = None,
                            plain: bool | None = None) -> dict[str, Any]:
    """Validate a decoded client message against its schema, or raise :class:`ProtocolError`. ``text``:
    the JSON it was decoded from, if the caller has it (:func:`holds_no_value_problem` may then spare
    the walk over its values); ``plain``: that answer, if the caller has it already
    (:func:`read_client_message`)."""
    kind = message.get("type")
    if kind not in CLIENT_MESSAGES:
        # In JSON's spelling, not Python's (a black-box pass read "unknown message type None").
        what = ("the message has no type" if kind is None else
                f"unknown message type {orjson.dumps(kind).decode()}" if isinstance(kind, (str, int, float, bool))
                else "the message's type is not a name")
        raise ProtocolError("protocol/unknown_type", what, known=list(CLIENT_MESSAGES))
    # Before anything else: no handler or store ever sees such a value. The command's long args are
    # looked up only for the walk (issue 16, server CPU: a command's text almost always spares it).
    if plain is None:
        plain = text is not None and holds_no_value_problem(text)
    if not plain:
        long_args = long_text_args().get(str(message.get("command"))) if kind == "command" else None
        problem = _value_problem(message, [], long_args)
        if problem is not None:
            where = problem[0] or "(message)"
            raise ProtocolError("protocol/schema", f"{kind}: {where}: {problem[1]}", path=where)
    if "v" in message and message["v"] != PROTOCOL_VERSION:
        raise ProtocolError("protocol/version", f"this server speaks protocol {PROTOCOL_VERSION}",
                            supported=[PROTOCOL_VERSION])
    fast = FAST_CHECKS.get(kind)
    if fast is not None and fast(message):
        return message  # certainly valid: the schema would find nothing
    error = next(iter(validator(kind).iter_errors(message)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(message)"
        raise ProtocolError("protocol/schema", f"{kind}: {where}: {schema_problem(error)}", path=where)
    return message


_A_TYPE = {"integer": "an integer", "object": "an object", "array": "an array", "string": "a string",
           "boolean": "true or false", "number": "a number", "null": "null"}


def _spelled(value: Any, limit: int = 60) -> str:
    """A value as JSON writes it (``null``, ``true``, ``"x"``, ``NaN``: :func:`shown_as_json`, as the rules word
    a refused value), cut short: a refusal names what it saw without echoing a long text back."""
    text = shown_as_json(value)
    return text if len(text) <= limit else text[:limit] + "..."


def schema_problem(error: Any) -> str:
    """What a jsonschema ``ValidationError`` found, in JSON's spelling and the words of a form.

    jsonschema words its messages in Python (``None is not of type 'object'``, ``'x' is not one of
    ['a', 'b']``) and echoes the whole value; a client reads JSON (a black-box pass, session 14). The
    keywords the client messages' schemas use are worded here; any other keeps jsonschema's message.
    """
    keyword, expected, value = error.validator, error.validator_value, error.instance
    if keyword == "type":
        kinds = [expected] if isinstance(expected, str) else list(expected)
        return f"must be {' or '.join(_A_TYPE.get(k, k) for k in kinds)}, not {_spelled(value)}"
    if keyword == "required" and isinstance(value, dict):
        missing = [name for name in expected if name not in value]
        return f"the field {_spelled(missing[0])} is missing" if missing else str(error.message)
    if keyword == "additionalProperties" and isinstance(value, dict):
        known = error.schema.get("properties", {})
        extra = [name for name in value if name not in known]
        fields = "field" if len(extra) == 1 else "fields"
        return (f"unknown {fields} {', '.join(_spelled(n) for n in extra)}"
                f" (known: {', '.join(sorted(known))})")
    worded = _WORDED.get(keyword)
    return worded(expected, value) if worded is not None else str(error.message)


def _items(n: int) -> str:
    return f"{n} item{'' if n == 1 else 's'}"


#: Per JSON Schema keyword, its refusal given the keyword's value and the value refused.
_WORDED: Mapping[str, Callable[[Any, Any], str]] = {
    "const": lambda want, got: f"must be {_spelled(want)}, not {_spelled(got)}",
    "enum": lambda want, got: f"must be one of {', '.join(_spelled(v) for v in want)}, not {_spelled(got)}",
    "minLength": lambda want, got: "must not be empty" if want == 1 else f"must be at least {want} characters long",
    "maxLength": lambda want, got: f"must be at most {want} characters long (it is {len(got)})",
    "minimum": lambda want, got: f"must be at least {_spelled(want)}, not {_spelled(got)}",
    "maximum": lambda want, got: f"must be at most {_spelled(want)}, not {_spelled(got)}",
    "pattern": lambda want, got: f"{_spelled(got)} does not match the pattern {_spelled(want)}",
    "minItems": lambda want, got: f"must hold at least {_items(want)}",
    "maxItems": lambda want, got: f"must hold at most {_items(want)} (it holds {len(got)})",
    "oneOf": lambda want, got: f"{_spelled(got)} matches none of the forms this field may take",
}


# Fast checks for the hottest messages. Each accepts only messages its schema
# accepts (it may refuse more: a refusal falls back to the full validator, which
# decides and words the error), so the schema stays the specification; the
# equivalence is tested in tests/server/test_fastpaths.py.

_COMMAND_NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")
_COMMAND_KEYS = frozenset({"type", "v", "ref", "command_id", "command", "args", "faces", "expect_seq"})
_SUBSCRIBE_KEYS = frozenset({"type", "v", "ref", "token", "after", "live", "describe", "chain"})


def _str(value: Any, lo: int, hi: int) -> bool:
    return type(value) is str and lo <= len(value) <= hi


def _common(m: Mapping[str, Any]) -> bool:
    return ("v" not in m or (type(m["v"]) is int and m["v"] == PROTOCOL_VERSION)) and ("ref" not in m or _str(m["ref"], 1, 128))


#: Command names that matched ``_COMMAND_NAME`` (a few dozen exist; bounded all the same).
_GOOD_NAMES: set[str] = set()


def _fast_command(m: Mapping[str, Any]) -> bool:
    # A name matched once is remembered (issue 16, server CPU: the match cost a third of validating a command).
    if not (m.keys() <= _COMMAND_KEYS and _common(m) and _str(m.get("command_id"), 1, 128)):
        return False
    name = m.get("command")
    if type(name) is not str:
        return False
    if name not in _GOOD_NAMES:
        if _COMMAND_NAME.fullmatch(name) is None:
            return False
        if len(_GOOD_NAMES) < 1024:
            _GOOD_NAMES.add(name)
    if "args" in m and type(m["args"]) is not dict:
        return False
    if "expect_seq" in m and not (type(m["expect_seq"]) is int and 0 <= m["expect_seq"] <= MAX_INT):
        return False
    if "faces" in m:
        faces = m["faces"]
        if type(faces) is not list or len(faces) > 100:
            return False
        for f in faces:
            if type(f) is not list or len(f) > 100 or any(type(x) is not int or not 1 <= x <= 1000 for x in f):
                return False
    return True


def _fast_subscribe(m: Mapping[str, Any]) -> bool:
    return (m.keys() <= _SUBSCRIBE_KEYS and _common(m) and _str(m.get("token"), 1, 200)
            and ("after" not in m or (type(m["after"]) is int and 0 <= m["after"] <= MAX_INT))
            and ("live" not in m or type(m["live"]) is bool) and ("describe" not in m or type(m["describe"]) is bool)
            and ("chain" not in m or type(m["chain"]) is bool))


#: Message type -> a check that is sufficient (never necessary) for schema validity.
FAST_CHECKS: Mapping[str, Callable[[Mapping[str, Any]], bool]] = {
    "command": _fast_command, "subscribe": _fast_subscribe,
}


def parse_client_message(text: str) -> dict[str, Any]:
    """Decode and validate one client message, or raise :class:`ProtocolError`."""
    return validate_client_message(decode_client_message(text))


def validate_server_message(message: Mapping[str, Any]) -> None:
    """Check an outgoing message against its schema (tests and debug mode; raises on mismatch)."""
    validator(str(message["type"])).validate(message)


def dumps(message: Any) -> str:
    """Compact JSON text (UTF-8, not ASCII-escaped), the encoding of everything the server sends.

    orjson, 5-10x faster than ``json`` on the pushed states; ``json`` for what orjson
    refuses (integers past 64 bits). Same values as ``json.dumps``; float spelling
    may differ (``1e16`` for ``1e+16``) and NaN becomes ``null``.
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode("utf-8")
    except TypeError:
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error_message(error: CombatError, ref: str | None = None, command_id: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": error.code, "message": _sendable(error.message)}
    if error.details:
        out["details"] = _jsonable(error.details)
    if ref is not None:
        out["ref"] = ref
    if command_id is not None:
        out["command_id"] = command_id
    return out


def _sendable(text: str) -> str:
    """``text`` with anything UTF-8 cannot carry (a lone surrogate quoted from a client's
    message) spelt as an escape, so an error about bad text can itself be sent."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _jsonable(value: Any) -> Any:
    """``value`` as JSON that can be sent: ``str()`` of what JSON has no type for, text made sendable."""
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        value = json.loads(json.dumps(value, default=str))
    return _sendable_tree(value)


def _sendable_tree(value: Any) -> Any:
    if isinstance(value, str):
        return _sendable(value)
    if isinstance(value, dict):
        return {_sendable(str(k)): _sendable_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sendable_tree(v) for v in value]
    return value


__all__ = [
    "PROTOCOL_VERSION", "CLIENT_MESSAGES", "SERVER_MESSAGES", "SERVER_ERRORS", "ProtocolError",
    "CLOSE_TOO_SLOW", "CLOSE_FLOODING", "CLOSE_SHUTDOWN", "CLOSE_TOO_BIG", "CLOSE_LINK_REPLACED", "CLOSE_REASONS",
    "MAX_TEXT", "MAX_DEPTH", "MAX_INT", "too_deep", "peek_ref", "holds_no_value_problem",
    "schema", "parse_client_message", "decode_client_message", "read_client_message", "validate_client_message", "reply_ref", "validate_server_message", "dumps", "error_message",
]
