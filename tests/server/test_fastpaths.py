"""The server's fast paths give exactly what the slow, obvious code gives.

Publishing builds each view from cached per-combatant values
(:class:`ViewBuilder`), and the hottest client messages are checked by a
hand-written test before falling back to the JSON Schema. Both are checked here
against the plain versions: the same text, and the same accept/refuse decision.
"""

from __future__ import annotations

import copy
import enum
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.rules.ruleset import get_ruleset
from combat_server.server import protocol
from combat_server.patch import diff, normalize
from combat_server.server import views as views_module
from combat_server.server.views import json_value, _plain_keys, _same_members
from combat_server.server.views import DerivedCache, ViewBuilder, same_json, full_state, hidden_from, normalized, state_view, view_key
from combat_server.store.sql import open_store

from .conftest import SHEET, Keeper


def _slow(state: Any, key: str) -> Any:
    rs = get_ruleset(state.ruleset, state.ruleset_version)
    return normalize(json.loads(json.dumps(state_view(full_state(rs, state), state, key))))


def test_view_builder_matches_state_view(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path / 'enc.sqlite'}", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", title="t \u00e9 \"q\"", dice_mode="seeded", seed="s").fight_id
    builder = ViewBuilder()
    keys = ["gm", "public", "public:orc", "public:elf,orc"]

    def check() -> None:
        state = engine.load(fid)
        rs = get_ruleset(state.ruleset, state.ruleset_version)
        real_keys = {view_key("gm", (), state), view_key("player", ("alice",), state),
                     view_key("player", ("orc",), state), view_key("player", ("orc", "elf"), state), *keys}
        for key in real_keys:
            fast = json.loads(json.dumps(builder.view(rs, state, frozenset(hidden_from(key, state)))))
            assert fast == _slow(state, key), key
            assert list(fast) == list(_slow(state, key))  # same key order

    check()
    steps: list[tuple[str, dict[str, Any]]] = [
        ("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": SHEET}),
        ("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET, "hidden": True}),
        ("add_combatant", {"id": "elf", "name": "Elf", "side": "npc", "sheet": SHEET, "hidden": True}),
        ("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "x"}),
        ("adjust", {"combatant": "alice", "changes": {"hp": -2}, "reason": "y"}),
        ("remove_combatant", {"id": "elf"}),
        ("start_combat", {}),
    ]
    for i, (kind, args) in enumerate(steps):
        try:
            engine.execute(fid, Command(kind, args, GM_ACTOR, f"c{i}"))
        except Exception as exc:  # a command this ruleset names differently: the rest still counts
            if kind not in ("remove_combatant", "start_combat"):
                raise
            print(f"skipped {kind}: {exc}")
        check()
        check()  # again, from the caches
    store.dispose()


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=4))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(max_size=3), st.integers()), inner, max_size=5)), max_leaves=20)


@pytest.mark.parametrize("value", ["", "x", 0, 7, -2 ** 70, 2 ** 70, True, False, None])
def test_a_plain_scalar_is_its_own_view_value(value: Any) -> None:
    """ViewBuilder takes a state's string, exact int, bool or None member as its value without asking
    json_value (the definition): the converter's hook and normalize give the value itself."""
    assert type(value) in views_module._PLAIN
    assert json_value(value) is value


@given(_VALUES)
def test_normalized_is_normalize(value: Any) -> None:
    """The views' one-level fast path gives what ``patch.normalize`` gives: the same types (1 and 1.0
    and True apart, lists for tuples), keys and order."""
    assert repr(normalized(value)) == repr(normalize(value))


_TEXTS = st.one_of(st.text(max_size=6), st.sampled_from(["\x00", "a\ud800", "\udfff", "x" * 2001, "é"]))
_MESSAGE_VALUES = st.recursive(
    st.one_of(_TEXTS, st.integers(), st.sampled_from([2 ** 53 - 1, 2 ** 53, -(2 ** 53), 10 ** 15, 10 ** 30]),
              st.booleans(), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TEXTS, inner, max_size=3)), max_leaves=12)


@given(_MESSAGE_VALUES, st.booleans())
def test_a_text_cleared_of_value_problems_decodes_to_none(value: Any, ascii_only: bool) -> None:
    """``holds_no_value_problem`` may only spare the walk over a message's values when the walk would find nothing."""
    text = json.dumps({"type": "command", "args": value}, ensure_ascii=ascii_only)
    if protocol.holds_no_value_problem(text):
        assert protocol._value_problem(json.loads(text), []) is None


def _not_json(word: str) -> Any:
    raise ValueError(word)


@pytest.mark.parametrize("text", ['{"a":"\\u0000"}', '{"a":"\\ud800"}', '{"a":9007199254740992}',
                                  '{"a":"' + "x" * 2001 + '"}', '{"\u00e9":1}'])
def test_texts_that_may_hold_a_value_problem_are_not_cleared(text: str) -> None:
    assert not protocol.holds_no_value_problem(text)


def _valid_by_schema(message: dict[str, Any]) -> bool:
    kind = message.get("type")
    return kind in protocol.CLIENT_MESSAGES and not list(protocol.validator(str(kind)).iter_errors(message))


COMMANDS: list[Any] = [
    {"type": "command", "command_id": "c1", "command": "adjust", "args": {"a": 1}},
    {"type": "command", "command_id": "c1", "command": "adjust"},
    {"type": "command", "command_id": "c1", "command": "adjust", "ref": "r1", "v": 5, "expect_seq": 0,
     "faces": [[1, 2], []]},
    {"type": "command", "command_id": "", "command": "adjust"},
    {"type": "command", "command_id": "x" * 129, "command": "adjust"},
    {"type": "command", "command_id": "x" * 128, "command": "a" * 64},
    {"type": "command", "command_id": "c", "command": "a" * 65},
    {"type": "command", "command_id": "c", "command": "Adjust"},
    {"type": "command", "command_id": "c", "command": "adjust\n"},
    {"type": "command", "command_id": "c", "command": "9x"},
    {"type": "command", "command_id": 5, "command": "adjust"},
    {"type": "command", "command_id": "c", "command": "adjust", "args": []},
    {"type": "command", "command_id": "c", "command": "adjust", "extra": 1},
    {"type": "command", "command_id": "c", "command": "adjust", "ref": ""},
    {"type": "command", "command_id": "c", "command": "adjust", "ref": 3},
    {"type": "command", "command_id": "c", "command": "adjust", "v": True},
    {"type": "command", "command_id": "c", "command": "adjust", "v": 3.0},
    {"type": "command", "command_id": "c", "command": "adjust", "expect_seq": -1},
    {"type": "command", "command_id": "c", "command": "adjust", "expect_seq": 2.0},
    {"type": "command", "command_id": "c", "command": "adjust", "expect_seq": True},
    {"type": "command", "command_id": "c", "command": "adjust", "faces": [[True]]},
    {"type": "command", "command_id": "c", "command": "adjust", "faces": [[1.5]]},
    {"type": "command", "command_id": "c", "command": "adjust", "faces": [[0] * 101]},
    {"type": "command", "command_id": "c", "command": "adjust", "faces": [[]] * 101},
    {"type": "command", "command_id": "c", "command": "adjust", "faces": [1]},
    {"type": "command", "command": "adjust"},
    {"type": "command", "command_id": "c", "command": 5},
    {"type": "command", "command_id": "c", "command": ["adjust"]},
    {"type": "command", "command_id": "c", "command": {"adjust": 1}},
    {"type": "command", "command_id": "c", "command": "import_character"},
    {"type": "subscribe", "token": "t"},
    {"type": "subscribe", "token": "t", "after": 3, "live": False, "ref": "r", "v": 5},
    {"type": "subscribe", "token": ""},
    {"type": "subscribe", "token": "t" * 201},
    {"type": "subscribe", "token": "t", "after": -1},
    {"type": "subscribe", "token": "t", "after": True},
    {"type": "subscribe", "token": "t", "live": 1},
    {"type": "subscribe", "token": "t", "x": 1},
    {"type": "subscribe"},
]


@pytest.mark.parametrize("message", COMMANDS)
def test_fast_validation_agrees_with_the_schema(message: dict[str, Any]) -> None:
    fast = protocol.FAST_CHECKS[message["type"]](message)
    schema_ok = _valid_by_schema(message)
    assert not fast or schema_ok  # the fast check never accepts what the schema refuses
    if "v" not in message or message["v"] == protocol.PROTOCOL_VERSION:
        try:
            protocol.validate_client_message(dict(message))
            accepted = True
        except protocol.ProtocolError as exc:
            assert exc.code == "protocol/schema"
            accepted = False
        assert accepted == schema_ok


def test_a_command_name_remembered_by_the_fast_check_gets_the_same_answer() -> None:
    """``_fast_command`` remembers the names that matched (issue 16): the answers with every name
    remembered are those of the first pass, in which none was."""
    protocol._GOOD_NAMES.clear()
    first = [protocol.FAST_CHECKS[m["type"]](m) for m in COMMANDS]
    assert protocol._GOOD_NAMES  # the valid names were remembered
    assert [protocol.FAST_CHECKS[m["type"]](m) for m in COMMANDS] == first


@given(_MESSAGE_VALUES, st.booleans())
def test_reading_a_message_gives_what_decoding_and_clearing_it_give(value: Any, ascii_only: bool) -> None:
    """``read_client_message`` (one encoding and one digit scan, issue 16) decodes as ``json.loads`` and
    clears the text exactly when ``holds_no_value_problem`` does."""
    text = json.dumps({"type": "command", "args": value}, ensure_ascii=ascii_only)
    message, plain = protocol.read_client_message(text)
    assert json.dumps(message) == json.dumps(json.loads(text))
    assert plain == protocol.holds_no_value_problem(text)


@pytest.mark.parametrize("text", ['{"a":"\\u0000"}', '{"a":"\\ud800"}', '{"a":9007199254740992}',
                                  '{"a":"' + "x" * 2001 + '"}', '{"\u00e9":1}', '{"a":1}', '{"a":-1234567890123456789012}',
                                  '{"a":1e400}', '{"a":NaN}', '[1]', '{"a":', '"\ud800"',
                                  '{"a":' + "[" * 33 + "]" * 33 + "}", '{"a":' + "[" * 32 + "]" * 32 + "}",
                                  '{"a":"' + "[{" * 40 + '"}', '{"a":' + "{}," * 40 + '1}',
                                  '{"\ud800":' + "[" * 40 + "]" * 40 + "}", '{"a":"\u00e9[[{{"}'])
def test_reading_a_message_answers_as_decoding_and_clearing_it(text: str) -> None:
    """The same message, or the same refusal, as ``json.loads`` and the checks one by one (too deep first)."""
    if protocol.too_deep(text, protocol.MAX_DEPTH):
        with pytest.raises(protocol.ProtocolError) as refused:
            protocol.read_client_message(text)
        assert refused.value.code == "protocol/too_deep"
        return
    try:  # JSON as json reads it, less its NaN and Infinity (not JSON: refused, docs/protocol.md)
        expected: Any = json.loads(text, parse_constant=_not_json)
    except ValueError:
        expected = None
    try:
        message, plain = protocol.read_client_message(text)
    except protocol.ProtocolError as exc:
        assert exc.code == "protocol/bad_json"
        assert expected is None or not isinstance(expected, dict)
        return
    assert json.dumps(message) == json.dumps(expected)
    assert plain == protocol.holds_no_value_problem(text)


def test_dumps_is_compact_json_and_falls_back_for_what_orjson_refuses() -> None:
    value = {"a": [1, 2.5, None, True], "é": "ü\n", "n": {"x": {}}}
    assert protocol.dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert protocol.dumps({"big": 2 ** 70}) == '{"big":1180591620717411303424}'
    assert protocol.dumps({1: "x"}) == '{"1":"x"}'


@pytest.mark.parametrize("kind", protocol.CLIENT_MESSAGES)
def test_every_client_message_may_carry_this_protocols_version(kind: str) -> None:
    """docs/protocol.md: any client message may carry ``"v": PROTOCOL_VERSION`` (calculate and new_link's schemas
    still asked for 1 until protocol 5, so neither could carry a version the server accepts)."""
    assert protocol.schema(kind)["properties"]["v"]["const"] == protocol.PROTOCOL_VERSION


@given(_VALUES, _VALUES)
def test_values_same_json_says_alike_give_no_patch_and_one_text(a: Any, b: Any) -> None:
    """``same_json`` (DerivedCache keeps the earlier derived view when a recomputed one is the same) may only say
    so when the definitions cannot tell the two apart: the same normalized value (types, keys, order), no
    patch between them, the same canonical text."""
    for x, y in ((a, b), (a, a), (a, normalize(a)), (a, json.loads(json.dumps(a)) if not _has_float(a) else a)):
        if same_json(x, y):
            assert repr(normalize(x)) == repr(normalize(y))
            assert diff({"v": normalize(x)}, {"v": normalize(y)}) == []
            assert json.dumps(normalize(x), sort_keys=True) == json.dumps(normalize(y), sort_keys=True)


@st.composite
def _derived_pairs(draw: st.DrawFn) -> tuple[Any, Any]:
    """A derived view and a recomputed one with the same key objects in the same order (as the ruleset's
    literals are): each member the same object, an equal copy, or another value."""
    old = draw(st.dictionaries(st.text(max_size=3), _VALUES, max_size=5))
    choices = [draw(st.integers(0, 2)) for _ in old]
    new = {k: v if c == 0 else copy.deepcopy(v) if c == 1 else draw(_VALUES) for (k, v), c in zip(old.items(), choices)}
    return new, old


@given(_derived_pairs())
def test_derived_views_alike_member_by_member_keep_same_json_s_promises(pair: tuple[Any, Any]) -> None:
    """``_same_members`` (DerivedCache: only the members that are new objects written by marshal) may only say
    alike when the definitions cannot tell the two apart, and says so whenever ``same_json`` does."""
    new, old = pair
    if _same_members(new, old, _plain_keys(old)):
        assert repr(normalize(new)) == repr(normalize(old))
        assert diff({"v": normalize(new)}, {"v": normalize(old)}) == []
        assert json.dumps(normalize(new), sort_keys=True) == json.dumps(normalize(old), sort_keys=True)
    elif same_json(new, old):
        raise AssertionError("same_json says alike, _same_members does not")


def test_derived_views_with_other_keys_are_not_alike_member_by_member() -> None:
    """Keys that are not the old view's key objects, in its order, or not exact strings: never alike."""
    class Key(str):
        pass

    old = {"a": 1, "b": 2}
    assert _same_members(dict(old), old, _plain_keys(old))
    assert not _same_members({"b": 2, "a": 1}, old, _plain_keys(old))
    assert not _same_members({"a": 1}, old, _plain_keys(old))
    assert not _same_members({Key("a"): 1, "b": 2}, old, _plain_keys(old))
    odd = {Key("a"): 1}
    assert _plain_keys(odd) is None and not _same_members(dict(odd), odd, _plain_keys(odd))
    assert not _same_members({"a": True, "b": 2}, old, _plain_keys(old))


def _has_float(value: Any) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, dict):
        return any(_has_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_float(v) for v in value)
    return False


class _Level(enum.IntEnum):
    ONE = 1


@pytest.mark.parametrize("a, b", [({"x": True}, {"x": 1}), ({"x": 1.0}, {"x": 1}), ({"a": 1, "b": 2}, {"b": 2, "a": 1}),
                                  ({"x": float("nan")}, {"x": float("nan")}), ({"x": _Level.ONE}, {"x": 1}),
                                  ({"x": _Level.ONE}, {"x": _Level.ONE}), ({"x": (1,)}, {"x": [1]}), ({"x": -0.0}, {"x": 0.0})])
def test_values_that_show_differently_or_are_not_plain_json_are_not_the_same(a: Any, b: Any) -> None:
    assert not same_json(a, b)


def test_the_derived_cache_keeps_the_earlier_view_while_its_numbers_stay(tmp_path: Path) -> None:
    """A GM's HP adjustment that leaves the derived numbers as they were gives the earlier view object (so the
    view builder, the view hash and the diff skip it by identity); one that changes them (reeling below a third
    of HP) gives the new view, equal to the ruleset's."""
    store = open_store(f"sqlite:///{tmp_path / 'dc.sqlite'}", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", dice_mode="seeded", seed="s").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": SHEET},
                                GM_ACTOR, "c0"))
    cache = DerivedCache()
    state = engine.load(fid)
    rs = get_ruleset(state.ruleset, state.ruleset_version)
    first = cache.views(rs, state)["alice"]
    for i, (hp, same) in enumerate([(9, True), (8, True), (2, False), (1, True), (10, False)]):
        engine.execute(fid, Command("adjust", {"combatant": "alice", "changes": {"hp": hp}, "reason": "x"},
                                    GM_ACTOR, f"a{i}"))
        state = engine.load(fid)
        view = cache.views(rs, state)["alice"]
        assert view == rs.view_combatant(state, "alice")
        assert (view is first) == same, hp
        first = view
    store.dispose()


def test_the_derived_member_is_built_again_when_a_derived_view_changes(tmp_path: Path) -> None:
    """``ViewBuilder`` keeps a view's ``derived`` member while ``DerivedCache.version`` stays (issue 16): a view
    whose numbers change (HP down to reeling, G-43), a combatant added or removed, builds it again."""
    store = open_store(f"sqlite:///{tmp_path / 'd.sqlite'}", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", title="t", dice_mode="seeded", seed="s").fight_id
    builder = ViewBuilder()
    steps: list[tuple[str, dict[str, Any]]] = [
        ("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": SHEET}),
        ("adjust", {"combatant": "alice", "changes": {"hp": 9}, "reason": "x"}),
        ("adjust", {"combatant": "alice", "changes": {"hp": 2}, "reason": "reeling"}),
        ("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET}),
        ("adjust", {"combatant": "orc", "changes": {"fp": 1}, "reason": "tired"}),
        ("remove_combatant", {"id": "alice"}),
    ]
    for i, (kind, args) in enumerate(steps):
        engine.execute(fid, Command(kind, args, GM_ACTOR, f"d{i}"))
        state = engine.load(fid)
        rs = get_ruleset(state.ruleset, state.ruleset_version)
        for _ in range(2):  # built, then from the caches
            assert builder.view(rs, state, frozenset())["derived"] == normalize(DerivedCache().views(rs, state))
    store.dispose()


async def test_every_push_patches_the_seats_view_to_the_one_it_is_then_sent_whatever_is_hidden(
        tmp_path: Path) -> None:
    """The hub's push for the usual fight (nothing hidden now, no seat holding a view that hid anything: the
    text told by the seat's chain alone, issue 16) and for any other (what each seat holds and may see, told
    per seat) patch each seat's view, whole as ``view_key`` gives it, to the view after the event, with the
    hash of that view: GM, players and spectators, with and without the chain, while a combatant is hidden,
    revealed, adjusted, and a hidden one removed."""
    from combat_server.patch import apply_wire, view_hash
    from combat_server.server.hub import FightHub, Seat

    store = open_store(f"sqlite:///{tmp_path / 'p.sqlite'}", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", title="p", dice_mode="seeded", seed="s").fight_id
    for i, (cid, hidden) in enumerate((("alice", False), ("orc", False), ("elf", True))):
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid.title(), "side": "npc", "sheet": SHEET,
                                                      "hidden": hidden}, GM_ACTOR, f"a{i}"))
    hub = FightHub(engine, fid)
    seats = [(Seat(fid, "gm", "gm"), False), (Seat(fid, "p1", "player", combatants=("orc",)), True),
             (Seat(fid, "p2", "player", combatants=("alice",)), False), (Seat(fid, "s1", "spectator"), False),
             (Seat(fid, "s2", "spectator"), True)]
    subs = [Keeper(seat, chain) for seat, chain in seats]

    def whole(sub: Keeper, state: Any) -> Any:
        return _slow(state, view_key(sub.seat.role, sub.seat.combatants, state))

    steps: list[tuple[str, dict[str, Any]]] = [
        ("adjust", {"combatant": "alice", "changes": {"hp": 7}, "reason": "x"}),
        ("remove_combatant", {"id": "elf"}),  # the last hidden one gone: the usual fight from here
        ("adjust", {"combatant": "alice", "changes": {"hp": 6}, "reason": "x"}),
        ("adjust", {"combatant": "orc", "changes": {"hp": 2}, "reason": "reeling"}),
        ("update_combatant", {"id": "orc", "hidden": True}),
        ("adjust", {"combatant": "orc", "changes": {"hp": 5}, "reason": "x"}),
        ("update_combatant", {"id": "orc", "hidden": False}),
        ("adjust", {"combatant": "orc", "changes": {"fp": 2}, "reason": "tired"}),
        ("adjust", {"combatant": "alice", "changes": {"hp": 5}, "reason": "x"}),
    ]

    async def run() -> None:
        async with hub.lock:
            held = {}
            for sub in subs:
                hub.add(sub, hub.synced_seq)
                hub.live_view(sub)
                held[id(sub)] = whole(sub, hub.synced_state)
            for i, (kind, args) in enumerate(steps):
                before = hub.state()
                result = engine.execute(fid, Command(kind, args, GM_ACTOR, f"s{i}"))
                hub.publish(result, before)
                for sub in subs:
                    push = json.loads(sub.sent.pop())
                    assert not sub.sent and push["seq"] == result.state.seq
                    expected = whole(sub, result.state)
                    patched = apply_wire(held[id(sub)], push["patch"])
                    assert {**patched, "seq": expected["seq"]} == expected, (kind, sub.seat.seat_id)
                    assert push["view_hash"] == view_hash(expected)
                    held[id(sub)] = expected

    await run()
    store.dispose()


@pytest.mark.parametrize("payload", [
    {"combatant": "c", "changes": {"hp": 7}, "before": {"hp": 6}, "reason": "bench"},
    {"text": "é \u2028 \"q\" \\ \x00 \U0001f600", "n": -1.5, "none": None, "list": [1, True, "x"]},
    {"big": 2 ** 70},  # orjson refuses it: the fields are encoded one by one, as before
    {1: "a non-string key", "nested": {2: [3]}},
])
@pytest.mark.parametrize("chain", [False, True])
def test_a_live_items_fields_in_one_encoding_are_the_fields_encoded_one_by_one(payload: dict[Any, Any],
                                                                                chain: bool) -> None:
    """``FightHub._live_item`` encodes seq, event and explanation in one orjson call (issue 16): the same text
    as the fields by ``protocol.dumps`` one by one, which it falls back to for what orjson refuses."""
    from combat_server.rules.model import Event
    from combat_server.server.hub import FightHub, _Entry

    event = Event("f", 12, "condition_adjusted", payload, "gm", "gm:x", "2026-11-26T00:00:00Z", "1", "p" * 64,
                  "h" * 64)
    explanation = "GM adjusted C: hp 6 -> 7. Reason: bench \u00e9."
    item = FightHub._live_item(None, _Entry(event, explanation), frozenset(), None, chain)  # type: ignore[arg-type]
    data: dict[str, Any] = {"type": event.type, "payload": payload, "actor": event.actor}
    if chain:
        data.update(command_id=event.command_id, recorded_at=event.recorded_at, hash=event.hash)
    assert item == f'"seq":12,"event":{protocol.dumps(data)},"explanation":{protocol.dumps(explanation)}'


async def test_seats_sent_the_same_push_are_handed_one_string_object(tmp_path: Path) -> None:
    """Issue 16: when an event hides nothing, the GM, players and spectators are sent the same text, and the hub
    hands them one string object, so each connection reuses the frame the one before made of it (the server's
    frame cache is keyed by identity); a seat asking for the chain gets its own; while a combatant is hidden,
    the seats that see the same (here a player and a spectator) still share one, the GM's differs."""
    from combat_server.server.hub import FightHub, Seat

    store = open_store(f"sqlite:///{tmp_path / 'one.sqlite'}", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", title="one").fight_id
    for i, cid in enumerate(("alice", "orc")):
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid.title(), "side": "npc", "sheet": SHEET},
                                    GM_ACTOR, f"a{i}"))
    hub = FightHub(engine, fid)
    gm, player, spectator, chained = (Keeper(Seat(fid, "gm", "gm")), Keeper(Seat(fid, "p1", "player", combatants=("orc",))),
                                      Keeper(Seat(fid, "s1", "spectator")), Keeper(Seat(fid, "s2", "spectator"), True))

    async def run(kind: str, args: dict[str, Any], cid: str) -> None:
        async with hub.lock:
            before = hub.state()
            hub.publish(engine.execute(fid, Command(kind, args, GM_ACTOR, cid)), before)

    async def scenario() -> None:
        async with hub.lock:
            for sub in (gm, player, spectator, chained):
                hub.add(sub, hub.synced_seq)
                hub.live_view(sub)
        await run("adjust", {"combatant": "alice", "changes": {"hp": 7}, "reason": "x"}, "c1")
        assert gm.sent[-1] is player.sent[-1] is spectator.sent[-1]
        assert chained.sent[-1] is not gm.sent[-1] and chained.sent[-1] != gm.sent[-1]
        await run("add_combatant", {"id": "elf", "name": "Elf", "side": "npc", "sheet": SHEET, "hidden": True}, "c2")
        assert player.sent[-1] is spectator.sent[-1]
        assert gm.sent[-1] != spectator.sent[-1]

    await scenario()
    store.dispose()
