"""A snapshot's state text written from the texts of its parts (engine/snapshots.py, issue 16, session 14) is
the definition's, ``canonical_json(state_to_json(state))``, and the rows the engine stores with it are the rows
``save_snapshot`` of the state's JSON stores."""

from __future__ import annotations

import contextlib
import types
from typing import Any, Iterator

import attrs
import pytest
import sqlalchemy as sa
from hypothesis import given, settings, strategies as st

from combat_server.canonical import canonical_json, state_digest
from combat_server.engine.fight import Engine
from combat_server.engine.snapshots import StateText, state_text_by_definition
from combat_server.rules.model import Combatant, FightState
from combat_server.rules.serialize import state_to_json
from combat_server.store import tables as t
from combat_server.store.sql import SqlStore
from tests.conftest import Databases, populate
from tests.gurps import test_properties as gurps_play
from tests.shell import test_properties as shell_play


@contextlib.contextmanager
def _recording() -> Iterator[list[tuple[FightState, bytes]]]:
    """Every (state, text) a :class:`StateText` writes meanwhile."""
    seen: list[tuple[FightState, bytes]] = []
    of = StateText.of

    def recording(self: StateText, state: FightState) -> bytes:
        text = of(self, state)
        seen.append((state, text))
        return text

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(StateText, "of", recording)
        yield seen


def _played(play: Any, seed: str, choices: list[int]) -> list[tuple[FightState, bytes]]:
    """The states of a played fight the engine wrote snapshots of (one after every command), with their texts."""
    with _recording() as seen, play.fresh_engine() as engine:
        engine.snapshot_every = 1
        play.play(engine, seed, choices)
    return seen


SEEDS = st.text(alphabet="abcdef0123456789", min_size=4, max_size=8)
CHOICES = st.lists(st.integers(min_value=0, max_value=1000), min_size=5, max_size=30)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choices=CHOICES)
def test_every_snapshot_text_of_a_played_gurps_fight_is_the_definitions(seed: str, choices: list[int]) -> None:
    """A GURPS fight played at random, a snapshot after every command: each text is its state's by the definition."""
    seen = _played(gurps_play, seed, choices)
    assert len(seen) >= 4  # the combatants added and the combat started, at least
    assert all(text == state_text_by_definition(state) for state, text in seen)


@settings(max_examples=6, deadline=None)
@given(seed=SEEDS, choices=CHOICES)
def test_every_snapshot_text_of_a_played_shell_fight_is_the_definitions(seed: str, choices: list[int]) -> None:
    """A SHELL fight played at random, a snapshot after every command: each text is its state's by the definition."""
    seen = _played(shell_play, seed, choices)
    assert len(seen) >= 4  # the combatants added and the combat started, at least
    assert all(text == state_text_by_definition(state) for state, text in seen)


def _fight(engine: Engine) -> FightState:
    return engine.load(populate(engine))


def test_a_part_replaced_since_the_last_text_is_written_anew(engine: Engine) -> None:
    """After a state, the next one with one combatant's condition replaced gives that condition's new text;
    its sheet, the same object, and the other combatant keep theirs."""
    state = _fight(engine)
    writer = StateText()
    writer.of(state)
    hurt = state.with_condition("orc", hp=1)
    assert hurt.combatants["orc"].sheet is state.combatants["orc"].sheet
    assert writer.of(hurt) == state_text_by_definition(hurt) != state_text_by_definition(state)


def test_a_field_of_the_state_replaced_since_the_last_text_is_written_anew(engine: Engine) -> None:
    """A new value of a field of the state (its notes, its seq) is written anew; the others are kept."""
    state = _fight(engine)
    writer = StateText()
    writer.of(state)
    later = attrs.evolve(state, notes=("a note", *state.notes), seq=state.seq + 1)
    assert writer.of(later) == state_text_by_definition(later)


def test_a_combatant_added_or_removed_since_the_last_text_is_written(engine: Engine) -> None:
    """Combatants come and go between two texts: each text has exactly the state's, sorted by id."""
    state = _fight(engine)
    writer = StateText()
    writer.of(state)
    alice = state.combatants["alice"]
    more = attrs.evolve(state, combatants={**state.combatants, "0th": attrs.evolve(alice, id="0th"),
                                           "zed": attrs.evolve(alice, id="zed", hidden=True)})
    assert writer.of(more) == state_text_by_definition(more)
    fewer = attrs.evolve(more, combatants={"zed": more.combatants["zed"]})
    assert writer.of(fewer) == state_text_by_definition(fewer)


def test_a_writer_keeps_only_the_parts_of_the_state_written_last(engine: Engine) -> None:
    """What a writer keeps is the last state's parts: a combatant removed since is let go."""
    state = _fight(engine)
    writer = StateText()
    writer.of(state)
    writer.of(attrs.evolve(state, combatants={"orc": state.combatants["orc"]}))
    assert list(writer._combatants) == ["orc"]
    assert all(value is getattr(state, name) for name, (value, _) in writer._fields.items())


@attrs.frozen
class _State(FightState):
    extra: int = 7


@attrs.frozen
class _Combatant(Combatant):
    extra: int = 7


@pytest.mark.parametrize("shape", ["state subclass", "combatant subclass", "mapping proxy", "int id",
                                   "notes as a text", "undone as a number"])
def test_a_state_of_another_shape_goes_the_definitions_way(engine: Engine, shape: str) -> None:
    """A subclass of the state or of a combatant (with a field more), combatants in a mapping that is not a dict,
    or an id that is not a str: the definition's text (or its error), whatever the writer kept."""
    state = _fight(engine)
    writer = StateText()
    writer.of(state)
    orc = state.combatants["orc"]
    if shape == "state subclass":
        odd: FightState = _State(**{f.name: getattr(state, f.name) for f in attrs.fields(FightState)})
    elif shape == "combatant subclass":
        odd = attrs.evolve(state, combatants={"orc": _Combatant(**attrs.asdict(orc, recurse=False))})
    elif shape == "mapping proxy":
        odd = attrs.evolve(state, combatants=types.MappingProxyType(dict(state.combatants)))
    elif shape == "notes as a text":  # a plain value in a container's field (a review)
        odd = attrs.evolve(state, notes="abc")  # type: ignore[arg-type]
    elif shape == "undone as a number":
        odd = attrs.evolve(state, undone=5)  # type: ignore[arg-type]
    else:
        odd = attrs.evolve(state, combatants={1: orc})
    try:
        expected: Any = state_text_by_definition(odd)
    except Exception as exc:  # noqa: BLE001 - whatever the definition raises, the writer must too
        expected = type(exc)
    try:
        got: Any = writer.of(odd)
    except Exception as exc:  # noqa: BLE001
        got = type(exc)
    assert got == expected


def _snapshot_rows(engine: Engine, fid: str) -> list[tuple[Any, ...]]:
    with engine.store.engine.connect() as conn:  # type: ignore[attr-defined]
        return [tuple(r) for r in conn.execute(
            sa.select(t.snapshots.c.seq, t.snapshots.c.ruleset_version, sa.cast(t.snapshots.c.state, sa.Text),
                      t.snapshots.c.hash, t.snapshots.c.digest)
            .where(t.snapshots.c.fight_id == fid).order_by(t.snapshots.c.seq))]


def test_the_engines_snapshot_rows_are_the_definitions(databases: Databases) -> None:
    """Every snapshot row the engine stores (state text, event hash, digest, version) is the row of the state's
    JSON and the hash of its event, by the definition, on SQLite and PostgreSQL."""
    engine = Engine(databases.new_store(), snapshot_every=2)
    with _recording() as written:
        fid = populate(engine)
    rows = _snapshot_rows(engine, fid)
    states = {state.seq: state for state, _ in written}
    hashes = {e.seq: e.hash for e in engine.store.events(fid)}
    assert [r[0] for r in rows] == sorted(states) and len(rows) >= 3
    expected = []
    for seq, state in sorted(states.items()):
        data, event_hash = state_to_json(state), hashes[seq]
        expected.append((seq, state.ruleset_version, canonical_json(data), event_hash, state_digest(event_hash, data)))
    assert rows == expected


def test_an_engine_keeps_the_snapshot_texts_of_as_many_fights_as_it_caches(store: SqlStore) -> None:
    """One writer per fight, the least recently used let go past the engine's cache size."""
    engine = Engine(store, snapshot_every=2, cache_size=2)
    fights = [populate(engine, prefix=f"f{i}") for i in range(3)]
    assert list(engine._snapshot_texts) == fights[1:]


def test_a_fight_whose_state_leaves_the_cache_lets_its_snapshot_text_go(store: SqlStore) -> None:
    """The writer keeps the last snapshot's parts: it goes when the engine lets the fight's state go, not later
    (a review: up to the cache's size of fights no longer cached kept theirs)."""
    engine = Engine(store, snapshot_every=2, cache_size=1)
    first = populate(engine, prefix="a")
    assert first in engine._snapshot_texts
    engine.create_fight("gurps", title="no snapshot yet")  # one event: cached, nothing written for it
    assert first not in engine._states and first not in engine._snapshot_texts


def test_an_engine_lets_a_forgotten_fights_snapshot_text_go(store: SqlStore) -> None:
    """A fight the engine forgets (an undo, a conflict) loses its writer with its state."""
    engine = Engine(store, snapshot_every=1)
    fid = populate(engine)
    assert fid in engine._snapshot_texts
    engine.forget(fid)
    assert fid not in engine._snapshot_texts
