"""GURPS live state: a combatant's condition and the fight's combat sequence."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Mapping

import attrs

from combat_server.rules.gurps.tables import POSTURES
from combat_server.rules.model import (ADJUSTABLE_TO, KEPT_BY_RULES, Combatant, FightState, combatant_or_none,
                                       names_or_none)

#: G-28, G-18: what stunned a combatant ("": not stunned); G-24: the defence All-Out Defense raises.
STUN_KINDS = ("", "physical", "mental", "fright")
AOD_DEFENSES = ("", "dodge", "parry", "block")


def _maneuvers() -> Any:
    from combat_server.rules.gurps.maneuvers import MANEUVERS  # it imports this module: read when first adjusted
    return MANEUVERS


def _wait_actions() -> Any:
    from combat_server.rules.gurps.maneuvers import WAIT_ACTIONS
    return WAIT_ACTIONS


#: G-20: the maneuvers (``Condition.maneuver``), or "" (none chosen).
maneuver_names = names_or_none(_maneuvers)
#: G-22, G-24: any maneuver's option, or "" (none).
maneuver_options = names_or_none(lambda: (o for _, options in _maneuvers().values() for o in options))
#: G-34: the All-Out Attack option a Wait declares, or "" (none).
aoa_options = names_or_none(lambda: _maneuvers()["all_out_attack"][1])
#: G-34: what a Wait converts to, or "" (no Wait).
wait_actions = names_or_none(_wait_actions)


def weapon_or_none(state: FightState, combatant: Combatant) -> tuple[str, ...]:
    """A weapon of this combatant's sheet (the implicit punch too), or "" (none)."""
    return ("", *(w.name for w in combatant.sheet.all_weapons()))


@attrs.frozen
class Condition:
    """Everything about a combatant that changes during a fight. A GM may adjust any
    scalar field with a reason (condition_adjusted)."""

    hp: int
    fp: int
    posture: str = attrs.field(default="standing", metadata={ADJUSTABLE_TO: frozenset(POSTURES)})  # G-26
    shock_pending: int = 0  # G-47: summed shock for the victim's next turn (capped when it starts)
    shock: int = 0  # G-47: penalty (positive number) in force during this turn
    shock_turn: int = 0  # round in which the pending shock was last added (R-05 bookkeeping)
    stunned: bool = False  # G-48
    stun_kind: str = attrs.field(default="", metadata={ADJUSTABLE_TO: frozenset(STUN_KINDS)})  # G-28, G-18
    stun_turns: int = 0  # G-18/A-9: fright stun counts down whole turns, no recovery roll
    stun_fresh: bool = False  # G-48: stunned since this combatant's last turn began (no roll yet)
    unconscious: bool = False
    dead: bool = False
    collapsed: bool = False  # G-51: failed Will roll at FP <= 0
    death_checks: int = 0  # G-45: how many -HPmax multiples have been rolled for
    #: last maneuver chosen (G-20), in force until the next turn
    maneuver: str = attrs.field(default="", metadata={ADJUSTABLE_TO: maneuver_names})
    maneuver_option: str = attrs.field(default="", metadata={ADJUSTABLE_TO: maneuver_options})
    #: G-24 Increased Dodge/Parry/Block: which defence gets +2
    aod_defense: str = attrs.field(default="", metadata={ADJUSTABLE_TO: frozenset(AOD_DEFENSES)})
    aim_weapon: str = attrs.field(default="", metadata={ADJUSTABLE_TO: weapon_or_none})  # G-21
    aim_target: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})
    aim_turns: int = 0
    evaluate_target: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})  # G-29
    evaluate_bonus: int = 0
    #: G-30: the penalty the feinter's next attack imposes
    feint_target: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})
    feint_penalty: int = 0
    feint_round: int = 0
    blocked: bool = False  # G-40: one block per turn
    parries: int = 0  # A-19 (cfg): parries since own turn
    unready: tuple[str, ...] = ()  # weapons that need a Ready (G-22 Double, G-33)
    no_parry_with: tuple[str, ...] = ()  # unbalanced weapons used to attack this turn
    wait_trigger: str = ""  # G-34
    wait_action: str = attrs.field(default="", metadata={ADJUSTABLE_TO: wait_actions})
    concentrating: str = ""  # G-27: the task being concentrated on
    move_allowance: int = 0  # yards this turn's maneuver allows
    moved: int = 0  # yards moved this turn (G-09 sprint bookkeeping)
    sprinting: bool = False
    ht_rolls_at_zero: bool = True  # per-turn HT rolls at HP <= 0 (off after waking, G-49)
    # Fields added after fights were stored (#14): left out of a state's JSON at their defaults
    # (NEW_CONDITION_FIELDS), so stored fights refold to the same bytes.
    concentrate_left: int = 0  # G-27: turns the task still needs, this one included; 0: none counted
    ammo_used: Mapping[str, int] = attrs.field(factory=dict)  # shots fired since the last reload, per weapon
    reload_progress: Mapping[str, int] = attrs.field(factory=dict)  # Ready turns spent reloading, per weapon (G-33)
    #: G-34: the All-Out Attack option declared with the Wait
    wait_option: str = attrs.field(default="", metadata={ADJUSTABLE_TO: aoa_options})
    wait_range: int = 0  # G-34: yards to the zone a ranged Wait covers
    wait_item: str = ""  # G-34: what a Wait that converts to Ready readies
    crippled: tuple[str, ...] = ()  # V-11 (GULLIVER): hit locations crippled by a single heavy blow
    severed: tuple[str, ...] = ()  # V-12 (GULLIVER): limbs cut off
    stunned_limbs: tuple[str, ...] = ()  # V-21 (GULLIVER): limbs stunned by shock, until a HT roll (V-24)
    #: V-03 (GULLIVER): the exact HP ("p/q") when fractional damage left it between whole points; the
    #: rules' bookkeeping beside ``hp`` (the GM adjusts ``hp``: a typed fraction would be read as a number)
    hp_exact: str = attrs.field(default="", metadata={KEPT_BY_RULES: "set hp (V-03 keeps the fraction)"})
    stays_up: bool = False  # V-60 (GULLIVER): a monster that passed its roll to stay conscious, until fresh injury
    fresh_injury: int = 0  # V-60: injury taken since then (HPmax/10 of it calls for another roll)
    #: V-59 (GULLIVER): attacker -> the weapon whose finishing blow got past this combatant's skull DR;
    #: that attacker's further finishing blows to the skull with it are twists that ignore DR.
    skull_breached: Mapping[str, str] = attrs.field(factory=dict)
    #: A-50 (GULLIVER V-52, V-53): the exact Fatigue "p/q" when not whole; fp holds its floor (the GM
    #: adjusts ``fp``, which drops the fraction: apply._fatigue_set)
    fp_exact: str = attrs.field(default="", metadata={KEPT_BY_RULES: "set fp (A-50 keeps the fraction)"})
    pace_seconds: Mapping[str, int] = attrs.field(factory=dict)  # V-47: seconds moved at each pace this fight


#: Condition fields added after fights were stored, with their defaults (see sheet._unstructure_hooks).
NEW_CONDITION_FIELDS = {"concentrate_left": 0, "ammo_used": {}, "reload_progress": {}, "wait_option": "",
                        "wait_range": 0, "wait_item": "", "crippled": (), "severed": (),
                        "stunned_limbs": (), "hp_exact": "", "stays_up": False, "fresh_injury": 0, "fp_exact": "",
                        "skull_breached": {}, "pace_seconds": {}}


def exact_hp(cond: Condition) -> Fraction | int:
    """The combatant's HP as the rules count it: whole HP, or V-03's exact fraction (``hp`` then holds
    it rounded up, so "HP <= 0" still reads right). A fraction no longer matching ``hp`` (a GM adjusted
    HP since) is ignored."""
    if cond.hp_exact:
        value = Fraction(cond.hp_exact)
        if math.ceil(value) == cond.hp:
            return value
    return cond.hp


@attrs.frozen
class Attack:
    """An attack waiting for its defence or damage (G-36 -> G-37 -> G-42)."""

    attacker: str
    target: str
    weapon: str
    kind: str  # melee | ranged | thrown
    maneuver: str
    option: str = ""
    effective: int = 0
    roll: int = 0
    margin: int = 0
    critical: bool = False
    max_damage: bool = False  # G-36: a roll of 3
    hits: int = 1  # rapid fire (G-39)
    remaining: int = 0  # further attacks of the same maneuver (AOA Double)
    range_yards: int = 0
    defense_tried: tuple[str, ...] = ()  # G-24 Double Defense
    unarmed: bool = False
    thrown_small: bool = False
    firearm: bool = False
    damage_type: str = "cr"
    damage_dice: int = 0
    damage_adds: int = 0
    strong: bool = False  # G-22 AOA (Strong)
    half_damage: bool = False  # at or beyond 1/2D
    counter: bool = False  # G-41: the parry counter-blow on an unarmed attacker
    next_weapon: str = ""  # AOA Double: the weapon of the second attack
    location: str = ""  # A-24 / A-63 (GULLIVER hit locations): where the blow lands, aimed or rolled; "": torso
    damage_scale: str = ""  # V-03 (GULLIVER): a low-ST roll's exact scale ("1/5"); "": x1
    finishing: bool = False  # V-59 (GULLIVER): a blow on a helpless foe: maximum damage


#: Attack fields added after fights were stored (#11): left out of payloads and states at their default.
NEW_ATTACK_FIELDS = {"location": "", "damage_scale": "", "finishing": False}


def attack_json(attack: Attack) -> dict[str, Any]:
    """An attack as its events carry it, without the fields added later at their defaults."""
    data = attrs.asdict(attack)
    for key, default in NEW_ATTACK_FIELDS.items():
        if data.get(key) == default:
            del data[key]
    return data


@attrs.frozen
class Combat:
    """The turn sequence (G-19): fixed at the start, one turn per combatant per second."""

    order: tuple[str, ...] = ()
    round: int = 0
    index: int = -1
    current: str = ""
    phase: str = "setup"  # setup | maneuver | resolving | ending
    attack: Attack | None = None
    interrupted_by: str = ""  # G-34: a Wait that fired interrupts the sequence
    saved_phase: str = ""  # the phase to resume after the interrupt
    # G-34 declared Waits (#14): the current combatant's maneuver waits while the seats whose
    # Wait may trigger are asked, one at a time, in turn order; it resolves when none is left.
    declared_by: str = ""
    declared: Mapping[str, Any] = attrs.field(factory=dict)  # the maneuver command's args
    wait_asked: tuple[str, ...] = ()  # waiters asked about this declared maneuver
    #: V-46 (GULLIVER light levels): the fight's light level as the GM set it (``set_light``), one of
    #: ``gulliver.light.NAMES``; may be set while the fight is set up, and combat_started keeps it.
    light: str = "normal"  # DEFAULT_LIGHT


#: Combat fields added after fights were stored, with their defaults (see sheet._unstructure_hooks).
NEW_COMBAT_FIELDS = {"declared_by": "", "declared": {}, "wait_asked": (), "light": "normal"}
#: V-46: the light a fight has until the GM sets one (no penalty: "normal", as GURPS plays it).
DEFAULT_LIGHT = "normal"


def light_of(combat: object) -> str:
    """The fight's light level (V-46): the GM's last ``set_light``, or normal light (no combat yet)."""
    return combat.light if isinstance(combat, Combat) else DEFAULT_LIGHT
