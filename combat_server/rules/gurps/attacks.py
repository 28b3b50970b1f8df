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
from combat_server.rules.gurps import derived, fatigue, injury as inj, throwing
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.blowthrough import Projectile, capped_injury
from combat_server.rules.gurps.gulliver.damage_tables import DamageRoll
from combat_server.rules.gurps.gulliver.exact import exact_text, json_number, whole_or_exact
from combat_server.rules.gurps.gulliver.locations import Location, crippling_threshold
from combat_server.rules.gurps.gulliver.options import cite, rule_option
from combat_server.rules.gurps.gulliver.policy import Injury, Shock, fight_policy
from combat_server.rules.gurps.gulliver.shock import Factor
from combat_server.rules.gurps.gulliver.size import scale_of
from combat_server.rules.gurps.gulliver.wounds import Maiming
from combat_server.rules.kit.prompts import answered, open_prompt as prompt, roll_prompt
from combat_server.rules.gurps.rolls import Mod, record, succeeded
from combat_server.rules.gurps.sheet import Weapon, eyes_of
from combat_server.rules.gurps.state import Attack, Condition, attack_json, exact_hp, light_of
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
    scale = scale_of(sheet)
    lift = b.policy.lift_st(sheet.st, scale)  # V-01: lifting and throwing use Load ST (the sheet's ST when off)
    bl = derived.basic_lift(lift)
    if w > throwing.MAX_THROW_RATIO * bl:  # G-12, A-07
        raise reject("maneuver/too_heavy", f"{weight} lb is more than 8 x BL ({float(8 * bl):g} lb): it cannot be thrown")
    distance = lift * throwing.distance_modifier(w / bl)  # G-13: the higher row
    if range_yards > distance:
        raise reject("maneuver/out_of_range", f"{weight} lb can be thrown {float(distance):g} yd (G-13), not {range_yards}")
    # G-14: thrust damage modified by weight; V-01: the thrust of Combat ST, the weight's row by Load ST's BL
    tdice, adds = throwing.thrown_damage(b.policy.damage_st(sheet.st, scale), w, bl)
    name = str(obj.get("name") or "thrown object")
    return Weapon(name=name, kind="thrown", skill=sheet.dx - 3, damage=format_dice(tdice, adds), damage_type="cr",
                  weight=float(weight), max_range=int(distance), st_based=False, parry=None)


def fatigue_mods(b: Batch, cid: str) -> list[Mod]:
    """V-50 / A-49: low fatigue costs DX and IQ, so every skill roll made with them (attacks,
    feints); G-51 alone has no such penalty (nothing when the option is off)."""
    sheet, cond = b.sheet(cid), b.cond(cid)
    level, full = fatigue.level(cond), fatigue.maximum(sheet, b.policy)  # shares of full Fatigue (V-53, V-54)
    penalty = b.policy.fatigue_dx_iq_penalty(level, full)
    word = "FP" if b.policy.fatigue_basis() == "G-51" else "Fatigue"
    return [Mod(-penalty, f"fatigue: {word} {fatigue.text(level)} of {full}", "V-50")] if penalty else []


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
    choices = {loc.name: loc for loc in b.policy.aimable(scale_of(b.sheet(target)))}  # its body's table
    if not choices:
        raise reject("maneuver/bad_location", "aiming at a hit location needs the fight's hit_locations option: "
                     "without it every blow lands on the torso (A-24)", field="location")
    if name not in choices:
        raise reject("maneuver/bad_location", f"{b.name(target)} has no hit location {name!r} (A-63)",
                     field="location", known=sorted(choices))
    return choices[name]


def _landing(b: Batch, target: str, aimed: Location | None) -> dict[str, JSON] | None:
    """Where a hit lands (A-24, A-63): the aimed location, or a 3d roll on the target's body table
    with hit locations on; None without them (the torso, recorded as before)."""
    if aimed is not None:
        return {"name": aimed.name, "aimed": True, "penalty": aimed.penalty, "rule": "A-24"}
    if not b.policy.rolls_location(None):
        return None
    faces = b.roll(3, 6, "hit location")
    where = b.policy.where(scale_of(b.sheet(target)), roll=sum(faces))
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
    check_stunner(b, weapon)
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
    roll = derived.weapon_roll(sheet, weapon, b.policy)  # V-01 Combat ST, V-03 low-ST scale
    dice, adds = roll.pair
    landing = _landing(b, target, aimed) if outcome in ("hit", "critical hit") else None
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
        damage_scale=exact_text(roll.scale) if roll.scale != 1 else "",
        finishing=b.policy.finishing(helpless(tcond)),
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


def check_stunner(b: Batch, weapon: Weapon, field: str = "weapon") -> None:
    """V-17: a stunner deals only shock, which the fight counts only with shock points (G-47 has no
    stunners): refused without the option, naming it."""
    if weapon.shock_only and not b.policy.deals_shock_directly():
        raise reject("maneuver/needs_option", f"{weapon.name} is a stunner: it deals only shock, which needs the "
                     "fight's shock_points option (V-17)", field=field, option="shock_points")


def helpless(cond: Condition) -> bool:
    """V-59's "helpless" (an unresisting target): unconscious, or collapsed from fatigue (G-51), the
    states in which it has no active defence at all (``defense_options``). A stunned foe still defends
    (G-48) and the fight keeps no pins, so neither counts; the dead are not attacked."""
    return not cond.dead and (cond.unconscious or cond.collapsed)


def damage_prompt(b: Batch, attack: Attack) -> dict[str, JSON]:
    what = "shock (a stunner, V-17)" if _shock_only(b, attack) else f"{attack.damage_type} damage"
    finishing = ": maximum damage on a helpless foe (V-59)" if attack.finishing else ""
    scaled = f" x {attack.damage_scale} (V-03)" if attack.damage_scale else ""
    return roll_prompt(attack.attacker, "damage",
                       f"{b.name(attack.attacker)} rolls {format_dice(attack.damage_dice, attack.damage_adds)}{scaled} "
                       f"{what} against {b.name(attack.target)}{finishing}",
                       count=0 if attack.finishing else max(1, attack.damage_dice), sides=6)  # V-59: no die rolled


def _shock_only(b: Batch, attack: Attack) -> bool:
    """V-17: the attack is a stunner's (its roll is shock, not damage)."""
    weapon = _weapon_of(b, attack)
    return weapon is not None and weapon.shock_only


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
        return none(f"{target.name} has collapsed ({fight_policy(state.options).fatigue_basis()})")
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
        result["dodge"] = entry(derived.dodge(sheet, cond, fight_policy(state.options)), "Dodge (G-39)", common + aod("dodge"))
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
        roll = derived.weapon_roll(b.sheet(defender), weapon, b.policy)
        hit = Attack(attacker=defender, target=attack.attacker, weapon=weapon.name, kind="melee", maneuver="parry",
                     critical=False, hits=1, damage_type=weapon.damage_type, damage_dice=roll.dice,
                     damage_adds=roll.adds, counter=True, remaining=0,
                     damage_scale=exact_text(roll.scale) if roll.scale != 1 else "")
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
    if attack.max_damage or attack.finishing:
        # G-36: a roll of 3 does maximum damage without rolling; so does V-59's blow on a helpless foe
        faces: tuple[int, ...] = (6,) * dice
    else:
        faces = b.roll(max(1, dice), 6, "damage") if dice else b.roll(1, 6, "damage")[:0]
    weapon = _weapon_of(b, attack)
    mods = damage_mods(b, attack, sum(faces) + attack.damage_adds, weapon)
    raw = sum(faces) + attack.damage_adds + sum(m.value for m in mods)
    tsheet = b.sheet(target)
    scale = scale_of(tsheet)
    # G-42: max(0, the roll); V-03: a low-ST roll x ST/10, its fraction kept against a target under 10 HP
    roll = DamageRoll(attack.damage_dice, attack.damage_adds, Fraction(attack.damage_scale or 1))
    basic = b.policy.blow_damage(raw, roll, tsheet.hp_max)
    exact = b.policy.keeps_fractions(tsheet.hp_max)
    if attack.half_damage:  # halved at 1/2D or beyond (rounded down unless V-03 keeps the fraction)
        basic = basic / 2 if exact else Fraction(basic // 2)
    where = b.policy.where(scale, aimed=attack.location or None)  # the torso unless the blow landed elsewhere
    if weapon is not None and weapon.shock_only:
        _stunner(b, prompt_id, attack, weapon, faces, mods, basic, where)
        return
    twist = b.policy.twist_ignores_dr(_past_skull(b, attack, where))  # V-59: a twist past the skull: no DR
    dr = 0 if twist else b.policy.location_dr(where, tsheet.dr, tsheet.dr_locations)
    pen = max(Fraction(0), basic - dr)  # G-42
    basic_set = bool(b.option("basic_set_wound_multipliers"))
    # G-42 / A-20 at the location, less V-63's Toughness (0 when off), then V-05 / V-06 / V-07's blowthrough cap
    # (A-27: base HP from the size block), then V-04's split-HP factor on the other body half
    wound = b.policy.injury(pen, attack.damage_type, basic_set=basic_set, where=where, st=tsheet.st, scale=scale,
                            exact=exact)
    projectile = _projectile(attack, weapon)
    cap = b.policy.blowthrough_cap(projectile, tsheet.hp_max, scale, where)
    capped = capped_injury(wound.hp, cap)
    split = b.policy.split_factor(scale, tsheet.hp_max, where)
    hp = whole_or_exact(capped * split if exact else math.floor(capped * split))
    payload = _damage_payload(attack, faces, mods, basic=json_number(basic), dr=dr, penetrating=json_number(pen),
                              multiplier=exact_text(wound.multiplier), injury=json_number(hp))
    payload.update(gulliver_steps(b, attack.attacker, weapon, wound, cap, where, projectile))
    if roll.scale != 1:  # V-03: the ST 10 roll scaled
        payload["low_st"] = {"scale": attack.damage_scale, "exact": exact, "rule": "V-03"}
    if split != 1:  # V-04: the other body half's blow, x base HP / its HP
        payload["split_hp"] = {"factor": exact_text(split), "before": json_number(capped), "rule": "V-04"}
    if attack.finishing:
        payload["finishing_blow"] = _finishing_json(attack, where, pen, twist)
    follow = _follow(b, attack, payload)
    if hp > 0 or _shock_through_toughness(b, attack, weapon, where, wound):
        b.emit("damage_rolled", payload, answers=prompt_id)
        _wound(b, attack, weapon, where, wound, hp, follow)
    else:
        b.emit("damage_rolled", payload, opens=follow, answers=prompt_id)


def _damage_payload(attack: Attack, faces: tuple[int, ...], mods: list[Mod], *, basic: JSON, dr: JSON,
                    penetrating: JSON, multiplier: JSON, injury: JSON, **extra: JSON) -> dict[str, JSON]:
    """A ``damage_rolled`` payload's fields in their stored order: the roll and what it did (G-42), then
    ``extra`` (a stunner's ``shock_only``, V-17), then the hit location (A-24)."""
    payload: dict[str, JSON] = {
        "attacker": attack.attacker, "target": attack.target, "weapon": attack.weapon, "dice": list(faces),
        "adds": attack.damage_adds, "modifiers": [m.to_json() for m in mods], "max_damage": attack.max_damage,
        "half_damage": attack.half_damage, "basic": basic, "dr": dr, "penetrating": penetrating,
        "damage_type": attack.damage_type, "multiplier": multiplier, "injury": injury, **extra,
    }
    if attack.location:
        payload["location"] = attack.location
    return payload


def _shock_through_toughness(b: Batch, attack: Attack, weapon: Weapon | None, where: Location, wound: Injury) -> bool:
    """V-64 (b), the ``toughness_shock`` reading "before": a blow Toughness stopped entirely still shocks
    when its wound times the shock multiples is more than Toughness. Never otherwise (no HP lost, no shock)."""
    tsheet = b.sheet(attack.target)
    return wound.hp <= 0 < b.policy.shock(wound, tsheet.hp_max, where=where, gm_factors=weapon_shock(weapon)).points


def _follow(b: Batch, attack: Attack, payload: dict[str, JSON]) -> list[dict[str, JSON]]:
    """What comes after this hit's damage: the next hit of a rapid-fire attack, or the maneuver's next
    attack (marking the attack done in ``payload``)."""
    if attack.hits - 1 > 0:
        return [damage_prompt(b, attack)]
    payload["attack_done"] = True
    return next_attack_prompts(b, attack)


def _wound(b: Batch, attack: Attack, weapon: Weapon | None, where: Location, wound: Injury, hp: int | Fraction,
           follow: list[dict[str, JSON]], direct: int | Fraction = 0) -> None:
    """A blow's consequences once its damage is rolled: crippling (V-11 .. V-13), the heart (V-44), shock
    (G-47; V-17's weapon multiplier and ``direct`` shock of a stunner; V-19 .. V-22), then the injury."""
    target = attack.target
    tsheet = b.sheet(target)
    maimed = b.policy.maim(hp, where, tsheet.hp_max, attack.damage_type)  # V-11: off, all of it is taken
    if maimed.crippled:
        threshold = crippling_threshold(where, tsheet.hp_max)
        assert threshold is not None
        b.emit("limb_crippled", {"combatant": target, "location": where.name, "blow": json_number(hp),
                                 "taken": json_number(maimed.taken), "rule": maimed.rule,
                                 "threshold": f"HPmax x {exact_text(Fraction(where.cripple or 0))} = "
                                              f"{exact_text(threshold)}"})
        follow = _severing(b, target, where, maimed) + follow
    follow = _heart(b, target, where, hp, tsheet.hp_max) + follow
    shock = b.policy.shock(attrs.evolve(wound, hp=hp), tsheet.hp_max, where=where, maiming=maimed,
                           gm_factors=weapon_shock(weapon), direct=direct,
                           high_pain_threshold=HIGH_PAIN_THRESHOLD in tsheet.traits)
    major = b.policy.major_wound_roll(hp, tsheet.hp_max, where)
    shocked = _shock_consequences(b, target, shock) + _limb_stun(b, target, where, shock)
    source = f"{attack.weapon} (shock)" if direct else f"{attack.weapon} ({attack.damage_type})"
    apply_injury(b, target, whole_or_exact(maimed.taken), source,
                 follow=[p for p in shocked if p.get("kind") == "roll"] + follow,
                 allow_major=major is not None, shock=shock.penalty,
                 major_roll=MajorRoll(major or "G-46", attack.location), shock_points=shock_json(shock, maimed.taken),
                 interrupts=hp > 0)
    for effect in (p for p in shocked if p.get("kind") != "roll"):
        b.emit("shock_effect", effect)


def _stunner(b: Batch, prompt_id: str, attack: Attack, weapon: Weapon, faces: tuple[int, ...], mods: list[Mod],
             rolled: int | Fraction, where: Location) -> None:
    """V-17: a stunner's roll is shock points dealt directly: no DR, no wound, no HP lost (the seed:
    "decide how many points or dice of shock the weapon inflicts, and apply normally"); the shock then
    does what any shock does (V-18's penalty, V-19 stun, V-20 brain x2, V-21 limb, V-22 knockout)."""
    payload = _damage_payload(attack, faces, mods, basic=json_number(rolled), dr=0, penetrating=0, multiplier="1",
                              injury=0, shock_only=True)
    follow = _follow(b, attack, payload)
    if rolled <= 0:
        b.emit("damage_rolled", payload, opens=follow, answers=prompt_id)
        return
    b.emit("damage_rolled", payload, answers=prompt_id)
    _wound(b, attack, weapon, where, Injury(0, 0, Fraction(1)), 0, follow, direct=rolled)


def _projectile(attack: Attack, weapon: Weapon | None) -> Projectile:
    """What V-07 reads of the weapon: a beam, a bullet's calibre and hollow point (a thrown object is none)."""
    if weapon is None:
        return Projectile(attack.damage_type)
    return Projectile(attack.damage_type, weapon.beam, weapon.large_calibre, weapon.hollow_point)


def weapon_shock(weapon: Weapon | None) -> tuple[Factor, ...]:
    """V-17 / A-28: the weapon's shock multiplier as a factor (none at x1, the missing tables' default);
    the policy counts it only with the fight's shock_points option."""
    if weapon is None or weapon.shock_multiplier == 1:
        return ()
    return (Factor(Fraction(weapon.shock_multiplier), f"{weapon.name} shock x{weapon.shock_multiplier}", "V-17"),)


def _past_skull(b: Batch, attack: Attack, where: Location) -> bool:
    """V-59: this finishing blow follows one by the same attacker and weapon that got past the skull's DR."""
    breached = b.cond(attack.target).skull_breached
    return attack.finishing and where.kind == "skull" and breached.get(attack.attacker) == attack.weapon


def _finishing_json(attack: Attack, where: Location, penetrating: int | Fraction, twist: bool) -> dict[str, JSON]:
    """V-59's part of a finishing blow's payload: maximum damage; a twist past the skull (no DR); a blow
    that got through the skull's DR opens it for the same attacker's twists."""
    out: dict[str, JSON] = {"rule": "V-59"}
    if twist:
        out["twist"] = True
    if where.kind == "skull" and penetrating > 0:
        out["skull_breached"] = True
    return out


def shock_json(shock: Shock, hp_lost: int | Fraction) -> dict[str, JSON] | None:
    """How GULLIVER counted a blow's shock, for its explanation, when it is not simply the HP lost
    (G-47): the basis (V-11 / A-33's ``crippling_shock`` reading, V-64's ``toughness_shock``), shock dealt
    directly (V-17), each multiplier with its rule (V-11, V-17, V-20). None otherwise, so the
    injury reads as before."""
    if not shock.factors and not shock.direct and shock.points == hp_lost:
        return None
    out: dict[str, JSON] = {"points": exact_text(shock.points), "basis": exact_text(shock.basis),
                            "of": shock.basis_of}
    if shock.direct:
        out["direct"] = exact_text(shock.direct)
    if shock.factors:
        out["factors"] = [{"value": exact_text(f.value), "reason": f.reason, "rule": f.rule} for f in shock.factors]
    if shock.less:
        out["less"] = shock.less
    return out


def gulliver_steps(b: Batch, attacker: str, weapon: Weapon | None, wound: Injury, cap: Fraction | None,
                   where: Location, projectile: Projectile | None = None) -> dict[str, JSON]:
    """The payload fields of the GULLIVER steps a blow went through, each with its rule (issue #11):
    Combat ST (V-01), the damage table (V-66, V-67), Toughness (V-63, by location V-64), the blowthrough cap (V-05, V-06,
    V-07 with its factors). Left out when a step did nothing, so a fight with every option off records
    what it always did."""
    out: dict[str, JSON] = {}
    if weapon is not None and weapon.damage.startswith(("thr", "sw")):
        sheet = b.sheet(attacker)
        combat = b.policy.damage_st(sheet.st, scale_of(sheet))
        if combat != sheet.st:  # V-01: the dice came from Combat ST, not the sheet's ST
            out["combat_st"] = {"st": combat, "rule": "V-01"}
    table = b.policy.damage_table_rule(weapon.damage) if weapon is not None else None
    if table is not None:
        out["damage_table"] = table
    if wound.toughness:
        out["toughness"] = {"value": wound.toughness, "absorbed": json_number(wound.absorbed),
                            "before": json_number(wound.before_toughness), "rule": b.policy.toughness_rule(where)}
    if cap is not None and wound.hp > cap:
        capped: dict[str, JSON] = {"cap": exact_text(cap), "before": json_number(wound.hp),
                                   "rule": b.policy.blowthrough_rule()}
        factors = b.policy.blowthrough_factors(projectile or Projectile(""), where)
        if factors:  # V-07: what multiplied the base cap
            capped["factors"] = [{"value": exact_text(v), "reason": why} for v, why in factors]
        out["blowthrough"] = capped
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


def _heart(b: Batch, victim: str, where: Location, wound: int | Fraction, hp_max: int) -> list[dict[str, JSON]]:
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
    where = b.policy.where(scale_of(b.sheet(cid)), aimed=location)
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


def apply_injury(b: Batch, victim: str, hp_lost: int | Fraction, source: str, *, allow_major: bool = True,
                 follow: list[dict[str, JSON]] | None = None, shock: int | None = None,
                 major_roll: MajorRoll = MajorRoll(), shock_points: dict[str, JSON] | None = None,
                 interrupts: bool = True) -> None:
    """HP loss with its consequences: shock (G-47; ``shock``: the penalty a blow's policy worked
    out, V-11's doubled one; ``shock_points``: how GULLIVER counted it, ``shock_json``), major wound
    (G-46, or V-10), death checks (G-45; V-15's half steps, V-61's monster zone), lost aim (G-21) or
    concentration (G-27), reeling (G-43), a monster's fresh injury (V-60). ``interrupts`` False: a stunner's
    shock (V-17) wounds no one, so it spoils no aim or concentration. ``hp_lost`` is a Fraction only for
    V-03's fractional damage against a small target."""
    sheet, cond = b.sheet(victim), b.cond(victim)
    hp_max = sheet.hp_max
    scale = scale_of(sheet)
    hp_before = exact_hp(cond)
    hp_after = whole_or_exact(hp_before - hp_lost)
    if shock is None:  # G-47 (or V-18's bands) on the HP lost; High Pain Threshold: no shock
        shock = b.policy.shock(Injury(hp_lost, hp_lost, Fraction(1)), hp_max,
                               high_pain_threshold=HIGH_PAIN_THRESHOLD in sheet.traits).penalty
    pending = b.policy.pending_shock(cond.shock_pending, shock)  # G-47: capped at 4; V-18: not
    # V-10 judges the blow, which V-11 may have cut down to the HP taken; it set the rule only for a heavy one
    major = allow_major and (inj.major_wound(hp_lost, hp_max) or major_roll.rule == "V-10")
    # G-45 or V-15; V-61 / V-62: a low-IQ monster's thresholds x racial IQ/10
    crossed, auto_dead = b.policy.death_checks(hp_after, hp_max, cond.death_checks, iq=sheet.iq, scale=scale)
    slowed, slow_rule = b.policy.slowed(hp_after, hp_max)  # G-43, or V-09 (A-31: the same threshold)
    payload: dict[str, JSON] = {
        "combatant": victim, "injury": json_number(hp_lost), "source": source, "hp_before": json_number(hp_before),
        "hp_after": json_number(hp_after), "hp_max": hp_max, "shock_added": shock, "shock_pending": pending,
        "major_wound": major, "reeling": slowed, "death_thresholds": crossed, "dead": auto_dead,
    }
    if slow_rule != "G-43":
        payload["slowdown_rule"] = slow_rule  # V-09: G-43's threshold, cited as GULLIVER's
    shock_rule = b.policy.shock_rule()
    if shock_rule != "G-47":
        payload["shock_rule"] = shock_rule  # V-18: bands of HPmax, no -4 cap
    death_rule = b.policy.death_rule()
    if death_rule != "G-45":
        payload["death_rule"] = death_rule  # V-15: the thresholds are half-HP steps
    zone = b.policy.death_zone(iq=sheet.iq, scale=scale)
    if zone != 1:  # V-61 / V-62: the monster's reduced zone
        payload["death_zone"] = {"factor": exact_text(zone), "rule": b.policy.monster_rule("V-61")}
    if cond.stays_up:  # V-60: the monster stays up until fresh injury of HPmax/10 or more
        fresh = cond.fresh_injury + math.ceil(hp_lost)
        again = b.policy.consciousness_roll_due(hp_after, passed_before=True, fresh_injury=fresh, hp_max=hp_max,
                                                scale=scale)
        payload["fresh_injury"] = {"total": fresh, "roll_again": again, "rule": b.policy.monster_rule("V-60")}
    if shock_points is not None:
        payload["shock"] = shock_points  # V-11, V-17, V-20, V-64: how the shock was counted
    opens: list[dict[str, JSON]] = []
    if not auto_dead and not cond.dead:
        for k in crossed:
            opens.append(roll_prompt(victim, "death_check", f"{b.name(victim)} reached "
                                     f"-{exact_text(b.policy.death_multiple(k, zone))} x HP: HT roll or die "
                                     f"({cite(death_rule)}{_zone_cite(zone, b)})", threshold=k,
                                     **rule_option(death_rule, "G-45")))
        if major and not cond.unconscious:
            opens.append(roll_prompt(victim, "major_wound", f"Major wound ({hp_lost} > HP/2): {b.name(victim)} rolls HT "
                                     f"({cite(major_roll.rule)})", **major_roll.options()))
        if cond.aim_turns and interrupts:
            opens.append(roll_prompt(victim, "aim_will", f"{b.name(victim)} was injured while aiming: Will roll (G-21)"))
        if cond.concentrating and interrupts:
            opens.append(roll_prompt(victim, "concentrate_will",
                                     f"{b.name(victim)} was injured while concentrating: Will-3 (G-27)"))
    opens.extend(follow or [])
    b.emit("injury_applied", payload, opens=opens)


def _zone_cite(zone: Fraction, b: Batch) -> str:
    """V-61 / V-62 in a death check's text, when the monster's zone scaled its threshold."""
    return "" if zone == 1 else f"; x IQ/10 = {exact_text(zone)}, {b.policy.monster_rule('V-61')}, A-52"
