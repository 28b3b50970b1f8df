"""The core events (any ruleset's fights have them), each registered once with its
payload, fold and explanation (rules/kit/events.py). ``fight_created`` starts a fold
and the control events (``reverted``, ``restored``) change which events are
effective (rules/core.py: ``fold``), so they have no fold of their own here."""

from __future__ import annotations

from typing import Any, Callable, Mapping

import attrs

from combat_server.rules.kit.events import EventRegistry, EventSpec
from combat_server.rules.model import Combatant, Event, FightState, Prompt, evolve, make_replacer
from combat_server.rules.ruleset import Ruleset

Obj = dict[str, Any]


@attrs.frozen
class FightCreated:
    ruleset: str
    ruleset_version: str
    options: Obj
    dice_mode: str
    title: str = ""
    seed: str = ""
    forked_from: Obj | None = None


@attrs.frozen
class CombatantAdded:
    id: str
    name: str
    side: str
    sheet: Obj
    hidden: bool = False


@attrs.frozen
class CombatantUpdated:
    id: str
    name: str = ""
    side: str = ""
    hidden: bool = False
    sheet: Obj | None = None


@attrs.frozen
class CombatantRemoved:
    id: str
    reason: str = ""


@attrs.frozen
class ConditionAdjusted:
    combatant: str
    changes: Obj
    before: Obj
    reason: str


@attrs.frozen
class NoteAdded:
    text: str
    by: str
    by_name: str = ""


@attrs.frozen
class FightEnded:
    reason: str = ""


@attrs.frozen
class DisputeRaised:
    id: str
    seq: int
    comment: str
    by: str
    by_name: str = ""


@attrs.frozen
class DisputeRuled:
    dispute: str
    verdict: str
    comment: str = ""


@attrs.frozen
class Reverted:
    seqs: list[int]
    to: str
    reason: str = ""


@attrs.frozen
class LinksReissued:
    seats: list[str]
    reason: str = ""


@attrs.frozen
class Restored:
    revert: int
    seqs: list[int]


# --------------------------------------------------------------------------- folds


def _added(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    p = event.payload
    sheet = ruleset.validate_sheet(p["sheet"])
    c = Combatant(
        id=p["id"], name=p["name"], side=p["side"], sheet=sheet,
        condition=ruleset.new_condition(sheet), hidden=bool(p.get("hidden", False)),
    )
    return ruleset.after_core(state.with_combatant(c), event)


def _updated(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    p = event.payload
    c = state.combatants[p["id"]]
    changes: dict[str, Any] = {k: p[k] for k in ("name", "side", "hidden") if k in p}
    if "sheet" in p:
        changes["sheet"] = ruleset.validate_sheet(p["sheet"])
    return ruleset.after_core(state.with_combatant(attrs.evolve(c, **changes)), event)


def _removed(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    p = event.payload
    combatants = dict(state.combatants)
    del combatants[p["id"]]
    prompts = tuple(pr for pr in state.prompts if pr.combatant != p["id"])
    return ruleset.after_core(attrs.evolve(state, combatants=combatants, prompts=prompts), event)


def _adjusted(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    """``state.with_condition(combatant, **changes)`` carrying the event's seq already, then the ruleset's
    ``after_core``.

    Why the seq here: :func:`core.apply` gives every folded state its event's seq by one more copy of the
    state (15 fields, about 8 k instructions), unless the fold's state has it already; a GM's ``adjust``
    is the hottest command (issue 16, session 12). ``after_core`` sees that seq (no ruleset's reads it;
    tests/rules/test_core_apply_seq.py folds every adjust both ways)."""
    p = event.payload
    c = state.combatants[p["combatant"]]
    combatants = dict(state.combatants)
    condition = evolve(c.condition, p["changes"])
    # The two copies whose changed fields are always the same, by replacers made for them (model.make_replacer).
    combatants[c.id] = (_NEW_CONDITION(c, condition) if type(c) is Combatant
                        else evolve(c, {"condition": condition}))
    after = (_NEW_COMBATANTS_AT(state, combatants, event.seq) if type(state) is FightState
             else evolve(state, {"combatants": combatants, "seq": event.seq}))
    return ruleset.after_core(after, event)


#: ``evolve(combatant, {"condition": ...})`` and ``evolve(state, {"combatants": ..., "seq": ...})`` for
#: :func:`_adjusted` (issue 16, session 12).
_NEW_CONDITION: Callable[[Combatant, Any], Combatant] = make_replacer(Combatant, "condition")
_NEW_COMBATANTS_AT: Callable[[FightState, Any, int], FightState] = make_replacer(FightState, "combatants", "seq")


def _note(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    return attrs.evolve(state, notes=state.notes + (event.payload["text"],))


def _ended(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    return attrs.evolve(state, status="ended", ended_reason=event.payload.get("reason", ""), prompts=())


def _dispute_raised(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    p = event.payload
    prompt = Prompt(
        id=p["id"], kind="dispute", combatant=None,
        text=f"{p.get('by_name') or p['by']} disputes event {p['seq']}: {p['comment']}",
        options={"seq": p["seq"], "verdicts": ["uphold", "override"]},
    )
    return attrs.evolve(state, prompts=state.prompts + (prompt,))


def _dispute_ruled(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    return attrs.evolve(state, prompts=tuple(pr for pr in state.prompts if pr.id != event.payload["dispute"]))


# --------------------------------------------------------------------------- explanations


def _name(state: FightState, cid: str) -> str:
    c = state.combatants.get(cid)
    return c.name if c is not None else cid


def _x_created(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    extra = f", forked from {p['forked_from']['fight_id']} at seq {p['forked_from']['seq']}" if "forked_from" in p else ""
    return f"Fight created with ruleset {p['ruleset']} {p['ruleset_version']}, {p['dice_mode']} dice{extra}."


def _x_added(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return f"{p['name']} ({p['side'].upper()}) joins the fight as {p['id']}."


def _x_updated(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    changed = ", ".join(k for k in p if k != "id")
    return f"GM updated {_name(s, p['id'])}: {changed}."


def _x_removed(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return f"{_name(s, p['id'])} was removed from the fight." + (f" Reason: {p['reason']}." if p.get("reason") else "")


def _x_adjusted(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    if p["combatant"] in hidden:
        return f"GM adjusted {_name(s, p['combatant'])}. Reason: {p['reason']}."
    # A list, not a generator, for join: about 1 k instructions less (issue 16, session 12).
    changes = ", ".join([f"{k} {p['before'].get(k)} -> {v}" for k, v in p["changes"].items()])
    return f"GM adjusted {_name(s, p['combatant'])}: {changes}. Reason: {p['reason']}."


def _x_note(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return f"Note by {p.get('by_name') or p['by']}: {p['text']}"


def _x_ended(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return "The fight has ended." + (f" {p['reason']}" if p.get("reason") else "")


def _x_reverted(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    seqs = p["seqs"]
    span = f"{seqs[0]}" if len(seqs) == 1 else f"{seqs[0]}..{seqs[-1]}"
    return f"GM undid event(s) {span} ({p['to'].replace('_', ' ')}); they stay in the log, marked undone."


def _x_restored(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return f"GM redid the undo at seq {p['revert']}, restoring {len(p['seqs'])} event(s)."


def _x_links(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return (f"New links were issued for {', '.join(p['seats'])}; the old links no longer work."
            + (f" {p['reason']}" if p.get("reason") else ""))


def _links(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    return state  # the seats table holds the tokens; the log only says when links were replaced


def _x_dispute_raised(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    return f"{p.get('by_name') or p['by']} disputes event {p['seq']}: {p['comment']} (waiting for the GM's ruling)."


def _x_dispute_ruled(s: FightState, p: Mapping[str, Any], hidden: frozenset[str]) -> str:
    verdict = "upheld the original ruling" if p["verdict"] == "uphold" else "overrode it with adjustments"
    prompt = next((q for q in s.prompts if q.id == p["dispute"]), None)
    about = f"the dispute of event {prompt.options['seq']}" if prompt and "seq" in prompt.options else p["dispute"]
    return f"GM ruled on {about}: {verdict}." + (f" {p['comment']}" if p.get("comment") else "")


CORE_EVENT_SPECS = EventRegistry(
    EventSpec("fight_created", FightCreated, None, _x_created),
    EventSpec("combatant_added", CombatantAdded, _added, _x_added),
    EventSpec("combatant_updated", CombatantUpdated, _updated, _x_updated),
    EventSpec("combatant_removed", CombatantRemoved, _removed, _x_removed),
    EventSpec("condition_adjusted", ConditionAdjusted, _adjusted, _x_adjusted),
    EventSpec("note_added", NoteAdded, _note, _x_note),
    EventSpec("fight_ended", FightEnded, _ended, _x_ended),
    EventSpec("dispute_raised", DisputeRaised, _dispute_raised, _x_dispute_raised),
    EventSpec("dispute_ruled", DisputeRuled, _dispute_ruled, _x_dispute_ruled),
    EventSpec("links_reissued", LinksReissued, _links, _x_links),
    EventSpec("reverted", Reverted, None, _x_reverted),
    EventSpec("restored", Restored, None, _x_restored),
)
#: :data:`CORE_EVENT_SPECS` as a plain dict, for the fold and the explanation of every event (``core.apply``,
#: ``core.explain``): the registry's ``get`` is a Python-level call, about 0.5 k instructions each time
#: (issue 16, server CPU, session 13).
CORE_EVENTS_BY_TYPE: dict[str, EventSpec] = dict(CORE_EVENT_SPECS)
