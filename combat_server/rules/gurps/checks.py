"""Answers to roll prompts: HT/Will/IQ checks and their effects (G-18, G-21, G-27,
G-44..G-48, G-51), plus the dice steps of an attack (damage, second attack, feint
resistance, parry counter-blow)."""

from __future__ import annotations

import math
from typing import Any, Callable, Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import attacks, derived, fatigue
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver import wounds
from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.size import combat_st_of, scale_of
from combat_server.rules.kit.prompts import answered, roll_prompt
from combat_server.rules.gurps.rolls import Mod, record, succeeded
from combat_server.rules.model import JSON, Prompt


def answer_roll(b: Batch, args: Mapping[str, Any]) -> None:
    """Roll for the open roll prompt (that it is open and the sender's was checked by the spec)."""
    prompt_id = args.get("prompt")
    pr = answered(b.state, prompt_id, "roll")
    purpose = str(pr.options["purpose"])
    handler = _ROLLS.get(purpose)
    if handler is None:
        raise AssertionError(f"no handler for roll purpose {purpose}")
    handler(b, pr)


def _check(b: Batch, pr: Prompt, stat: str, base: int, mods: list[Mod], rule: str) -> dict[str, JSON]:
    assert pr.combatant is not None
    faces = b.roll(3, 6, f"{pr.options['purpose']} ({stat})")
    return record(purpose=str(pr.options["purpose"]), roller=pr.combatant, dice=faces, base=base,
                  base_reason=stat, mods=mods, rule=rule, criticals=bool(b.option("generic_criticals")))


def _emit_check(b: Batch, pr: Prompt, rec: dict[str, JSON], effect: str, opens: list[dict[str, JSON]] | None = None,
                **extra: JSON) -> None:
    b.emit("check_rolled", {"combatant": pr.combatant, "purpose": pr.options["purpose"], "record": rec,
                            "effect": effect, **extra}, opens=opens or [], answers=pr.id)


def _consciousness(b: Batch, pr: Prompt) -> None:
    """G-44 (or V-14): HT to stay conscious at 0 HP or below. V-60 / V-62: a monster rolls at +1 per
    point of racial IQ below 10, and once it succeeds it stays up (no roll each turn) until fresh
    injury of HPmax/10 or more (``stays_up``, cleared by injury_applied's ``fresh_injury``)."""
    assert pr.combatant is not None
    sheet = b.sheet(pr.combatant)
    scale = scale_of(sheet)
    mods = b.policy.consciousness_mods(iq=sheet.iq, scale=scale)
    rec = _check(b, pr, "HT", sheet.ht, mods, str(pr.options.get("rule", "G-44")))  # or V-14
    if not succeeded(str(rec["outcome"])):
        _emit_check(b, pr, rec, "unconscious")
    elif b.policy.stays_up(scale):
        _emit_check(b, pr, rec, "none", stays_up=b.policy.monster_rule("V-60"))
    else:
        _emit_check(b, pr, rec, "none")


def _death_check(b: Batch, pr: Prompt) -> None:
    assert pr.combatant is not None
    k = int(pr.options["threshold"])
    rec = _check(b, pr, "HT", b.sheet(pr.combatant).ht, [], str(pr.options.get("rule", "G-45")))  # or V-15
    if succeeded(str(rec["outcome"])):
        _emit_check(b, pr, rec, "none", death_checks=max(k, b.cond(pr.combatant).death_checks))
    else:
        _emit_check(b, pr, rec, "dead", death_checks=max(k, b.cond(pr.combatant).death_checks))


def _major_wound(b: Batch, pr: Prompt) -> None:
    """G-46 / A-24: fail by 1-4: stunned and knocked down; by 5+ or critical failure: unconscious.
    V-10 (GULLIVER): off the torso, or with V-19 on (R-08), a failure only knocks down
    (the policy's ``major_wound_effect``, at the prompt's location)."""
    assert pr.combatant is not None
    rule = str(pr.options.get("rule", "G-46"))
    rec = _check(b, pr, "HT", b.sheet(pr.combatant).ht, [], rule)
    where = b.policy.where(scale_of(b.sheet(pr.combatant)),
                           aimed=str(pr.options["location"]) if pr.options.get("location") else None)
    _emit_check(b, pr, rec, b.policy.major_wound_effect(str(rec["outcome"]), int(rec["margin"]), where))


def _amputation(b: Batch, pr: Prompt) -> None:
    """V-12 / A-34: a failed HT roll severs the limb the cutting blow hit; V-13 / A-35: on the
    neck (beheading, or a broken neck) that is death."""
    assert pr.combatant is not None
    rec = _check(b, pr, "HT", b.sheet(pr.combatant).ht, [], str(pr.options.get("rule", "V-12")))
    if succeeded(str(rec["outcome"])):
        _emit_check(b, pr, rec, "none")
    else:
        _emit_check(b, pr, rec, "neck_severed" if pr.options.get("fatal") else "severed",  # V-13: the neck
                    effect_args={"location": str(pr.options["location"])})


def _heart_attack(b: Batch, pr: Prompt) -> None:
    """V-44 / A-46: fail: a minor heart attack, by 4+ (or critically) a major one (each rolls its own
    damage, 2d or 6d x LS), by 8+ a fatal one."""
    assert pr.combatant is not None
    modifier = int(pr.options.get("modifier", 0))
    mods = [Mod(modifier, "heart wound of 2 or 3 x HPmax", "V-44")] if modifier else []
    rec = _check(b, pr, "HT", b.sheet(pr.combatant).ht, mods, "V-44")
    outcome = str(rec["outcome"])
    failed_by = 0 if succeeded(outcome) else max(1, -int(rec["margin"]))
    kind = wounds.heart_attack(failed_by, outcome == "critical failure")
    roll = b.policy.heart_attack_damage(kind, scale_of(b.sheet(pr.combatant)))
    if kind == "none":
        _emit_check(b, pr, rec, "none")
    elif roll is None:  # fatal
        _emit_check(b, pr, rec, "dead", heart_attack=kind)
    else:
        _emit_check(b, pr, rec, "none", heart_attack=kind,
                    opens=[roll_prompt(pr.combatant, "heart_attack_damage",
                                       f"{b.name(pr.combatant)}'s {kind} heart attack: {roll.text()} damage (V-44)",
                                       count=roll.dice, sides=6, heart_attack=kind)])


def _heart_attack_damage(b: Batch, pr: Prompt) -> None:
    """V-44: the heart attack's own damage (2d or 6d x LS), applied as an injury."""
    assert pr.combatant is not None
    kind = str(pr.options["heart_attack"])
    roll = b.policy.heart_attack_damage(kind, scale_of(b.sheet(pr.combatant)))  # 2d / 6d x LS
    assert roll is not None
    faces = b.roll(roll.dice, 6, "heart attack damage")
    injury = int(sum(faces) * roll.scale)
    ls: dict[str, JSON] = {"linear_scale": exact_text(roll.scale)} if roll.scale != 1 else {}  # the size block
    b.emit("heart_attack_rolled", {"combatant": pr.combatant, "kind": kind, "dice": list(faces), "injury": injury,
                                   "rule": "V-44", **ls}, answers=pr.id)
    if injury > 0:
        attacks.apply_injury(b, pr.combatant, injury, f"a {kind} heart attack (V-44)")


def _shock_roll(effect: str) -> Callable[[Batch, Prompt], None]:
    """V-19 / V-22: a HT roll against a shock effect, with V-08's Will - IQ modifier; failing it
    stuns or knocks out."""
    def roll(b: Batch, pr: Prompt) -> None:
        assert pr.combatant is not None
        sheet = b.sheet(pr.combatant)
        mods = b.policy.shock_roll_mods(sheet.will_score, sheet.iq)
        if effect == "unconscious":  # V-60 / V-62: a monster's bonus counts on every roll to stay conscious
            mods += b.policy.consciousness_mods(iq=sheet.iq, scale=scale_of(sheet))
        rec = _check(b, pr, "HT", sheet.ht, mods, str(pr.options["rule"]))
        _emit_check(b, pr, rec, "none" if succeeded(str(rec["outcome"])) else effect)
    return roll


def _stun_recovery(b: Batch, pr: Prompt) -> None:
    assert pr.combatant is not None
    stat = str(pr.options.get("stat", "HT"))
    sheet = b.sheet(pr.combatant)
    rec = _check(b, pr, stat, sheet.iq if stat == "IQ" else sheet.ht, [], "G-48")
    _emit_check(b, pr, rec, "stun_ends" if succeeded(str(rec["outcome"])) else "none")


def _shock_recovery(b: Batch, pr: Prompt) -> None:
    """V-24 advanced / R-10 / A-40: a success takes its margin off the penalty (0 removes none), a
    failure leaves it; what is left carries into the next turn, added to any new shock (G-47's cap, or
    V-18's none, as for fresh shock). V-08's Will - IQ counts (R-10)."""
    assert pr.combatant is not None
    sheet, cond = b.sheet(pr.combatant), b.cond(pr.combatant)
    rec = _check(b, pr, "HT", sheet.ht, b.policy.shock_roll_mods(sheet.will_score, sheet.iq), "V-24")
    ok = succeeded(str(rec["outcome"]))
    left = b.policy.shock_after_turn(cond.shock, ok, max(0, int(rec["margin"])))  # still in force: turn not ended
    if left:
        _emit_check(b, pr, rec, "none", shock_left=left, shock_pending=b.policy.pending_shock(cond.shock_pending, left))
    else:
        _emit_check(b, pr, rec, "none")


def _grip(b: Batch, pr: Prompt) -> None:
    """V-21 / R-11: a HT roll (V-08's Will - IQ counts) keeps hold of what the stunned limb holds;
    the limb stays stunned either way."""
    assert pr.combatant is not None
    sheet = b.sheet(pr.combatant)
    rec = _check(b, pr, "HT", sheet.ht, b.policy.shock_roll_mods(sheet.will_score, sheet.iq), "R-11")
    location = str(pr.options["location"])
    if succeeded(str(rec["outcome"])):
        _emit_check(b, pr, rec, "none")
    else:
        _emit_check(b, pr, rec, "dropped", effect_args={"dropped": attacks.held_in(b, pr.combatant, location)})


def _limb_recovery(b: Batch, pr: Prompt) -> None:
    """V-24 / V-21: a stunned limb recovers with its own HT roll each turn, as general stun does."""
    assert pr.combatant is not None
    sheet = b.sheet(pr.combatant)
    rec = _check(b, pr, "HT", sheet.ht, b.policy.shock_roll_mods(sheet.will_score, sheet.iq), "V-24")
    if succeeded(str(rec["outcome"])):
        _emit_check(b, pr, rec, "limb_recovers", effect_args={"location": str(pr.options["location"])})
    else:
        _emit_check(b, pr, rec, "none")


def _aim_will(b: Batch, pr: Prompt) -> None:
    assert pr.combatant is not None
    rec = _check(b, pr, "Will", b.sheet(pr.combatant).will_score, [], "G-21")
    _emit_check(b, pr, rec, "none" if succeeded(str(rec["outcome"])) else "aim_lost")


def _concentrate_will(b: Batch, pr: Prompt) -> None:
    assert pr.combatant is not None
    rec = _check(b, pr, "Will", b.sheet(pr.combatant).will_score, [Mod(-3, "distracted while concentrating", "G-27")],
                 "G-27")
    _emit_check(b, pr, rec, "none" if succeeded(str(rec["outcome"])) else "concentration_broken")


def _fright(b: Batch, pr: Prompt) -> None:
    """G-18: failure stuns for (margin of failure + 2d) s; critical failure faints for (margin + 1d) min."""
    assert pr.combatant is not None
    mods = [Mod(int(pr.options.get("modifier", 0)), str(pr.options.get("reason") or "fright modifier"), "G-18")]
    rec = _check(b, pr, "Will", b.sheet(pr.combatant).will_score, mods, "G-18")
    outcome = str(rec["outcome"])
    by = max(0, -int(rec["margin"]))
    if succeeded(outcome):
        _emit_check(b, pr, rec, "none")
    elif outcome == "critical failure":
        _emit_check(b, pr, rec, "none", opens=[roll_prompt(pr.combatant, "faint_duration",
                                                           f"{b.name(pr.combatant)} faints: roll 1d for the minutes (G-18)",
                                                           count=1, margin=by)])
    else:
        _emit_check(b, pr, rec, "none", opens=[roll_prompt(pr.combatant, "fright_duration",
                                                           f"{b.name(pr.combatant)} is stunned: roll 2d for the seconds (G-18)",
                                                           count=2, margin=by)])


def _fright_duration(b: Batch, pr: Prompt) -> None:
    faces = b.roll(2, 6, "fright stun duration")
    turns = int(pr.options["margin"]) + sum(faces)
    b.emit("check_rolled", {"combatant": pr.combatant, "purpose": "fright_duration", "dice": list(faces),
                            "effect": "fright_stunned", "effect_args": {"turns": turns},
                            "margin": pr.options["margin"], "turns": turns}, answers=pr.id)


def _faint_duration(b: Batch, pr: Prompt) -> None:
    faces = b.roll(1, 6, "faint duration")
    minutes = int(pr.options["margin"]) + sum(faces)
    b.emit("check_rolled", {"combatant": pr.combatant, "purpose": "faint_duration", "dice": list(faces),
                            "effect": "unconscious", "margin": pr.options["margin"], "minutes": minutes},
           answers=pr.id)


def _fatigue_will(b: Batch, pr: Prompt) -> None:
    assert pr.combatant is not None
    rec = _check(b, pr, "Will", b.sheet(pr.combatant).will_score, [], "G-51")
    _emit_check(b, pr, rec, "none" if succeeded(str(rec["outcome"])) else "collapsed")


def _damage(b: Batch, pr: Prompt) -> None:
    attacks.roll_damage(b, pr.id)


def _second_attack(b: Batch, pr: Prompt) -> None:
    o = pr.options
    assert pr.combatant is not None
    target = str(o["target"])
    if b.cond(target).dead:  # G-22, G-45: the first attack (or what followed it) killed the foe
        b.emit("attack_lapsed", {"combatant": pr.combatant, "target": target, "reason": f"{b.name(target)} is dead"},
               answers=pr.id)
        return
    weapon = b.sheet(pr.combatant).weapon(str(o["weapon"]))
    attacks.roll_attack(b, pr.combatant, str(o["target"]), weapon, str(o["maneuver"]), str(o["option"]),
                        remaining=int(o.get("remaining", 0)), second=True, answers=pr.id,
                        range_yards=int(o.get("range", 0)))


def _counter(b: Batch, pr: Prompt) -> None:
    attacks.counter(b, pr.id, str(pr.options["weapon"]))


def _feint_resist(b: Batch, pr: Prompt) -> None:
    """G-30: the foe's side of the Quick Contest, then the penalty (A-14)."""
    from combat_server.rules.gurps.maneuvers import resolve_feint

    resolve_feint(b, pr)


_ROLLS: dict[str, Callable[[Batch, Prompt], None]] = {
    "consciousness": _consciousness,
    "death_check": _death_check,
    "major_wound": _major_wound,
    "amputation": _amputation,
    "shock_stun": _shock_roll("stunned"),
    "shock_knockout": _shock_roll("unconscious"),
    "heart_attack": _heart_attack,
    "heart_attack_damage": _heart_attack_damage,
    "stun_recovery": _stun_recovery,
    "shock_recovery": _shock_recovery,
    "grip": _grip,
    "limb_recovery": _limb_recovery,
    "aim_will": _aim_will,
    "concentrate_will": _concentrate_will,
    "fright": _fright,
    "fright_duration": _fright_duration,
    "faint_duration": _faint_duration,
    "fatigue_will": _fatigue_will,
    "damage": _damage,
    "attack": _second_attack,
    "counter": _counter,
    "feint_resist": _feint_resist,
}


def fright_check(b: Batch, args: Mapping[str, Any]) -> None:
    """G-18: the GM calls for a Fright Check; the combatant's seat rolls Will."""
    cid = args.get("combatant")
    if not isinstance(cid, str):
        raise reject("command/missing_field", "fright_check: combatant is required", field="combatant")
    c = b.state.combatant(cid)
    if c.condition.dead or c.condition.unconscious:
        raise reject("fright/not_aware", f"{c.name} is not conscious")
    modifier = args.get("modifier", 0)
    if not isinstance(modifier, int) or isinstance(modifier, bool):
        raise reject("command/bad_field", "fright_check: modifier must be a whole number", field="modifier")
    reason = str(args.get("reason") or "")
    b.emit("fright_check_demanded", {"combatant": cid, "modifier": modifier, "reason": reason},
           opens=[roll_prompt(cid, "fright", f"Fright Check for {c.name}: Will{modifier:+d} (G-18)",
                              modifier=modifier, reason=reason)])


def spend_fatigue(b: Batch, args: Mapping[str, Any]) -> None:
    """G-51: FP spent; at FP <= 0 each point also costs 1 HP (A-26), which is injury (R-06).
    ``exertion`` false (a spell, a power): GULLIVER's V-52 and V-53 scale physical exertion only."""
    cid = b.controlled(args)
    points = args.get("points")
    if not isinstance(points, int) or isinstance(points, bool) or not 1 <= points <= 100:
        raise reject("command/bad_field", "spend_fatigue: points must be 1..100", field="points")
    exertion = args.get("exertion", True)
    if not isinstance(exertion, bool):
        raise reject("command/bad_field", "spend_fatigue: exertion must be true or false", field="exertion")
    lose_fatigue(b, cid, points, str(args.get("reason") or ""), exertion=exertion)


def lose_fatigue(b: Batch, cid: str, points: int, reason: str, *, exertion: bool = True, rule: str = "",
                 loaded: bool = True, pace: str = "") -> None:
    """G-51: FP lost (spent, or dealt by a GM tool); at FP <= 0 each point also costs 1 HP (A-26),
    which is injury (R-06), and at -FPmax the combatant falls unconscious. Through the fight's
    policy (GULLIVER): V-48's heat, V-52's encumbrance factor, V-53's ST scaling and HT roll (a roll
    record in the event), and V-53's / V-54's thresholds (collapse outright, out at 0, the rest off
    HP); exact fractions kept (A-50). ``rule``: the GULLIVER rule that charged it (V-47, V-48, V-52);
    ``loaded`` false: V-52's load factor is in the points already (its standing cost); ``pace``: V-47's
    pace that charged it (hidden with a hidden sheet: it bounds Move)."""
    sheet, cond, policy = b.sheet(cid), b.cond(cid), b.policy
    st = combat_st_of(sheet)  # V-53: Fatigue on Combat ST
    full = fatigue.maximum(sheet, policy)
    before = fatigue.level(cond)
    rec: dict[str, JSON] | None = None
    if policy.fatigue_roll_due():  # V-53: HT each time fatigue is applied
        faces = b.roll(3, 6, f"HT roll against fatigue for {b.name(cid)} (V-53)")
        rec = record(purpose="fatigue_ht", roller=cid, dice=faces, base=sheet.ht, base_reason="HT", mods=[],
                     rule="V-53", criticals=bool(b.option("generic_criticals")))
    ok = rec is not None and succeeded(str(rec["outcome"]))
    cost, steps = policy.fatigue_charge(points, st=st, encumbrance=derived.fatigue_load(sheet, policy), ht_success=ok,
                                        margin=int(rec["margin"]) if rec is not None else 0, exertion=exertion,
                                        loaded=loaded)
    after, hp_loss = policy.spend_fatigue(before, full, cost)
    now = policy.fatigue_state(after, full, st)
    payload: dict[str, JSON] = {"combatant": cid, "points": points, "fp_before": cond.fp, "fp_after": math.floor(after),
                                "fp_max": full, "hp_loss": hp_loss, "unconscious": now.unconscious and not cond.unconscious,
                                "reason": reason}
    basis = policy.fatigue_basis()
    if rule:
        payload["rule"] = rule
    if pace:
        payload["pace"] = pace
    if basis != "G-51":
        payload["basis"] = basis
        if now.collapse == "collapsed" and not cond.collapsed:
            payload["collapsed"] = True  # V-53 / V-54: outright, no Will roll
    if steps:
        payload.update(cost=fatigue.text(cost), steps=[f"{what} ({why})" for what, why in steps])
    if not exertion:
        payload["exertion"] = False
    if before.denominator != 1:
        payload["fatigue_before"] = fatigue.text(before)
    if after.denominator != 1:
        payload["fatigue_after"] = fatigue.text(after)
    if rec is not None:
        payload["record"] = rec
    b.emit("fatigue_spent", payload)
    if hp_loss:
        attacks.apply_injury(b, cid, hp_loss, f"fatigue spill-over ({basis})", allow_major=False)
