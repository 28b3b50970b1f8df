"""GULLIVER's heart attacks (V-44, A-46) wired through the gurps ruleset (issue #11, second step),
on the real engine (SQLite file and PostgreSQL), with hit locations: a heart (vitals) wound of
HPmax or more calls for a HT roll; failing it brings a minor (2d), major (6d) or fatal heart
attack. Numbers worked by hand in the docstrings."""

from __future__ import annotations

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import explained, fight

#: ST 12: the spear (thr+2) rolls 1d+1 impaling, x3 in the vitals.
HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "spear", "skill": 14, "damage": "thr+2",
                                                   "damage_type": "imp"}]}
#: 10 HP, HT 10.
HUMAN = {"st": 10, "ht": 10, "hp": 10}


def _to_the_heart(table: Table, face: int) -> None:
    """Aimed at the vitals (-3: 14 -> 11; 3d 11 hits), no defence, the damage die shows ``face``."""
    table.maneuver("hero", "attack", [[3, 4, 4]], target="foe", weapon="spear", location="vitals")
    table.defend("none")
    table.roll([face], "damage")


def _heart_prompts(table: Table) -> list[dict[str, object]]:
    return [dict(p.options) for p in table.state.prompts if p.options.get("purpose") == "heart_attack"]


def test_v44_a_heart_wound_of_hpmax_calls_for_a_ht_roll(engine: Engine) -> None:
    """V-44: 4 + 1 = 5, x3 in the vitals = 15 >= 10: a HT roll at no modifier (15 < 2 x 10).
    Without the option, none."""
    off = fight(engine, HERO, HUMAN, "hit_locations")
    _to_the_heart(off, 4)
    assert off.last("damage_rolled").payload["injury"] == 15 and _heart_prompts(off) == []
    table = fight(engine, HERO, HUMAN, "hit_locations", "heart_attack")
    _to_the_heart(table, 4)
    assert [(p["modifier"], p["rule"]) for p in _heart_prompts(table)] == [(0, "V-44")]


def test_v44_a_failed_roll_is_a_minor_heart_attack_doing_2d(engine: Engine) -> None:
    """V-44: HT 10 rolls 12, failing by 2: a minor heart attack, 2d: 3 + 4 = 7 more HP (15 + 7 = 22:
    10 -> -5 -> -12)."""
    table = fight(engine, HERO, HUMAN, "hit_locations", "heart_attack")
    _to_the_heart(table, 4)
    table.roll([4, 4, 4], "heart_attack")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["heart_attack"], check["record"]["rule"]) == ("none", "minor", "V-44")
    assert "Foe has a minor heart attack (V-44)." in explained(table, "check_rolled")
    table.roll([3, 4], "heart_attack_damage")
    rolled = {k: v for k, v in table.last("heart_attack_rolled").payload.items() if k != "answers"}
    assert rolled == {"combatant": "foe", "kind": "minor", "dice": [3, 4], "injury": 7, "rule": "V-44"}
    assert table.last("injury_applied").payload["hp_after"] == -12
    assert explained(table, "heart_attack_rolled") == "Foe's minor heart attack does 2d [3, 4] = 7 HP (V-44)."


def test_v44_twice_hpmax_is_at_minus_4_and_failing_by_8_is_fatal(engine: Engine) -> None:
    """V-44: 6 + 1 = 7, x3 = 21 >= 2 x 10: HT at -4 (10 -> 6); 3d 14 fails by 8: a fatal heart attack."""
    table = fight(engine, HERO, HUMAN, "hit_locations", "heart_attack")
    _to_the_heart(table, 6)
    assert [p["modifier"] for p in _heart_prompts(table)] == [-4]
    table.roll([5, 5, 4], "heart_attack")
    check = table.last("check_rolled").payload
    assert (check["record"]["target"], check["effect"], check["heart_attack"]) == (6, "dead", "fatal")
    assert table.cond("foe").dead
    assert table.refold_matches()
