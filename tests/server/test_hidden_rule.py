"""The per-event visibility rule (#15 item 1), as pure functions over the states a real
fight's log folds to: which combatants an event hides is decided by the states right
before and right after it, in the log as written, never by the fight's current state."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command, FightState
from combat_server.server.views import hidden_during, hidden_ids, may_hide, seat_hidden
from combat_server.store.sql import open_store

from .conftest import SHEET


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    store = open_store(f"sqlite:///{tmp_path / 'rule.sqlite'}", migrate=True)
    yield Engine(store)
    store.dispose()


class Log:
    """A fight run by the GM, and the states around each of its events."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.fid = engine.create_fight("gurps", dice_mode="manual").fight_id
        self.n = 0

    def gm(self, command: str, **args: Any) -> int:
        """Run a GM command; returns the seq of its (last) event."""
        self.n += 1
        return self.engine.execute(self.fid, Command(command, args, GM_ACTOR, f"c{self.n}")).last_seq

    def around(self, seq: int) -> tuple[FightState, FightState]:
        return self.engine.state_at(self.fid, seq - 1), self.engine.state_at(self.fid, seq)

    def hides(self, seq: int) -> frozenset[str]:
        before, after = self.around(seq)
        hidden = hidden_during(before, after)
        assert hidden_during(before, after, hidden_ids(after)) == hidden  # as the hub's push asks, with hidden_ids given
        return hidden


@pytest.fixture
def log(engine: Engine) -> Log:
    log = Log(engine)
    log.gm("add_combatant", id="alice", name="Alice", side="pc", sheet=SHEET)
    return log


def test_an_event_hides_a_combatant_added_hidden(log: Log) -> None:
    """The hidden orc's own entry already hides it; a visible combatant is never hidden."""
    added = log.gm("add_combatant", id="orc", name="Orc", side="npc", sheet=SHEET, hidden=True)
    assert log.hides(added) == {"orc"}
    assert log.hides(added - 1) == frozenset()  # Alice's entry


def test_the_removal_of_a_hidden_combatant_still_hides_it(log: Log) -> None:
    """Removed after, the orc is still hidden in the event that removed it (and in those before)."""
    added = log.gm("add_combatant", id="orc", name="Orc", side="npc", sheet=SHEET, hidden=True)
    note = log.gm("note", text="the orc lurks")
    removed = log.gm("remove_combatant", id="orc")
    assert [log.hides(s) for s in (added, note, removed)] == [{"orc"}] * 3


def test_the_undo_of_a_hidden_entry_still_hides_it_and_a_redo_hides_it_again(log: Log) -> None:
    """The undo that takes the hidden orc out of the fight hides it; the redo that brings it back too."""
    added = log.gm("add_combatant", id="orc", name="Orc", side="npc", sheet=SHEET, hidden=True)
    undo = log.gm("undo", to="seq", seq=added - 1)
    assert "orc" not in log.around(undo)[1].combatants
    redo = log.gm("redo")
    assert log.hides(undo) == {"orc"} and log.hides(redo) == {"orc"}


def test_a_reveal_shows_the_combatant_from_the_revealing_event_on(log: Log) -> None:
    """``hidden: false`` ends the hiding with that event; a later hide starts it again."""
    log.gm("add_combatant", id="orc", name="Orc", side="npc", sheet=SHEET, hidden=True)
    reveal = log.gm("update_combatant", id="orc", hidden=False)
    note = log.gm("note", text="the orc shows itself")
    hide = log.gm("update_combatant", id="orc", hidden=True)
    assert [log.hides(s) for s in (reveal, note, hide)] == [frozenset(), frozenset(), {"orc"}]


def test_may_hide_is_false_only_where_nothing_could_be_hidden(log: Log, engine: Engine) -> None:
    """A stretch with no hidden combatant at its start, no hiding event and no undo/redo needs no walk."""
    first = log.gm("note", text="nothing hidden yet")
    start = log.around(first)[0]
    assert not may_hide(start, engine.store.events(log.fid, after=start.seq))
    undo = log.gm("undo", to="last_command")
    assert may_hide(start, engine.store.events(log.fid, after=start.seq, upto=undo))
    added = log.gm("add_combatant", id="orc", name="Orc", side="npc", sheet=SHEET, hidden=True)
    assert may_hide(log.around(added)[0], engine.store.events(log.fid, after=added - 1))
    assert may_hide(log.around(added)[1], [])


def test_a_seat_sees_what_it_controls_and_the_gm_everything() -> None:
    """Of the hidden combatants, a player is spared its own, a spectator none, the GM all."""
    hidden = frozenset({"orc", "ogre"})
    assert seat_hidden("player", ("orc",), hidden) == {"ogre"}
    assert seat_hidden("spectator", (), hidden) == hidden
    assert seat_hidden("gm", (), hidden) == frozenset()
