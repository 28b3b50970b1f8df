"""The text of a fight's snapshot, written from the texts of its parts (issue 16, session 14).

A snapshot stores ``canonical_json(state_to_json(state))`` every 100 events: about 1.6 M instructions
(cattrs' dict of the whole state, then orjson's text of it and the walk that checks its floats), paid
by the command that crosses the hundred, on the event loop. Between two snapshots most parts of the
state are the same objects (the state is frozen and only replaced part by part: a sheet, the fight's
options, each combatant that did nothing), so their text is the text written the time before.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Mapping

import attrs

from combat_server.canonical import canonical_bytes
from combat_server.rules.model import Combatant, FightState
from combat_server.rules.serialize import converter, state_to_json

_PLAIN = frozenset({str, int, bool, type(None)})


def _plain_kind(kind: Any) -> Any:
    """``kind`` when a plain value of a field of that type is its own JSON (str, int, bool, None, ``Any``, or a
    union of those): then :func:`part_text` writes such a value as it is; ``None`` (the field's hook decides)
    for any other type, a container say, whatever it holds (a review: ``notes="abc"`` is not a tuple's JSON)."""
    if kind is Any or kind in _PLAIN:
        return kind
    if typing.get_origin(kind) in (typing.Union, types.UnionType) and all(
            _plain_kind(option) is not None for option in typing.get_args(kind)):
        return kind
    return None


def _members(cls: type) -> tuple[tuple[str, bytes, Any, bool], ...]:
    """The fields of the attrs class ``cls`` in their canonical text's order (sorted by name), each with its
    key's text (``"name":``), its type, as cattrs' generated hook unstructures it, and whether a plain value of
    it is its own text (:func:`_plain_kind`)."""
    fields = sorted(attrs.fields(attrs.resolve_types(cls)), key=lambda f: f.name)
    return tuple((f.name, b'"' + f.name.encode("ascii") + b'":', f.type, _plain_kind(f.type) is not None)
                 for f in fields)


_STATE = _members(FightState)
_COMBATANT = _members(Combatant)


def part_text(value: Any, kind: Any, plain: bool = False) -> bytes:
    """The canonical text of one field's JSON, the field of type ``kind`` holding ``value``: what cattrs'
    hook of its class puts in that member (``plain``: a plain value of this field is its own JSON, as the
    hook takes it)."""
    if plain and type(value) in _PLAIN:
        return canonical_bytes(value)
    return canonical_bytes(converter().unstructure(value, unstructure_as=kind))


def state_text_by_definition(state: FightState) -> bytes:
    """The definition: the canonical text (UTF-8) of ``state_to_json(state)``."""
    return canonical_bytes(state_to_json(state))


class StateText:
    """``state_text_by_definition`` of the successive states of one fight, the text of every part that is
    the same object as in the state written before reused.

    The canonical text of a dict is its members' texts sorted by key, each value written as it is alone
    (json's ``sort_keys`` and orjson's sorted keys alike; a str key sorts by code point, which is the
    order of its UTF-8 bytes too). ``state_to_json`` gives the state's fields, each by its type, and
    ``combatants`` as a dict of each combatant's fields: so the state's text is written from the text of
    each field of the state and of each combatant (:func:`part_text`), kept with the object it was written
    of. A field's value is frozen (the state is never changed in place), so the same object gives the same
    text, as the server's view caches assume. Only the parts of the state written last are kept.

    Anything else (a subclass of the state, which may have more fields, or a combatant id that is not an
    exact str) goes the definition's way (tests/engine/test_snapshot_text.py compares the two on the states
    of played GURPS and SHELL fights)."""

    def __init__(self) -> None:
        #: field name -> (its value in the state written last, its text)
        self._fields: dict[str, tuple[object, bytes]] = {}
        #: combatant id -> (the combatant written last, its member's text, its fields' texts by name)
        self._combatants: dict[str, tuple[Combatant, bytes, dict[str, tuple[object, bytes]]]] = {}

    def of(self, state: FightState) -> bytes:
        """The canonical text of ``state_to_json(state)`` as UTF-8 bytes."""
        if type(state) is not FightState:
            return state_text_by_definition(state)
        written = self._combatants_text(state.combatants)
        if written is None:
            return state_text_by_definition(state)
        text, self._fields = _fields_text(state, _STATE, self._fields, {"combatants": written[0]})
        self._combatants = written[1]
        return text

    def _combatants_text(self, combatants: Mapping[Any, Any]) -> tuple[bytes, Any] | None:
        """The text of the ``combatants`` member and what to keep of it; ``None`` when a key is not an exact str.
        Each combatant is written by :class:`Combatant`'s fields, as the state's hook unstructures it (by the
        field's type, a subclass too)."""
        for cid in combatants:
            if type(cid) is not str:
                return None
        kept = self._combatants
        written = {}
        members = []
        for cid in sorted(combatants):
            c = combatants[cid]
            hit = kept.get(cid)
            if hit is None or hit[0] is not c:
                body, parts = _fields_text(c, _COMBATANT, hit[2] if hit is not None else {})
                hit = (c, canonical_bytes(cid) + b":" + body, parts)
            written[cid] = hit
            members.append(hit[1])
        return b"{" + b",".join(members) + b"}", written


def _fields_text(obj: Any, members: tuple[tuple[str, bytes, Any, bool], ...], kept: Mapping[str, tuple[object, bytes]],
                 given: Mapping[str, bytes] | None = None) -> tuple[bytes, dict[str, tuple[object, bytes]]]:
    """``{"name":text,...}`` of ``obj``'s fields ``members`` and the (value, text) of each to keep: a field's text
    is the one ``kept`` holds when its value is the same object, else written (:func:`part_text`); a field
    ``given`` a text is written with it, and not kept."""
    parts: dict[str, tuple[object, bytes]] = {}
    pieces = []
    for name, key, kind, plain in members:
        if given is not None and name in given:
            pieces.append(key + given[name])
            continue
        value = getattr(obj, name)
        part = kept.get(name)
        if part is None or part[0] is not value:
            part = (value, part_text(value, kind, plain))
        parts[name] = part
        pieces.append(key + part[1])
    return b"{" + b",".join(pieces) + b"}", parts
