"""GULLIVER's damage options wired through the gurps ruleset (issue #11, second step), played
through the real engine on a SQLite file and on PostgreSQL: the ST damage tables (V-66, V-67,
V-68), All-Out Attack (Strong) +33% (V-02, R-09), Toughness (V-63) and blowthrough (V-05,
V-06). Each test plays the same blow on the same dice with the option on and off; the
numbers are worked by hand in the docstrings. Worked examples E-19 and E-20 are the parts
of them these options cover."""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.gulliver.options import OPTION_SPECS, SWITCHES, WIRED
from combat_server.rules.gurps.ruleset import GurpsRuleset

from tests.gurps.gulliver.wired import blow, explained, fight

#: ST 12: G's thrust 1d-1, swing 1d+2 (A-01); V-66 thrust 1d+1; V-67 swing = V-66 thrust of 18 = 1d+3.
FIGHTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "spear", "skill": 14, "damage": "thr+2", "damage_type": "imp"},
    {"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut", "weight": 4},
    {"name": "force sword", "skill": 14, "damage": "2d", "damage_type": "burn"},
    {"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"},
    {"name": "blade", "skill": 14, "damage": "2d", "damage_type": "cut"},
]}
#: ST 10 (V-63 Toughness floor(10/5) = 2), 30 HP, no DR.
DUMMY = {"st": 10, "ht": 10, "hp": 30}
#: E-19's Razk: ST 15 (Toughness 3), DR 1.
RAZK = {"st": 15, "ht": 12, "hp": 30, "dr": 1}
#: A 10-HP human: V-05's cap is 10 (A-27: HP before bought HP, size 1).
HUMAN = {"st": 10, "ht": 10, "hp": 10}

GULLIVER_FIELDS = ("damage_table", "toughness", "blowthrough")


# ---------------------------------------------------------------------------------------------- all off


def test_all_options_off_records_the_blow_as_before(engine: Engine) -> None:
    """With every option off a blow records only G's fields: ST 12 spear thr+2 = 1d+1, face 6 -> 7,
    x2 imp = 14, no Toughness, no cap, no table note (stored fights keep their bytes)."""
    table = fight(engine, FIGHTER, DUMMY)
    dmg = blow(table, "spear", [6])
    assert (dmg["adds"], dmg["basic"], dmg["injury"]) == (1, 7, 14)
    assert not set(GULLIVER_FIELDS) & set(dmg)
    assert explained(table, "damage_rolled") == ("spear damage [6] +1 = 7 basic; DR 0 -> 7 penetrating (G-42); "
                                                 "x2 imp -> injury 14 (G-42, A-20).")


# ---------------------------------------------------------------------------------------------- ST tables


def test_v66_thrust_weapon_rolls_the_new_table(engine: Engine) -> None:
    """V-66: ST 12 thrust is 1d+1 (n 1, r 2) instead of G's 1d-1: the spear (thr+2) rolls 1d+3.
    Face 4: off 5 basic (x2 imp = 10), on 7 (14)."""
    off = blow(fight(engine, FIGHTER, DUMMY), "spear", [4])
    table = fight(engine, FIGHTER, DUMMY, "new_st_damage")
    on = blow(table, "spear", [4])
    assert (off["adds"], off["basic"], off["injury"]) == (1, 5, 10)
    assert (on["adds"], on["basic"], on["injury"]) == (3, 7, 14)
    assert on["damage_table"] == "V-66" and "damage_table" not in off
    assert "dice from the thrust of V-66 (in place of A-01)" in explained(table, "damage_rolled")


def test_v66_alone_leaves_swing_on_g_table(engine: Engine) -> None:
    """V-66 without V-67: swing stays G's (ST 12: 1d+2), and no table is cited for it."""
    dmg = blow(fight(engine, FIGHTER, DUMMY, "new_st_damage"), "axe", [4])
    assert (dmg["adds"], dmg["basic"]) == (2, 6) and "damage_table" not in dmg


def test_v67_swing_is_the_thrust_of_one_and_a_half_st(engine: Engine) -> None:
    """V-67: ST 12 swings as V-66's thrust of floor(18) = 1d+3 (G: 1d+2). The 4-lb axe does not
    limit it (extra 2 points = 4/7 die, squared 16/49 <= 4). Face 4: off 6 basic, x1.5 cut = 9;
    on 7 -> floor(10.5) = 10."""
    off = blow(fight(engine, FIGHTER, DUMMY), "axe", [4])
    table = fight(engine, FIGHTER, DUMMY, "new_st_damage", "new_swing_damage")
    on = blow(table, "axe", [4])
    assert (off["basic"], off["injury"]) == (6, 9)
    assert (on["adds"], on["basic"], on["injury"], on["damage_table"]) == (3, 7, 10, "V-67")
    assert "dice from the swing of V-67 (in place of A-01)" in explained(table, "damage_rolled")


def test_v67_a_light_weapon_limits_the_extra_dice_over_thrust(engine: Engine) -> None:
    """V-67 / A-55: ST 20 thrusts 2d (V-66) and would swing the thrust of 30 = 3d; a 0.25-lb switch
    allows sqrt(0.25) = 1/2 die over thrust: 0 whole dice + floor(0.5 x 3.5) = +1 -> 2d+1."""
    brute = {"st": 20, "dx": 12, "ht": 12, "weapons": [
        {"name": "switch", "skill": 14, "damage": "sw", "damage_type": "cr", "weight": 0.25},
        {"name": "maul", "skill": 14, "damage": "sw", "damage_type": "cr", "weight": 12}]}
    table = fight(engine, brute, DUMMY, "new_st_damage", "new_swing_damage")
    assert blow(table, "switch", [3, 3])["adds"] == 1
    attack = table.last("attack_rolled").payload["attack"]
    assert (attack["damage_dice"], attack["damage_adds"]) == (2, 1)
    shown = {w["name"]: w["damage"] for w in GurpsRuleset().view_combatant(table.state, "hero")["weapons"]}
    assert (shown["switch"], shown["maul"]) == ("2d+1 cr", "3d cr")  # the 12-lb maul: sqrt(12) > 1 die, no limit


def test_v66_the_sheet_view_shows_the_fight_table(engine: Engine) -> None:
    """V-66: a combatant's view shows its weapons' damage on the fight's table (spear 1d+3, not 1d+1)."""
    off = GurpsRuleset().view_combatant(fight(engine, FIGHTER, DUMMY).state, "hero")["weapons"][0]
    on = GurpsRuleset().view_combatant(fight(engine, FIGHTER, DUMMY, "new_st_damage").state, "hero")["weapons"][0]
    assert (off["damage"], on["damage"]) == ("1d+1 imp", "1d+3 imp")


def test_v68_attacks_not_powered_by_st_get_one_per_die(engine: Engine) -> None:
    """V-68: with Toughness and the new table, the force sword (2d burn, not ST) gets +2. Faces 3, 4:
    7 basic without V-68, 9 with; the dummy's Toughness 2 leaves 5 and 7."""
    base = ("new_toughness", "new_st_damage")
    off = blow(fight(engine, FIGHTER, DUMMY, *base), "force sword", [3, 4])
    table = fight(engine, FIGHTER, DUMMY, *base, "toughness_st_balance")
    on = blow(table, "force sword", [3, 4])
    assert (off["basic"], off["injury"], off["modifiers"]) == (7, 5, [])
    assert (on["basic"], on["injury"]) == (9, 7)
    assert [(m["value"], m["rule"]) for m in on["modifiers"]] == [(2, "V-68")]
    assert "+2 +1 per die for an attack not powered by ST" in explained(table, "damage_rolled")


def test_v68_gives_nothing_to_a_muscle_powered_weapon(engine: Engine) -> None:
    """V-68: the axe (sw, ST-powered) gets no bonus: 1d+3 (V-67 off: G's 1d+2), face 4 -> 6."""
    dmg = blow(fight(engine, FIGHTER, DUMMY, "new_toughness", "new_st_damage", "toughness_st_balance"), "axe", [4])
    assert (dmg["basic"], dmg["modifiers"]) == (6, [])


# ---------------------------------------------------------------------------------------------- AOA (Strong)


def test_v02_e19_aoa_strong_adds_a_third_of_the_roll(engine: Engine) -> None:
    """V-02 / R-09 / E-19: the axe (1d+2) rolls 6 + 2 = 8: G-22 adds +2 (10); V-02 adds
    ceil(8 x 0.33 = 2.64) = +3 (11)."""
    off = blow(fight(engine, FIGHTER, DUMMY), "axe", [6], "all_out_attack", "strong")
    table = fight(engine, FIGHTER, DUMMY, "aoa_percent_damage")
    on = blow(table, "axe", [6], "all_out_attack", "strong")
    assert (off["basic"], [(m["value"], m["rule"]) for m in off["modifiers"]]) == (10, [(2, "G-22")])
    assert (on["basic"], [(m["value"], m["rule"]) for m in on["modifiers"]]) == (11, [(3, "V-02")])
    assert "+3 All-Out Attack (Strong): +33% of the damage rolled (V-02 (in place of G-22))" in \
        explained(table, "damage_rolled")


# ---------------------------------------------------------------------------------------------- Toughness


@pytest.mark.parametrize("weapon,faces,without,with_t", [
    ("club", [5], 4, 1),  # punch 5 - DR 1 = 4; x1; - T 3 -> 1
    ("blade", [4, 5], 12, 9),  # cutting 9 - DR 1 = 8; x1.5 = 12; - 3 -> 9
    ("blade", [1, 2], 3, 1),  # cutting 3 - DR 1 = 2; x1.5 = 3; T absorbs only the 2 basic hits -> 1
])
def test_v63_e19_razk_toughness_after_the_multipliers(engine: Engine, weapon: str, faces: list[int], without: int,
                                                      with_t: int) -> None:
    """V-63 / E-19: Razk (ST 15, DR 1) has Toughness floor(15/5) = 3, taken after the wound
    multipliers and never more than the hits that got past DR."""
    off = blow(fight(engine, FIGHTER, RAZK), weapon, faces)
    table = fight(engine, FIGHTER, RAZK, "new_toughness")
    on = blow(table, weapon, faces)
    assert off["injury"] == without and "toughness" not in off
    assert on["injury"] == with_t
    assert on["toughness"] == {"value": 3, "absorbed": without - with_t, "before": without, "rule": "V-63"}
    assert table.last("injury_applied").payload["hp_after"] == 30 - with_t
    assert (f"{without}, less Toughness {without - with_t} of 3 (V-63 (in place of G-42)) -> injury {with_t}"
            in explained(table, "damage_rolled"))


# ---------------------------------------------------------------------------------------------- blowthrough


def test_v05_caps_an_impaling_wound_at_the_target_hp(engine: Engine) -> None:
    """V-05: a 10-HP human's cap is 10: the spear (1d+1) rolls 6 -> 7, x2 imp = 14 -> 10. Off: 14."""
    off = blow(fight(engine, FIGHTER, HUMAN), "spear", [6])
    table = fight(engine, FIGHTER, HUMAN, "blowthrough")
    on = blow(table, "spear", [6])
    assert off["injury"] == 14 and "blowthrough" not in off
    assert on["injury"] == 10 and on["blowthrough"] == {"cap": "10", "before": 14, "rule": "V-05"}
    assert table.last("injury_applied").payload["hp_after"] == 0
    assert "14, blowthrough caps it at 10 (V-05) -> injury 10" in explained(table, "damage_rolled")


def test_v05_leaves_cutting_wounds_alone(engine: Engine) -> None:
    """V-05: only piercing and impaling wounds blow through: the axe (1d+2) rolls 6 -> 8, x1.5 cut = 12 > 10, kept."""
    dmg = blow(fight(engine, FIGHTER, HUMAN, "blowthrough"), "axe", [6])
    assert dmg["injury"] == 12 and "blowthrough" not in dmg


def test_v06_e20_improved_cap_is_ten_times_linear_scale(engine: Engine) -> None:
    """V-06 / E-20: the improved cap is 10 x LS = 10 for a human whatever its HP: 14 impaling to the
    torso of a 30-HP target -> 10. V-05 alone caps at 30 and keeps 14."""
    plain = blow(fight(engine, FIGHTER, DUMMY, "blowthrough"), "spear", [6])
    on = blow(fight(engine, FIGHTER, DUMMY, "blowthrough", "blowthrough_improved"), "spear", [6])
    assert plain["injury"] == 14 and "blowthrough" not in plain
    assert on["injury"] == 10 and on["blowthrough"] == {"cap": "10", "before": 14, "rule": "V-06"}


# ---------------------------------------------------------------------------------------------- the fight's options


def test_the_options_refold_to_the_same_state(engine: Engine) -> None:
    """Every effect is in the events: a fight played with the options on refolds byte for byte."""
    table = fight(engine, FIGHTER, RAZK, "new_toughness", "new_st_damage", "new_swing_damage", "blowthrough",
                  "blowthrough_improved", "aoa_percent_damage", "toughness_st_balance")
    blow(table, "axe", [6], "all_out_attack", "strong")
    assert table.refold_matches()


def test_an_option_without_what_it_needs_is_refused(engine: Engine) -> None:
    """V-67 stands on V-66: asking for it alone is refused, naming both, and no fight is created."""
    before = len(engine.store.fights())
    with pytest.raises(Rejected) as err:
        engine.create_fight("gurps", options={"new_swing_damage": True})
    assert err.value.code == "fight/option_conflict" and "new_st_damage" in err.value.message
    assert len(engine.store.fights()) == before


def test_every_gulliver_option_is_offered(engine: Engine) -> None:
    """Issue #11: every `[combat-option]` switch of the catalogue and every reading is wired and offered:
    a fight may be created with any one that needs nothing else."""
    assert {spec.name for spec in OPTION_SPECS} <= set(WIRED)
    for spec in SWITCHES:
        if not spec.requires and not spec.excludes:
            assert engine.create_fight("gurps", options={spec.name: True})


def test_an_option_gulliver_does_not_have_is_refused(engine: Engine) -> None:
    """A misspelt or unknown option is refused (``fight/unknown_option``) and no fight is stored."""
    before = len(engine.store.fights())
    with pytest.raises(Rejected) as err:
        engine.create_fight("gurps", options={"blowthru": True})
    assert err.value.code == "fight/unknown_option"
    assert len(engine.store.fights()) == before


# ---------------------------------------------------------------------------------------------- Toughness by location


def test_v64_e19_a_hand_has_half_toughness(engine: Engine) -> None:
    """V-64 / A-53 / E-19: ST 16 has Toughness 3, no DR; a club (1d cr) aimed at the hand (-4: 14 -> 10,
    3d 9 hits) rolls 3: x1 on the hand; V-63 alone absorbs all 3 (injury 0); V-64 gives the hand
    floor(3/2) = 1, so 2 get through."""
    st16 = {"st": 16, "ht": 12, "hp": 30}
    results = {}
    for switches in (("new_toughness",), ("new_toughness", "location_toughness")):
        table = fight(engine, FIGHTER, st16, "hit_locations", *switches)
        table.maneuver("hero", "attack", [[3, 3, 3]], target="foe", weapon="club", location="hand")
        table.defend("none")
        table.roll([3], "damage")
        dmg = table.last("damage_rolled").payload
        results[switches] = (dmg["injury"], dmg["toughness"]["value"], dmg["toughness"]["rule"])
    assert results == {("new_toughness",): (0, 3, "V-63"), ("new_toughness", "location_toughness"): (2, 1, "V-64")}
