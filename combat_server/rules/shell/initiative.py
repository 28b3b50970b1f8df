"""SHELL turn order (S-17, A-64, R-21) as data: initiative AG - 2 x EL, computed
afresh each round; ties go to the higher AG, then to recorded 2d10 roll-offs
(higher first, re-rolling among those still tied).

Why ``order`` returns the groups still tied instead of rolling: the rules core
never rolls; the ruleset asks for the roll-offs, records them as events, and
calls ``order`` again with them."""

from __future__ import annotations

from typing import Mapping, Sequence

import attrs


@attrs.frozen
class Entrant:
    id: str
    ag: int
    el: int

    @property
    def initiative(self) -> int:
        return self.ag - 2 * self.el  # S-17


@attrs.frozen
class Order:
    """``order`` when complete; otherwise the tied groups that need a (further) roll-off,
    each with the index of the roll-off round it needs."""

    order: tuple[str, ...]
    tied: tuple[tuple[tuple[str, ...], int], ...] = ()

    @property
    def complete(self) -> bool:
        return not self.tied


def order(entrants: Sequence[Entrant], rolloffs: Mapping[str, Sequence[int]] = {}) -> Order:
    """S-17 / A-64 / R-21. ``rolloffs[id][k]`` is that entrant's 2d10 total in roll-off k."""
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("each combatant may appear once in the turn order")
    groups: dict[tuple[int, int], list[str]] = {}
    for e in entrants:
        groups.setdefault((e.initiative, e.ag), []).append(e.id)
    out: list[str] = []
    tied: list[tuple[tuple[str, ...], int]] = []
    for key in sorted(groups, reverse=True):
        _settle(groups[key], 0, rolloffs, out, tied)
    return Order(tuple(out) if not tied else (), tuple(tied))


def _settle(group: list[str], k: int, rolloffs: Mapping[str, Sequence[int]],
            out: list[str], tied: list[tuple[tuple[str, ...], int]]) -> None:
    if len(group) == 1:
        out.append(group[0])
        return
    if any(len(rolloffs.get(i, ())) <= k for i in group):
        tied.append((tuple(sorted(group)), k))
        return
    by_roll: dict[int, list[str]] = {}
    for i in group:
        by_roll.setdefault(rolloffs[i][k], []).append(i)
    for roll in sorted(by_roll, reverse=True):
        _settle(by_roll[roll], k + 1, rolloffs, out, tied)


def gm_order(entrants: Sequence[Entrant], chosen: Sequence[str]) -> tuple[str, ...]:
    """R-21: a GM may set the order explicitly; it must name every combatant once."""
    if sorted(chosen) != sorted(e.id for e in entrants):
        raise ValueError("the GM's order must name every combatant exactly once")
    return tuple(chosen)
