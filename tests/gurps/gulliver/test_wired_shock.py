"""GULLIVER's damage-and-shock system wired through the gurps ruleset (issue #11, second step),
on the real engine (SQLite file and PostgreSQL): the system switch (V-08, Will - IQ on HT rolls
against shock effects), shock penalty bands (V-18, A-37, A-38; E-16), stun (V-19, R-08),
knockout (V-22) and brain hits (V-20). Each test plays the same blow on the same dice with the
option on and off; numbers worked by hand."""

from __future__ import annotations

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import blow, explained, fight

HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"},
    {"name": "maul", "skill": 14, "damage": "4d", "damage_type": "cr"}]}
#: E-16's human: 10 HP, HT 10, IQ 10.
HUMAN = {"st": 10, "ht": 10, "hp": 10}
SYSTEM = ("damage_shock",)


def _shock_prompts(table: Table, purpose: str) -> list[str]:
    return [p.id for p in table.state.prompts if p.options.get("purpose") == purpose]


def test_v18_e16_six_points_on_ten_hp_is_minus_6_uncapped(engine: Engine) -> None:
    """V-18 / E-16 / A-37: HP 10 -> divisor floor(15/10) = 1: 6 injury is -6, with no -4 cap on the
    total (G-47: -6 added, -4 in force)."""
    off = fight(engine, HERO, HUMAN, *SYSTEM)
    blow(off, "club", [6])
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_penalty_bands")
    blow(table, "club", [6])
    assert off.last("injury_applied").payload["shock_pending"] == 4
    on = table.last("injury_applied").payload
    assert (on["shock_added"], on["shock_pending"], on["shock_rule"]) == (6, 6, "V-18")
    assert "Shock -6 (total -6) to DX and IQ on Foe's next turn, scaled to HPmax (V-18 (in place of G-47)" in \
        explained(table, "injury_applied")


def test_v18_the_cap_reading_keeps_minus_4(engine: Engine) -> None:
    """V-18 / A-37 (cfg): with the -4 cap kept the same blow leaves -4 pending."""
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_penalty_bands", "shock_penalty_cap")
    blow(table, "club", [6])
    assert table.last("injury_applied").payload["shock_pending"] == 4


def test_v19_shock_over_half_hp_stuns_outright(engine: Engine) -> None:
    """V-19: 6 shock > 10/2: stunned (G-48's physical stun); without V-19 no stun from shock."""
    off = fight(engine, HERO, HUMAN, *SYSTEM)
    blow(off, "club", [6])
    assert not off.events("shock_effect") and not off.cond("foe").stunned
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_stun")
    blow(table, "club", [6])
    assert {k: v for k, v in table.last("shock_effect").payload.items()} == {
        "combatant": "foe", "effect": "stunned", "points": "6", "rule": "V-19"}
    assert table.cond("foe").stunned
    assert explained(table, "shock_effect") == "Foe is stunned by 6 shock (V-19 (in place of G-46))."


def test_v19_the_ht_roll_reading(engine: Engine) -> None:
    """V-19 (cfg ht_roll): 5 shock > 10/3, not > 2 x 10/3: a HT roll; 12 vs 10 fails: stunned."""
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_stun", stun_rule="ht_roll")
    blow(table, "club", [5])
    assert not table.events("shock_effect")
    table.roll([4, 4, 4], "shock_stun")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"]) == ("stunned", "V-19")
    assert table.cond("foe").stunned


def test_r08_with_knockdown_and_stun_a_failed_major_wound_roll_only_knocks_down(engine: Engine) -> None:
    """R-08: V-10 and V-19 on: 6 > 10/2 on the torso calls for V-10's roll; 17 fails by 7 (G-46 alone:
    unconscious) but only knocks down; the stun comes from shock (V-19)."""
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_stun", "knockdown")
    blow(table, "club", [6])
    table.roll([6, 6, 5], "major_wound")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"]) == ("knockdown", "V-10")
    cond = table.cond("foe")
    assert (cond.posture, cond.stunned, cond.unconscious) == ("prone", True, False)


def test_v22_shock_over_hpmax_calls_for_a_knockout_roll_with_v08_will(engine: Engine) -> None:
    """V-22 / V-08: the maul's 4d rolls 11 > 10: a HT roll against knockout; Will 13 against IQ 10 adds
    +3 (V-08): 3d 12 vs 13 succeeds. Without V-22 no such roll."""
    stubborn = {**HUMAN, "will": 13}
    off = fight(engine, HERO, stubborn, *SYSTEM)
    blow(off, "maul", [4, 4, 2, 1])
    assert _shock_prompts(off, "shock_knockout") == []
    table = fight(engine, HERO, stubborn, *SYSTEM, "shock_knockout")
    blow(table, "maul", [4, 4, 2, 1])
    table.roll([4, 4, 4], "shock_knockout")
    check = table.last("check_rolled").payload
    assert [(m["value"], m["rule"]) for m in check["record"]["modifiers"]] == [(3, "V-08")]
    assert (check["record"]["target"], check["effect"]) == (13, "none")


def test_v22_shock_over_twice_hpmax_knocks_out_outright(engine: Engine) -> None:
    """V-22: 6 + 6 + 6 + 3 = 21 > 2 x 10: knocked out, no roll."""
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_knockout")
    blow(table, "maul", [6, 6, 6, 3])
    assert table.last("shock_effect").payload["effect"] == "unconscious"
    assert table.cond("foe").unconscious
    assert table.refold_matches()


def test_v20_a_brain_hit_doubles_its_shock(engine: Engine) -> None:
    """V-20: the club aimed at the skull of a 30-HP foe (-7: 14 -> 7, 3d 6 hits) rolls 4: DR 2 -> 2,
    x4 = 8 injury, 8 shock: not over 15; doubled by V-20 to 16 > 15: stunned (V-19)."""
    big = {"st": 10, "ht": 10, "hp": 30}
    results = {}
    for switches in ((), ("brain_shock",)):
        table = fight(engine, HERO, big, *SYSTEM, "hit_locations", "shock_stun", *switches)
        table.maneuver("hero", "attack", [[1, 2, 3]], target="foe", weapon="club", location="skull")
        table.defend("none")
        table.roll([4], "damage")
        results[switches] = (table.last("damage_rolled").payload["injury"], table.cond("foe").stunned)
    assert results == {(): (8, False), ("brain_shock",): (8, True)}


def test_e15_the_dragon_takes_85_in_one_blow(engine: Engine) -> None:
    """E-15 through the engine: an HP 120 dragon takes 85 (a 20d maul: thirteen 6s and seven 1s).
    V-18: divisor floor(125/10) = 12, 85 -> -7, uncapped (A-37). V-09 / A-31: HP 35 < 120/3 = 40: slowed.
    V-10: 85 > 60, a knockdown roll. V-19: 85 > 60 shock: stunned. V-22: 85 is not over 120: no
    knockout roll."""
    giant = {"st": 12, "dx": 12, "ht": 11, "weapons": [
        {"name": "great maul", "skill": 14, "damage": "20d", "damage_type": "cr"}]}
    dragon = {"st": 40, "ht": 12, "hp": 120}
    table = fight(engine, giant, dragon, *SYSTEM, "shock_penalty_bands", "shock_stun", "shock_knockout",
                  "injury_slowdown", "knockdown")
    blow(table, "great maul", [6] * 13 + [1] * 7)
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["hp_after"]) == (85, 35)
    assert (injury["shock_added"], injury["shock_pending"], injury["slowdown_rule"]) == (7, 7, "V-09")
    assert table.cond("foe").stunned
    purposes = {p.options.get("purpose"): p.options.get("rule") for p in table.state.prompts if p.kind == "roll"}
    assert purposes == {"major_wound": "V-10"}
