"""One blow, from the rolled damage to everything it causes, under a fight's policy:
where it lands, DR, wounding, Toughness, blowthrough, split HP, crippling, shock, and
the rolls and effects that follow, each step with its value, reason and rule id.

Why one pipeline: the order matters (V-07: the cap applies after wounding and location
multipliers; V-17: shock is the injury after all of them; V-11: the excess of a
crippling blow is lost after that) and every option plugs into one step of it, so the
wiring step emits events from an ``Outcome`` instead of re-deriving the order. With
every option off it gives what ``attacks.roll_damage`` and ``apply_injury`` compute today
(tests/gurps/gulliver/test_blow.py)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

import attrs

from combat_server.rules.gurps.gulliver import damage_tables as tables
from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.blowthrough import Projectile, capped_injury
from combat_server.rules.gurps.gulliver.locations import Location
from combat_server.rules.gurps.gulliver.options import cite
from combat_server.rules.gurps.gulliver.policy import HUMAN, Injury, Policy, Shock
from combat_server.rules.gurps.gulliver.shock import Factor
from combat_server.rules.gurps.gulliver.size import Scale
from combat_server.rules.gurps.gulliver.wounds import Maiming
from combat_server.rules.gurps.rolls import Mod

Number = Fraction | int


@attrs.frozen
class Step:
    """One step of the blow for its explanation; ``value`` is its result as text: the location,
    or an exact number (a whole number or "p/q")."""

    value: str
    reason: str
    rule: str


@attrs.frozen
class Due:
    """A roll the blow calls for: what it decides, its rule, its modifiers."""

    what: str
    rule: str
    modifiers: tuple[Mod, ...] = ()


@attrs.frozen
class Effect:
    """Something the blow does outright, with its rule."""

    what: str
    rule: str


@attrs.frozen
class Target:
    """What the blow needs to know about its victim."""

    hp_max: int
    hp: Number
    st: int = 10
    iq: int = 10
    will: int = 10
    dr: int = 0
    dr_locations: Mapping[str, int] = attrs.field(factory=dict)
    death_checks: int = 0
    scale: Scale = HUMAN
    high_pain_threshold: bool = False


@attrs.frozen
class Hit:
    """The attack's side: the rolled total (dice + adds), the roll it came from, its type and
    what the options look at (AOA Strong, muscle power, the projectile, the location)."""

    rolled: int
    roll: tables.DamageRoll
    damage_type: str
    aoa_strong: bool = False
    st_powered: bool = True
    beam: bool = False
    large_calibre: bool = False
    hollow_point: bool = False
    aimed: str | None = None
    location_roll: int | None = None
    basic_set: bool = False
    gm_shock: tuple[Factor, ...] = ()
    direct_shock: int = 0
    past_skull_dr: bool = False  # V-59: a follow-up twist of a finishing blow
    half_damage: bool = False  # at or beyond the weapon's 1/2D range


@attrs.frozen
class Outcome:
    location: Location
    mods: tuple[Mod, ...]
    basic: Fraction
    dr: int
    penetrating: Fraction
    injury: Injury
    hp_lost: Number
    maiming: Maiming
    shock: Shock
    death_checks: tuple[int, ...]
    rolls: tuple[Due, ...]
    effects: tuple[Effect, ...]
    steps: tuple[Step, ...]




def resolve(p: Policy, hit: Hit, target: Target) -> Outcome:
    """The blow's whole path; see the module docstring for why in this order."""
    steps: list[Step] = []
    scale = target.scale
    where = p.where(scale, hit.aimed, hit.location_roll)
    steps.append(Step(where.name, "hit location", "A-24" if not p.hit_locations else "A-63"))
    mods: list[Mod] = []
    if hit.aoa_strong:
        mods.append(p.aoa_strong_bonus(hit.rolled, hit.roll.dice))
    bonus = p.non_st_bonus(hit.roll.dice, hit.st_powered)
    if bonus is not None:
        mods.append(bonus)
    basic = p.blow_damage(hit.rolled + sum(m.value for m in mods), hit.roll, target.hp_max)
    steps.append(Step(exact_text(basic), f"damage {hit.roll.text()}" + "".join(f" {m.value:+d} ({m.reason})" for m in mods),
                      "V-03" if hit.roll.scale != 1 else "G-42"))
    exact = p.keeps_fractions(target.hp_max)
    if hit.half_damage:
        basic = basic / 2 if exact else Fraction(math.floor(basic / 2))
        steps.append(Step(exact_text(basic), "halved at 1/2D range or beyond", "A-17"))
    twist = p.twist_ignores_dr(hit.past_skull_dr)
    dr = 0 if twist else p.location_dr(where, target.dr, target.dr_locations)
    penetrating = max(Fraction(0), basic - dr)
    steps.append(Step(exact_text(penetrating), "a twist past the skull ignores DR" if twist else f"less DR {dr}",
                      "V-59" if twist else "G-42"))
    injury = p.injury(penetrating, hit.damage_type, basic_set=hit.basic_set, where=where, st=target.st, scale=scale,
                      exact=exact)
    steps.append(Step(exact_text(injury.before_toughness), f"x{exact_text(injury.multiplier)} {hit.damage_type} at the {where.name}",
                      "G-42"))
    if injury.absorbed:
        steps.append(Step(exact_text(injury.hp), f"less Toughness {injury.absorbed} of {injury.toughness}", "V-63"))
    wound: Number = injury.hp
    cap = p.blowthrough_cap(Projectile(hit.damage_type, hit.beam, hit.large_calibre, hit.hollow_point),
                            target.hp_max, scale, where)
    if cap is not None and wound > cap:
        wound = capped_injury(wound, cap)
        steps.append(Step(exact_text(wound), f"blowthrough cap {exact_text(cap)}", p.blowthrough_rule()))
    split = p.split_factor(scale, target.hp_max, where)
    if split != 1:
        wound = wound * split if exact else math.floor(wound * split)
        steps.append(Step(exact_text(wound), f"x{exact_text(split)} on the other body half", "V-04"))
    maiming = p.maim(wound, where, target.hp_max, hit.damage_type)
    if maiming.crippled:
        steps.append(Step(exact_text(maiming.taken), f"{where.name} crippled: the excess is lost",
                          "V-13" if maiming.neck else "V-11"))
    shock = p.shock(attrs.evolve(injury, hp=wound), target.hp_max, where=where, maiming=maiming,
                    gm_factors=hit.gm_shock, direct=hit.direct_shock, high_pain_threshold=target.high_pain_threshold)
    hp_after = target.hp - maiming.taken
    crossed, dead = p.death_checks(hp_after, target.hp_max, target.death_checks, iq=target.iq, scale=scale)
    rolls, effects = _consequences(p, target, where, wound, maiming, shock, hit.damage_type)
    if dead:
        effects.append(Effect("dead", cite(p.death_rule())))
    else:
        rolls.extend(Due(f"death check {k}", cite(p.death_rule())) for k in crossed)
    return Outcome(where, tuple(mods), basic, dr, penetrating, injury, maiming.taken, maiming, shock, tuple(crossed),
                   tuple(rolls), tuple(effects), tuple(steps))


def _consequences(p: Policy, target: Target, where: Location, wound: Number, maiming: Maiming, shock: Shock,
                  damage_type: str) -> tuple[list[Due], list[Effect]]:
    """The rolls and outright effects of one blow, in the order a table would resolve them."""
    severed = ("beheaded" if damage_type == "cut" else "neck broken") if maiming.neck else f"{where.name} severed"
    rolls: list[Due] = []
    effects: list[Effect] = []
    shock_mods = tuple(p.shock_roll_mods(target.will, target.iq))
    stay_up = tuple(p.consciousness_mods(iq=target.iq, scale=target.scale))
    major = p.major_wound_roll(wound, target.hp_max, where)
    if major is not None:
        rolls.append(Due("major wound" if major == "G-46" else "knockdown", cite(major)))
    if maiming.crippled:
        effects.append(Effect("paralysed" if maiming.neck else f"{where.name} crippled",
                              "V-13" if maiming.neck else "V-11"))
    if maiming.severing == "roll":
        rolls.append(Due(severed, maiming.rule))
    elif maiming.severing == "automatic":
        effects.append(Effect(severed, maiming.rule))
        if maiming.fatal:
            effects.append(Effect("dead", maiming.rule))
    heart = p.heart_roll(wound, target.hp_max, where)
    if heart is not None:
        rolls.append(Due("heart attack", "V-44", (Mod(heart, "heart wound", "V-44"),) if heart else ()))
    if shock.stun == "stunned":
        effects.append(Effect("stunned", "V-19"))
    elif shock.stun == "roll":
        rolls.append(Due("stun", "V-19", shock_mods))
    if shock.knockout == "unconscious":
        effects.append(Effect("unconscious", "V-22"))
    elif shock.knockout == "roll":
        rolls.append(Due("knockout", "V-22", shock_mods + stay_up))
    if shock.limb.stunned:
        effects.append(Effect(f"{where.name} stunned: drops what it holds", "V-21"))
        if shock.limb.grip_roll:
            rolls.append(Due(f"grip ({where.name})", "R-11", shock_mods))
    return rolls, effects
