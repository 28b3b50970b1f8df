"""Rounds and turns (S-17, A-64, R-21): the order is decided afresh each round from
initiative AG - 2 x EL, ties to the higher AG, then recorded 2d10 roll-offs (or the
GM's order for the first round); at a round's end combat fatigue is counted (S-46,
A-82, R-18, R-19). A turn ends once its action and everything it set off are done.

Automatic steps, each an event: ``round_started`` / ``round_ended``, ``turn_started``,
``turn_lost`` (a stunned combatant loses its next turn, S-32, A-74), ``turn_ended``."""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.errors import reject
from combat_server.rules.kit.turns import RoundOrder, RoundOver, combatants_to_start
from combat_server.rules.model import JSON
from combat_server.rules.shell import endurance, initiative
from combat_server.rules.shell.batch import Batch, can_act, derived_now
from combat_server.rules.shell.sheet import derive

ORDER = RoundOrder()
MAX_SETTLE_STEPS = 500


def start_combat(b: Batch, args: Mapping[str, Any]) -> None:
    """S-17: the first round's order; ``order``: the GM's own order instead (R-21), every combatant once."""
    ids = combatants_to_start(b.state)
    if b.option("overload") == "reject":
        for cid in ids:
            if derive(b.sheet(cid)).overloaded:
                raise reject("sheet/overloaded", f"{b.name(cid)} carries more than the maximum encumbrance for its "
                             "ST (S-07, A-61): lighten the sheet, or create the fight with overload 'immobile'",
                             field="gear_weight", combatant=cid)
    explicit = args.get("order")
    if explicit is not None and sorted(explicit) != sorted(ids):
        raise reject("combat/bad_order", "order must list every combatant exactly once (R-21)", field="order")
    begin_round(b, 1, list(explicit) if explicit is not None else None)


def begin_round(b: Batch, rnd: int, explicit: list[str] | None = None, rolloffs: list[JSON] | None = None,
                answers: str | None = None) -> None:
    """S-17 / A-64: initiative recomputed now (EL may have changed). R-21: combatants still tied after AG
    roll 2d10 each, answering a roll prompt (the dice are then in the log); ties re-roll among themselves."""
    entrants = [initiative.Entrant(cid, b.sheet(cid).ag, derived_now(b.state, cid).el)
                for cid in b.state.combatants if can_act(b.state, cid)]
    basis: list[JSON] = [{"id": e.id, "ag": e.ag, "el": e.el, "initiative": e.initiative} for e in entrants]
    done = list(rolloffs or [])
    if explicit is not None:
        order = explicit
    else:
        totals: dict[str, list[int]] = {}
        for row in done:
            for cid, dice in row["rolls"].items():
                totals.setdefault(cid, []).append(sum(dice))
        result = initiative.order(entrants, totals)
        if not result.complete:
            tied: list[JSON] = [list(group) for group, _ in result.tied]
            names = "; ".join(", ".join(b.name(c) for c in group) for group in tied)
            b.emit("initiative_tied", {"round": rnd, "tied": tied, "rolloffs": done}, answers=answers, opens=[
                b.ask_roll(None, "initiative", f"Round {rnd}: {names} tie on initiative and AG: 2d10 each, "
                           "higher first (R-21)", count=2, sides=10, round=rnd, tied=tied, rolloffs=done)])
            return
        order = list(result.order)
    b.emit("round_started", {"round": rnd, "order": order, "basis": basis, "rolloffs": done,
                             "explicit": explicit is not None}, answers=answers)


def set_order(b: Batch, args: Mapping[str, Any]) -> None:
    """R-21: instead of the roll-off dice, the GM sets the tied round's order (every combatant who can act, once)."""
    prompt = next((p for p in b.state.prompts if p.kind == "roll" and p.options.get("purpose") == "initiative"), None)
    if prompt is None:
        raise reject("combat/no_tie", "the GM sets an order when a round's initiative is tied (R-21); none is now",
                     field="order")
    order = [str(c) for c in args["order"]]
    entrants = sorted(cid for cid in b.state.combatants if can_act(b.state, cid))
    if sorted(order) != entrants:
        raise reject("combat/bad_order", "order must list every combatant who can act exactly once (R-21)",
                     field="order", known=entrants)
    begin_round(b, int(prompt.options["round"]), explicit=order, answers=prompt.id)


def roll_off(b: Batch, prompt_id: str, options: Mapping[str, Any]) -> None:
    """R-21: each tied combatant rolls 2d10; the round's order is then decided again with them."""
    rows = list(options["rolloffs"])
    for group in options["tied"]:
        rows.append({"combatants": list(group), "rule": "R-21",
                     "rolls": {cid: list(b.roll(2, 10, f"initiative roll-off for {b.name(cid)}")) for cid in group}})
    begin_round(b, int(options["round"]), rolloffs=rows, answers=prompt_id)


def end_round(b: Batch) -> None:
    """S-46 / A-82: each combatant active this round adds 1/N(EL) END to its fatigue; R-18: END lost
    at 0 or less calls a new WP roll (S-13)."""
    rows: list[JSON] = []
    opens = []
    for cid, c in b.state.combatants.items():
        cond = b.cond(cid)
        if not cond.active or cond.dead:
            continue
        tick = endurance.combat_round(cond.fatigue, derived_now(b.state, cid).el, True)
        end = cond.end - tick.end_lost
        rows.append({"combatant": cid, "end_lost": tick.end_lost, "fatigue": tick.accumulator, "end": end})
        if tick.end_lost and end <= 0 and not cond.unconscious:
            opens.append(wp_end_prompt(b, cid, end))
    b.emit("round_ended", {"round": b.combat.round, "fatigue": rows}, opens=opens)


def wp_end_prompt(b: Batch, cid: str, end: int) -> dict[str, JSON]:
    return b.ask_roll(cid, "wp_end", f"{b.name(cid)} is at {end} END: WP + END roll to stay conscious (S-13, R-18)")


def settle(b: Batch) -> None:
    """Run the automatic steps until the fight waits for a person (or nobody can act)."""
    for _ in range(MAX_SETTLE_STEPS):
        state = b.state
        if state.status != "active" or state.combat is None or state.prompts:
            return
        combat = b.combat
        if combat.attack is not None:
            return
        if combat.between:
            begin_round(b, combat.round + 1)
            continue
        cur = combat.current
        if cur:
            if not combat.acted and can_act(state, cur):
                if b.cond(cur).stunned:
                    b.emit("turn_lost", {"combatant": cur, "reason": "stunned by a blow"})
                    continue
                return
            b.emit("turn_ended", {"combatant": cur})
            continue
        turn = ORDER.next_turn(combat.order, combat.index, combat.round, lambda cid: can_act(state, cid))
        if turn is None:
            return
        if isinstance(turn, RoundOver):
            end_round(b)
            continue
        b.emit("turn_started", {"combatant": turn.combatant, "round": turn.round, "index": turn.index})
    raise AssertionError("the SHELL turn sequence did not settle")
