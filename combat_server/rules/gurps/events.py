"""Every GURPS event, registered once (rules/kit/events.py): its payload's fields and
types, its fold (apply.py), its sentence (explain.py) and the fields that reveal a
hidden combatant's sheet. docs/gurps.md lists the same types (a test checks)."""

from __future__ import annotations

from typing import Any

import attrs

from combat_server.rules.gurps import apply, explain, importing
from combat_server.rules.kit.events import EventRegistry, EventSpec, Secret, on_payload

Obj = dict[str, Any]


@attrs.frozen
class CombatStarted:
    order: list[str]
    basis: list[Obj]
    roll_offs: list[Obj]
    explicit: bool


@attrs.frozen
class TurnStarted:
    combatant: str
    round: int
    index: int
    shock: int


@attrs.frozen
class ManeuverChosen:
    combatant: str
    maneuver: str
    forced: str = ""
    option: str = ""
    aod_defense: str = ""
    move_allowance: int = 0
    moved: int = 0
    posture: str = ""
    target: str = ""
    weapon: str = ""
    range: int = 0
    readied: str = ""
    aim_weapon: str = ""
    aim_target: str = ""
    aim_turns: int = 0
    evaluate_target: str = ""
    evaluate_bonus: int = 0
    wait_trigger: str = ""
    wait_action: str = ""
    concentrating: str = ""
    sprinting: bool = False
    concentrate_left: int = 0  # G-27: turns the task still needs, this one included (#14)
    wait_option: str = ""  # G-34: declared with a Wait that converts to All-Out Attack (#14)
    wait_range: int = 0  # G-34: the zone a ranged Wait covers, in yards (#14)
    wait_item: str = ""  # G-34: what a Wait that converts to Ready readies (#14)
    shots_fired: int = 0  # shots the attack spends from the weapon's count (#14)
    reload_turns: int = 0  # G-33: Ready maneuvers spent reloading the readied weapon, this one included (#14)


@attrs.frozen
class AttackRolled:
    attack: Obj
    record: Obj
    unbalanced: bool = False
    unready: bool = False
    attack_done: bool = False
    no_defense: str = ""
    location: Obj | None = None  # A-24 (GULLIVER hit locations): {name, aimed, penalty | dice, total, rule}


@attrs.frozen
class DefenseRolled:
    defender: str
    attacker: str
    defense: str
    record: Obj
    success: bool
    hits_left: int
    weapon: str = ""
    aim_spoiled: bool = False
    attack_done: bool = False
    tried_as: str = ""  # G-24: "parry:<weapon>", so a parry with the other hand is a different defence (#14)


@attrs.frozen
class FeintRolled:
    feinter: str
    target: str
    weapon: str
    record: Obj
    then_attack: bool = False


@attrs.frozen
class FeintResisted:
    feinter: str
    target: str
    record: Obj
    penalty: int
    round: int
    why: str = ""


@attrs.frozen
class CounterRolled:
    combatant: str
    target: str
    weapon: str
    record: Obj
    success: bool
    attack: Obj | None = None


@attrs.frozen
class DamageRolled:
    attacker: str
    target: str
    weapon: str
    dice: list[int]
    basic: int | str  # "p/q" only for V-03's kept fraction
    adds: int
    modifiers: list[Obj]
    damage_type: str
    dr: int
    penetrating: int | str
    multiplier: str
    injury: int | str
    half_damage: bool = False
    max_damage: bool = False
    attack_done: bool = False
    location: str = ""  # the hit location, with the fight's hit_locations option
    # GULLIVER steps (issue #11, attacks.gulliver_steps), present only when one did something:
    damage_table: str = ""  # V-66 / V-67: the ST table the weapon's dice came from
    toughness: Obj | None = None  # V-63: {value, absorbed, before, rule}
    blowthrough: Obj | None = None  # V-05 / V-06 / V-07: {cap, before, rule, factors?: [{value, reason}]}
    combat_st: Obj | None = None  # V-01: {st, rule}
    low_st: Obj | None = None  # V-03: {scale, exact, rule}
    split_hp: Obj | None = None  # V-04: {factor, before, rule}
    finishing_blow: Obj | None = None  # V-59: {rule, twist?, skull_breached?}: maximum damage on a helpless foe
    shock_only: bool = False  # V-17: a stunner's roll, shock dealt directly (``basic``), no damage


@attrs.frozen
class LimbStunned:
    """V-21 (GULLIVER, with hit locations): shock to a limb over its crippling share stuns it; an arm
    or hand drops the weapons it holds (``dropped``), unless a grip roll is due (R-11, A-39)."""

    combatant: str
    location: str
    rule: str
    dropped: list[str] = attrs.field(factory=list)
    grip_roll: bool = False


@attrs.frozen
class LimbCrippled:
    """V-11 (GULLIVER, with hit locations): a blow over the location's share of HPmax cripples it;
    the HP past the crippling amount are lost, not taken."""

    combatant: str
    location: str
    blow: int
    taken: int
    threshold: str
    rule: str


@attrs.frozen
class LimbSevered:
    """V-12 (GULLIVER): a cutting blow over four times the crippling amount cuts the limb off."""

    combatant: str
    location: str
    rule: str
    fatal: bool = False  # V-13: beheaded, or the neck broken


@attrs.frozen
class ShockEffect:
    """V-19 / V-22 (GULLIVER's damage-and-shock system): one blow's shock stuns or knocks out outright."""

    combatant: str
    effect: str  # stunned | unconscious
    points: str
    rule: str


@attrs.frozen
class InjuryApplied:
    combatant: str
    injury: int | str  # "p/q" only for V-03's kept fraction (and the HP it leaves)
    hp_before: int | str
    hp_after: int | str
    hp_max: int
    shock_added: int
    shock_pending: int
    source: str = ""
    major_wound: bool = False
    reeling: bool = False
    dead: bool = False
    death_thresholds: list[int] = attrs.field(factory=list)
    slowdown_rule: str = ""  # V-09
    shock_rule: str = ""  # V-18
    death_rule: str = ""  # V-15
    death_zone: Obj | None = None  # V-61 / V-62: {factor, rule}
    fresh_injury: Obj | None = None  # V-60 / V-62: {total, roll_again, rule}
    #: GULLIVER (attacks.shock_json): how the shock was counted when it is not the HP lost:
    #: {points, basis, of, direct?, factors?: [{value, reason, rule}], less?} (V-11, V-17, V-20, V-64)
    shock: Obj | None = None


@attrs.frozen
class CheckRolled:
    combatant: str
    purpose: str
    record: Obj | None = None
    effect: str = "none"
    effects: list[str] = attrs.field(factory=list)
    effect_args: Obj = attrs.field(factory=dict)
    death_checks: int = 0
    dice: list[int] = attrs.field(factory=list)
    margin: int = 0
    turns: int = 0
    heart_attack: str = ""  # V-44 (GULLIVER): minor | major | fatal, after a failed heart-attack roll
    shock_left: int = 0  # V-24 (GULLIVER): the shock penalty a recovery roll did not wear off
    shock_pending: int = 0  # V-24: the pending shock with it added (G-47's cap, or V-18's none)
    stays_up: str = ""  # V-60 / V-62: the rule that keeps a monster up after a successful roll


@attrs.frozen
class HeartAttackRolled:
    """V-44 (GULLIVER): a minor (2d) or major (6d) heart attack's own damage, times LS."""

    combatant: str
    kind: str
    dice: list[int]
    injury: int
    rule: str
    linear_scale: str = ""  # the victim's LS (the size block, A-27) when not 1


@attrs.frozen
class TurnEnding:
    combatant: str
    fright_turns_left: int = 0
    concentrate_left: int = 0  # G-27: given when a counted task went on this turn: what it still needs (#14)


@attrs.frozen
class TurnEnded:
    combatant: str
    round: int
    feint_expired: bool = False


@attrs.frozen
class TurnSkipped:
    combatant: str
    reason: str


@attrs.frozen
class FatigueSpent:
    combatant: str
    points: int
    reason: str
    fp_before: int
    fp_after: int
    fp_max: int
    hp_loss: int = 0
    unconscious: bool = False
    # GULLIVER (issue #11), present only when the fight's policy did something:
    rule: str = ""  # the rule that charged it: V-47 movement, V-48 Extra Effort, V-52 standing under a load
    basis: str = ""  # V-53 / V-54: Fatigue on ST or HT, in place of G-51's thresholds
    cost: str = ""  # the exact fatigue taken after V-48, V-52, V-53 ("p/q", A-50)
    steps: list[str] = attrs.field(factory=list)  # each of those steps with its rule
    exertion: bool = True  # false: not physical exertion (V-52 and V-53's ST scaling do not apply)
    fatigue_before: str = ""  # the exact level when it is not whole
    fatigue_after: str = ""
    collapsed: bool = False  # V-53 / V-54: at the collapse mark, outright
    record: Obj | None = None  # V-53: the HT roll on fatigue applied
    #: V-47: the pace whose seconds completed the point ("running: 1 per 20 s"); with the yards moved it
    #: bounds Move, so it is kept apart from ``reason`` ("movement") and hidden with the sheet
    pace: str = ""


@attrs.frozen
class PaceTimed:
    """V-47 (GULLIVER, A-48): the turn's second of movement at a pace, and the seconds at that pace so far."""

    combatant: str
    pace: str
    seconds: int
    interval: int  # seconds per fatigue point at this pace
    moved: int
    move: int
    rule: str


@attrs.frozen
class WaitTriggered:
    combatant: str
    trigger: str
    action: str


@attrs.frozen
class ActionDeclared:
    combatant: str
    maneuver: str
    args: Obj


@attrs.frozen
class WaitAsked:
    combatant: str
    actor: str
    maneuver: str


@attrs.frozen
class WaitPassed:
    combatant: str
    actor: str


@attrs.frozen
class AttackLapsed:
    combatant: str
    target: str
    reason: str


@attrs.frozen
class DeclaredActionLapsed:
    combatant: str
    maneuver: str
    reason: str


@attrs.frozen
class InterruptEnded:
    combatant: str


@attrs.frozen
class PostureChanged:
    combatant: str
    to: str
    reason: str = ""


@attrs.frozen
class WeaponReadied:
    combatant: str
    weapon: str


@attrs.frozen
class WeaponReloaded:
    combatant: str
    weapon: str
    shots: int
    turns: int


@attrs.frozen
class FrightCheckDemanded:
    combatant: str
    modifier: int
    reason: str = ""


@attrs.frozen
class LightChanged:
    level: str  # V-46: one of gulliver.light.NAMES
    was: str
    reason: str = ""


@attrs.frozen
class CharacterImported:
    id: str
    name: str
    file: str
    sha256: str
    format: str
    sheet: Obj
    unused: list[str]
    replaced: bool
    side: str = ""
    hidden: bool = False
    hp: int = 0
    fp: int = 0


@attrs.frozen
class ToolApplied:
    tool: str
    title: str
    inputs: Obj
    steps: list[Obj]
    summary: str
    harm: Obj
    target: str
    dice: list[int]
    points: int
    dr: int = 0
    penetrating: int = 0
    multiplier: str = "1"
    injury: int = 0


#: Fields of an attack (``attack_rolled``'s ``attack``, the pending attack) that reveal a hidden
#: attacker's skill and damage.
ATTACK_SECRETS = ("effective", "margin", "damage_dice", "damage_adds", "damage_scale")

#: Condition fields anyone at the table can see on a hidden combatant (posture, stunned, down, dead,
#: the maneuver it visibly took).
VISIBLE_CONDITION = ("posture", "stunned", "unconscious", "dead", "collapsed", "maneuver", "maneuver_option",
                     "crippled", "severed")
#: The fight's pending attack, as a hidden attacker's foe may see it.
COMBAT_SECRETS = (Secret("attack.attacker", ATTACK_SECRETS, within="attack"),)
#: G-30: the foe's Resist prompt carries the feinter's margin of success (the Quick Contest needs it); with the
#: feinter's roll shown, the margin gives its skill away.
PROMPT_SECRETS = (Secret("options.feinter", ("feinter_margin", "feinter_success"), within="options"),)
#: What a prompt about a hidden combatant says instead of its own text (which may name its numbers).
HIDDEN_PROMPT_TEXT = {"defend": "{name} chooses a defence", "roll": "{name} rolls the dice",
                      "wait": "{name} decides whether to act"}

EVENTS = EventRegistry(
    EventSpec("character_imported", CharacterImported, on_payload(importing.character_imported),
              # the file's name and sha256 would let a player holding a public .gcs tell which one a hidden sheet is
              explain._character_imported, secrets=(Secret("id", ("hp", "fp", "unused", "file", "sha256")),)),
    EventSpec("combat_started", CombatStarted, on_payload(apply._combat_started), explain._combat_started,
              secrets=(Secret("id", ("basic_speed", "dx"), within="basis"),)),
    EventSpec("turn_started", TurnStarted, apply._turn_started, explain._turn_started,
              secrets=(Secret("combatant", ("shock",)),)),
    EventSpec("maneuver_chosen", ManeuverChosen, on_payload(apply._maneuver_chosen), explain._maneuver_chosen,
              secrets=(Secret("combatant", ("move_allowance",)),)),
    EventSpec("attack_rolled", AttackRolled, on_payload(apply._attack_rolled), explain._attack_rolled,
              roller="attack.attacker", secrets=(Secret("attack.attacker", ATTACK_SECRETS, within="attack"),)),
    EventSpec("defense_rolled", DefenseRolled, on_payload(apply._defense_rolled), explain._defense_rolled,
              roller="defender"),
    EventSpec("feint_rolled", FeintRolled, on_payload(apply._feint_rolled), explain._feint_rolled, roller="feinter"),
    # G-30: the penalty is the feinter's margin less the target's: with one margin shown, the other's skill
    EventSpec("feint_resisted", FeintResisted, on_payload(apply._feint_resisted), explain._feint_resisted,
              roller="target", secrets=(Secret("target", ("penalty",)), Secret("feinter", ("penalty",)))),
    # G-41: the counter-blow is the hidden parrier's own attack, with its damage dice and adds
    EventSpec("counter_rolled", CounterRolled, on_payload(apply._counter_rolled), explain._counter_rolled,
              roller="combatant", secrets=(Secret("combatant", ATTACK_SECRETS, within="attack"),)),
    EventSpec("damage_rolled", DamageRolled, on_payload(apply._damage_rolled), explain._damage_rolled,
              # basic = the dice + adds; what follows from it and the target's DR gives the adds back (G-42)
              secrets=(Secret("attacker", ("adds", "modifiers", "basic", "low_st", "combat_st", "penetrating",
                                           "injury", "toughness", "blowthrough", "split_hp")),
                       Secret("target", ("dr", "penetrating", "multiplier", "injury", "toughness", "blowthrough",
                                         "split_hp", "finishing_blow")))),
    EventSpec("limb_stunned", LimbStunned, on_payload(apply._limb_stunned), explain._limb_stunned),
    EventSpec("limb_crippled", LimbCrippled, on_payload(apply._limb_crippled), explain._limb_crippled,
              secrets=(Secret("combatant", ("blow", "taken", "threshold")),)),
    EventSpec("limb_severed", LimbSevered, on_payload(apply._limb_severed), explain._limb_severed),
    EventSpec("heart_attack_rolled", HeartAttackRolled, on_payload(apply._noop), explain._heart_attack_rolled,
              secrets=(Secret("combatant", ("injury", "linear_scale")),)),
    EventSpec("shock_effect", ShockEffect, on_payload(apply._shock_effect), explain._shock_effect,
              secrets=(Secret("combatant", ("points",)),)),
    EventSpec("injury_applied", InjuryApplied, on_payload(apply._injury_applied), explain._injury_applied,
              secrets=(Secret("combatant", ("injury", "hp_before", "hp_after", "hp_max", "shock_added",
                                            "shock_pending", "fresh_injury", "shock", "death_zone")),)),
    # G-18: a fright stun's turns (a faint's minutes) are the margin of failure + the dice shown: the hidden Will
    EventSpec("check_rolled", CheckRolled, on_payload(apply._check_rolled), explain._check_rolled,
              roller="combatant", secrets=(Secret("combatant", ("margin", "shock_left", "shock_pending", "turns",
                                                                "minutes")),
                                           Secret("combatant", ("turns",), within="effect_args"))),
    EventSpec("turn_ending", TurnEnding, on_payload(apply._turn_ending), explain._turn_ending,
              secrets=(Secret("combatant", ("fright_turns_left",)),)),
    EventSpec("turn_ended", TurnEnded, on_payload(apply._turn_ended), explain._turn_ended),
    EventSpec("turn_skipped", TurnSkipped, on_payload(apply._turn_skipped),
              explain._simple("{combatant} is {reason}: the turn is skipped (G-19).")),
    EventSpec("fatigue_spent", FatigueSpent, on_payload(apply._fatigue_spent), explain._fatigue_spent,
              roller="combatant", secrets=(Secret("combatant", ("fp_before", "fp_after", "fp_max", "hp_loss", "cost",
                                                                "steps", "fatigue_before", "fatigue_after", "pace")),)),
    # V-47: the pace is the yards as a share of Move: with the visible yards it would give Move away
    EventSpec("pace_timed", PaceTimed, on_payload(apply._pace_timed), explain._pace_timed,
              secrets=(Secret("combatant", ("move", "pace", "interval", "seconds")),)),
    EventSpec("wait_triggered", WaitTriggered, on_payload(apply._wait_triggered),
              explain._simple("{combatant}'s Wait triggers ({trigger}): the {action} interrupts the sequence (G-34).")),
    EventSpec("action_declared", ActionDeclared, on_payload(apply._action_declared),
              explain._simple("{combatant} starts a {maneuver} maneuver; it waits while the Waits it may trigger "
                              "are asked (G-34).")),
    EventSpec("wait_asked", WaitAsked, on_payload(apply._wait_asked),
              explain._simple("{combatant}'s seat is asked whether {actor}'s {maneuver} triggers its Wait (G-34).")),
    EventSpec("wait_passed", WaitPassed, on_payload(apply._noop),
              explain._simple("{combatant} lets {actor}'s maneuver pass; the Wait holds (G-34).")),
    EventSpec("declared_action_lapsed", DeclaredActionLapsed, on_payload(apply._declared_lapsed),
              explain._simple("{combatant}'s {maneuver} can no longer be made after the interrupt ({reason}): "
                              "{combatant} chooses again (G-34).")),
    EventSpec("attack_lapsed", AttackLapsed, on_payload(apply._noop),
              explain._simple("{combatant}'s next attack of the maneuver has no one to strike ({reason}): it "
                              "lapses (G-22).")),
    EventSpec("interrupt_ended", InterruptEnded, on_payload(apply._interrupt_ended),
              explain._simple("The sequence resumes after {combatant}'s interrupt (G-34).")),
    EventSpec("posture_changed", PostureChanged, on_payload(apply._posture_changed),
              explain._simple("{combatant} is now {to}: {reason} (G-26).")),
    EventSpec("weapon_readied", WeaponReadied, on_payload(apply._weapon_readied),
              explain._simple("{combatant} readies {weapon} (G-33).")),
    EventSpec("weapon_reloaded", WeaponReloaded, on_payload(apply._weapon_reloaded),
              explain._simple("{combatant} reloads {weapon}: {shots} shot(s) again after {turns} turn(s) of Ready "
                              "(G-33).")),
    # the inputs may be prefilled from the target's sheet (HPmax, HT, LS): the summary, the harm's adds,
    # multiplier and absorption (V-33: HPmax/2) and the points they make of the dice would give them away
    EventSpec("tool_applied", ToolApplied, on_payload(apply._noop), explain._tool_applied,
              secrets=(Secret("target", ("inputs", "steps", "dr", "penetrating", "multiplier", "injury", "summary",
                                         "points")),
                       Secret("target", ("adds", "multiplier", "minus"), within="harm"))),
    EventSpec("light_changed", LightChanged, on_payload(apply._light_changed), explain._light_changed),
    EventSpec("fright_check_demanded", FrightCheckDemanded, on_payload(apply._noop),
              explain._simple("The GM calls for a Fright Check for {combatant}: Will{modifier:+d} (G-18).")),
)
