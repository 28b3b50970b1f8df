"""Event specs: each event type registered once, with everything known about it.

A spec names the event's payload (a frozen attrs class: its field names and
types, optional fields with defaults), its fold, its one-sentence explanation,
and what a reader who may not see a combatant's sheet must not get (``roller``
and ``secrets``). Dispatch of folds and explanations, the docs' event lists and
redaction all read the same registry, so a new event is one spec.

Every event may also carry ``answers`` and ``opens`` (rules/kit/prompts.py); the
registry folds those after the event's own fold, so payload classes do not
declare them.
"""

from __future__ import annotations

import types
import typing
from collections import abc
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

import attrs

from combat_server.rules.kit.prompts import fold_prompts
from combat_server.rules.kit.rolls import RECORD_SECRETS
from combat_server.rules.model import Event, FightState

if TYPE_CHECKING:
    from combat_server.rules.ruleset import Ruleset

#: Fold one event into the state (the ruleset is there for core events that build sheets).
Fold = Callable[["Ruleset", FightState, Event], FightState]
#: One sentence for an event: (state before it, its payload, combatants whose sheets the reader may not see).
Explain = Callable[[FightState, Mapping[str, Any], frozenset[str]], str]
#: Payload fields every event may carry, folded by the kit.
PROMPT_FIELDS = ("answers", "opens")


@attrs.frozen
class Secret:
    """Fields that reveal the sheet of the combatant whose id is at ``who`` (a dotted path in
    the payload, e.g. ``attack.attacker``). ``within``: the payload field they are taken out
    of (an object, or a list of objects whose own ``who`` is read); empty for the payload itself."""

    who: str
    fields: tuple[str, ...]
    #: May be dotted (``contest.defender``: one roll record of a contest) when it names an object.
    within: str = ""


@attrs.frozen
class EventSpec:
    name: str
    #: The payload's declared fields and types (a frozen attrs class).
    payload: type
    #: ``None``: folded elsewhere (``fight_created`` starts a fold; undo and redo change history).
    fold: Fold | None
    explain: Explain | None
    #: Path to who rolled ``payload["record"]``; a hidden roller's record loses ``RECORD_SECRETS``.
    roller: str = ""
    secrets: tuple[Secret, ...] = ()


def on_payload(fn: Callable[[FightState, Mapping[str, Any]], FightState]) -> Fold:
    """A fold that needs only the payload."""
    return lambda ruleset, state, event: fn(state, event.payload)


class EventRegistry(Mapping[str, EventSpec]):
    """One ruleset's (or core's) event specs by type; a type registered twice is an error."""

    def __init__(self, *specs: EventSpec) -> None:
        self._specs: dict[str, EventSpec] = {}
        for spec in specs:
            if spec.name in self._specs:
                raise ValueError(f"event type {spec.name!r} is registered twice")
            if not attrs.has(spec.payload):
                raise TypeError(f"event type {spec.name!r}: its payload must be an attrs class")
            self._specs[spec.name] = spec

    def __getitem__(self, key: str) -> EventSpec:
        return self._specs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def get(self, key: str, default: EventSpec | None = None) -> EventSpec | None:  # type: ignore[override]
        # a dict lookup: Mapping.get goes through a KeyError for every type it does not hold
        return self._specs.get(key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._specs

    def fold(self, ruleset: Ruleset, state: FightState, event: Event) -> FightState:
        """The event's own fold, then the prompts it answers and opens."""
        fold = self._specs[event.type].fold
        if fold is None:
            raise AssertionError(f"{event.type} is not folded event by event")
        return fold_prompts(fold(ruleset, state, event), event)

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str]) -> str | None:
        spec = self._specs.get(event.type)
        if spec is None or spec.explain is None:
            return None
        return spec.explain(state_before, event.payload, hidden)


# --------------------------------------------------------------------------- payload checks


def payload_problems(spec: EventSpec, payload: Mapping[str, Any]) -> list[str]:
    """What in ``payload`` its spec does not declare: unknown fields, missing required ones,
    values of another type (why: a stored fight is checked against the declarations)."""
    hints = _hints(spec.payload)
    required = {f.name for f in attrs.fields(spec.payload) if f.default is attrs.NOTHING}
    problems = [f"{spec.name}: missing field {name!r}" for name in sorted(required - set(payload))]
    for key, value in payload.items():
        if key in PROMPT_FIELDS:
            continue
        if key not in hints:
            problems.append(f"{spec.name}: undeclared field {key!r}")
        elif not _fits(value, hints[key]):
            problems.append(f"{spec.name}: field {key!r} is not {hints[key]}: {value!r}")
    return problems


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _fits(value: Any, hint: Any) -> bool:
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, h) for h in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint in (str, bool):
        return isinstance(value, hint)
    if origin is list:
        (item,) = typing.get_args(hint) or (Any,)
        return isinstance(value, list) and all(_fits(v, item) for v in value)
    if origin is dict or hint is dict:
        return isinstance(value, dict)
    return False


# --------------------------------------------------------------------------- redaction


def _at(payload: Mapping[str, Any], path: str) -> Any:
    if "." not in path:
        return payload.get(path)
    value: Any = payload
    for part in path.split("."):
        if not isinstance(value, abc.Mapping):
            return None
        value = value.get(part)
    return value


def redact(spec: EventSpec, payload: Mapping[str, Any], hidden: frozenset[str]) -> Mapping[str, Any]:
    """``payload`` without what its spec declares secret about the ``hidden`` combatants
    (prompts it opens are the viewer's business); ``payload`` itself if nothing is."""
    out: Mapping[str, Any] = payload
    record = payload.get("record")
    if isinstance(record, abc.Mapping) and (
            (spec.roller and _at(payload, spec.roller) in hidden) or record.get("roller") in hidden):
        out = dict(payload, record={k: v for k, v in record.items() if k not in RECORD_SECRETS})
    return redact_secrets(spec.secrets, out, hidden)


def _put(data: Mapping[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A copy of ``data`` with ``value`` at the dotted ``path``, each object on the way copied (never changed)."""
    head, _sep, rest = path.partition(".")
    out = dict(data)
    out[head] = _put(data[head], rest, value) if rest else value
    return out


def redact_secrets(secrets: tuple[Secret, ...], data: Mapping[str, Any], hidden: frozenset[str]) -> Mapping[str, Any]:
    """``data`` (a payload, or any object such as a fight's pending attack) without the fields
    ``secrets`` declare about the ``hidden`` combatants; ``data`` itself if none applies."""
    out: dict[str, Any] | None = None
    for secret in secrets:
        if not secret.within:
            if _at(data, secret.who) in hidden and any(k in data for k in secret.fields):
                out = dict(out if out is not None else data)
                for k in secret.fields:
                    out.pop(k, None)
            continue
        inner = _at(out if out is not None else data, secret.within)
        if isinstance(inner, abc.Mapping) and _at(data, secret.who) in hidden:
            out = _put(out if out is not None else data, secret.within,
                       {k: v for k, v in inner.items() if k not in secret.fields})
        elif isinstance(inner, list) and any(isinstance(x, abc.Mapping) and _at(x, secret.who) in hidden for x in inner):
            out = dict(out if out is not None else data)
            out[secret.within] = [{k: v for k, v in x.items() if k not in secret.fields}
                                  if isinstance(x, abc.Mapping) and _at(x, secret.who) in hidden else x for x in inner]
    return data if out is None else out
