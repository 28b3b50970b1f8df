"""What a seat can do now, as data: the shape of ``Ruleset.describe(state, viewer)`` (#9, describe).

Why: a client that renders this (buttons for the actions, a form per action's
fields, the answers of its prompts with their numbers, bars and badges) needs no
table of a ruleset's maneuvers, defences or conditions, and cannot drift from
the rules that decide. Every ruleset returns these classes; nothing here knows
any ruleset's words. ``to_json`` gives the wire form (docs/protocol.md,
``combat_server/schemas/description.json``).
"""

from __future__ import annotations

from typing import Callable, Mapping, Protocol

import attrs

from combat_server.rules.model import JSON

#: Field types: what input a client shows for it.
FIELD_TYPES = ("choice", "integer", "text", "boolean")
#: Tones of badges and thresholds, mildest first.
TONES = ("info", "good", "warn", "bad", "grave")


class Viewer(Protocol):
    """Whom a description is for: the GM sees and may do everything; another seat what it controls."""

    @property
    def is_gm(self) -> bool: ...

    def controls(self, combatant_id: str) -> bool: ...


@attrs.frozen
class Choice:
    """One allowed value of a field, as people read it."""

    value: JSON
    label: str
    help: str = ""
    rule: str = ""
    #: other words a terminal client accepts for it (a ruleset's short forms, e.g. ``dodge`` for an option)
    aliases: tuple[str, ...] = ()
    #: the choice is open only while each named field (another of the action's) has one of the listed values
    #: (GURPS: a bow only for All-Out Attack Determined); a client offers it only then. Sent only when set.
    when: Mapping[str, tuple[JSON, ...]] = attrs.field(factory=dict, hash=False)  # choices are memo keys


@attrs.frozen
class Field:
    """One argument of an action's command that the seat fills in.

    ``when``: the field applies only while each named field has one of the listed
    values (a range only for a ranged weapon); a client hides it otherwise and
    does not send it.
    """

    name: str
    type: str
    label: str
    help: str = ""
    rule: str = ""
    required: bool = False
    choices: tuple[Choice, ...] = ()
    default: JSON = None
    minimum: int | None = None
    maximum: int | None = None
    when: Mapping[str, tuple[JSON, ...]] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        if self.type not in FIELD_TYPES:
            raise ValueError(f"field {self.name}: type must be one of {', '.join(FIELD_TYPES)}")


@attrs.frozen
class Action:
    """Something the seat may do now: send ``command`` with ``args`` plus its fields' values.

    ``id`` is unique in the description and reads as a verb (a terminal client's
    command word); ``rolls``: sending it rolls dice (with manual dice the client
    asks for ``dice`` faces, and it may ask for a ``preview`` first).
    """

    id: str
    command: str
    label: str
    help: str = ""
    rules: tuple[str, ...] = ()
    args: Mapping[str, JSON] = attrs.field(factory=dict)
    fields: tuple[Field, ...] = ()
    rolls: bool = False
    dice: str = ""
    combatant: str | None = None
    #: other verbs a terminal client accepts for ``id`` (a ruleset's short forms, e.g. ``aoa``)
    aliases: tuple[str, ...] = ()


@attrs.frozen
class Answer:
    """A ready-made answer to a prompt: send ``command`` with ``args``.

    ``number``: what the roll must not exceed, ``help``: how it is made (base and
    modifiers with their rule ids), ``dice``: the dice rolled (``3d6``; empty: none).
    """

    label: str
    command: str
    args: Mapping[str, JSON] = attrs.field(factory=dict)
    number: int | None = None
    help: str = ""
    rule: str = ""
    dice: str = ""


@attrs.frozen
class PromptChoices:
    """An open prompt this seat must (or, as the GM, may) answer, with its answers."""

    id: str
    kind: str
    combatant: str | None
    text: str
    answers: tuple[Answer, ...] = ()


@attrs.frozen
class Threshold:
    """From ``value <= at_most`` on, ``meaning`` holds (``tone``: how bad it is)."""

    at_most: int
    meaning: str
    rule: str = ""
    tone: str = "warn"


@attrs.frozen
class Bar:
    """A resource of a combatant (hit points ...), with the thresholds that matter."""

    combatant: str
    name: str
    label: str
    value: int
    max: int
    rule: str = ""
    thresholds: tuple[Threshold, ...] = ()


@attrs.frozen
class Badge:
    """A status shown on a combatant: what it is, how bad, which rule, how long it lasts."""

    combatant: str
    label: str
    tone: str = "info"
    rule: str = ""
    lasts: str = ""


@attrs.frozen
class Stat:
    """A labelled number on a combatant's card (what a player looks up at the table: a defence,
    an armour value, a threshold), under the ``group`` a client shows it in. ``value`` is text:
    a ruleset may say "11 (broadsword)" or "-24"."""

    combatant: str
    group: str
    label: str
    value: str
    rule: str = ""
    help: str = ""


@attrs.frozen
class Summary:
    """One line per combatant, as this seat may see it."""

    combatant: str
    text: str


@attrs.frozen
class Description:
    """Everything a client shows of what this seat can do and see now.

    ``waiting_for``: one sentence saying what the fight waits for (empty: nothing).
    """

    actions: tuple[Action, ...] = ()
    prompts: tuple[PromptChoices, ...] = ()
    bars: tuple[Bar, ...] = ()
    badges: tuple[Badge, ...] = ()
    summaries: tuple[Summary, ...] = ()
    waiting_for: str = ""
    #: the numbers of each combatant's card this seat may see (#13); after ``waiting_for`` so the
    #: wire keeps its order
    stats: tuple[Stat, ...] = ()


_SIMPLE = (str, int, bool, float, type(None))


def _plain(value: JSON) -> JSON:
    """JSON of the description classes: a walk over their fields (attrs.asdict is several times slower,
    and a description is encoded for each seat after every command)."""
    kind = type(value)
    if kind in _SIMPLE:
        return value
    if kind is tuple or kind is list:
        return [_plain(v) for v in value]
    names = _FIELDS.get(kind)
    if names is not None:
        return {n: _plain(getattr(value, n)) for n in names
                if not ((n == "aliases" or (n == "when" and kind is Choice)) and not getattr(value, n))}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in attrs.fields(cls))
    for cls in (Choice, Field, Action, Answer, PromptChoices, Threshold, Bar, Badge, Summary, Stat, Description)
}


def field_json(field: Field) -> dict[str, JSON]:
    """One field's wire form, for what a ruleset declares outside a description (``welcome.rulesets[].adjust``)."""
    out: dict[str, JSON] = _plain(field)
    return out


def fields_of(obj: object) -> dict[str, JSON]:
    """One level of a description object as a dict (for encoders that walk the rest themselves,
    e.g. orjson's ``default``); ``TypeError`` for anything else, as such encoders expect."""
    names = _FIELDS.get(type(obj))
    if names is None:
        raise TypeError(f"not a description object: {type(obj).__name__}")
    out = {n: getattr(obj, n) for n in names}
    if out.get("aliases", True) == ():  # sent only when a ruleset declares some (the wire stays as small)
        del out["aliases"]
    if type(obj) is Choice and not out["when"]:  # a choice's condition too (a field's ``when`` is always sent)
        del out["when"]
    return out


def to_json(description: Description) -> dict[str, JSON]:
    """The description as sent to a seat (``subscribed.description``, ``description`` messages)."""
    out: dict[str, JSON] = _plain(description)
    return out


#: Text of description objects by identity (the object is kept to make the hit an identity check).
_TEXTS: dict[int, tuple[object, str]] = {}
_TEXTS_LIMIT = 8192


def _text(obj: object, dumps: Callable[[JSON], str]) -> str:
    hit = _TEXTS.get(id(obj))
    if hit is not None and hit[0] is obj:
        return hit[1]
    text = dumps(obj)
    if len(_TEXTS) >= _TEXTS_LIMIT:
        _TEXTS.clear()
    _TEXTS[id(obj)] = (obj, text)
    return text


def encode(description: Description, dumps: Callable[[JSON], str]) -> str:
    """The JSON text of ``to_json(description)``, each action, bar, badge ... encoded once while it is
    the same object: a ruleset that memoizes its unchanged parts (GURPS does) makes a push cheap.

    ``dumps`` encodes compact JSON and turns description objects into objects with
    :func:`fields_of` (``orjson.dumps(o, default=fields_of)``, ``json.dumps(o, default=fields_of)``).
    """
    parts = []
    for name in _FIELDS[Description]:
        value = getattr(description, name)
        if type(value) is tuple:
            parts.append(f'"{name}":[' + ",".join(_text(v, dumps) for v in value) + "]")
        else:
            parts.append(f'"{name}":' + dumps(value))
    return "{" + ",".join(parts) + "}"
