"""model.evolve, the rules' cheap copy of a frozen slotted state (issue 16), is attrs.evolve: the
same fields for the classes it copies itself, attrs.evolve itself for any class whose __init__ does
more than store its arguments."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.rules.model import Combatant, Event, FightState, evolve, make_builder, make_replacer


@attrs.frozen
class Plain:
    a: int
    b: str = "x"
    c: tuple[str, ...] = ()


@attrs.frozen
class Checked:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))
    b: int = attrs.field(default=0, converter=int)


@attrs.frozen
class Child(Plain):
    d: int = 0


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.text(max_size=3), st.lists(st.text(max_size=2)).map(tuple), st.integers(),
       st.sets(st.sampled_from(["a", "b", "c", "d"])))
def test_copy_equals_attrs_evolve(a: int, b: str, c: tuple[str, ...], d: int, which: set[str]) -> None:
    """Any subset of fields replaced, on a class and a subclass: equal to attrs.evolve's result."""
    values = {"a": a, "b": b, "c": c, "d": d}
    for inst in (Plain(1), Child(2, "y", ("z",), 5)):
        change = {k: values[k] for k in which if k in attrs.fields_dict(type(inst))}
        fast = evolve(inst, change)
        assert type(fast) is type(inst) and fast == attrs.evolve(inst, **change)


def test_a_validated_class_goes_through_its_init() -> None:
    """Validators and converters still run: the copy goes to attrs.evolve for such a class."""
    assert evolve(Checked(1), {"b": "7"}).b == 7
    with pytest.raises(TypeError):
        evolve(Checked(1), {"a": "one"})


def test_an_unknown_field_is_refused_like_attrs_evolve() -> None:
    """A field the class lacks raises attrs.evolve's TypeError, not a silent copy."""
    with pytest.raises(TypeError):
        evolve(Plain(1), {"zz": 2})


def test_fight_state_with_combatant_keeps_every_other_field() -> None:
    """FightState.with_combatant (every fold step) changes only the combatants mapping."""
    state = FightState(fight_id="f", ruleset="r", ruleset_version="1", options={}, dice_mode="auto", seq=4)
    fighter = Combatant(id="c1", name="Ann", side="pc", sheet={}, condition={})
    after = state.with_combatant(fighter)
    assert after == attrs.evolve(state, combatants={"c1": fighter}) and state.combatants == {}


def test_a_copy_is_an_instance_of_the_class_itself_and_stays_frozen() -> None:
    """The copy is made settable only while it is built: it ends as the class itself, frozen, equal and hashable."""
    for inst in (Plain(1, "y", ("z",)), Child(2, "y", ("z",), 5)):
        fast = evolve(inst, {"a": 9})
        assert type(fast) is type(inst) and fast.__class__ is type(inst)
        assert fast == attrs.evolve(inst, a=9) and hash(fast) == hash(attrs.evolve(inst, a=9))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            fast.a = 3  # type: ignore[misc]
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            del fast.b  # type: ignore[misc]
        assert inst.a != 9  # the original untouched


_TEXT = st.text(max_size=4)


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.integers(min_value=1), _TEXT, st.dictionaries(_TEXT, st.integers() | _TEXT, max_size=3), _TEXT,
       _TEXT, _TEXT, _TEXT, _TEXT, _TEXT, _TEXT)
def test_event_made_is_event_with_its_payload_text(fight_id: str, seq: int, kind: str, payload: dict[str, object],
                                                   actor: str, command_id: str, recorded_at: str, version: str,
                                                   prev_hash: str, digest: str, text: str) -> None:
    """Event.made (the engine's one event per event, issue 16 session 11) is Event(...).with_payload_text(...):
    every field, payload_text too, the class itself, frozen like attrs' own."""
    values = (fight_id, seq, kind, payload, actor, command_id, recorded_at, version, prev_hash, digest)
    made = Event.made(*values, text)
    built = Event(*values).with_payload_text(text)
    assert type(made) is Event and made == built
    assert [getattr(made, f.name) for f in attrs.fields(Event)] == [getattr(built, f.name) for f in attrs.fields(Event)]
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.seq = 3  # type: ignore[misc]


def test_the_builder_takes_every_field_and_refuses_a_class_with_init_work() -> None:
    """make_builder's function names every attrs field (a field added to Event is built too, or the call
    fails loudly); a class with validators or converters gets no builder (attrs' __init__ stays)."""
    builder = make_builder(Event)
    assert builder is not None
    assert builder.__code__.co_varnames[:builder.__code__.co_argcount] == tuple(f.name for f in attrs.fields(Event))
    assert make_builder(Checked) is None


@attrs.frozen(cache_hash=True)
class _HashCached:
    a: int
    b: int = 0


def test_a_class_that_caches_its_hash_keeps_attrs_init() -> None:
    """cache_hash=True: attrs' __init__ resets the cached hash, which a build or copy skipping it would leave
    unset (hash() then raises). Neither fast path is made for such a class (its slot is named
    _attrs_cached_hash in attrs 26), so both fall back to attrs and the hash works."""
    assert make_builder(_HashCached) is None
    copy = evolve(_HashCached(1), {"b": 2})
    assert copy == _HashCached(1, 2) and hash(copy) == hash(_HashCached(1, 2))


@settings(max_examples=200, deadline=None)
@given(st.integers(), st.text(max_size=3), st.lists(st.text(max_size=2)).map(tuple), st.integers(),
       st.lists(st.sampled_from(["a", "b", "c", "d"]), unique=True))
def test_a_replacer_equals_attrs_evolve(a: int, b: str, c: tuple[str, ...], d: int, names: list[str]) -> None:
    """make_replacer(cls, *names)(inst, *values) is attrs.evolve(inst, **dict(zip(names, values))), for any
    names of the class's fields (issue 16, session 12), and refuses a name the class lacks as attrs does."""
    values = {"a": a, "b": b, "c": c, "d": d}
    for inst in (Plain(1), Child(2, "y", ("z",), 5)):
        cls = type(inst)
        known = [n for n in names if n in attrs.fields_dict(cls)]
        fast = make_replacer(cls, *known)(inst, *[values[n] for n in known])
        assert type(fast) is cls and fast == attrs.evolve(inst, **{n: values[n] for n in known})
    with pytest.raises(TypeError):
        make_replacer(Plain, "zz")(Plain(1), 2)
    assert make_replacer(Checked, "b")(Checked(1), "7").b == 7  # a converter still runs (attrs.evolve)
