"""SHELL's events: each payload as a frozen class, its fold and its one-sentence
explanation citing S ids (rules/kit/events.py). Decisions are made in ``decide``
(turns.py, actions.py, rolls.py); an event carries the numbers it sets, so a fold
never re-derives a rule and refolding a log gives the same state byte for byte."""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from combat_server.rules.kit.events import EventRegistry, EventSpec, Secret, on_payload
from combat_server.rules.kit.rolls import RECORD_SECRETS, Mod
from combat_server.rules.model import Event, FightState
from combat_server.rules.shell.state import Attack, Combat, Condition

Obj = dict[str, Any]


def combat_of(state: FightState) -> Combat:
    combat = state.combat
    assert isinstance(combat, Combat)
    return combat


def cond_of(state: FightState, cid: str) -> Condition:
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    return cond


def name(state: FightState, cid: str) -> str:
    c = state.combatants.get(cid)
    return c.name if c is not None else cid


def _with_combat(state: FightState, **changes: Any) -> FightState:
    return attrs.evolve(state, combat=attrs.evolve(combat_of(state), **changes))


def _set(state: FightState, cid: str, **changes: Any) -> FightState:
    return state.with_condition(cid, **changes) if cid in state.combatants else state


def attack_from_json(raw: Mapping[str, Any]) -> Attack:
    data = dict(raw)
    data["at"] = tuple(Mod(int(m["value"]), str(m["reason"]), str(m["rule"])) for m in data.get("at", ()))
    return Attack(**data)


def attack_to_json(attack: Attack) -> Obj:
    data: Obj = attrs.asdict(attack, recurse=True)
    return data


# --------------------------------------------------------------------------- payloads


@attrs.frozen
class RoundStarted:
    round: int
    order: list[str]
    basis: list[Obj]
    rolloffs: list[Obj]
    explicit: bool = False


@attrs.frozen
class InitiativeTied:
    round: int
    tied: list[list[str]]
    rolloffs: list[Obj]


@attrs.frozen
class RoundEnded:
    round: int
    fatigue: list[Obj]


@attrs.frozen
class TurnStarted:
    combatant: str
    round: int
    index: int


@attrs.frozen
class TurnLost:
    combatant: str
    reason: str


@attrs.frozen
class TurnEnded:
    combatant: str


@attrs.frozen
class ManeuverTaken:
    combatant: str
    maneuver: str
    moved: int = 0
    target: str = ""
    weapon: str = ""
    name: str = ""
    at_mod: int = 0
    def_mod: int = 0
    aim_turns: int = 0
    interrupt: bool = False  # a Guard's pre-emptive strike out of turn (S-20)
    active: bool = True  # counts toward combat fatigue (S-46, R-19)
    stands: bool = False
    leaves_close: bool = False


@attrs.frozen
class SpellLost:
    combatant: str
    spell: str
    reason: str


@attrs.frozen
class AttackDeclared:
    attack: Obj


@attrs.frozen
class AttackResolved:
    attacker: str
    defender: str
    defence: str
    record: Obj
    def_mods: list[Obj]
    def_total: int
    r: int
    result: str
    shield_pr: int | None = None
    blocked_with: str = ""
    automatic: bool = False
    done: bool = False


@attrs.frozen
class DamageTaken:
    attacker: str
    combatant: str
    location: str
    damage_type: str
    dice: list[int]
    raw: int
    steps: list[Obj]
    adds: list[Obj]  # each add to the dice with its reason and rule (S-03, S-11, S-19, ...)
    damage: int
    counted: int
    non_lethal: bool
    wounds: Obj
    stun_damage: int
    stunned: bool
    crippled: list[Obj]
    unconscious: bool
    dead: bool
    end: int
    done: bool = True


@attrs.frozen
class ObjectDamaged:
    attacker: str
    owner: str
    object: str
    dice: list[int]
    raw: int
    damage: int
    hp: int
    breaks: bool
    adds: list[Obj]
    done: bool = True


@attrs.frozen
class Disarmed:
    combatant: str
    weapon: str
    by: str


@attrs.frozen
class GrappleResolved:
    attacker: str
    target: str
    kind: str  # takedown | pin | escape
    success: bool


@attrs.frozen
class CloseResponse:
    combatant: str
    attacker: str
    response: str  # stop_thrust | shield_block | none
    weapon: str = ""


@attrs.frozen
class CloseEntry:
    attacker: str
    target: str
    entered: bool
    reason: str
    contest: Obj | None = None


@attrs.frozen
class SpellBegun:
    combatant: str
    spell: str
    casting_time: int
    target: str = ""


@attrs.frozen
class Concentrated:
    combatant: str
    spell: str
    turns: int


@attrs.frozen
class SpellCast:
    combatant: str
    spell: str
    record: Obj | None
    success: bool
    end_cost: int
    end: int
    target: str = ""
    immune: bool = False


@attrs.frozen
class CheckRolled:
    combatant: str
    purpose: str  # cripple_ht | wp_conscious | wp_end | wp_keep_spell
    record: Obj
    success: bool
    location: str = ""


# --------------------------------------------------------------------------- folds


def _round_started(state: FightState, p: Mapping[str, Any]) -> FightState:
    combat = state.combat if isinstance(state.combat, Combat) else Combat()
    state = attrs.evolve(state, status="active",
                         combat=attrs.evolve(combat, order=tuple(p["order"]), round=p["round"], index=-1,
                                             current="", acted=False, between=False))
    return state


def _initiative_tied(state: FightState, p: Mapping[str, Any]) -> FightState:
    combat = state.combat if isinstance(state.combat, Combat) else Combat()
    return attrs.evolve(state, status="active", combat=attrs.evolve(combat, between=True, round=p["round"] - 1,
                                                                      current="", acted=False))


def _round_ended(state: FightState, p: Mapping[str, Any]) -> FightState:
    state = _with_combat(state, between=True, current="", acted=False)
    for cid in state.combatants:
        state = _set(state, cid, blocks_used=0, active=False)
    for row in p["fatigue"]:
        changes: Obj = {"fatigue": row["fatigue"], "end": row["end"]}
        if row["end_lost"]:
            changes["wp_safe"] = False
        state = _set(state, row["combatant"], **changes)
    return state


def _turn_started(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _with_combat(state, current=p["combatant"], index=p["index"], round=p["round"], acted=False)


def _turn_lost(state: FightState, p: Mapping[str, Any]) -> FightState:
    state = _set(state, p["combatant"], stunned=False, maneuver="", maneuver_at=0, maneuver_def=0, guard_weapon="")
    return _with_combat(state, acted=True)


def _turn_ended(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _with_combat(state, current="", acted=False)


def _maneuver_taken(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["combatant"]
    c = cond_of(state, cid)
    changes: Obj = {"maneuver": p["maneuver"], "maneuver_at": p["at_mod"], "maneuver_def": p["def_mod"],
                    "moved": p["moved"], "aim_turns": p["aim_turns"],
                    "aim_target": p["target"] if p["maneuver"] == "aim" else "",
                    "guard_weapon": p["weapon"] if p["maneuver"] == "guard" else ""}
    if p["interrupt"]:
        changes = {"guard_weapon": ""}  # the pre-emptive strike uses the Guard's one attack
    if p["active"]:
        changes["active"] = True
    if p["stands"]:
        changes["knocked_down"] = False
    state = _set(state, cid, **changes)
    if p["leaves_close"] and c.close_with:
        state = _set(_set(state, c.close_with, close_with=""), cid, close_with="")
    return state if p["interrupt"] else _with_combat(state, acted=True)


def _spell_lost(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set(state, p["combatant"], casting="", cast_turns=0, cast_target="")


def _attack_declared(state: FightState, p: Mapping[str, Any]) -> FightState:
    attack = attack_from_json(p["attack"])
    if attack.kind == "counter":
        state = _set(state, attack.attacker, guard_weapon="")  # one counterattack per Guard
    return _with_combat(state, attack=attack)


def _attack_resolved(state: FightState, p: Mapping[str, Any]) -> FightState:
    d = p["defender"]
    if p["defence"] in ("dodge", "block") and d in state.combatants:
        c = cond_of(state, d)
        state = _set(state, d, active=True, aim_target="", aim_turns=0,
                     blocks_used=c.blocks_used + (p["defence"] == "block"))
    attack = combat_of(state).attack
    if p["done"] or attack is None:
        return _with_combat(state, attack=None)
    return _with_combat(state, attack=attrs.evolve(attack, result=p["result"], blocked_with=p["blocked_with"]))


def _damage_taken(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["combatant"]
    c = cond_of(state, cid)
    crippled = c.crippled + tuple(x["location"] for x in p["crippled"] if x["location"] not in c.crippled)
    permanent = c.permanent + tuple(x["location"] for x in p["crippled"]
                                    if x["permanent"] and x["location"] not in c.permanent)
    changes: Obj = {"wounds": dict(p["wounds"]), "stun_damage": p["stun_damage"], "end": p["end"],
                    "crippled": crippled, "permanent": permanent, "unconscious": c.unconscious or p["unconscious"],
                    "dead": c.dead or p["dead"]}
    if p["stunned"]:
        changes["stunned"] = True
    if p["damage"] > 0:
        changes.update(aim_target="", aim_turns=0)  # an injury ends the aim
    state = _set(state, cid, **changes)
    return _with_combat(state, attack=None) if p["done"] else state


def _object_damaged(state: FightState, p: Mapping[str, Any]) -> FightState:
    if p["breaks"]:
        state = _set(state, p["owner"], lost=cond_of(state, p["owner"]).lost + (p["object"],))
    return _with_combat(state, attack=None) if p["done"] else state


def _disarmed(state: FightState, p: Mapping[str, Any]) -> FightState:
    state = _set(state, p["combatant"], lost=cond_of(state, p["combatant"]).lost + (p["weapon"],))
    return _with_combat(state, attack=None)


def _grapple(state: FightState, p: Mapping[str, Any]) -> FightState:
    a, t = p["attacker"], p["target"]
    if p["success"]:
        if p["kind"] == "takedown":
            state = _set(state, t, knocked_down=True)
        elif p["kind"] == "pin":
            state = _set(_set(state, t, pinned_by=a), a, pinning=t, knocked_down=True)
        elif p["kind"] == "escape":
            state = _set(_set(state, a, pinned_by=""), t, pinning="")
    attack = combat_of(state).attack
    if p["success"] and attack is not None and attack.then_pin and p["kind"] == "takedown":
        return state  # the free pin roll follows
    return _with_combat(state, attack=None)


def _close_response(state: FightState, p: Mapping[str, Any]) -> FightState:
    if p["response"] == "none":
        return state
    c = cond_of(state, p["combatant"])
    return _set(state, p["combatant"], blocks_used=c.blocks_used + 1, active=True)


def _close_entry(state: FightState, p: Mapping[str, Any]) -> FightState:
    a, t = p["attacker"], p["target"]
    if p["entered"]:
        state = _set(_set(state, a, close_with=t), t, close_with=a)
    return _with_combat(state, attack=None)


def _spell_begun(state: FightState, p: Mapping[str, Any]) -> FightState:
    # the turn it is begun is the first of its concentration (S-44)
    return _set(state, p["combatant"], casting=p["spell"], cast_turns=1, cast_target=p["target"])


def _concentrated(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set(state, p["combatant"], cast_turns=p["turns"])


def _spell_cast(state: FightState, p: Mapping[str, Any]) -> FightState:
    changes: Obj = {"casting": "", "cast_turns": 0, "cast_target": "", "end": p["end"]}
    if p["end_cost"]:
        changes["wp_safe"] = False
    return _set(state, p["combatant"], **changes)


def _check_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid, purpose = p["combatant"], p["purpose"]
    c = cond_of(state, cid)
    if purpose == "cripple_ht" and not p["success"] and p["location"] not in c.permanent:
        return _set(state, cid, permanent=c.permanent + (p["location"],))
    if purpose in ("wp_conscious", "wp_end") and not p["success"]:
        return _set(state, cid, unconscious=True, end=min(c.end, 0) if purpose == "wp_end" else 0)
    if purpose == "wp_end":
        return _set(state, cid, wp_safe=True)
    if purpose == "wp_keep_spell" and not p["success"]:
        return _set(state, cid, casting="", cast_turns=0, cast_target="")
    return state


def after_core(state: FightState, event: Event) -> FightState:
    """A combatant removed mid-fight: an attack it was part of ends with its prompts, and whoever it
    held in close combat or a pin is free (the turn order skips it, turns.settle)."""
    combat = state.combat
    if event.type != "combatant_removed" or not isinstance(combat, Combat):
        return state
    cid = event.payload["id"]
    for other in state.combatants:
        c = cond_of(state, other)
        changes = {k: "" for k in ("close_with", "pinned_by", "pinning") if getattr(c, k) == cid}
        if changes:
            state = _set(state, other, **changes)
    attack = combat.attack
    if attack is not None and cid in (attack.attacker, attack.target):
        prompts = tuple(p for p in state.prompts if p.kind not in ("defence", "close_response")
                        and p.options.get("purpose") != "damage")
        state = attrs.evolve(state, prompts=prompts, combat=attrs.evolve(combat, attack=None))
    return state


# --------------------------------------------------------------------------- explanations


def _n(h: frozenset[str], cid: str, text: str) -> str:
    """``text`` unless ``cid``'s sheet is hidden from the reader."""
    return "" if cid in h else text


def _x_round(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    how = "the GM's order (R-21)" if p["explicit"] else "initiative AG - 2 x EL, ties to higher AG, then 2d10 roll-offs"
    order = ", ".join(name(s, c) + _n(h, c, f" ({b['initiative']})") for c in p["order"]
                      for b in p["basis"] if b["id"] == c)
    return f"Round {p['round']} begins; order by {how}: {order} (S-17, A-64, R-21)."


def _x_tied(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    groups = "; ".join(", ".join(name(s, c) for c in g) for g in p["tied"])
    return f"Round {p['round']}: {groups} tie on initiative and AG; each rolls 2d10, higher first (R-21, A-64)."


def _x_round_end(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    # S-46: 1/N(EL) END a round: when a hidden combatant loses END would give its EL away
    lost = [f"{name(s, r['combatant'])} loses {r['end_lost']} END" for r in p["fatigue"]
            if r["end_lost"] and r["combatant"] not in h]
    tail = ("; combat fatigue: " + ", ".join(lost)) if lost else ""
    return f"Round {p['round']} ends{tail} (S-46, A-82)."


_MANEUVER_WORDS = {"enter_close": "steps in to close combat", "stand": "stands up", "move": "moves",
                   "cast": "casts", "aim": "aims", "guard": "goes on Guard", "defend": "defends",
                   "disarm": "tries a disarm", "takedown": "tries a takedown", "pin": "tries a pin",
                   "escape": "tries to escape", "attack": "attacks"}
_MANEUVER_RULES = {"attack": "S-19", "guard": "S-20", "defend": "S-21", "disarm": "S-22", "aim": "S-23",
                   "other": "S-24", "move": "S-17", "stand": "S-28", "enter_close": "S-40", "takedown": "S-42",
                   "pin": "S-43", "escape": "S-43", "cast": "S-44"}


def _x_maneuver(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    who, m = name(s, p["combatant"]), p["maneuver"]
    if p["interrupt"]:
        return f"{who} strikes pre-emptively from Guard at {name(s, p['target'])} (S-20, A-65)."
    moved = f", moving {p['moved']}" if p["moved"] else ""
    if m == "move":
        return f"{who} moves {p['moved']} unit(s) (S-17)."
    if m == "other":
        mods = _n(h, p["combatant"], f" (AT {p['at_mod']:+d}, DEF {p['def_mod']:+d})")
        what = f"takes the GM's {p['name'] or 'other'} maneuver{mods}"
    else:
        what = _MANEUVER_WORDS.get(m, f"takes the {m} maneuver")
    return f"{who} {what}{moved} ({_MANEUVER_RULES.get(m, 'S-18')})."


def _x_attack_declared(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    a = p["attack"]
    what = {"counter": "counterattacks", "stop_thrust": "stop-thrusts at", "shield_block": "shield-blocks",
            "takedown": "tries to take down", "pin": "tries to pin", "escape": "tries to escape the pin of",
            "disarm": "tries to disarm"}.get(a["kind"], "attacks")
    at = _n(h, a["attacker"], f" at AT {sum(m['value'] for m in a['at'])}")
    rules = {"counter": "S-20", "stop_thrust": "S-40", "shield_block": "S-40", "takedown": "S-42", "pin": "S-43",
             "escape": "S-43", "disarm": "S-22"}.get(a["kind"], "S-25")
    return f"{name(s, a['attacker'])} {what} {name(s, a['target'])}{at} ({rules})."


def _x_resolved(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    a, d = p["attacker"], p["defender"]
    if p["automatic"]:
        return f"{name(s, d)} cannot defend: {name(s, a)} hits automatically (S-26, S-28)."
    how = {"dodge": "dodges", "block": "blocks" + (f" with the {p['blocked_with']}" if p["blocked_with"] else ""),
           "none": "does not defend"}[p["defence"]]
    at, de = p["record"].get("target", 0), p["def_total"]
    nums = "" if (a in h or d in h) else (f" R = {sum(p['record']['dice'])} {'-' if at < 0 else '+'} {abs(at)} "
                                          f"{'+' if de < 0 else '-'} {abs(de)} = {p['r']}:")
    return f"{name(s, d)} {how};{nums} {p['result']} (S-25, S-26, S-28)."


def _x_damage(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    who = name(s, p["combatant"])
    kind = " stun" if p["non_lethal"] else ""
    # raw - DR -> damage. A hidden defender's DR would be raw - damage; a hidden attacker's adds
    # raw - the dice, and its raw damage - a visible defender's DR: no numbers then (the event's secrets)
    secret = p["combatant"] in h or p["attacker"] in h
    steps = "" if secret else " (" + " -> ".join(f"{x['value']} {x['reason']}" for x in p["steps"]) + ")"
    amount = "" if secret else f" {p['damage']}"
    tail = []
    if p["stunned"]:
        tail.append("stunned (S-32)")
    for c in p["crippled"]:
        tail.append(f"{c['location']} crippled{' permanently' if c['permanent'] else ''} (S-37)")
    if p["dead"]:
        tail.append("dead (S-32)")
    elif p["unconscious"]:
        tail.append("unconscious, END 0 (S-32, S-13)")
    rest = ("; " + ", ".join(tail)) if tail else ""
    return (f"{who} takes{amount}{kind} {p['damage_type']} damage to the {p['location']}{steps}{rest} "
            "(S-32, S-33, A-75).")


def _x_object(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    fate = "breaks" if p["breaks"] else "holds"
    hp = _n(h, p["owner"], f" against its {p['hp']} HP")
    # S-45: damage = raw (impaling halved) = the dice + a hidden attacker's adds
    amount = f" {p['damage']}" if p["attacker"] not in h else " the blow"
    return f"{name(s, p['owner'])}'s {p['object']} takes{amount}{hp} and {fate} (S-45, R-12, A-81)."


def _x_disarmed(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"{name(s, p['by'])} disarms {name(s, p['combatant'])} of the {p['weapon']} (S-22, A-66)."


def _x_grapple(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    a, t = name(s, p["attacker"]), name(s, p["target"])
    text = {("takedown", True): f"{a} takes {t} down: knocked down (S-42)",
            ("takedown", False): f"{a} fails to take {t} down (S-42)",
            ("pin", True): f"{a} pins {t} and goes down too (S-43, R-16)",
            ("pin", False): f"{a} fails to pin {t} (S-43)",
            ("escape", True): f"{a} escapes {t}'s pin (S-43)",
            ("escape", False): f"{a} fails to escape {t}'s pin (S-43)"}[(p["kind"], p["success"])]
    return text + "."


def _x_close_response(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    r = {"stop_thrust": "a stop thrust", "shield_block": "a shield block", "none": "nothing"}[p["response"]]
    return f"{name(s, p['combatant'])} answers {name(s, p['attacker'])}'s step into close combat with {r} (S-40)."


def _x_close_entry(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    a, t = name(s, p["attacker"]), name(s, p["target"])
    if p["entered"]:
        return f"{a} is in close combat with {t} ({p['reason']}; S-40, S-41, A-79)."
    return f"{a} is kept out of close combat by {t} ({p['reason']}) and forfeits the turn (S-40)."


def _x_spell_begun(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return (f"{name(s, p['combatant'])} begins casting {p['spell']}: {p['casting_time']} turn(s) of "
            "uninterrupted concentration (S-44).")


def _x_concentrated(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"{name(s, p['combatant'])} concentrates on {p['spell']} ({p['turns']} turn(s); S-44, R-19)."


def _x_spell_cast(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    who = name(s, p["combatant"])
    if p["immune"]:
        return f"{name(s, p['target'])} is immune to {p['spell']}: its MR reaches the spell's minimum level (S-12, S-04)."
    rec = p["record"] or {}
    nums = _n(h, p["combatant"], f" ({sum(rec.get('dice', []))} against {rec.get('target')})")
    res = "succeeds and takes effect" if p["success"] else "fails"
    cost = _n(h, p["combatant"], f"; it costs {p['end_cost']} END")  # the spell's END cost is its sheet's (S-12)
    return f"{who}'s {p['spell']}{nums} {res}{cost} (S-12, S-44, R-17)."


def _x_spell_lost(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"{name(s, p['combatant'])} loses the {p['spell']} spell: {p['reason']}; no END is spent (S-44, R-17)."


_CHECKS = {"cripple_ht": ("HT+2 against a permanent crippling", "S-37"),
           "wp_conscious": ("WP to stay conscious", "S-35, S-37"),
           "wp_end": ("WP + END to stay conscious at END 0 or less", "S-13, R-18"),
           "wp_keep_spell": ("WP to keep concentrating", "S-44")}


def _x_check(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    what, rule = _CHECKS[p["purpose"]]
    rec = p["record"]
    nums = _n(h, p["combatant"], f" {sum(rec['dice'])} against {rec['target']}")
    return f"{name(s, p['combatant'])} rolls {what}:{nums} {'success' if p['success'] else 'failure'} ({rule})."


def _x_turn(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"Round {p['round']}: {name(s, p['combatant'])}'s turn (S-17)."


def _x_turn_lost(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"{name(s, p['combatant'])} loses this turn: {p['reason']} (S-32, A-74)."


def _x_turn_ended(s: FightState, p: Mapping[str, Any], h: frozenset[str]) -> str:
    return f"{name(s, p['combatant'])}'s turn ends (S-17)."


def _defaults(cls: type) -> dict[str, Any]:
    return {f.name: f.default for f in attrs.fields(cls) if f.default is not attrs.NOTHING}


def _spec(type_: str, payload: type, fold: Any, explain: Any, roller: str = "",
          secrets: tuple[Secret, ...] = ()) -> EventSpec:
    """An event spec whose fold and explanation read the payload with its declared defaults filled in."""
    defaults = _defaults(payload)

    def full(p: Mapping[str, Any]) -> Mapping[str, Any]:
        return {**defaults, **p} if defaults.keys() - p.keys() else p

    return EventSpec(type_, payload, on_payload(lambda s, p: fold(s, full(p))),
                     lambda s, p, h: str(explain(s, full(p), h)), roller=roller, secrets=secrets)


EVENTS = EventRegistry(
    _spec("round_started", RoundStarted, _round_started, _x_round,
              secrets=(Secret("id", ("ag", "el", "initiative"), "basis"),)),
    _spec("initiative_tied", InitiativeTied, _initiative_tied, _x_tied),
    _spec("round_ended", RoundEnded, _round_ended, _x_round_end,
              # S-46: END lost 1/N(EL) a round: the rounds it comes in give EL away
              secrets=(Secret("combatant", ("fatigue", "end", "end_lost"), "fatigue"),)),
    _spec("turn_started", TurnStarted, _turn_started, _x_turn),
    _spec("turn_lost", TurnLost, _turn_lost, _x_turn_lost),
    _spec("turn_ended", TurnEnded, _turn_ended, _x_turn_ended),
    _spec("maneuver_taken", ManeuverTaken, _maneuver_taken, _x_maneuver,
              secrets=(Secret("combatant", ("at_mod", "def_mod")),)),
    _spec("spell_lost", SpellLost, _spell_lost, _x_spell_lost),
    _spec("attack_declared", AttackDeclared, _attack_declared, _x_attack_declared,
              secrets=(Secret("attack.attacker", ("at",), "attack"),)),
    _spec("attack_resolved", AttackResolved, _attack_resolved, _x_resolved, roller="attacker",
              # R = 2d10 + AT - DEF: with the dice and DEF shown, R gives a hidden attacker's AT away (S-25)
              # shield_pr: the hidden defender's shield's PR (S-25, A-68)
              secrets=(Secret("defender", ("def_mods", "def_total", "r", "shield_pr")), Secret("attacker", ("r",)))),
    # damage = raw - DR (x DM, type, location): with raw = the dice + the adds shown, a hidden
    # defender's damage gives its DR away; a hidden attacker's raw (and its damage, from a visible
    # defender's DR) its adds (S-32)
    _spec("damage_taken", DamageTaken, _damage_taken, _x_damage,
              secrets=(Secret("combatant", ("steps", "counted", "wounds", "stun_damage", "end", "damage")),
                       Secret("attacker", ("adds", "raw", "damage", "steps")))),
    # S-45: raw = the dice + the adds, damage = raw (impaling halved): both give a hidden attacker's adds away
    _spec("object_damaged", ObjectDamaged, _object_damaged, _x_object,
          secrets=(Secret("owner", ("hp",)), Secret("attacker", ("adds", "raw", "damage")))),
    _spec("disarmed", Disarmed, _disarmed, _x_disarmed),
    _spec("grapple_resolved", GrappleResolved, _grapple, _x_grapple),
    _spec("close_response", CloseResponse, _close_response, _x_close_response),
    # S-02: each side's ST contest roll is made against its ST, a hidden sheet's number
    _spec("close_entry", CloseEntry, _close_entry, _x_close_entry,
          secrets=(Secret("target", RECORD_SECRETS, "contest.defender"),
                   Secret("attacker", RECORD_SECRETS, "contest.attacker"))),
    _spec("spell_begun", SpellBegun, _spell_begun, _x_spell_begun),
    _spec("concentrated", Concentrated, _concentrated, _x_concentrated),
    _spec("spell_cast", SpellCast, _spell_cast, _x_spell_cast, roller="combatant",
              secrets=(Secret("combatant", ("end", "end_cost")),)),
    _spec("check_rolled", CheckRolled, _check_rolled, _x_check, roller="combatant"),
)

#: Condition fields anyone at the table sees on a combatant whose sheet is hidden from them.
VISIBLE_CONDITION = ("stunned", "unconscious", "dead", "knocked_down", "close_with", "pinned_by", "pinning",
                     "maneuver", "casting", "crippled", "lost")
#: The pending attack's AT modifiers reveal the attacker's sheet.
COMBAT_SECRETS = (Secret("attack.attacker", ("at",), "attack"),)
HIDDEN_PROMPT_TEXT = {"defence": "{name} must choose a defence", "close_response": "{name} may answer a step into close combat",
                      "roll": "{name} must roll"}
