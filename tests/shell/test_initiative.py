"""SHELL turn order (S-17, A-64, R-21) as data."""

from __future__ import annotations

import pytest

from combat_server.rules.shell.initiative import Entrant, gm_order, order


def test_e13_s17_initiative_is_ag_minus_twice_el() -> None:
    """E-13: AG 13 at EL 2 has initiative 9."""
    assert Entrant("a", 13, 2).initiative == 9


def test_s17_highest_initiative_first() -> None:
    """S-17: the order is by initiative, highest first (AG 12 EL 0 = 12 before AG 14 EL 2 = 10)."""
    assert order([Entrant("b", 14, 2), Entrant("a", 12, 0)]).order == ("a", "b")


def test_a64_recomputed_when_el_changes() -> None:
    """A-64: the order is computed from each round's EL (b drops its pack: EL 0 -> 14 beats 12)."""
    assert order([Entrant("b", 14, 0), Entrant("a", 12, 0)]).order == ("b", "a")


def test_a64_ties_go_to_higher_ag() -> None:
    """A-64: equal initiative 10: AG 14 (EL 2) goes before AG 10 (EL 0)."""
    assert order([Entrant("low", 10, 0), Entrant("high", 14, 2)]).order == ("high", "low")


def test_r21_full_ties_ask_for_a_rolloff() -> None:
    """R-21: equal initiative and AG: no order yet; the tied group needs roll-off 0."""
    result = order([Entrant("a", 12, 0), Entrant("b", 12, 0), Entrant("c", 15, 0)])
    assert not result.complete and result.tied == ((("a", "b"), 0),)


def test_r21_higher_rolloff_goes_first() -> None:
    """R-21: with the recorded 2d10 roll-offs, the higher goes first."""
    result = order([Entrant("a", 12, 0), Entrant("b", 12, 0), Entrant("c", 15, 0)], {"a": [7], "b": [15]})
    assert result.order == ("c", "b", "a")


def test_r21_rolloff_ties_reroll_among_those_still_tied() -> None:
    """R-21: a, b, c roll 9, 9, 4: c is last; a and b need roll-off 1, then a 3 vs b 12 puts b first."""
    es = [Entrant(i, 10, 0) for i in "abc"]
    pending = order(es, {"a": [9], "b": [9], "c": [4]})
    assert pending.tied == ((("a", "b"), 1),)
    assert order(es, {"a": [9, 3], "b": [9, 12], "c": [4]}).order == ("b", "a", "c")


def test_r21_gm_order_names_everyone_once() -> None:
    """R-21: a GM's explicit order must name every combatant exactly once."""
    es = [Entrant("a", 10, 0), Entrant("b", 10, 0)]
    assert gm_order(es, ["b", "a"]) == ("b", "a")
    with pytest.raises(ValueError):
        gm_order(es, ["a"])
