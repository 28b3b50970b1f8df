"""Issue 16's shortcuts on the rules' hot path give exactly what the general path gives: the copy a
condition change makes (``model.evolve`` against ``attrs.evolve``), the condition's JSON (the hook
against asking the converter field by field), and G-51's fatigued ST on whole FP (against the
policy's general rule, through G-51's fractions)."""

from __future__ import annotations

import enum
import json
from typing import Any, Iterator

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.rules.core import walk
from combat_server.rules.gurps import explain, fatigue
from combat_server.rules.gurps.gulliver.policy import OFF, Policy
from combat_server.rules.gurps.gulliver.size import Scale
from combat_server.rules.gurps.json_hooks import json_by_converter
from combat_server.rules.gurps.sheet import NEW_FIELDS_OF, Sheet, Weapon, _weapon_json
from combat_server.rules.gurps.state import Attack, Condition
from combat_server.rules.model import Event, FightState, evolve
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import converter
from combat_server.server.views import json_value, json_value_since, normalized
from tests.fixtures import fixturekit as kit

SETTINGS = settings(max_examples=200, deadline=None)
NAMES = st.text(alphabet="abcxyz", min_size=1, max_size=4)


def _value_for(field: Any) -> st.SearchStrategy[Any]:
    """Values of the field's own kind (what the rules and a GM's adjust store in it)."""
    default = field.default.factory() if isinstance(field.default, attrs.Factory) else field.default  # type: ignore[misc]
    if field.type in ("int", int) or field.name in ("hp", "fp"):
        return st.integers(-50, 50)
    if isinstance(default, bool):
        return st.booleans()
    if isinstance(default, str):
        return st.sampled_from(["", "standing", "kneeling", "3/2", "sword"])
    if isinstance(default, int):
        return st.integers(-50, 50)
    if isinstance(default, tuple):
        return st.lists(NAMES, max_size=3).map(tuple)
    if "skull" in field.name:
        return st.dictionaries(NAMES, NAMES, max_size=3)
    return st.dictionaries(NAMES, st.integers(0, 30), max_size=3)


FIELDS = attrs.fields(Condition)


@st.composite
def changes(draw: st.DrawFn) -> dict[str, Any]:
    """Some of the condition's fields, each with a value of its kind (possibly its default)."""
    chosen = draw(st.lists(st.sampled_from([f.name for f in FIELDS]), unique=True, max_size=12))
    by_name = {f.name: f for f in FIELDS}
    return {name: draw(_value_for(by_name[name])) for name in chosen}


@st.composite
def conditions(draw: st.DrawFn) -> Condition:
    return attrs.evolve(Condition(hp=draw(st.integers(-30, 30)), fp=draw(st.integers(-30, 30))), **draw(changes()))


@SETTINGS
@given(conditions(), changes())
def test_condition_copy_equals_attrs_evolve(cond: Condition, change: dict[str, Any]) -> None:
    """A condition change (FightState.with_condition) gives the condition attrs.evolve gives: equal,
    every field the same object, and still frozen."""
    fast = evolve(cond, change)
    slow = attrs.evolve(cond, **change)
    assert type(fast) is Condition and fast == slow
    assert all(getattr(fast, f.name) is getattr(slow, f.name) for f in FIELDS)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        fast.hp = 1  # type: ignore[misc]


def test_condition_copy_of_an_unknown_field_fails_as_attrs_evolve_does() -> None:
    """A field the condition does not have is refused with attrs.evolve's own TypeError."""
    with pytest.raises(TypeError):
        evolve(Condition(hp=10, fp=10), {"hp": 3, "no_such_field": 1})


@SETTINGS
@given(conditions())
def test_condition_json_equals_the_converter_field_by_field(cond: Condition) -> None:
    """The Condition hook's JSON (views, snapshots, the state hash) is the per-field converter's,
    the new fields at their defaults left out (NEW_CONDITION_FIELDS), key order included."""
    fast = converter().unstructure(cond)
    _assert_same_json(fast, json_by_converter(converter().unstructure, cond, NEW_FIELDS_OF[Condition]))


def _assert_same_json(fast: Any, slow: Any) -> None:
    """Equal, with the same key order and the same types at every depth (so the same canonical bytes)."""
    assert type(fast) is type(slow)
    if isinstance(slow, dict):
        assert list(fast) == list(slow)
        for key in slow:
            _assert_same_json(fast[key], slow[key])
    elif isinstance(slow, list):
        assert len(fast) == len(slow)
        for a, b in zip(fast, slow):
            _assert_same_json(a, b)
    else:
        assert fast == slow


def _stored_events(name: str) -> list[Event]:
    lines = kit.export_path(name).read_text(encoding="utf-8").splitlines()
    return [Event(**{k: v for k, v in json.loads(line).items() if k in attrs.fields_dict(Event)})
            for line in lines[1:]]


def _stored_parts(events: list[Event]) -> Iterator[tuple[FightState, list[Any]]]:
    """Each state a stored fight passes through, with its sheets, conditions, combat sequence and
    pending attacks: the objects the generated hooks write."""
    ruleset = get_ruleset("gurps", events[0].ruleset_version)
    for _event, _before, after in walk(ruleset, events):
        parts: list[Any] = [c.sheet for c in after.combatants.values()]
        parts += [c.condition for c in after.combatants.values()]
        if after.combat is not None:
            parts.append(after.combat)
            parts += [a for a in attrs.astuple(after.combat, recurse=False) if type(a) in NEW_FIELDS_OF]
        yield after, parts


@pytest.mark.parametrize("name", kit.fight_names())
def test_every_stored_state_s_json_equals_the_converter_field_by_field(name: str) -> None:
    """Every sheet, condition, combat sequence and pending attack of every state the stored fights
    pass through gets the JSON the per-field converter gives (the hooks' definition)."""
    events = _stored_events(name)
    seen = attacks = 0
    for after, parts in _stored_parts(events):
        for obj in parts:
            _assert_same_json(converter().unstructure(obj),
                              json_by_converter(converter().unstructure, obj, NEW_FIELDS_OF[type(obj)]))
            seen += 1
        for weapon in {w for c in after.combatants.values() for w in c.sheet.weapons}:
            _assert_same_json(converter().unstructure(weapon),
                              _weapon_json(json_by_converter(converter().unstructure, weapon, {})))
        attacks += after.combat is not None and after.combat.attack is not None
    assert seen > len(events) and attacks > 0


def test_condition_json_copies_its_mappings() -> None:
    """The JSON holds copies, never the condition's own mappings (a view may be changed by its caller)."""
    cond = Condition(hp=10, fp=10, ammo_used={"bow": 2})
    data = converter().unstructure(cond)
    assert data["ammo_used"] == {"bow": 2} and data["ammo_used"] is not cond.ammo_used


@SETTINGS
@given(st.integers(1, 40), st.integers(1, 40), st.integers(1, 40), st.none() | st.integers(1, 60),
       st.integers(-45, 45), st.sampled_from(["", "7/2", "-5/3", "29/4"]),
       st.sampled_from(["off", "on_st", "on_ht"]))
def test_fatigued_st_shortcut_equals_the_general_rule(st_: int, ht: int, fp_max: int, combat_st: int | None,
                                                      fp: int, fp_exact: str, basis: str) -> None:
    """G-51: ST halved (rounded up) below FPmax/3 on whole FP; every other case (A-50's fractions,
    V-53, V-54) is the policy's own rule. The shortcut gives the general rule's number."""
    sheet = Sheet(st=st_, ht=ht, fp=fp_max, gulliver=Scale(combat_st=combat_st))
    cond = Condition(hp=10, fp=fp, fp_exact=fp_exact)
    policy = OFF if basis == "off" else Policy(fatigue_on_st=basis == "on_st", fatigue_on_ht=basis == "on_ht")
    assert fatigue.fatigued_st(sheet, cond, policy) == fatigue.fatigued_st_general(sheet, cond, policy)


def test_fatigued_st_halves_below_a_third_of_fpmax() -> None:
    """G-51 by hand: FPmax 12, ST 13: FP 4 (not below 4) keeps 13; FP 3 gives 7 (13/2 rounded up)."""
    sheet = Sheet(st=13, ht=12)
    assert fatigue.fatigued_st(sheet, Condition(hp=13, fp=4), OFF) == 13
    assert fatigue.fatigued_st(sheet, Condition(hp=13, fp=3), OFF) == 7


#: Values a field's type does not promise, to reach every fallback of the normalized hooks: integral and
#: other floats (``normalize`` makes 1.0 an int), an IntEnum, int keys, nested and non-plain items.
_ODD = st.one_of(st.sampled_from([1.0, 2.5, -0.0, True, None, "x", 3, enum.IntEnum("E", "A B").B]),
                 st.lists(st.sampled_from([1.0, "a", 2, (1.0,), {"k": 1.0}]), max_size=3).map(tuple),
                 st.dictionaries(st.sampled_from(["a", 1, 2.0]), st.sampled_from([1, 1.0, "b", (2,), {"c": 3.0}]),
                                 max_size=3))


@st.composite
def odd_conditions(draw: st.DrawFn) -> Condition:
    """A condition, some fields holding :data:`_ODD` values (set past attrs' checks, as none are made)."""
    cond = draw(conditions())
    chosen = draw(st.lists(st.sampled_from([f.name for f in FIELDS]), unique=True, max_size=6))
    return attrs.evolve(cond, **{name: draw(_ODD) for name in chosen})


def _normalized_by_definition(obj: Any) -> Any:
    return normalized(converter().unstructure(obj))


@SETTINGS
@given(conditions() | odd_conditions())
def test_condition_view_value_equals_normalized_json(cond: Condition) -> None:
    """The views' value of a condition (``server.views.json_value``: the hook's normalized variant) is
    ``normalized`` of the hook's JSON: equal, same keys in the same order, same types at every depth."""
    fast = json_value(cond)
    _assert_same_json(fast, _normalized_by_definition(cond))
    assert repr(fast) == repr(_normalized_by_definition(cond))


@pytest.mark.parametrize("name", kit.fight_names())
def test_every_stored_state_s_view_values_equal_normalized_json(name: str) -> None:
    """Every sheet, condition, combat sequence and pending attack of every state the stored fights pass
    through gets the view value ``normalized`` of its JSON gives."""
    events = _stored_events(name)
    seen = 0
    for _after, parts in _stored_parts(events):
        for obj in parts:
            fast = json_value(obj)
            _assert_same_json(fast, _normalized_by_definition(obj))
            assert repr(fast) == repr(_normalized_by_definition(obj))
            seen += 1
    assert seen > len(events)


@SETTINGS
@given(conditions() | odd_conditions(), changes(), st.data())
def test_a_changed_condition_s_value_from_the_one_before_equals_normalized_json(
        was: Condition, change: dict[str, Any], data: st.DataObject) -> None:
    """``json_value_since`` (the hook's ``since`` variant: the previous value's members for the fields that are
    the same objects) gives ``normalized`` of the hook's JSON of the new condition, as ``json_value`` does, and
    keeps the previous value's member objects for the fields that stayed (issue 16)."""
    odd = data.draw(st.lists(st.sampled_from([f.name for f in FIELDS]), unique=True, max_size=3))
    cond = attrs.evolve(was, **change, **{name: data.draw(_ODD) for name in odd if name not in change})
    old = json_value(was)
    fast = json_value_since(cond, was, old)
    _assert_same_json(fast, _normalized_by_definition(cond))
    assert repr(fast) == repr(_normalized_by_definition(cond))
    if all(getattr(cond, name) is getattr(was, name) for name in NEW_FIELDS_OF[Condition]):
        # No new field (whose member comes and goes with its default) changed: the members of the fields that
        # stayed are the previous value's objects.
        for f in FIELDS:
            if getattr(cond, f.name) is getattr(was, f.name) and f.name in old:
                assert fast[f.name] is old[f.name]


@pytest.mark.parametrize("name", kit.fight_names())
def test_every_stored_condition_s_value_from_the_one_before_equals_normalized_json(name: str) -> None:
    """Each combatant's condition, state after state of every stored fight, built from its value in the state
    before by ``json_value_since``: ``normalized`` of its JSON, new fields left out at their defaults included."""
    before: dict[str, tuple[Any, Any]] = {}
    seen = 0
    for after, _parts in _stored_parts(_stored_events(name)):
        for cid, c in after.combatants.items():
            hit = before.get(cid)
            fast = json_value(c.condition) if hit is None else json_value_since(c.condition, hit[0], hit[1])
            _assert_same_json(fast, _normalized_by_definition(c.condition))
            assert repr(fast) == repr(_normalized_by_definition(c.condition))
            before[cid] = (c.condition, fast)
            seen += hit is not None
    assert seen > 0


@pytest.mark.parametrize("name", kit.fight_names())
def test_every_stored_combatant_s_view_with_the_sheet_memo_equals_a_fresh_one(name: str) -> None:
    """``combatant_view`` with what it memoises per sheet (the sheet's part, full Fatigue, the weapons list per
    ``unready`` tuple; issue 16) kept from state to state gives what it computes afresh, memo cleared."""
    memo = explain._SHEET_VIEWS
    seen = 0
    for after, _parts in _stored_parts(_stored_events(name)):
        for cid in after.combatants:
            fast = explain.combatant_view(after, cid)
            kept = dict(memo)
            memo.clear()
            slow = explain.combatant_view(after, cid)
            memo.clear()
            memo.update(kept)
            _assert_same_json(fast, slow)
            assert repr(fast) == repr(slow)
            seen += 1
    assert seen > 0


def test_the_weapons_list_is_kept_while_unready_stays_and_made_anew_when_it_changes() -> None:
    """The view's ``weapons`` is the same object while the condition's ``unready`` tuple is (a GM's HP
    adjustment), and is made anew, with ``ready`` as the new tuple says, when it changes."""
    sheet = Sheet(st=12, ht=11, weapons=(Weapon(name="Sword", skill=12, damage="sw+1", kind="melee"),))
    memo = explain._sheet_view(sheet, OFF)
    cond = Condition(hp=12, fp=11)
    first = memo.weapons_for(cond.unready)
    assert memo.weapons_for(attrs.evolve(cond, hp=5).unready) is first and first[0]["ready"] is True
    unready = memo.weapons_for(("Sword",))
    assert unready is not first and unready[0]["ready"] is False and first[0]["ready"] is True


def test_a_hook_registered_anew_is_used() -> None:
    """``json_value`` follows the converter: a class whose hook is replaced gets the new hook's JSON."""
    conv = converter()
    before = conv.get_unstructure_hook(Attack)
    json_value(Attack(attacker="a", target="b", weapon="w", kind="melee", maneuver="attack"))
    try:
        conv.register_unstructure_hook(Attack, lambda a: {"only": a.attacker})
        assert json_value(Attack(attacker="a", target="b", weapon="w", kind="melee", maneuver="attack")) == {"only": "a"}
    finally:
        conv.register_unstructure_hook(Attack, before)
