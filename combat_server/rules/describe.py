"""What a seat can do now, as data: the shape of ``Ruleset.describe(state, viewer)`` (#9, describe).

Why: a client that renders this (buttons for the actions, a form per action's
fields, the answers of its prompts with their numbers, bars and badges) needs no
table of a ruleset's maneuvers, defences or conditions, and cannot drift from
the rules that decide. Every ruleset returns these classes; nothing here knows
any ruleset's words. ``to_json`` gives the wire form (docs/protocol.md,
``combat_server/schemas/description.json``).
"""

from __future__ import annotations

from typing import Mapping, Protocol

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


def _plain(value: JSON) -> JSON:
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def to_json(description: Description) -> dict[str, JSON]:
    """The description as sent to a seat (``subscribed.description``, ``description`` messages)."""
    out: dict[str, JSON] = _plain(attrs.asdict(description, recurse=True))
    return out
