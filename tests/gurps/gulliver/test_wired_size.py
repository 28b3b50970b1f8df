"""GULLIVER's size and scale block (A-27, catalogue 2.0) read by the wired options (issue #11), on
the real engine (SQLite file and PostgreSQL): each combatant's ``gulliver`` sheet block where the
wired calls used a human's numbers (body table, base HP for blowthrough, Linear Scale), and the
options it unlocks: Combat and Load ST (V-01), fractional damage for weak creatures (V-03) and split
HP (V-04). Each test plays the same dice with the option on and off; numbers worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.state import exact_hp

from tests.gurps.gulliver.wired import TO_HIT, blow, explained, fight

#: A lance of fixed 6d impaling (x2 in the torso), and a mace of fixed 2d crushing.
LANCER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "lance", "skill": 14, "damage": "6d", "damage_type": "imp"},
    {"name": "mace", "skill": 14, "damage": "2d", "damage_type": "cr"},
]}
#: V-05's Grog (E-20): 30 HP bought, racial base HP 12 x LS 2 = 24 (A-27).
GROG = {"st": 15, "ht": 12, "hp": 30, "gulliver": {"linear_scale": 2, "base_hp": 24}}
#: A quadruped (A-63).
HORSE = {"st": 20, "ht": 12, "hp": 30, "gulliver": {"body": "quadruped"}}
#: V-04's centaur: the horse half (24 HP) is the base; the human half has 12 HP and holds the arms.
CENTAUR = {"st": 18, "ht": 12, "hp": 24, "gulliver": {"other_half_hp": 12,
                                                      "other_half_locations": ["right arm", "left arm"]}}
SIX_SIXES = [6, 6, 6, 6, 6, 6]


# --------------------------------------------------------------------------- the block where the human default was


def test_a63_a_quadrupeds_hit_location_roll_reads_its_own_table(engine: Engine) -> None:
    """A-63: the same 3d roll of 17 lands on a humanoid's neck and on a quadruped's tail (the
    creature's table replaces the humanoid one)."""
    landed = {}
    for name, target in (("humanoid", {"st": 10, "hp": 30}), ("quadruped", HORSE)):
        table = fight(engine, LANCER, target, "hit_locations")
        table.maneuver("hero", "attack", [TO_HIT, [6, 6, 5]], target="foe", weapon="mace")
        landed[name] = table.last("attack_rolled").payload["location"]["name"]
    assert landed == {"humanoid": "neck", "quadruped": "tail"}


def test_a63_aiming_takes_the_targets_body_table(engine: Engine) -> None:
    """A-63: a quadruped has a tail to aim at (-3) and no arm; refused naming its own locations."""
    table = fight(engine, LANCER, HORSE, "hit_locations")
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="mace", location="left arm")
    assert err.value.code == "maneuver/bad_location" and "tail" in err.value.details["known"]
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="mace", location="tail")
    assert table.last("attack_rolled").payload["location"] == {"name": "tail", "aimed": True, "penalty": -3,
                                                               "rule": "A-24"}


def test_a63_the_attack_form_offers_the_foes_body_locations(engine: Engine) -> None:
    """A-63: against a quadruped the Attack action's "Hit location" choice lists its tail (-3) and
    foreleg, and no arm; against a humanoid, its arms and no tail."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    def locations(target: dict[str, object]) -> dict[object, str]:
        state = fight(engine, LANCER, target, "hit_locations").state
        attack = next(a for a in GurpsRuleset().describe(state, GM_ACTOR).actions if a.id == "attack")
        return {c.value: c.label for c in next(f for f in attack.fields if f.name == "location").choices}

    horse = locations(HORSE)
    assert horse["tail"] == "tail (-3)" and "foreleg" in horse and "left arm" not in horse
    man = locations({"st": 10, "hp": 30})
    assert "left arm" in man and "tail" not in man


def test_v05_a27_the_cap_is_the_blocks_base_hp_not_the_bought_hp(engine: Engine) -> None:
    """V-05 / A-27 (E-20's Grog): the lance's six 6s = 36, x2 imp = 72. Off: 72. V-05: capped at the
    base HP before bought HP, 12 x LS 2 = 24 (not his 30 HP)."""
    off = blow(fight(engine, LANCER, GROG), "lance", SIX_SIXES)
    table = fight(engine, LANCER, GROG, "blowthrough")
    on = blow(table, "lance", SIX_SIXES)
    assert off["injury"] == 72 and "blowthrough" not in off
    assert (on["injury"], on["blowthrough"]) == (24, {"cap": "24", "before": 72, "rule": "V-05"})
    assert "72, blowthrough caps it at 24 (V-05) -> injury 24" in explained(table, "damage_rolled")


def test_v06_the_cap_is_ten_times_the_blocks_linear_scale(engine: Engine) -> None:
    """V-06 (E-20): Grog at LS 2 -> cap 10 x 2 = 20, his HP and base HP aside."""
    on = blow(fight(engine, LANCER, GROG, "blowthrough", "blowthrough_improved"), "lance", SIX_SIXES)
    assert (on["injury"], on["blowthrough"]["cap"], on["blowthrough"]["rule"]) == (20, "20", "V-06")


# --------------------------------------------------------------------------- V-01 Combat ST and Load ST

#: ST 10 with Combat ST 20 and Load ST 20 typed in the block.
GIANT_ARMED = {"st": 10, "dx": 12, "ht": 11, "gulliver": {"combat_st": 20, "load_st": 20},
               "weapons": [{"name": "club", "skill": 14, "damage": "sw", "damage_type": "cr"}]}
TARGET = {"st": 10, "ht": 10, "hp": 40}


def test_v01_blows_use_combat_st(engine: Engine) -> None:
    """V-01: the club (sw) of a fighter with ST 10 and Combat ST 20. Off: the sheet's ST 10 gives sw 1d,
    [3] -> 3. On: Combat ST 20 gives sw 3d+2, [3, 3, 3] -> 11; the log names Combat ST and V-01."""
    off = fight(engine, GIANT_ARMED, TARGET)
    assert blow(off, "club", [3])["basic"] == 3
    table = fight(engine, GIANT_ARMED, TARGET, "combat_load_st")
    on = blow(table, "club", [3, 3, 3])
    attack = table.last("attack_rolled").payload["attack"]
    assert (attack["damage_dice"], attack["damage_adds"]) == (3, 2)
    assert (on["basic"], on["combat_st"]) == (11, {"st": 20, "rule": "V-01"})
    assert "combat_st" not in off.last("damage_rolled").payload
    assert "club damage [3, 3, 3] +2 (by Combat ST 20, V-01 (in place of A-01)) = 11 basic" in \
        explained(table, "damage_rolled")


def test_v01_throwing_uses_load_st(engine: Engine) -> None:
    """V-01: a 30-lb rock thrown 8 yd. Off: ST 10, BL 20, 30/20 = 1.5 -> x2/5: 4 yd (G-13), refused.
    On: Load ST 20, BL 80, 30/80 = 0.375 -> x1: 20 yd; thrust of Combat ST 20 is 2d-1, the rock's
    weight (<= BL/2) adds nothing (G-14)."""
    rock = {"name": "rock", "weight": 30}
    off = fight(engine, GIANT_ARMED, TARGET)
    with pytest.raises(Rejected) as err:
        off.maneuver("hero", "attack", [TO_HIT], target="foe", object=rock, range=8)
    assert err.value.code == "maneuver/out_of_range" and "4 yd" in err.value.message
    table = fight(engine, GIANT_ARMED, TARGET, "combat_load_st")
    table.maneuver("hero", "attack", [TO_HIT], target="foe", object=rock, range=8)
    attack = table.last("attack_rolled").payload["attack"]
    assert (attack["weapon"], attack["damage_dice"], attack["damage_adds"]) == ("rock", 2, -1)


# --------------------------------------------------------------------------- V-03 fractional damage

#: A pixie: ST 2 (G's sw 1d-5); V-03 scales the ST 10 swing 1d by 2/10.
PIXIE = {"st": 2, "dx": 12, "ht": 10, "weapons": [{"name": "pin", "skill": 14, "damage": "sw", "damage_type": "cut"}]}
RAT = {"st": 2, "ht": 10, "hp": 1}
MAN = {"st": 10, "ht": 10, "hp": 10}


def test_v03_a_weak_creature_scales_the_st10_roll_and_a_small_target_keeps_the_fraction(engine: Engine) -> None:
    """V-03 / A-28: the pixie's pin rolls 5. Off: 1d-5 -> 0, nothing. On: (1d) x 2/10 -> 5 x 1/5 = 1,
    x3/2 cut = 3/2 kept exact against the 1-HP rat: HP 1 -> -1/2 (the state holds 0 and the exact
    -1/2); no death check (-1/2 is above -1 x HP, G-45)."""
    off = fight(engine, PIXIE, RAT)
    assert blow(off, "pin", [5])["basic"] == 0
    table = fight(engine, PIXIE, RAT, "tiny_damage")
    on = blow(table, "pin", [5])
    assert table.last("attack_rolled").payload["attack"]["damage_scale"] == "1/5"
    assert (on["basic"], on["penetrating"], on["injury"]) == (1, 1, "3/2")
    assert on["low_st"] == {"scale": "1/5", "exact": True, "rule": "V-03"}
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["hp_before"], injury["hp_after"], injury["death_thresholds"]) == (
        "3/2", 1, "-1/2", [])
    cond = table.cond("foe")
    assert (cond.hp, cond.hp_exact, exact_hp(cond)) == (0, "-1/2", Fraction(-1, 2))
    assert "x 1/5 for low ST (fraction kept: the target has under 10 HP; V-03 (in place of A-01))" in \
        explained(table, "damage_rolled")
    assert "HP 1 -> -1/2 of 1" in explained(table, "injury_applied")
    assert table.refold_matches()


def test_v03_fractions_add_up_exactly_until_a_rule_rounds(engine: Engine) -> None:
    """V-03: a second pin of 5 on the rat at -1/2 takes 3/2 more: exactly -2, crossing -1 x HP and
    -2 x HP (two death checks, G-45); the state's HP is whole again."""
    table = fight(engine, PIXIE, RAT, "tiny_damage")
    blow(table, "pin", [5])
    table.roll([3, 3, 3], "major_wound")  # 3/2 > 1/2: G-46's roll; HT 10 rolls 9
    table.roll([3, 3, 3], "consciousness")  # the rat's turn at -1/2 HP (G-44): stays up
    table.maneuver("foe", "do_nothing")
    blow(table, "pin", [5])
    injury = table.last("injury_applied").payload
    assert (injury["hp_before"], injury["hp_after"], injury["death_thresholds"]) == ("-1/2", -2, [1, 2])
    cond = table.cond("foe")
    assert (cond.hp, cond.hp_exact) == (-2, "")


def test_v03_a_big_target_drops_the_fraction(engine: Engine) -> None:
    """V-03: against a 10-HP man the fraction is ignored: the pin's 5 x 1/5 = 1 (off: 1d-5 -> 0,
    nothing), x3/2 cut rounds down as G-42 does: 1 HP."""
    off = blow(fight(engine, PIXIE, MAN), "pin", [5])
    table = fight(engine, PIXIE, MAN, "tiny_damage")
    on = blow(table, "pin", [5])
    assert (off["basic"], off["penetrating"]) == (0, 0)
    assert (on["basic"], on["injury"], on["low_st"]["exact"]) == (1, 1, False)
    assert "rounded down: the target has 10 HP or more" in explained(table, "damage_rolled")


# --------------------------------------------------------------------------- V-04 split HP


def test_v04_a_blow_to_the_other_half_is_scaled_by_base_over_its_hp(engine: Engine) -> None:
    """V-04 (the catalogue's centaur): the mace's [3, 3] = 6 crushing to the right arm (-2 to hit: 14 - 2
    = 12, a roll of 11 hits), x1 there. Off: 6. On: the arm is on the human half (12 HP) of a 24-HP
    creature: x24/12 = 12, one HP pool."""
    injuries = {}
    for switches in (("hit_locations",), ("hit_locations", "split_hp")):
        table = fight(engine, LANCER, CENTAUR, *switches)
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="mace", location="right arm")
        table.defend("none")
        table.roll([3, 3], "damage")
        injuries[switches] = dict(table.last("damage_rolled").payload)
    off, on = injuries[("hit_locations",)], injuries[("hit_locations", "split_hp")]
    assert (off["injury"], "split_hp" in off) == (6, False)
    assert (on["injury"], on["split_hp"]) == (12, {"factor": "2", "before": 6, "rule": "V-04"})
    assert table.last("injury_applied").payload["hp_after"] == 12
    assert "6 x 2 on the other body half (V-04) -> injury 12" in explained(table, "damage_rolled")


def test_v04_the_base_half_is_not_scaled(engine: Engine) -> None:
    """V-04: the same 6 to the torso (the base half) stays 6 with the option on."""
    table = fight(engine, LANCER, CENTAUR, "hit_locations", "split_hp")
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="mace", location="torso")
    table.defend("none")
    table.roll([3, 3], "damage")
    assert (table.last("damage_rolled").payload["injury"], "split_hp" in table.last("damage_rolled").payload) == (
        6, False)


def test_v44_a_heart_attack_does_its_dice_times_the_blocks_linear_scale(engine: Engine) -> None:
    """V-44 / A-27: a minor heart attack does 2d x LS. The spear of ST 12 (1d+1 imp) aimed at the vitals
    (-3: 14 -> 11, a roll of 11 hits) rolls 4 -> 5, x3 = 15 >= HPmax 10: HT 10 rolls 12, a minor heart
    attack; 2d [3, 4] = 7 x LS 2 = 14 (LS 1: 7)."""
    spear = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "spear", "skill": 14, "damage": "thr+2",
                                                        "damage_type": "imp"}]}
    rolled = {}
    for ls in (1, 2):
        table = fight(engine, spear, {"st": 10, "ht": 10, "hp": 10, "gulliver": {"linear_scale": ls}},
                      "hit_locations", "heart_attack")
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="spear", location="vitals")
        table.defend("none")
        table.roll([4], "damage")
        table.roll([4, 4, 4], "heart_attack")
        table.roll([3, 4], "heart_attack_damage")
        rolled[ls] = (table.last("heart_attack_rolled").payload["injury"], explained(table, "heart_attack_rolled"))
    assert rolled[1] == (7, "Foe's minor heart attack does 2d [3, 4] = 7 HP (V-44).")
    assert rolled[2] == (14, "Foe's minor heart attack does 2d [3, 4] x LS 2 = 14 HP (V-44).")


def test_v63_toughness_reads_the_blocks_combat_st_and_bought_levels(engine: Engine) -> None:
    """V-63 / V-65: T = floor(Combat ST / 5) + bought levels. The mace's [3, 3] = 6 crushing: against ST 10
    T 2 -> 4; with the block's Combat ST 15 and 2 bought levels T 3 + 2 = 5 -> 1."""
    plain = blow(fight(engine, LANCER, {"st": 10, "hp": 20}, "new_toughness"), "mace", [3, 3])
    tough = blow(fight(engine, LANCER, {"st": 10, "hp": 20, "gulliver": {"combat_st": 15, "toughness_bonus": 2}},
                       "new_toughness"), "mace", [3, 3])
    assert (plain["injury"], plain["toughness"]["value"]) == (4, 2)
    assert (tough["injury"], tough["toughness"]) == (1, {"value": 5, "absorbed": 5, "before": 6, "rule": "V-63"})
