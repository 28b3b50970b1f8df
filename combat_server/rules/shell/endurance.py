"""SHELL END: the fatigue thresholds (S-13, A-62, R-18) and combat fatigue by
rounds and EL (S-46, A-82, R-19). Pure numbers a turn flow can apply.

Why an integer accumulator in 1/300 END: 300 is the least common multiple of
every S-46 interval (25, 20, 15, 10, 5), so A-82's fractional counting is exact
and the state stays plain JSON."""

from __future__ import annotations

import attrs

from combat_server.rules.shell import charts

FATIGUE_UNIT = 300


@attrs.frozen
class Fatigue:
    """The S-13 effects at the current END (not cumulative, A-62)."""

    st: int  # modifier to ST (and so to the ST lookups, A-62)
    ag: int  # modifier to AG (DX read as AG, A-62)
    mv: int  # the MV after fatigue
    wp_roll: int | None  # the WP roll to stay conscious (WP + current END), when one is due


def fatigue(end: int, end_max: int, mv: int, wp: int, rederive: tuple[int, int, int] | None = None) -> Fatigue:
    """S-13: END <= 1/3 ENDmax: ST, AG, MV -1; END <= 0: ST, AG -2, MV halved (floor),
    and a WP + END roll against unconsciousness (called again whenever END is spent, R-18).

    ``rederive`` = (ST, AG, bought MV) under the option ``fatigue_rederives_mv``
    (A-62 cfg): MV is then recomputed from the fatigued ST and AG instead."""
    if end <= 0:
        st, ag, moved, roll = -2, -2, mv // 2, wp + end
    elif end * 3 <= end_max:
        st, ag, moved, roll = -1, -1, max(0, mv - 1), None
    else:
        return Fatigue(0, 0, mv, None)
    if rederive is not None:
        moved = max(0, (rederive[0] + st + rederive[1] + ag) // 4 + rederive[2])
    return Fatigue(st, ag, moved, roll)


@attrs.frozen
class FatigueTick:
    accumulator: int  # in 1/300 END
    end_lost: int


def combat_round(accumulator: int, el: int, active: bool) -> FatigueTick:
    """S-46 / A-82: a round in which the combatant moved, attacked or defended adds
    1/N(EL) END; each whole END reached is lost. R-19: a round spent only casting is
    not active (the caller passes ``active=False``); casting and defending is."""
    if not active:
        return FatigueTick(accumulator, 0)
    acc = accumulator + FATIGUE_UNIT // charts.FATIGUE_ROUNDS[el]
    return FatigueTick(acc % FATIGUE_UNIT, acc // FATIGUE_UNIT)
