"""What each seat may see: the state and events, with hidden sheets redacted.

The GM sees everything. A combatant the GM marked ``hidden`` shows to players
and spectators as its name, side and *visible* condition only (what the ruleset declares
visible: ``Ruleset.visible_condition``), unless the seat controls it; events
and prompts lose the numbers that reveal its sheet (:func:`redact_payload`,
:func:`prompt_view`: a roll it made keeps dice, total and outcome). Seats
that see the same thing share a :func:`view_key`, so a pushed message is encoded
once per distinct view, not once per subscriber.

Which combatants an event hides is decided per event by the log as written
(:func:`hidden_during`), never by the current state alone: a combatant removed or
undone since stays hidden in the events of its time (#15 item 1).
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

import marshal
from itertools import compress
from operator import is_, is_not

import attrs

from combat_server.rules.model import Combatant, Event, FightState
from combat_server.rules.core_events import CORE_EVENTS_BY_TYPE
from combat_server.rules.kit.events import EventSpec, redact, redact_secrets
from combat_server.rules.ruleset import Ruleset, get_ruleset
from combat_server.rules.serialize import converter, state_to_json
from combat_server.patch import normalize

GM_VIEW = "gm"
PUBLIC_VIEW = "public"

_SHEET_EVENTS = ("combatant_added", "combatant_updated", "character_imported")


def _ruleset(state: FightState) -> Ruleset:
    """The fight's ruleset, which declares what of a hidden combatant shows (``Ruleset.events``,
    ``visible_condition``, ``combat_secrets``, ``hidden_prompt_text``)."""
    return get_ruleset(state.ruleset, state.ruleset_version)


def view_key(role: str, combatants: Iterable[str], state: FightState) -> str:
    """Seats with equal keys see equal messages."""
    return hidden_key(role, combatants, hidden_ids(state))


def hidden_ids(state: FightState) -> frozenset[str]:
    """The combatants hidden in ``state`` (from everyone but the GM and their controllers)."""
    return frozenset(cid for cid, c in state.combatants.items() if c.hidden)


def hidden_during(before: FightState, after: FightState, hidden_after: frozenset[str] | None = None) -> frozenset[str]:
    """The combatants an event must hide: hidden after it, or hidden before it and gone after it.

    The redaction of an event follows the log as written, whatever was removed or
    undone since: a combatant hidden when the event happened stays hidden in it
    (also when the event is its removal or the undo of its entry), and one the
    event reveals (``hidden: false``, or an undo of its hiding) is visible from
    that event on. Pure, so a reader of any page of the log can compute it from
    the state at the page's start, walking forward.

    ``hidden_after``: :func:`hidden_ids` of ``after``, if the caller has it (the hub's push needs it
    anyway: one walk of the combatants less per event; issue 16, server CPU).
    """
    gone = frozenset(cid for cid, c in before.combatants.items() if c.hidden and cid not in after.combatants)
    return (hidden_ids(after) if hidden_after is None else hidden_after) | gone


def may_hide(start: FightState, events: Iterable[Event]) -> bool:
    """Whether any of ``events`` (consecutive, right after ``start``) may have a non-empty :func:`hidden_during`.

    False lets a reader skip the walk of states for a fight where nothing was
    hidden: only a hidden combatant in ``start``, an event that hides one, or an
    undo/redo (which may bring back an earlier hidden one) can hide anything.
    """
    if any(c.hidden for c in start.combatants.values()):
        return True
    return any(e.type in ("reverted", "restored") or (e.type in _SHEET_EVENTS and e.payload.get("hidden"))
               for e in events)


#: What a seat may not see when it may see everything: one shared object, not a new empty set per call
#: (the hub asks once per seat per push; issue 16).
NOTHING_HIDDEN: frozenset[str] = frozenset()


def seat_hidden(role: str, combatants: Iterable[str], hidden: frozenset[str]) -> frozenset[str]:
    """Of the ``hidden`` combatants, those whose sheets a seat may not see (none for the GM, not its own)."""
    if role == "gm" or not hidden:
        return NOTHING_HIDDEN
    return hidden.difference(combatants)


def hidden_key(role: str, combatants: Iterable[str], hidden: frozenset[str]) -> str:
    """A :func:`view_key` for seats during an event that hides ``hidden``: equal keys see equal messages."""
    if role == "gm":
        return GM_VIEW
    own = sorted(hidden.intersection(combatants))
    return PUBLIC_VIEW if not own else PUBLIC_VIEW + ":" + ",".join(own)


def visible_to(key: str) -> frozenset[str]:
    """The hidden combatants the seats with view ``key`` control (and so may see)."""
    if key in (GM_VIEW, PUBLIC_VIEW):
        return frozenset()
    return frozenset(key.split(":", 1)[1].split(","))


def _forget_gone(cache: dict[str, Any], present: Mapping[str, Any]) -> None:
    """Drop the cached entries of combatants no longer in ``present``. The usual push removes nobody,
    which a subset test of the two key views tells without building a set (issue 16, server CPU)."""
    if not cache.keys() <= present.keys():
        for gone in set(cache) - set(present):
            del cache[gone]


def _exact(value: Any) -> bytes | None:
    """``value`` in marshal's format 2 (no references between parts), which writes the exact type of every
    part (``True`` and ``1``, ``1.0`` and ``1``, a tuple and a list apart) and the order of a dict's members,
    and refuses what is not a plain builtin (a subclass of str, int or dict; an enum, which orjson would
    write as its value): ``None`` then. Equal texts read back as equal values of equal types."""
    try:
        return marshal.dumps(value, 2)
    except ValueError:
        return None


def same_json(a: Any, b: Any) -> bool:
    """Whether ``a`` and ``b`` are alike in every way a view shows: plain builtins of the same types with
    the same values in the same order (:func:`_exact`), and equal (a NaN is not equal to another NaN: the
    patch's diff replaces it). So :func:`combat_server.patch.diff` finds nothing between their normalized
    values, and their canonical texts (the view hash) are the same."""
    exact = _exact(a)
    return exact is not None and exact == _exact(b) and a == b


def _same_members(new: Any, old: Any, keys: tuple[str, ...] | None) -> bool:
    """:func:`same_json` of a recomputed derived view and the one before, asked member by member: ``keys``
    are the old view's keys (all exact strings; ``None`` when they were not), the new view must have the
    same key objects in the same order, and each member that is not the same object as before must be
    :func:`same_json` to it. A member that is the same object shows the same JSON (views are never changed
    in place), so only the changed members are written by marshal and compared: the GURPS view keeps its
    weapons list while the condition's ``unready`` stays (rules/gurps/explain.py), and marshal's text of the
    whole view was a fifth of the derived cache's cost per push (issue 16, server CPU).
    tests/server/test_fastpaths.py holds it to :func:`same_json`'s promises."""
    if keys is None or type(new) is not dict or type(old) is not dict or len(new) != len(keys) or \
            not all(map(is_, new, keys)):
        return False
    return all(same_json(new[key], old[key]) for key in compress(keys, map(is_not, new.values(), old.values())))


def _plain_keys(view: Any) -> tuple[str, ...] | None:
    """The keys of ``view`` when it is a dict whose keys are all exact strings (what :func:`_same_members`
    compares against), else ``None``."""
    if type(view) is not dict or not all(type(key) is str for key in view):
        return None
    return tuple(view)


class DerivedCache:
    """The ruleset's derived numbers per combatant, recomputed only when that combatant changed.

    Assumes what ``Ruleset.view_combatant`` promises: the view depends on the
    combatant (sheet and condition), the fight's options and the ruleset's
    ``view_context``. Combatants are frozen and replaced on every change, so
    identity is the change test; the context is compared by value.

    A recomputed view alike to the one before (:func:`_same_members`, which keeps :func:`same_json`'s
    promises: most changes of a condition, a GM's HP adjustment, leave the derived numbers as they were)
    is given as the object before, so what is built from it by identity (``ViewBuilder``'s normalized
    value, the view hash's digest and the patch's diff) is not built again (issue 16, server CPU).
    """

    def __init__(self) -> None:
        #: cid -> (combatant, options, context, its view, the view's keys if all are exact strings)
        self._views: dict[str, tuple[object, object, object, dict[str, Any], tuple[str, ...] | None]] = {}
        #: Changes whenever :meth:`views` gives other members than the call before (a view that is a new
        #: object, a combatant come, gone or moved): equal numbers tell that it gave the same view objects
        #: under the same keys in the same order, so what ``ViewBuilder`` made of them stands (issue 16).
        self.version = 0
        #: The keys :meth:`views` gave last, in its order.
        self._keys: tuple[str, ...] = ()

    def views(self, ruleset: Ruleset, state: FightState) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        context = ruleset.view_context(state)
        changed = False
        for cid, c in state.combatants.items():
            hit = self._views.get(cid)
            if hit is None or hit[0] is not c or hit[1] is not state.options or hit[2] != context:
                view = ruleset.view_combatant(state, cid)
                if hit is not None and _same_members(view, hit[3], hit[4]):
                    hit = (c, state.options, context, hit[3], hit[4])  # the same numbers: keep the object the caches know
                else:
                    hit = (c, state.options, context, view, _plain_keys(view))
                    changed = True
                self._views[cid] = hit
            if hit[3]:
                out[cid] = hit[3]
        _forget_gone(self._views, state.combatants)
        keys = tuple(out)
        if changed or keys != self._keys:
            self.version += 1
            self._keys = keys
        return out


def full_state(ruleset: Ruleset, state: FightState, cache: DerivedCache | None = None) -> dict[str, Any]:
    """The state as JSON plus the ruleset's derived numbers per combatant, without the notes
    (#15 item 3: they only grow, and every push carries the state; clients read them from
    the ``note_added`` events)."""
    data = state_to_json(attrs.evolve(state, notes=()))
    del data["notes"]
    data["derived"] = (cache or DerivedCache()).views(ruleset, state)
    return data


def event_is_private(event: Event) -> bool:
    """Whether some seats see this event differently (a sheet that may be hidden)."""
    return event.type in _SHEET_EVENTS and "sheet" in event.payload


def state_view(full: Mapping[str, Any], state: FightState, key: str) -> dict[str, Any]:
    """``full`` (from :func:`full_state`) as the seats with view ``key`` may see it."""
    hidden = frozenset(hidden_from(key, state))
    if not hidden:
        return dict(full)
    out = dict(full)
    ruleset = _ruleset(state)
    combatants = dict(out["combatants"])
    derived = dict(out.get("derived", {}))
    for cid in hidden:
        combatants[cid] = _redacted(combatants[cid], ruleset.visible_condition)
        derived.pop(cid, None)
    out["combatants"] = combatants
    out["derived"] = derived
    if "prompts" in out:
        out["prompts"] = _prompts_view(out["prompts"], state, hidden)
    if "combat" in out:
        out["combat"] = _combat_view(ruleset, out["combat"], hidden)
    return out


def hidden_from(key: str, state: FightState) -> tuple[str, ...]:
    """The combatants whose sheets the seats with view ``key`` may not see (empty for the GM)."""
    if key == GM_VIEW:
        return ()
    own = visible_to(key)
    return tuple(cid for cid, c in state.combatants.items() if c.hidden and cid not in own)


def _redacted(c: Mapping[str, Any], visible: tuple[str, ...]) -> dict[str, Any]:
    condition = c.get("condition") or {}
    return {"id": c["id"], "name": c["name"], "side": c["side"], "hidden": True, "sheet": None,
            "condition": {k: condition[k] for k in visible if k in condition}}


_COMBATANT_FIELDS = tuple(f.name for f in attrs.fields(Combatant))
_PLAIN = frozenset({str, int, bool, type(None)})


def normalized(value: Any) -> Any:
    """:func:`combat_server.patch.normalize` of ``value``, an object's members that are a string, an exact
    int, a bool or ``None`` taken as they are without a call each: normalizing a combatant's changed
    condition (36 members) and derived view was a third of building a push's view (issue 16, server
    CPU). ``normalize`` stays the definition (tests/server/test_fastpaths.py compares the two)."""
    if type(value) is dict:
        return {k if type(k) is str else str(k): v if type(v) in _PLAIN else normalize(v) for k, v in value.items()}
    return normalize(value)


#: class -> (its converter hook, the hook's normalized variant or None): see :func:`json_value`
_NORMAL_HOOKS: dict[type, tuple[Any, Any]] = {}


def json_value(part: Any) -> Any:
    """``normalized(converter().unstructure(part))``, by the hook's own normalized variant when the hook
    has one (``normalized_by``: the GURPS state classes' generated hooks, rules/gurps/json_hooks.py),
    which builds the dict once instead of the hook's dict and ``normalized``'s copy of it (issue 16,
    server CPU: a GM's HP adjustment rebuilds the changed condition's value). The variant is made once
    per hook, so a hook registered anew is asked again (tests/server/test_fastpaths.py compares the two)."""
    kind = type(part)
    hook = converter().get_unstructure_hook(kind)
    hit = _NORMAL_HOOKS.get(kind)
    if hit is None or hit[0] is not hook:
        make = getattr(hook, "normalized_by", None)
        hit = _NORMAL_HOOKS[kind] = (hook, make(normalize) if make is not None else None)
    return hit[1](part) if hit[1] is not None else normalized(hook(part))


def json_value_since(part: Any, was: Any, old: Any) -> Any:
    """:func:`json_value` of ``part``, given ``old``, the value it gave of ``was`` (the same field of the
    combatant before): by the hook's ``since`` variant when there is one, which takes ``old``'s member for
    each attrs field that is the same object in ``part`` as in ``was``. A GM's HP adjustment changes one of
    the condition's 36 members; the other 35 stay the objects the previous view holds (the lists made of
    its unchanged tuples included), so the patch's diff finds the changed one in C and the view hasher and
    the clients skip the rest by identity (issue 16, server CPU). A field's value is frozen (the state is
    never changed in place), so the same object gives the same value, as the builder's other caches
    assume (tests/gurps/test_condition_fast_paths.py compares the two)."""
    kind = type(part)
    if type(was) is kind and type(old) is dict:
        hit = _NORMAL_HOOKS.get(kind)
        if hit is not None and hit[0] is converter().get_unstructure_hook(kind):
            since = getattr(hit[1], "since", None)
            if since is not None:
                return since(part, was, old)
    return json_value(part)


class ViewBuilder:
    """The state as each view sees it, as JSON values (``state_view(full_state(...))`` normalized,
    :func:`combat_server.patch.normalize`), built for publishing patches (issue 16).

    Only one or two combatants change per event: each combatant's value (full and
    redacted), each derived view and each other field of the state is converted
    once and reused while it is the same object (combatants are frozen and
    replaced on every change, as :class:`DerivedCache` assumes). Views of the
    same state share every unchanged part with the previous one, so
    :func:`combat_server.patch.diff` skips them by identity.
    """

    def __init__(self) -> None:
        self.derived = DerivedCache()
        #: cid -> [combatant, its value, its redacted value or None until needed]
        self._combatants: dict[str, list[Any]] = {}
        #: cid -> (derived view dict, its value)
        self._derived: dict[str, tuple[object, Any]] = {}
        #: field name -> (field value in the state, its value)
        self._fields: dict[str, tuple[object, Any]] = {}
        self._names = [f.name for f in attrs.fields(FightState) if f.name != "notes"]  # notes: see full_state
        #: what it hides -> the ``derived`` member of the view built last
        self._derived_out: dict[frozenset[str], dict[str, Any]] = {}
        #: what it hides -> the :attr:`DerivedCache.version` that member was made of
        self._derived_version: dict[frozenset[str], int] = {}

    def _combatant(self, cid: str, c: Combatant, redact: bool, visible: tuple[str, ...]) -> Any:
        hit = self._combatants.get(cid)
        if hit is None or hit[0] is not c:
            # Field by field: a combatant whose condition changed keeps its sheet's value (the same
            # object), so the patch's diff skips the sheet without looking inside.
            old = hit[1] if hit is not None else {}
            value = {}
            for name in _COMBATANT_FIELDS:
                part = getattr(c, name)
                if type(part) in _PLAIN:  # its own value, as json_value would give it
                    value[name] = part
                elif hit is None:
                    value[name] = json_value(part)
                elif (was := getattr(hit[0], name)) is part:
                    value[name] = old[name]
                else:
                    value[name] = json_value_since(part, was, old[name])
            hit = self._combatants[cid] = [c, value, None]
        if not redact:
            return hit[1]
        if hit[2] is None:
            hit[2] = _redacted(hit[1], visible)
        return hit[2]

    def _derived_view(self, cid: str, view: dict[str, Any]) -> Any:
        hit = self._derived.get(cid)
        if hit is None or hit[0] is not view:
            hit = self._derived[cid] = (view, normalized(view))
        return hit[1]

    def view(self, ruleset: Ruleset, state: FightState, hidden: frozenset[str]) -> dict[str, Any]:
        """The view of the seats that may not see the sheets of ``hidden`` (:func:`seat_hidden` of
        :func:`hidden_ids`: the combatants hidden in ``state`` that the seat does not control)."""
        derived = self.derived.views(ruleset, state)
        _forget_gone(self._derived, derived)
        _forget_gone(self._combatants, state.combatants)
        visible = ruleset.visible_condition
        fields = self._fields
        out: dict[str, Any] = {}
        for name in self._names:
            if name == "combatants":
                kept = self._combatants
                values = out[name] = {}
                for cid, c in state.combatants.items():
                    same = kept.get(cid)  # an unchanged combatant a seat may see: its value, without a call
                    values[cid] = same[1] if same is not None and same[0] is c and cid not in hidden else \
                        self._combatant(cid, c, cid in hidden, visible)
                continue
            value = getattr(state, name)
            hit = fields.get(name)
            if hit is None or hit[0] is not value:
                # A string, an exact int (the seq, new every push), a bool or None is its own value, as
                # _combatant takes a combatant's: no converter lookup for it (issue 16, server CPU).
                hit = fields[name] = (value, value if type(value) in _PLAIN else json_value(value))
            out[name] = hit[1]
        if hidden:
            if out.get("prompts"):
                out["prompts"] = _prompts_view(out["prompts"], state, hidden)
            out["combat"] = _combat_view(ruleset, out.get("combat"), hidden)
        version = self.derived.version
        if self._derived_version.get(hidden) == version:
            # The same derived views as when this member was made (the usual push: a GM's HP adjustment
            # leaves them alike, DerivedCache): the member stands, without a lookup per combatant (issue 16).
            out["derived"] = self._derived_out[hidden]
            return out
        values = {cid: self._derived_view(cid, view) for cid, view in derived.items() if cid not in hidden}
        before = self._derived_out.get(hidden)
        if before is not None and _same_entries(before, values):
            values = before  # no derived view changed: the view hash and the diff skip the member by identity
        else:
            self._derived_out[hidden] = values
        self._derived_version[hidden] = version
        out["derived"] = values
        return out


def _same_entries(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether ``a`` and ``b`` have the same keys, in the same order, with the same objects (told in C: the
    builder asks once per view, issue 16)."""
    return len(a) == len(b) and tuple(a) == tuple(b) and all(map(is_, a.values(), b.values()))


def _combat_view(ruleset: Ruleset, combat: Any, hidden: frozenset[str] | tuple[str, ...]) -> Any:
    """``combat`` without what the ruleset declares secret about hidden combatants (``combat_secrets``:
    GURPS's pending attack of a hidden attacker loses its numbers); the same object if nothing is."""
    if not isinstance(combat, Mapping) or not ruleset.combat_secrets:
        return combat
    return redact_secrets(ruleset.combat_secrets, combat, frozenset(hidden))


def with_hidden_as_now(state: FightState, now: FightState) -> FightState:
    """A past ``state`` whose combatants are hidden if they were then or are now.

    A sheet the GM hides later must not show in a replayed state (``state_at``),
    just as it no longer shows in the replayed events.
    """
    hide = [cid for cid, c in state.combatants.items()
            if not c.hidden and cid in now.combatants and now.combatants[cid].hidden]
    if not hide:
        return state
    combatants = dict(state.combatants)
    for cid in hide:
        combatants[cid] = attrs.evolve(combatants[cid], hidden=True)
    return attrs.evolve(state, combatants=combatants)


def prompt_view(prompt: Mapping[str, Any], state: FightState) -> dict[str, Any]:
    """A prompt about a hidden combatant: its id, kind and combatant, a neutral text, no options."""
    cid = prompt.get("combatant")
    c = state.combatants.get(cid) if isinstance(cid, str) else None
    name = c.name if c is not None else str(cid)
    kind = str(prompt.get("kind", ""))
    text = _ruleset(state).hidden_prompt_text.get(kind, "{name}: " + kind.replace("_", " ")).format(name=name)
    return {"id": prompt["id"], "kind": kind, "combatant": cid, "text": text, "options": {}}


def _prompts_view(prompts: Any, state: FightState, hidden: frozenset[str] | tuple[str, ...]) -> Any:
    """A list of prompts with those about ``hidden`` combatants redacted, and in the others what the
    ruleset's ``prompt_secrets`` declare about a hidden one (the same object if nothing is)."""
    if not isinstance(prompts, list) or not hidden:
        return prompts
    secrets = _ruleset(state).prompt_secrets
    hidden_set = frozenset(hidden)
    shown = [p if not isinstance(p, Mapping) else prompt_view(p, state) if p.get("combatant") in hidden
             else redact_secrets(secrets, p, hidden_set) if secrets else p
             for p in prompts]
    return prompts if all(a is b for a, b in zip(shown, prompts)) else shown


@attrs.frozen
class _Undeclared:
    """The payload of an event type no spec declares (a record it carries is still redacted)."""


def redact_payload(etype: str, payload: Mapping[str, Any], hidden: frozenset[str],
                   state: FightState) -> Mapping[str, Any]:
    """The payload without the numbers that reveal the sheets of ``hidden`` combatants: what the
    event's spec declares (rules/kit/events.py: its roll record, ``secrets``), and a GM's
    adjustment of a hidden combatant shows only the ruleset's ``visible_condition``.

    Returns ``payload`` itself when nothing in it is about a hidden combatant, so
    callers can tell with ``is`` that the full text may be shared.
    """
    if not hidden:
        return payload
    ruleset = _ruleset(state)
    spec = CORE_EVENTS_BY_TYPE.get(etype) or ruleset.events.get(etype) or EventSpec(etype, _Undeclared, None, None)
    shown = redact(spec, payload, hidden)
    out: dict[str, Any] | None = None if shown is payload else dict(shown)

    def put(k: str, v: Any) -> None:
        nonlocal out
        if out is None:
            out = dict(payload)
        out[k] = v

    if etype == "condition_adjusted" and payload.get("combatant") in hidden:
        for k in ("changes", "before"):
            if isinstance(payload.get(k), Mapping):
                put(k, {f: v for f, v in payload[k].items() if f in ruleset.visible_condition})
    opens = payload.get("opens")
    if opens is not None:
        shown = _prompts_view(opens, state, hidden)
        if shown is not opens:
            put("opens", shown)
    return payload if out is None else out


def payload_view(event: Event, state: FightState, hidden: frozenset[str]) -> Mapping[str, Any]:
    """The event's payload as a seat that may not see ``hidden`` sheets sees it.

    ``payload`` itself when nothing in it is about a hidden combatant (callers can
    tell with ``is`` that the full text may be shared). The sheet of a hidden
    combatant in ``combatant_added``/``combatant_updated`` is ``None``.
    """
    shown = redact_payload(event.type, event.payload, hidden, state)
    if event_is_private(event) and event.payload.get("id") in hidden:
        shown = dict(shown, sheet=None)
    return shown


def event_view(event: Event, state: FightState, hidden: frozenset[str]) -> dict[str, Any]:
    """The event as JSON for a seat that may not see the sheets of ``hidden`` (empty: the GM's view).

    ``hidden`` is the seat's set for this event (:func:`seat_hidden` of
    :func:`hidden_during`), never the current state's: a combatant removed or
    undone since is still hidden in the events of its time.
    """
    data = event.to_dict()
    if hidden:
        shown = payload_view(event, state, hidden)
        if shown is not event.payload:
            data["payload"] = dict(shown)
    return data


__all__ = [
    "GM_VIEW", "PUBLIC_VIEW", "DerivedCache", "ViewBuilder", "view_key", "hidden_from", "full_state", "state_view",
    "event_view", "event_is_private", "prompt_view", "redact_payload", "with_hidden_as_now", "hidden_ids",
    "hidden_during", "may_hide", "seat_hidden", "payload_view", "hidden_key", "visible_to",
]
