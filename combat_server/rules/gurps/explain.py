"""One readable sentence per event, citing rule ids: the audit text a contested ruling
is settled with (each registered with its event in events.py). Also the derived numbers clients show for each combatant."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable, Mapping

from combat_server.rules.gurps import derived, fatigue
from combat_server.rules.gurps.gulliver import death
from combat_server.rules.gurps.gulliver.exact import exact_text
from combat_server.rules.gurps.gulliver.light import Light, penalties, seen_level
from combat_server.rules.gurps.gulliver.options import cite
from combat_server.rules.gurps.gulliver.policy import Policy, fight_policy
from combat_server.rules.gurps.sheet import Sheet, eyes_of
from combat_server.rules.gurps.state import Condition, light_of
from combat_server.rules.gurps.tables import ENCUMBRANCE_NAMES, format_dice
from combat_server.rules.model import JSON, Event, FightState


#: Combatant ids whose sheets the reader may not see (empty: everything is revealed).
Hidden = frozenset[str]
_NONE: Hidden = frozenset()


def format_record(rec: Mapping[str, Any], reveal: bool = True) -> str:
    """'3d [3, 4, 2] = 9 vs 13 (broadsword skill 13, +4 All-Out Attack (Determined) G-22): hit by 4 (G-36)'.

    Not revealed (a roll by a combatant whose sheet the reader may not see): only
    the dice, the total and the outcome, '3d [3, 4, 2] = 9: hit (G-36)'.
    """
    dice = ", ".join(str(d) for d in rec["dice"])
    if not reveal:
        return f"3d [{dice}] = {rec['total']}: {rec['outcome']} ({rec['rule']})"
    parts = [f"{rec['base_reason']} {rec['base']}"]
    for m in rec.get("modifiers", []):
        parts.append(f"{m['value']:+d} {m['reason']} {m['rule']}")
    if rec.get("cap"):
        parts.append(str(rec["cap"]))
    margin = int(rec["margin"])
    by = f" by {abs(margin)}" if margin else ""
    return f"3d [{dice}] = {rec['total']} vs {rec['target']} ({'; '.join(parts)}): {rec['outcome']}{by} ({rec['rule']})"


_PURPOSES = {
    "consciousness": "to stay conscious at 0 HP or below",
    "death_check": "against death",
    "major_wound": "for a major wound",
    "stun_recovery": "to recover from stun",
    "aim_will": "to keep aiming while injured",
    "concentrate_will": "to keep concentrating",
    "fright": "for a Fright Check",
    "fatigue_will": "to act at 0 FP or below",
    "amputation": "against losing the limb (V-12, V-13)",
    "heart_attack": "against a heart attack (V-44)",
    "shock_stun": "against stun from shock (V-19)",
    "shock_knockout": "against knockout from shock (V-22)",
    "shock_recovery": "to shake off shock (V-24 (in place of G-47), R-10)",
    "grip": "to keep hold with the stunned limb (V-21, R-11)",
    "limb_recovery": "to recover the stunned limb (V-21, V-24)",
}
_EFFECTS = {
    "none": "",
    "unconscious": "falls unconscious",
    "dead": "dies",
    "stunned_knockdown": "is stunned and knocked down (A-24)",
    "stun_ends": "shakes off the stun at the end of this turn (G-48)",
    "knockdown": "is knocked down (V-10 (in place of G-46))",
    "stunned": "is stunned (V-19)",
    "severed": "loses the limb: it is severed (V-12)",
    "neck_severed": "dies: the neck is severed or broken (V-13)",
    "collapsed": "collapses from fatigue until FP is positive again (G-51)",
    "aim_lost": "loses the aim (G-21)",
    "concentration_broken": "loses concentration; the task starts over (G-27)",
    "dropped": "drops what the stunned limb holds (V-21, R-11)",
    "limb_recovers": "recovers the stunned limb (V-24)",
}


def _n(state: FightState, cid: str) -> str:
    c = state.combatants.get(cid)
    return c.name if c is not None else cid


def _cond_of(state: FightState, cid: str) -> Condition:
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    return cond


def _combat_started(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    order = ", ".join(_n(s, c) for c in p["order"])
    how = "set by the GM (A-10)" if p.get("explicit") else "by Basic Speed, then DX among PCs, then roll-off (G-19, A-10, R-21)"
    extra = ""
    for ro in p.get("roll_offs", []):
        rolls = ", ".join(f"{_n(s, c)} {sum(v)}" for c, v in ro["rolls"].items())
        extra += f" Roll-off: {rolls}."
    return f"Combat starts. Turn order {how}: {order}.{extra}"


def _turn_started(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    text = f"Round {p['round']}: {_n(s, p['combatant'])}'s turn."
    if p.get("shock") and p["combatant"] not in h:
        text += f" Shock -{p['shock']} to DX and IQ-based rolls this turn (G-47)."
    if p.get("opens"):
        rule = cite(str(p["opens"][0]["options"].get("rule", "G-44")))  # V-14 with the GULLIVER option
        text += (f" HT roll to stay conscious ({rule})." if p["combatant"] in h
                 else f" At 0 HP or below: HT roll to stay conscious ({rule}).")
    return text


def _maneuver_chosen(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    name = p["maneuver"].replace("_", " ")
    opt = f" ({p['option'].replace('_', ' ')})" if p.get("option") else ""
    if p.get("forced"):
        return f"{who} must Do Nothing: {p['forced']}."
    bits = [f"{who} chooses {name.title()}{opt}"]
    if p.get("target"):
        bits.append(f"against {_n(s, p['target'])}")
    if p.get("weapon"):
        bits.append(f"with {p['weapon']}")
    text = " ".join(bits) + " (G-20)"
    if p["combatant"] not in h:
        text += f"; may move {p.get('move_allowance', 0)} yd"
    if p.get("moved"):
        text += f", moves {p['moved']} yd"
    if p["maneuver"] == "aim":
        text += f"; aiming for {p['aim_turns']} turn(s) (G-21)"
    if p["maneuver"] == "evaluate":
        text += f"; Evaluate bonus now +{p['evaluate_bonus']} (G-29)"
    if p["maneuver"] == "concentrate" and p.get("concentrate_left"):
        text += f"; concentrates on '{p['concentrating']}', {p['concentrate_left']} turn(s) to go (G-27)"
    before = _cond_of(s, p["combatant"]) if p["combatant"] in s.combatants else None
    if before is not None and before.concentrating and p.get("concentrating") != before.concentrating:
        text += f"; abandons the task '{before.concentrating}' (G-27)"
    if p["maneuver"] == "wait":
        text += f"; waits for '{p['wait_trigger']}' to {p['wait_action'].replace('_', ' ')} (G-34)"
    if p.get("posture"):
        text += f"; now {p['posture']} (G-26)"
    if p.get("aod_defense"):
        text += f"; +2 to {p['aod_defense'].title()} until the next turn (G-24)"
    if p["maneuver"] == "all_out_attack":
        text += "; no active defence until the next turn (G-22)"
    if p["maneuver"] == "move_and_attack":
        text += "; only Dodge or Block until the next turn (G-32)"
    return text + "."


def _attack_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    a = p["attack"]
    reveal = a["attacker"] not in h
    text = (f"{_n(s, a['attacker'])} attacks {_n(s, a['target'])} with {a['weapon']}: "
            f"{format_record(p['record'], reveal)}.")
    if p.get("no_defense"):
        text += f" No defence: {p['no_defense']}."
    if a.get("max_damage"):
        text += " A roll of 3 does maximum damage (G-36)."
    if a.get("hits", 1) > 1:
        # The seed gives no hit rule for rapid fire; the product's reading (docs/rules-coverage.md, G-39's row):
        # recoil 1, so 1 hit plus 1 per point of margin, at most the shots fired. Said, so a ruling can be checked.
        margin = f" {a.get('margin', 0)}" if reveal else ""  # with the dice, the margin is the hidden skill
        text += (f" {a['hits']} hits (rapid fire, G-35: 1 plus 1 per point of margin{margin}, "
                 f"at most the shots fired; recoil 1).")
    where = p.get("location")
    if where and where.get("aimed"):
        text += f" Aimed at the {where['name']} ({where['rule']})."
    elif where:
        text += (f" Hit location: 3d [{', '.join(str(d) for d in where['dice'])}] = {where['total']}, "
                 f"the {where['name']} ({where['rule']}).")
    return text


def _defense_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["defender"])
    if p["defense"] == "none":
        return f"{who} does not defend."
    with_w = f" with {p['weapon']}" if p.get("weapon") else ""
    verdict = "succeeds" if p["success"] else "fails"
    text = (f"{who} tries to {p['defense']}{with_w}: {format_record(p['record'], p['defender'] not in h)}; "
            f"the defence {verdict}.")
    if p.get("aim_spoiled"):
        text += " Defending spoils the aim (G-21)."
    if p["success"] and p.get("hits_left"):
        text += f" {p['hits_left']} hit(s) still land (G-39)."
    return text


def _feint_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    return (f"{_n(s, p['feinter'])} feints {_n(s, p['target'])} with {p['weapon']}: "
            f"{format_record(p['record'], p['feinter'] not in h)}.")


def _feint_resisted(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    text = f"{_n(s, p['target'])} resists the feint: {format_record(p['record'], p['target'] not in h)}."
    if p["penalty"] and (p["feinter"] in h or p["target"] in h):
        # G-30: the penalty is a margin less the other's: with one margin shown it gives the hidden one's skill
        text += (f" Feint succeeds ({p['why']}): {_n(s, p['target'])} defends at a penalty against "
                 f"{_n(s, p['feinter'])}'s next attack (G-30).")
    elif p["penalty"]:
        text += (f" Feint succeeds by {p['penalty']} ({p['why']}): {_n(s, p['target'])} defends at -{p['penalty']} "
                 f"against {_n(s, p['feinter'])}'s next attack (G-30).")
    else:
        text += f" The feint fails: {p['why']} (G-30)."
    return text


def _damage_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    dice = ", ".join(str(d) for d in p["dice"])
    half = ", halved at 1/2D (A-17)" if p.get("half_damage") else ""
    adds = f" {p['adds']:+d}" if p["adds"] else ""
    mods = "".join(f" {m['value']:+d} {m['reason']} ({cite(m['rule'])})" for m in p.get("modifiers", []))
    if p.get("shock_only"):  # V-17: a stunner (its roll is the attacker's: hidden with the attacker's numbers)
        total = "" if p["attacker"] in h else f"{adds}{mods} = {p['basic']}"
        return (f"{p['weapon']} shock{_where(p)} [{dice}]{total}{half}: shock dealt directly, no damage "
                f"({cite('V-17')}).")
    if p["attacker"] in h or p["target"] in h:
        if p["attacker"] in h:  # the hidden attacker's adds and modifiers would give its ST and skill away
            adds = mods = ""
        how = "maximum damage (G-36)" if p.get("max_damage") else f"[{dice}]{adds}{mods}"
        text = f"{p['weapon']} damage{_where(p)} {how}{half}"
        if p["attacker"] not in h:
            text += f" = {p['basic']} basic"
        if p["target"] in h:
            return text + (" (G-42)." if Fraction(p["penetrating"]) > 0 else " (G-42); nothing gets through.")
        if p["attacker"] in h:  # G-42: basic - the visible DR would give the hidden basic (and adds) away
            return text + f"; DR {p['dr']}" + (" (G-42)." if Fraction(p["penetrating"]) > 0 else
                                               " (G-42); nothing gets through.")
        return (text + f"; DR {p['dr']} -> {p['penetrating']} penetrating (G-42)"
                + (f"; injury {p['injury']} (G-42, A-20)." if Fraction(p["penetrating"]) > 0 else "; nothing gets through."))
    how = "maximum damage (G-36)" if p.get("max_damage") else f"[{dice}]{adds}{mods}"
    finishing = p.get("finishing_blow")
    if finishing:
        how = f"maximum damage [{dice}]{adds}{mods} on a helpless foe (V-59)"
    dr = f"DR {p['dr']}" if not (finishing and finishing.get("twist")) else "DR ignored: a twist past the skull (V-59)"
    text = (f"{p['weapon']} damage{_where(p)} {how}{_table(p)}{_low_st(p)} = {p['basic']} basic{half}; {dr} -> "
            f"{p['penetrating']} penetrating (G-42)")
    if Fraction(p["penetrating"]) > 0:
        text += f"; x{p['multiplier']} {p['damage_type']} -> {_gulliver_wound(p)}injury {p['injury']} (G-42, A-20)."
    else:
        text += "; nothing gets through."
    if finishing and finishing.get("skull_breached") and not finishing.get("twist"):
        text += " Past the skull's DR: further finishing blows with it to the skull are twists that ignore DR (V-59)."
    return text


def _where(p: Mapping[str, Any]) -> str:
    """The hit location, when the fight uses them (A-24); nothing for the default torso."""
    return f" to the {p['location']} (A-24)" if p.get("location") else ""


def _table(p: Mapping[str, Any]) -> str:
    """GULLIVER's ST table, when it gave the weapon its dice (V-66, V-67), and the Combat ST it read (V-01)."""
    table = p.get("damage_table")
    text = f" (dice from the {'thrust' if table == 'V-66' else 'swing'} of {cite(table)})" if table else ""
    combat = p.get("combat_st")
    return text + (f" (by Combat ST {combat['st']}, {cite(combat['rule'])})" if combat else "")


def _low_st(p: Mapping[str, Any]) -> str:
    """V-03: a low-ST roll scaled by ST/10, its fraction kept against a target under 10 HP."""
    low = p.get("low_st")
    if not low:
        return ""
    kept = "fraction kept: the target has under 10 HP" if low["exact"] else "rounded down: the target has 10 HP or more"
    return f" x {low['scale']} for low ST ({kept}; {cite(low['rule'])})"


def _gulliver_wound(p: Mapping[str, Any]) -> str:
    """The wound's GULLIVER steps between the multiplier and the injury: Toughness (V-63), the
    blowthrough cap (V-05, V-06), split HP (V-04); nothing when the fight uses none."""
    text = ""
    t = p.get("toughness")
    if t:
        text += f"{t['before']}, less Toughness {t['absorbed']} of {t['value']} ({cite(t['rule'])}) -> "
    cap = p.get("blowthrough")
    if cap:
        factors = "".join(f" x{f['value']} {f['reason']}" for f in cap.get("factors", []))
        how = f" (base{factors}, {cite(cap['rule'])})" if factors else f" ({cite(cap['rule'])})"
        text += f"{cap['before']}, blowthrough caps it at {cap['cap']}{how} -> "
    split = p.get("split_hp")
    if split:
        text += f"{split['before']} x {split['factor']} on the other body half ({cite(split['rule'])}) -> "
    return text


#: What GULLIVER counts a blow's shock from (attacks.shock_json's ``of``), with the rule that says so.
_SHOCK_BASIS = {
    "injury": "the injury (V-17)",
    "taken": "the HP taken (V-11, A-33)",
    "blow": "the whole blow (V-11, A-33: crippling_shock full_blow)",
    "before_toughness": "the wound before Toughness (V-64 (b))",
}


def _shock_points(p: Mapping[str, Any]) -> str:
    """How GULLIVER counted the shock (V-11, V-17, V-20, V-64), when it is not simply the HP lost."""
    sh = p.get("shock")
    if not sh:
        return ""
    text = f" Shock {sh['points']} points: {sh['basis']} from {_SHOCK_BASIS[sh['of']]}"
    if sh.get("direct"):
        text += f" + {sh['direct']} dealt directly ({cite('V-17')})"
    text += "".join(f" x{f['value']} {f['reason']} ({cite(f['rule'])})" for f in sh.get("factors", []))
    if sh.get("less"):
        text += f" - Toughness {sh['less']} (V-64 (b))"
    return text + "."


def _limb_stunned(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    text = f"{who}'s {p['location']} is stunned by shock ({cite(p['rule'])})"
    if p.get("dropped"):
        return text + f": {who} drops {', '.join(p['dropped'])} (a Ready picks it up again, G-33)."
    if p.get("grip_roll"):
        return text + ": just over the mark, a HT roll to keep hold (A-39, R-11)."
    return text + "."


def _limb_crippled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    if p["combatant"] in h:
        return f"{who}'s {p['location']} is crippled ({cite(p['rule'])})."
    return (f"{who}'s {p['location']} is crippled ({cite(p['rule'])}): the blow of {p['blow']} is over "
            f"{p['threshold']}; {p['taken']} HP are taken, the rest is lost.")


def _limb_severed(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    if p.get("fatal"):
        return f"{who}'s {p['location']} is severed or broken: {who} dies ({p['rule']})."
    return f"{who}'s {p['location']} is severed ({p['rule']})."


def _shock_effect(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    how = "" if p["combatant"] in h else f" by {p['points']} shock"
    what = "is stunned" if p["effect"] == "stunned" else "is knocked out"
    return f"{who} {what}{how} ({cite(p['rule'])})."


def _heart_attack_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    dice = ", ".join(str(d) for d in p["dice"])
    done = "" if p["combatant"] in h else f" = {p['injury']} HP"
    ls = f" x LS {p['linear_scale']}" if p.get("linear_scale") and p["combatant"] not in h else ""
    return f"{_n(s, p['combatant'])}'s {p['kind']} heart attack does {len(p['dice'])}d [{dice}]{ls}{done} ({p['rule']})."


def _injury_applied(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    if p["combatant"] in h:
        text = f"{who} is wounded by {p['source']}."
        if p["major_wound"]:
            text += " Major wound (G-46)."
        if p["death_thresholds"]:
            text += f" HT roll each or die ({_death_rules(p)})."
        if p.get("dead"):
            text += " Dead (G-45)."
        return text
    if p["injury"]:
        text = (f"{who} loses {p['injury']} HP from {p['source']}: HP {p['hp_before']} -> {p['hp_after']} of "
                f"{p['hp_max']}.")
    else:  # GULLIVER: shock without injury (a stunner, V-17; Toughness's shock option (b), V-64)
        text = f"{who} loses no HP from {p['source']} (HP {p['hp_after']} of {p['hp_max']}), but takes shock."
    text += _shock_points(p)
    if p["shock_added"] and p.get("shock_rule") == "V-18":
        text += (f" Shock -{p['shock_added']} (total -{p['shock_pending']}) to DX and IQ on {who}'s next turn, "
                 f"scaled to HPmax ({cite('V-18')}, A-37, A-38).")
    elif p["shock_added"]:
        text += (f" Shock -{min(4, p['shock_added'])} (total -{p['shock_pending']}, capped at -4) to DX and IQ "
                 f"on {who}'s next turn only (G-47).")
    opened = {o["options"].get("purpose") for o in p.get("opens", [])}
    if p["major_wound"]:
        text += f" Major wound: {p['injury']} > HP/2" + (", HT roll (G-46)." if "major_wound" in opened else " (G-46).")
    if p["reeling"] and Fraction(p["hp_before"]) * 3 >= p["hp_max"]:
        rule = f"{cite('V-09')}, A-31" if p.get("slowdown_rule") == "V-09" else "G-43"
        text += f" Below 1/3 HP: Move and Dodge halved ({rule})."
    zone = p.get("death_zone")
    factor = Fraction(zone["factor"]) if zone else Fraction(1)
    monster = f"; a monster's zone x IQ/10 = {zone['factor']} ({cite(zone['rule'])}, A-52)" if zone else ""
    if p["death_thresholds"]:
        half = p.get("death_rule") == "V-15"
        steps = ", ".join(f"-{exact_text(death.multiple(k, half) * factor)}xHP" for k in p["death_thresholds"])
        text += f" Crossed {steps}: HT roll each or die ({_death_rules(p)}{monster})."
    if p.get("dead"):
        text += f" At -{exact_text(5 * factor)}xHP: dead ({cite(p.get('death_rule', 'G-45'))}{monster})."
    fresh = p.get("fresh_injury")
    if fresh:
        text += (f" {fresh['total']} fresh injury since the monster stayed up: HPmax/10 or more, so it rolls to stay "
                 f"conscious again ({cite(fresh['rule'])})." if fresh["roll_again"] else
                 f" {fresh['total']} fresh injury since the monster stayed up: under HPmax/10, no new roll to stay "
                 f"conscious ({cite(fresh['rule'])}).")
    return text


def _death_rules(p: Mapping[str, Any]) -> str:
    """G-45 with A-23, or V-15 with A-36 (GULLIVER's half-HP steps)."""
    return f"{cite('V-15')}, A-36" if p.get("death_rule") == "V-15" else "G-45, A-23"



def _check_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    purpose = p["purpose"]
    # G-18: the length is the margin of failure + the dice shown: it would give the hidden Will away
    if p["combatant"] in h and purpose == "fright_duration":
        return f"{who} is stunned by fright for a while (G-18, A-09: no recovery rolls)."
    if p["combatant"] in h and purpose == "faint_duration":
        return f"{who} faints for some minutes (G-18)."
    if purpose == "fright_duration":
        return (f"{who} is stunned by fright for {p['turns']} turns: margin {p['margin']} + 2d {p['dice']} "
                f"(G-18, A-09: no recovery rolls).")
    if purpose == "faint_duration":
        return f"{who} faints for {p['minutes']} minutes: margin {p['margin']} + 1d {p['dice']} (G-18)."
    text = f"{who} rolls {_PURPOSES.get(purpose, purpose)}: {format_record(p['record'], p['combatant'] not in h)}."
    effect = _EFFECTS.get(p.get("effect", "none"), "")
    if p.get("heart_attack"):
        text += f" {who} has a {p['heart_attack']} heart attack (V-44)."
    if effect:
        text += f" {who} {effect}."
    if p.get("stays_up"):
        text += (f" The monster stays conscious without rolling each turn until fresh injury of HPmax/10 or more "
                 f"({cite(p['stays_up'])}).")
    if purpose == "shock_recovery" and p["combatant"] not in h:
        left = p.get("shock_left", 0)
        text += (f" Shock -{left} carries into {who}'s next turn (V-24, R-10, A-40)." if left
                 else " The shock wears off (V-24).")
    return text


def _turn_ending(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    text = f"End of {_n(s, p['combatant'])}'s turn."
    if "fright_turns_left" in p:
        left = p["fright_turns_left"]
        # G-18: the turns left count down the margin of failure + 2d: a hidden Will's
        text += (" The fright stun ends (A-09)." if left <= 0 else " The fright stun goes on (A-09)."
                 if p["combatant"] in h else f" Fright stun: {left} turn(s) left (A-09).")
    if "concentrate_left" in p:
        left = p["concentrate_left"]
        task = _cond_of(s, p["combatant"]).concentrating if p["combatant"] in s.combatants else ""
        text += (f" The task '{task}' is finished: no more Will-3 rolls for it (G-27)." if left <= 0
                 else f" The task '{task}' needs {left} more turn(s) of Concentrate (G-27).")
    purposes = {str(o.get("options", {}).get("purpose", "")) for o in p.get("opens", ())}
    if "stun_recovery" in purposes:
        text += " Stunned: recovery roll (G-48)."
    if "limb_recovery" in purposes:
        text += " Stunned limb: recovery roll (V-21, V-24)."
    if "shock_recovery" in purposes:
        text += " Shock: HT roll to shake it off (V-24 (in place of G-47), R-10)."
    return text


def _turn_ended(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    text = f"{_n(s, p['combatant'])}'s turn ends; any shock wears off (G-47)."
    if p.get("feint_expired"):
        text += " The feint's penalty expires (G-30)."
    return text


def _fatigue_spent(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    who = _n(s, p["combatant"])
    why = f" ({p['reason']})" if p.get("reason") else ""
    basis = p.get("basis", "")
    if basis or p.get("rule") or p.get("steps") or p.get("fatigue_before") or p.get("fatigue_after"):
        return _gulliver_fatigue(who, why, p, p["combatant"] in h)
    if p["combatant"] in h:
        return f"{who} spends {p['points']} FP{why}." + (" Unconscious (G-51)." if p.get("unconscious") else "")
    text = f"{who} spends {p['points']} FP{why}: FP {p['fp_before']} -> {p['fp_after']}."
    if p["hp_loss"]:
        text += f" {p['hp_loss']} HP lost for FP spent at 0 or below (G-51, A-26)."
    if p.get("unconscious"):
        text += f" At -{p['fp_max']} FP: unconscious (G-51)."
    return text


def _pace_timed(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    """V-47: the second's pace, and how long at it so far."""
    who = _n(s, p["combatant"])
    if p["combatant"] in h:  # the pace is the yards as a share of Move: it would give Move away
        return f"{who} moved {p['moved']} yd ({cite(p['rule'])}, A-48)."
    return (f"{who} moved {p['moved']} yd of Move {p['move']}: {p['pace']}, {p['seconds']} s at that pace so far, "
            f"1 fatigue per {p['interval']} s ({cite(p['rule'])}, A-48).")


def _gulliver_fatigue(who: str, why: str, p: Mapping[str, Any], hidden: bool) -> str:
    """GULLIVER's fatigue (V-47, V-48, V-52, V-53, V-54): the points charged, each step that changed
    them with its rule, the exact level (A-50) and what the basis's thresholds do."""
    basis = p.get("basis") or "G-51"
    word = "FP" if basis == "G-51" else "fatigue"
    if p.get("rule"):  # charged by a GULLIVER rule: what for (V-47: at which pace, unless hidden), and which
        pace = f" ({p['pace']})" if p.get("pace") and not hidden else ""
        why = f" for {p['reason']}{pace} ({cite(p['rule'])})" if p.get("reason") else f" ({cite(p['rule'])})"
    text = f"{who} takes {p['points']} {word}{why}"
    if hidden:
        text += "."
    else:
        if p.get("steps"):
            text += ": " + ", ".join(p["steps"]) + f" = {p['cost']}"
        before = p.get("fatigue_before") or str(p["fp_before"])
        after = p.get("fatigue_after") or str(p["fp_after"])
        text += f"; {'FP' if basis == 'G-51' else 'Fatigue'} {before} -> {after} of {p['fp_max']}"
        reading = "A-51" if basis == "V-54" else "A-50"  # V-54's reading is A-51; A-50 is V-53's exact levels
        text += f" ({cite(basis)}, {reading})." if basis != "G-51" else (" (G-51, A-50)." if p.get("steps") else ".")
        if p["hp_loss"]:
            past = "0 or below (G-51, A-26)" if basis == "G-51" else f"0 ({basis}: the rest comes off HP)"
            text += f" {p['hp_loss']} HP lost for fatigue past {past}."
    if p.get("collapsed"):
        mark = "Combat ST/10" if basis == "V-53" else "1"
        text += f" At {mark} or less: {who} collapses ({basis})."
    if p.get("unconscious"):
        text += " At -FPmax: unconscious (G-51)." if basis == "G-51" else \
            f" At 0: unconscious ({basis}{', A-51' if basis == 'V-54' else ''})."
    return text


def _simple(fmt: str) -> Callable[[FightState, Mapping[str, Any], Hidden], str]:
    return lambda s, p, h: fmt.format(**{k: _n(s, v) if k in ("combatant", "target", "feinter", "actor")
                                         else v.replace("_", " ") if k == "maneuver" else v for k, v in p.items()})


def _tool_applied(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    """#12: the tool, its rule ids and the roll; the target's DR and injury unless its sheet is hidden."""
    harm = p["harm"]
    if p["target"] in h:  # its inputs may be the hidden sheet's (HPmax, HT, LS): what they made of the dice too
        dice = f"{len(p['dice'])}d [{', '.join(str(d) for d in p['dice'])}] " if p["dice"] else ""
        return f"The GM applies {p['title']} to {_n(s, p['target'])}: {dice}{harm['kind']} ({harm['rule']})."
    times = f" x {harm['multiplier']}" if harm.get("multiplier", 1) != 1 else ""
    times += f" - {harm['minus']}" if harm.get("minus") else ""  # absorption taken off after scaling
    rules = f"{harm['rule']}, R-01" if times else harm["rule"]
    if p["dice"]:
        adds = f"{harm['adds']:+d}" if harm["adds"] else ""
        how = f"[{', '.join(str(d) for d in p['dice'])}]{adds}{times} = "
    else:
        how = f"{harm['adds']}{times} = " if times else ""
    text = f"The GM applies {p['title']} to {_n(s, p['target'])}: {how}{p['points']} {harm['kind']} ({rules})"
    if harm["kind"] == "fat":
        return text + "."
    if harm["kind"] == "injury":
        return text + f"; {p['injury']} HP lost as it is ({harm['rule']})."
    if p["penetrating"] <= 0:
        return text + f"; DR {p['dr']}: nothing gets through (G-42)."
    return (text + f"; DR {p['dr']} -> {p['penetrating']} penetrating; x{p['multiplier']} -> injury "
            f"{p['injury']} (G-42, A-20).")


def _counter_rolled(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    verdict = "hits the attacker's limb; no defence allowed" if p["success"] else "misses"
    return (f"{_n(s, p['combatant'])} counters the unarmed attack with {p['weapon']}: "
            f"{format_record(p['record'], p['combatant'] not in h)}; {verdict} (G-41).")


def _character_imported(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    if p["id"] in h:  # the file and its hash would let a reader holding the file tell the hidden sheet
        return (f"{p['name']}'s sheet is re-imported from a GCS file; current HP, FP and conditions stay."
                if p["replaced"] else f"{p['name']} ({p['side'].upper()}) joins the fight as {p['id']}, "
                "imported from a GCS file.")
    head = (f"{p['name']}'s sheet is re-imported from {p['file']}; current HP, FP and conditions stay"
            if p["replaced"] else f"{p['name']} ({p['side'].upper()}) joins the fight as {p['id']}, imported from {p['file']}")
    text = f"{head} (sha256 {p['sha256'][:12]}…)."
    if p["replaced"]:
        capped = [f"{k.upper()} drops to the new maximum, {p[k]}" for k in ("hp", "fp") if k in p]
        if capped:
            text += " " + "; ".join(capped) + "."
    if p.get("unused"):
        text += f" Not used ({len(p['unused'])}): " + "; ".join(p["unused"]) + "."
    return text


class _SheetView:
    """What a combatant's view takes from its sheet and the fight's policy alone, memoised per (immutable)
    sheet object by :func:`_sheet_view`: the server asks for a combatant's view after every event that
    touches it (issue 16, server CPU)."""

    __slots__ = ("sheet", "policy", "base", "shown", "fp_max", "weapons")

    def __init__(self, sheet: Sheet, policy: Policy, base: dict[str, JSON]) -> None:
        self.sheet, self.policy, self.base = sheet, policy, base
        #: ``base`` without its ``_`` members (the unhurt Move and Dodge the halvings start from).
        self.shown = {k: v for k, v in base.items() if not k.startswith("_")}
        #: Full Fatigue (V-53 / V-54; G-51's FPmax): the sheet's and the policy's alone.
        self.fp_max = fatigue.maximum(sheet, policy)
        #: The ``unready`` tuple the weapons were last made for, and those weapons: one pair, set in one
        #: assignment, so two threads asking at once can never pair one's list with the other's tuple.
        self.weapons: tuple[object, list[dict[str, JSON]]] = (None, [])

    def weapons_for(self, unready: tuple[str, ...]) -> list[dict[str, JSON]]:
        """The sheet's weapons, each ``ready`` unless named in ``unready`` (the condition's). The list made
        for the same ``unready`` object is given again: a condition that changed elsewhere (a GM's HP
        adjustment) keeps its tuple, so the view's ``weapons`` stays the object the server compared and
        encoded before (``server.views.DerivedCache``). Never changed in place, as ``base`` is not."""
        made = self.weapons
        if made[0] is not unready:
            made = self.weapons = (unready, [dict(w, ready=w["name"] not in unready) for w in self.base["weapons"]])
        return made[1]


_SHEET_VIEWS: dict[int, _SheetView] = {}


def _sheet_view(sheet: Sheet, policy: Policy) -> _SheetView:
    """The numbers that depend on the sheet (and the fight's ST table, V-66 / V-67) alone,
    memoised per (immutable) sheet object: the server asks for a combatant's view after every
    event that touches it."""
    hit = _SHEET_VIEWS.get(id(sheet))
    if hit is not None and hit.sheet is sheet and hit.policy is policy:
        return hit
    el = derived.encumbrance_level(sheet, policy)  # V-01: by Load ST's BL
    weapons = []
    for w in sheet.all_weapons():
        roll = derived.weapon_roll(sheet, w, policy)  # V-01 Combat ST, V-03's low-ST scale
        weapons.append({"name": w.name, "kind": w.kind, "skill": w.skill, "damage": f"{roll.text()} {derived.damage_kind(w)}",
                        "parry": derived.parry(w, sheet), "reach": w.reach, "acc": w.acc, "max_range": w.max_range})
    view: dict[str, JSON] = {
        "hp_max": sheet.hp_max, "fp_max": sheet.fp_max, "basic_speed": str(derived.basic_speed(sheet)),
        "basic_move": derived.basic_move(sheet), "basic_lift": str(derived.carrying_bl(sheet, policy)),
        "encumbrance": el, "encumbrance_name": ENCUMBRANCE_NAMES[el], "block": derived.block(sheet),
        "weapons": weapons, "will": sheet.will_score, "per": sheet.per_score,
        "_move": derived.unhurt_move(sheet, policy), "_dodge": derived.unhurt_dodge(sheet, policy),
    }
    lift = derived.lift_st(sheet, policy)
    if lift != sheet.st:  # V-01: Basic Lift and encumbrance by Load ST (left out when it is the sheet's ST)
        view["load_st"] = {"st": lift, "rule": "V-01"}
    if len(_SHEET_VIEWS) > 4096:
        _SHEET_VIEWS.clear()
    hit = _SHEET_VIEWS[id(sheet)] = _SheetView(sheet, policy, view)
    return hit


def combatant_view(state: FightState, cid: str) -> dict[str, JSON]:
    """Derived and effective numbers for a client: never stored, always recomputed (but for what depends
    on the sheet alone, :func:`_sheet_view`)."""
    c = state.combatants[cid]
    sheet, cond = c.sheet, c.condition
    assert isinstance(sheet, Sheet) and isinstance(cond, Condition)
    policy = fight_policy(state.options)
    memo = _sheet_view(sheet, policy)
    base = memo.base
    view = dict(memo.shown)
    # G-43 and G-51 (V-53, V-54) asked once each: Move and Dodge halve by both, the view shows both.
    is_reeling, is_tired = derived.reeling(sheet, cond), derived.tired(sheet, cond, policy)
    view["weapons"] = memo.weapons_for(cond.unready)  # in base's place among the sheet's members
    view["move"] = derived.halved(int(base["_move"]), is_reeling, is_tired)
    view["dodge"] = derived.halved(int(base["_dodge"]), is_reeling, is_tired)
    view["st"] = derived.effective_st(sheet, cond, policy)
    view["reeling"] = is_reeling
    view["tired"] = is_tired
    fp_max = memo.fp_max
    if fp_max != sheet.fp_max or cond.fp_exact:  # V-53 / V-54's full Fatigue, A-50's exact level
        view.update(fp_max=fp_max, fatigue=fatigue.text(fatigue.level(cond)), fatigue_rule=policy.fatigue_basis())
    if policy.light_levels:  # V-46: the light as this combatant sees it; the sense_roll tool prefills its Vision
        view["light"] = light_view(policy, state.combat, sheet)
    return view


def light_view(policy: Policy, combat: object, sheet: Sheet) -> dict[str, JSON]:
    """V-46: the fight's level, the level this combatant's eyes see, and the penalty on its Vision rolls."""
    level = light_of(combat)
    seen = policy.light(level, eyes_of(sheet))
    vision = policy.vision_mod(level, eyes_of(sheet))
    return {"level": level, "seen": seen.name, "blind": seen.blind, "vision": vision.value if vision else 0}


def light_effect(seen: Light, policy: Policy) -> str:
    """What the light a fighter sees does to its rolls (V-46, A-47), in words for the log and the
    fighters' badges."""
    numbers = penalties(seen)
    parts = []
    if numbers.vision:
        parts.append(f"Vision {numbers.vision}")
    if numbers.dx_iq:
        parts.append(f"DX and IQ {numbers.dx_iq} on attacks and feints")
    if numbers.darkness:
        where = ("on Vision, attacks and active defences" if policy.darkness_penalties == "vision_and_combat"
                 else "on Vision only")
        parts.append(f"darkness {numbers.darkness} {where} (A-47)")
    text = ", ".join(parts) if parts else "no penalty"
    if numbers.blind:
        text = f"blind: at least {text}, the GM adding more (G-35)"
    return text


def _light_changed(s: FightState, p: Mapping[str, Any], h: Hidden = _NONE) -> str:
    """V-46: the GM's new light level and what it does (eyes and eyewear shift it per fighter)."""
    reason = f" ({p['reason']})" if p.get("reason") else ""
    return (f"The GM sets the light to {p['level']}, was {p['was']}{reason}: "
            f"{light_effect(seen_level(p['level']), fight_policy(s.options))} (V-46).")
