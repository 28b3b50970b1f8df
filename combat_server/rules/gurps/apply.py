"""Folding GURPS events into state. Every number was decided (and recorded) by
``decide``; this module only writes the recorded facts into the state.

Prompts: an event may carry ``answers`` (the prompt it closes) and ``opens`` (the
prompts it opens, in the order they must be answered), folded by the kit after
the event's own fold (rules/kit/events.py: ``EventRegistry.fold``).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Callable, Mapping

import attrs

from combat_server.rules.gurps import fatigue
from combat_server.rules.gurps.gulliver.policy import fight_policy
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Attack, Combat, Condition, light_of
from combat_server.rules.model import Event, FightState
from combat_server.rules.ruleset import Ruleset


def _combat(state: FightState) -> Combat:
    combat = state.combat
    assert isinstance(combat, Combat)
    return combat


def _cond(state: FightState, cid: str) -> Condition:
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    return cond


def _set_combat(state: FightState, **changes: Any) -> FightState:
    return attrs.evolve(state, combat=attrs.evolve(_combat(state), **changes))


def _combat_started(state: FightState, p: Mapping[str, Any]) -> FightState:
    # V-46: a light level the GM set while setting the fight up stays in force
    return attrs.evolve(state, status="active",
                        combat=Combat(order=tuple(p["order"]), phase="between", light=light_of(state.combat)))


def _light_changed(state: FightState, p: Mapping[str, Any]) -> FightState:
    """V-46: the GM's light level; set while the fight is set up it is held by a combat not yet started
    (phase ``setup``), which combat_started keeps."""
    combat = state.combat if isinstance(state.combat, Combat) else Combat()
    return attrs.evolve(state, combat=attrs.evolve(combat, light=p["level"]))


def _turn_started(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    p, seq = event.payload, event.seq
    cid = p["combatant"]
    state = state.with_condition(
        cid,
        shock=p["shock"], shock_pending=0, blocked=False, parries=0, no_parry_with=(), moved=0,
        maneuver="", maneuver_option="", aod_defense="", wait_trigger="", wait_action="",
        stun_fresh=False, move_allowance=0, wait_option="", wait_range=0, wait_item="",
    )
    state = _set_combat(state, current=cid, index=p["index"], round=p["round"], phase="maneuver", attack=None,
                        **_NOTHING_DECLARED)
    return attrs.evolve(state, turn_start_seq=seq)


def _maneuver_chosen(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["combatant"]
    changes = dict(
        maneuver=p["maneuver"], maneuver_option=p.get("option", ""), aod_defense=p.get("aod_defense", ""),
        move_allowance=p.get("move_allowance", 0), aim_weapon=p.get("aim_weapon", ""),
        aim_target=p.get("aim_target", ""), aim_turns=p.get("aim_turns", 0),
        evaluate_target=p.get("evaluate_target", ""), evaluate_bonus=p.get("evaluate_bonus", 0),
        wait_trigger=p.get("wait_trigger", ""), wait_action=p.get("wait_action", ""),
        concentrating=p.get("concentrating", ""), sprinting=p.get("sprinting", False),
        concentrate_left=p.get("concentrate_left", 0), wait_option=p.get("wait_option", ""),
        wait_range=p.get("wait_range", 0), wait_item=p.get("wait_item", ""),
    )
    if "posture" in p:
        changes["posture"] = p["posture"]
    if "moved" in p:
        changes["moved"] = p["moved"]
    cond = _cond(state, cid)
    if p.get("shots_fired"):  # ammunition spent (#14)
        changes["ammo_used"] = {**cond.ammo_used, p["weapon"]: cond.ammo_used.get(p["weapon"], 0) + p["shots_fired"]}
    if p.get("reload_turns"):  # G-33: a reload under way
        changes["reload_progress"] = {**cond.reload_progress, p["readied"]: p["reload_turns"]}
    state = state.with_condition(cid, **changes)
    if _combat(state).interrupted_by == cid:
        return state
    return _set_combat(state, phase="resolving", **_NOTHING_DECLARED)


def _attack_from(raw: Mapping[str, Any]) -> Attack:
    fields: dict[str, Any] = {
        k: (tuple(tuple(m) if isinstance(m, list) else m for m in v) if isinstance(v, list) else v)
        for k, v in raw.items()
    }
    return Attack(**fields)


def _attack_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    a = p["attack"]
    attacker = _cond(state, a["attacker"])
    changes: dict[str, Any] = {"aim_turns": 0, "aim_weapon": "", "aim_target": "", "evaluate_bonus": 0,
                               "evaluate_target": ""}
    if p.get("unbalanced"):
        changes["no_parry_with"] = tuple(sorted(set(attacker.no_parry_with) | {a["weapon"]}))
    if p.get("unready"):
        changes["unready"] = tuple(sorted(set(attacker.unready) | {a["weapon"]}))
    state = state.with_condition(a["attacker"], **changes)
    attack = _attack_from(a)
    return _set_combat(state, attack=None if p.get("attack_done") else attack)


def _defense_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["defender"]
    cond = _cond(state, cid)
    changes: dict[str, Any] = {}
    if p["defense"] == "block":
        changes["blocked"] = True  # G-40
    if p["defense"] == "parry":
        changes["parries"] = cond.parries + 1
    if cond.aim_turns and p["defense"] != "none":
        changes.update(aim_turns=0, aim_weapon="", aim_target="")  # G-21: any defence spoils the aim
    if changes:
        state = state.with_condition(cid, **changes)
    attack = _combat(state).attack
    if attack is not None:
        tried = p.get("tried_as") or p["defense"]  # G-24: "parry:<weapon>" since #14, the kind before
        attack = attrs.evolve(attack, defense_tried=attack.defense_tried + (tried,), hits=p["hits_left"])
    return _set_combat(state, attack=None if p.get("attack_done") else attack)


def _feint_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    # G-29: an Evaluate bonus is spent by the Feint it helped.
    return state.with_condition(p["feinter"], evaluate_bonus=0, evaluate_target="")


def _feint_resisted(state: FightState, p: Mapping[str, Any]) -> FightState:
    if p["penalty"] > 0:
        state = state.with_condition(p["feinter"], feint_target=p["target"], feint_penalty=p["penalty"],
                                     feint_round=p["round"])
    else:
        state = state.with_condition(p["feinter"], feint_target="", feint_penalty=0, feint_round=0)
    return state


def _counter_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    attack = _attack_from(p["attack"]) if "attack" in p else None
    return _set_combat(state, attack=attack)


def _damage_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    attack = _combat(state).attack
    if attack is not None:
        attack = attrs.evolve(attack, hits=max(0, attack.hits - 1))
    if (p.get("finishing_blow") or {}).get("skull_breached"):  # V-59: the way is open for this weapon's twists
        cond = _cond(state, p["target"])
        state = state.with_condition(p["target"], skull_breached={**cond.skull_breached, p["attacker"]: p["weapon"]})
    return _set_combat(state, attack=None if p.get("attack_done") else attack)


def _limb_crippled(state: FightState, p: Mapping[str, Any]) -> FightState:
    cond = _cond(state, p["combatant"])
    return state.with_condition(p["combatant"], crippled=tuple(sorted(set(cond.crippled) | {p["location"]})))


def _limb_stunned(state: FightState, p: Mapping[str, Any]) -> FightState:
    """V-21: the limb is stunned; what it held is dropped (it needs a Ready, G-33)."""
    cond = _cond(state, p["combatant"])
    return state.with_condition(p["combatant"], **_stunned_limb(cond, p), **_dropped(cond, p))


def _stunned_limb(cond: Condition, p: Mapping[str, Any]) -> dict[str, Any]:
    return {"stunned_limbs": tuple(sorted(set(cond.stunned_limbs) | {p["location"]}))}


def _dropped(cond: Condition, p: Mapping[str, Any]) -> dict[str, Any]:
    """V-21 / R-11: dropped weapons are out of hand until readied again (G-33)."""
    dropped = p.get("dropped", [])
    return {"unready": tuple(sorted(set(cond.unready) | set(dropped)))} if dropped else {}


def _limb_severed(state: FightState, p: Mapping[str, Any]) -> FightState:
    changes = _severed(_cond(state, p["combatant"]), p)
    if p.get("fatal"):  # V-13: beheaded or the neck broken
        changes.update(dead=True, unconscious=True)
    return state.with_condition(p["combatant"], **changes)


def _severed(cond: Condition, p: Mapping[str, Any]) -> dict[str, Any]:
    """V-12: the limb is gone (it stays crippled too)."""
    return {"severed": tuple(sorted(set(cond.severed) | {p["location"]})),
            "crippled": tuple(sorted(set(cond.crippled) | {p["location"]}))}


def _shock_effect(state: FightState, p: Mapping[str, Any]) -> FightState:
    cond = _cond(state, p["combatant"])
    return state.with_condition(p["combatant"], **_EFFECTS[p["effect"]](cond, p))


def _injury_applied(state: FightState, p: Mapping[str, Any]) -> FightState:
    hp = p["hp_after"]  # an int, or V-03's exact "p/q": HP then holds it rounded up, hp_exact the fraction
    exact = str(hp) if isinstance(hp, str) else ""
    changes: dict[str, Any] = {"hp": math.ceil(Fraction(hp)) if exact else hp, "hp_exact": exact,
                               "shock_pending": p["shock_pending"]}
    fresh = p.get("fresh_injury")
    if fresh and fresh["roll_again"]:  # V-60: HPmax/10 of injury since the monster's successful roll
        changes.update(stays_up=False, fresh_injury=0)
    elif fresh:
        changes["fresh_injury"] = fresh["total"]
    if p.get("dead"):
        changes["dead"] = True
    return state.with_condition(p["combatant"], **changes)


_EFFECTS: dict[str, Callable[[Condition, Mapping[str, Any]], dict[str, Any]]] = {
    "none": lambda c, a: {},
    "unconscious": lambda c, a: {"unconscious": True, "stunned": False, "stun_kind": ""},
    "dead": lambda c, a: {"dead": True, "unconscious": True},
    "stunned_knockdown": lambda c, a: {"stunned": True, "stun_kind": "physical", "stun_fresh": True,
                                       "posture": "prone"},
    "stun_ends": lambda c, a: {"stunned": False, "stun_kind": "", "stun_turns": 0},
    "knockdown": lambda c, a: {"posture": "prone"},  # V-10: knocked down, not stunned
    "stunned": lambda c, a: {"stunned": True, "stun_kind": "physical", "stun_fresh": True},  # V-19
    "collapsed": lambda c, a: {"collapsed": True},
    "aim_lost": lambda c, a: {"aim_turns": 0, "aim_weapon": "", "aim_target": ""},
    "concentration_broken": lambda c, a: {"concentrating": ""},
    "fright_stunned": lambda c, a: {"stunned": True, "stun_kind": "fright", "stun_turns": a["turns"],
                                    "stun_fresh": True},
    "death_checks": lambda c, a: {"death_checks": a["count"]},
    "severed": _severed,  # V-12: a failed amputation roll
    "dropped": _dropped,  # V-21 / R-11: a failed grip roll
    "limb_recovers": lambda c, a: {"stunned_limbs": tuple(x for x in c.stunned_limbs if x != a["location"])},  # V-24
    "neck_severed": lambda c, a: {**_severed(c, a), "dead": True, "unconscious": True},  # V-13
}


def _check_rolled(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["combatant"]
    cond = _cond(state, cid)
    changes: dict[str, Any] = {}
    for effect in p.get("effects", [p.get("effect", "none")]):
        changes.update(_EFFECTS[effect](cond, p.get("effect_args", {})))
    if "death_checks" in p:
        changes["death_checks"] = p["death_checks"]
    if p.get("stays_up"):  # V-60: the monster passed its roll and stays up until fresh injury
        changes.update(stays_up=True, fresh_injury=0)
    if p.get("shock_left"):  # V-24 / R-10: what the HT roll did not wear off carries into the next turn
        changes["shock_pending"] = p["shock_pending"]
    state = state.with_condition(cid, **changes) if changes else state
    if changes.get("dead"):  # death supersedes this combatant's other pending rolls
        state = attrs.evolve(state, prompts=tuple(pr for pr in state.prompts if pr.combatant != cid
                                                  or pr.kind == "dispute"))
    return state


def _turn_ending(state: FightState, p: Mapping[str, Any]) -> FightState:
    if "fright_turns_left" in p:
        left = p["fright_turns_left"]
        state = state.with_condition(p["combatant"], stun_turns=left,
                                     **({"stunned": False, "stun_kind": ""} if left <= 0 else {}))
    if "concentrate_left" in p:  # G-27: the task's turn is done; with none left the task is finished
        left = p["concentrate_left"]
        state = state.with_condition(p["combatant"], concentrate_left=left,
                                     **({"concentrating": ""} if left <= 0 else {}))
    return _set_combat(state, phase="ending")


def _turn_ended(state: FightState, p: Mapping[str, Any]) -> FightState:
    cid = p["combatant"]
    if cid in state.combatants:
        changes: dict[str, Any] = {"shock": 0}  # G-47: shock lasts the victim's turn only
        if p.get("feint_expired"):
            changes.update(feint_target="", feint_penalty=0, feint_round=0)
        state = state.with_condition(cid, **changes)
    return _set_combat(state, phase="between", attack=None)


def _turn_skipped(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set_combat(state, phase="ending")


def _fatigue_spent(state: FightState, p: Mapping[str, Any]) -> FightState:
    changes: dict[str, Any] = {"fp": p["fp_after"]}
    exact = p.get("fatigue_after", "")
    if exact or _cond(state, p["combatant"]).fp_exact:  # the exact level, "" once whole again
        changes["fp_exact"] = exact
    if p.get("unconscious"):
        changes["unconscious"] = True
    if p.get("basis"):  # V-53 / V-54: collapse outright at the mark (fatigue only falls here)
        if p.get("collapsed"):
            changes["collapsed"] = True
    elif (Fraction(exact) if exact else p["fp_after"]) > 0:  # G-51: collapsed until FP is positive again
        changes["collapsed"] = False
    return state.with_condition(p["combatant"], **changes)


#: G-34: no maneuver declared and waiting on Waits (#14); the defaults, so folding them changes no stored bytes.
_NOTHING_DECLARED: Mapping[str, Any] = {"declared_by": "", "declared": {}, "wait_asked": ()}


def _action_declared(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set_combat(state, declared_by=p["combatant"], declared=dict(p["args"]), wait_asked=())


def _wait_asked(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set_combat(state, wait_asked=_combat(state).wait_asked + (p["combatant"],))


def _declared_lapsed(state: FightState, p: Mapping[str, Any]) -> FightState:
    return _set_combat(state, **_NOTHING_DECLARED)


def _wait_triggered(state: FightState, p: Mapping[str, Any]) -> FightState:
    combat = _combat(state)
    state = state.with_condition(p["combatant"], wait_trigger="", wait_action="", wait_option="", wait_range=0,
                                 wait_item="")
    return _set_combat(state, interrupted_by=p["combatant"], saved_phase=combat.phase)


def _interrupt_ended(state: FightState, p: Mapping[str, Any]) -> FightState:
    combat = _combat(state)
    return _set_combat(state, interrupted_by="", phase=combat.saved_phase or combat.phase, saved_phase="",
                       attack=None)


def _posture_changed(state: FightState, p: Mapping[str, Any]) -> FightState:
    return state.with_condition(p["combatant"], posture=p["to"])


def _weapon_readied(state: FightState, p: Mapping[str, Any]) -> FightState:
    cond = _cond(state, p["combatant"])
    return state.with_condition(p["combatant"], unready=tuple(w for w in cond.unready if w != p["weapon"]))


def _weapon_reloaded(state: FightState, p: Mapping[str, Any]) -> FightState:
    cond = _cond(state, p["combatant"])
    w = p["weapon"]
    return state.with_condition(p["combatant"], ammo_used={k: v for k, v in cond.ammo_used.items() if k != w},
                                reload_progress={k: v for k, v in cond.reload_progress.items() if k != w})


def _pace_timed(state: FightState, p: Mapping[str, Any]) -> FightState:
    """V-47: one more second at this pace (the fatigue it completes is its own event)."""
    cond = _cond(state, p["combatant"])
    return state.with_condition(p["combatant"], pace_seconds={**cond.pace_seconds, p["pace"]: p["seconds"]})


def _full_fatigue(state: FightState, cid: str) -> FightState:
    """V-53: full Fatigue is Combat ST (with bought levels); G-51 and V-54: the sheet's FPmax, as
    ``new_condition`` made it (so a fight without V-53 folds as it always did)."""
    c = state.combatants[cid]
    assert isinstance(c.sheet, Sheet)
    full = fatigue.maximum(c.sheet, fight_policy(state.options))
    return state if full == _cond(state, cid).fp else state.with_condition(cid, fp=full)


def _fatigue_set(state: FightState, cid: str) -> FightState:
    """The GM set FP: a whole level (A-50's fraction dropped); under V-53 / V-54 the collapse follows
    the new level (it is outright at the mark, not a Will roll's lasting result as under G-51)."""
    changes: dict[str, Any] = {"fp_exact": ""} if _cond(state, cid).fp_exact else {}
    policy = fight_policy(state.options)
    if policy.fatigue_basis() != "G-51":
        c = state.combatants[cid]
        assert isinstance(c.sheet, Sheet)
        changes["collapsed"] = fatigue.state(c.sheet, _cond(state, cid), policy).collapse == "collapsed"
    return state.with_condition(cid, **changes) if changes else state


def _noop(state: FightState, p: Mapping[str, Any]) -> FightState:
    return state


def after_core(state: FightState, event: Event) -> FightState:
    """Core events seen by GURPS: a new combatant starts at full Fatigue of the fight's basis (V-53:
    Combat ST, not G-51's FPmax); the GM setting FP sets a whole level (A-50's fraction dropped); a
    combatant removed mid-fight leaves the sequence."""
    if event.type == "combatant_added":
        state = _full_fatigue(state, event.payload["id"])
    elif event.type == "condition_adjusted" and "fp" in event.payload["changes"]:
        state = _fatigue_set(state, event.payload["combatant"])
    combat = state.combat
    if not isinstance(combat, Combat):
        return state
    if event.type == "combatant_removed":
        cid = event.payload["id"]
        order = tuple(c for c in combat.order if c != cid)
        index = combat.index
        if cid in combat.order and combat.order.index(cid) <= combat.index:
            index -= 1
        changes: dict[str, Any] = {"order": order, "index": index}
        if combat.current == cid:
            changes.update(current="", phase="between", attack=None)
        return attrs.evolve(state, combat=attrs.evolve(combat, **changes))
    if event.type == "combatant_added" and state.status == "active":
        # A late arrival joins at the end of the sequence (the GM may reorder it with set_order).
        return attrs.evolve(state, combat=attrs.evolve(combat, order=combat.order + (event.payload["id"],)))
    return state
