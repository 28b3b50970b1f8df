"""combat_server/patch.py: the view patches of protocol 2 (issue 16, docs/protocol.md "Views and patches")."""

from __future__ import annotations

import zlib
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.patch import (PatchError, ViewHasher, ViewPatcher, apply_patch, apply_wire, diff, normalize, to_wire,
                                 view_hash)

keys = st.sampled_from(["a", "b", "hp", "a/b", "~x", "", "é"])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=20,
)


@given(json_values, json_values)
def test_applying_the_diff_gives_the_new_value(old: Any, new: Any) -> None:
    assert apply_patch(old, diff(old, new)) == new


@given(st.dictionaries(keys, json_values), st.dictionaries(keys, json_values))
def test_applying_leaves_the_old_document_as_it_was(old: dict[str, Any], new: dict[str, Any]) -> None:
    frozen = repr(old)
    apply_patch(old, diff(old, new))
    assert repr(old) == frozen


def test_one_changed_leaf_is_one_replace_at_its_path() -> None:
    shared = {"sheet": {"st": 12}}
    old = {"seq": 4, "combatants": {"c": {"condition": {"hp": 5}, "x": shared}}}
    new = {"seq": 5, "combatants": {"c": {"condition": {"hp": 6}, "x": shared}}}
    assert diff(old, new) == [{"op": "replace", "path": "/seq", "value": 5},
                              {"op": "replace", "path": "/combatants/c/condition/hp", "value": 6}]


def test_members_are_added_at_the_end_and_removed_by_name() -> None:
    old = {"combatants": {"a": 1, "b": 2}}
    new = {"combatants": {"b": 2, "c": 3}}
    ops = diff(old, new)
    assert ops == [{"op": "add", "path": "/combatants/c", "value": 3}, {"op": "remove", "path": "/combatants/a"}]
    assert list(apply_patch(old, ops)["combatants"]) == ["b", "c"]


def test_arrays_are_replaced_whole() -> None:
    assert diff({"undone": [1, 2]}, {"undone": [1, 2, 3]}) == [{"op": "replace", "path": "/undone", "value": [1, 2, 3]}]


def test_a_boolean_is_not_the_number_one() -> None:
    assert diff({"x": 1}, {"x": True}) == [{"op": "replace", "path": "/x", "value": True}]


def test_keys_with_slash_and_tilde_are_escaped_as_json_pointer_says() -> None:
    ops = diff({}, {"a/b": 1, "~c": 2})
    assert [op["path"] for op in ops] == ["/a~1b", "/~0c"]
    assert apply_patch({}, ops) == {"a/b": 1, "~c": 2}


@pytest.mark.parametrize("doc, op", [
    ({"a": 1}, {"op": "replace", "path": "/b", "value": 2}),
    ({"a": 1}, {"op": "remove", "path": "/b"}),
    ({"a": 1}, {"op": "add", "path": "/a/b", "value": 2}),
    ({"a": [1]}, {"op": "replace", "path": "/a/0", "value": 2}),
    ({"a": 1}, {"op": "move", "path": "/a", "from": "/b"}),
    ({"a": 1}, {"op": "add", "path": "a", "value": 2}),
])
def test_a_patch_that_does_not_fit_is_refused(doc: Any, op: dict[str, Any]) -> None:
    with pytest.raises(PatchError):
        apply_patch(doc, [op])


def _crc(text: str) -> str:
    return format(zlib.crc32(text.encode("utf-8")), "08x")


def test_the_hash_is_crc32_of_the_members_digests_in_key_order() -> None:
    """By hand (protocol 5): the members' canonical texts are "a":"é" and "b":1, each hashed, and the view's
    hash is that of {digest of a,digest of b}."""
    expected = _crc("{" + _crc('"a":"é"') + "," + _crc('"b":1') + "}")
    assert view_hash({"b": 1, "a": "é"}) == expected


def test_the_hash_of_combatants_is_of_their_entries_digests() -> None:
    """combatants and derived are hashed entry by entry: "orc":{"hp":9} (keys sorted inside) is one digest, and
    the member's text is "combatants":{its entries' digests}; any other member is hashed whole."""
    orc = _crc('"orc":{"hp":9,"st":12}')
    elf = _crc('"elf":{"hp":10}')
    combatants = _crc('"combatants":{' + elf + "," + orc + "}")
    expected = _crc("{" + combatants + "," + _crc('"prompts":[{"id":1}]') + "," + _crc('"seq":3') + "}")
    view = {"seq": 3, "combatants": {"orc": {"st": 12, "hp": 9}, "elf": {"hp": 10}}, "prompts": [{"id": 1}]}
    assert view_hash(view) == expected
    assert ViewHasher()(view) == expected


def test_the_worked_example_of_the_protocol_doc() -> None:
    """docs/protocol.md, "The check": the digests a third-party client can check its own code against."""
    assert _crc('"orc":{"hp":9}') == "9258f369"
    assert _crc('"combatants":{9258f369}') == "0fc35905" and _crc('"seq":3') == "6b199a81"
    assert view_hash({"seq": 3, "combatants": {"orc": {"hp": 9}}}) == "da04e80b"


def test_combatants_that_are_not_an_object_are_hashed_whole() -> None:
    assert view_hash({"combatants": [1, 2]}) == _crc("{" + _crc('"combatants":[1,2]') + "}")
    assert view_hash({"derived": {}}) == _crc("{" + _crc('"derived":{}') + "}")


def test_normalize_writes_integral_floats_as_integers_as_javascript_does() -> None:
    assert normalize({"w": 0.0, "x": 1.5, "t": (1, 2.0)}) == {"w": 0, "x": 1.5, "t": [1, 2]}
    assert type(normalize(3.0)) is int


_entries = st.dictionaries(st.text(max_size=4), st.one_of(st.integers(-10**6, 10**6), st.text(max_size=4), st.none()),
                           max_size=4)


@given(st.lists(st.dictionaries(st.sampled_from(["a", "b", "c/d", "é", "~"]), _entries, max_size=5),
                min_size=1, max_size=6))
def test_the_server_hasher_gives_view_hash_of_every_view_in_a_sequence(steps: list[dict[str, Any]]) -> None:
    """ViewHasher (issue 16: re-encodes only changed combatants) is byte for byte view_hash, whatever
    combatants come, change, stay the same object or go, and views of other shapes in between."""
    hasher = ViewHasher()
    previous: dict[str, Any] = {}
    for combatants in steps:
        # Unchanged entries stay the same object, as the server's view builder keeps them.
        shared = {k: previous[k] if previous.get(k) == v else v for k, v in combatants.items()}
        view = {"seq": len(previous), "combatants": shared, "derived": dict(shared), "title": "t"}
        assert hasher(view) == view_hash(view)
        previous = shared
    other = {"combatants": [1, 2], "derived": None}  # not objects of entries: encoded whole
    assert hasher(other) == view_hash(other)


def test_the_server_hasher_sees_an_entry_replaced_by_a_new_object() -> None:
    hasher = ViewHasher()
    first = {"combatants": {"orc": {"hp": 10}}, "derived": {}}
    second = {"combatants": {"orc": {"hp": 9}}, "derived": {}}
    assert hasher(first) == view_hash(first) and hasher(second) == view_hash(second) != view_hash(first)



_cids = st.sampled_from(["a", "b", "c/d", "é"])
_client_views = st.fixed_dictionaries(
    {"combatants": st.one_of(st.dictionaries(_cids, json_values, max_size=4), json_values),
     "derived": st.dictionaries(_cids, json_values, max_size=4)},
    optional={"title": json_values, "prompts": json_values, "combat": json_values})


@given(st.lists(_client_views, min_size=1, max_size=6))
def test_the_hasher_gives_view_hash_of_every_view_a_client_patches(steps: list[dict[str, Any]]) -> None:
    """A client's copies (issue 16: as CombatClient hashed them before ViewPatcher): each is the one before with
    the pushed ops applied (apply_wire copies only the objects on the changed paths, the rest stays the same
    object) and the push's seq. The hash is byte for byte view_hash's, whatever a push changes, adds or
    removes, at any depth, combatant entries or whole members."""
    hasher = ViewHasher()
    held: dict[str, Any] = {"seq": 0, "combatants": {}, "derived": {}}
    for seq, target in enumerate(steps, 1):
        view = {**apply_wire(held, to_wire(diff(held, {**target, "seq": held["seq"]}))), "seq": seq}
        assert hasher(view) == view_hash(view)
        held = view


_names = st.sampled_from(["seq", "title", "combatants", "derived", "prompts", "é"])


@given(st.dictionaries(_names, json_values, min_size=1),
       st.lists(st.tuples(st.sets(_names), st.booleans(), st.sets(_names)), min_size=1, max_size=8))
def test_the_hasher_gives_view_hash_whatever_changes_and_in_whatever_key_order(
        first: dict[str, Any], steps: list[tuple[set[str], bool, set[str]]]) -> None:
    """The hasher's kept pieces (issue 16: the members that are not the same objects found in C when the keys
    come in the same order) against their definition: each step makes some members new objects (equal or not,
    split members' entries too), maybe turns the key order round, and drops or adds members."""
    hasher = ViewHasher()
    view = dict(first)
    assert hasher(view) == view_hash(view)
    for renewed, turned, toggled in steps:
        view = {name: orjson.loads(orjson.dumps(value)) if name in renewed else value for name, value in view.items()}
        for name in toggled:
            if name in view and len(view) > 1:
                del view[name]
            else:
                view[name] = {"c": {"hp": len(view)}}
        if turned:
            view = dict(reversed(list(view.items())))
        assert hasher(view) == view_hash(view)


def test_the_hasher_keeps_nothing_of_a_view_it_could_not_hash() -> None:
    """A member that cannot be encoded raises (as view_hash does), after the hasher made the pieces of the
    members before it: none of them is kept for the values it held before (the view before, hashed again)."""
    hasher = ViewHasher()
    before = {"a": [1], "b": [2], "combatants": {"c": {"hp": 1, "st": 10}}}
    bad = {"a": [3], "b": {1, 2}, "combatants": {"c": {"hp": 2, "st": {3}}}}
    assert hasher(before) == view_hash(before)
    for _ in range(2):
        with pytest.raises(TypeError):
            hasher(bad)
        assert hasher(before) == view_hash(before)
    worse = {"a": [3], "b": [2], "combatants": {"c": {"hp": 2, "st": {3}}}}
    with pytest.raises(TypeError):
        hasher(worse)
    assert hasher(before) == view_hash(before)


def test_an_entry_with_keys_that_are_not_strings_is_hashed_as_view_hash_does() -> None:
    hasher = ViewHasher()
    views = [{"combatants": {"c": {"hp": 1}}}, {"combatants": {"c": {1: 1}}}, {"combatants": {"c": {"hp": 1}}}]
    for view in views:
        try:
            expected: Any = view_hash(view)
        except TypeError as exc:
            expected = type(exc)
        try:
            got: Any = hasher(view)
        except TypeError as exc:
            got = type(exc)
        assert got == expected


def test_the_hasher_sees_a_member_that_is_no_longer_split() -> None:
    """combatants as an object of entries, then as an array, then as an object again: never a stale text."""
    hasher = ViewHasher()
    views = [{"combatants": {"a": {"hp": 1}}}, {"combatants": [1]}, {"combatants": {"a": {"hp": 1}}}]
    assert [hasher(v) for v in views] == [view_hash(v) for v in views]

@given(json_values, json_values)
def test_applying_the_pushed_form_of_the_diff_gives_the_new_value(old: Any, new: Any) -> None:
    """Protocol 4's ops ([path, value] sets, [path] removes) do what the diff's RFC 6902 ops do."""
    assert apply_wire(old, to_wire(diff(old, new))) == new


def test_the_pushed_form_is_path_and_value_or_path_alone() -> None:
    ops = diff({"a": 1, "b": 2, "c": {"d": 3}}, {"a": 5, "c": {"d": 3}, "e": 6})
    assert to_wire(ops) == [["/a", 5], ["/e", 6], ["/b"]]


def test_a_pushed_set_replaces_in_place_and_adds_at_the_end() -> None:
    doc = apply_wire({"a": 1, "b": 2}, [["/a", 5], ["/c", 3]])
    assert list(doc.items()) == [("a", 5), ("b", 2), ("c", 3)]


@pytest.mark.parametrize("doc, op", [
    ({"a": 1}, ["/b"]),
    ({"a": 1}, ["/a/b", 2]),
    ({"a": [1]}, ["/a/0", 2]),
    ({"a": 1}, ["a", 2]),
    ({"a": 1}, [""]),
    ({"a": 1}, []),
    ({"a": 1}, ["/a", 1, 2]),
    ({"a": 1}, {"op": "replace", "path": "/a", "value": 2}),
])
def test_a_pushed_op_that_does_not_fit_is_refused(doc: Any, op: Any) -> None:
    with pytest.raises(PatchError):
        apply_wire(doc, [op])


@given(st.lists(st.dictionaries(st.sampled_from(["seq", "prompts", "combat", "title"]),
                                st.one_of(st.integers(0, 3), st.lists(st.integers(0, 2), max_size=2), st.none()),
                                max_size=4), min_size=1, max_size=6))
def test_the_server_hasher_sees_every_top_level_member_change(steps: list[dict[str, Any]]) -> None:
    """Members other than the per-combatant ones are cached by identity too (issue 16): a member kept as the
    same object reuses its text, a new object (equal or not), an added or a removed member is hashed anew."""
    hasher = ViewHasher()
    previous: dict[str, Any] = {}
    for members in steps:
        shared = {k: previous[k] if k in previous and previous[k] == v else v for k, v in members.items()}
        view = {**shared, "combatants": {}}
        assert hasher(view) == view_hash(view)
        previous = shared


def test_the_server_hasher_sees_a_member_replaced_by_a_new_object() -> None:
    hasher = ViewHasher()
    first = {"prompts": [{"id": 1}], "combatants": {}}
    second = {"prompts": [{"id": 2}], "combatants": {}}
    assert hasher(first) == view_hash(first) and hasher(second) == view_hash(second) != view_hash(first)



def _patched_by_definition(base: Any, ops: list[Any], seq: int) -> Any:
    """What a client's patched copy is (docs/protocol.md "Views and patches"): the ops applied, the push's seq
    set; with its view_hash, in their order of keys at every depth (``repr``); or the exception raised."""
    try:
        view = apply_wire(base, ops)
        if not isinstance(view, dict):
            return repr(view), None
        view = {**view, "seq": seq}
        return repr(view), view_hash(view)
    except (PatchError, TypeError, ValueError) as exc:
        return type(exc)


def _patched_by(patcher: ViewPatcher, base: Any, ops: list[Any], seq: int) -> tuple[Any, Any]:
    """``patcher``'s copy in :func:`_patched_by_definition`'s form, and the copy itself (``None`` if it raised)."""
    try:
        view, digest = patcher.patch(base, ops, seq)
    except (PatchError, TypeError, ValueError) as exc:
        return type(exc), None
    return (repr(view), digest), view


_deep_entries = st.dictionaries(_cids, st.dictionaries(st.sampled_from(["condition", "sheet", "name"]),
                                                       json_values, max_size=3), max_size=3)
_deep_views = st.fixed_dictionaries({"combatants": _deep_entries, "derived": _deep_entries},
                                    optional={"title": json_values, "combat": json_values, "seq": st.integers(0, 3)})


@given(st.lists(_deep_views, min_size=1, max_size=8))
def test_the_patcher_gives_each_pushed_view_and_its_hash_as_the_definition_does(steps: list[dict[str, Any]]) -> None:
    """ViewPatcher (issue 16: the copy and its hash made along the ops' paths) against the definition, for a
    sequence of pushes as the server makes them (its diff of each view from the one before): the same view, in
    the same key order at every depth, and the same view_hash, whatever changes, comes or goes at any depth."""
    patcher = ViewPatcher()
    held: dict[str, Any] = {"seq": 0, "combatants": {}, "derived": {}}
    earlier: list[tuple[dict[str, Any], bytes]] = []  # each view given, with its text when given
    for seq, target in enumerate(steps, 1):
        ops = to_wire(diff(held, {**target, "seq": held["seq"]} if "seq" in held else target))
        expected = _patched_by_definition(held, ops, seq)
        got, view = _patched_by(patcher, held, ops, seq)
        assert got == expected
        assert view is not None
        earlier.append((view, orjson.dumps(view)))
        held = view
    # The views given before (a client's PushedEvent.state) are left as they were: a push copies what it changes.
    assert all(orjson.dumps(view) == text for view, text in earlier)


def test_the_patcher_sees_a_view_changed_in_place_at_its_top_or_in_an_entry() -> None:
    """A caller that writes into the view it was given (``client.state["title"] = ...``, or a combatant entry
    replaced) gets the next push the definition's way, so the pushed hash tells it its view is wrong (a review:
    the patcher's own pieces would have hidden it)."""
    base = {"seq": 1, "title": "t", "combatants": {"al": {"hp": 5}, "bob": {"name": "Bob"}}, "derived": {}}
    ops = [["/combatants/al/hp", 4]]
    server = view_hash({**apply_wire(base, ops), "seq": 2})
    for change in ("title", "entry"):
        patcher = ViewPatcher()
        given, _ = patcher.patch(base, [], 1)
        if change == "title":
            given["title"] = "changed in place"
        else:
            given["combatants"]["bob"] = {"name": "x"}
        _, digest = patcher.patch(given, ops, 2)
        assert digest != server, change


def _pointer(tokens: list[str]) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def _paths_in(doc: Any, at: list[str]) -> list[list[str]]:
    """The token lists of every object member in ``doc`` (and ``at`` itself)."""
    out = [at]
    if isinstance(doc, dict):
        for key, value in doc.items():
            out.extend(_paths_in(value, [*at, key]))
    return out


@st.composite
def _pushed_ops(draw: st.DrawFn, doc: Any) -> list[Any]:
    """Ops a push could hold, or a drifted client meet: sets and removes of members present or missing, at any
    depth, through objects and not, into values set by an op before, of the whole document, malformed ops."""
    ops: list[Any] = []
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.sampled_from(_paths_in(doc, [])))
        if draw(st.booleans()):
            at = [*at, draw(keys)]
        kind = draw(st.sampled_from(["set", "set", "set", "remove", "whole", "malformed"]))
        if kind == "set":
            ops.append([_pointer(at), draw(json_values)])
        elif kind == "remove":
            ops.append([_pointer(at)])
        elif kind == "whole":
            ops.append(["", draw(json_values)])
        else:
            ops.append(draw(st.sampled_from([[], ["a", 1], ["/a", 1, 2], {"op": "remove", "path": "/a"}, [1, 2]])))
        if draw(st.booleans()):
            try:
                doc = apply_wire(doc, [ops[-1]])  # the next op may go into what this one set
            except PatchError:
                pass
    return ops


_big = st.integers(2**64, 2**70)  # numbers orjson cannot write: view_hash raises TypeError


@settings(max_examples=300)
@given(st.data())
def test_the_patcher_takes_any_ops_as_the_definition_does(data: st.DataObject) -> None:
    """Any ops, one push after another (each from the copy the patcher gave, when it gave one): the same view,
    view_hash or exception as the definition, including members that cannot be encoded."""
    patcher = ViewPatcher()
    held: Any = data.draw(_deep_views)
    for seq in range(1, 7):
        ops = data.draw(_pushed_ops(held))
        if data.draw(st.integers(0, 9)) == 0:
            ops.append([_pointer(data.draw(st.sampled_from(_paths_in(held, [])))[:2] + ["n"]), data.draw(_big)])
        expected = _patched_by_definition(held, ops, seq)
        got, view = _patched_by(patcher, held, ops, seq)
        assert got == expected
        if view is not None and isinstance(view, dict):
            held = view


@pytest.mark.parametrize("ops", [
    [["/combat/phase", "b"], ["/combat", {"phase": "c", "round": 2}]],
    [["/combatants/al/condition/hp", 1], ["/combatants/al", {"condition": {"hp": 2}}]],
    [["/combatants/al/condition/hp", 1], ["/combatants", {"al": {"condition": {"hp": 2}}}]],
    [["/combat", {"phase": "c"}], ["/combat/phase", "d"], ["/combat/round", 3]],
    [["/combatants/al/condition/hp", 1], ["/combatants/al/condition"], ["/combatants/al/condition", {"fp": 1}]],
    [["/seq", {"a": 1}], ["/seq/a", 2]],  # the push's seq is set last, over what the ops did to it
])
def test_a_push_that_goes_into_a_member_and_sets_it_whole_gives_the_definition(ops: list[Any]) -> None:
    """Ops of one push that go into a member and set it whole, in either order: the member is what the last op
    left, and so is its hash (nothing of the member before is joined in)."""
    patcher = ViewPatcher()
    view, _ = patcher.patch({"combat": {"phase": "a", "round": 1},
                             "combatants": {"al": {"condition": {"hp": 5, "fp": 3}}}, "derived": {}}, [], 1)
    view, _ = patcher.patch(view, [["/combatants/al/condition/fp", 2], ["/combat/round", 2]], 2)  # nodes kept
    assert _patched_by(patcher, view, ops, 3)[0] == _patched_by_definition(view, ops, 3)


def test_the_patcher_copies_only_the_objects_on_the_paths() -> None:
    """As apply_wire: the view before is left as it was and shares every other member and entry with the copy."""
    sheet, bob = {"st": 10}, {"condition": {"hp": 9}}
    before = {"seq": 1, "combatants": {"al": {"sheet": sheet, "condition": {"hp": 5, "fp": 3}}, "bob": bob},
              "derived": {}, "title": "t"}
    patcher = ViewPatcher()
    first, _ = patcher.patch(before, [], 1)
    second, digest = patcher.patch(first, [["/combatants/al/condition/hp", 4]], 2)
    assert first["combatants"]["al"]["condition"] == {"hp": 5, "fp": 3} and first["seq"] == 1
    assert second["combatants"]["al"]["condition"] == {"hp": 4, "fp": 3} and second["seq"] == 2
    assert second["combatants"]["bob"] is bob and second["combatants"]["al"]["sheet"] is sheet
    assert second["derived"] is first["derived"] and digest == view_hash(second)


def test_the_patcher_hashes_a_view_put_in_place_of_its_last_one_whole() -> None:
    """A copy gone wrong where no op goes (bob's name) is seen: the patcher keeps pieces only of the view it
    gave last, and hashes any other whole."""
    patcher = ViewPatcher()
    view, _ = patcher.patch({"combatants": {"al": {"hp": 5}, "bob": {"name": "Bob"}}, "derived": {}}, [], 1)
    drifted = {**view, "combatants": {**view["combatants"], "bob": {"name": "x"}}}
    patched, digest = patcher.patch(drifted, [["/combatants/al/hp", 4]], 2)
    assert patched["combatants"]["bob"] == {"name": "x"} and digest == view_hash(patched)
    assert digest != view_hash({**patched, "combatants": {**patched["combatants"], "bob": {"name": "Bob"}}})


def test_the_patcher_after_a_member_it_could_not_encode_patches_the_view_before_as_the_definition_does() -> None:
    patcher = ViewPatcher()
    view, _ = patcher.patch({"combatants": {"al": {"condition": {"hp": 5}}}, "derived": {}}, [], 1)
    view, _ = patcher.patch(view, [["/combatants/al/condition/hp", 4]], 2)
    with pytest.raises(TypeError):
        patcher.patch(view, [["/combatants/al/condition/hp", 2**65]], 3)
    ops = [["/combatants/al/condition/hp", 3]]
    assert _patched_by(patcher, view, ops, 3)[0] == _patched_by_definition(view, ops, 3)


#: The web page's canonical JSON and view hash (web/app.js), run by node on the views given as JSON on stdin.
_PAGE_NAMES = ("hasOwn", "isObject", "canonicalJson", "HIGH_UNIT", "sortedKeys", "codePointOrder", "CRC_TABLE", "crc32hex", "VIEW_DIGESTS",
               "VIEW_SPLIT", "viewHash", "memberDigest")


def _page_functions() -> str:
    """The page's definitions of :data:`_PAGE_NAMES`, cut out of web/app.js (a script for the browser, not a module)."""
    import re
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "combat_server" / "web" / "app.js").read_text("utf-8")
    lines = source.splitlines()
    out: list[str] = []
    for name in _PAGE_NAMES:
        start = next((i for i, line in enumerate(lines) if re.match(rf"(function {name}\(|const {name} )", line)), None)
        if start is None:
            continue  # a helper an older page did not have
        end = start
        while not (lines[end].endswith(";") and not lines[end].startswith(" ") or lines[end] in ("}", "})();")):
            end += 1
        out.extend(lines[start:end + 1])
    return "\n".join(out)


def test_the_web_page_sorts_keys_as_the_server_does_past_u_ffff() -> None:
    """A skill named with an emoji (past U+FFFF, a surrogate pair in JavaScript) and one with a full-width letter
    (U+FF21): JavaScript's default sort puts the emoji first (UTF-16 code units), the server's canonical JSON
    puts it last (code points). The page sorts as the server does, so its view hash agrees (issue 16: else the
    page asks for the whole view after every push)."""
    import json
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    views = [{"combatants": {"a": {"sheet": {"skills": {"\uff21xe": 12, "\U0001f5e1 Sword": 14, "Bow": 11}}}},
              "title": "\ue000 \U0001f600", "\U0001f600": 1, "\uffff": 2, "z": {"\U00010000": 1, "\ud7ff": 2}}]
    script = _page_functions() + """
const views = JSON.parse(require("fs").readFileSync(0, "utf-8"));
console.log(JSON.stringify(views.map((v) => [canonicalJson(v), viewHash(v)])));
"""
    done = subprocess.run([node, "-e", script], input=json.dumps(views), capture_output=True, text=True, timeout=30,
                          check=True)
    for view, (text, digest) in zip(views, json.loads(done.stdout)):
        assert text.encode("utf-8") == orjson.dumps(view, option=orjson.OPT_SORT_KEYS)
        assert digest == view_hash(view)


def _definition(view: dict[str, Any]) -> str:
    """view_hash written out from docs/protocol.md "The check", from scratch: each entry's digest is that of its
    whole canonical text (no kept texts of its members, as ViewHasher keeps since session 9)."""
    def canonical(value: Any) -> str:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode("utf-8")

    digests = []
    for name in sorted(view):
        value = view[name]
        if name in ("combatants", "derived") and isinstance(value, dict):
            inner = [_crc(canonical(key) + ":" + canonical(value[key])) for key in sorted(value)]
            digests.append(_crc(canonical(name) + ":{" + ",".join(inner) + "}"))
        else:
            digests.append(_crc(canonical(name) + ":" + canonical(value)))
    return _crc("{" + ",".join(digests) + "}")


_member_names = st.sampled_from(["sheet", "condition", "hp", "a/b", "é", "\uff21x", "\U0001f5e1", "", "~"])


@given(st.lists(st.dictionaries(_cids, st.dictionaries(_member_names, st.integers(0, 3) | json_values, max_size=5),
                                max_size=3), min_size=1, max_size=8), st.randoms(use_true_random=False))
def test_the_hasher_keeps_the_texts_of_an_entrys_unchanged_members(steps: list[dict[str, Any]], rnd: Any) -> None:
    """An entry that changed is hashed from the kept texts of its members that are the same objects as before
    (issue 16, session 9: a combatant whose condition changed keeps its sheet's text): byte for byte the
    definition, whatever members come, go, change or stay the same object, in any order, with names that sort
    differently in UTF-16 (emoji past U+FFFF against U+FF21)."""
    hasher = ViewHasher()
    held: dict[str, Any] = {}
    for target in steps:
        combatants: dict[str, Any] = {}
        for cid, entry in target.items():
            before = held.get(cid, {})
            # Members equal to the ones before stay the same object (as ViewBuilder keeps a sheet), in a new order.
            members = [(k, before[k] if k in before and before[k] == v and type(before[k]) is type(v) else v)
                       for k, v in entry.items()]
            rnd.shuffle(members)
            combatants[cid] = dict(members)
        view = {"seq": 1, "combatants": combatants, "derived": combatants}
        assert hasher(view) == _definition(view) == view_hash(view)
        held = combatants


def test_the_hasher_sees_a_kept_member_replaced_by_a_new_object() -> None:
    sheet = {"st": 12}
    hasher = ViewHasher()
    views = [{"combatants": {"a": {"sheet": sheet, "hp": 1}}}, {"combatants": {"a": {"sheet": sheet, "hp": 2}}},
             {"combatants": {"a": {"sheet": {"st": 13}, "hp": 2}}}, {"combatants": {"a": {"hp": 2}}},
             {"combatants": {"a": [1]}}, {"combatants": {"a": {"sheet": sheet, "hp": 2}}}]
    assert [hasher(v) for v in views] == [_definition(v) for v in views]


def _diff_as_written(old: Any, new: Any, path: str = "") -> list[dict[str, Any]]:
    """diff's walk as it was written before issue 16's cut (two lookups per member, every old member
    looked for in the new object): the definition the faster walk is compared with."""
    if old is new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[dict[str, Any]] = []
        for key, value in new.items():
            at = f"{path}/{key.replace('~', '~0').replace('/', '~1')}"
            if key in old:
                was = old[key]
                if was is value or (type(was) is type(value) and type(value) is not dict and was == value):
                    continue
                out.extend(_diff_as_written(was, value, at))
            else:
                out.append({"op": "add", "path": at, "value": value})
        for key in old:
            if key not in new:
                out.append({"op": "remove", "path": f"{path}/{key.replace('~', '~0').replace('/', '~1')}"})
        return out
    if type(old) is type(new) and old == new:
        return []
    return [{"op": "replace", "path": path, "value": new}]


_shared = st.sampled_from([None, 0, 1, True, 1.0, "x", [1], {"a": 1}])


@settings(deadline=None)  # a loaded machine must not fail it: the result, not the time, is the test
@given(st.dictionaries(keys, json_values | _shared, max_size=6), st.dictionaries(keys, json_values | _shared, max_size=6),
       st.booleans())
def test_the_diff_is_the_walk_as_written(old: dict[str, Any], new: dict[str, Any], share: bool) -> None:
    """The same ops in the same order as the definition, for members added, removed, reordered, changed or
    kept as the same objects (a server's view shares its unchanged parts with the view before)."""
    if share:
        new = {**{k: old[k] for k in list(old)[::2]}, **new}
    assert repr(diff(old, new)) == repr(_diff_as_written(old, new))
    assert repr(diff({"v": old}, {"v": new}, "/p")) == repr(_diff_as_written({"v": old}, {"v": new}, "/p"))


@st.composite
def _aligned_pair(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """An object and a later one with the same keys in the same order (every push's views: the server keeps
    their order, and a changed condition keeps the member objects of the fields that stayed): each member the
    same object, an equal copy, another value, or (an object) the same treatment one level down."""
    old = draw(st.dictionaries(keys, json_values | _shared, max_size=6))

    def later(value: Any) -> Any:
        choice = draw(st.integers(0, 3))
        if choice == 0:
            return value
        if choice == 1:
            return orjson.loads(orjson.dumps(value))
        if choice == 2 and type(value) is dict:
            return {k: later(v) for k, v in value.items()}
        return draw(json_values | _shared)

    return old, {k: later(v) for k, v in old.items()}


@settings(deadline=None)
@given(_aligned_pair())
def test_the_diff_of_objects_with_the_same_keys_in_the_same_order_is_the_walk_as_written(
        pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """``_diff_aligned`` (the members that are new objects found in C) gives the definition's ops in its order."""
    old, new = pair
    assert list(old) == list(new)
    assert repr(diff(old, new)) == repr(_diff_as_written(old, new))
    assert repr(diff({"v": old}, {"v": new}, "/p")) == repr(_diff_as_written({"v": old}, {"v": new}, "/p"))
