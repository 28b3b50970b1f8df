"""GULLIVER's monster options wired through the gurps ruleset (issue #11), on the real engine
(SQLite file and PostgreSQL): monsters resist knockout (V-60), die sooner below 0 HP (V-61, A-52),
and the combined approach, which also covers a PC race with the low-IQ trait (V-62). A creature is a
monster by its sheet's GULLIVER block (``non_pc_race``, ``racial_iq``, ``low_iq_trait``, A-27). Each
test plays the same dice with the option on and off; numbers worked by hand."""

from __future__ import annotations

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import blow, explained, fight

#: A maul of fixed 10d crushing (x1), and a dagger of 1d-5 (a 6 does 1).
HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "maul", "skill": 14, "damage": "10d", "damage_type": "cr"},
    {"name": "dagger", "skill": 14, "damage": "1d-5", "damage_type": "cr"},
]}
#: A great maul of fixed 14d crushing.
GIANT_HERO = {**HERO, "weapons": [{"name": "great maul", "skill": 14, "damage": "14d", "damage_type": "cr"}]}
#: An ogre: 20 HP, HT 12, a monster race of IQ 6.
OGRE = {"st": 20, "ht": 12, "hp": 20, "iq": 6, "gulliver": {"non_pc_race": True}}
#: A PC of a low-IQ race taking the combined monster trait (V-62).
BRUTE = {"st": 20, "ht": 12, "hp": 20, "iq": 6, "gulliver": {"low_iq_trait": True}}
#: 6 x 4 + 2 x 4 + 1 x 2 = 34.
THIRTY_FOUR = [6, 6, 6, 6, 2, 2, 2, 2, 1, 1]
#: 6 + 6 + 3 + 1 x 7 = 22.
TWENTY_TWO = [6, 6, 3, 1, 1, 1, 1, 1, 1, 1]


def _at_minus_two(engine: Engine, *switches: str) -> Table:
    """The maul's 22 takes the ogre's 20 HP to -2; its major-wound roll (HT 12) rolls 9 and passes, and
    the ogre's turn opens its roll to stay conscious (G-44)."""
    table = fight(engine, HERO, OGRE, *switches)
    blow(table, "maul", TWENTY_TWO)
    assert table.cond("foe").hp == -2
    table.roll([3, 3, 3], "major_wound")
    assert table.prompt("roll").options["purpose"] == "consciousness"
    return table


def test_v60_a_monster_rolls_to_stay_conscious_at_plus_one_per_iq_below_10(engine: Engine) -> None:
    """V-60: racial IQ 6 -> +4. HT 12 rolls 15: off a failure (unconscious); on 15 <= 16, it stays up."""
    off = _at_minus_two(engine)
    off.roll([5, 5, 5], "consciousness")
    assert off.last("check_rolled").payload["effect"] == "unconscious"
    table = _at_minus_two(engine, "monster_ko_bonus")
    table.roll([5, 5, 5], "consciousness")
    check = table.last("check_rolled").payload
    assert [(m["value"], m["rule"]) for m in check["record"]["modifiers"]] == [(4, "V-60")]
    assert (check["effect"], check["stays_up"], check["record"]["target"]) == ("none", "V-60", 16)
    assert not table.cond("foe").unconscious and table.cond("foe").stays_up
    assert "stays conscious without rolling each turn until fresh injury of HPmax/10 or more (V-60 (in place " \
           "of G-44))." in explained(table, "check_rolled")


def test_v60_a_pc_race_gets_no_bonus(engine: Engine) -> None:
    """V-60 is for non-PC races: the same IQ 6 without the monster-race mark rolls at plain HT 12."""
    table = fight(engine, HERO, {**OGRE, "gulliver": {}}, "monster_ko_bonus")
    blow(table, "maul", TWENTY_TWO)
    table.roll([3, 3, 3], "major_wound")
    table.roll([5, 5, 5], "consciousness")
    check = table.last("check_rolled").payload
    assert (check["record"]["modifiers"], check["effect"], "stays_up" in check) == ([], "unconscious", False)


def _next_ogre_turn(table: Table, faces: list[int]) -> None:
    """The ogre does nothing; the hero's dagger hits it for ``faces``; the ogre's next turn starts."""
    table.maneuver("foe", "do_nothing")
    blow(table, "dagger", faces)


def test_v60_once_up_the_monster_rolls_again_only_after_a_tenth_of_its_hp(engine: Engine) -> None:
    """V-60: after its success the ogre is not asked to roll each turn; a dagger's 1 HP (under 20/10 = 2)
    asks nothing; a second 1 brings the fresh injury to 2 = HPmax/10: the roll is due again. Off, the
    roll comes every turn at 0 HP or below (G-44)."""
    table = _at_minus_two(engine, "monster_ko_bonus")
    table.roll([3, 3, 3], "consciousness")
    _next_ogre_turn(table, [6])
    fresh = table.last("injury_applied").payload["fresh_injury"]
    assert fresh == {"total": 1, "roll_again": False, "rule": "V-60"}
    assert not [p for p in table.state.prompts if p.options.get("purpose") == "consciousness"]
    assert "1 fresh injury since the monster stayed up: under HPmax/10" in explained(table, "injury_applied")
    _next_ogre_turn(table, [6])
    assert table.last("injury_applied").payload["fresh_injury"] == {"total": 2, "roll_again": True, "rule": "V-60"}
    assert table.prompt("roll").options["purpose"] == "consciousness"
    assert not table.cond("foe").stays_up and table.cond("foe").fresh_injury == 0
    off = _at_minus_two(engine)
    off.roll([3, 3, 3], "consciousness")
    _next_ogre_turn(off, [6])
    assert off.prompt("roll").options["purpose"] == "consciousness"
    assert "fresh_injury" not in off.last("injury_applied").payload


def test_v61_a_monsters_death_checks_come_at_iq_tenths(engine: Engine) -> None:
    """V-61 / A-52: the maul's 34 takes the ogre to -14. Off: G-45's first check is at -20 (none). On:
    racial IQ 6 -> x6/10: the first check at -12, crossed; the prompt and the log name V-61."""
    off = fight(engine, HERO, OGRE)
    blow(off, "maul", THIRTY_FOUR)
    assert off.last("injury_applied").payload["death_thresholds"] == []
    table = fight(engine, HERO, OGRE, "monster_ko_zone")
    blow(table, "maul", THIRTY_FOUR)
    injury = table.last("injury_applied").payload
    assert (injury["hp_after"], injury["death_thresholds"], injury["death_zone"]) == (
        -14, [1], {"factor": "3/5", "rule": "V-61"})
    check = next(p for p in table.state.prompts if p.options.get("purpose") == "death_check")
    assert "reached -3/5 x HP: HT roll or die (G-45; x IQ/10 = 3/5, V-61, A-52)" in check.text
    assert "Crossed -3/5xHP: HT roll each or die (G-45, A-23; a monster's zone x IQ/10 = 3/5 (V-61 (in place " \
           "of G-45), A-52))." in explained(table, "injury_applied")


def test_v61_a_monster_dies_at_five_times_its_reduced_zone(engine: Engine) -> None:
    """V-61 / A-52: the great maul's 80 takes the ogre from 20 to -60. Off: checks at -20, -40, -60
    (G-45), alive (death at -100). On: automatic death at -5 x 20 x 6/10 = -60."""
    eighty = [6] * 13 + [2]
    off = fight(engine, GIANT_HERO, OGRE)
    blow(off, "great maul", eighty)
    assert (off.last("injury_applied").payload["death_thresholds"], off.last("injury_applied").payload["dead"]) == (
        [1, 2, 3], False)
    table = fight(engine, GIANT_HERO, OGRE, "monster_ko_zone")
    blow(table, "great maul", eighty)
    injury = table.last("injury_applied").payload
    assert (injury["hp_after"], injury["dead"]) == (-60, True) and table.cond("foe").dead
    assert "At -3xHP: dead (G-45; a monster's zone x IQ/10 = 3/5 (V-61 (in place of G-45), A-52))." in \
        explained(table, "injury_applied")


def test_v62_combines_both_for_a_pc_race_with_the_low_iq_trait(engine: Engine) -> None:
    """V-62: the low-IQ trait (no monster race) counts for the combined approach only: V-60 and V-61
    alone give the brute nothing; V-62 crosses -12 on the maul's 34 (-14) and rolls HT 12 + 4 to stay up."""
    both = fight(engine, HERO, BRUTE, "monster_ko_bonus", "monster_ko_zone")
    blow(both, "maul", THIRTY_FOUR)
    assert both.last("injury_applied").payload["death_thresholds"] == []
    table = fight(engine, HERO, BRUTE, "monster_combined")
    blow(table, "maul", THIRTY_FOUR)
    injury = table.last("injury_applied").payload
    assert (injury["death_thresholds"], injury["death_zone"]) == ([1], {"factor": "3/5", "rule": "V-62"})
    table.roll([3, 3, 3], "death_check")
    table.roll([3, 3, 3], "major_wound")
    table.roll([5, 5, 5], "consciousness")
    check = table.last("check_rolled").payload
    assert [(m["value"], m["rule"]) for m in check["record"]["modifiers"]] == [(4, "V-62")]
    assert (check["effect"], check["stays_up"]) == ("none", "V-62")
