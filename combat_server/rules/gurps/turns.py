"""The turn sequence (G-19) and what happens automatically around each turn.

Order of automatic steps, each an event in the log:

Start of a turn (``turn_started``)
  1. shock from injuries since the last turn comes into force, capped at 4 (G-47, R-05);
  2. per-turn flags reset: one block per turn (G-40), unbalanced-weapon parry lock (R-07);
  3. at HP <= 0, a HT roll to stay conscious (G-44, A-22);
  4. a stunned combatant takes a forced Do Nothing (G-48, G-28); so does one who
     collapsed at FP <= 0 (G-51).
End of a turn (``turn_ending`` then ``turn_ended``)
  5. a stunned combatant rolls HT (IQ for mental stun) to recover (G-48); a Fright
     Check stun counts down instead, with no roll (A-09);
  6. this turn's shock ends (G-47); a Feint's penalty from the previous turn expires (G-30).
Next turn: the next combatant in the fixed order who is neither dead nor unconscious;
the round advances when the order wraps (G-19).
"""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import derived, exertion, fatigue, maneuvers
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.options import cite, rule_option
from combat_server.rules.kit.prompts import roll_prompt
from combat_server.rules.kit.turns import FixedOrder, combatants_to_start
from combat_server.rules.gurps.injury import SHOCK_CAP
from combat_server.rules.model import JSON

MAX_SETTLE_STEPS = 500


def start_combat(b: Batch, args: Mapping[str, Any]) -> None:
    """G-19: fix the order at the start: Basic Speed, DX between PCs, then a roll-off (R-21)."""
    ids = combatants_to_start(b.state)
    basis = [
        {"id": cid, "basic_speed": str(derived.basic_speed(b.sheet(cid))), "dx": b.sheet(cid).dx,
         "side": b.state.combatants[cid].side}
        for cid in ids
    ]
    explicit = args.get("order")
    roll_offs: list[dict[str, JSON]] = []
    if explicit is not None:  # the GM's order, recorded as an event
        if not isinstance(explicit, list) or sorted(explicit) != sorted(ids):
            raise reject("combat/bad_order", "order must list every combatant exactly once", field="order")
        order = list(explicit)
    else:
        order = _sequence(b, ids, roll_offs)
    b.emit("combat_started", {"order": order, "basis": basis, "roll_offs": roll_offs, "explicit": explicit is not None})


def _sequence(b: Batch, ids: list[str], roll_offs: list[dict[str, JSON]]) -> list[str]:
    speed = {cid: derived.basic_speed(b.sheet(cid)) for cid in ids}
    groups: dict[Any, list[str]] = {}
    for cid in ids:
        groups.setdefault(speed[cid], []).append(cid)
    order: list[str] = []
    for sp in sorted(groups, reverse=True):
        group = groups[sp]
        if len(group) == 1:
            order.extend(group)
            continue
        if any(b.state.combatants[c].side == "pc" for c in group):  # DX when a PC is tied
            by_dx: dict[int, list[str]] = {}
            for c in group:
                by_dx.setdefault(b.sheet(c).dx, []).append(c)
            for dx in sorted(by_dx, reverse=True):
                order.extend(_roll_off(b, by_dx[dx], roll_offs) if len(by_dx[dx]) > 1 else by_dx[dx])
        else:
            order.extend(_roll_off(b, group, roll_offs))
    return order


def _roll_off(b: Batch, tied: list[str], roll_offs: list[dict[str, JSON]]) -> list[str]:
    """R-21: each tied combatant rolls 3d, higher goes first; ties re-roll among themselves."""
    rolls: dict[str, list[int]] = {}
    for cid in tied:
        rolls[cid] = list(b.roll(3, 6, f"initiative roll-off for {b.name(cid)}"))
    roll_offs.append({"combatants": list(tied), "rolls": {k: v for k, v in rolls.items()}, "rule": "R-21"})
    totals: dict[int, list[str]] = {}
    for cid in tied:
        totals.setdefault(sum(rolls[cid]), []).append(cid)
    out: list[str] = []
    for total in sorted(totals, reverse=True):
        group = totals[total]
        out.extend(_roll_off(b, group, roll_offs) if len(group) > 1 else group)
    return out


def _can_act(b: Batch, cid: str) -> bool:
    c = b.state.combatants.get(cid)
    if c is None:
        return False
    return not (c.condition.dead or c.condition.unconscious)


def settle(b: Batch) -> None:
    """Run the automatic steps until the fight waits for a person (or nobody can act)."""
    for _ in range(MAX_SETTLE_STEPS):
        state = b.state
        if state.status != "active" or state.combat is None:
            return
        if any(p.kind != "dispute" for p in state.prompts):
            return
        combat = b.combat
        if combat.interrupted_by:
            b.emit("interrupt_ended", {"combatant": combat.interrupted_by})
            continue
        cur = combat.current
        if combat.phase == "maneuver":
            if not _can_act(b, cur):
                b.emit("turn_skipped", {"combatant": cur, "reason": _why_not(b, cur)})
                continue
            cond = b.cond(cur)
            if cond.stunned:
                b.emit("maneuver_chosen", {"combatant": cur, "maneuver": "do_nothing", "forced": "stunned (G-48)"})
                continue
            if _collapsed(b, cur):
                b.emit("maneuver_chosen", {"combatant": cur, "maneuver": "do_nothing",
                                           "forced": f"collapsed ({b.policy.fatigue_basis()})"})
                continue
            if combat.declared_by == cur:  # G-34: ask the Waits it may trigger, then resolve it
                maneuvers.continue_declared(b)
                continue
            return
        if combat.phase == "resolving":
            _end_checks(b, cur)
            continue
        if combat.phase == "ending":
            feint_expired = bool(cur in state.combatants and b.cond(cur).feint_target
                                 and b.cond(cur).feint_round < combat.round)
            b.emit("turn_ended", {"combatant": cur, "round": combat.round, "feint_expired": feint_expired})
            continue
        if combat.phase == "between":
            if not _start_next(b):
                return
            continue
        return
    raise AssertionError("the turn sequence did not settle")


def _collapsed(b: Batch, cid: str) -> bool:
    """G-51: collapsed (a failed Will roll) until FP is above 0; V-53 / V-54: outright while Fatigue is at the
    collapse mark. Such a combatant's turns are Do Nothing, and nothing in a turn gives FP back."""
    cond = b.cond(cid)
    tired = fatigue.state(b.sheet(cid), cond, b.policy)
    return (cond.collapsed and tired.collapse != "none") or tired.collapse == "collapsed"


def _someone_may_choose(b: Batch) -> bool:
    """Whether a turn may still come where somebody chooses a maneuver: somebody in the order is able to act and
    not collapsed (G-51, V-53 / V-54). When all who can act are collapsed, their turns would pass as Do Nothing
    round after round, for ever: the fight waits for the GM instead (an ``adjust`` of FP, ``end_fight``)."""
    return any(_can_act(b, cid) and not _collapsed(b, cid) for cid in b.combat.order)


def _why_not(b: Batch, cid: str) -> str:
    c = b.state.combatants.get(cid)
    if c is None:
        return "removed"
    return "dead" if c.condition.dead else "unconscious"


def _end_checks(b: Batch, cid: str) -> None:
    exertion.end_of_turn(b, cid)  # GULLIVER V-47 / V-52: this second's movement or load fatigue (none when off)
    payload: dict[str, JSON] = {"combatant": cid}
    opens = []
    c = b.state.combatants.get(cid)
    if c is not None and c.condition.maneuver == "concentrate" and c.condition.concentrate_left > 0:
        payload["concentrate_left"] = c.condition.concentrate_left - 1  # G-27: one turn of the task done
    if c is not None and c.condition.stunned and not c.condition.dead and not c.condition.unconscious:
        cond = c.condition
        if cond.stun_kind == "fright":  # a fixed duration, no recovery roll
            payload["fright_turns_left"] = cond.stun_turns - 1
        elif not cond.stun_fresh:
            stat = "IQ" if cond.stun_kind == "mental" else "HT"
            opens.append(roll_prompt(cid, "stun_recovery", f"{c.name} rolls {stat} to recover from stun (G-48)",
                                     stat=stat))
    if c is not None and c.condition.shock and b.policy.shock_recovery and not c.condition.dead \
            and not c.condition.unconscious:  # V-24 / R-10: the penalty stays until HT rolls wear it off
        opens.append(roll_prompt(cid, "shock_recovery",
                                 f"{c.name} rolls HT to shake off shock ({cite('V-24')}, R-10)"))
    if c is not None and not c.condition.dead and not c.condition.unconscious:
        opens.extend(roll_prompt(cid, "limb_recovery", f"{c.name} rolls HT to recover the stunned {where} "
                                 f"(V-21, V-24)", location=where) for where in c.condition.stunned_limbs)
    b.emit("turn_ending", payload, opens=opens)


#: G-19: the order is fixed when combat starts; a new round begins when it wraps.
ORDER = FixedOrder()


def _start_next(b: Batch) -> bool:
    combat = b.combat
    if not _someone_may_choose(b):
        return False
    turn = ORDER.next_turn(combat.order, combat.index, combat.round, lambda cid: _can_act(b, cid))
    if turn is None:
        return False
    cid = turn.combatant
    cond = b.cond(cid)
    shock = b.policy.pending_shock(0, cond.shock_pending)  # G-47's cap of 4; none under V-18 (A-37)
    opens = []
    if cond.hp <= 0 and cond.ht_rolls_at_zero and not cond.stays_up:  # V-60: a monster that passed stays up
        rule = b.policy.consciousness_rule()  # G-44, or V-14 (the same roll, cited as GULLIVER's)
        opens.append(roll_prompt(cid, "consciousness",
                                 f"{b.name(cid)} is at {cond.hp} HP: HT roll to stay conscious ({cite(rule)})",
                                 **rule_option(rule, "G-44")))
    b.emit("turn_started", {"combatant": cid, "round": turn.round, "index": turn.index, "shock": shock}, opens=opens)
    return True
