"""#14 item 2: concentration ends when the task ends (G-27).

"If, before the task finishes, the character is forced to use an active defence ... or is
injured ... roll Will-3": a Concentrate states how many turns its task takes (default one),
the roll is asked only while the task is unfinished, Concentrate again continues it, and any
other maneuver abandons it. The knight (Will 10) concentrates; the orc attacks it.
"""

from __future__ import annotations

from .conftest import Table


def _orc_hits(duel: Table) -> None:
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")  # 12 vs axe 12: a hit


def _will_prompts(duel: Table) -> list[object]:
    return [p for p in duel.state.prompts if p.kind == "roll" and p.options.get("purpose") == "concentrate_will"]


def test_g27_a_one_turn_task_is_finished_at_the_end_of_the_turn(duel: Table) -> None:
    """G-27: default one turn: the task ends with the knight's turn and nothing is being concentrated on."""
    duel.maneuver("knight", "concentrate", task="read the scroll")
    assert duel.cond("knight").concentrating == ""
    assert duel.last("turn_ending").payload["concentrate_left"] == 0
    assert "finished" in duel.explained(duel.last("turn_ending").seq)


def test_g27_defending_after_the_task_finished_asks_no_will_roll(duel: Table) -> None:
    """G-27: the Will-3 roll is for a distraction before the task finishes; after it, a defence is just a defence."""
    duel.maneuver("knight", "concentrate", task="read the scroll")
    _orc_hits(duel)
    duel.defend("block", [[3, 3, 3]])
    assert _will_prompts(duel) == []
    assert duel.current == "knight"  # the fight goes on: no roll to wait for


def test_g27_defending_before_a_longer_task_finishes_asks_will_minus_three(duel: Table) -> None:
    """G-27: a three-turn task is unfinished after its first turn: a defence asks Will-3 (10 - 3 = 7)."""
    duel.maneuver("knight", "concentrate", task="the long ward", turns=3)
    assert (duel.cond("knight").concentrating, duel.cond("knight").concentrate_left) == ("the long ward", 2)
    _orc_hits(duel)
    duel.defend("block", [[3, 3, 3]])
    duel.roll([2, 2, 2], "concentrate_will")
    assert duel.last("check_rolled").payload["record"]["target"] == 7
    assert duel.cond("knight").concentrating == "the long ward"


def test_g27_injury_before_the_task_finishes_asks_will_minus_three(duel: Table) -> None:
    """G-27: being injured while the task is unfinished also asks the roll; failing breaks it."""
    duel.maneuver("knight", "concentrate", task="the long ward", turns=2)
    _orc_hits(duel)
    duel.defend("none")
    duel.roll([2, 2], "damage")  # sw+2 at ST 13: 2d-1+2 = 5 cut, no DR: 7 HP of 12
    duel.roll([6, 6, 5], "concentrate_will")
    assert duel.cond("knight").concentrating == ""


def test_g27_concentrate_again_continues_the_task_until_it_is_finished(duel: Table) -> None:
    """G-27: the same task again goes on with what it still needs, and is finished after its last turn."""
    duel.maneuver("knight", "concentrate", task="the long ward", turns=2)
    duel.maneuver("orc", "do_nothing")
    r = duel.maneuver("knight", "concentrate", task="the long ward")
    chosen = next(e for e in r.events if e.type == "maneuver_chosen").payload
    assert chosen["concentrate_left"] == 1
    assert duel.cond("knight").concentrating == ""  # finished at the end of this, its second turn
    _orc_hits(duel)
    duel.defend("block", [[3, 3, 3]])
    assert _will_prompts(duel) == []


def test_g27_another_maneuver_abandons_the_task(duel: Table) -> None:
    """G-27: the task can be abandoned: any other maneuver ends it, and the log says so."""
    duel.maneuver("knight", "concentrate", task="the long ward", turns=3)
    duel.maneuver("orc", "do_nothing")
    r = duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    chosen = next(e for e in r.events if e.type == "maneuver_chosen")
    assert duel.cond("knight").concentrating == ""
    assert "abandons the task 'the long ward' (G-27)" in duel.explained(chosen.seq)


def test_g27_a_new_task_starts_over_with_its_own_turns(duel: Table) -> None:
    """G-27: Concentrate on another task abandons the first; the new one counts its own turns."""
    duel.maneuver("knight", "concentrate", task="the long ward", turns=3)
    duel.maneuver("orc", "do_nothing")
    duel.maneuver("knight", "concentrate", task="a quick prayer")
    assert duel.cond("knight").concentrating == ""  # one turn: already finished
