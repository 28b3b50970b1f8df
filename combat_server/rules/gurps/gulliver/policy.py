"""The fight's GULLIVER policy: one frozen object built from the fight's options that
the GURPS modules call instead of testing option flags (issue #11).

Why a policy: the alternatives live in their own modules (damage_tables, damage,
blowthrough, shock, wounds, death, toughness, fatigue, light); the policy is the one
place that knows which of them this fight uses, so the rule modules ask "what is
the shock of this wound" and never "is V-18 on". With every option off each method
returns exactly what the gurps modules compute today (test_policy_off.py), citing
the same G rule; with an option on, the result cites its V id.

Numbers are ``int`` where the GURPS rule gives a whole number and ``Fraction`` only
where a GULLIVER option keeps a rational (V-03 damage, V-07 caps, V-15 thresholds,
V-53 fatigue)."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import attrs

from combat_server.rules.gurps import injury as inj
from combat_server.rules.gurps.gulliver import (blowthrough as bt, damage, damage_tables as tables, death, fatigue,
                                                light, shock as sh, toughness as tough, wounds)
from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.light import Eyes
from combat_server.rules.gurps.gulliver.locations import (DEFAULT_LOCATION, Location, location, location_for_roll,
                                                          location_dr, location_toughness, table)
from combat_server.rules.gurps.gulliver.locations import wound_multiplier as location_multiplier
from combat_server.rules.gurps.gulliver.options import SWITCHES
from combat_server.rules.gurps.gulliver.size import Scale, base_hp, combat_st, load_st, racial_iq, toughness
from combat_server.rules.gurps.rolls import Mod
from combat_server.rules.model import JSON

Number = Fraction | int
HUMAN = Scale()
TORSO = location("humanoid", DEFAULT_LOCATION)
TORSO_KINDS = ("torso", "vitals")  # G-46's "torso" (A-24)


@attrs.frozen
class Injury:
    """A wound's HP loss: ``before_toughness`` (G-42's injury) and ``hp`` (after V-63), with
    the multiplier used and what Toughness absorbed."""

    hp: Number
    before_toughness: Number
    multiplier: Fraction
    absorbed: Number = 0
    toughness: int = 0


@attrs.frozen
class Shock:
    """One blow's shock: ``points`` (V-17; G-47's HP lost when off), the DX/IQ ``penalty`` it adds
    (positive), and its consequences for this blow: stun, knockout, the stunned limb."""

    points: Fraction
    penalty: int
    stun: str = "none"  # none | roll | stunned (V-19)
    knockout: str = "none"  # none | roll | unconscious (V-22)
    limb: sh.LimbStun = sh.LimbStun(False)  # V-21
    rule: str = "G-47"
    factors: tuple[sh.Factor, ...] = ()  # V-11, V-17, V-20: each multiplier with its reason
    #: What the factors multiply, for the explanation: ``basis`` points of ``basis_of`` ("injury": the
    #: HP of the wound; V-11 / A-33 "taken" or "blow", the ``crippling_shock`` reading; V-64 (b)
    #: "before_toughness", less ``less`` after the factors), plus ``direct`` shock (V-17's stunners).
    basis: Fraction = Fraction(0)
    basis_of: str = "injury"
    less: int = 0
    direct: Fraction = Fraction(0)


@attrs.frozen
class Policy:
    """Every GULLIVER switch and reading of one fight (see options.py for their rule ids)."""

    hit_locations: bool = False
    combat_load_st: bool = False
    aoa_percent_damage: bool = False
    tiny_damage: bool = False
    split_hp: bool = False
    blowthrough: bool = False
    blowthrough_improved: bool = False
    blowthrough_modifiers: bool = False
    damage_shock: bool = False
    injury_slowdown: bool = False
    knockdown: bool = False
    crippled_limbs: bool = False
    amputation: bool = False
    neck_injury: bool = False
    shock_points: bool = False
    shock_penalty_bands: bool = False
    shock_stun: bool = False
    brain_shock: bool = False
    limb_stun: bool = False
    shock_knockout: bool = False
    shock_recovery: bool = False
    injury_knockout: bool = False
    proportional_death: bool = False
    heart_attack: bool = False
    light_levels: bool = False
    movement_fatigue: bool = False
    effort_heat_fatigue: bool = False
    fatigue_skill_penalty: bool = False
    encumbrance_fatigue: bool = False
    fatigue_on_st: bool = False
    fatigue_on_ht: bool = False
    finishing_blow: bool = False
    monster_ko_bonus: bool = False
    monster_ko_zone: bool = False
    monster_combined: bool = False
    new_toughness: bool = False
    location_toughness: bool = False
    new_st_damage: bool = False
    new_swing_damage: bool = False
    toughness_st_balance: bool = False
    stun_rule: str = "standard"
    crippling_shock: str = "applied"
    shock_penalty_cap: bool = False
    toughness_shock: str = "after"
    darkness_penalties: str = "vision_and_combat"
    fatigue_heat: str = "none"

    def in_force(self) -> list[str]:
        """The V ids of the switches this fight uses, in catalogue order (for its summary)."""
        return sorted(spec.rules[0] for spec in SWITCHES if getattr(self, spec.name))

    # ------------------------------------------------------------------ hit locations

    def where(self, scale: Scale = HUMAN, aimed: str | None = None, roll: int | None = None) -> Location:
        """The location a blow lands on: the aimed one, or the 3d roll's on the creature's own
        table (A-63); without hit locations, always the torso (A-24)."""
        if not self.hit_locations:
            return location(scale.body, DEFAULT_LOCATION)
        if aimed is not None:
            return location(scale.body, aimed)
        if roll is not None:
            return location_for_roll(scale.body, roll)
        return location(scale.body, DEFAULT_LOCATION)

    def aimable(self, scale: Scale = HUMAN) -> tuple[Location, ...]:
        """The locations an attacker may aim at on this creature (its body's table, A-63); none
        without hit locations (A-24: every blow to the torso)."""
        return tuple(table(scale.body).values()) if self.hit_locations else ()

    def rolls_location(self, aimed: str | None) -> bool:
        """A hit not aimed at a location rolls 3d on the table for where it lands (with hit locations)."""
        return self.hit_locations and aimed is None

    def aim_penalty(self, target: Location) -> int:
        """The to-hit penalty of aiming at a location (0 for the torso, or without hit locations)."""
        return target.penalty if self.hit_locations else 0

    def location_dr(self, target: Location, torso_dr: int, dr_locations: Mapping[str, int]) -> int:
        """DR where the blow lands (the sheet's ``dr_locations``, natural skull DR); the sheet's DR without locations."""
        return location_dr(target, dr_locations, torso_dr) if self.hit_locations else torso_dr

    # ------------------------------------------------------------------ ST and damage (V-01..V-04, V-66..V-68)

    def damage_st(self, st: int, scale: Scale = HUMAN) -> int:
        """V-01: blows use Combat ST; off, the sheet's ST."""
        return combat_st(scale, st) if self.combat_load_st else st

    def lift_st(self, st: int, scale: Scale = HUMAN) -> int:
        """V-01: lifting and throwing a foe use Load ST; off, the sheet's ST."""
        return load_st(scale, st) if self.combat_load_st else st

    def thrust(self, st: int, scale: Scale = HUMAN) -> tables.DamageRoll:
        """Thrust for this ST: G's table, V-66's, and V-03's scaling below ST 10."""
        st = self.damage_st(st, scale)
        roll = tables.new_thrust(st) if self.new_st_damage else tables.standard(st)[0]
        if self.tiny_damage and st < 10:
            return tables.low_st(self.thrust(10), st)
        return roll

    def swing(self, st: int, scale: Scale = HUMAN, weapon_lb: float = 0) -> tables.DamageRoll:
        """Swing for this ST: G's table (also under V-66 alone), V-67's thrust of ST x 1.5
        (weight-limited), V-03 below ST 10."""
        st = self.damage_st(st, scale)
        if self.tiny_damage and st < 10:
            return tables.low_st(self.swing(10, HUMAN, weapon_lb), st)
        if self.new_swing_damage:
            return tables.new_swing(st, weapon_lb)
        return tables.standard(st)[1]  # V-66 alone changes thrust only; swing stays G's

    def damage_table_rule(self, formula: str) -> str | None:
        """The GULLIVER rule that gave a thr/sw weapon its dice (V-66 thrust, V-67 swing), None
        when G's table did (fixed dice, or the option off: V-66 alone leaves swing to G's)."""
        if formula.startswith("thr") and self.new_st_damage:
            return "V-66"
        if formula.startswith("sw") and self.new_swing_damage:
            return "V-67"
        return None

    def keeps_fractions(self, target_hp_max: Number) -> bool:
        """V-03: fractional damage counts against targets under 10 HP when the option is on."""
        return self.tiny_damage and target_hp_max < 10

    def blow_damage(self, rolled: int, roll: tables.DamageRoll, target_hp_max: int) -> Fraction:
        """The damage a rolled total does: V-03's scale (fractions kept against targets under 10 HP);
        off, G-42's max(0, total)."""
        return tables.scaled_total(rolled, roll, target_hp_max)

    def aoa_strong_bonus(self, rolled: int, dice: int) -> Mod:
        """G-22's +2 or +1 per die; V-02 / R-09: +33% of the roll, rounded up, instead."""
        return damage.aoa_strong_percent(rolled) if self.aoa_percent_damage else damage.aoa_strong_standard(dice)

    def non_st_bonus(self, dice: int, st_powered: bool) -> Mod | None:
        """V-68: +1 per die on attacks not powered by ST; off or for muscle, nothing."""
        return None if st_powered or not self.toughness_st_balance else damage.non_st_bonus(dice)

    def split_factor(self, scale: Scale, hp_max: int, where: Location = TORSO) -> Fraction:
        """V-04: damage to the non-base half x base HP / its HP; x1 elsewhere or when off."""
        if not self.split_hp or scale.other_half_hp is None or where.name not in scale.other_half_locations:
            return Fraction(1)
        return damage.split_hp_factor(hp_max, scale.other_half_hp)

    def finishing(self, helpless: bool) -> bool:
        """V-59: a blow on a helpless foe is a finishing blow (maximum damage); never when off."""
        return self.finishing_blow and helpless

    def finishing_damage(self, dice: int, adds: int) -> int | None:
        """V-59: a killing blow on a helpless foe may do maximum damage; None when off."""
        return damage.maximum_damage(dice, adds) if self.finishing_blow else None

    # ------------------------------------------------------------------ wounding (G-42, V-63, V-64, V-05..V-07)

    def injury(self, penetrating: Number, damage_type: str, *, basic_set: bool = False,
               where: Location | None = None, st: int = 10, scale: Scale = HUMAN, exact: bool = False) -> Injury:
        """G-42 / A-20: floor(penetrating x multiplier), at least 1 (``exact``: V-03's fraction kept);
        with a location its multiplier (A-24); V-63: less Toughness, never more than the
        penetrating hits; V-64: location Toughness."""
        if where is None:
            mult = inj.wound_multiplier(damage_type, basic_set)
        else:
            mult = location_multiplier(where, damage_type, basic_set)
        t = self.toughness(st, scale, where)
        soaked = tough.wound(penetrating, mult, t, damage_type, exact)
        return Injury(soaked.after, soaked.before, mult, soaked.absorbed, t)

    def toughness(self, st: int, scale: Scale = HUMAN, where: Location | None = None) -> int:
        """V-63: floor(Combat ST / 5) (+ bought levels); V-64: by location. 0 when off."""
        if not self.new_toughness:
            return 0
        t = toughness(scale, st)
        return location_toughness(where, t) if self.location_toughness and where is not None else t

    def toughness_rule(self, where: Location) -> str:
        """The rule that set a wound's Toughness: V-64 where the location changes it, else V-63."""
        return "V-64" if self.location_toughness and where.toughness != 1 else "V-63"

    def blowthrough_cap(self, projectile: bt.Projectile, hp_max: int, scale: Scale = HUMAN,
                        where: Location = TORSO) -> Fraction | None:
        """V-05 / V-06 / V-07: the most injury this wound can do; None (no cap) when off."""
        if not self.blowthrough or not bt.applies(projectile, self.blowthrough_modifiers):
            return None
        base = bt.base_cap(base_hp(scale, hp_max), scale.linear_scale, self.blowthrough_improved)
        return bt.cap(base, where, projectile, self.blowthrough_modifiers)

    def blowthrough_rule(self) -> str:
        """The rule a capped wound cites: V-07 with the modifiers, else V-06's cap or V-05's."""
        return "V-07" if self.blowthrough_modifiers else "V-06" if self.blowthrough_improved else "V-05"

    def blowthrough_factors(self, projectile: bt.Projectile, where: Location = TORSO) -> list[tuple[Fraction, str]]:
        """V-07: the factors on the base cap here, each with its reason (none without V-07, or in the brain)."""
        if not self.blowthrough_modifiers or where.blowthrough is None:
            return []
        return bt.factors(where, projectile)

    # ------------------------------------------------------------------ shock (G-47, V-08, V-17..V-24)

    def deals_shock_directly(self) -> bool:
        """V-17: stun weapons deal shock points directly; G-47 has no such weapons (a stunner
        cannot be used without the option)."""
        return self.shock_points

    def shock(self, injury: Injury, hp_max: Number, *, where: Location = TORSO, maiming: wounds.Maiming | None = None,
              gm_factors: tuple[sh.Factor, ...] = (), direct: Number = 0, high_pain_threshold: bool = False) -> Shock:
        """One blow's shock. Off: G-47 / A-25, the penalty from the HP lost (none with High Pain
        Threshold). V-11 / A-33: a crippling blow's shock is doubled, counted from the HP it took (or
        the whole blow). V-17: points = injury x GM factors (A-28) + shock dealt directly (a stunner's
        dice); V-20: x2 in the brain; V-64: Toughness's basis; V-18's bands; V-19 stun, V-21 limb,
        V-22 knockout judged on the points."""
        factors: list[sh.Factor] = []
        if maiming is not None and maiming.crippled:
            factors.append(sh.Factor(Fraction(sh.CRIPPLING_FACTOR), "crippling or amputation", "V-11"))
        if self.brain_shock and where.kind in sh.BRAIN_KINDS:
            factors.append(sh.Factor(Fraction(sh.BRAIN_FACTOR), "brain hit", "V-20"))
        if self.shock_points:
            factors.extend(gm_factors)
        extra = Fraction(direct) if self.shock_points else Fraction(0)
        less = 0
        if maiming is not None and maiming.crippled:
            basis, basis_of = Fraction(maiming.shock_basis), "blow" if self.crippling_shock == "full_blow" else "taken"
            points = sh.shock_points(basis + extra, tuple(factors))
        else:
            multiple = sh.shock_points(1, tuple(factors))
            before = self.toughness_shock == "before"
            points = tough.shock_basis(injury.before_toughness + extra, injury.hp + extra, injury.toughness,
                                       before, multiple)
            if before and injury.toughness:  # V-64 (b): from the wound before Toughness, less Toughness
                basis, basis_of, less = Fraction(injury.before_toughness), "before_toughness", injury.toughness
            else:
                basis, basis_of = Fraction(injury.hp), "injury"
        if high_pain_threshold:
            penalty = 0
        elif self.shock_penalty_bands:
            penalty = sh.band_penalty(points, hp_max)
        else:
            penalty = inj.shock(int(points), int(hp_max))
        if not self.damage_shock:
            return Shock(points, penalty, factors=tuple(factors), basis=basis, basis_of=basis_of, less=less,
                         direct=extra)
        return Shock(
            points, penalty,
            stun=sh.stun(points, hp_max, self.stun_rule) if self.shock_stun else "none",
            knockout=sh.knockout(points, hp_max) if self.shock_knockout else "none",
            limb=sh.limb_stun(points, where, hp_max) if self.limb_stun else sh.LimbStun(False),
            rule="V-18" if self.shock_penalty_bands else "G-47", factors=tuple(factors),
            basis=basis, basis_of=basis_of, less=less, direct=extra,
        )

    def shock_rule(self) -> str:
        """The rule of the shock penalty: G-47, or V-18's bands (A-37, A-38)."""
        return "V-18" if self.shock_penalty_bands else "G-47"

    def pending_shock(self, pending: int, added: int) -> int:
        """G-47 / A-25: penalties of several injuries add up, capped at 4; V-18 / A-37: no cap
        (unless the fight keeps it)."""
        if self.shock_penalty_bands and not self.shock_penalty_cap:
            return pending + added
        return min(inj.SHOCK_CAP, pending + added)

    def shock_after_turn(self, penalty: int, success: bool = False, margin: int = 0) -> int:
        """G-47: the penalty lasts one turn (0 after it). V-24 / R-10: it drops by the HT roll's
        margin of success and stays on a failure."""
        return sh.recover(penalty, success, margin) if self.shock_recovery else 0

    def shock_roll_mods(self, will: int, iq: int) -> list[Mod]:
        """V-08: Strong or Weak Will on HT rolls against shock effects; nothing when off."""
        m = sh.will_mod(will, iq) if self.damage_shock else None
        return [m] if m is not None else []

    # ------------------------------------------------------------------ heavy blows (G-43, G-46, V-09..V-13, V-44)

    def slowed(self, hp: Number, hp_max: Number) -> tuple[bool, str]:
        """G-43 (derived.reeling) or V-09: below HPmax/3 (A-31)."""
        return wounds.slowed(hp, hp_max), "V-09" if self.injury_slowdown else "G-43"

    def major_wound_roll(self, injury: Number, hp_max: Number, where: Location = TORSO) -> str | None:
        """The rule of the HT roll a heavy blow calls for, None for no roll. G-46 / A-24: a torso
        wound over HPmax/2; V-10 / A-32: a blow over HPmax/2 anywhere (a knockdown roll)."""
        if not wounds.heavy_blow(injury, hp_max):
            return None
        if self.knockdown:
            return "V-10"
        return "G-46" if self.major_wound_at(where) else None

    def major_wound_at(self, where: Location) -> bool:
        """Whether a heavy blow here calls for G-46's HT roll: the torso (and vitals) only (A-24),
        anywhere with V-10's knockdown."""
        return self.knockdown or where.kind in TORSO_KINDS

    def major_wound_effect(self, outcome: str, margin: int, where: Location = TORSO) -> str:
        """What a failed roll does. G-46 / A-24 (checks._major_wound): fail by 1-4 stunned and
        knocked down, 5+ or a critical failure unconscious. V-10 off the torso (no G-46 roll there):
        knocked down. R-08: with V-10 and V-19 on, any failure knocks down only."""
        failed = outcome in ("failure", "critical failure")
        if self.knockdown and (self.shock_stun or where.kind not in TORSO_KINDS):
            return sh.knockdown_only(failed)
        if not failed:
            return "none"
        if outcome == "critical failure" or -margin >= 5:
            return "unconscious"
        return "stunned_knockdown"

    def maim(self, blow: Number, where: Location, hp_max: Number, damage_type: str) -> wounds.Maiming:
        """V-11 .. V-13 for one blow; off (or the torso), nothing is crippled and all of it is taken."""
        if not self.crippled_limbs:
            return wounds.Maiming(False, blow, blow)
        return wounds.maim(blow, where, hp_max, damage_type, amputation=self.amputation, neck=self.neck_injury,
                           full_blow_shock=self.crippling_shock == "full_blow")

    def heart_roll(self, blow: Number, hp_max: Number, where: Location) -> int | None:
        """V-44: the HT modifier of the heart-attack roll a heart wound calls for; None: no roll."""
        if not self.heart_attack or not where.heart:
            return None
        return wounds.heart_roll_modifier(blow, hp_max)

    def heart_attack_damage(self, kind: str, scale: Scale = HUMAN) -> tables.DamageRoll | None:
        """V-44: a minor heart attack does 2d x LS, a major one 6d x LS; None for none or fatal."""
        dice = wounds.HEART_ATTACK_DICE.get(kind)
        return None if dice is None else tables.DamageRoll(dice, 0, scale.linear_scale)

    def twist_ignores_dr(self, past_skull_dr: bool) -> bool:
        """V-59: once a finishing blow is past the skull's DR, follow-up twists may ignore DR."""
        return self.finishing_blow and past_skull_dr

    # ------------------------------------------------------------------ knockout and death (G-44, G-45, V-14, V-15, V-60..V-62)

    def is_monster(self, scale: Scale) -> bool:
        """V-60 / V-61 apply to non-PC races; V-62 also to a PC race with the low-IQ trait."""
        return scale.non_pc_race or (self.monster_combined and scale.low_iq_trait)

    def death_checks(self, new_hp: Number, hp_max: Number, already: int, *, iq: int = 10,
                     scale: Scale = HUMAN) -> tuple[list[int], bool]:
        """G-45 / A-23 (injury.death_thresholds): every -HPmax, dead at -5x. V-15: every
        -HPmax/2 from -HPmax. V-61 / A-52: a monster's thresholds x IQ/10."""
        return death.crossed(new_hp, hp_max, already, self.proportional_death, self.death_zone(iq=iq, scale=scale))

    def death_zone(self, *, iq: int = 10, scale: Scale = HUMAN) -> Fraction:
        """V-61 / A-52: a low-IQ monster's below-zero HP scale, racial IQ/10 (1 when off, for a
        creature that is no monster, or at racial IQ 10 or more)."""
        if (self.monster_ko_zone or self.monster_combined) and self.is_monster(scale):
            return death.zone(racial_iq(scale, iq))
        return Fraction(1)

    def monster_rule(self, alone: str) -> str:
        """The rule a monster effect cites: V-60 or V-61 (``alone``) when that option is on, else V-62
        (the combined approach, which also covers a PC race with the low-IQ trait)."""
        on = self.monster_ko_bonus if alone == "V-60" else self.monster_ko_zone
        return alone if on and not self.monster_combined else "V-62"

    def death_multiple(self, k: int, zone: Fraction = Fraction(1)) -> Fraction:
        """The k-th death check's threshold, as a multiple of -HPmax (G-45: k; V-15: (k + 1) / 2),
        times V-61's zone."""
        return death.multiple(k, self.proportional_death) * zone

    def death_rule(self) -> str:
        return "V-15" if self.proportional_death else "G-45"

    def consciousness_rule(self) -> str:
        """G-44 or V-14 (the same roll, while HP <= 0)."""
        return "V-14" if self.injury_knockout else "G-44"

    def consciousness_mods(self, *, iq: int = 10, scale: Scale = HUMAN) -> list[Mod]:
        """V-60: +1 per point of racial IQ below 10 for a monster; nothing when off."""
        if not (self.monster_ko_bonus or self.monster_combined) or not self.is_monster(scale):
            return []
        m = death.consciousness_bonus(racial_iq(scale, iq))
        return [attrs.evolve(m, rule=self.monster_rule("V-60"))] if m is not None else []

    def stays_up(self, scale: Scale = HUMAN) -> bool:
        """V-60: a monster that passes its roll to stay conscious stays up until fresh injury of
        HPmax/10 or more (no roll each turn); False when off or for a creature that is no monster."""
        return (self.monster_ko_bonus or self.monster_combined) and self.is_monster(scale)

    def consciousness_roll_due(self, hp: Number, *, passed_before: bool = False, fresh_injury: Number = 0,
                               hp_max: Number = 10, scale: Scale = HUMAN) -> bool:
        """G-44 / V-14: a roll each turn at HP <= 0. V-60: a monster that passed stays up until
        fresh injury of HPmax/10 or more."""
        if hp > 0:
            return False
        if passed_before and (self.monster_ko_bonus or self.monster_combined) and self.is_monster(scale):
            return death.fresh_roll_due(fresh_injury, hp_max)
        return True

    # ------------------------------------------------------------------ fatigue (G-51, V-47..V-54)

    def fatigue_basis(self) -> str:
        """The rule fatigue is kept by: G-51 (FP), V-53 (Combat ST) or V-54 (HT)."""
        return "V-53" if self.fatigue_on_st else "V-54" if self.fatigue_on_ht else "G-51"

    def fatigue_max(self, fp_max: int, st: int, ht: int, scale: Scale = HUMAN) -> int:
        """G-51: the sheet's FPmax. V-53: Combat ST; V-54: HT; under either, the Extra or Reduced
        Fatigue the sheet bought (its FPmax - HT) still counts (the seed's ST 20 with Fatigue 24),
        at least 1."""
        if self.fatigue_on_st:
            return max(1, combat_st(scale, st) + fp_max - ht)
        return fp_max

    def fatigue_state(self, level: Number, fatigue_max: int, st: int = 10,
                      scale: Scale = HUMAN) -> fatigue.FatigueState:
        """G-51's thresholds (derived.tired, the Will roll at 0, out at -FPmax) or V-53's or V-54's."""
        if self.fatigue_on_st:
            return fatigue.st_basis_state(level, combat_st(scale, st))
        if self.fatigue_on_ht:
            return fatigue.ht_basis_state(level)
        return fatigue.g51_state(level, fatigue_max)

    def fatigue_cost(self, points: int, *, st: int = 10, scale: Scale = HUMAN, encumbrance: int = 0,
                     heat: str = "", ht_success: bool = False, margin: int = 0, exertion: bool = True,
                     loaded: bool = True) -> Fraction:
        """G-51: points as spent. V-48 heat +1/+2 on any fatigue; on physical ``exertion`` only: V-52 x
        the encumbrance factor (unless the cost is ``loaded`` already: V-52's own standing cost) and
        V-53's x Combat ST/10; then V-53's HT roll on any fatigue (A-50)."""
        return self.fatigue_charge(points, st=st, scale=scale, encumbrance=encumbrance, heat=heat,
                                   ht_success=ht_success, margin=margin, exertion=exertion, loaded=loaded)[0]

    def fatigue_charge(self, points: int, *, st: int = 10, scale: Scale = HUMAN, encumbrance: int = 0,
                       heat: str = "", ht_success: bool = False, margin: int = 0, exertion: bool = True,
                       loaded: bool = True) -> tuple[Fraction, tuple[tuple[str, str], ...]]:
        """``fatigue_cost`` with its steps, each (what it did, rule), for the log; no steps under G-51."""
        cost = Fraction(points)
        steps: list[tuple[str, str]] = []
        surcharge = fatigue.heat_surcharge(heat if heat else self.fatigue_heat) if self.effort_heat_fatigue else 0
        if surcharge:
            cost += surcharge
            steps.append((f"+{surcharge} for {(heat or self.fatigue_heat).replace('_', ' ')} conditions", "V-48"))
        if self.encumbrance_fatigue and exertion and loaded and fatigue.encumbrance_factor(encumbrance) != 1:
            factor = fatigue.encumbrance_factor(encumbrance)
            cost *= factor
            steps.append((f"x{exact_text(factor)} for {fatigue.LOAD_NAMES[encumbrance]} encumbrance", "V-52"))
        if self.fatigue_on_st:
            if exertion:  # the energy rule is for exertion; the HT roll is for every fatigue
                cost *= Fraction(combat_st(scale, st), 10)
                steps.append((f"x Combat ST {combat_st(scale, st)}/10", "V-53"))
            factor = fatigue.ht_roll_factor(ht_success, margin)
            cost *= factor
            how = f"succeeded by {margin}" if ht_success else f"failed by {-margin}"
            steps.append((f"x{exact_text(factor)}: the HT roll {how}", "V-53"))
        return cost, tuple(steps)

    def fatigue_roll_due(self) -> bool:
        """V-53: a HT roll each time fatigue is applied (its margin goes to fatigue_cost); none otherwise."""
        return self.fatigue_on_st

    def spend_fatigue(self, level: Number, fatigue_max: int, cost: Number) -> tuple[Fraction, int]:
        """The Fatigue left and the HP lost: G-51 / A-26 (HP for fatigue lost at 0 or below, floor at
        -FPmax); V-53 / V-54 (A-51): Fatigue stops at 0, the rest comes off HP."""
        if self.fatigue_on_st or self.fatigue_on_ht:
            return fatigue.basis_spend(level, cost)
        return fatigue.g51_spend(level, fatigue_max, cost)

    def fatigued_st(self, st: int, level: Number, fatigue_max: int, scale: Scale = HUMAN) -> int:
        """ST as fatigue leaves it. G-51: halved (rounded up) below FPmax/3. V-53 / V-54: Combat ST falls
        in the same proportion as Fatigue (rounded down, at least 1)."""
        if self.fatigue_on_st or self.fatigue_on_ht:
            return fatigue.floor_st(fatigue.st_left(combat_st(scale, st), level, fatigue_max))
        return -((-st) // 2) if self.fatigue_state(level, fatigue_max).halved else st

    def fatigue_dx_iq_penalty(self, level: Number, fatigue_max: int) -> int:
        """V-50: -1/-2/-3 DX and IQ at 2/3, 1/2, 1/3 of full fatigue; G-51 has none (0)."""
        return fatigue.skill_penalty(level, fatigue_max) if self.fatigue_skill_penalty else 0

    def movement_pace(self, moved: Number, move: int) -> fatigue.Pace | None:
        """V-47: the pace and its seconds per fatigue point; None when off (G-10 is the GM's)."""
        return fatigue.movement_pace(moved, move) if self.movement_fatigue else None

    def standing_fatigue(self, load: int) -> int:
        """V-52: standing still costs nothing, except 1 a turn under a Super-Heavy load; 0 when off."""
        return fatigue.standing_cost(load) if self.encumbrance_fatigue else 0

    def extra_effort_cost(self) -> int:
        """V-48: 1 fatigue a turn of Extra Effort; 0 when off (no Extra Effort rule in the core)."""
        return fatigue.EXTRA_EFFORT_PER_TURN if self.effort_heat_fatigue else 0

    # ------------------------------------------------------------------ light (V-46)

    def light(self, level: str, eyes: Eyes = Eyes()) -> light.Light:
        """V-46: what the light does to this viewer; off, nothing (the GM's modifiers, G-35)."""
        return light.seen_level(level, eyes) if self.light_levels else light.Light(level)

    def sight_penalty(self, level: str, eyes: Eyes = Eyes()) -> int:
        """V-46 / A-47: the darkness penalty on an attack or active defence that needs sight
        (0 when the fight counts darkness on Vision rolls only, or without light levels)."""
        if self.darkness_penalties != "vision_and_combat":
            return 0
        return light.penalties(self.light(level, eyes)).darkness

    def light_skill_mod(self, level: str, eyes: Eyes = Eyes()) -> Mod | None:
        """V-46: glare's DX and IQ penalty (very bright -1 ... near-blinding -4), on the skill rolls
        the fight makes with them (attacks, feints: as G-47's shock and V-50's fatigue); None without
        light levels or when the level costs no DX."""
        seen = self.light(level, eyes)
        value = light.penalties(seen).dx_iq if self.light_levels else 0
        return Mod(value, f"light {_seen_text(level, seen)}: DX and IQ {value}", "V-46") if value else None

    def darkness_mod(self, level: str, eyes: Eyes = Eyes()) -> Mod | None:
        """V-46 / A-47: the darkness penalty on an attack or active defence that needs sight (dim -1 ...
        very dark -8); None with ``darkness_penalties`` vision_only, without light levels, or when
        the level is not dark for this viewer."""
        value = self.sight_penalty(level, eyes)
        seen = self.light(level, eyes)
        return Mod(value, f"darkness {_seen_text(level, seen)}", "V-46, A-47") if value else None

    def vision_mod(self, level: str, eyes: Eyes = Eyes()) -> Mod | None:
        """V-46: a Vision roll's penalty at this light: glare's Vision penalty and the darkness penalty
        (A-47: darkness always counts on Vision, whichever reading); None when there is none."""
        if not self.light_levels:
            return None
        seen = self.light(level, eyes)
        numbers = light.penalties(seen)
        value = numbers.vision + numbers.darkness
        return Mod(value, f"light {_seen_text(level, seen)}: Vision", "V-46") if value else None


def _seen_text(level: str, seen: light.Light) -> str:
    """How a roll's modifier names the light: the level, the one this viewer sees when its eyes shift
    it, and "blind" at either end of the table (V-46)."""
    text = level if seen.name == level else f"{level}, seen as {seen.name}"
    return f"{text} (blind)" if seen.blind else text

#: Every option off: GURPS as the core plays it (the default for callers outside a decision).
OFF = Policy()

#: The option names the policy reads (tests/gurps/gulliver/test_options.py: every GULLIVER option).
FIELDS = frozenset(f.name for f in attrs.fields(Policy))


def policy_for(options: Mapping[str, JSON]) -> Policy:
    """The policy of a fight from its validated options (names it does not know are the
    gurps ruleset's own, ignored here)."""
    return Policy(**{k: v for k, v in options.items() if k in FIELDS})


_BUILT: dict[int, tuple[Mapping[str, JSON], Policy]] = {}


def fight_policy(options: Mapping[str, JSON]) -> Policy:
    """``policy_for``, memoised per options object: a fight's states share one options mapping,
    and views and descriptions are asked for after every event (the hot path, docs/benchmarks.md)."""
    hit = _BUILT.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    built = policy_for(options)
    if len(_BUILT) > 1024:
        _BUILT.clear()
    _BUILT[id(options)] = (options, built)
    return built
