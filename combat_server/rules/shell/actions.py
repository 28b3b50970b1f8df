"""A combatant's action on its turn (S-17 ... S-24, S-40 ... S-44): the ``act`` command.

Each maneuver is one branch: it checks what the rules allow (S-17 movement, S-41
close-combat restrictions, S-30 no ranged attack unseen, ...), records the maneuver
(its AT/DEF modifiers last until the character's next action, S-18) and, for an
attack, declares it with every AT modifier and opens the defender's prompt (S-25:
the defence is stated before the roll). The roll and its results are attacks.py."""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.kit.prompts import open_prompt
from combat_server.rules.model import JSON
from combat_server.rules.shell import bodies, casting, charts, damage, limbs, resolution
from combat_server.rules.shell.attacks import (CLOSE_RESPONSE, declare, grapple_at, grapple_odds, keep_spell_roll,
                                               responses)
from combat_server.rules.shell.batch import Batch, can_act, weapons_in_hand
from combat_server.rules.shell.events import attack_to_json
from combat_server.rules.shell.sheet import Weapon, max_range
from combat_server.rules.shell.state import Attack

#: Maneuvers that make an attack roll.
ATTACKING = ("attack", "disarm", "takedown", "pin", "escape")
#: Every maneuver ``act`` takes (S-18 chart, S-17 move, S-40 ... S-43, S-44, S-24 ``other``).
MANEUVER_NAMES = ("attack", "guard", "defend", "disarm", "aim", "move", "stand", "cast", "enter_close",
                  "takedown", "pin", "escape", "preempt", "other")


def act(b: Batch, args: Mapping[str, Any]) -> None:
    cid = b.controlled(args)
    m = str(args["maneuver"])
    combat = b.combat
    if m == "preempt":
        _preempt(b, cid, args)
        return
    if b.state.status != "active" or combat.current != cid or combat.acted or b.state.prompts \
            or combat.attack is not None:
        raise reject("turn/not_yours", f"it is not {b.name(cid)}'s turn to act")
    cond = b.cond(cid)
    moved = int(args.get("moved") or 0)
    _check_move(b, cid, m, moved)
    if cond.pinned_by and m not in ("escape", "cast", "defend"):
        raise reject("maneuver/pinned", f"{b.name(cid)} is pinned: it may only try to escape (S-43)", field="maneuver")
    if cond.casting and not (m == "cast" and args.get("spell") in (None, "", cond.casting)):
        b.emit("spell_lost", {"combatant": cid, "spell": cond.casting, "reason": "it took another maneuver"})
    elif cond.casting and moved > 1 and b.option("cinematic_casting"):
        keep_spell_roll(b, cid)  # S-44 cinematic option
    elif cond.casting and moved > 1:
        b.emit("spell_lost", {"combatant": cid, "spell": cond.casting, "reason": "it moved more than one step"})
    if m in ATTACKING or (m == "other" and args.get("target")):
        _attack(b, cid, m, moved, args)
    elif m == "enter_close":
        _enter_close(b, cid, moved, args)
    elif m == "cast":
        _cast(b, cid, moved, args)
    elif m == "aim":
        _aim(b, cid, args)
    else:
        _plain(b, cid, m, moved, args)


def _check_move(b: Batch, cid: str, m: str, moved: int) -> None:
    """S-17: a step (1 unit) and a maneuver, or a move of up to MV points; S-19 the attack may
    move up to MV points first. The step is not drawn from the MV points (seed: "one step and
    one maneuver ... alternatively ... as many units as MV points"), so it is left with 0 of them.
    A-61 "immobile": no movement at all."""
    now = b.now(cid)
    points = now.mv_points
    if b.cond(cid).knocked_down and moved and m != "move":
        raise reject("maneuver/knocked_down", f"{b.name(cid)} is down: it must stand before it moves (S-28)",
                     field="moved")
    step = 0 if now.derived.overloaded else 1  # A-61 "immobile": not even a step
    limit = points if m == "move" else max(points, step) if m in ("attack", "enter_close") else step
    body = b.limbs(cid)
    legs = limbs.move_limit(body)
    if legs is not None and moved > legs and legs < limit:  # S-37: a crippled leg is unusable
        raise limbs.legs_refusal(body, b.name(cid), f"it cannot move {moved} unit(s)", "moved")
    if moved > limit:
        raise reject("maneuver/too_far", f"{b.name(cid)} may move at most {limit} unit(s) with {m} "
                     f"(a step, or MV points {points} to move or attack; S-17, S-19)", field="moved", most=limit)


def _wields(b: Batch, cid: str, weapon: Weapon, two_handed: bool, what: str, field: str = "weapon") -> None:
    """S-37 item 1: a weapon (or a bare hand) needs an arm in use, a two-handed one both (S-48)."""
    limbs.require_arms(b.limbs(cid), limbs.arms_needed(weapon, two_handed), b.name(cid), what or f"the {weapon.name}",
                       field)


def _plain(b: Batch, cid: str, m: str, moved: int, args: Mapping[str, Any]) -> None:
    cond = b.cond(cid)
    payload: dict[str, JSON] = {"combatant": cid, "maneuver": m, "moved": moved, "active": moved > 0}
    if m == "guard":
        weapon = b.weapon(cid, str(args.get("weapon") or ""))
        _wields(b, cid, weapon, False, f"a Guard with the {weapon.name}")
        payload["weapon"] = weapon.name
    elif m == "stand":
        if not cond.knocked_down:
            raise reject("maneuver/not_down", f"{b.name(cid)} is not down", field="maneuver")
        if cond.pinned_by or cond.pinning:
            raise reject("maneuver/pinned", f"{b.name(cid)} cannot stand while in a pin (S-43)", field="maneuver")
        payload["stands"] = True
    elif m == "move":
        payload["leaves_close"] = bool(cond.close_with) and moved > 0 and not cond.pinning
    elif m == "other":
        _cinematic(b, args, payload)
    b.emit("maneuver_taken", payload)


def _cinematic(b: Batch, args: Mapping[str, Any], payload: dict[str, JSON]) -> None:
    """S-24: a GM-defined maneuver, only in fights with the cinematic_maneuvers option."""
    if not b.option("cinematic_maneuvers"):
        raise reject("maneuver/cinematic_off", "this fight does not use GM-defined maneuvers (option "
                     "cinematic_maneuvers, S-24)", field="maneuver")
    payload.update(name=str(args.get("name") or "other"), at_mod=int(args.get("at_mod") or 0),
                   def_mod=int(args.get("def_mod") or 0))


def _aim(b: Batch, cid: str, args: Mapping[str, Any]) -> None:
    """S-23 / A-67 / R-15: consecutive aim turns at the same target with a ranged weapon, no step."""
    target = _target(b, cid, args)
    weapon = b.weapon(cid, str(args.get("weapon") or ""))
    if not weapon.ranged:
        raise reject("maneuver/aim_ranged_only", "only a ranged attack gains from aiming (R-15)", field="weapon")
    limbs.refuse_blind(b.limbs(cid), b.name(cid), "aim", "maneuver")
    _wields(b, cid, weapon, False, f"aiming the {weapon.name}")
    if args.get("moved"):
        raise reject("maneuver/too_far", "aiming means standing still: no step (A-67)", field="moved")
    cond = b.cond(cid)
    turns = cond.aim_turns + 1 if cond.maneuver == "aim" and cond.aim_target == target else 1
    b.emit("maneuver_taken", {"combatant": cid, "maneuver": "aim", "target": target, "weapon": weapon.name,
                              "aim_turns": turns, "active": False})


def _target(b: Batch, cid: str, args: Mapping[str, Any]) -> str:
    target = str(args.get("target") or "")
    if not target:
        raise reject("command/missing_field", "act: this maneuver needs a target", field="target")
    if target == cid or target not in b.state.combatants:
        raise reject("attack/bad_target", f"{b.name(cid)} cannot target {target!r}", field="target")
    if b.cond(target).dead:
        raise reject("attack/bad_target", f"{b.name(target)} is dead", field="target")
    return target


def _attack(b: Batch, cid: str, m: str, moved: int, args: Mapping[str, Any], preempt: bool = False) -> None:
    target = _target(b, cid, args)
    sheet, cond, tcond = b.sheet(cid), b.cond(cid), b.cond(target)
    now = b.now(cid)
    kind = {"takedown": "takedown", "pin": "pin", "escape": "escape", "disarm": "disarm"}.get(m, "attack")
    if preempt:
        kind = "preempt"
    close = bool(cond.close_with)
    if kind in ("takedown", "pin", "escape"):
        weapon = _grapple_checks(b, cid, target, kind)
        if kind != "escape":  # S-37 item 1; escaping a pin stays open (docs/shell.md)
            _wields(b, cid, weapon, False, f"a {kind}")
    else:
        weapon = b.weapon(cid, str(args.get("weapon") or (cond.guard_weapon if preempt else "")))
        _wields(b, cid, weapon, bool(args.get("two_handed")), "")
    if close and kind not in ("takedown", "pin", "escape"):
        if target != cond.close_with:
            raise reject("attack/close_combat", f"{b.name(cid)} is in close combat with {b.name(cond.close_with)} "
                         "and can reach no one else (S-41)", field="target")
        if not (weapon.close_combat or weapon.name == "bare hand"):
            raise reject("attack/close_combat", f"in close combat only bare hands and close-combat weapons work; "
                         f"not the {weapon.name} (S-41)", field="weapon")
        if cond.pinning == target and weapon.name == "bare hand":
            raise reject("attack/pinner_bare_hand", "a pinner cannot strike the pinned with bare hands (S-43)",
                         field="weapon")
    location = str(args.get("location") or "torso")
    if args.get("area"):
        location = damage.AREA_LOCATION  # S-38: general damage, torso armour protects
    target_weapon = ""
    if kind == "disarm":
        location = "weapon"
        target_weapon = _target_weapon(b, target, args)
        if weapon.name != "bare hand" and not weapon.can_disarm:
            raise reject("attack/cannot_disarm", f"the {weapon.name} cannot disarm (S-22)", field="weapon")
    elif location == "weapon":
        target_weapon = _target_weapon(b, target, args)
    else:
        _reachable(b, target, location, bool(args.get("higher")))
    if kind in ("takedown", "pin", "escape"):
        location = "torso"
    ranged = weapon.ranged
    range_units = int(args.get("range") or 0)
    speed = 1
    if ranged:
        if close:
            raise reject("attack/close_combat", "no ranged attacks in close combat (S-41)", field="weapon")
        limbs.refuse_blind(b.limbs(cid), b.name(cid), "ranged attack", "weapon")
        if args.get("cant_see"):
            raise reject("attack/cannot_see", "a ranged attack needs to see the target (S-30)", field="cant_see")
        most = max_range(sheet, weapon)
        if range_units <= 0:
            raise reject("command/missing_field", "act: a ranged attack needs the range in units (S-30)", field="range")
        if range_units > most:
            raise reject("attack/out_of_range", f"the {weapon.name} reaches {most:g} units at most (S-27)",
                         field="range", most=most)
        speed = resolution.effective_speed(weapon.speed, range_units, most, weapon.low_tech)  # S-27, R-02
        if args.get("charge"):
            raise reject("attack/charge_ranged", "a charge is a head-on approach into melee: its damage bonus is "
                         f"for a melee blow, not the {weapon.name}'s shot (S-19)", field="charge")
    two_handed = bool(args.get("two_handed")) and weapon.hands in ("two", "either")
    dtype = str(args.get("damage_type") or weapon.damage_types[0])
    if dtype not in weapon.damage_types:
        raise reject("attack/bad_damage_type", f"the {weapon.name} does {', '.join(weapon.damage_types)} damage",
                     field="damage_type", known=list(weapon.damage_types))
    non_lethal = bool(args.get("non_lethal"))
    if non_lethal and (dtype != "cr" or damage.kind(location) not in ("torso", "head")):
        raise reject("attack/bad_non_lethal", "only crushing blows to the torso or head can do stun damage (S-35)",
                     field="non_lethal")
    maneuver = "guard" if kind == "counter" else ("attack" if preempt else m)
    maneuver_at = int(args.get("at_mod") or 0) if m == "other" else None
    if m == "other":
        payload: dict[str, JSON] = {}
        _cinematic(b, args, payload)
        maneuver = str(payload["name"])
        maneuver_at = int(payload["at_mod"])
    st_diff, weight = 0, 0.0
    if kind in ("takedown", "pin", "escape"):
        st_diff, weight = grapple_odds(b.state, cid, target, kind, bool(b.option("fatigue_rederives_mv")))
    aim = cond.aim_turns if (ranged and cond.maneuver == "aim" and cond.aim_target == target) else 0
    situation = resolution.AttackSituation(
        maneuver=maneuver, maneuver_at=maneuver_at, location=damage.kind(location) if location != "weapon" else "weapon",
        body=b.sheet(target).body,
        far_side=bool(args.get("far_side")), moved_steps=moved, wild_swing=bool(args.get("wild_swing")),
        off_hand=bool(args.get("off_hand")), higher=bool(args.get("higher")),
        cant_see=bool(args.get("cant_see")) or bool(b.limbs(cid).eyes_out),  # S-37: a blind attacker, S-29
        bare_hand_disarm=kind == "disarm" and weapon.name == "bare hand", ranged=ranged, aim_turns=aim,
        range_units=range_units, target_moved=tcond.moved if ranged else 0,
        obstructions=int(args.get("obstructions") or 0), st_difference=st_diff, weight_difference=weight)
    if preempt and b.option("guard_preemptive_bonus"):
        situation = attrs.evolve(situation, maneuver="guard")  # A-65 (cfg): the Guard's +1 kept
    at = tuple(resolution.base_at(sheet, weapon, two_handed, ag=now.ag, st=now.st)) + tuple(
        resolution.situation_at(situation, sheet.ambidextrous))
    charge = charts.charge_bonus(moved) if args.get("charge") and kind in ("attack", "preempt") else 0
    attack = Attack(attacker=cid, target=target, kind=kind, weapon=weapon.name, maneuver=maneuver, at=at,
                    location=location, damage_type=dtype, non_lethal=non_lethal, two_handed=two_handed,
                    charge=charge, ranged=ranged, speed=speed, unaware=bool(args.get("unaware")),
                    target_weapon=target_weapon, then_pin=bool(args.get("then_pin")) and kind == "takedown")
    b.emit("maneuver_taken", {"combatant": cid, "maneuver": maneuver if m != "other" else "other", "moved": moved,
                              "target": target, "weapon": weapon.name, "interrupt": preempt,
                              "name": maneuver if m == "other" else "",
                              "at_mod": maneuver_at or 0, "def_mod": int(args.get("def_mod") or 0) if m == "other" else 0})
    declare(b, attack)


def _reachable(b: Batch, target: str, location: str, higher: bool) -> None:
    """S-16 / A-63: the defender's own body table says which locations there are to aim at,
    and its size which are out of reach (a huge creature's head, unless attacking from higher)."""
    tsheet = b.sheet(target)
    row = bodies.location(tsheet.body, location)
    if row is None:
        raise reject("command/bad_field", f"act: {b.name(target)} ({tsheet.body}) has no hit location {location!r} "
                     "(S-16, A-63)", field="location", known=sorted(r.name for r in bodies.table(tsheet.body)))
    if row.kind in bodies.unreachable(tsheet.size, higher):
        raise reject("attack/unreachable", f"{b.name(target)} is {tsheet.size}: its {location} is out of reach "
                     "(S-16)", field="location")


def _target_weapon(b: Batch, target: str, args: Mapping[str, Any]) -> str:
    held = [w.name for w in weapons_in_hand(b.state, target) if w.name != "bare hand"]
    if not held:  # S-22: nothing to strike at, whichever weapon is named (none named: not '' either)
        raise reject("attack/no_weapon", f"{b.name(target)} holds no weapon to strike at (S-22)",
                     field="target_weapon", known=held)
    if not args.get("target_weapon") and len(held) > 1:
        raise reject("command/missing_field", f"act: name the weapon of {b.name(target)} to strike at "
                     f"(target_weapon: {', '.join(held)}; S-22)", field="target_weapon", known=held)
    wanted = str(args.get("target_weapon") or held[0])
    if wanted not in held:
        raise reject("attack/no_weapon", f"{b.name(target)} holds no weapon {wanted!r} to aim at (S-22)",
                     field="target_weapon", known=held)
    return wanted


def _grapple_checks(b: Batch, cid: str, target: str, kind: str) -> Weapon:
    """S-41 ... S-43: takedown and pin inside close combat; a pin only against a downed defender;
    an escape only from one's own pinner."""
    cond, tcond = b.cond(cid), b.cond(target)
    if kind == "escape":
        if cond.pinned_by != target:
            raise reject("attack/not_pinned", f"{b.name(cid)} is not pinned by {b.name(target)} (S-43)",
                         field="target")
    elif cond.close_with != target:
        raise reject("attack/not_in_close_combat", f"{b.name(cid)} must be in close combat with {b.name(target)} "
                     f"to {kind} (S-41)", field="target")
    if kind == "pin" and not tcond.knocked_down:
        raise reject("attack/not_down", f"only a downed defender can be pinned; {b.name(target)} is standing (S-43)",
                     field="target")
    return grapple_at(b.state, cid, target, kind, False)[0]


def _preempt(b: Batch, cid: str, args: Mapping[str, Any]) -> None:
    """S-20 / A-65: a Guard may strike an enemy about to act otherwise, before its action: a plain
    attack (AT 0 from the maneuver) unless guard_preemptive_bonus keeps the +1."""
    combat = b.combat
    cond = b.cond(cid)
    if not cond.guard_weapon or cond.maneuver != "guard":
        raise reject("maneuver/no_guard", f"{b.name(cid)} is not on Guard with an attack left (S-20, A-65)",
                     field="maneuver")
    if combat.current == cid or combat.acted or b.state.prompts or combat.attack is not None \
            or args.get("target") != combat.current:
        raise reject("maneuver/not_now", "a pre-emptive strike is made at the combatant about to act, before it "
                     "acts (S-20)", field="target")
    _attack(b, cid, "attack", 0, {**args, "weapon": cond.guard_weapon}, preempt=True)


def _enter_close(b: Batch, cid: str, moved: int, args: Mapping[str, Any]) -> None:
    """S-40: step into the defender's unit; it may answer with a stop thrust or a shield block, each
    one of its defences this round (S-28), if it has one left."""
    target = _target(b, cid, args)
    cond, tcond = b.cond(cid), b.cond(target)
    if cond.close_with or tcond.close_with:
        raise reject("maneuver/already_close", "one of them is already in close combat (S-40)", field="target")
    body = b.limbs(cid)
    if limbs.move_limit(body) == 0:  # S-37: stepping in is a step
        raise limbs.legs_refusal(body, b.name(cid), "it cannot step into close combat", "maneuver")
    charge = charts.charge_bonus(moved) if args.get("charge") else 0
    b.emit("maneuver_taken", {"combatant": cid, "maneuver": "enter_close", "moved": moved, "target": target})
    options = responses(b.state, target)
    if not options or not can_act(b.state, target):
        b.emit("close_entry", {"attacker": cid, "target": target, "entered": True,
                               "reason": "no stop thrust or shield block was possible"})
        return
    b.emit("attack_declared", {"attack": attack_to_json(Attack(
        attacker=cid, target=target, kind="enter", weapon="", maneuver="enter_close", charge=charge))},
        opens=[open_prompt(CLOSE_RESPONSE, target, f"{b.name(cid)} steps in to close combat with "
                           f"{b.name(target)}: stop thrust, shield block or let it in (S-40)",
                           attacker=cid, responses=options)])


def _cast(b: Batch, cid: str, moved: int, args: Mapping[str, Any]) -> None:
    """S-44: casting time 0 rolls now; N > 0 begins N turns of concentration, then the roll on the
    caster's turn. Concentrating is not an active round (R-19)."""
    cond = b.cond(cid)
    spell_name = str(args.get("spell") or cond.casting)
    art, spell = _spell(b, cid, spell_name)
    target = str(args.get("target") or cond.cast_target)
    if target and target not in b.state.combatants:
        raise reject("attack/bad_target", f"no combatant {target!r} to cast at", field="target")
    b.emit("maneuver_taken", {"combatant": cid, "maneuver": "cast", "moved": moved, "target": target,
                              "active": moved > 0})
    # S-12: a target whose MR reaches the spell's minimum level is immune: no roll is asked for, the
    # spell takes no effect and costs no END (docs/shell.md)
    immune = bool(target) and resolution.mr_immune(spell, b.sheet(target).mr)
    roll = [] if immune else [b.ask_roll(cid, "spell", f"{b.name(cid)} rolls for {spell.name} (S-12, S-44)",
                                         spell=spell.name, art=art, target=target)]
    if cond.casting == spell.name:
        ready = casting.rolls_now(spell.casting_time, cond.cast_turns)
        b.emit("concentrated", {"combatant": cid, "spell": spell.name,
                                "turns": cond.cast_turns + (0 if ready else 1)}, opens=roll if ready else [])
    else:
        ready = spell.casting_time == 0
        b.emit("spell_begun", {"combatant": cid, "spell": spell.name, "casting_time": spell.casting_time,
                               "target": target}, opens=roll if ready else [])
    if immune and ready:
        b.emit("spell_cast", {"combatant": cid, "spell": spell.name, "target": target, "record": None,
                              "success": False, "end_cost": 0, "end": cond.end, "immune": True})


def _spell(b: Batch, cid: str, name: str) -> tuple[str, Any]:
    for art in b.sheet(cid).arts:
        for spell in art.spells:
            if spell.name == name:
                if art.level < spell.min_level:
                    raise reject("spell/below_minimum", f"{spell.name} needs {art.name} at level {spell.min_level}; "
                                 f"{b.name(cid)} has {art.level}: no chance (S-10, S-12)", field="spell")
                return art.name, spell
    raise reject("spell/unknown", f"{b.name(cid)} knows no spell {name!r}", field="spell",
                 known=[s.name for a in b.sheet(cid).arts for s in a.spells])


