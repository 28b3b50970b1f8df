"""An attack from its declaration to its last consequence (S-25 ... S-45).

declare -> the defender's prompt (S-25: dodge or block stated first) -> ``defend``
rolls R = 2d10 + AT - DEF on the result chart -> a damage roll for the body, the
shield or the blocking weapon (S-32 ... S-38, S-45) -> what follows: a Guard's
counterattack (S-20), the outcome of a step into close combat (S-40), a pin after a
takedown (A-80). Every roll is a roll record with each modifier's reason and S id."""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.kit.prompts import answered, open_prompt
from combat_server.rules.kit.rolls import Mod, record
from combat_server.rules.model import JSON, FightState
from combat_server.rules.shell import close_combat, damage, limbs, resolution
from combat_server.rules.shell.batch import Batch, best_hand_style, can_act, has_shield, now, weapons_in_hand
from combat_server.rules.shell.events import attack_to_json, cond_of
from combat_server.rules.shell.resolution import DEFENDED, HIT, MISS, SHIELD_HIT
from combat_server.rules.shell.sheet import Sheet, Weapon, bare_hand, damage_parts, derive
from combat_server.rules.shell.state import Attack

DEFENCE = "defence"
CLOSE_RESPONSE = "close_response"
GRAPPLES = ("takedown", "pin", "escape")


# --------------------------------------------------------------------------- declaring


def declare(b: Batch, attack: Attack) -> None:
    """S-25: the defender states its defence before the roll; without one (unaware, immobile) it
    is hit automatically in melee, or rolled against base DEF 0 at range (S-26, S-28, A-69)."""
    defenceless = attack.unaware or not can_act(b.state, attack.target)
    if defenceless and not attack.ranged:
        b.emit("attack_declared", {"attack": attack_to_json(attack)})
        _automatic(b, attack)
        return
    text = (f"{b.name(attack.attacker)} attacks {b.name(attack.target)}"
            + (" at range" if attack.ranged else "") + ": dodge or block (S-25)")
    b.emit("attack_declared", {"attack": attack_to_json(attack)},
           opens=[open_prompt(DEFENCE, attack.target, text, attacker=attack.attacker, defenceless=defenceless)])


def grapple_odds(state: FightState, cid: str, target: str, kind: str, rederive: bool) -> tuple[int, float]:
    """S-42 / S-43 / A-80: the ST difference (current ST, S-13) and, for a pin, the weight difference."""
    me, them = now(state, cid, rederive), now(state, target, rederive)
    weight = me.sheet.body_weight - them.sheet.body_weight if kind == "pin" else 0.0
    return close_combat.takedown_mod(me.st, them.st), weight


def grapple_at(state: FightState, cid: str, target: str, kind: str, rederive: bool) -> tuple[Weapon, tuple[Mod, ...]]:
    """S-42 / S-43: a bare-hand attack roll, +-1 per point of ST difference; a pin also +-1 per whole
    20 lb of weight difference. An escape is a takedown roll against the pinner."""
    sheet = state.combatants[cid].sheet
    style = best_hand_style(sheet)
    if style is None:
        raise reject("attack/no_style", f"{state.combatants[cid].name} has no fighting style to grapple with (S-42)")
    hand = bare_hand(style.name)
    st_diff, weight = grapple_odds(state, cid, target, kind, rederive)
    me = now(state, cid, rederive)
    situation = resolution.AttackSituation(maneuver="attack", st_difference=st_diff, weight_difference=weight)
    return hand, tuple(resolution.base_at(sheet, hand, ag=me.ag, st=me.st)) + tuple(
        resolution.situation_at(situation, sheet.ambidextrous))


def melee_at(state: FightState, cid: str, weapon: Weapon, maneuver: str, rederive: bool) -> tuple[Mod, ...]:
    """A torso attack with no situation but the maneuver (S-26, S-18): counterattacks and stop thrusts."""
    sheet = state.combatants[cid].sheet
    me = now(state, cid, rederive)
    return tuple(resolution.base_at(sheet, weapon, ag=me.ag, st=me.st)) + tuple(
        resolution.situation_at(resolution.AttackSituation(maneuver=maneuver), sheet.ambidextrous))


# --------------------------------------------------------------------------- defending


@attrs.frozen
class Defence:
    """One defence the defender may state, with its DEF modifiers and the shield PR of the chart."""

    defence: str  # dodge | block | none
    with_: str  # the blocking weapon or "shield"
    mods: tuple[Mod, ...]
    shield_pr: int | None

    @property
    def total(self) -> int:
        return resolution.total(self.mods)


def in_close(state: FightState, attack: Attack) -> bool:
    return attack.kind in GRAPPLES or cond_of(state, attack.target).close_with == attack.attacker


def defences(state: FightState, attack: Attack, flags: Mapping[str, Any] = {}, rederive: bool = False) -> list[Defence]:
    """Every defence the target has against ``attack`` now (S-26 ... S-31, S-41, A-68, A-70)."""
    cid = attack.target
    sheet, cond = state.combatants[cid].sheet, cond_of(state, cid)
    me = now(state, cid, rederive)
    close = in_close(state, attack)
    shield = sheet.shield if has_shield(state, cid) else None
    pr = shield.pr if shield is not None and not close and attack.location != "weapon" else None  # A-68, S-41
    body = limbs.of(sheet.body, cond.crippled)
    situation = resolution.DefenceSituation(
        last_maneuver=cond.maneuver or "attack", maneuver_def=cond.maneuver_def if cond.maneuver == "other" else None,
        wild_block=bool(flags.get("wild")), off_hand_block=bool(flags.get("off_hand")), higher=bool(flags.get("higher")),
        stunned=cond.stunned, cant_see=bool(flags.get("cant_see")) or bool(body.eyes_out),  # S-37: blind
        knocked_down=cond.knocked_down)
    extra = tuple(resolution.situation_def(situation, sheet.ambidextrous))

    def base(mods: list[Mod]) -> tuple[Mod, ...]:
        return tuple(resolution.ranged_base_def(mods, attack.speed)) if attack.ranged else tuple(mods)

    out = [Defence("dodge", "", base(resolution.dodge_def(sheet, me.derived.el, ag=me.ag)) + extra, pr)]
    if not cond.knocked_down and not close:  # S-28, S-41: dodge only
        blockers: list[tuple[str, str, Weapon | None]] = []
        for w in weapons_in_hand(state, cid):
            if not w.ranged and (not attack.ranged or w.can_parry_ranged) \
                    and limbs.has_arms(body, limbs.arms_needed(w)):  # S-27, S-37
                blockers.append((w.name, w.style, w))
        style = best_hand_style(sheet)
        if shield is not None and style is not None and limbs.has_arms(body, 1):
            blockers.append(("shield", style.name, None))
        for name, style_name, weapon in blockers:
            level = sheet.style(style_name).level
            if resolution.can_block(level, cond.blocks_used):  # S-28, R-13
                out.append(Defence("block", name, base(resolution.block_def(sheet, style_name, weapon, ag=me.ag))
                                   + extra, pr))
    out.append(Defence("none", "", (), pr))
    return out


def defend(b: Batch, args: Mapping[str, Any]) -> None:
    """S-25: the defence stated, the attacker rolls 2d10; R = 2d10 + AT - DEF read on the chart."""
    prompt = answered(b.state, args["prompt"], DEFENCE)
    attack = b.combat.attack
    assert attack is not None
    defenceless = bool(prompt.options.get("defenceless"))
    wanted, with_ = str(args["defence"]), str(args.get("with") or "")
    if args.get("higher") and any(m.reason == resolution.HIGHER_AT for m in attack.at):
        raise reject("defence/both_higher", f"{b.name(attack.attacker)} already attacks from higher ground (S-29): "
                     f"{b.name(attack.target)} cannot also be higher than its attacker (S-31)", field="higher")
    choices = defences(b.state, attack, args, bool(b.option("fatigue_rederives_mv")))
    if defenceless:
        choice = Defence("none", "", (), None)  # S-27, A-69: base DEF 0; an unaware defender's shield gives no cover (E-12)
        if wanted != "none":
            raise reject("defence/not_possible", f"{b.name(attack.target)} cannot defend this attack (S-28)",
                         field="defence")
    else:
        found = [d for d in choices if d.defence == wanted and (wanted != "block" or not with_ or d.with_ == with_)]
        if not found and wanted == "block":
            _require_arms_for(b, attack.target, with_, f"a block with the {with_ or 'shield or a weapon'}", "defence")
        if not found:
            raise reject("defence/not_possible", f"{b.name(attack.target)} cannot {wanted}"
                         + (f" with the {with_}" if with_ else "") + " now (S-27, S-28, S-41)", field="defence",
                         known=[f"{d.defence}:{d.with_}" if d.with_ else d.defence for d in choices])
        choice = found[0]
    faces = b.roll(2, 10, f"attack by {b.name(attack.attacker)}")
    rolled = resolution.resolve((faces[0], faces[1]), attack.at, choice.mods, choice.shield_pr,
                                at_weapon=attack.location == "weapon", defenceless=defenceless or wanted == "none")
    rec = record(purpose="attack", roller=attack.attacker, dice=faces, base=0, base_reason="2d10 + AT (S-25)",
                 mods=attack.at, judge=lambda total, at: rolled.outcome, rule="S-25")
    payload: dict[str, JSON] = {
        "attacker": attack.attacker, "defender": attack.target, "defence": choice.defence, "record": rec,
        "def_mods": [m.to_json() for m in choice.mods], "def_total": choice.total, "r": rolled.r,
        "result": rolled.outcome, "shield_pr": choice.shield_pr, "blocked_with": choice.with_}
    _consequences(b, attack, rolled.outcome, choice, payload, prompt.id)
    _interrupts(b, attack.target, choice.defence)


def _require_arms_for(b: Batch, cid: str, weapon_name: str, what: str, field: str) -> None:
    """S-37 item 1: a block, parry or stop thrust needs an arm in use, with a two-handed weapon both
    (``weapon_name`` one it holds; else, a shield or nothing named, one arm)."""
    held = {w.name: w for w in weapons_in_hand(b.state, cid)}
    limbs.require_arms(b.limbs(cid), limbs.arms_needed(held.get(weapon_name)), b.name(cid), what, field)


def _interrupts(b: Batch, cid: str, defence: str) -> None:
    """S-44: blocking or dodging loses a spell (cinematic_casting: a WP roll instead)."""
    if defence == "none" or cid not in b.state.combatants:
        return
    cond = b.cond(cid)
    if cond.casting and b.option("cinematic_casting"):
        keep_spell_roll(b, cid)
    elif cond.casting:
        b.emit("spell_lost", {"combatant": cid, "spell": cond.casting, "reason": f"it defended ({defence})"})


def keep_spell_roll(b: Batch, cid: str) -> None:
    """S-44 cinematic option: a WP roll keeps the spell after moving or defending."""
    rec = b.check(cid, "wp_keep_spell", derive(b.sheet(cid)).wp, "WP", (), "S-44")
    b.emit("check_rolled", {"combatant": cid, "purpose": "wp_keep_spell", "record": rec,
                            "success": rec["outcome"] == "success"})


def _automatic(b: Batch, attack: Attack) -> None:
    """S-26 / S-28: an unaware or immobile defender is hit automatically in melee."""
    rec = {"purpose": "attack", "roller": attack.attacker, "dice": [], "outcome": HIT, "rule": "S-26"}
    payload: dict[str, JSON] = {"attacker": attack.attacker, "defender": attack.target, "defence": "none",
                                "record": rec, "def_mods": [], "def_total": 0, "r": 0, "result": HIT,
                                "automatic": True}
    _consequences(b, attack, HIT, Defence("none", "", (), None), payload, None)


def _consequences(b: Batch, attack: Attack, result: str, choice: Defence, payload: dict[str, JSON],
                  answers: str | None) -> None:
    """What the chart result sets off (S-22, S-25, S-40, S-42, S-43, S-45)."""
    kind = attack.kind
    if kind in GRAPPLES:
        b.emit("attack_resolved", payload, answers=answers)
        b.emit("grapple_resolved", {"attacker": attack.attacker, "target": attack.target, "kind": kind,
                                    "success": result == HIT})
        if kind == "takedown" and attack.then_pin and result == HIT and can_act(b.state, attack.attacker):
            hand, at = grapple_at(b.state, attack.attacker, attack.target, "pin", bool(b.option("fatigue_rederives_mv")))
            declare(b, Attack(attacker=attack.attacker, target=attack.target, kind="pin", weapon=hand.name,
                              maneuver="pin", at=at, damage_type="cr"))  # the free pin roll
        return
    if kind == "disarm" and result == HIT:
        b.emit("attack_resolved", payload, answers=answers)
        b.emit("disarmed", {"combatant": attack.target, "weapon": attack.target_weapon, "by": attack.attacker})
        return
    if kind == "shield_block":
        b.emit("attack_resolved", dict(payload, done=True), answers=answers)
        hit = result in (HIT, SHIELD_HIT)
        b.emit("close_entry", {"attacker": attack.target, "target": attack.attacker, "entered": not hit,
                               "reason": "the shield block hit" if hit else "the shield block missed (A-79)"})
        return
    target, obj = "", ""
    if result == HIT and attack.location != "weapon":
        target = "body"
    elif result == HIT:
        target, obj = "object", attack.target_weapon
    elif result == SHIELD_HIT:
        target, obj = "object", "shield"
    elif result == DEFENDED and choice.defence == "block" and choice.with_ != "bare hand":
        target, obj = "object", choice.with_  # S-25, S-45: a block damages the blocking weapon or shield
    if target:
        what = f"the {obj}" if obj else b.name(attack.target)
        b.emit("attack_resolved", payload, answers=answers, opens=[b.ask_roll(
            attack.attacker, "damage", f"{b.name(attack.attacker)} rolls damage against {what} (S-32, S-45)",
            count=damage_dice(b.state, attack, bool(b.option("fatigue_rederives_mv")))[0], hit=target, object=obj)])
        return
    b.emit("attack_resolved", dict(payload, done=True), answers=answers)
    finish(b, attrs.evolve(attack, result=result), False)


# --------------------------------------------------------------------------- damage


def attacking_weapon(state: FightState, attack: Attack) -> Weapon:
    sheet = state.combatants[attack.attacker].sheet
    assert isinstance(sheet, Sheet)
    for w in sheet.weapons:
        if w.name == attack.weapon:
            return w
    style = best_hand_style(sheet)
    return bare_hand(style.name if style is not None else "")


def damage_dice(state: FightState, attack: Attack, rederive: bool) -> tuple[int, tuple[Mod, ...]]:
    """S-32 / S-48 / S-11 / R-20 / S-19: the weapon's dice and each add at the attacker's current ST (a
    weapon set against a charge: the charger's, S-40), plus the charge bonus."""
    weapon = attacking_weapon(state, attack)
    sheet = state.combatants[attack.attacker].sheet
    charge = (Mod(attack.charge, "charge", "S-19"),) if attack.charge else ()
    if weapon.name == "bare hand" and not sheet.styles:
        return 1, (Mod(-4, "bare hand", "S-32"),) + charge
    strength = now(state, attack.st_of or attack.attacker, rederive).st  # S-40: set against a charge
    dice, mods = damage_parts(sheet, weapon, attack.two_handed, st=strength)
    return dice.dice, mods + charge


def roll_damage(b: Batch, prompt_id: str, hit: str, obj: str) -> None:
    attack = b.combat.attack
    assert attack is not None
    count, adds = damage_dice(b.state, attack, bool(b.option("fatigue_rederives_mv")))
    faces = list(b.roll(count, 6, "damage"))
    raw = sum(faces) + sum(m.value for m in adds)
    mods: list[JSON] = [m.to_json() for m in adds]
    weapon = attacking_weapon(b.state, attack)
    if hit == "object":
        owner = attack.target
        sheet = b.sheet(owner)
        if obj == "shield":
            hp = sheet.shield.hp if sheet.shield is not None else 0
            name = sheet.shield.name if sheet.shield is not None else "shield"
        else:
            hp, name = sheet.weapon(obj).hp, obj
        od = damage.object_damage(raw, attack.damage_type, hp)
        b.emit("object_damaged", {"attacker": attack.attacker, "owner": owner, "object": name, "dice": faces,
                                  "adds": mods, "raw": raw, "damage": od.damage, "hp": hp, "breaks": od.breaks}, answers=prompt_id)
        finish(b, attack, False)
        return
    cid = attack.target
    sheet, cond = b.sheet(cid), b.cond(cid)
    d = derive(sheet)
    location = attack.location
    blow = damage.blow(raw, location, attack.damage_type, d.armour_dr.get(damage.kind(location), 0), sheet.dr,
                       weapon.armour_piercing, sheet.dm)
    taken = damage.take(damage.Wounds(dict(cond.wounds), cond.stun_damage), blow, d.hp, attack.non_lethal,
                        bool(b.option("wp_roll_any_damage_type")))
    out = taken.condition.unconscious or taken.condition.dead
    newly_out = out and not (cond.unconscious or cond.dead)
    opens = []
    if not out:
        permanent = False
        for c in taken.crippled:
            if c.ht_roll:
                opens.append(b.ask_roll(cid, "cripple_ht", f"{b.name(cid)}'s {c.location} is crippled by one blow: "
                                        "HT+2 roll, failure makes it permanent (S-37)", location=c.location))
            elif c.permanent:
                permanent = True
        if taken.wp_roll or permanent:  # S-35 a stunning crushing blow; S-37 item 4 a permanent injury
            rule = ", ".join(r for r, why in (("S-35", taken.wp_roll), ("S-37", permanent)) if why)
            opens.append(b.ask_roll(cid, "wp_conscious", f"{b.name(cid)} rolls WP to stay conscious ({rule})",
                                    rule=rule))
    b.emit("damage_taken", {
        "attacker": attack.attacker, "combatant": cid, "location": location, "damage_type": attack.damage_type,
        "dice": faces, "adds": mods, "raw": raw, "steps": [{"value": s.value, "reason": s.reason, "rule": s.rule} for s in blow.steps],
        "damage": blow.damage, "counted": taken.counted, "non_lethal": attack.non_lethal,
        "wounds": {k: v for k, v in taken.wounds.locations.items() if v}, "stun_damage": taken.wounds.stun, "stunned": taken.stunned,
        "crippled": [{"location": c.location, "permanent": c.permanent} for c in taken.crippled],
        "unconscious": taken.condition.unconscious, "dead": taken.condition.dead,
        "end": 0 if newly_out else cond.end}, answers=prompt_id, opens=opens)  # S-13: END 0 when knocked out
    if blow.damage > 0 and cond.casting:
        b.emit("spell_lost", {"combatant": cid, "spell": cond.casting, "reason": "it was injured"})
    finish(b, attack, blow.damage > 0)


# --------------------------------------------------------------------------- what follows


def finish(b: Batch, attack: Attack, inflicted: bool) -> None:
    """After the attack's last roll: a stop thrust decides the entry (S-40, A-79); an attack a
    Guard defended is answered by its one counterattack (S-20, A-65)."""
    result = attack.result
    if attack.kind == "stop_thrust":
        enterer, defender = attack.target, attack.attacker
        hit = result in (HIT, SHIELD_HIT)
        contest: JSON = None
        if not hit:
            entered, reason = True, "the stop thrust missed (A-79)"
        elif inflicted:
            entered, reason = False, "the stop thrust did damage"
        else:  # S-40, S-02: no damage got through, a ST contest decides
            st_d, st_e = b.now(defender).st, b.now(enterer).st
            rd = b.check(defender, "st_contest", st_d, "ST", (), "S-02")
            re = b.check(enterer, "st_contest", st_e, "ST", (), "S-02")
            won = rd["margin"] > re["margin"]  # S-02: the one who succeeds by more (or fails by less)
            contest = {"defender": rd, "attacker": re, "defender_won": won}
            entered = not close_combat.entry_prevented("stop thrust", HIT, False, won)
            reason = "the defender won the ST contest" if not entered else "the defender did not win the ST contest"
        b.emit("close_entry", {"attacker": enterer, "target": defender, "entered": entered, "reason": reason,
                               "contest": contest})
        return
    guard = attack.target
    if attack.kind in ("attack", "disarm") and result in (MISS, DEFENDED) and not attack.unaware \
            and guard in b.state.combatants and can_act(b.state, guard) and can_act(b.state, attack.attacker):
        cond = b.cond(guard)
        if cond.maneuver == "guard" and cond.guard_weapon and cond.guard_weapon in {
                w.name for w in weapons_in_hand(b.state, guard)}:
            weapon = b.weapon(guard, cond.guard_weapon)
            if weapon.ranged or not limbs.has_arms(b.limbs(guard), limbs.arms_needed(weapon)):
                return  # S-37 item 1: crippled since it took the Guard, it cannot strike back
            at = melee_at(b.state, guard, weapon, "guard", bool(b.option("fatigue_rederives_mv")))
            declare(b, Attack(attacker=guard, target=attack.attacker, kind="counter", weapon=weapon.name,
                              maneuver="guard", at=at, damage_type=weapon.damage_types[0]))


# --------------------------------------------------------------------------- entering close combat


def responses(state: FightState, cid: str) -> list[str]:
    """What ``cid`` may answer a step into close combat with (S-40): a stop thrust with a thrusting
    weapon or a bare hand, or a shield block, each only with a defence left this round."""
    cond = cond_of(state, cid)
    sheet = state.combatants[cid].sheet
    if best_hand_style(sheet) is None or cond.knocked_down:
        return []
    out: list[str] = []
    body = limbs.of(sheet.body, cond.crippled)  # S-37 item 1: each needs an arm in use, two-handed both
    for w in weapons_in_hand(state, cid):
        left = resolution.blocks_left(sheet.style(w.style).level, cond.blocks_used)
        if not w.ranged and close_combat.may_stop_thrust(w if w.name != "bare hand" else None, left) \
                and limbs.has_arms(body, limbs.arms_needed(w)):
            out.append(f"stop_thrust:{w.name}")
    style = best_hand_style(sheet)
    if has_shield(state, cid) and style is not None and resolution.blocks_left(style.level, cond.blocks_used) > 0 \
            and limbs.has_arms(body, 1):
        out.append("shield_block")
    return out


def respond(b: Batch, args: Mapping[str, Any]) -> None:
    """S-40: the defender's answer to a step into its unit."""
    prompt = answered(b.state, args["prompt"], CLOSE_RESPONSE)
    entering = b.combat.attack
    assert entering is not None
    cid, enterer = entering.target, entering.attacker
    response = str(args["response"])
    weapon_name = str(args.get("weapon") or "bare hand")
    allowed = responses(b.state, cid)
    key = f"stop_thrust:{weapon_name}" if response == "stop_thrust" else response
    if response != "none" and key not in allowed:
        _require_arms_for(b, cid, weapon_name if response == "stop_thrust" else "", f"a {response.replace('_', ' ')}",
                          "response")
        raise reject("close/response_not_possible", f"{b.name(cid)} cannot answer with {key.replace('_', ' ')} "
                     "(a thrusting weapon or bare hand, a shield, and a defence left: S-40)", field="response",
                     known=allowed + ["none"])
    b.emit("close_response", {"combatant": cid, "attacker": enterer, "response": response,
                              "weapon": weapon_name if response == "stop_thrust" else ""}, answers=prompt.id)
    rederive = bool(b.option("fatigue_rederives_mv"))
    if response == "none":
        b.emit("close_entry", {"attacker": enterer, "target": cid, "entered": True, "reason": "it was let in"})
        return
    if response == "stop_thrust":
        weapon = b.weapon(cid, weapon_name)
        dtype = "imp" if "imp" in weapon.damage_types else weapon.damage_types[0]
        set_ = bool(args.get("set"))
        if set_ and (weapon.name == "bare hand" or not entering.charge):
            raise reject("close/cannot_set", "only a weapon (a spear or the like) is set, and only against a charge "
                         "(S-40)", field="set")
        declare(b, Attack(attacker=cid, target=enterer, kind="stop_thrust", weapon=weapon.name, maneuver="attack",
                          at=melee_at(b.state, cid, weapon, "attack", rederive), damage_type=dtype,
                          charge=entering.charge,  # S-40: the charger's bonus goes to the stop-thruster
                          st_of=enterer if set_ else ""))
        return
    hand, _ = grapple_at(b.state, cid, enterer, "takedown", rederive)
    declare(b, Attack(attacker=cid, target=enterer, kind="shield_block", weapon=hand.name, maneuver="attack",
                      at=melee_at(b.state, cid, hand, "attack", rederive), damage_type="cr"))
