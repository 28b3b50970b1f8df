"""Sense rolls (G-15), Will rolls (G-17) and continuous pain (V-23), worked by hand from the seeds."""

from __future__ import annotations

from .helpers import run


def test_g15_a_sense_roll_is_made_against_per() -> None:
    calc = run("sense_roll", sense="hearing", per=12, modifier=-2)
    assert calc.result == {"target": 10}
    assert calc.steps[0].rule == "G-15"


def test_g15_observation_may_replace_per() -> None:
    assert run("sense_roll", sense="vision", per=10, skill=14).result == {"target": 14}


def test_g15_hearing_a_sneak_is_a_quick_contest_against_stealth() -> None:
    calc = run("sense_roll", sense="hearing", per=11, against=13)
    assert calc.result == {"target": 11, "contest_against": 13}
    assert "Quick Contest" in calc.summary


def test_g15_danger_sense_is_a_secret_per_roll_after_a_failure() -> None:
    calc = run("sense_roll", sense="vision", per=12, modifier=-4, danger_sense=True)
    assert calc.result == {"target": 8, "danger_sense": 12}


def test_g17_a_will_roll_for_stress() -> None:
    assert run("will_roll", will=11, modifier=-3).result == {"target": 8}


def test_v23_pain_above_hp_max_takes_an_incredible_will() -> None:
    """12 points of constant pain against HPmax 10; the Fright Check (G-18) is Will 11 - 2 = 9."""
    calc = run("continuous_pain", pain=12, hp_max=10, will=11, modifier=-2)
    assert calc.result == {"beyond_hp": True, "fright_target": 9}
    assert "incredible Will" in calc.summary


def test_v23_pain_at_hp_max_is_not_beyond_it() -> None:
    assert run("continuous_pain", pain=10, hp_max=10, will=11).result["beyond_hp"] is False


def test_v46_the_light_counts_on_a_vision_roll() -> None:
    """V-46 / A-47: Per 12 in dark light (-4): Vision 8; the step cites V-46."""
    calc = run("sense_roll", sense="vision", per=12, light=-4)
    assert calc.result == {"target": 8}
    assert calc.steps[-1].rule == "V-46, A-47"


def test_v46_the_light_does_not_count_on_hearing() -> None:
    """V-46's penalties are for sight: Hearing at Per 12 stays 12 in the dark."""
    assert run("sense_roll", sense="hearing", per=12, light=-4).result == {"target": 12}
