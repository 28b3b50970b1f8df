"""GULLIVER's heavy-blow options wired through the gurps ruleset (issue #11, second step), on
the real engine (SQLite file and PostgreSQL): crippled limbs (V-11, A-33) and knockdown (V-10,
A-32), both with hit locations on. Each test plays the same blow on the same dice with the
option on and off; numbers worked by hand in the docstrings."""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine

from tests.gurps.gulliver.wired import TO_HIT, explained, fight
from tests.gurps.conftest import Table

#: ST 12: the axe (sw) rolls 1d+2 cutting.
FIGHTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"}]}
#: A 10-HP human with HT 10: an arm cripples over 10/2 = 5; a blow over 5 is heavy.
HUMAN = {"st": 10, "ht": 10, "hp": 10}
ARM, TORSO = [2, 3, 3], [3, 3, 4]  # 3d on the humanoid table: 8 the right arm, 10 the torso


def _axe(table: Table, location_roll: list[int], face: int) -> None:
    table.maneuver("hero", "attack", [TO_HIT, location_roll], target="foe", weapon="axe")
    table.defend("none")
    table.roll([face], "damage")


def test_v11_a_blow_over_half_hp_cripples_the_arm_and_the_excess_is_lost(engine: Engine) -> None:
    """V-11 / A-33: the axe rolls 3 + 2 = 5, x1.5 cut = 7 on the arm, over 10 x 1/2 = 5: crippled;
    only floor(5) + 1 = 6 HP are taken. Its shock is doubled from the 6 taken: 12 (G-47 counts
    7 without V-11)."""
    off = fight(engine, FIGHTER, HUMAN, "hit_locations")
    _axe(off, ARM, 3)
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs")
    _axe(table, ARM, 3)
    assert not off.events("limb_crippled")
    assert (off.last("injury_applied").payload["injury"], off.last("injury_applied").payload["shock_added"]) == (7, 7)
    assert table.last("limb_crippled").payload == {"combatant": "foe", "location": "right arm", "blow": 7, "taken": 6,
                                                   "rule": "V-11", "threshold": "HPmax x 1/2 = 5"}
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["hp_after"], injury["shock_added"]) == (6, 4, 12)
    assert table.cond("foe").crippled == ("right arm",)
    assert explained(table, "limb_crippled") == ("Foe's right arm is crippled (V-11): the blow of 7 is over "
                                                 "HPmax x 1/2 = 5; 6 HP are taken, the rest is lost.")


def test_v11_a_blow_at_the_threshold_does_not_cripple(engine: Engine) -> None:
    """V-11: "over" HP/2: the axe rolls 1 + 2 = 3, x1.5 = 4 on the arm, not over 5: nothing crippled, all 4 taken."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs")
    _axe(table, ARM, 1)
    assert not table.events("limb_crippled") and table.last("injury_applied").payload["injury"] == 4
    assert table.cond("foe").crippled == ()


def test_v11_the_torso_is_not_crippled(engine: Engine) -> None:
    """V-11 is for limbs: 7 to the torso is taken whole (and is a major wound, G-46)."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs")
    _axe(table, TORSO, 3)
    assert not table.events("limb_crippled") and table.last("injury_applied").payload["injury"] == 7


def test_v10_a_heavy_blow_to_the_arm_calls_for_a_knockdown_roll(engine: Engine) -> None:
    """V-10 / A-32: the axe rolls 6 + 2 = 8, x1.5 = 12 on the arm, over 10/2: a HT roll anywhere on
    the body (without V-10 none off the torso, A-24). HT 10 rolls 12, failing by 2: knocked down
    (prone), not stunned."""
    off = fight(engine, FIGHTER, HUMAN, "hit_locations")
    _axe(off, ARM, 6)
    assert not [p for p in off.state.prompts if p.kind == "roll" and p.options.get("purpose") == "major_wound"]
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "knockdown")
    _axe(table, ARM, 6)
    prompt = table.prompt("roll")
    assert (prompt.options["purpose"], prompt.options["rule"], prompt.options["location"]) == \
        ("major_wound", "V-10", "right arm")
    assert "V-10 (in place of G-46)" in prompt.text
    table.roll([4, 4, 4], "major_wound")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"]) == ("knockdown", "V-10")
    assert (table.cond("foe").posture, table.cond("foe").stunned) == ("prone", False)
    assert "is knocked down (V-10 (in place of G-46))" in explained(table, "check_rolled")


@pytest.mark.parametrize("faces,effect", [([4, 4, 4], "stunned_knockdown"), ([6, 5, 5], "unconscious")])
def test_v10_on_the_torso_keeps_g46_effects(engine: Engine, faces: list[int], effect: str) -> None:
    """V-10 on the torso (V-19 off, so R-08 does not apply): G-46's effects stand: HT 10 failing
    by 2 stuns and knocks down, by 6 knocks out."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "knockdown")
    _axe(table, TORSO, 6)
    table.roll(faces, "major_wound")
    assert table.last("check_rolled").payload["effect"] == effect


def test_v10_v11_fight_refolds_to_the_same_state(engine: Engine) -> None:
    """Every effect is an event: the fight refolds byte for byte."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "knockdown", "crippled_limbs")
    _axe(table, ARM, 6)
    table.roll([4, 4, 4], "major_wound")
    assert table.refold_matches()


# ---------------------------------------------------------------------------------------------- amputation


def test_v12_a_cutting_blow_over_twice_the_crippling_amount_calls_for_a_roll(engine: Engine) -> None:
    """V-12 / A-34 / E-16 (cutting 12 to a 10-HP human's arm): over 2 x 5 = 10, not over 4 x 5: a HT
    roll (the axe rolls 6 + 2 = 8, x1.5 = 12); HT 10 rolls 12, fails: the arm is severed. V-11 alone:
    crippled, no roll."""
    off = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs")
    _axe(off, ARM, 6)
    assert not [p for p in off.state.prompts if p.options.get("purpose") == "amputation"]
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "amputation")
    _axe(table, ARM, 6)
    prompt = table.prompt("roll")
    assert (prompt.options["purpose"], prompt.options["location"], prompt.options["rule"]) == \
        ("amputation", "right arm", "V-12")
    table.roll([4, 4, 4], "amputation")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"]) == ("severed", "V-12")
    assert (table.cond("foe").severed, table.cond("foe").crippled) == (("right arm",), ("right arm",))
    assert "loses the limb: it is severed (V-12)" in explained(table, "check_rolled")


def test_v12_a_passed_amputation_roll_keeps_the_limb(engine: Engine) -> None:
    """V-12: the same blow, HT 10 rolls 9: the arm stays on (crippled, V-11)."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "amputation")
    _axe(table, ARM, 6)
    table.roll([3, 3, 3], "amputation")
    assert (table.cond("foe").severed, table.cond("foe").crippled) == ((), ("right arm",))


def test_v12_over_four_times_the_crippling_amount_severs_outright(engine: Engine) -> None:
    """V-12: a 6d cutting blade rolls 21, x1.5 = 31 on the arm: over 4 x 5 = 20: severed, no roll;
    6 HP taken (A-33)."""
    blade = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "blade", "skill": 14, "damage": "6d",
                                                        "damage_type": "cut"}]}
    table = fight(engine, blade, HUMAN, "hit_locations", "crippled_limbs", "amputation")
    table.maneuver("hero", "attack", [TO_HIT, ARM], target="foe", weapon="blade")
    table.defend("none")
    table.roll([6, 6, 6, 1, 1, 1], "damage")
    assert table.last("limb_severed").payload == {"combatant": "foe", "location": "right arm", "rule": "V-12"}
    assert table.last("injury_applied").payload["injury"] == 6
    assert table.cond("foe").severed == ("right arm",)
    assert explained(table, "limb_severed") == "Foe's right arm is severed (V-12)."
    assert table.refold_matches()


# ---------------------------------------------------------------------------------------------- the neck


def _to_the_neck(table: Table, faces: list[int]) -> None:
    """A 6d cutting or crushing weapon aimed at the neck (-5: 14 -> 9; 3d 9 hits), no defence."""
    table.maneuver("hero", "attack", [[3, 3, 3]], target="foe", weapon="blade", location="neck")
    table.defend("none")
    table.roll(faces, "damage")


NECK_FIGHTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "blade", "skill": 14, "damage": "2d", "damage_type": "cut"}]}


def test_v13_the_neck_cripples_only_with_the_option(engine: Engine) -> None:
    """V-13 / A-35: 2d cutting rolls 2 + 2 = 4, x2 cut at the neck = 8 > 10/2: the neck is crippled
    (6 taken); with V-11 alone the neck is not a limb and all 8 are taken."""
    off = fight(engine, NECK_FIGHTER, HUMAN, "hit_locations", "crippled_limbs")
    _to_the_neck(off, [2, 2])
    assert not off.events("limb_crippled") and off.last("injury_applied").payload["injury"] == 8
    table = fight(engine, NECK_FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "neck_injury")
    _to_the_neck(table, [2, 2])
    crippled = table.last("limb_crippled").payload
    assert (crippled["location"], crippled["rule"], crippled["taken"]) == ("neck", "V-13", 6)


def test_v13_a_cutting_blow_over_twice_the_mark_beheads_on_a_failed_roll(engine: Engine) -> None:
    """V-13: 2d cutting rolls 3 + 3 = 6, x2 = 12 > 2 x 5 (not > 4 x 5): HT roll; 12 vs 10 fails: dead."""
    table = fight(engine, NECK_FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "neck_injury")
    _to_the_neck(table, [3, 3])
    prompt = table.prompt("roll")
    assert (prompt.options["purpose"], prompt.options["rule"], prompt.options["fatal"]) == ("amputation", "V-13", True)
    table.roll([4, 4, 4], "amputation")
    assert table.last("check_rolled").payload["effect"] == "neck_severed"
    assert table.cond("foe").dead
    assert "dies: the neck is severed or broken (V-13)" in explained(table, "check_rolled")


def test_v13_over_four_times_the_mark_is_outright_death(engine: Engine) -> None:
    """V-13: 2d cutting rolls 6 + 6 = 12, x2 = 24 > 4 x 5: beheaded, no roll."""
    table = fight(engine, NECK_FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "neck_injury")
    _to_the_neck(table, [6, 6])
    assert {k: v for k, v in table.last("limb_severed").payload.items()} == {
        "combatant": "foe", "location": "neck", "rule": "V-13", "fatal": True}
    assert table.cond("foe").dead
    assert explained(table, "limb_severed") == "Foe's neck is severed or broken: Foe dies (V-13)."
    assert table.refold_matches()


def test_v11_v12_crippled_and_severed_limbs_are_badges_on_the_card(engine: Engine) -> None:
    """V-11 / V-12: what the card shows everyone: a crippled arm, then once severed only "severed"."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    def badges(table: Table) -> list[tuple[str, str]]:
        return [(b.label, b.rule) for b in GurpsRuleset().describe(table.state, GM_ACTOR).badges
                if b.combatant == "foe" and b.rule in ("V-11", "V-12")]

    table = fight(engine, FIGHTER, HUMAN, "hit_locations", "crippled_limbs", "amputation")
    _axe(table, ARM, 6)
    assert badges(table) == [("right arm crippled", "V-11")]
    table.roll([4, 4, 4], "amputation")
    assert badges(table) == [("right arm severed", "V-12")]
