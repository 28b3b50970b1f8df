"""Every GULLIVER option, on against off on the same inputs (issue #11): what it changes,
with hand-checked numbers. The options an option needs (``requires``) are on on both
sides, so each test isolates one switch. Test names start with the V id."""

from __future__ import annotations

from fractions import Fraction

from combat_server.rules.gurps.gulliver.blowthrough import Projectile
from combat_server.rules.gurps.gulliver.locations import location
from combat_server.rules.gurps.gulliver.policy import Injury
from combat_server.rules.gurps.gulliver.shock import DIRECT_SHOCK_DICE, NERVE_PISTOL_FACTOR, Factor, LimbStun
from combat_server.rules.gurps.gulliver.size import Scale

from tests.gurps.gulliver.policies import OFF, policy, wound

ARM, HAND, NECK = (location("humanoid", n) for n in ("right arm", "hand", "neck"))
SKULL, VITALS, TORSO = (location("humanoid", n) for n in ("skull", "vitals", "torso"))
MONSTER = Scale(non_pc_race=True)


# ---------------------------------------------------------------------------------------------- damage


def test_v01_blows_use_combat_st_and_lifting_load_st() -> None:
    """V-01: sheet ST 12, Combat ST 20, Load ST 30: off 12 and 12 (thrust 1d-1); on 20 and 30 (thrust 2d-1)."""
    brute = Scale(combat_st=20, load_st=30)
    assert (OFF.damage_st(12, brute), OFF.lift_st(12, brute), OFF.thrust(12, brute).text()) == (12, 12, "1d-1")
    on = policy("combat_load_st")
    assert (on.damage_st(12, brute), on.lift_st(12, brute), on.thrust(12, brute).text()) == (20, 30, "2d-1")


def test_v02_aoa_strong_adds_a_third_of_the_roll() -> None:
    """V-02 / R-09: 2 dice rolling 12: off +2 (G-22); on ceil(12 x 0.33 = 3.96) = +4 (V-02)."""
    assert OFF.aoa_strong_bonus(12, dice=2).value == 2
    assert policy("aoa_percent_damage").aoa_strong_bonus(12, dice=2).value == 4


def test_v03_weak_creatures_do_fractional_damage() -> None:
    """V-03: ST 5 thrust: off G's 1d-4; on the ST 10 thrust 1d-2 x 5/10. A face of 5 totals 5 - 2 = 3:
    x1/2 = 3/2 kept against a 5-HP target, floored to 1 against a 12-HP one."""
    assert OFF.thrust(5).text() == "1d-4"
    on = policy("tiny_damage")
    roll = on.thrust(5)
    assert roll.text() == "(1d-2) x 1/2"
    assert on.blow_damage(3, roll, target_hp_max=5) == Fraction(3, 2)
    assert on.blow_damage(3, roll, target_hp_max=12) == 1


def test_v04_split_hp_scales_damage_to_the_other_half() -> None:
    """V-04: horse half 24 HP (base), human half 12 on the arms: a blow to an arm x 24/12 = 2; off x1."""
    centaur = Scale(other_half_hp=12, other_half_locations=("right arm", "left arm"))
    assert OFF.split_factor(centaur, 24, ARM) == 1
    assert policy("split_hp").split_factor(centaur, 24, ARM) == 2
    assert policy("split_hp").split_factor(centaur, 24, TORSO) == 1


# ---------------------------------------------------------------------------------------------- blowthrough


def test_v05_blowthrough_caps_at_base_hp() -> None:
    """V-05: impaling vs a human of HP 15 bought on base 10 (A-27): off no cap; on cap 10."""
    human = Scale(base_hp=Fraction(10))
    assert OFF.blowthrough_cap(Projectile("imp"), 15, human) is None
    assert policy("blowthrough").blowthrough_cap(Projectile("imp"), 15, human) == 10
    assert policy("blowthrough").blowthrough_cap(Projectile("cr"), 15, human) is None  # crushing never blows through


def test_v06_improved_cap_is_ten_times_ls() -> None:
    """V-06: a 3-inch creature (LS 1/24), base HP 1: V-05 alone cap 1; with V-06, 10/24 = 5/12."""
    tiny = Scale(linear_scale=Fraction(1, 24), base_hp=Fraction(1))
    assert policy("blowthrough").blowthrough_cap(Projectile("imp"), 1, tiny) == 1
    assert policy("blowthrough", "blowthrough_improved").blowthrough_cap(Projectile("imp"), 1, tiny) == Fraction(5, 12)


def test_v07_location_factors() -> None:
    """V-07: a human's vitals: V-05 alone cap 10; with V-07 x3 = 30."""
    assert policy("blowthrough").blowthrough_cap(Projectile("imp"), 10, where=VITALS) == 10
    assert policy("blowthrough", "blowthrough_modifiers").blowthrough_cap(Projectile("imp"), 10, where=VITALS) == 30


# ---------------------------------------------------------------------------------------------- damage and shock


def test_v08_will_modifies_hp_rolls_against_shock() -> None:
    """V-08: Will 13, IQ 10 (Strong Will 3): off no modifier; on +3 to HT rolls against shock effects."""
    assert OFF.shock_roll_mods(13, 10) == []
    assert [(m.value, m.rule) for m in policy("damage_shock").shock_roll_mods(13, 10)] == [(3, "V-08")]


def test_v09_slowdown_cites_gulliver_with_the_same_threshold() -> None:
    """V-09 restates G-43 for a 4e core (A-31): HP 3 of 10 is slowed either way; on, the citation is V-09."""
    assert OFF.slowed(3, 10) == (True, "G-43")
    assert policy("injury_slowdown").slowed(3, 10) == (True, "V-09")


def test_v10_knockdown_roll_for_a_heavy_blow_anywhere() -> None:
    """V-10 / A-32: 6 to the arm of a HP 10 fighter (> 5): off no roll (G-46 is for the torso); on a roll."""
    assert OFF.major_wound_roll(6, 10, ARM) is None
    assert policy("knockdown").major_wound_roll(6, 10, ARM) == "V-10"


def test_v10_a_failed_roll_off_the_torso_only_knocks_down() -> None:
    """V-10: the arm blow's failed roll (by 2) knocks down; G-46's stun is for torso wounds (A-24)."""
    assert policy("knockdown").major_wound_effect("failure", -2, ARM) == "knockdown"
    assert policy("knockdown").major_wound_effect("failure", -2, TORSO) == "stunned_knockdown"


def test_v11_a_crippling_blow_doubles_its_shock() -> None:
    """V-11 / A-33: 8 to the arm of HP 10: 6 taken, shock 2 x 6 = 12, the factor citing V-11;
    without crippling the shock is the 8 taken."""
    on = policy("hit_locations", "crippled_limbs")
    maimed = on.maim(8, ARM, 10, "cr")
    got = on.shock(wound(6), 10, where=ARM, maiming=maimed)
    assert got.points == 12 and [f.rule for f in got.factors] == ["V-11"]
    assert OFF.shock(wound(8), 10, where=ARM).points == 8


def test_v11_full_blow_shock_reading() -> None:
    """A-33 (cfg): full_blow doubles the whole blow: 8 -> 16 instead of 2 x 6 = 12."""
    on = policy("hit_locations", "crippled_limbs", crippling_shock="full_blow")
    maimed = on.maim(8, ARM, 10, "cr")
    assert maimed.taken == 6 and on.shock(wound(6), 10, where=ARM, maiming=maimed).points == 16


def test_v11_a_crippling_blow_loses_its_excess() -> None:
    """V-11 / A-33: 8 crushing to the arm of HP 10 (> 5): off all 8 taken; on crippled, 6 taken."""
    assert OFF.maim(8, ARM, 10, "cr").taken == 8
    got = policy("hit_locations", "crippled_limbs").maim(8, ARM, 10, "cr")
    assert got.crippled and got.taken == 6 and got.severing == "none" and got.rule == "V-11"


def test_v12_a_big_cut_may_sever() -> None:
    """V-12: cutting 12 to an arm of HP 10 (> 10): V-11 alone crippled only; with V-12 a HT roll to keep it."""
    assert policy("hit_locations", "crippled_limbs").maim(12, ARM, 10, "cut").severing == "none"
    severed = policy("hit_locations", "crippled_limbs", "amputation").maim(12, ARM, 10, "cut")
    assert severed.severing == "roll" and severed.rule == "V-12"


def test_v13_a_crushing_neck_blow_can_break_the_neck() -> None:
    """V-13 / A-35: crushing 21 to the neck of HP 10 (> 2 x 10): V-11 alone nothing special;
    with V-13 crippled (paralysis) and a broken neck outright, which is fatal."""
    assert not policy("hit_locations", "crippled_limbs").maim(21, NECK, 10, "cr").crippled
    got = policy("hit_locations", "crippled_limbs", "neck_injury").maim(21, NECK, 10, "cr")
    assert got.crippled and got.severing == "automatic" and got.fatal and got.rule == "V-13"


def test_v13_impaling_only_cripples_the_neck() -> None:
    """A-35: impaling and piercing cannot sever: 21 impaling to the neck cripples only."""
    got = policy("hit_locations", "crippled_limbs", "neck_injury").maim(21, NECK, 10, "imp")
    assert got.crippled and got.severing == "none" and not got.fatal


def test_v17_gm_shock_multipliers_count_only_in_shock_points() -> None:
    """V-17: a Type II nerve pistol (shock = damage x4) doing 2: without V-17 shock 2; with it 8."""
    stunner = (Factor(Fraction(NERVE_PISTOL_FACTOR), "nerve pistol", "V-17"),)
    assert policy("damage_shock").shock(wound(2), 10, gm_factors=stunner).points == 2
    assert policy("damage_shock", "shock_points").shock(wound(2), 10, gm_factors=stunner).points == 8


def test_v17_stunners_deal_shock_directly() -> None:
    """V-17: a strong stunner's 4d rolling 13 deals 13 shock and no injury; without V-17 nothing."""
    assert DIRECT_SHOCK_DICE["strong stunner"] == 4
    assert policy("damage_shock").shock(wound(0), 10, direct=13).points == 0
    assert policy("damage_shock", "shock_points").shock(wound(0), 10, direct=13).points == 13


def test_v18_small_creatures_suffer_more_per_point() -> None:
    """V-18: HP 5 takes 2: off (G-47) -2; on 2 per point -> -4. HP 25 takes 7: G-47 floor(70/25) = 2,
    V-18 7 // floor(30/10) = 2."""
    assert OFF.shock(wound(2), 5).penalty == 2
    assert policy("damage_shock", "shock_penalty_bands").shock(wound(2), 5).penalty == 4
    assert policy("damage_shock", "shock_penalty_bands").shock(wound(7), 25).penalty == OFF.shock(wound(7), 25).penalty


def test_v18_no_cap_on_the_summed_penalty() -> None:
    """V-18 / A-37: pending 3 + new 6: off capped at 4; on 9."""
    assert OFF.pending_shock(3, 6) == 4
    assert policy("damage_shock", "shock_penalty_bands").pending_shock(3, 6) == 9


def test_v18_the_cap_can_be_kept() -> None:
    """A-37 (cfg): with shock_penalty_cap the summed penalty stops at 4 again."""
    assert policy("damage_shock", "shock_penalty_bands", shock_penalty_cap=True).pending_shock(3, 6) == 4


def test_v19_shock_over_half_hp_stuns() -> None:
    """V-19: 6 shock on HP 10 (> 5): off no stun from shock; on stunned."""
    assert policy("damage_shock").shock(wound(6), 10).stun == "none"
    assert policy("damage_shock", "shock_stun").shock(wound(6), 10).stun == "stunned"


def test_v20_brain_hits_double_shock() -> None:
    """V-20: 4 to the skull of HP 10: off shock 4; on 8 (and 8 > 5 stuns under V-19)."""
    assert policy("damage_shock", "shock_stun").shock(wound(4), 10, where=SKULL).stun == "none"
    got = policy("hit_locations", "damage_shock", "shock_stun", "brain_shock").shock(wound(4), 10, where=SKULL)
    assert got.points == 8 and got.stun == "stunned"


def test_v21_a_stunned_arm_drops_what_it_holds() -> None:
    """V-21 / A-39: HP 20, arm mark 10, grip margin max(1, 2) = 2: shock 11 stuns the arm with a grip
    roll; 12 with none; off, nothing."""
    assert not policy("damage_shock").shock(wound(11), 20, where=ARM).limb.stunned
    on = policy("hit_locations", "damage_shock", "limb_stun")
    assert on.shock(wound(11), 20, where=ARM).limb == LimbStun(True, grip_roll=True)
    assert on.shock(wound(12), 20, where=ARM).limb.grip_roll is False
    assert on.shock(wound(12), 20, where=ARM).limb.stunned


def test_v22_shock_over_full_hp_calls_for_a_knockout_roll() -> None:
    """V-22: 11 shock on HP 10: off nothing; on a HT roll."""
    assert policy("damage_shock").shock(wound(11), 10).knockout == "none"
    assert policy("damage_shock", "shock_knockout").shock(wound(11), 10).knockout == "roll"


def test_v24_shock_wears_off_by_the_margin() -> None:
    """V-24 / R-10 / A-40: a -3 penalty: off gone after the turn; on, success by 1 leaves -2, by 0
    leaves -3, by 3 clears it, a failure leaves -3."""
    assert OFF.shock_after_turn(3, success=True, margin=1) == 0
    on = policy("damage_shock", "shock_recovery")
    assert [on.shock_after_turn(3, True, 1), on.shock_after_turn(3, True, 0), on.shock_after_turn(3, True, 3),
            on.shock_after_turn(3, False, -2)] == [2, 3, 0, 3]


# ---------------------------------------------------------------------------------------------- death and knockout


def test_v14_knockout_from_injury_cites_gulliver() -> None:
    """V-14 is G-44's roll: the same roll at HP <= 0, cited V-14 when on."""
    assert OFF.consciousness_rule() == "G-44" and policy("injury_knockout").consciousness_rule() == "V-14"
    assert policy("injury_knockout").consciousness_roll_due(0) == OFF.consciousness_roll_due(0) is True


def test_v15_death_checks_every_half_hp() -> None:
    """V-15: HP 10 dropping to -15: off one roll (-10); on two (-10, -15)."""
    assert OFF.death_checks(-15, 10, 0) == ([1], False)
    assert policy("proportional_death").death_checks(-15, 10, 0) == ([1, 2], False)


def test_v44_heart_wounds_can_stop_the_heart() -> None:
    """V-44 / A-46: 20 to the vitals (heart) of HP 10 (>= 2 x HP): off no roll; on HT-4."""
    assert OFF.heart_roll(20, 10, VITALS) is None
    on = policy("hit_locations", "heart_attack")
    assert [on.heart_roll(n, 10, VITALS) for n in (9, 10, 20, 30)] == [None, 0, -4, -8]


def test_v44_heart_attack_damage_scales_with_size() -> None:
    """V-44: a major heart attack does 6d x LS: 6d x 4 for a Giant."""
    roll = policy("hit_locations", "heart_attack").heart_attack_damage("major", Scale(linear_scale=Fraction(4)))
    assert roll is not None and (roll.dice, roll.scale) == (6, 4)


def test_v46_darkness_penalises_sight() -> None:
    """V-46 / A-47: dark: off nothing; on -4 darkness penalty."""
    assert OFF.light("dark").darkness == 0
    assert policy("light_levels").light("dark").darkness == -4


def test_v46_darkness_counts_on_sight_dependent_combat_rolls() -> None:
    """A-47 (cfg): darkness -4 also on attacks and defences by default; vision_only: not there."""
    assert OFF.sight_penalty("dark") == 0
    assert policy("light_levels").sight_penalty("dark") == -4
    assert policy("light_levels", darkness_penalties="vision_only").sight_penalty("dark") == 0


# ---------------------------------------------------------------------------------------------- fatigue


def test_v47_running_costs_fatigue_over_time() -> None:
    """V-47: moving 5 of Move 5 (running): off no automatic fatigue; on 1 per 20 s."""
    assert OFF.movement_pace(5, 5) is None
    pace = policy("movement_fatigue").movement_pace(5, 5)
    assert pace is not None and (pace.name, pace.seconds_per_point) == ("running", 20)


def test_v48_extra_effort_and_heat() -> None:
    """V-48: Extra Effort 0 vs 1 a turn; 1 fatigue in the heat: 1 vs 2."""
    assert (OFF.extra_effort_cost(), OFF.fatigue_cost(1, heat="hot")) == (0, 1)
    on = policy("effort_heat_fatigue")
    assert (on.extra_effort_cost(), on.fatigue_cost(1, heat="hot")) == (1, 2)


def test_v50_low_fatigue_lowers_dx_and_iq() -> None:
    """V-50 / A-49: fatigue 5 of 10 (half): off 0; on -2."""
    assert OFF.fatigue_dx_iq_penalty(5, 10) == 0
    assert policy("fatigue_skill_penalty").fatigue_dx_iq_penalty(5, 10) == 2


def test_v52_encumbrance_multiplies_fatigue() -> None:
    """V-52: 2 fatigue under a Medium load (Move x3/5): off 2; on 2 x 5/3 = 10/3."""
    assert OFF.fatigue_cost(2, encumbrance=2) == 2
    assert policy("encumbrance_fatigue").fatigue_cost(2, encumbrance=2) == Fraction(10, 3)


def test_v53_fatigue_on_st() -> None:
    """V-53: ST 20, HT 12, FP 12: off FPmax 12 and 1 point costs 1; on fatigue 20 and 1 point x 20/10
    = 2, failing the HT roll by 1 leaves it 2, succeeding by 5 quarters it to 1/2."""
    assert OFF.fatigue_max(12, st=20, ht=12) == 12 and not OFF.fatigue_roll_due()
    on = policy("fatigue_on_st")
    assert on.fatigue_roll_due()
    assert on.fatigue_max(12, st=20, ht=12) == 20
    assert on.fatigue_cost(1, st=20, ht_success=False, margin=-1) == 2
    assert on.fatigue_cost(1, st=20, ht_success=True, margin=5) == Fraction(1, 2)


def test_v53_v54_bought_fatigue_levels_still_count() -> None:
    """V-53 / V-54: Extra and Reduced Fatigue are still bought (the sheet's FPmax - HT): ST 20, HT 12
    with FP 16 has Fatigue 20 + 4 = 24 on ST; HT 12 with FP 10 has Fatigue 10 on HT."""
    assert policy("fatigue_on_st").fatigue_max(16, st=20, ht=12) == 24
    assert policy("fatigue_on_ht").fatigue_max(10, st=15, ht=12) == 10


def test_v54_fatigue_on_ht() -> None:
    """V-54 / A-51: HT 12, fatigue 3 of 12: off (G-51: 3 x 3 < 12) halved too, no collapse;
    on halved and the rule cited is V-54; at 1 collapsed, at 0 out."""
    assert OFF.fatigue_state(3, 12).rule == "G-51"
    on = policy("fatigue_on_ht")
    assert on.fatigue_max(12, st=15, ht=12) == 12
    state = on.fatigue_state(3, 12)
    assert state.halved and state.collapse == "none" and state.rule == "V-54"
    assert on.fatigue_state(1, 12).collapse == "collapsed" and on.fatigue_state(0, 12).unconscious
    assert not OFF.fatigue_state(0, 12).unconscious


# ---------------------------------------------------------------------------------------------- monsters


def test_v59_a_finishing_blow_does_maximum_damage() -> None:
    """V-59: 3d+2: off no ruling; on 6 x 3 + 2 = 20."""
    assert OFF.finishing_damage(3, 2) is None
    assert policy("finishing_blow").finishing_damage(3, 2) == 20


def test_v59_twists_past_the_skull_ignore_dr() -> None:
    """V-59: off, DR always counts; on, once past the skull's DR, follow-up twists ignore it."""
    assert not OFF.twist_ignores_dr(True)
    assert policy("finishing_blow").twist_ignores_dr(True) and not policy("finishing_blow").twist_ignores_dr(False)


def test_v60_monsters_resist_knockout() -> None:
    """V-60: IQ 7 monster: off no bonus and a roll every turn; on +3, and after a success only fresh
    injury of HPmax/10 (2 of 20) calls for another roll."""
    assert OFF.consciousness_mods(iq=7, scale=MONSTER) == []
    on = policy("monster_ko_bonus")
    assert [m.value for m in on.consciousness_mods(iq=7, scale=MONSTER)] == [3]
    assert not on.consciousness_roll_due(-1, passed_before=True, fresh_injury=1, hp_max=20, scale=MONSTER)
    assert on.consciousness_roll_due(-3, passed_before=True, fresh_injury=2, hp_max=20, scale=MONSTER)
    assert OFF.consciousness_roll_due(-1, passed_before=True, fresh_injury=1, hp_max=20, scale=MONSTER)


def test_v60_a_pc_race_is_not_a_monster() -> None:
    """V-60 applies to non-PC races only: an IQ 7 PC gets nothing."""
    assert policy("monster_ko_bonus").consciousness_mods(iq=7, scale=Scale()) == []


def test_v61_monsters_die_sooner() -> None:
    """V-61: HP 10, IQ 5 monster at -5: off no death check; on one (-10 x 5/10 = -5)."""
    assert OFF.death_checks(-5, 10, 0, iq=5, scale=MONSTER) == ([], False)
    assert policy("monster_ko_zone").death_checks(-5, 10, 0, iq=5, scale=MONSTER) == ([1], False)


def test_v62_combined_covers_both_and_low_iq_pcs() -> None:
    """V-62: a PC race with the low-IQ trait, IQ 6: V-60 and V-61 alone ignore it; V-62 gives it +4
    and a death check at -10 x 6/10 = -6."""
    pc = Scale(low_iq_trait=True)
    both = policy("monster_ko_bonus", "monster_ko_zone")
    assert both.consciousness_mods(iq=6, scale=pc) == [] and both.death_checks(-6, 10, 0, iq=6, scale=pc)[0] == []
    combined = policy("monster_combined")
    assert [m.value for m in combined.consciousness_mods(iq=6, scale=pc)] == [4]
    assert combined.death_checks(-6, 10, 0, iq=6, scale=pc) == ([1], False)


# ---------------------------------------------------------------------------------------------- Toughness and ST tables


def test_v63_toughness_soaks_injury() -> None:
    """V-63: ST 15 (T 3), crushing 5 through no DR: off 5; on 2."""
    assert OFF.injury(5, "cr", st=15).hp == 5
    got = policy("new_toughness").injury(5, "cr", st=15)
    assert (got.hp, got.absorbed, got.toughness) == (2, 3, 3)


def test_v63_toughness_does_not_stop_poison() -> None:
    """V-63: toxic damage ignores Toughness."""
    assert policy("new_toughness").injury(5, "tox", st=15).hp == 5


def test_v64_location_toughness() -> None:
    """V-64 / A-53: ST 15 (T 3), crushing 3 to the hand: V-63 alone T 3 -> 0; with V-64 T floor(3/2) = 1 -> 2;
    the eye has none, the skull relies on DR (T 0)."""
    assert policy("new_toughness").injury(3, "cr", st=15, where=HAND).hp == 0
    on = policy("new_toughness", "location_toughness")
    assert on.injury(3, "cr", st=15, where=HAND).hp == 2
    assert on.toughness(15, where=SKULL) == 0 and on.toughness(15, where=TORSO) == 3


def test_v64_shock_before_toughness() -> None:
    """V-64: T 3 stops a 3-point punch. Shock (a) after T: 0; (b) 3 - 3 = 0. The same 3 from a
    stunner whose shock is x4 (V-17): (a) 0 x 4 = 0; (b) 3 x 4 - 3 = 9, it stuns through Toughness."""
    stopped = Injury(0, 3, Fraction(1), absorbed=3, toughness=3)
    stunner = (Factor(Fraction(4), "stunner", "V-17"),)
    after = policy("damage_shock", "shock_points", "new_toughness", "location_toughness")
    before = policy("damage_shock", "shock_points", "new_toughness", "location_toughness", toughness_shock="before")
    assert after.shock(stopped, 10).points == 0 and before.shock(stopped, 10).points == 0
    assert after.shock(stopped, 10, gm_factors=stunner).points == 0
    assert before.shock(stopped, 10, gm_factors=stunner).points == 9


def test_v66_new_thrust_table() -> None:
    """V-66: ST 20 thrust: off G's 2d-1; on 2d."""
    assert OFF.thrust(20).text() == "2d-1"
    assert policy("new_st_damage").thrust(20).text() == "2d"


def test_v67_swing_is_thrust_of_one_and_a_half_st() -> None:
    """V-67: ST 10 swing: V-66 alone keeps G's 1d; with V-67 the thrust of ST 15 = 1d+2."""
    assert policy("new_st_damage").swing(10).text() == "1d"
    assert policy("new_st_damage", "new_swing_damage").swing(10).text() == "1d+2"


def test_v67_weapon_weight_limits_the_extra_dice() -> None:
    """V-67 / A-55: ST 1000: no weight given 150d; a 4-lb weapon: 100d + sqrt(4) = 2 dice = 102d."""
    on = policy("new_st_damage", "new_swing_damage")
    assert on.swing(1000).text() == "150d" and on.swing(1000, weapon_lb=4).text() == "102d"


def test_v68_attacks_not_powered_by_st_get_a_die_bonus() -> None:
    """V-68: a 3d fireball: with V-63 and V-66 alone nothing; with V-68 +3; muscle-powered never."""
    assert policy("new_toughness", "new_st_damage").non_st_bonus(3, st_powered=False) is None
    on = policy("new_toughness", "new_st_damage", "toughness_st_balance")
    bonus = on.non_st_bonus(3, st_powered=False)
    assert bonus is not None and (bonus.value, bonus.rule) == (3, "V-68")
    assert on.non_st_bonus(3, st_powered=True) is None
