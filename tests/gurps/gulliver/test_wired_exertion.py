"""GULLIVER's exertion fatigue wired through the gurps ruleset (issue #11), on the real engine
(SQLite file and PostgreSQL): V-52 encumbrance (exertion / the Move multiplier, 1 a turn standing
under a Super-Heavy load), V-48 Extra Effort (1 a turn) and heat (+1 / +2 on every cost), V-47
movement by pace (A-48: 1 per 10 s sprinting, 20 s running ...). Each on against off on the same
commands. Numbers worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import fight

#: ST 10 (BL 20 lb), DX 12, HT 12: Basic Move 6, FPmax 12.
HERO = {"st": 10, "dx": 12, "ht": 12, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "ht": 10, "hp": 10}
LIGHT = {**HERO, "carried": 30}  # <= 2 x BL: Light, Move x4/5 (4): V-52 x5/4
MEDIUM = {**HERO, "carried": 50}  # <= 3 x BL: Medium: V-52 x5/3
SUPER_HEAVY = {**HERO, "carried": 250}  # > 10 x BL: V-52's Super-Heavy


def _spend(table: Table, points: int, **args: Any) -> dict[str, Any]:
    table.send("spend_fatigue", {"combatant": "hero", "points": points, **args})
    return dict(table.last("fatigue_spent").payload)


def _said(table: Table, type_: str) -> str:
    return table.explained(table.last(type_).seq)


# ---------------------------------------------------------------------------------------------- V-52


def test_v52_exertion_is_divided_by_the_move_multiplier(engine: Engine) -> None:
    """V-52: a Medium load (Move x3/5) makes 3 points of exertion 3 x 5/3 = 5: FP 12 -> 7; off: 9."""
    assert _spend(fight(engine, MEDIUM, FOE), 3)["fp_after"] == 9
    table = fight(engine, MEDIUM, FOE, "encumbrance_fatigue")
    p = _spend(table, 3)
    assert (p["fp_after"], p["cost"], p["steps"]) == (7, "5", ["x5/3 for Medium encumbrance (V-52)"])
    assert _said(table, "fatigue_spent") == ("Hero takes 3 FP: x5/3 for Medium encumbrance (V-52) = 5; "
                                             "FP 12 -> 7 of 12 (G-51, A-50).")


def test_v52_fractions_are_kept_until_whole_again(engine: Engine) -> None:
    """A-50 under G-51: Light load, 1 point x 5/4: FP 12 -> 43/4 (fp 10, fp_exact "43/4"); 3 more x 5/4 =
    15/4: 7 exactly, the fraction gone."""
    table = fight(engine, LIGHT, FOE, "encumbrance_fatigue")
    assert _spend(table, 1)["fatigue_after"] == "43/4"
    assert (table.cond("hero").fp, table.cond("hero").fp_exact) == (10, "43/4")
    p = _spend(table, 3)
    assert (p["fatigue_before"], p["fp_after"], "fatigue_after" in p) == ("43/4", 7, False)
    assert (table.cond("hero").fp, table.cond("hero").fp_exact) == (7, "")
    assert table.refold_matches()


def test_v52_a_spell_is_not_exertion(engine: Engine) -> None:
    """V-52 scales physical exertion: a spell's 3 points under a Medium load stay 3."""
    table = fight(engine, MEDIUM, FOE, "encumbrance_fatigue")
    p = _spend(table, 3, exertion=False)
    assert (p["fp_after"], "steps" in p) == (9, False)


def test_v52_standing_under_a_super_heavy_load_costs_1_a_turn(engine: Engine) -> None:
    """V-52: over 10 x BL, a turn standing still costs 1 fatigue (not x10: the rule's own cost), citing
    V-52; without the option nothing."""
    off = fight(engine, SUPER_HEAVY, FOE)
    off.maneuver("hero", "do_nothing")
    assert off.cond("hero").fp == 12 and not off.events("fatigue_spent")
    table = fight(engine, SUPER_HEAVY, FOE, "encumbrance_fatigue")
    table.maneuver("hero", "do_nothing")
    p = table.last("fatigue_spent").payload
    assert (p["points"], p["fp_after"], p["rule"]) == (1, 11, "V-52")
    assert _said(table, "fatigue_spent") == ("Hero takes 1 FP for standing under a Super-Heavy load "
                                             "(V-52 (in place of G-51)); FP 12 -> 11 of 12.")


def test_v52_sitting_under_the_load_costs_nothing(engine: Engine) -> None:
    """V-52: "sitting or lying down may alleviate" it: a hero who sits down pays nothing for the turn."""
    table = fight(engine, SUPER_HEAVY, FOE, "encumbrance_fatigue")
    table.maneuver("hero", "change_posture", posture="sitting")
    assert table.cond("hero").fp == 12 and not table.events("fatigue_spent")


def test_v52_a_gm_tools_climbing_fatigue_is_exertion(engine: Engine) -> None:
    """V-52 through a GM tool: climbing 100 ft of stone wall at combat speed is 2 FP of exertion (G-05):
    x5/3 under a Medium load = 10/3: FP 12 -> 26/3."""
    table = fight(engine, MEDIUM, FOE, "encumbrance_fatigue")
    table.send("apply_tool", {"tool": "climbing", "inputs": {"climb": "stone_wall", "height": 100, "speed": "combat",
                                                             "skill": 12}, "targets": ["hero"]})
    p = table.last("fatigue_spent").payload
    assert (p["points"], p["cost"], p["fatigue_after"]) == (2, "10/3", "26/3")


def test_v52_fatigue_from_cold_is_not_exertion(engine: Engine) -> None:
    """V-28 through a GM tool: cold failed by 4 costs ceil(4/3) = 2 FP, not scaled by the Medium load."""
    table = fight(engine, MEDIUM, FOE, "encumbrance_fatigue")
    table.send("apply_tool", {"tool": "temperature", "inputs": {"temperature": 0, "ht": 12, "failed_by": 4,
                                                                "loses": "fp"}, "targets": ["hero"]})
    p = table.last("fatigue_spent").payload
    assert (p["points"], p["fp_after"], p["exertion"], "steps" in p) == (2, 10, False, False)


# ---------------------------------------------------------------------------------------------- V-48


def test_v48_extra_effort_costs_1_fatigue_a_turn(engine: Engine) -> None:
    """V-48: an Evaluate made with Extra Effort costs 1 fatigue: FP 12 -> 11, citing V-48."""
    table = fight(engine, HERO, FOE, "effort_heat_fatigue")
    table.maneuver("hero", "evaluate", target="foe", extra_effort=True)
    p = table.last("fatigue_spent").payload
    assert (p["points"], p["fp_after"], p["rule"]) == (1, 11, "V-48")
    assert "takes 1 FP for Extra Effort this turn (V-48 (in place of G-51))" in _said(table, "fatigue_spent")


def test_v48_off_extra_effort_is_refused(engine: Engine) -> None:
    """Without V-48 the core has no Extra Effort: asking for it is refused with its own code, and nothing changes."""
    table = fight(engine, HERO, FOE)
    before = len(table.events("maneuver_chosen"))
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "evaluate", target="foe", extra_effort=True)
    assert (err.value.code, err.value.details["field"]) == ("maneuver/extra_effort_off", "extra_effort")
    assert len(table.events("maneuver_chosen")) == before and table.cond("hero").fp == 12


def test_v48_the_maneuver_form_offers_extra_effort(engine: Engine) -> None:
    """V-48: with the option, the hero's maneuvers (not Do Nothing) carry an Extra Effort field; without, none."""
    def fields(table: Table) -> dict[str, list[str]]:
        d = GurpsRuleset().describe(table.state, GM_ACTOR)
        return {a.id: [f.name for f in a.fields] for a in d.actions if a.command == "maneuver"}

    on = fields(fight(engine, HERO, FOE, "effort_heat_fatigue"))
    assert "extra_effort" in on["evaluate"] and "extra_effort" in on["move"] and "extra_effort" not in on["do_nothing"]
    assert not any("extra_effort" in f for f in fields(fight(engine, HERO, FOE)).values())


@pytest.mark.parametrize(("heat", "fp_after"), [("none", 10), ("hot", 9), ("very_hot", 8)])
def test_v48_heat_adds_to_every_fatigue_cost(engine: Engine, heat: str, fp_after: int) -> None:
    """V-48: 2 points in the fight's heat: none 2, hot +1 = 3, very hot +2 = 4."""
    table = fight(engine, HERO, FOE, "effort_heat_fatigue", fatigue_heat=heat)
    assert _spend(table, 2)["fp_after"] == fp_after


def test_v48_heat_needs_the_option(engine: Engine) -> None:
    """The heat reading stands on V-48: asking for it alone is refused, naming both, and no fight is created."""
    before = len(engine.store.fights())
    with pytest.raises(Rejected) as err:
        engine.create_fight("gurps", options={"fatigue_heat": "hot"})
    assert err.value.code == "fight/option_conflict" and "effort_heat_fatigue" in err.value.message
    assert len(engine.store.fights()) == before


# ---------------------------------------------------------------------------------------------- V-47


def _round(table: Table, **move: Any) -> None:
    table.maneuver("hero", "move", **move)
    table.maneuver("foe", "do_nothing")


@pytest.mark.parametrize(("yards", "pace", "interval"), [
    (2, "walking", 3600), (3, "jogging", 600), (4, "fast jogging", 60), (6, "running", 20)])
def test_v47_a48_the_pace_is_the_share_of_move(engine: Engine, yards: int, pace: str, interval: int) -> None:
    """V-47 / A-48: Move 6: 2 yd (<= 1/3) walking, 1 per hour; 3 (<= 1/2) jogging, 10 min; 4 (<= 2/3) fast
    jogging, 1 min; 6 (<= 1) running, 20 s; the second is kept in the condition."""
    table = fight(engine, HERO, FOE, "movement_fatigue")
    table.maneuver("hero", "move", yards=yards)
    p = table.last("pace_timed").payload
    assert (p["pace"], p["seconds"], p["interval"], p["move"]) == (pace, 1, interval, 6)
    assert table.cond("hero").pace_seconds == {pace: 1}


def test_v47_a_sprint_costs_1_fatigue_per_10_seconds(engine: Engine) -> None:
    """V-47 / A-48 (in place of G-10): one second running (1/20) and then sprinting 7 yd of Move 6 (1/10 a
    second): after 9 sprint seconds 19/20, nothing charged; the 10th makes 21/20: 1 fatigue, citing V-47.
    Off, the same run costs nothing and keeps no seconds."""
    off = fight(engine, HERO, FOE)
    _round(off, yards=6, forward=True)
    for _ in range(10):
        _round(off, yards=7, sprint=True, forward=True)
    assert off.cond("hero").fp == 12 and not off.events("pace_timed") and off.cond("hero").pace_seconds == {}
    table = fight(engine, HERO, FOE, "movement_fatigue")
    _round(table, yards=6, forward=True)
    for _ in range(9):
        _round(table, yards=7, sprint=True, forward=True)
    assert table.cond("hero").pace_seconds == {"running": 1, "sprinting": 9} and not table.events("fatigue_spent")
    _round(table, yards=7, sprint=True, forward=True)
    p = table.last("fatigue_spent").payload
    assert (p["points"], p["fp_after"], p["rule"]) == (1, 11, "V-47")
    assert "V-47 (in place of G-10)" in _said(table, "pace_timed") and "sprinting" in _said(table, "fatigue_spent")
    assert table.refold_matches()


def test_v47_with_v52_running_under_a_light_load(engine: Engine) -> None:
    """V-47 with V-52: Light load, Move 4: 3 yd a second is running (> 2/3); the 20th second's point is
    x5/4: FP 12 -> 43/4."""
    table = fight(engine, LIGHT, FOE, "movement_fatigue", "encumbrance_fatigue")
    for _ in range(20):
        _round(table, yards=3)
    p = table.last("fatigue_spent").payload
    assert (p["rule"], p["cost"], p["fatigue_after"]) == ("V-47", "5/4", "43/4")
    assert table.cond("hero").pace_seconds == {"running": 20}
