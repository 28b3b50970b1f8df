"""Ruleset-independent commands and events, and the fold of the effective log.

Core events: ``fight_created``, ``combatant_added``, ``combatant_updated``,
``combatant_removed``, ``condition_adjusted`` (a GM adjustment, with a reason),
``note_added``, ``fight_ended``, ``reverted`` (undo) and ``restored`` (redo).

Undo never deletes: a ``reverted`` event names the seqs it takes out of the
*effective* history; a ``restored`` event puts a revert's seqs back. The state is
always the fold of the effective events, so undo-then-redo equals never undoing.
"""

from __future__ import annotations

import json
import re
import types
import typing
from typing import Any, Callable, Collection, Iterable, Iterator, Mapping, NoReturn, Sequence

import attrs

from combat_server.canonical import plain_json
from combat_server.errors import reject
from combat_server.rules.model import (ADJUSTABLE_TO, KEPT_BY_RULES, JSON, Combatant, Command, DiceSource, Event,
                                       EventDraft, FightState, evolve)
from combat_server.rules.commands import ANY, GM, CommandSpec, check_command
from combat_server.rules.core_events import CORE_EVENTS_BY_TYPE
from combat_server.rules.ruleset import Ruleset

CONTROL_EVENTS = frozenset({"reverted", "restored"})
DICE_MODES = ("server", "seeded", "manual")


# --------------------------------------------------------------------------- decide


def check(ruleset: Ruleset, state: FightState, command: Command) -> CommandSpec:
    """Authorise and validate any command against its spec (one table: core's and the ruleset's)."""
    return check_command(CORE_SPECS.get(command.type) or ruleset.commands.get(command.type), state, command)


def decide(ruleset: Ruleset, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
    """Check any command against its spec, then decide it: core ones here, the rest by the ruleset."""
    check(ruleset, state, command)
    handler = _CORE_DECIDERS.get(command.type)
    if handler is not None:
        return handler(ruleset, state, command)
    return ruleset.decide(state, command, dice)


def command_specs(ruleset: Ruleset) -> list[CommandSpec]:
    """Every command a fight of this ruleset takes: the core ones (undo and redo too), then the ruleset's."""
    return [*CORE_SPECS.values(), *(s for s in ruleset.commands.values() if s.name not in CORE_SPECS)]


def _arg(command: Command, name: str, kind: type | tuple[type, ...], required: bool = True) -> Any:
    value = command.args.get(name)
    if type(value) is kind:  # exactly the type asked for (an exact int is no bool): the checks below pass it
        return value  # issue 16, server CPU: a GM adjust asks for three such fields
    if name not in command.args:
        if required:
            raise reject("command/missing_field", f"{command.type}: field {name!r} is required", field=name)
        return None
    value = command.args[name]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        kinds = (kind,) if isinstance(kind, type) else kind
        names = " or ".join(_JSON_NAMES.get(k, k.__name__) for k in kinds)
        raise reject("command/bad_field", f"{command.type}: field {name!r} must be {names}", field=name)
    return value


#: How a field's expected type is named to users (JSON words, not Python's).
_JSON_NAMES: Mapping[type, str] = {dict: "an object", list: "a list", str: "text", int: "a whole number",
                                   bool: "true or false", float: "a number"}


def _slug(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "combatant"


def _decide_add(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    name = _arg(command, "name", str).strip()
    if not name:
        raise reject("command/bad_field", "add_combatant: name must not be empty", field="name")
    side = _arg(command, "side", str, required=False) or "npc"
    if side not in ("pc", "npc"):
        raise reject("command/bad_field", "add_combatant: side must be 'pc' or 'npc'", field="side")
    sheet = ruleset.validate_sheet(_arg(command, "sheet", dict, required=False) or {})
    cid = _arg(command, "id", str, required=False)
    if cid is None:
        base = _slug(name)
        cid, n = base, 1
        while cid in state.combatants:
            n += 1
            cid = f"{base}-{n}"
    elif not re.fullmatch(r"[a-z0-9][a-z0-9_-]{0,63}", cid):
        raise reject("command/bad_field", "add_combatant: id must be lowercase letters, digits, - or _", field="id")
    elif cid in state.combatants:
        raise reject("combatant/exists", f"a combatant {cid!r} already exists")
    hidden = bool(_arg(command, "hidden", bool, required=False) or False)
    return [
        EventDraft(
            "combatant_added",
            {"id": cid, "name": name, "side": side, "hidden": hidden, "sheet": ruleset.sheet_to_json(sheet)},
        )
    ]


def _decide_update(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    cid = _arg(command, "id", str)
    state.combatant(cid)
    payload: dict[str, JSON] = {"id": cid}
    if "name" in command.args:
        name = _arg(command, "name", str)
        if not name.strip():  # as add_combatant: a combatant always has a name to show
            raise reject("command/bad_field", "update_combatant: name must not be empty", field="name")
        payload["name"] = name
    if "side" in command.args:
        side = _arg(command, "side", str)
        if side not in ("pc", "npc"):
            raise reject("command/bad_field", "update_combatant: side must be 'pc' or 'npc'", field="side")
        payload["side"] = side
    if "hidden" in command.args:
        payload["hidden"] = _arg(command, "hidden", bool)
    if "sheet" in command.args:
        payload["sheet"] = ruleset.sheet_to_json(ruleset.validate_sheet(_arg(command, "sheet", dict)))
    if len(payload) == 1:
        raise reject("command/missing_field", "update_combatant: nothing to change")
    return [EventDraft("combatant_updated", payload)]


def _decide_remove(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    cid = _arg(command, "id", str)
    state.combatant(cid)
    return [EventDraft("combatant_removed", {"id": cid, "reason": command.args.get("reason", "")})]


_FIELDS: dict[type, dict[str, Any]] = {}


def adjustable_fields(condition_type: type) -> dict[str, Any]:
    """Condition fields a GM may set, with their declared types (int, bool, str, ...).

    Cached per class: resolving type hints costs more than the whole rest of a command.
    """
    fields = _FIELDS.get(condition_type)
    if fields is None:
        hints = typing.get_type_hints(condition_type)
        fields = _FIELDS[condition_type] = {f.name: hints[f.name] for f in attrs.fields(condition_type)}
    return fields


def _kept_by_rules(condition_type: type, name: str) -> str:
    """What to set instead of a condition field the rules keep (its ``KEPT_BY_RULES`` metadata), or "".
    Asked once per field and class: :func:`adjust_checks` keeps the answers (issue 16)."""
    return str(attrs.fields_dict(condition_type)[name].metadata.get(KEPT_BY_RULES, ""))


#: The values a GM may set a condition field to (its ``ADJUSTABLE_TO`` metadata): a closed set, the values of
#: the fight ``(state, combatant) -> collection``, or ``None`` (any value of the field's type).
Domain = Collection[JSON] | Callable[[FightState, Combatant], Collection[JSON]] | None


def _adjustable_to(condition_type: type, name: str) -> Domain:
    """A condition field's ``ADJUSTABLE_TO`` metadata, or ``None``. Asked once per field and class:
    :func:`adjust_checks` keeps the answers (issue 16)."""
    domain: Domain = attrs.fields_dict(condition_type)[name].metadata.get(ADJUSTABLE_TO)
    return domain


_FITS: dict[Any, Callable[[Any], bool]] = {}


def _fits_of(hint: Any) -> Callable[[Any], bool]:
    """A predicate that answers :func:`_value_fits_hint` for ``hint`` (tests/rules/test_core_caches.py)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [_fits_of(h) for h in typing.get_args(hint)]
        return lambda value: any(fits(value) for fits in options)
    if hint is type(None):
        return lambda value: value is None
    if hint is int:
        return lambda value: isinstance(value, int) and not isinstance(value, bool)
    if hint in (bool, str):
        return lambda value: isinstance(value, hint)
    return lambda value: False


_CHECKS: dict[type, dict[str, tuple[str, Callable[[Any], bool], Domain]]] = {}


def adjust_checks(condition_type: type) -> dict[str, tuple[str, Callable[[Any], bool], Domain]]:
    """Per field a GM may name in an ``adjust`` (:func:`adjustable_fields`): what to set instead when the rules
    keep it (:func:`_kept_by_rules`, or ""), its type check (:func:`_fits_of_hint`) and the values the rules
    can take (:func:`_adjustable_to`, or ``None``), in one table.

    Why: the decision asked the three caches one call each per adjusted field (issue 16, server CPU,
    session 13: with :func:`_arg`'s shortcut, 27.8 k -> 23.7 k per adjust); one look-up now answers all three
    (tests/rules/test_core_caches.py)."""
    checks = _CHECKS.get(condition_type)
    if checks is None:
        checks = _CHECKS[condition_type] = {
            name: (_kept_by_rules(condition_type, name), _fits_of_hint(hint), _adjustable_to(condition_type, name))
            for name, hint in adjustable_fields(condition_type).items()}
    return checks


def _fits_of_hint(hint: Any) -> Callable[[Any], bool]:
    """:func:`_value_fits_hint` for ``hint`` as a predicate, made once per annotation: ``typing.get_origin``
    and the union's walk were asked again for each adjusted field of each command (issue 16, session 11)."""
    fits = _FITS.get(hint)
    if fits is None:
        fits = _FITS[hint] = _fits_of(hint)
    return fits


def _value_fits_hint(value: Any, hint: Any) -> bool:
    """Whether a GM may set a condition field declared ``hint`` to ``value`` (the definition)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_value_fits_hint(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (bool, str):
        return isinstance(value, hint)
    return False  # tuples and records are changed through their own commands


#: The largest number a GM may set a condition field to, either way: far past any HP, FP or count a fight
#: holds, and small enough that what the rules add to it stays an exact integer for every client (JSON
#: numbers past 2**53 lose digits in a browser; the protocol takes integers up to that, MAX_INT).
ADJUST_LIMIT = 1_000_000


def _decide_adjust(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    cid = _arg(command, "combatant", str)
    combatant = state.combatant(cid)
    reason = _arg(command, "reason", str).strip()
    if not reason:
        raise reject("adjust/reason_required", "a GM adjustment needs a reason the log can show")
    changes = _arg(command, "changes", dict)
    if not changes:
        raise reject("command/missing_field", "adjust: changes must name at least one field")
    condition_type = type(combatant.condition)
    checks = adjust_checks(condition_type)
    before: dict[str, JSON] = {}
    plain: dict[str, JSON] = {}
    for name, value in changes.items():
        check = checks.get(name)
        if check is None:
            raise reject("adjust/unknown_field", f"condition has no field {name!r}", known=sorted(checks))
        kept, fits, domain = check
        if kept:
            raise reject("adjust/bad_value", f"{name} is kept by the rules, not set by hand: {kept}", field=name)
        if not fits(value):
            raise reject("adjust/bad_value", f"{name} cannot be set to {shown_as_json(value)}", field=name)
        if type(value) is int and not -ADJUST_LIMIT <= value <= ADJUST_LIMIT:
            raise reject("adjust/bad_value", f"{name} cannot be set to {value}: a whole number from "
                         f"{-ADJUST_LIMIT} to {ADJUST_LIMIT}", field=name, minimum=-ADJUST_LIMIT, maximum=ADJUST_LIMIT)
        if domain is not None:  # a value the rules look up: only those they can take (issue 16: only then)
            allowed = domain(state, combatant) if callable(domain) else domain
            if value not in allowed:
                _refuse_value(name, value, allowed)
        plain[str(name)] = value  # a field's name (a string), and a value its check let through: a scalar
        before[str(name)] = plain_json(getattr(combatant.condition, name))
    # Written as plain_json would copy it, so the engine need not (issue 16; tests/rules/test_core_caches.py).
    return [EventDraft.plain_draft("condition_adjusted",
                                   {"combatant": cid, "changes": plain, "before": before, "reason": reason})]


def _refuse_value(name: str, value: JSON, allowed: Collection[JSON]) -> NoReturn:
    """adjust/bad_value for a value outside the field's :data:`~combat_server.rules.model.ADJUSTABLE_TO`
    domain, naming the values allowed ("" reads as none)."""
    values = sorted(allowed, key=lambda v: (str(type(v)), v))
    listed = ", ".join(shown_as_json(v) if v != "" else '"" (none)' for v in values)
    raise reject("adjust/bad_value", f"{name} cannot be set to {shown_as_json(value)}: it must be one of {listed}",
                 field=name, allowed=values)


def shown_as_json(value: Any) -> str:
    """A value as the client wrote it, in JSON (``true``, ``null``, ``"x"``), not Python's ``True``, ``None``, ``'x'``."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _decide_note(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    text = _arg(command, "text", str).strip()
    if not text:
        raise reject("command/bad_field", "note: text must not be empty", field="text")
    return [EventDraft("note_added", {"text": text, "by": command.actor.seat_id, "by_name": command.actor.display})]


def _decide_end(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    reason = command.args.get("reason", "")
    if not isinstance(reason, str):
        raise reject("command/bad_field", "end_fight: reason must be a string", field="reason")
    return [EventDraft("fight_ended", {"reason": reason})]


def _decide_dispute(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    seq = _arg(command, "seq", int)
    if not 1 <= seq <= state.seq:
        raise reject("dispute/bad_seq", f"there is no event {seq} to dispute")
    comment = _arg(command, "comment", str).strip()
    if not comment:
        raise reject("dispute/comment_required", "say what you dispute about this event")
    dispute_id = f"dispute:{state.seq + 1}"
    return [EventDraft("dispute_raised", {"id": dispute_id, "seq": seq, "comment": comment,
                                          "by": command.actor.seat_id, "by_name": command.actor.display})]


def _decide_rule(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    dispute_id = _arg(command, "dispute", str)
    if not any(p.id == dispute_id and p.kind == "dispute" for p in state.prompts):
        raise reject("dispute/unknown", f"no open dispute {dispute_id!r}")
    verdict = _arg(command, "verdict", str)
    if verdict not in ("uphold", "override"):
        raise reject("command/bad_field", "rule: verdict must be 'uphold' or 'override'", field="verdict")
    comment = _arg(command, "comment", str, required=False) or ""
    if verdict == "uphold" and command.args.get("adjustments"):
        raise reject("command/bad_field", "rule: an upheld ruling changes nothing; adjustments go with verdict "
                     "'override'", field="adjustments")
    events = [EventDraft("dispute_ruled", {"dispute": dispute_id, "verdict": verdict, "comment": comment})]
    if verdict == "override":
        adjustments = _arg(command, "adjustments", list)
        if not adjustments:
            raise reject("rule/adjustments_required", "an override needs at least one adjustment")
        for adj in adjustments:
            if not isinstance(adj, dict):
                raise reject("command/bad_field", "rule: each adjustment is an object", field="adjustments")
            sub = Command("adjust", {**adj, "reason": adj.get("reason") or f"ruling on {dispute_id}: {comment}"}, command.actor)
            events.extend(_decide_adjust(ruleset, state, sub))
    return events


def _decide_reissue_links(ruleset: Ruleset, state: FightState, command: Command) -> list[EventDraft]:
    # Only the command line holds the seat table and hands the new tokens out; a GM seat on the wire
    # would get nothing back, so it is refused instead of recording links nobody has.
    if command.actor.seat_id != "system":
        raise reject("links/command_line_only", "new links are issued on the server's machine: "
                     "combat-server links FIGHT")
    seats = [str(s) for s in _arg(command, "seats", list)]
    if not seats:
        raise reject("command/bad_field", "reissue_links: seats must name at least one seat", field="seats")
    return [EventDraft("links_reissued", {"seats": seats, "reason": str(command.args.get("reason", ""))})]


_TEXT: Mapping[str, JSON] = {"type": "string"}
_COMBATANT_ID: Mapping[str, JSON] = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]{0,63}$",
                                     "description": "1 to 64 lowercase letters, digits, - or _"}
_SIDE: Mapping[str, JSON] = {"enum": ["pc", "npc"]}

#: Every core command: its fields (docs/protocol.md; any other is refused with command/unknown_field),
#: their types, and who may send it (DESIGN.md, Seat). ``undo`` and ``redo`` are decided by the engine
#: (engine/history.py) but authorised and checked here like the rest.
CORE_SPECS: Mapping[str, CommandSpec] = {s.name: s for s in (
    CommandSpec("add_combatant", GM, {"id": _COMBATANT_ID, "name": _TEXT, "side": _SIDE, "sheet": {"type": "object"},
                                      "hidden": {"type": "boolean"}}, required=("name",),
                help="add a combatant with the ruleset's sheet"),
    CommandSpec("update_combatant", GM, {"id": _TEXT, "name": _TEXT, "side": _SIDE, "sheet": {"type": "object"},
                                         "hidden": {"type": "boolean"}}, required=("id",),
                help="change a combatant's name, side, hidden flag or sheet"),
    CommandSpec("remove_combatant", GM, {"id": _TEXT, "reason": _TEXT}, required=("id",),
                help="take a combatant out of the fight"),
    CommandSpec("adjust", GM, {"combatant": _TEXT, "changes": {"type": "object"}, "reason": _TEXT},
                required=("combatant", "changes", "reason"), help="set condition fields, with a reason the log shows"),
    CommandSpec("note", ANY, {"text": _TEXT}, required=("text",), when_ended=True, help="a note in the log"),
    CommandSpec("end_fight", GM, {"reason": _TEXT}, help="end the fight"),
    CommandSpec("dispute", ANY, {"seq": {"type": "integer"}, "comment": _TEXT}, required=("seq", "comment"),
                help="ask the GM to rule on an event"),
    CommandSpec("rule", GM, {"dispute": _TEXT, "verdict": {"enum": ["uphold", "override"]},
                             "adjustments": {"type": "array", "items": {"type": "object"}}, "comment": _TEXT},
                required=("dispute", "verdict"), help="rule on a dispute: uphold, or override with adjustments"),
    CommandSpec("undo", GM, {"to": {"enum": ["last_command", "turn_start", "seq"], "x-error": "undo/bad_target"},
                             "seq": {"type": "integer", "minimum": 1, "x-error": "undo/bad_seq"}, "reason": _TEXT},
                when_ended=True, help="take the last command, the turn so far, or everything after a seq out"),
    CommandSpec("redo", GM, {}, when_ended=True, help="put back the newest undo, if nothing happened since"),
    CommandSpec("reissue_links", GM, {"seats": {"type": "array", "items": {"type": "string"}}, "reason": _TEXT},
                required=("seats",), when_ended=True,
                help="record that these seats got new links and their old ones stopped working "
                     "(sent by `combat-server links` only)"),
)}
#: The commands core decides (undo and redo are the engine's).
CORE_COMMANDS = frozenset(CORE_SPECS) - {"undo", "redo"}

_CORE_DECIDERS = {
    "add_combatant": _decide_add,
    "update_combatant": _decide_update,
    "remove_combatant": _decide_remove,
    "adjust": _decide_adjust,
    "note": _decide_note,
    "end_fight": _decide_end,
    "dispute": _decide_dispute,
    "rule": _decide_rule,
    "reissue_links": _decide_reissue_links,
}


# --------------------------------------------------------------------------- apply


def initial_state(ruleset: Ruleset, created: Event) -> FightState:
    p = created.payload
    return FightState(
        fight_id=created.fight_id,
        ruleset=str(p["ruleset"]),
        ruleset_version=str(p["ruleset_version"]),
        options=dict(p["options"]),
        dice_mode=str(p["dice_mode"]),
        title=str(p.get("title", "")),
        seq=created.seq,
    )


def apply(ruleset: Ruleset, state: FightState, event: Event) -> FightState:
    """Fold one effective event (core's by :data:`~combat_server.rules.core_events.CORE_EVENTS_BY_TYPE`, the
    rest by the ruleset).
    Facts are never re-validated here."""
    spec = CORE_EVENTS_BY_TYPE.get(event.type)
    if spec is None:
        state = ruleset.apply(state, event)
    elif spec.fold is None:
        raise AssertionError(f"{event.type} is folded by fold(), not apply()")
    else:
        state = spec.fold(ruleset, state, event)
    if state.seq == event.seq:  # the fold gave it (core's adjust: core_events._adjusted; issue 16, session 12)
        return state
    new: FightState = evolve(state, {"seq": event.seq})  # every other event: the cheap copy (issue 16)
    return new


def undone_after(undone: Iterable[int], events: Sequence[Event]) -> set[int]:
    """The undone seqs after folding the control events among ``events``."""
    result = set(undone)
    reverts: dict[int, tuple[int, ...]] = {}
    for e in events:
        if e.type == "reverted":
            seqs = tuple(e.payload["seqs"])
            reverts[e.seq] = seqs
            result.update(seqs)
        elif e.type == "restored":
            result.difference_update(e.payload["seqs"])
    return result


def touches_before(events: Sequence[Event], seq: int) -> bool:
    """Whether a control event among ``events`` changes the history at or before ``seq``."""
    return any(e.type in CONTROL_EVENTS and min(e.payload["seqs"], default=seq + 1) <= seq for e in events)


def walk(ruleset: Ruleset, events: Sequence[Event]) -> Iterator[tuple[Event, FightState, FightState]]:
    """Each event of a whole log with the state just before and just after it.

    Ordinary events are applied one by one; a control event (undo/redo) changes
    history, so the state after it is a refold of the log up to it. The first
    event's "before" is the state it creates (nothing exists before it).
    """
    before: FightState | None = None
    for i, event in enumerate(events, start=1):
        if before is None:
            after = before = fold(ruleset, [event])
        elif event.type in CONTROL_EVENTS:
            after = fold(ruleset, events[:i])
        else:
            after = apply(ruleset, before, event)
        yield event, before, after
        before = after


def fold(ruleset: Ruleset, events: Sequence[Event], start: FightState | None = None) -> FightState:
    """Fold ``events`` (the whole log, or the tail after ``start``) over their effective history.

    A tail may only be folded onto ``start`` if none of its control events reach
    back to ``start.seq`` or before (see :func:`touches_before`); the engine then
    refolds from further back.
    """
    if start is None:
        if not events or events[0].type != "fight_created":
            raise AssertionError("a full fold starts with fight_created")
        state = initial_state(ruleset, events[0])
        events = events[1:]
    else:
        state = start
    undone = undone_after(state.undone, events)
    for e in events:
        if e.type in CONTROL_EVENTS or e.seq in undone:
            continue
        state = apply(ruleset, state, e)
    last = events[-1].seq if events else state.seq
    return attrs.evolve(state, seq=last, undone=tuple(sorted(undone)))



# --------------------------------------------------------------------------- explain


def explain(ruleset: Ruleset, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str:
    """One readable sentence for any event (the ruleset explains its own events).

    ``hidden``: combatants whose sheets the reader may not see (see
    ``Ruleset.explain``); the GM's text is the one with nothing hidden.
    """
    text = ruleset.explain(state_before, event, hidden)
    if text is not None:
        return text
    spec = CORE_EVENTS_BY_TYPE.get(event.type)
    if spec is not None and spec.explain is not None:
        return spec.explain(state_before, event.payload, hidden)
    return f"{event.type.replace('_', ' ')}."
