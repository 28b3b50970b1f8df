"""Turn orders as data: who acts next, given the order, where the fight is in it and
who can act. Two kinds, because rulesets differ on when the order is decided:

- :class:`FixedOrder`: one order for the whole fight, decided when combat starts
  (GURPS G-19); a new round begins each time the order wraps.
- :class:`RoundOrder`: an order decided afresh for every round (SHELL re-rolls
  initiative). The end of a round is reported as :class:`RoundOver`, so the
  ruleset decides the new order *as an event* (the initiative dice belong in the
  log) and asks again from the start of that order (``index = -1``).

Both skip those who cannot act; neither rolls or emits anything itself.
"""

from __future__ import annotations

from typing import Callable, Sequence

import attrs

from combat_server.errors import reject
from combat_server.rules.model import FightState

CanAct = Callable[[str], bool]


@attrs.frozen
class Turn:
    """The next turn: whose it is, its place in the order, and its round (from 1)."""

    combatant: str
    index: int
    round: int


@attrs.frozen
class RoundOver:
    """Nobody else acts this round: round ``round`` starts, and needs its order first."""

    round: int


@attrs.frozen
class FixedOrder:
    """The same order every round (G-19)."""

    def next_turn(self, order: Sequence[str], index: int, round: int, can_act: CanAct) -> Turn | None:
        """The first combatant after ``index`` who can act, wrapping into the next round;
        ``index < 0``: the fight has not had a turn yet (round 1 starts). ``None``: nobody can act."""
        n = len(order)
        for step in range(1, n + 1):
            at = index + step
            rnd = (round if index >= 0 else 1) + at // n  # a new round when the order wraps
            at %= n
            if can_act(order[at]):
                return Turn(order[at], at, rnd)
        return None


@attrs.frozen
class RoundOrder:
    """An order decided anew for each round (initiative re-rolled every round)."""

    def next_turn(self, order: Sequence[str], index: int, round: int, can_act: CanAct) -> Turn | RoundOver | None:
        """The first combatant after ``index`` in this round's ``order`` who can act; when the
        round has nobody left, :class:`RoundOver` for the next one (round 1 if none began yet).
        ``None``: nobody in the order can act at all, so a new round would not help."""
        for at in range(max(index + 1, 0), len(order)):
            if can_act(order[at]):
                return Turn(order[at], at, max(round, 1))
        if not any(can_act(cid) for cid in order):
            return None
        return RoundOver(round + 1 if round >= 1 else 1)


def combatants_to_start(state: FightState) -> list[str]:
    """The combatants a ``start_combat`` orders, once the fight may start: it is still being set
    up (``combat/already_started``) and has at least two combatants (``combat/too_few``).

    Why here: every ruleset's start of combat refuses the same two cases with the same errors.
    """
    if state.status != "setup":
        raise reject("combat/already_started", "combat has already started")
    ids = list(state.combatants)
    if len(ids) < 2:
        raise reject("combat/too_few", "a fight needs at least two combatants")
    return ids
