"""Attack -> defence -> damage -> injury (G-35..G-47), decided step by step.

Each step records a roll (see rolls.record) and opens the prompt for the next:
the defender's choice of defence (G-37), the attacker's damage roll, the victim's
HT rolls for a major wound (G-46) or death checks (G-45).
"""

from __future__ import annotations

import math

from fractions import Fraction
from typing import Any, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.gurps import derived, injury as inj, throwing
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.blowthrough import Projectile, capped_injury
from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.locations import Location, crippling_threshold
from combat_server.rules.gurps.gulliver.options import cite, rule_option
from combat_server.rules.gurps.gulliver.policy import Injury, Shock, fight_policy
from combat_server.rules.gurps.gulliver.wounds import Maiming
from combat_server.rules.kit.prompts import answered, open_prompt as prompt, roll_prompt
from combat_server.rules.gurps.rolls import Mod, record, succeeded
from combat_server.rules.gurps.sheet import Weapon, eyes_of
from combat_server.rules.gurps.state import Attack, attack_json, light_of
from combat_server.rules.gurps.tables import POSTURES, format_dice, range_speed_modifier
from combat_server.rules.model import JSON, FightState

ATTACK_MANEUVERS = ("attack", "all_out_attack", "move_and_attack")


# --------------------------------------------------------------------------- attack


def thrown_object_weapon(b: Batch, attacker: str, obj: Mapping[str, Any], range_yards: int) -> Weapon:
    """G-12..G-14: an object thrown at a target, as a one-off weapon."""
    sheet = b.sheet(attacker)
    weight = obj.get("weight")
    if not isinstance(weight, (int, float)) or isinstance(weight, bool) or not 0 < weight < math.inf:
        # NaN and Infinity too: they reached Fraction() and were an internal/error (#15 item 14)
        raise reject("maneuver/bad_object", "a thrown object needs a positive, finite weight in lb",
                     field="object.weight")
    w = Fraction(weight).limit_denominator(1000)
    bl = derived.basic_lift(sheet.st)
    if w > throwing.MAX_THROW_RATIO * bl:  # G-12, A-07
        raise reject("maneuver/too_heavy", f"{weight} lb is more than 8 x BL ({float(8 * bl):g} lb): it cannot be thrown")
    distance = sheet.st * throwing.distance_modifier(w / bl)  # G-13: the higher row
    if range_yards > distance:
        raise reject("maneuver/out_of_range", f"{weight} lb can be thrown {float(distance):g} yd (G-13), not {range_yards}")
    tdice, adds = throwing.thrown_damage(sheet.st, w, bl)  # G-14: thrust damage modified by weight
    name = str(obj.get("name") or "thrown object")
    return Weapon(name=name, kind="thrown", skill=sheet.dx - 3, damage=format_dice(tdice, adds), damage_type="cr",
                  weight=float(weight), max_range=int(distance), st_based=False, parry=None)


def fatigue_mods(b: Batch, cid: str) -> list[Mod]:
    """V-50 / A-49: low fatigue costs DX and IQ, so every skill roll made with them (attacks,
    feints); G-51 alone has no such penalty (nothing when the option is off)."""
    fp, fp_max = b.cond(cid).fp, b.sheet(cid).fp_max
    penalty = b.policy.fatigue_dx_iq_penalty(fp, fp_max)
    return [Mod(-penalty, f"fatigue: FP {fp} of {fp_max}", "V-50")] if penalty else []


def light_mods(state: FightState, cid: str, *, skill: bool, sight: bool) -> list[Mod]:
    """V-46 / A-47: what the fight's light level does to one of ``cid``'s rolls, as it sees the light:
    ``skill``: glare's DX and IQ penalty (attacks, feints); ``sight``: the darkness penalty of a roll
    that needs sight (attacks, active defences) unless the fight reads darkness as Vision only.
    Nothing without the light_levels option, or in normal light."""
    policy = fight_policy(state.options)
    if not policy.light_levels:
        return []
    level = light_of(state.combat)
    eyes = eyes_of(state.combatants[cid].sheet)
    found = [policy.light_skill_mod(level, eyes) if skill else None, policy.darkness_mod(level, eyes) if sight else None]
    return [m for m in found if m is not None]


def attack_mods(b: Batch, attacker: str, target: str, weapon: Weapon, maneuver: str, option: str,
                range_yards: int, target_speed: int, extra: list[Mod], second: bool, thrown_object: bool) -> list[Mod]:
    cond = b.cond(attacker)
    tsheet = b.sheet(target)
    tcond = b.cond(target)
    mods: list[Mod] = []
    ranged = weapon.kind in ("ranged", "thrown")
    if maneuver == "all_out_attack" and option == "determined":
        mods.append(Mod(1, "All-Out Attack (Determined), ranged", "G-23") if ranged
                    else Mod(4, "All-Out Attack (Determined)", "G-22"))
    if cond.evaluate_target == target and cond.evaluate_bonus:
        mods.append(Mod(cond.evaluate_bonus, f"Evaluate x{cond.evaluate_bonus}", "G-29"))
    if ranged and cond.aim_turns and cond.aim_target == target and cond.aim_weapon == weapon.name \
            and maneuver in ("attack", "all_out_attack"):
        mods.append(Mod(weapon.acc, f"Aim: weapon Acc {weapon.acc}", "G-21"))
        if cond.aim_turns >= 2:
            extra_aim = 1 if cond.aim_turns == 2 else 2
            mods.append(Mod(extra_aim, f"Aim for {cond.aim_turns} turns", "G-21"))
    if maneuver == "move_and_attack":
        if ranged:
            mods.append(Mod(min(-2, weapon.bulk), f"Move and Attack, ranged (-2 or Bulk {weapon.bulk})", "G-32"))
        else:
            mods.append(Mod(-4, "Move and Attack, melee", "G-32"))
    if cond.shock:
        mods.append(Mod(-cond.shock, "shock from last injury", "G-47"))
    mods.extend(fatigue_mods(b, attacker))
    mods.extend(light_mods(b.state, attacker, skill=True, sight=True))
    if b.option("posture_modifiers"):
        if not ranged and cond.posture != "standing":
            mods.append(Mod(int(str(POSTURES[cond.posture]["attack"])), f"attacker {cond.posture}", "G-26"))
        if ranged and tcond.posture != "standing":
            mods.append(Mod(int(str(POSTURES[tcond.posture]["target"])), f"target {tcond.posture}", "G-26"))
    if ranged:
        if tsheet.sm:
            mods.append(Mod(tsheet.sm, f"target SM {tsheet.sm:+d}", "G-35"))
        rs = range_speed_modifier(range_yards + target_speed)
        if rs:
            mods.append(Mod(rs, f"range {range_yards} yd + speed {target_speed} yd/s", "G-35"))
    if weapon.off_hand or (second and maneuver == "all_out_attack" and option == "double" and weapon.off_hand):
        mods.append(Mod(-4, "off-hand weapon", "G-22"))
    mods.extend(extra)
    return mods


def extra_mods(raw: Any) -> list[Mod]:
    """GM-stated circumstances (cover, darkness, ...): each with a reason (G-35)."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise reject("command/bad_field", "modifiers must be a list of {value, reason}", field="modifiers")
    out = []
    for m in raw:
        if not (isinstance(m, dict) and isinstance(m.get("value"), int) and isinstance(m.get("reason"), str)
                and m["reason"].strip()):
            raise reject("command/bad_field", "each modifier needs an integer value and a reason", field="modifiers")
        out.append(Mod(m["value"], m["reason"].strip(), str(m.get("rule", "G-35"))))
    return out


def aimed_location(b: Batch, target: str, name: str | None) -> Location | None:
    """A-24 / A-63: the location an attack aims at, one of the target's body table; refused
    without the fight's hit locations (every blow then lands on the torso)."""
    if name is None:
        return None
    choices = {loc.name: loc for loc in b.policy.aimable()}
    if not choices:
        raise reject("maneuver/bad_location", "aiming at a hit location needs the fight's hit_locations option: "
                     "without it every blow lands on the torso (A-24)", field="location")
    if name not in choices:
        raise reject("maneuver/bad_location", f"{b.name(target)} has no hit location {name!r} (A-63)",
                     field="location", known=sorted(choices))
    return choices[name]


def _landing(b: Batch, aimed: Location | None) -> dict[str, JSON] | None:
    """Where a hit lands (A-24, A-63): the aimed location, or a 3d roll on the table with hit
    locations on; None without them (the torso, recorded as before)."""
    if aimed is not None:
        return {"name": aimed.name, "aimed": True, "penalty": aimed.penalty, "rule": "A-24"}
    if not b.policy.rolls_location(None):
        return None
    faces = b.roll(3, 6, "hit location")
    where = b.policy.where(roll=sum(faces))
    return {"name": where.name, "dice": list(faces), "total": sum(faces), "rule": "A-24"}


def roll_attack(b: Batch, attacker: str, target: str, weapon: Weapon, maneuver: str, option: str, *,
                range_yards: int = 0, target_speed: int = 0, extra: list[Mod] | None = None, remaining: int = 0,
                next_weapon: str = "", second: bool = False, shots: int = 1, answers: str | None = None,
                thrown_object: bool = False, aimed: Location | None = None) -> None:
    """Roll to hit (G-36) and open the defence prompt or the damage roll; a hit lands on the
    aimed or a rolled location when the fight uses hit locations (A-24)."""
    if target == attacker:
        raise reject("maneuver/bad_target", "a combatant cannot attack itself")
    tcond = b.cond(target)
    if tcond.dead:
        raise reject("maneuver/bad_target", f"{b.name(target)} is dead")
    sheet = b.sheet(attacker)
    mods = attack_mods(b, attacker, target, weapon, maneuver, option, range_yards, target_speed, extra or [],
                       second, thrown_object)
    if aimed is not None and b.policy.aim_penalty(aimed):
        mods.append(Mod(b.policy.aim_penalty(aimed), f"aimed at the {aimed.name}", "A-24"))
    cap = (9, "Move and Attack, melee", "G-32") if maneuver == "move_and_attack" and weapon.kind == "melee" else None
    base_reason = "DX-3 to throw at a target" if thrown_object else f"{weapon.name} skill"
    faces = b.roll(3, 6, f"attack with {weapon.name}")
    rec = record(purpose="attack", roller=attacker, dice=faces, base=weapon.skill, base_reason=base_reason,
                 mods=mods, outcome_fn="attack", rule="G-36" if not thrown_object else "G-12, G-36", cap=cap)
    outcome = str(rec["outcome"])
    dice, adds = derived.weapon_damage(sheet, weapon, b.policy)
    landing = _landing(b, aimed) if outcome in ("hit", "critical hit") else None
    hits = 1
    if shots > 1 and succeeded(outcome):
        hits = min(shots, 1 + max(0, int(rec["margin"])))  # rapid fire: 1 + margin (recoil 1), capped at shots
    attack = Attack(
        attacker=attacker, target=target, weapon=weapon.name, kind=weapon.kind, maneuver=maneuver, option=option,
        effective=int(rec["target"]), roll=int(rec["total"]), margin=int(rec["margin"]),
        critical=outcome == "critical hit", max_damage=outcome == "critical hit" and rec["total"] == 3,
        hits=hits, remaining=remaining, range_yards=range_yards, unarmed=weapon.unarmed,
        thrown_small=weapon.kind == "thrown" and weapon.weight <= 1, firearm=weapon.firearm,
        damage_type=weapon.damage_type, damage_dice=dice, damage_adds=adds,
        strong=maneuver == "all_out_attack" and option == "strong" and weapon.kind == "melee" and weapon.st_based,
        half_damage=weapon.half_damage > 0 and range_yards >= weapon.half_damage, next_weapon=next_weapon,
        location=str(landing["name"]) if landing is not None else "",
    )
    payload: dict[str, JSON] = {"attack": attack_json(attack), "record": rec,
                                "unbalanced": weapon.unbalanced, "unready": weapon.needs_ready}
    if landing is not None:
        payload["location"] = landing
    opens: list[dict[str, JSON]] = []
    if outcome == "critical hit":
        payload["no_defense"] = "critical hit (G-36)"
        opens.append(damage_prompt(b, attack))
    elif outcome == "hit":
        options = defense_options(b.state, attack)
        if options["allowed"]:
            opens.append(prompt("defend", target,
                                f"{b.name(attacker)} hits {b.name(target)} with {weapon.name}: choose a defence",
                                attacker=attacker, weapon=weapon.name, **options))
        else:
            payload["no_defense"] = options["reason"]
            opens.append(damage_prompt(b, attack))
    else:
        opens.extend(next_attack_prompts(b, attack))
        payload["attack_done"] = True
    b.emit("attack_rolled", payload, opens=opens, answers=answers)


def damage_prompt(b: Batch, attack: Attack) -> dict[str, JSON]:
    return roll_prompt(attack.attacker, "damage",
                       f"{b.name(attack.attacker)} rolls {format_dice(attack.damage_dice, attack.damage_adds)} "
                       f"{attack.damage_type} damage against {b.name(attack.target)}",
                       count=max(1, attack.damage_dice), sides=6)


def next_attack_prompts(b: Batch, attack: Attack) -> list[dict[str, JSON]]:
    """AOA (Double): the second attack on the same foe (G-22)."""
    if attack.remaining <= 0:
        return []
    return [roll_prompt(attack.attacker, "attack",
                        f"{b.name(attack.attacker)} makes the second attack of All-Out Attack (Double)",
                        target=attack.target, weapon=attack.next_weapon or attack.weapon, maneuver=attack.maneuver,
                        option=attack.option, remaining=attack.remaining - 1)]


# --------------------------------------------------------------------------- defence


def defense_options(state: FightState, attack: Attack) -> dict[str, Any]:
    """Which active defences the target has against this attack, and their effective values."""
    target = state.combatants[attack.target]
    attacker = state.combatants[attack.attacker]
    sheet, cond = target.sheet, target.condition

    def none(reason: str) -> dict[str, Any]:
        return {"allowed": False, "reason": reason, "dodge": None, "parry": {}, "block": None}

    if cond.dead or cond.unconscious:
        return none(f"{target.name} is unconscious (G-37)")
    if cond.collapsed:
        return none(f"{target.name} has collapsed (G-51)")
    if attack.critical:
        return none("critical hit (G-36)")
    if cond.maneuver == "all_out_attack":
        return none(f"{target.name} made an All-Out Attack: no active defence (G-22)")
    common: list[Mod] = []
    if cond.stunned:
        common.append(Mod(-4, "stunned", "G-48"))
    if state.options.get("posture_modifiers", True) and cond.posture != "standing":
        common.append(Mod(int(str(POSTURES[cond.posture]["defense"])), f"defender {cond.posture}", "G-26"))
    acond = attacker.condition
    if acond.feint_target == attack.target and acond.feint_penalty:
        common.append(Mod(-acond.feint_penalty, f"feinted by {attacker.name}", "G-30"))
    common.extend(light_mods(state, attack.target, skill=False, sight=True))

    def aod(kind: str) -> list[Mod]:
        return [Mod(2, f"All-Out Defense (Increased {kind.title()})", "G-24")] if cond.aod_defense == kind else []

    def entry(base: int, reason: str, mods: list[Mod]) -> dict[str, JSON]:
        allm = [m for m in mods if m.value]
        return {"base": base, "base_reason": reason, "modifiers": [m.to_json() for m in allm],
                "target": base + sum(m.value for m in allm)}

    tried = set(attack.defense_tried)
    only_dodge_block = cond.maneuver == "move_and_attack"  # G-32
    result: dict[str, Any] = {"allowed": False, "reason": "", "dodge": None, "parry": {}, "block": None}
    if "dodge" not in tried:
        result["dodge"] = entry(derived.dodge(sheet, cond), "Dodge (G-39)", common + aod("dodge"))
    ranged = attack.kind == "ranged"
    # G-24: a parry with the other hand is a different defence; a two-handed weapon leaves no other hand.
    parried = {t.removeprefix("parry:") for t in tried if t.startswith("parry:")}
    both_hands = any(w.two_handed for w in sheet.weapons if w.name in parried)
    if not only_dodge_block and not attack.firearm and not ranged and "parry" not in tried and not both_hands:  # G-41
        for w in sheet.all_weapons():
            base = derived.parry(w, sheet)
            if base is None or w.name in cond.unready or w.name in cond.no_parry_with or w.name in parried:
                continue
            if parried and w.two_handed:
                continue
            mods = list(common) + aod("parry")
            if attack.kind == "thrown":
                mods.append(Mod(-2 if attack.thrown_small else -1,
                                "parrying a small thrown weapon" if attack.thrown_small else "parrying a thrown weapon",
                                "G-41"))
            if state.options.get("multiple_parry_penalty") and cond.parries:
                mods.append(Mod(-4 * cond.parries, f"{cond.parries} earlier parr{'y' if cond.parries == 1 else 'ies'}",
                                "A-19"))
            result["parry"][w.name] = entry(base, f"Parry with {w.name} (G-41)", mods)
    block = derived.block(sheet)
    if block is not None and not cond.blocked and not attack.firearm and "block" not in tried:  # G-40
        result["block"] = entry(block, f"Block with {sheet.shield_name or 'shield'} (G-40)", common + aod("block"))
    result["allowed"] = bool(result["dodge"] or result["parry"] or result["block"])
    if not result["allowed"]:
        result["reason"] = "no active defence left" if tried else "no active defence possible"
    return result


def defend(b: Batch, args: Mapping[str, Any]) -> None:
    """G-38: answer the open defence prompt (that it is open and the sender's was checked by the spec)."""
    prompt_id = args.get("prompt")
    pr = answered(b.state, prompt_id, "defend")
    assert pr.combatant is not None
    attack = b.combat.attack
    assert attack is not None
    choice = args.get("defense")
    if choice not in ("dodge", "parry", "block", "none"):
        raise reject("defense/bad_choice", "defense must be dodge, parry, block or none", field="defense")
    options = defense_options(b.state, attack)
    if choice == "none":
        b.emit("defense_rolled", {"defender": attack.target, "attacker": attack.attacker, "defense": "none",
                                  "success": False, "hits_left": attack.hits},
               opens=[damage_prompt(b, attack)], answers=pr.id)
        return
    weapon = ""
    if choice == "parry":
        weapon = args.get("weapon") or (next(iter(options["parry"]), ""))
        entry = options["parry"].get(weapon)
    else:
        entry = options[choice]
    if not entry:
        raise reject("defense/not_allowed", f"{choice}{' with ' + weapon if weapon else ''} is not available here",
                     options=sorted(k for k in ("dodge", "block") if options[k]) + [f"parry:{w}" for w in options["parry"]])
    faces = b.roll(3, 6, f"{choice} against {attack.weapon}")
    rec = record(purpose=choice, roller=attack.target, dice=faces, base=int(entry["base"]),
                 base_reason=str(entry["base_reason"]),
                 mods=[Mod(int(m["value"]), str(m["reason"]), str(m["rule"])) for m in entry["modifiers"]],
                 outcome_fn="defense", rule="G-38")
    success = succeeded(str(rec["outcome"]))
    hits_left = attack.hits
    if success:
        avoided = attack.hits if rec["outcome"] == "critical success" else 1 + max(0, int(rec["margin"]))  # G-39
        hits_left = max(0, attack.hits - (avoided if choice == "dodge" else 1))
    payload: dict[str, JSON] = {"defender": attack.target, "attacker": attack.attacker, "defense": choice,
                                "weapon": weapon, "record": rec, "success": success, "hits_left": hits_left}
    tcond = b.cond(attack.target)
    if tcond.aim_turns:
        payload["aim_spoiled"] = True  # G-21
    opens: list[dict[str, JSON]] = []
    if tcond.concentrating:
        opens.append(roll_prompt(attack.target, "concentrate_will",
                                 f"{b.name(attack.target)} defended while concentrating: Will-3 (G-27)"))
    if choice == "parry":
        payload["tried_as"] = f"parry:{weapon}"  # G-24: which hand parried (a parry with the other differs)
    retry = attrs.evolve(attack, defense_tried=attack.defense_tried + (str(payload.get("tried_as", choice)),),
                         hits=hits_left)
    # G-24 Double Defense: one second, different defence if the *first* fails; never a third.
    if (not success and not attack.defense_tried and tcond.maneuver == "all_out_defense"
            and tcond.maneuver_option == "double"):
        again = defense_options(b.state, retry)
        if again["allowed"]:
            opens.append(prompt("defend", attack.target,
                                f"Double Defense: {b.name(attack.target)} may try a different defence (G-24)",
                                attacker=attack.attacker, weapon=attack.weapon, **again))
            b.emit("defense_rolled", payload, opens=opens, answers=pr.id)
            return
    if hits_left > 0:
        opens.append(damage_prompt(b, retry))
    elif success and choice == "parry" and attack.unarmed and not b.sheet(attack.target).weapon(weapon).unarmed:
        opens.append(roll_prompt(attack.target, "counter",
                                 f"{b.name(attack.target)} parried an unarmed attack with {weapon}: "
                                 f"roll vs {weapon} skill to hit the attacker (G-41)", weapon=weapon))
    else:
        opens.extend(next_attack_prompts(b, attack))
        payload["attack_done"] = True
    b.emit("defense_rolled", payload, opens=opens, answers=pr.id)


def counter(b: Batch, prompt_id: str, weapon_name: str) -> None:
    """G-41: parrying an unarmed attack with a weapon: hit on a skill roll, no defence."""
    attack = b.combat.attack
    assert attack is not None
    defender = attack.target
    weapon = b.sheet(defender).weapon(weapon_name)
    faces = b.roll(3, 6, "parry counter-blow")
    # V-46: the counter-blow is an attack roll: glare and darkness count on it as on any (nothing when off)
    rec = record(purpose="counter", roller=defender, dice=faces, base=weapon.skill, base_reason=f"{weapon.name} skill",
                 mods=light_mods(b.state, defender, skill=True, sight=True), rule="G-41")
    ok = succeeded(str(rec["outcome"]))
    payload: dict[str, JSON] = {"combatant": defender, "target": attack.attacker, "weapon": weapon.name,
                                "record": rec, "success": ok}
    if ok:
        dice, adds = derived.weapon_damage(b.sheet(defender), weapon, b.policy)
        hit = Attack(attacker=defender, target=attack.attacker, weapon=weapon.name, kind="melee", maneuver="parry",
                     critical=False, hits=1, damage_type=weapon.damage_type, damage_dice=dice, damage_adds=adds,
                     counter=True, remaining=0)
        payload["attack"] = attack_json(hit)
        # the counter-blow replaces the parried attack as the one being resolved
        b.emit("counter_rolled", payload, opens=[damage_prompt(b, hit)], answers=prompt_id)
    else:
        b.emit("counter_rolled", payload, opens=next_attack_prompts(b, attack), answers=prompt_id)


# --------------------------------------------------------------------------- damage and injury


def _weapon_of(b: Batch, attack: Attack) -> Weapon | None:
    """The sheet weapon an attack was made with; None for a thrown object (a one-off weapon, G-12)."""
    return next((w for w in b.sheet(attack.attacker).all_weapons()
                 if w.name == attack.weapon and w.kind == attack.kind), None)


def damage_mods(b: Batch, attack: Attack, rolled: int, weapon: Weapon | None) -> list[Mod]:
    """The bonuses on a damage roll, from the fight's policy: AOA (Strong) by G-22 or V-02 / R-09
    (a share of ``rolled``, the dice and adds), V-68's +1 per die for attacks ST does not power
    (a thrown object is muscle-powered)."""
    mods: list[Mod] = []
    if attack.strong:
        mods.append(b.policy.aoa_strong_bonus(rolled, attack.damage_dice))
    bonus = b.policy.non_st_bonus(attack.damage_dice, weapon is None or weapon.st_based)
    if bonus is not None:
        mods.append(bonus)
    return mods


def roll_damage(b: Batch, prompt_id: str) -> None:
    attack = b.combat.attack
    assert attack is not None
    target = attack.target
    dice = attack.damage_dice
    if attack.max_damage:
        faces: tuple[int, ...] = (6,) * dice  # G-36: a roll of 3 does maximum damage without rolling
    else:
        faces = b.roll(max(1, dice), 6, "damage") if dice else b.roll(1, 6, "damage")[:0]
    weapon = _weapon_of(b, attack)
    mods = damage_mods(b, attack, sum(faces) + attack.damage_adds, weapon)
    raw = sum(faces) + attack.damage_adds + sum(m.value for m in mods)
    basic = max(0, raw)
    if attack.half_damage:
        basic = basic // 2  # halved at 1/2D or beyond
    tsheet = b.sheet(target)
    where = b.policy.where(aimed=attack.location or None)  # the torso unless the blow landed elsewhere
    dr = b.policy.location_dr(where, tsheet.dr, tsheet.dr_locations)
    pen = inj.penetrating(basic, dr)
    basic_set = bool(b.option("basic_set_wound_multipliers"))
    # G-42 / A-20 at the location, less V-63's Toughness (0 when off), then V-05 / V-06's blowthrough cap
    wound = b.policy.injury(pen, attack.damage_type, basic_set=basic_set, where=where, st=tsheet.st)
    cap = b.policy.blowthrough_cap(Projectile(attack.damage_type), tsheet.hp_max, where=where)
    hp = int(capped_injury(wound.hp, cap))
    payload: dict[str, JSON] = {
        "attacker": attack.attacker, "target": target, "weapon": attack.weapon, "dice": list(faces),
        "adds": attack.damage_adds, "modifiers": [m.to_json() for m in mods], "max_damage": attack.max_damage,
        "half_damage": attack.half_damage, "basic": basic, "dr": dr, "penetrating": pen,
        "damage_type": attack.damage_type, "multiplier": exact_text(wound.multiplier),
        "injury": hp,
    }
    if attack.location:
        payload["location"] = attack.location
    payload.update(gulliver_steps(b, weapon, wound, cap, where))
    hits_left = attack.hits - 1
    follow: list[dict[str, JSON]] = []
    if hits_left > 0:
        follow.append(damage_prompt(b, attack))
    else:
        follow.extend(next_attack_prompts(b, attack))
        payload["attack_done"] = True
    if hp > 0:
        b.emit("damage_rolled", payload, answers=prompt_id)
        maimed = b.policy.maim(hp, where, tsheet.hp_max, attack.damage_type)  # V-11: off, all of it is taken
        if maimed.crippled:
            threshold = crippling_threshold(where, tsheet.hp_max)
            assert threshold is not None
            b.emit("limb_crippled", {"combatant": target, "location": where.name, "blow": hp,
                                     "taken": int(maimed.taken), "rule": maimed.rule,
                                     "threshold": f"HPmax x {exact_text(Fraction(where.cripple or 0))} = "
                                                  f"{exact_text(threshold)}"})
            follow = _severing(b, target, where, maimed) + follow
        follow = _heart(b, target, where, hp, tsheet.hp_max) + follow
        shock = b.policy.shock(attrs.evolve(wound, hp=hp), tsheet.hp_max, where=where, maiming=maimed,
                               high_pain_threshold=HIGH_PAIN_THRESHOLD in tsheet.traits)
        major = b.policy.major_wound_roll(hp, tsheet.hp_max, where)
        shocked = _shock_consequences(b, target, shock) + _limb_stun(b, target, where, shock)
        apply_injury(b, target, int(maimed.taken), f"{attack.weapon} ({attack.damage_type})",
                     follow=[p for p in shocked if p.get("kind") == "roll"] + follow,
                     allow_major=major is not None, shock=shock.penalty,
                     major_roll=MajorRoll(major or "G-46", attack.location))
        for effect in (p for p in shocked if p.get("kind") != "roll"):
            b.emit("shock_effect", effect)
    else:
        b.emit("damage_rolled", payload, opens=follow, answers=prompt_id)


def gulliver_steps(b: Batch, weapon: Weapon | None, wound: Injury, cap: Fraction | None,
                   where: Location) -> dict[str, JSON]:
    """The payload fields of the GULLIVER steps a blow went through, each with its rule (issue #11):
    the damage table (V-66, V-67), Toughness (V-63, by location V-64), the blowthrough cap (V-05, V-06). Left out
    when a step did nothing, so a fight with every option off records what it always did."""
    out: dict[str, JSON] = {}
    table = b.policy.damage_table_rule(weapon.damage) if weapon is not None else None
    if table is not None:
        out["damage_table"] = table
    if wound.toughness:
        out["toughness"] = {"value": wound.toughness, "absorbed": int(wound.absorbed),
                            "before": int(wound.before_toughness), "rule": b.policy.toughness_rule(where)}
    if cap is not None and wound.hp > cap:
        out["blowthrough"] = {"cap": exact_text(cap), "before": int(wound.hp),
                              "rule": "V-06" if b.policy.blowthrough_improved else "V-05"}
    return out


def _severing(b: Batch, victim: str, where: Location, maimed: Maiming) -> list[dict[str, JSON]]:
    """V-12 / A-34: a cutting blow over four times the crippling amount severs the limb outright
    (an event); over twice, a HT roll decides (the prompt returned, to open with the injury).
    V-13 / A-35: on the neck a cutting blow beheads, a crushing one breaks the neck: fatal."""
    fatal: dict[str, JSON] = {"fatal": True} if maimed.fatal else {}
    if maimed.severing == "automatic":
        b.emit("limb_severed", {"combatant": victim, "location": where.name, "rule": maimed.rule, **fatal})
    if maimed.severing != "roll":
        return []
    lost = "the neck is severed or broken: death" if maimed.fatal else "it is severed"
    return [roll_prompt(victim, "amputation", f"{b.name(victim)}'s {where.name} took a blow over twice the "
                        f"crippling amount: HT roll or {lost} ({maimed.rule})", location=where.name,
                        rule=maimed.rule, **fatal)]


def _heart(b: Batch, victim: str, where: Location, wound: int, hp_max: int) -> list[dict[str, JSON]]:
    """V-44 / A-46: a heart (vitals) wound of HPmax or more calls for a HT roll, -4 from twice HPmax,
    -8 from three times (the prompt returned, to open with the injury)."""
    modifier = b.policy.heart_roll(wound, hp_max, where)
    if modifier is None:
        return []
    at = f" at {modifier}" if modifier else ""
    return [roll_prompt(victim, "heart_attack", f"{b.name(victim)}'s heart took {wound} (HPmax {hp_max} or more): "
                        f"HT roll{at} against a heart attack (V-44)", modifier=modifier, rule="V-44")]


def _shock_consequences(b: Batch, victim: str, shock: Shock) -> list[dict[str, JSON]]:
    """What one blow's shock does under GULLIVER's damage-and-shock system: V-19 stuns over
    HPmax/2 (or a HT roll, the ``stun_rule`` reading), V-22 knocks out over 2 x HPmax (a HT roll
    over HPmax). Returns the roll prompts (``kind`` "roll") and the ``shock_effect`` payloads of
    the outright effects; nothing with the system off."""
    points = exact_text(shock.points)
    out: list[dict[str, JSON]] = []
    for what, verdict, rule, effect in (("stun", shock.stun, "V-19", "stunned"),
                                         ("knockout", shock.knockout, "V-22", "unconscious")):
        if verdict == "roll":
            out.append(roll_prompt(victim, f"shock_{what}", f"{b.name(victim)} took {points} shock: HT roll "
                                   f"against {what} ({rule})", rule=rule, points=points))
        elif verdict != "none":
            out.append({"combatant": victim, "effect": effect, "points": points, "rule": rule})
    return out


#: V-21: the limbs that hold things; the others (legs, feet) are stunned without dropping anything.
_HOLDING = ("arm", "hand")


def held_in(b: Batch, cid: str, location: str) -> list[str]:
    """V-21: the weapons a stunned limb drops. Sheets say only which weapons are off-hand: the left
    arm holds those, the right arm and the hand (the humanoid table has one, read as the weapon hand)
    the others; two-handed weapons are in both. Unarmed attacks and weapons already out of hand are
    not dropped."""
    where = b.policy.where(aimed=location)
    if where.kind not in _HOLDING:
        return []
    off = location.startswith("left")
    unready = b.cond(cid).unready
    return [w.name for w in b.sheet(cid).weapons
            if not w.unarmed and (w.two_handed or w.off_hand == off) and w.name not in unready]


def _limb_stun(b: Batch, victim: str, where: Location, shock: Shock) -> list[dict[str, JSON]]:
    """V-21 / A-39: shock over the limb's crippling share stuns it (an event now); just over the
    mark a grip roll decides whether what it holds is dropped (R-11: the limb is stunned anyway),
    else it is dropped at once. Returns the grip prompt, if any."""
    if not shock.limb.stunned:
        return []
    grip = shock.limb.grip_roll
    held = held_in(b, victim, where.name)
    b.emit("limb_stunned", {"combatant": victim, "location": where.name, "rule": "V-21",
                            **({"grip_roll": True} if grip and held else {"dropped": held} if held else {})})
    if not (grip and held):
        return []
    return [roll_prompt(victim, "grip", f"{b.name(victim)}'s {where.name} is stunned: HT roll to keep hold of "
                        f"{', '.join(held)} (V-21, A-39, R-11)", location=where.name, rule="R-11")]


@attrs.frozen
class MajorRoll:
    """The HT roll a heavy blow calls for: G-46's, or V-10's knockdown roll anywhere; ``location``
    (with hit locations) decides what failing it does (policy.major_wound_effect)."""

    rule: str = "G-46"
    location: str = ""

    def options(self) -> dict[str, JSON]:
        """The prompt's extra options: none for G-46 on the torso, so such prompts read as before."""
        out = rule_option(self.rule, "G-46")
        if self.location:
            out["location"] = self.location
        return out


HIGH_PAIN_THRESHOLD = "High Pain Threshold"


def apply_injury(b: Batch, victim: str, hp_lost: int, source: str, *, allow_major: bool = True,
                 follow: list[dict[str, JSON]] | None = None, shock: int | None = None,
                 major_roll: MajorRoll = MajorRoll()) -> None:
    """HP loss with its consequences: shock (G-47; ``shock``: the penalty a blow's policy worked
    out, V-11's doubled one), major wound (G-46, or V-10), death checks (G-45), lost aim (G-21) or
    concentration (G-27), reeling (G-43)."""
    sheet, cond = b.sheet(victim), b.cond(victim)
    hp_max = sheet.hp_max
    hp_after = cond.hp - hp_lost
    if shock is None:  # G-47 (or V-18's bands) on the HP lost; High Pain Threshold: no shock
        shock = b.policy.shock(Injury(hp_lost, hp_lost, Fraction(1)), hp_max,
                               high_pain_threshold=HIGH_PAIN_THRESHOLD in sheet.traits).penalty
    pending = b.policy.pending_shock(cond.shock_pending, shock)  # G-47: capped at 4; V-18: not
    # V-10 judges the blow, which V-11 may have cut down to the HP taken; it set the rule only for a heavy one
    major = allow_major and (inj.major_wound(hp_lost, hp_max) or major_roll.rule == "V-10")
    crossed, auto_dead = b.policy.death_checks(hp_after, hp_max, cond.death_checks)  # G-45 or V-15
    slowed, slow_rule = b.policy.slowed(hp_after, hp_max)  # G-43, or V-09 (A-31: the same threshold)
    payload: dict[str, JSON] = {
        "combatant": victim, "injury": hp_lost, "source": source, "hp_before": cond.hp, "hp_after": hp_after,
        "hp_max": hp_max, "shock_added": shock, "shock_pending": pending, "major_wound": major,
        "reeling": slowed, "death_thresholds": crossed, "dead": auto_dead,
    }
    if slow_rule != "G-43":
        payload["slowdown_rule"] = slow_rule  # V-09: G-43's threshold, cited as GULLIVER's
    shock_rule = b.policy.shock_rule()
    if shock_rule != "G-47":
        payload["shock_rule"] = shock_rule  # V-18: bands of HPmax, no -4 cap
    death_rule = b.policy.death_rule()
    if death_rule != "G-45":
        payload["death_rule"] = death_rule  # V-15: the thresholds are half-HP steps
    opens: list[dict[str, JSON]] = []
    if not auto_dead and not cond.dead:
        for k in crossed:
            opens.append(roll_prompt(victim, "death_check", f"{b.name(victim)} reached "
                                     f"-{exact_text(b.policy.death_multiple(k))} x HP: HT roll or die "
                                     f"({cite(death_rule)})", threshold=k,
                                     **rule_option(death_rule, "G-45")))
        if major and not cond.unconscious:
            opens.append(roll_prompt(victim, "major_wound", f"Major wound ({hp_lost} > HP/2): {b.name(victim)} rolls HT "
                                     f"({cite(major_roll.rule)})", **major_roll.options()))
        if cond.aim_turns:
            opens.append(roll_prompt(victim, "aim_will", f"{b.name(victim)} was injured while aiming: Will roll (G-21)"))
        if cond.concentrating:
            opens.append(roll_prompt(victim, "concentrate_will",
                                     f"{b.name(victim)} was injured while concentrating: Will-3 (G-27)"))
    opens.extend(follow or [])
    b.emit("injury_applied", payload, opens=opens)
