"""SHELL END: thresholds (S-13, A-62) and combat fatigue (S-46, A-82, R-19), with E-13's numbers."""

from __future__ import annotations

from combat_server.rules.shell import charts
from combat_server.rules.shell.endurance import Fatigue, combat_round, fatigue


def test_e13_s46_sixty_active_rounds_at_el2_cost_four_end() -> None:
    """E-13: 1 END per 15 active rounds at EL 2: 60 rounds -> 4 END."""
    acc, lost = 0, 0
    for _ in range(60):
        tick = combat_round(acc, el=2, active=True)
        acc, lost = tick.accumulator, lost + tick.end_lost
    assert (lost, acc) == (4, 0)


def test_s46_end_is_lost_on_the_nth_round_exactly() -> None:
    """S-46: at EL 4 the 5th active round costs the END, not the 4th."""
    acc = 0
    losses = []
    for _ in range(5):
        tick = combat_round(acc, el=4, active=True)
        acc = tick.accumulator
        losses.append(tick.end_lost)
    assert losses == [0, 0, 0, 0, 1]


def test_a82_changing_el_accumulates_fractions() -> None:
    """A-82: 10 rounds at EL 0 (10/25) then 6 at EL 3 (6/10) make exactly 1 END."""
    acc, lost = 0, 0
    for el in [0] * 10 + [3] * 6:
        tick = combat_round(acc, el, True)
        acc, lost = tick.accumulator, lost + tick.end_lost
    assert (lost, acc) == (1, 0)


def test_r19_a_round_only_casting_is_not_active() -> None:
    """R-19 / S-46: a round spent only casting adds nothing to combat fatigue."""
    assert combat_round(290, el=4, active=False) == combat_round(290, el=4, active=False)
    assert combat_round(290, el=4, active=False).end_lost == 0
    assert combat_round(290, el=4, active=True).end_lost == 1


def test_e13_s13_a_third_of_end_or_less() -> None:
    """E-13: END <= 4 of 12: ST -1, AG -1 (so AT +1, DEF +1 for AG 12), MV 6 -> 5; END 5: no effect."""
    assert fatigue(4, 12, mv=6, wp=10) == Fatigue(-1, -1, 5, None)
    assert fatigue(5, 12, mv=6, wp=10) == Fatigue(0, 0, 6, None)
    assert (charts.ag_at_mod(13 - 1), charts.ag_def_mod(13 - 1)) == (1, 1)


def test_e13_s13_end_zero_or_less_a62_not_cumulative() -> None:
    """E-13 / A-62: END -2: ST -2, AG -2 (not -3), MV floor(6/2) = 3, WP roll vs 10 - 2 = 8."""
    assert fatigue(-2, 12, mv=6, wp=10) == Fatigue(-2, -2, 3, 8)


def test_s13_end_exactly_zero_calls_a_wp_roll_at_wp() -> None:
    """S-13: at END 0 the WP roll is at WP + 0."""
    assert fatigue(0, 12, mv=6, wp=11).wp_roll == 11


def test_a62_option_rederives_mv_from_fatigued_st_and_ag() -> None:
    """A-62 [cfg fatigue_rederives_mv]: ST 12, AG 13 at END 0 -> (10 + 11) / 4 = 5, not 6 / 2 = 3."""
    assert fatigue(0, 12, mv=6, wp=10, rederive=(12, 13, 0)).mv == 5
    assert fatigue(4, 12, mv=6, wp=10, rederive=(12, 13, 0)).mv == 5  # (11 + 12) / 4
    assert fatigue(5, 12, mv=6, wp=10, rederive=(12, 13, 0)).mv == 6
