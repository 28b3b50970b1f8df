"""GULLIVER's limb stun (V-21, A-39, R-11) wired through the gurps ruleset (issue #11, third
step), on the real engine (SQLite file and PostgreSQL): shock to an arm over HPmax/2 stuns it
and drops the weapons it holds (they need a Ready, G-33); just over the mark a grip roll decides
(A-39); the limb recovers with its own HT roll at the end of each turn (V-24). Each test plays
the same blow on the same dice with the option on and off; numbers worked by hand."""

from __future__ import annotations

from typing import Any, Sequence

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, explained, fight

#: A maul of fixed 4d crushing (x1 on every limb), so the dice give the shock directly.
HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "maul", "skill": 16, "damage": "4d", "damage_type": "cr"}]}
#: 20 HP: an arm or leg is stunned over 10 shock; a grip roll within max(1, 20/10) = 2 of it (A-39).
FOE: dict[str, Any] = {"st": 10, "ht": 10, "hp": 20, "weapons": [
    {"name": "sword", "skill": 12, "damage": "sw", "damage_type": "cut"},
    {"name": "dagger", "skill": 12, "damage": "thr", "damage_type": "imp", "off_hand": True},
    {"name": "punch", "skill": 12, "damage": "thr-1", "damage_type": "cr", "unarmed": True}]}
ON = ("damage_shock", "hit_locations", "limb_stun")
TWELVE = [3, 3, 3, 3]
ELEVEN = [3, 3, 3, 2]


def _blow_to(table: Table, location: str, faces: Sequence[int]) -> None:
    """The hero aims the maul at ``location`` (skill 16 - 2 or 3 > 11: a hit), no defence."""
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="maul", location=location)
    table.defend("none")
    table.roll(faces, "damage")


def test_v21_off_shock_to_the_arm_drops_nothing(engine: Engine) -> None:
    """Without V-21 12 shock to the right arm stuns no limb; the sword stays in hand."""
    table = fight(engine, HERO, FOE, "damage_shock", "hit_locations")
    _blow_to(table, "right arm", TWELVE)
    assert not table.events("limb_stunned")
    assert (table.cond("foe").stunned_limbs, table.cond("foe").unready) == ((), ())


def test_v21_twelve_shock_to_the_right_arm_drops_the_sword(engine: Engine) -> None:
    """V-21 / A-39: 12 > 20/2 by 2, not less than max(1, 2): stunned, the sword (not off-hand) drops;
    a punch is no held weapon."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right arm", TWELVE)
    assert table.last("limb_stunned").payload == {"combatant": "foe", "location": "right arm", "rule": "V-21",
                                                  "dropped": ["sword"]}
    cond = table.cond("foe")
    assert (cond.stunned_limbs, cond.unready, cond.stunned) == (("right arm",), ("sword",), False)
    assert explained(table, "limb_stunned") == \
        "Foe's right arm is stunned by shock (V-21): Foe drops sword (a Ready picks it up again, G-33)."


def test_v21_the_left_arm_drops_the_off_hand_weapon(engine: Engine) -> None:
    """V-21: the left arm holds the off-hand dagger only."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "left arm", TWELVE)
    assert table.last("limb_stunned").payload["dropped"] == ["dagger"]
    assert table.cond("foe").unready == ("dagger",)


def test_v21_a_stunned_leg_drops_nothing(engine: Engine) -> None:
    """V-21: a leg over HPmax/2 is stunned; it holds nothing."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right leg", TWELVE)
    assert "dropped" not in table.last("limb_stunned").payload
    assert (table.cond("foe").stunned_limbs, table.cond("foe").unready) == (("right leg",), ())


def test_a39_just_over_the_mark_a_failed_grip_roll_drops_the_sword(engine: Engine) -> None:
    """A-39: 11 is over 10 by 1 < 2: a grip roll; 16 fails HT 10: the sword drops."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right arm", ELEVEN)
    assert table.last("limb_stunned").payload["grip_roll"] is True
    assert table.cond("foe").unready == ()
    table.roll([6, 5, 5], "grip")
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"]) == ("dropped", "R-11")
    assert table.cond("foe").unready == ("sword",)


def test_r11_a_kept_grip_leaves_the_limb_stunned(engine: Engine) -> None:
    """R-11: 9 succeeds: the sword stays in hand, the arm is stunned all the same."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right arm", ELEVEN)
    table.roll([3, 3, 3], "grip")
    assert (table.cond("foe").unready, table.cond("foe").stunned_limbs) == ((), ("right arm",))


def test_v24_the_stunned_limb_recovers_with_a_ht_roll_at_the_end_of_the_turn(engine: Engine) -> None:
    """V-21 / V-24: at the end of the foe's turn a HT roll: 14 fails (still stunned), next turn 9
    succeeds (recovered); the dropped sword stays dropped."""
    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right leg", TWELVE)
    table.maneuver("foe", "do_nothing")
    assert "Stunned limb: recovery roll (V-21, V-24)." in explained(table, "turn_ending")
    table.roll([4, 5, 5], "limb_recovery")
    assert table.cond("foe").stunned_limbs == ("right leg",)
    table.maneuver("hero", "do_nothing")
    table.maneuver("foe", "do_nothing")
    table.roll([3, 3, 3], "limb_recovery")
    assert table.last("check_rolled").payload["effect"] == "limb_recovers"
    assert table.cond("foe").stunned_limbs == ()


def test_v21_a_stunned_limb_is_a_badge_on_the_card(engine: Engine) -> None:
    """V-21: the card shows everyone the stunned arm until it recovers."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    table = fight(engine, HERO, FOE, *ON)
    _blow_to(table, "right arm", TWELVE)
    assert [(b.label, b.rule) for b in GurpsRuleset().describe(table.state, GM_ACTOR).badges
            if b.combatant == "foe" and b.rule == "V-21"] == [("right arm stunned", "V-21")]
