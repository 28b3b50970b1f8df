"""Applying a GM tool (#12) through a real Engine and store: the dice are rolled like any roll (manual
faces here), the ``tool_applied`` event carries the tool, inputs and steps, and the harm goes through
the normal injury path (DR, wound multiplier, shock, major wound, death checks) or the FP path."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected
from combat_server.rules.model import Principal

from ..conftest import Table

#: ST 12 -> HP 12; HT 11 -> FP 11.
KNIGHT = {"st": 12, "dx": 12, "ht": 11, "dr": 2}


@pytest.fixture
def knight(table: Table) -> Table:
    table.add("knight", KNIGHT)
    table.add("page", {"st": 10})
    return table


def _seq(t: Table) -> int:
    return t.engine.store.fight(t.fight_id).last_seq


def test_applied_damage_goes_through_dr_and_the_wound_multiplier(knight: Table) -> None:
    """2d cr (LS 1) rolls 4 + 5 = 9; DR 2 -> 7 penetrating, cr x1 -> injury 7; on the page (DR 0) a jet's
    2d cut rolls 9 -> 9 penetrating, cut x1.5 -> floor(13.5) = 13 (G-42)."""
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d", "kind": "cr"}, "targets": ["knight"]},
                faces=[[4, 5]])
    p = knight.last("tool_applied").payload
    assert (p["points"], p["dr"], p["penetrating"], p["injury"]) == (9, 2, 7, 7)
    knight.send("apply_tool", {"tool": "jet", "inputs": {"damage": "2d", "kind": "cut", "jet_width": 12,
                                                         "target_width": 24}, "targets": ["page"]}, faces=[[4, 5]])
    p = knight.last("tool_applied").payload
    assert (p["dr"], p["penetrating"], p["multiplier"], p["injury"]) == (0, 9, "3/2", 13)


def test_the_event_carries_the_tool_its_inputs_and_steps(knight: Table) -> None:
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d", "ls": "1/36"}, "targets": ["page"]},
                faces=[[6, 6]])
    p = knight.last("tool_applied").payload
    assert p["tool"] == "exposure" and p["inputs"]["ls"] == "1/36" and p["dice"] == [6, 6]
    assert [s["rule"] for s in p["steps"]] == ["V-25", "V-25, R-01"]
    assert p["points"] == 2  # 12 x 1/6
    text = next(h.explanation for h in knight.engine.history(knight.fight_id) if h.event.type == "tool_applied")
    assert text == "The GM applies Exposure hazard to Page: [6, 6] x 1/6 = 2 burn (V-25, R-01); DR 0 -> 2 " \
                   "penetrating; x1 -> injury 2 (G-42, A-20)."


def test_the_injury_takes_hp_with_shock_and_opens_the_major_wound_check(knight: Table) -> None:
    """Injury 7 > HP 12 / 2: major wound, HT roll opened (G-46); shock -4 capped (G-47); HP 12 -> 5."""
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d", "kind": "cr"}, "targets": ["knight"]},
                faces=[[4, 5]])
    injury = knight.last("injury_applied").payload
    assert (injury["hp_before"], injury["hp_after"], injury["shock_pending"], injury["major_wound"]) == (12, 5, 4, True)
    assert knight.cond("knight").hp == 5
    assert knight.prompt("roll").options["purpose"] == "major_wound"


def test_a_failed_major_wound_check_knocks_down_as_after_a_blow(knight: Table) -> None:
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d", "kind": "cr"}, "targets": ["knight"]},
                faces=[[4, 5]])
    knight.roll([5, 5, 3], "major_wound")  # 13 vs HT 11: failed by 2 -> stunned and knocked down
    assert knight.cond("knight").stunned and knight.cond("knight").posture == "prone"


def test_death_checks_open_past_minus_hp(knight: Table) -> None:
    """Page HP 10 takes 4d x 2 (LS 4) burn rolled 24 -> 48: HP -38 crosses -10, -20, -30 (G-45)."""
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "4d", "ls": "4"}, "targets": ["page"]},
                faces=[[6, 6, 6, 6]])
    assert knight.last("injury_applied").payload["death_thresholds"] == [1, 2, 3]


def test_fatigue_goes_through_the_fp_path(knight: Table) -> None:
    """Climbing 100 ft of stone wall at combat speed: 2 rolls, 2 FP: FP 11 -> 9 (G-05, G-51)."""
    knight.send("apply_tool", {"tool": "climbing", "inputs": {"climb": "stone_wall", "height": 100,
                                                              "speed": "combat", "skill": 12},
                               "targets": ["knight"]})
    spent = knight.last("fatigue_spent").payload
    assert (spent["fp_before"], spent["fp_after"]) == (11, 9)
    assert knight.cond("knight").fp == 9 and knight.cond("knight").hp == 12


def test_hp_lost_to_cold_ignores_dr(knight: Table) -> None:
    """V-28: failed by 9 -> 3 HP, as it is: the knight's DR 2 does not stop it."""
    knight.send("apply_tool", {"tool": "temperature", "inputs": {"temperature": 0, "ht": 11, "failed_by": 9,
                                                                 "loses": "hp"}, "targets": ["knight"]})
    assert knight.cond("knight").hp == 9


def test_each_target_rolls_its_own_dice(knight: Table) -> None:
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "1d"}, "targets": ["knight", "page"]},
                faces=[[3], [5]])
    assert [e.payload["dice"] for e in knight.events("tool_applied")] == [[3], [5]]
    assert (knight.cond("knight").hp, knight.cond("page").hp) == (11, 5)


def test_manual_dice_ask_for_the_faces(knight: Table) -> None:
    before = _seq(knight)
    with pytest.raises(Rejected) as err:
        knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d"}, "targets": ["page"]})
    assert err.value.code == "roll/faces_needed" and err.value.details["count"] == 2
    assert _seq(knight) == before


def test_undo_takes_the_applied_harm_back(knight: Table) -> None:
    before = knight.state.combatants
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d"}, "targets": ["page"]}, faces=[[4, 5]])
    knight.send("undo", {"to": "last_command"})
    assert knight.state.combatants == before


def test_replay_gives_the_same_state(knight: Table) -> None:
    knight.send("apply_tool", {"tool": "exposure", "inputs": {"damage": "2d"}, "targets": ["knight"]}, faces=[[6, 6]])
    assert knight.refold_matches()


@pytest.mark.parametrize(("args", "code", "field"), [
    ({"tool": "exposure", "inputs": {"ls": "0"}, "targets": ["page"]}, "tool/bad_input", "ls"),
    ({"tool": "climbing", "inputs": {"climb": "tree", "height": -5}, "targets": ["page"]}, "tool/bad_input",
     "height"),
    ({"tool": "jet", "inputs": {"damage": "1d"}, "targets": ["page"]}, "tool/missing_input", "jet_width"),
    ({"tool": "volcano", "inputs": {}, "targets": ["page"]}, "tool/unknown", "tool"),
    ({"tool": "jumping", "inputs": {"basic_move": 5}, "targets": ["page"]}, "tool/nothing_to_apply", "tool"),
])
def test_bad_applications_name_the_field_and_append_nothing(knight: Table, args: dict[str, object], code: str,
                                                            field: str) -> None:
    before = _seq(knight)
    with pytest.raises(Rejected) as err:
        knight.send("apply_tool", args, faces=[[3]])
    assert err.value.code == code and err.value.details["field"] == field
    assert _seq(knight) == before


def test_an_unknown_target_appends_nothing(knight: Table) -> None:
    before = _seq(knight)
    with pytest.raises(Rejected) as err:
        knight.send("apply_tool", {"tool": "exposure", "inputs": {}, "targets": ["page", "ghost"]}, faces=[[3]])
    assert err.value.code == "combatant/unknown"
    assert _seq(knight) == before


def test_only_the_gm_applies_a_tool(knight: Table) -> None:
    player = Principal("p1", combatants=("knight",))
    with pytest.raises(Rejected) as err:
        knight.send("apply_tool", {"tool": "exposure", "inputs": {}, "targets": ["knight"]}, faces=[[3]],
                    actor=player)
    assert err.value.code == "auth/gm_only"


@pytest.mark.parametrize("targets", [[], ["page", "page"]])
def test_targets_name_at_least_one_combatant_each_once(knight: Table, targets: list[str]) -> None:
    before = _seq(knight)
    with pytest.raises(Rejected) as err:
        knight.send("apply_tool", {"tool": "exposure", "inputs": {}, "targets": targets}, faces=[[3], [3]])
    assert err.value.code == "command/bad_field" and err.value.details["field"] == "targets"
    assert _seq(knight) == before


def test_e17_a_fall_applied_rolls_its_scaled_dice_less_absorption(knight: Table) -> None:
    """E-17: 10 yd onto concrete is 6d-5, rolled as 3d x 2 - 5 (V-40, R-03, R-01): 3 + 4 + 5 = 12 -> 19 points;
    the page (HP 10, DR 0) takes 19 injury: HP -9 (G-45: no threshold yet at -10)."""
    knight.send("apply_tool", {"tool": "falling", "inputs": {"height": 10, "mass": 150, "hp_max": 10,
                                                             "surface": "concrete"}, "targets": ["page"]},
                faces=[[3, 4, 5]])
    p = knight.last("tool_applied").payload
    assert (p["points"], p["injury"]) == (19, 19)
    assert knight.cond("page").hp == -9
    text = next(h.explanation for h in knight.engine.history(knight.fight_id) if h.event.type == "tool_applied")
    assert text.startswith("The GM applies Falling to Page: [3, 4, 5] x 2 - 5 = 19 cr (V-40, R-01)")


def test_fatigue_that_knocks_out_the_acting_combatant_moves_the_turn_on(knight: Table) -> None:
    """The knight (FP 11) acts; 22 FP lost from failed running rolls: FP 0 after 11, then 11 more each cost
    1 HP too (A-26) down to -11 = -FPmax: unconscious (G-51), so its turn is skipped (G-19)."""
    knight.send("start_combat", {"order": ["knight", "page"]})
    knight.send("apply_tool", {"tool": "running", "targets": ["knight"],
                               "inputs": {"move": 5, "fp": 11, "fp_max": 11, "paced_minutes": 30,
                                          "failed_rolls": 22}})
    cond = knight.cond("knight")
    assert (cond.fp, cond.hp, cond.unconscious) == (-11, 1, True)
    assert knight.state.combat.current == "page"
