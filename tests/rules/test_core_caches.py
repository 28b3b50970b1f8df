"""rules/core.py's per-class caches (issue 16) answer what the class's attrs fields say."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.canonical import plain_json
from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.model import ADJUSTABLE_TO, GM_ACTOR, KEPT_BY_RULES, Combatant, Command, FightState
from combat_server.rules.ruleset import get_ruleset


@pytest.mark.parametrize("name", ["gurps", "shell"])
def test_kept_by_rules_is_each_fields_metadata(name: str) -> None:
    """_kept_by_rules (asked for each adjusted field) is the field's KEPT_BY_RULES metadata, for every field."""
    condition_type = get_ruleset(name).condition_type
    fields = attrs.fields_dict(condition_type)
    assert any(f.metadata.get(KEPT_BY_RULES) for f in fields.values()) or name == "shell"
    for field_name, field in fields.items():
        for _ in range(2):  # built, then cached
            assert core._kept_by_rules(condition_type, field_name) == str(field.metadata.get(KEPT_BY_RULES, ""))


def _strictly_equal(a: object, b: object) -> bool:
    """Equal and of the same types all the way down (a tuple is not the list plain_json makes of it)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_strictly_equal(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_strictly_equal, a, b))  # type: ignore[arg-type]
    return a is b or a == b


class _Named(str):
    """A string subclass: plain_json keeps such a value, and turns such a key into a plain string."""


@pytest.mark.parametrize("name", ["gurps", "shell"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_an_adjusts_draft_is_plain_as_it_says(name: str, data: st.DataObject) -> None:
    """_decide_adjust's draft says its payload is plain (the engine then skips plain_json, issue 16 session 11):
    it is exactly plain_json's copy of itself, for any settable fields and any value the fields take."""
    ruleset = get_ruleset(name)
    sheet = ruleset.validate_sheet({})
    state = FightState(fight_id="f", ruleset=name, ruleset_version=ruleset.version, options={}, dice_mode="server")
    state = state.with_combatant(Combatant("c", "C", "npc", sheet, ruleset.new_condition(sheet)))
    condition_type = type(state.combatants["c"].condition)
    settable = sorted(n for n in core.adjustable_fields(condition_type) if not core._kept_by_rules(condition_type, n))
    names = data.draw(st.lists(st.sampled_from(settable), min_size=1, max_size=4, unique=True))
    values = st.integers(-5, 5) | st.booleans() | st.text(max_size=3) | st.none() | st.text(max_size=2).map(_Named)
    changes = {(_Named(n) if data.draw(st.booleans()) else n): data.draw(values) for n in names}
    command = Command("adjust", {"combatant": "c", "changes": changes, "reason": "why"}, GM_ACTOR)
    try:
        drafts = core._decide_adjust(ruleset, state, command)
    except Rejected:
        return  # a value the field does not take: nothing drafted
    assert [d.plain for d in drafts] == [True]
    assert _strictly_equal(drafts[0].payload, plain_json(drafts[0].payload))


@pytest.mark.parametrize("name", ["gurps", "shell"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_value_fits_answers_as_its_definition(name: str, data: st.DataObject) -> None:
    """_fits_of_hint (the check made once per annotation, issue 16) answers as _value_fits_hint, for every
    adjustable field's annotation of both rulesets and any value."""
    hints = list(core.adjustable_fields(get_ruleset(name).condition_type).values())
    hint = data.draw(st.sampled_from(hints + [int | None, str | None, bool, type(None), tuple[str, ...]]))
    value = data.draw(st.integers(-5, 5) | st.booleans() | st.text(max_size=3) | st.none() | st.floats()
                      | st.lists(st.integers(), max_size=2) | st.text(max_size=2).map(_Named))
    for _ in range(2):  # made, then cached
        assert core._fits_of_hint(hint)(value) is core._value_fits_hint(value, hint)


@pytest.mark.parametrize("name", ["gurps", "shell"])
def test_adjust_checks_are_the_kept_text_the_value_check_and_the_domain_of_each_field(name: str) -> None:
    """adjust_checks (one look-up per adjusted field, issue 16 session 13) names every adjustable field, with
    _kept_by_rules's text, a predicate answering as _value_fits_hint for the field's annotation, and the
    field's ADJUSTABLE_TO metadata (None without it)."""
    condition_type = get_ruleset(name).condition_type
    fields = core.adjustable_fields(condition_type)
    checks = core.adjust_checks(condition_type)
    assert list(checks) == list(fields) and core.adjust_checks(condition_type) is checks
    samples = [0, 3, -1, True, False, "", "x", None, 1.5, [], (), _Named("y"), {}]
    for field_name, (kept, fits, domain) in checks.items():
        assert kept == core._kept_by_rules(condition_type, field_name)
        assert [fits(v) for v in samples] == [core._value_fits_hint(v, fields[field_name]) for v in samples]
        assert domain is attrs.fields_dict(condition_type)[field_name].metadata.get(ADJUSTABLE_TO)
    assert any(domain is not None for _, _, domain in checks.values())


@given(st.sampled_from([str, int, bool, dict, list, (int, str), (dict, list)]),
       st.none() | st.booleans() | st.integers() | st.text(max_size=2) | st.text(max_size=2).map(_Named)
       | st.floats() | st.lists(st.integers(), max_size=1)
       | st.dictionaries(st.text(max_size=1), st.integers(), max_size=1),
       st.booleans(), st.booleans())
def test_a_commands_field_is_taken_when_it_has_the_type_asked_for(kind: type | tuple[type, ...], value: object,
                                                                     given_: bool, required: bool) -> None:
    """_arg (its exact-type shortcut, issue 16 session 13) returns a field that is an instance of the type
    asked for (never a bool for a whole number), None for a missing optional field, and refuses the rest
    naming the field: command/missing_field when it is missing, command/bad_field when it is of another type."""
    command = Command("adjust", {"f": value} if given_ else {}, GM_ACTOR)
    if not given_:
        expected: object = None if not required else "command/missing_field"
    elif isinstance(value, kind) and not (isinstance(value, bool) and kind is int):
        expected = value
    else:
        expected = "command/bad_field"
    try:
        got: object = core._arg(command, "f", kind, required=required)
    except Rejected as exc:
        assert exc.details == {"field": "f"}
        got = exc.code
    assert got == expected and type(got) is type(expected)


def test_the_core_events_plain_dict_is_the_registry() -> None:
    """CORE_EVENTS_BY_TYPE (what apply and explain look up, issue 16 session 13) holds every core event's spec."""
    from combat_server.rules.core_events import CORE_EVENT_SPECS, CORE_EVENTS_BY_TYPE

    assert list(CORE_EVENTS_BY_TYPE) == list(CORE_EVENT_SPECS)
    assert all(CORE_EVENTS_BY_TYPE[name] is CORE_EVENT_SPECS[name] for name in CORE_EVENT_SPECS)
