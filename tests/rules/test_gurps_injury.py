"""Injury arithmetic (injury.py): penetration and wounding (G-42, A-20), shock
(G-47, A-25), major wounds (G-46), death thresholds (G-45, A-23) and FP spill-over
(G-51, A-26); plus the engine's summing and capping of shock before the victim's
turn (A-25, R-05) and R-06 spill-over as injury."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from combat_server.rules.gurps import injury as inj
from tests.rules.gurps_helpers import Fight, d3, payload

NewFight = Callable[..., Fight]


# --------------------------------------------------------------------------- G-42 / A-20


@pytest.mark.parametrize(("basic", "dr", "pen"), [(9, 2, 7), (2, 2, 0), (1, 3, 0), (6, 0, 6), (0, 0, 0)])
def test_g42_penetrating_is_damage_minus_dr_never_negative(basic: int, dr: int, pen: int) -> None:
    """G-42: penetrating = damage - DR; nothing when damage <= DR; everything when DR is 0."""
    assert inj.penetrating(basic, dr) == pen


@pytest.mark.parametrize(("pen", "dtype", "injury"), [(7, "cr", 7), (7, "cut", 10), (7, "imp", 14), (1, "cut", 1),
                                                      (3, "cut", 4), (5, "cut", 7), (4, "imp", 8)])
def test_g42_wounding_multipliers_floor_the_result(pen: int, dtype: str, injury: int) -> None:
    """G-42/A-20: injury = floor(penetrating x 1 / 1.5 / 2) for cr / cut / imp."""
    assert inj.injury(pen, dtype) == injury


@pytest.mark.parametrize("dtype", ["pi", "pi+", "burn", "cor", "tox", "fat"])
def test_a20_unlisted_damage_types_wound_at_x1(dtype: str) -> None:
    """A-20: damage types the seed does not list wound at x1."""
    assert inj.injury(5, dtype) == 5


def test_g42_nothing_penetrating_is_no_injury() -> None:
    """G-42: 0 penetrating gives 0 injury, whatever the type."""
    assert inj.injury(0, "imp") == 0


# --------------------------------------------------------------------------- G-47 / A-25 shock


@pytest.mark.parametrize(("injury", "hp_max", "shock"), [(1, 10, 1), (3, 19, 3), (7, 15, 7)])
def test_g47_below_20_hp_shock_is_one_per_hp_lost(injury: int, hp_max: int, shock: int) -> None:
    """G-47: HPmax < 20: -1 per HP lost (the cap of 4 is applied to the sum, not here)."""
    assert inj.shock(injury, hp_max) == shock


@pytest.mark.parametrize(("injury", "hp_max", "shock"), [(7, 25, 2), (10, 25, 4), (3, 20, 1), (7, 20, 3),
                                                         (29, 30, 9), (2, 25, 0), (6, 40, 1)])
def test_a25_high_hp_shock_is_floor_of_injury_times_10_over_hpmax(injury: int, hp_max: int, shock: int) -> None:
    """G-47/A-25: HPmax >= 20: floor(injury x 10 / HPmax), never rounding the divisor first."""
    assert inj.shock(injury, hp_max) == shock


def test_g47_no_injury_no_shock() -> None:
    """G-47: only an injury that removes HP causes shock."""
    assert inj.shock(0, 10) == 0


def three_way(new_fight: NewFight, victim: dict[str, Any]) -> Fight:
    """a and c both act before the victim b; each has a 2d crushing club."""
    club = {"weapons": [{"name": "club", "skill": 12, "damage": "2d"}]}
    return new_fight({"a": club, "c": club, "b": victim}, order=["a", "c", "b"])


def hit(f: Fight, attacker: str, damage: list[int]) -> dict[str, Any]:
    """``attacker`` hits b, which does not defend, rolling ``damage`` with the club."""
    f.maneuver(attacker, "attack", [d3(10)], target="b", weapon="club")
    f.defend("none")
    return payload(f.roll("damage", [damage]), "injury_applied")


def test_a25_shock_from_several_injuries_is_summed(new_fight: NewFight) -> None:
    """A-25: HPmax 30 taking 3 (shock 1) then 6 (shock 2) before its turn has a pending shock of 3."""
    f = three_way(new_fight, {"hp": 30})
    assert hit(f, "a", [1, 2])["shock_pending"] == 1
    assert hit(f, "c", [3, 3])["shock_pending"] == 3
    assert f.cond("b").shock == 3


def test_a25_summed_shock_is_capped_at_4(new_fight: NewFight) -> None:
    """A-25: HPmax 30 taking 6 (shock 2) then 9 (shock 3) has 5 summed, capped at 4 on its turn."""
    f = three_way(new_fight, {"hp": 30})
    assert hit(f, "a", [3, 3])["shock_added"] == 2
    second = hit(f, "c", [4, 5])
    assert (second["shock_added"], second["shock_pending"]) == (3, 4)
    assert f.engine.load(f.fid).combat.current == "b"
    assert f.cond("b").shock == 4


def test_g47_shock_lasts_only_the_victims_next_turn(new_fight: NewFight) -> None:
    """G-47: shock is in force during the victim's next turn and gone on the turn after."""
    f = new_fight({"a": {"weapons": [{"name": "club", "skill": 12, "damage": "1d"}]}, "b": {}})
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="club")
    f.defend("none")
    f.roll("damage", [[2]])
    assert f.cond("b").shock == 2
    f.pass_turn("b")
    f.pass_turn("a")
    assert f.cond("b").shock == 0


# --------------------------------------------------------------------------- G-46


@pytest.mark.parametrize(("injury", "hp_max", "major"), [(8, 15, True), (7, 15, False), (6, 10, True),
                                                         (5, 10, False), (13, 25, True), (12, 25, False)])
def test_g46_major_wound_is_more_than_half_hpmax(injury: int, hp_max: int, major: bool) -> None:
    """G-46: a single injury of more than HPmax/2 (exactly half is not major)."""
    assert inj.major_wound(injury, hp_max) is major


def test_r06_fatigue_spill_over_is_injury_but_never_a_major_wound(new_fight: NewFight) -> None:
    """R-06: HP lost to FP spill-over causes shock, yet 6 HP of 10 opens no major-wound roll."""
    f = new_fight({"a": {"fp": 10}, "b": {}})
    f.adjust("a", fp=0)
    r = f.run("spend_fatigue", {"combatant": "a", "points": 6, "reason": "spell"})
    injury = payload(r, "injury_applied")
    assert (injury["injury"], injury["shock_added"], injury["major_wound"]) == (6, 6, False)
    assert "major_wound" not in f.open_purposes()


# --------------------------------------------------------------------------- G-45 / A-23


@pytest.mark.parametrize(("new_hp", "hp_max", "already", "crossed", "dead"), [
    (-9, 10, 0, [], False),
    (-10, 10, 0, [1], False),
    (-19, 10, 1, [], False),
    (-20, 10, 1, [2], False),
    (-45, 10, 0, [1, 2, 3, 4], False),
    (-49, 10, 4, [], False),
    (-50, 10, 4, [], True),
    (-30, 15, 0, [1, 2], False),
])
def test_a23_one_death_check_per_threshold_crossed(new_hp: int, hp_max: int, already: int, crossed: list[int],
                                                   dead: bool) -> None:
    """G-45/A-23: one HT roll for each of -1x..-4x HPmax newly reached; -5x HPmax is automatic death."""
    assert inj.death_thresholds(new_hp, hp_max, already) == (crossed, dead)


# --------------------------------------------------------------------------- G-51 / A-26


@pytest.mark.parametrize(("fp", "fp_max", "points", "result"), [
    (5, 10, 3, (2, 0)),
    (3, 10, 3, (0, 0)),
    (0, 10, 1, (-1, 1)),
    (1, 12, 3, (-2, 2)),
    (-10, 12, 4, (-12, 4)),
    (-12, 12, 3, (-12, 3)),
    (1, 5, 10, (-5, 9)),
])
def test_a26_fp_spill_over_costs_hp_only_for_points_lost_at_or_below_zero(fp: int, fp_max: int, points: int,
                                                                          result: tuple[int, int]) -> None:
    """A-26: a point costs 1 HP if FP was already <= 0; FP stops at -FPmax and further points cost HP 1:1."""
    assert inj.spend_fatigue(fp, fp_max, points) == result


# --------------------------------------------------------------------------- G-46 / A-24 and G-44 through the engine


def major_wound_on(new_fight: NewFight, ht: int) -> Fight:
    """b (HPmax 10, HT ``ht``) takes 6 crushing: a major wound (6 > 5) with its HT roll open."""
    f = new_fight({"a": {"weapons": [{"name": "club", "skill": 12, "damage": "2d"}]}, "b": {"ht": ht}})
    f.maneuver("a", "attack", [d3(10)], target="b", weapon="club")
    f.defend("none")
    f.roll("damage", [[3, 3]])
    assert "major_wound" in f.open_purposes()
    return f


def test_a24_major_wound_critical_failure_knocks_out_even_by_a_small_margin(new_fight: NewFight) -> None:
    """A-24/A-03: HT 15 rolling 17 fails by only 2, but it is a critical failure: unconscious."""
    f = major_wound_on(new_fight, 15)
    f.roll("major_wound", [d3(17)])
    assert f.cond("b").unconscious


def test_a24_major_wound_plain_failure_by_1_stuns(new_fight: NewFight) -> None:
    """A-24: HT 15 rolling 16 fails by 1: stunned and knocked down, still conscious."""
    f = major_wound_on(new_fight, 15)
    f.roll("major_wound", [d3(16)])
    cond = f.cond("b")
    assert (cond.stunned, cond.posture, cond.unconscious) == (True, "prone", False)


def test_g44_failed_ht_roll_at_zero_hp_knocks_out(new_fight: NewFight) -> None:
    """G-44/A-22: at HP 0 the turn starts with a HT roll; failing it leaves the combatant unconscious."""
    f = new_fight({"a": {}, "b": {"ht": 10}})
    f.adjust("b", hp=0)
    f.pass_turn("a")
    assert f.open_purposes() == ["consciousness"]
    f.roll("consciousness", [d3(11)])
    assert f.cond("b").unconscious


def test_g44_passed_ht_roll_at_zero_hp_lets_the_turn_go_on(new_fight: NewFight) -> None:
    """G-44/A-22: passing the HT roll at HP 0 leaves the combatant awake to choose a maneuver."""
    f = new_fight({"a": {}, "b": {"ht": 10}})
    f.adjust("b", hp=0)
    f.pass_turn("a")
    f.roll("consciousness", [d3(10)])
    assert not f.cond("b").unconscious
    assert f.engine.load(f.fid).combat.phase == "maneuver"
