"""The thirteen maneuvers (G-20..G-34) as data plus one handler each.

MANEUVERS states, per maneuver, the movement allowed (G-20 table, A-11, A-12) and
the options; the defences allowed until the next turn are enforced in
attacks.defense_options (AOA: none, G-22; Move and Attack: Dodge or Block, G-32).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from combat_server.errors import Rejected, reject
from combat_server.rules.gurps import attacks, derived, exertion, fatigue
from combat_server.rules.gurps.batch import Batch, StandInDice
from combat_server.rules.kit import args as kit_args
from combat_server.rules.kit.prompts import answered, open_prompt, roll_prompt
from combat_server.rules.gurps.rolls import Mod, record, succeeded
from combat_server.rules.gurps.sheet import Sheet, Weapon
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.rules.gurps.tables import POSTURE_STEPS, POSTURES
from combat_server.rules.model import JSON, FightState, Prompt

# maneuver -> (movement kind, allowed options)
MANEUVERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "aim": ("step", ()),
    "all_out_attack": ("half", ("determined", "double", "feint", "strong", "suppression")),
    "all_out_defense": ("step", ("increased_dodge", "increased_parry", "increased_block", "double")),
    "attack": ("step", ()),
    "change_posture": ("none", ()),
    "concentrate": ("step", ()),
    "do_nothing": ("none", ()),
    "evaluate": ("step", ()),
    "feint": ("step", ()),
    "move": ("full", ()),
    "move_and_attack": ("full", ()),
    "ready": ("step", ()),
    "wait": ("none", ()),
}
WAIT_ACTIONS = ("attack", "feint", "all_out_attack", "ready")  # G-34
#: The fields each maneuver takes besides ``combatant`` and ``maneuver``: any other is refused
#: (``command/unknown_field``), never dropped (#14). ``posture`` with a maneuver that allows a step
#: is the kneeling <-> standing switch taken as that step (G-26, ``posture_step``).
_ATTACK_FIELDS = ("target", "weapon", "range", "target_speed", "yards", "shots", "modifiers", "location")
MANEUVER_FIELDS: dict[str, tuple[str, ...]] = {
    "aim": ("target", "weapon", "yards", "posture"),
    "all_out_attack": ("option", *_ATTACK_FIELDS, "weapon2"),
    "all_out_defense": ("option", "yards", "posture"),
    "attack": (*_ATTACK_FIELDS, "object", "posture"),
    "change_posture": ("posture",),
    "concentrate": ("task", "turns", "yards", "posture"),
    "do_nothing": (),
    "evaluate": ("target", "yards", "posture"),
    "feint": ("target", "weapon", "yards", "posture"),
    "move": ("yards", "sprint", "forward"),
    "move_and_attack": _ATTACK_FIELDS,
    "ready": ("weapon", "item", "yards", "posture"),
    "wait": ("trigger", "action", "wait_option", "range", "item"),
}
#: GULLIVER V-48: any maneuver that does something may be made with Extra Effort (1 fatigue this turn).
for _m, _fields in MANEUVER_FIELDS.items():
    if _m not in ("do_nothing", "wait"):
        MANEUVER_FIELDS[_m] = (*_fields, "extra_effort")
#: The fields a Wait's action takes when it fires (G-34): the converted maneuver's, without its movement.
WAIT_ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "attack": ("target", "weapon", "range", "target_speed", "shots", "modifiers", "object", "location"),
    "all_out_attack": ("option", "target", "weapon", "range", "target_speed", "shots", "modifiers", "weapon2",
                       "location"),
    "feint": ("target", "weapon"),
    "ready": ("weapon", "item"),
}
#: Maneuvers that attack with a ready weapon (G-22, G-25, G-32).
ATTACKS = ("attack", "all_out_attack", "move_and_attack")


# The legal-choice rules, shared by the handlers below and by describe.py (what a seat is offered).

def ready_weapons(sheet: Sheet, cond: Condition) -> tuple[Weapon, ...]:
    """G-33: the weapons usable now (those that need a Ready are not)."""
    return tuple(w for w in sheet.all_weapons() if w.name not in cond.unready)


def aims_with(weapon: Weapon) -> bool:
    """G-21: Aim is for ranged or thrown weapons."""
    return weapon.kind != "melee"


def feints_with(weapon: Weapon) -> bool:
    """G-30: a Feint needs a melee weapon."""
    return weapon.kind == "melee"


def aoa_options(weapon: Weapon) -> tuple[str, ...]:
    """The All-Out Attack options this weapon allows: melee (G-22; Strong only with ST-based thrust or
    swing damage) or ranged and thrown (G-23, RoF 5+ to suppress)."""
    if weapon.kind in ("ranged", "thrown"):
        return ("determined",) + (("suppression",) if weapon.rof >= 5 else ())
    return ("determined", "double", "feint") + (("strong",) if weapon.st_based else ())


def shots_left(cond: Condition, weapon: Weapon) -> int | None:
    """Shots before a reload (None: the sheet does not count them for this weapon)."""
    if not weapon.counts_shots:
        return None
    return max(0, weapon.shots - cond.ammo_used.get(weapon.name, 0))


def loaded(cond: Condition, weapon: Weapon) -> bool:
    """An empty weapon cannot attack until a Ready reloads it (G-33)."""
    left = shots_left(cond, weapon)
    return left is None or left > 0


def _str(args: Mapping[str, Any], key: str, required: bool = True) -> str:
    return kit_args.text(args, key, "maneuver", required)


def _int(args: Mapping[str, Any], key: str, default: int = 0, lo: int = 0, hi: int = 100000) -> int:
    return kit_args.whole(args, key, "maneuver", default, lo, hi)


def allowance(b: Batch, cid: str, maneuver: str, option: str, sprint: bool) -> int:
    """Yards this maneuver lets the combatant move (G-20; A-11 step; A-12 half Move; G-26 posture)."""
    sheet, cond = b.sheet(cid), b.cond(cid)
    move = derived.move(sheet, cond, b.policy)
    step = int(b.option("step_yards"))
    kind = MANEUVERS[maneuver][0]
    if maneuver == "all_out_defense" and option == "increased_dodge":
        kind = "half"  # G-24
    if kind == "full":
        yards = (move * 6) // 5 if sprint else move  # G-09 sprint x1.2, A-06 floor
    elif kind == "half":
        yards = derived.half_move(move)
    elif kind == "step":
        yards = step
    else:
        yards = 0
    limit = POSTURES.get(cond.posture, {}).get("move", "full")
    if limit == "none":
        return 0
    if limit == "one":
        return min(yards, 1)
    if limit == "third":
        return min(yards, max(1, move // 3))
    return yards


def choose(b: Batch, args: Mapping[str, Any]) -> None:
    combat = b.combat
    cid = b.controlled(args)
    c = b.state.combatant(cid)
    if combat.current != cid or combat.interrupted_by:
        raise reject("command/not_your_turn", f"it is {b.name(combat.current)}'s turn, not {c.name}'s")
    if combat.phase != "maneuver":
        raise reject("command/maneuver_already_chosen", f"{c.name} has already chosen a maneuver this turn")
    if any(p.kind != "dispute" for p in b.state.prompts):
        raise reject("command/prompt_pending", "answer the open prompt first")
    maneuver = _str(args, "maneuver")
    if maneuver not in MANEUVERS:
        raise reject("maneuver/unknown", f"unknown maneuver {maneuver!r}", known=sorted(MANEUVERS))
    option = _str(args, "option", required=False)
    if option and option not in MANEUVERS[maneuver][1]:
        raise reject("maneuver/bad_option", f"{maneuver} has no option {option!r}",
                     known=list(MANEUVERS[maneuver][1]))
    if maneuver in ("all_out_attack", "all_out_defense") and not option:
        raise reject("maneuver/option_required", f"{maneuver} needs an option",
                     known=list(MANEUVERS[maneuver][1]))
    waiters = waiting_on(b.state, cid, ())
    if waiters and maneuver not in ("do_nothing", "wait"):  # doing nothing or waiting is no action to react to
        # G-34: the seats whose Wait this maneuver may trigger are asked before it resolves (settle
        # asks them, then resolves it). A trial run on stand-in dice refuses it now if it is invalid.
        resolve(Batch(b.ruleset, b.state, StandInDice()), cid, args)
        b.emit("action_declared", {"combatant": cid, "maneuver": maneuver,
                                   "args": {k: v for k, v in args.items() if k != "combatant"}})
        return
    resolve(b, cid, args)


def resolve(b: Batch, cid: str, args: Mapping[str, Any]) -> None:
    """The chosen maneuver takes effect: the posture step (G-26), the Will roll at FP <= 0 (G-51), its handler."""
    maneuver = _str(args, "maneuver")
    option = _str(args, "option", required=False)
    if maneuver != "change_posture" and args.get("posture") is not None:
        posture_step(b, cid, maneuver, args)
    if fatigue.state(b.sheet(cid), b.cond(cid), b.policy).collapse == "will_roll" and maneuver != "do_nothing":
        # G-51: a Will roll before each maneuver at FP <= 0 (V-53 / V-54 collapse outright instead)
        faces = b.roll(3, 6, "Will roll to act at FP <= 0")
        rec = record(purpose="fatigue_will", roller=cid, dice=faces, base=b.sheet(cid).will_score, base_reason="Will",
                     mods=[], rule="G-51")
        ok = succeeded(str(rec["outcome"]))
        b.emit("check_rolled", {"combatant": cid, "purpose": "fatigue_will", "record": rec,
                                "effect": "none" if ok else "collapsed"})
        if not ok:
            b.emit("maneuver_chosen", {"combatant": cid, "maneuver": "do_nothing", "forced": "collapsed (G-51)"})
            return
    _HANDLERS[maneuver](b, cid, maneuver, option, args)
    exertion.extra_effort(b, cid, args.get("extra_effort"))  # V-48: 1 fatigue this turn, with the maneuver it helps


def posture_step(b: Batch, cid: str, maneuver: str, args: Mapping[str, Any]) -> str:
    """G-26: kneeling <-> standing as the step of a maneuver that allows one (G-20 table: Aim,
    All-Out Defense, Attack, Concentrate, Evaluate, Feint, Ready). The step is spent on it, so
    no yards are moved; the maneuver is then made in the new posture."""
    posture = _str(args, "posture")  # only step maneuvers take the field (MANEUVER_FIELDS)
    current = b.cond(cid).posture
    if posture == current:
        raise reject("maneuver/bad_posture", f"already {current}", field="posture")
    if {posture, current} != {"kneeling", "standing"}:
        raise reject("maneuver/bad_posture", f"only kneeling <-> standing can be the step of another maneuver, "
                     f"not {current} -> {posture}: take Change Posture (G-26)", field="posture",
                     known=["kneeling", "standing"])
    if _int(args, "yards", 0, 0, 10000):
        spent = "standing up" if posture == "standing" else "kneeling"
        raise reject("maneuver/too_far", f"the maneuver's step goes into {spent}: no yards are left to move (G-26)",
                     field="yards", allowed=0)
    return posture


def _base_payload(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any],
                  **extra: JSON) -> dict[str, JSON]:
    """The maneuver_chosen payload, carrying Aim (G-21) and Evaluate (G-29) bookkeeping."""
    cond = b.cond(cid)
    target = str(args.get("target") or "")
    weapon = str(args.get("weapon") or "")
    sprint = bool(args.get("sprint")) and maneuver == "move" and cond.sprinting
    payload: dict[str, JSON] = {"combatant": cid, "maneuver": maneuver, "option": option,
                                "move_allowance": allowance(b, cid, maneuver, option, sprint)}
    if maneuver == "aim":
        same = cond.aim_weapon == weapon and cond.aim_target == target
        payload.update(aim_weapon=weapon, aim_target=target, aim_turns=(cond.aim_turns + 1) if same else 1)
    elif maneuver in ("attack", "all_out_attack"):
        payload.update(aim_weapon=cond.aim_weapon, aim_target=cond.aim_target, aim_turns=cond.aim_turns)
    if maneuver == "evaluate":
        same = cond.evaluate_target == target
        payload.update(evaluate_target=target, evaluate_bonus=min(3, cond.evaluate_bonus + 1) if same else 1)
    elif maneuver in ("attack", "all_out_attack", "move_and_attack", "feint"):
        payload.update(evaluate_target=cond.evaluate_target, evaluate_bonus=cond.evaluate_bonus)
    if maneuver == "move":
        payload["sprinting"] = bool(args.get("forward", args.get("sprint", False)))
    if maneuver != "change_posture" and args.get("posture") is not None:
        payload["posture"] = str(args["posture"])  # G-26: the step; folded before the maneuver resolves
    payload.update(extra)
    return payload


def _yards(b: Batch, cid: str, args: Mapping[str, Any], allowed: int) -> int:
    yards = _int(args, "yards", 0, 0, 10000)
    if yards > allowed:
        raise reject("maneuver/too_far", f"this maneuver allows {allowed} yd of movement, not {yards}",
                     allowed=allowed)
    return yards


def _target(b: Batch, cid: str, args: Mapping[str, Any]) -> str:
    target = _str(args, "target")
    t = b.state.combatant(target)
    if target == cid:
        raise reject("maneuver/bad_target", "choose another combatant as the target")
    if t.condition.dead:
        raise reject("maneuver/bad_target", f"{t.name} is dead")
    return target


def _weapon(b: Batch, cid: str, args: Mapping[str, Any], key: str = "weapon") -> Weapon:
    sheet = b.sheet(cid)
    name = _str(args, key, required=False) or (sheet.weapons[0].name if sheet.weapons else "punch")
    weapon = sheet.weapon(name)
    if weapon not in ready_weapons(sheet, b.cond(cid)):
        raise reject("maneuver/weapon_not_ready", f"{weapon.name} must be readied first (G-33)")
    attacks.check_stunner(b, weapon, key)  # V-17: refused when chosen, not at a later roll
    return weapon


def _simple(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    payload = _base_payload(b, cid, maneuver, option, args)
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    b.emit("maneuver_chosen", payload)


def _do_nothing(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    b.emit("maneuver_chosen", _base_payload(b, cid, maneuver, option, args))


def _aim(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    _target(b, cid, args)
    weapon = _weapon(b, cid, args)
    if not aims_with(weapon):
        raise reject("maneuver/bad_weapon", "Aim is for ranged or thrown weapons (G-21)")
    _simple(b, cid, maneuver, option, {**args, "weapon": weapon.name})


def _evaluate(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    _target(b, cid, args)
    _simple(b, cid, maneuver, option, args)


def _all_out_defense(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    payload = _base_payload(b, cid, maneuver, option, args)
    if option.startswith("increased_"):
        defense = option.removeprefix("increased_")
        if defense == "block" and derived.block(b.sheet(cid)) is None:
            raise reject("maneuver/no_shield", "Increased Block needs a ready shield or cloak (G-40)")
        payload["aod_defense"] = defense
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    b.emit("maneuver_chosen", payload)


def _change_posture(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    posture = _str(args, "posture")
    current = b.cond(cid).posture
    if posture not in POSTURE_STEPS:
        raise reject("maneuver/bad_posture", f"unknown posture {posture!r}", known=sorted(POSTURE_STEPS))
    if posture == current:
        raise reject("maneuver/bad_posture", f"already {current}")
    if posture not in POSTURE_STEPS[current]:
        raise reject("maneuver/bad_posture",
                     f"from {current} you can get to {', '.join(POSTURE_STEPS[current])}; standing up from lying "
                     "takes two Change Posture maneuvers (G-26)")
    b.emit("maneuver_chosen", _base_payload(b, cid, maneuver, option, args, posture=posture))


def concentration_left(cond: Condition, task: str) -> int:
    """G-27: the turns an unfinished task still needs (0: not this task, or none counted)."""
    return cond.concentrate_left if cond.concentrating == task and task else 0


def _concentrate(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    """G-27: a task of ``turns`` turns (default 1; a task still unfinished continues with what it
    needs). It ends with the last of them; until then distraction costs a Will-3 roll."""
    task = _str(args, "task")
    left = _int(args, "turns", concentration_left(b.cond(cid), task) or 1, 1, 100)
    payload = _base_payload(b, cid, maneuver, option, args, concentrating=task, concentrate_left=left)
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    b.emit("maneuver_chosen", payload)


def _ready(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    name = _str(args, "weapon", required=False)
    item = _str(args, "item", required=False)
    if not name and not item:
        raise reject("command/missing_field", "ready: name a weapon or an item", field="weapon")
    payload = _base_payload(b, cid, maneuver, option, args, readied=name or item)
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    cond = b.cond(cid)
    weapon = b.sheet(cid).weapon(name) if name else None
    reloading = weapon is not None and weapon.counts_shots and cond.ammo_used.get(weapon.name, 0) > 0
    if weapon is not None and reloading:  # G-33: a reload takes the sheet's number of Ready maneuvers
        payload["reload_turns"] = cond.reload_progress.get(weapon.name, 0) + 1
    b.emit("maneuver_chosen", payload)
    if weapon is None:
        return
    if reloading and int(payload["reload_turns"]) >= weapon.reload:
        b.emit("weapon_reloaded", {"combatant": cid, "weapon": weapon.name, "shots": weapon.shots,
                                   "turns": weapon.reload})
    if not reloading or weapon.name in cond.unready:
        b.emit("weapon_readied", {"combatant": cid, "weapon": weapon.name})


def _wait(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    """G-34: the trigger and the action are declared now; an All-Out Attack's option too (in advance),
    a ranged attack's zone as its range, a Ready's item."""
    trigger = _str(args, "trigger")
    action = _str(args, "action")
    if action not in WAIT_ACTIONS:
        raise reject("maneuver/bad_wait", f"a Wait converts to {', '.join(WAIT_ACTIONS)} (G-34)")
    extra: dict[str, JSON] = {"wait_trigger": trigger, "wait_action": action}
    if action == "all_out_attack":
        declared = _str(args, "wait_option", required=False) or "determined"
        if declared not in MANEUVERS["all_out_attack"][1]:
            raise reject("maneuver/bad_option", f"all_out_attack has no option {declared!r}", field="wait_option",
                         known=list(MANEUVERS["all_out_attack"][1]))
        extra["wait_option"] = declared
    elif args.get("wait_option"):
        raise reject("maneuver/bad_wait", "only a Wait that converts to All-Out Attack declares an option (G-34)",
                     field="wait_option")
    if args.get("range") is not None:
        if action not in ("attack", "all_out_attack"):
            raise reject("maneuver/bad_wait", "a Wait names a zone (range) only for an attack (G-34)", field="range")
        extra["wait_range"] = _int(args, "range", 0, 0, 100000)
    if args.get("item"):
        if action != "ready":
            raise reject("maneuver/bad_wait", "a Wait names an item only for a Ready (G-34)", field="item")
        extra["wait_item"] = _str(args, "item")
    b.emit("maneuver_chosen", _base_payload(b, cid, maneuver, option, args, **extra))


def _attack_like(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    target = _target(b, cid, args)
    aimed = attacks.aimed_location(b, target, _str(args, "location", required=False) or None)
    obj = args.get("object")
    range_yards = _int(args, "range", 0, 0, 100000)
    if obj is not None:
        if maneuver != "attack":
            raise reject("maneuver/throw_needs_attack", "throwing an object takes an Attack maneuver (G-12)")
        if not isinstance(obj, dict):
            raise reject("command/bad_field", "object must be {name, weight}", field="object")
        weapon = attacks.thrown_object_weapon(b, cid, obj, range_yards)
    else:
        weapon = _weapon(b, cid, args)
    if weapon.kind == "ranged":
        if range_yards > weapon.max_range:
            raise reject("maneuver/out_of_range", f"{weapon.name} reaches {weapon.max_range} yd (Max), not {range_yards}")
        if range_yards < weapon.min_range:
            raise reject("maneuver/too_close", f"{weapon.name} cannot fire closer than {weapon.min_range} yd")
    if weapon.kind == "thrown" and weapon.max_range and range_yards > weapon.max_range:
        raise reject("maneuver/out_of_range", f"{weapon.name} can be thrown {weapon.max_range} yd, not {range_yards}")
    ranged = weapon.kind in ("ranged", "thrown")
    _refuse_inapplicable(args, weapon, option, obj is not None)
    if maneuver == "all_out_attack":
        if ranged and option not in ("determined", "suppression"):
            raise reject("maneuver/bad_option", "ranged All-Out Attack is Determined or Suppression Fire (G-23)")
        if not ranged and option == "suppression":
            raise reject("maneuver/bad_option", "Suppression Fire needs a ranged weapon (G-23)")
    shots = _int(args, "shots", 1, 1, 1000)
    if shots > weapon.rof:
        raise reject("maneuver/bad_shots", f"{weapon.name} fires at most RoF {weapon.rof}")
    left = shots_left(b.cond(cid), weapon)
    if left == 0:
        raise reject("maneuver/out_of_ammo", f"{weapon.name} is empty: a Ready reloads it in {weapon.reload} "
                     f"turn(s) (G-33)", field="weapon", reload=weapon.reload)
    if left is not None and shots > left:
        raise reject("maneuver/bad_shots", f"{weapon.name} has {left} shot(s) left, not {shots}", field="shots",
                     left=left)
    if option == "strong" and option not in aoa_options(weapon):
        raise reject("maneuver/bad_option", f"All-Out Attack (Strong) adds to ST-based thrust or swing damage; "
                     f"{weapon.name} does {weapon.damage} {'at range' if ranged else '(not ST-based)'} (G-22)",
                     field="option", known=list(aoa_options(weapon)))
    if option == "suppression" and option not in aoa_options(weapon):
        raise reject("maneuver/bad_option", "Suppression Fire needs RoF 5+ (G-23)")
    remaining, next_weapon = 0, ""
    if option == "double":  # G-22: two ready weapons, or one that need not be readied after use
        second = _weapon(b, cid, args, "weapon2") if args.get("weapon2") else weapon
        if second.name == weapon.name and weapon.needs_ready:
            raise reject("maneuver/bad_option", f"{weapon.name} must be readied after use: Double needs two weapons")
        remaining, next_weapon = 1, second.name
    payload = _base_payload(b, cid, maneuver, option, args, target=target, weapon=weapon.name)
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    if range_yards:
        payload["range"] = range_yards
    if left is not None:
        payload["shots_fired"] = shots  # counted down from the weapon's shots until a Ready reloads it
    b.emit("maneuver_chosen", payload)
    if option == "suppression":
        return  # G-23: Suppression Fire is adjudicated by the GM (its rules are not in the seed)
    if option == "feint":  # G-22 AOA (Feint): a Feint, then the attack on the same foe
        _feint_roll(b, cid, target, weapon, then_attack=True)
        return
    attacks.roll_attack(b, cid, target, weapon, maneuver, option, range_yards=range_yards,
                        target_speed=_int(args, "target_speed", 0, 0, 10000),
                        extra=attacks.extra_mods(args.get("modifiers")), remaining=remaining,
                        next_weapon=next_weapon, shots=shots, thrown_object=obj is not None, aimed=aimed)


def _refuse_inapplicable(args: Mapping[str, Any], weapon: Weapon, option: str, throwing: bool) -> None:
    """#14: a field of the attack that does not apply to this weapon or option is refused, not dropped."""
    why = {}
    if weapon.kind == "melee":
        why.update({k: f"{weapon.name} is a melee weapon: {k} is for a ranged or thrown attack (G-35)"
                    for k in ("range", "target_speed") if args.get(k) is not None})
    if args.get("weapon2") is not None and option != "double":
        why["weapon2"] = "a second weapon is for All-Out Attack (Double) (G-22)"
    if throwing and args.get("weapon"):
        why["weapon"] = "throwing an object uses no weapon (G-12)"
    if why:
        raise reject("command/unknown_field", "; ".join(why.values()), fields=sorted(why))


def _feint(b: Batch, cid: str, maneuver: str, option: str, args: Mapping[str, Any]) -> None:
    target = _target(b, cid, args)
    weapon = _weapon(b, cid, args)
    if not feints_with(weapon):
        raise reject("maneuver/bad_weapon", "a Feint needs a ready melee weapon (G-30)")
    payload = _base_payload(b, cid, maneuver, option, args, target=target, weapon=weapon.name)
    payload["moved"] = _yards(b, cid, args, int(payload["move_allowance"]))
    b.emit("maneuver_chosen", payload)
    _feint_roll(b, cid, target, weapon, then_attack=False)


def _feint_roll(b: Batch, cid: str, target: str, weapon: Weapon, then_attack: bool) -> None:
    cond = b.cond(cid)
    mods = []
    if cond.evaluate_target == target and cond.evaluate_bonus:
        mods.append(Mod(cond.evaluate_bonus, f"Evaluate x{cond.evaluate_bonus}", "G-29"))
    if cond.shock:
        mods.append(Mod(-cond.shock, "shock from last injury", "G-47"))
    mods.extend(attacks.fatigue_mods(b, cid))
    mods.extend(attacks.light_mods(b.state, cid, skill=True, sight=False))
    faces = b.roll(3, 6, "feint")
    rec = record(purpose="feint", roller=cid, dice=faces, base=weapon.skill, base_reason=f"{weapon.name} skill",
                 mods=mods, rule="G-30")
    tsheet = b.sheet(target)
    # G-30: the foe resists with the best of melee weapon skill, unarmed skill, Cloak, Shield or DX.
    candidates = [(tsheet.dx, "DX")]
    candidates += [(w.skill, f"{w.name} skill") for w in tsheet.all_weapons() if w.kind == "melee"]
    if tsheet.shield_skill is not None:
        candidates.append((tsheet.shield_skill, "Shield skill"))
    best, best_reason = max(candidates, key=lambda x: x[0])
    b.emit("feint_rolled", {"feinter": cid, "target": target, "weapon": weapon.name, "record": rec,
                            "then_attack": then_attack},
           opens=[roll_prompt(target, "feint_resist", f"{b.name(target)} resists {b.name(cid)}'s feint (G-30)",
                              feinter=cid, feinter_margin=int(rec["margin"]),
                              feinter_success=succeeded(str(rec["outcome"])), best=best, best_reason=best_reason,
                              weapon=weapon.name, then_attack=then_attack)])


def resolve_feint(b: Batch, pr: Prompt) -> None:
    """G-30 / A-14: the feint's penalty from the Quick Contest."""
    o = pr.options
    assert pr.combatant is not None
    target, feinter = pr.combatant, str(o["feinter"])
    faces = b.roll(3, 6, "resist feint")
    rec = record(purpose="feint_resist", roller=target, dice=faces, base=int(o["best"]), base_reason=str(o["best_reason"]),
                 mods=[], rule="G-30")
    ok_f, m_f = bool(o["feinter_success"]), int(o["feinter_margin"])
    ok_t, m_t = succeeded(str(rec["outcome"])), int(rec["margin"])
    if not ok_f:
        penalty, why = 0, "the feinter failed"
    elif not ok_t:
        penalty, why = m_f, "the foe failed: the feinter's margin of success (A-14)"
    elif m_t >= m_f:
        penalty, why = 0, "the foe's margin equals or beats the feinter's"
    else:
        penalty, why = m_f - m_t, "margin of victory"
    combat = b.combat
    then_attack = bool(o.get("then_attack"))
    # A normal Feint helps the next turn's attack; AOA (Feint) the attack this turn (G-30).
    feint_round = combat.round - 1 if then_attack else combat.round
    opens = []
    if then_attack:
        opens.append(roll_prompt(feinter, "attack", f"{b.name(feinter)} attacks after the feint (G-22)",
                                 target=target, weapon=str(o["weapon"]), maneuver="all_out_attack", option="feint",
                                 remaining=0))
    b.emit("feint_resisted", {"feinter": feinter, "target": target, "record": rec, "penalty": penalty, "why": why,
                              "round": feint_round}, opens=opens, answers=pr.id)


def can_trigger(cond: Condition) -> bool:
    """A Wait can fire while its combatant is able to act (G-34 with G-28, G-44, G-51)."""
    return bool(cond.wait_action) and not (cond.dead or cond.unconscious or cond.stunned or cond.collapsed)


def waiting_on(state: FightState, actor: str, asked: tuple[str, ...]) -> tuple[str, ...]:
    """G-34: the combatants, in turn order, whose Wait ``actor``'s maneuver may trigger and who were not asked yet."""
    combat = state.combat
    order = combat.order if isinstance(combat, Combat) else ()
    return tuple(cid for cid in order if cid != actor and cid not in asked and cid in state.combatants
                 and can_trigger(state.combatants[cid].condition))


def continue_declared(b: Batch) -> None:
    """G-34: a declared maneuver waits: ask the next seat whose Wait it may trigger, else resolve it.
    Resolving can fail when the interrupt changed things (the target fell): then the maneuver
    lapses and the combatant chooses again."""
    combat = b.combat
    actor, args = combat.declared_by, combat.declared
    waiters = waiting_on(b.state, actor, combat.wait_asked)
    maneuver = str(args.get("maneuver", ""))
    if waiters:
        cid = waiters[0]
        cond = b.cond(cid)
        what = MANEUVER_WORDS.get(maneuver, maneuver.replace("_", " "))
        b.emit("wait_asked", {"combatant": cid, "actor": actor, "maneuver": maneuver},
               opens=[open_prompt("wait", cid, f"{b.name(actor)} starts {what}: trigger {b.name(cid)}'s Wait "
                                               f"(“{cond.wait_trigger}”: {cond.wait_action.replace('_', ' ')})? (G-34)",
                                  actor=actor, maneuver=maneuver, trigger=cond.wait_trigger,
                                  action=cond.wait_action)])
        return
    trial = Batch(b.ruleset, b.state, StandInDice())
    try:
        resolve(trial, actor, {**args, "combatant": actor})
    except Rejected as exc:
        b.emit("declared_action_lapsed", {"combatant": actor, "maneuver": maneuver, "reason": exc.message})
        return
    resolve(b, actor, {**args, "combatant": actor})


#: "X starts ..." in a Wait prompt.
MANEUVER_WORDS = {"aim": "to Aim", "all_out_attack": "an All-Out Attack", "all_out_defense": "an All-Out Defense",
                  "attack": "an Attack", "change_posture": "to change posture", "concentrate": "to Concentrate",
                  "evaluate": "to Evaluate", "feint": "a Feint", "move": "a Move",
                  "move_and_attack": "a Move and Attack", "ready": "a Ready", "wait": "to Wait"}


def _refuse_wait_fields(command: str, name: str, action: str, fields: Mapping[str, Any]) -> None:
    """#14: a field the Wait's action does not take is refused, never dropped."""
    extra = sorted(k for k in fields if k not in WAIT_ACTION_FIELDS[action])
    if extra:
        raise reject("command/unknown_field", f"{command}: {name}'s Wait converts to {action.replace('_', ' ')}, "
                     f"which takes no {', '.join(repr(k) for k in extra)} (it takes "
                     f"{', '.join(WAIT_ACTION_FIELDS[action])})", fields=extra)


def answer_wait(b: Batch, args: Mapping[str, Any]) -> None:
    """G-34: the waiting seat (or the GM for it) answers: let the declared maneuver pass, or trigger
    the Wait, whose action interrupts before that maneuver resolves."""
    pr = answered(b.state, args.get("prompt"), "wait")
    assert pr.combatant is not None
    cid = pr.combatant
    cond = b.cond(cid)
    action = cond.wait_action
    fields = {k: v for k, v in args.items() if k not in ("prompt", "trigger")}
    if not args.get("trigger"):
        if fields:
            raise reject("command/unknown_field", f"answer_wait: letting it pass takes no "
                         f"{', '.join(repr(k) for k in sorted(fields))}", fields=sorted(fields))
        b.emit("wait_passed", {"combatant": cid, "actor": str(pr.options["actor"])}, answers=pr.id)
        return
    _refuse_wait_fields("answer_wait", b.name(cid), action, fields)
    # What the Wait declared fills what the answer leaves out: the foe who acts, the zone, the option, the item.
    defaults: dict[str, Any] = {}
    if action in ("attack", "all_out_attack", "feint"):
        defaults["target"] = str(pr.options["actor"])
    sheet = b.sheet(cid)
    aimed = str(fields.get("weapon") or (sheet.weapons[0].name if sheet.weapons else "punch"))
    if cond.wait_range and action in ("attack", "all_out_attack") and sheet.weapon(aimed).kind != "melee":
        defaults["range"] = cond.wait_range  # the zone covered: for the shot, not for a melee blow
    if cond.wait_item and action == "ready":
        defaults["item"] = cond.wait_item
    option = _waited_option(cond.wait_option, str(fields.get("option") or ""), action)
    b.emit("wait_triggered", {"combatant": cid, "action": action, "trigger": cond.wait_trigger}, answers=pr.id)
    _HANDLERS[action](b, cid, action, option, {**defaults, **fields, "combatant": cid})


def trigger_wait(b: Batch, args: Mapping[str, Any]) -> None:
    """G-34: the Wait's trigger happened: the action interrupts the sequence."""
    combat = b.combat
    cid = b.controlled(args)
    c = b.state.combatant(cid)
    cond = b.cond(cid)
    if not cond.wait_action:
        raise reject("wait/not_waiting", f"{c.name} is not waiting")
    if combat.current == cid:
        raise reject("wait/own_turn", "a Wait fires before your next turn, not during it")
    if combat.interrupted_by or any(p.kind != "dispute" for p in b.state.prompts):
        raise reject("command/prompt_pending", "answer the open prompt first")
    action = cond.wait_action
    _refuse_wait_fields("trigger_wait", c.name, action, {k: v for k, v in args.items() if k != "combatant"})
    option = _waited_option(cond.wait_option, _str(args, "option", required=False), action)
    b.emit("wait_triggered", {"combatant": cid, "action": action, "trigger": cond.wait_trigger})
    _HANDLERS[action](b, cid, action, option, args)


def _waited_option(declared: str, given: str, action: str) -> str:
    """G-34: the All-Out Attack option a Wait declared in advance is the one it fires with; naming it
    again is fine, naming another is refused (a Wait declared before the option was recorded takes
    the one given, as it always did)."""
    if declared and given and given != declared:
        raise reject("wait/option_declared", f"this Wait declared its All-Out Attack option in advance: {declared}, "
                     f"not {given} (G-34)", field="option", declared=declared)
    return given or declared or ("determined" if action == "all_out_attack" else "")


_HANDLERS: dict[str, Callable[[Batch, str, str, str, Mapping[str, Any]], None]] = {
    "aim": _aim,
    "all_out_attack": _attack_like,
    "all_out_defense": _all_out_defense,
    "attack": _attack_like,
    "change_posture": _change_posture,
    "concentrate": _concentrate,
    "do_nothing": _do_nothing,
    "evaluate": _evaluate,
    "feint": _feint,
    "move": _simple,
    "move_and_attack": _attack_like,
    "ready": _ready,
    "wait": _wait,
}
