"""The data every ruleset shares: commands, events, prompts, combatants, state.

All of it is frozen. Collections are tuples or mappings that are replaced, never
mutated. Values are JSON-able and hold no floats that matter to the rules, so the
canonical JSON of a state is stable across replays, stores and processes.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

import attrs

from combat_server.errors import reject

JSON = Any
ROLES = ("gm", "player", "spectator", "system")
#: attrs metadata key on a condition field the rules keep and a GM's ``adjust`` may not set; its value
#: says what the GM sets instead (core._decide_adjust refuses the field with it, adjust/bad_value).
KEPT_BY_RULES = "kept_by_rules"
#: attrs metadata key on a condition field whose values the rules look up (a table's key, a combatant, a
#: weapon): the values a GM's ``adjust`` may set it to. Either a collection (a closed set: ``frozenset``,
#: ``tuple`` or ``range``) or a callable ``(state, combatant) -> collection`` for values that refer to the
#: fight (a combatant id of this fight, a weapon of this combatant's sheet). core._decide_adjust refuses
#: any other value with adjust/bad_value naming the allowed ones; a field without it takes any value of
#: its declared type. A decision, not a fold: stored events fold as before.
ADJUSTABLE_TO = "adjustable_to"


_Copier = Callable[[Any, Mapping[str, Any]], Any]
_COPIERS: dict[type, _Copier | None] = {}


def _caches_hash(slots: set[str]) -> bool:
    """Whether an attrs class with these slots caches its hash (``cache_hash=True``), which its ``__init__``
    resets and a copy or build that skips ``__init__`` would leave unset. The slot is ``_attrs_cached_hash``
    in attrs 26 and was ``__attrs_cached_hash`` before: either name (tests/test_model_evolve.py)."""
    return "_attrs_cached_hash" in slots or "__attrs_cached_hash" in slots


def _settable_twin(cls: type, prefix: str) -> type | None:
    """The settable twin of the frozen slotted attrs class ``cls`` that :func:`_make_copier`,
    :func:`make_builder` and :func:`make_replacer` store fields through, or ``None`` for a class whose
    ``__init__`` does more than store its arguments (validators, converters, aliases, a post-init or a
    cached hash), where skipping ``__init__`` would change the result. ``init=False`` fields are allowed
    here; :func:`_make_copier` refuses them itself.

    The twin is a subclass that adds no slot and sets attributes the plain way; an instance made as a twin
    becomes an instance of ``cls`` (same layout, so ``__class__`` may be assigned): each field is then one
    plain attribute store. Calling each slot's descriptor ``__set__`` (or ``object.__setattr__``, as attrs'
    frozen ``__init__`` does) packs its arguments in a tuple per field: about four times the cost (issue 16:
    0.8 against 3.6 us for a GURPS ``Condition``, same sitting). Both hooks plain (they share one type slot):
    only then is a store the interpreter's own. One helper for the three (issue 16, session 12: the checks
    were written twice)."""
    fields = attrs.fields(cls)
    slots = {name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ())}
    if (_caches_hash(slots) or hasattr(cls, "__attrs_post_init__")
            or hasattr(cls, "__attrs_pre_init__")):
        return None
    for f in fields:
        descriptor = next((k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__), None)
        if (f.validator is not None or f.converter is not None or f.alias != f.name or f.name not in slots
                or not hasattr(descriptor, "__set__") or not f.name.isidentifier()):
            return None
    return type(f"_{prefix}{cls.__name__}", (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                                      "__delattr__": object.__delattr__, "__module__": __name__})


def _make_copier(cls: type) -> _Copier | None:
    """A function copying a frozen slotted attrs instance with some fields replaced, generated from
    ``attrs.fields`` once per class; ``None`` (use ``attrs.evolve``) for a class :func:`_settable_twin`
    refuses, or with an ``init=False`` field (``attrs.evolve`` does not carry it)."""
    fields = attrs.fields(cls)
    if not all(f.init for f in fields):
        return None
    twin = _settable_twin(cls, "Settable")
    if twin is None:
        return None
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin, "_setattr": object.__setattr__,
                                 "_names": frozenset(f.name for f in fields), "_slow": attrs.evolve}
    lines = ["def copy(inst, changes):",
             "    if not _names.issuperset(changes):",
             "        return _slow(inst, **changes)",
             "    new = _new(_twin)"]
    lines += [f"    new.{f.name} = inst.{f.name}" for f in fields]
    # Every field copied, then the changed ones set again: a test per field ("in changes") cost more.
    lines += ["    for name, value in changes.items():",
              "        _setattr(new, name, value)",
              "    new.__class__ = _cls",
              "    return new"]
    exec("\n".join(lines), namespace)  # noqa: S102 - source built only from the class's own field names
    copier: _Copier = namespace["copy"]
    return copier


def make_builder(cls: type) -> Callable[..., Any] | None:
    """A function building an instance of the frozen slotted attrs class ``cls`` from every field's value,
    in ``attrs.fields(cls)`` order (``init=False`` fields too), generated once per class the way
    :func:`_make_copier` makes a copy: stored through the settable twin, then ``__class__`` assigned.
    ``None`` for a class whose ``__init__`` does more than store its arguments (:func:`_settable_twin`).

    Why: attrs' frozen ``__init__`` stores each field through a bound ``object.__setattr__`` call; the
    engine builds one :class:`Event` per event (issue 16, session 11: 12 against 4 k instructions)."""
    twin = _settable_twin(cls, "Built")
    if twin is None:
        return None
    names = [f.name for f in attrs.fields(cls)]
    lines = [f"def build({', '.join(names)}):", "    new = _new(_twin)"]
    lines += [f"    new.{name} = {name}" for name in names]
    lines += ["    new.__class__ = _cls", "    return new"]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin}
    exec("\n".join(lines), namespace)  # noqa: S102 - source built only from the class's own field names
    builder: Callable[..., Any] = namespace["build"]
    return builder


def make_replacer(cls: type, *names: str) -> Callable[..., Any]:
    """A function ``replace(inst, *values)``: ``evolve(inst, dict(zip(names, values)))`` for a fixed set of
    field ``names`` of the frozen slotted attrs class ``cls``, generated once: every other field copied,
    the named ones stored from the arguments. For a class :func:`_make_copier` refuses, or a name that
    is not one of its fields, the function calls ``attrs.evolve`` (which refuses an unknown name).

    Why: :func:`evolve` learns which fields change from a dict on every call (a set made of its keys and a
    bound ``object.__setattr__`` per change), about 3.5 k of the 6 k a ``Combatant``'s copy cost; a caller
    that always changes the same fields (core's fold of a GM ``adjust``) names them once (issue 16,
    session 12; tests/test_model_evolve.py compares it with ``attrs.evolve``)."""
    fields = attrs.fields(cls)
    field_names = {f.name for f in fields}
    twin = _settable_twin(cls, "Replaced") if all(f.init for f in fields) else None
    params = [f"_v{i}" for i in range(len(names))]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_twin": twin, "_slow": attrs.evolve,
                                 "_names": names}
    if twin is None or not set(names) <= field_names or len(set(names)) != len(names):
        lines = [f"def replace(inst, {', '.join(params)}):",
                 f"    return _slow(inst, **dict(zip(_names, ({', '.join(params)},))))"]
    else:
        given = dict(zip(names, params))
        lines = [f"def replace(inst, {', '.join(params)}):", "    new = _new(_twin)"]
        lines += [f"    new.{f.name} = {given.get(f.name, 'inst.' + f.name)}" for f in fields]
        lines += ["    new.__class__ = _cls", "    return new"]
    exec("\n".join(lines), namespace)  # noqa: S102 - source built only from the class's own field names
    replace: Callable[..., Any] = namespace["replace"]
    return replace


def evolve(inst: Any, changes: Mapping[str, Any]) -> Any:
    """``attrs.evolve(inst, **changes)`` for the frozen slotted classes the rules fold on every event,
    about nine times cheaper (issue 16: 1.7 against 15 us for a 51-field GURPS ``Condition``, same
    sitting): the fields are stored straight into a new instance (:func:`_make_copier`) instead of
    going through ``__init__`` with every field as a keyword. The result is equal, field for field,
    to ``attrs.evolve``'s (the classes it accepts store their arguments unchanged); any other class,
    or an unknown field, goes to ``attrs.evolve`` itself (tests/test_model_evolve.py)."""
    cls = type(inst)
    try:
        copier = _COPIERS[cls]
    except KeyError:
        copier = _COPIERS[cls] = _make_copier(cls)
    if copier is None:
        return attrs.evolve(inst, **changes)
    return copier(inst, changes)


@attrs.frozen
class DiceRequest:
    """How many dice of which size, and why (the purpose shows in the roll record)."""

    count: int
    sides: int
    purpose: str


class DiceSource(Protocol):
    """Where dice faces come from; ``decide`` writes whatever it returns into events."""

    def roll(self, request: DiceRequest) -> tuple[int, ...]: ...


@attrs.frozen
class Principal:
    """Who a command acts for, as the rules see it: whether it is the GM, which
    combatants it controls, and the name the audit text gives it.

    Why not the seat's role: a ruleset must not know how the server seats people
    (GM, player, spectator links); it only asks "may this one act for X?". The
    mapping from a seat to its principal is :meth:`of_seat`, used at the edge.
    ``seat_id`` is what the log records as the event's actor.
    """

    seat_id: str
    is_gm: bool = False
    combatants: tuple[str, ...] = ()
    label: str = ""  # how people know the seat ("Alice's player"); the audit text uses it
    read_only: bool = False  # a watcher: may send no command at all

    @classmethod
    def of_seat(cls, seat_id: str, role: str, combatants: tuple[str, ...] = (), label: str = "") -> "Principal":
        """The principal of a seat with this role (``gm``, ``player``, ``spectator``, ``system``)."""
        if role not in ROLES:
            raise ValueError(f"unknown seat role {role!r}")
        return cls(seat_id, role in ("gm", "system"), tuple(combatants), label, role == "spectator")

    @property
    def display(self) -> str:
        return self.label or self.seat_id

    def controls(self, combatant_id: str) -> bool:
        return self.is_gm or combatant_id in self.combatants


GM_ACTOR = Principal(seat_id="gm", is_gm=True)
SYSTEM_ACTOR = Principal(seat_id="system", is_gm=True)


@attrs.frozen
class Command:
    """What a client asks for. ``args`` is the validated JSON body of the command."""

    type: str
    args: Mapping[str, JSON] = attrs.field(factory=dict)
    actor: Principal = GM_ACTOR
    command_id: str = ""


@attrs.frozen
class EventDraft:
    """An event as ``decide`` returns it, before the store gives it a seq and hash."""

    type: str
    payload: Mapping[str, JSON] = attrs.field(factory=dict)
    #: The state the draft was decided on and the state after it, when whoever drafted it already folded
    #: it (the kit's ``Batch``): the engine then reuses ``after`` instead of folding the event again
    #: (issue 16, fold once). Not part of the draft's value.
    before: "FightState | None" = attrs.field(default=None, eq=False, repr=False)
    after: "FightState | None" = attrs.field(default=None, eq=False, repr=False)
    #: Whether ``payload`` is plain JSON already, exactly what ``canonical.plain_json`` would copy it into
    #: (exact dicts with string keys, lists, scalars): said by whoever drafted it (core's ``adjust``), so
    #: the engine does not copy it again (issue 16, session 11). A draft with ``after`` is plain too (the
    #: kit's ``Batch`` made it so). Not part of the draft's value.
    plain: bool = attrs.field(default=False, eq=False, repr=False, kw_only=True)

    @staticmethod
    def plain_draft(type: str, payload: Mapping[str, JSON]) -> "EventDraft":
        """``EventDraft(type, payload, plain=True)``, built without attrs' frozen ``__init__`` (:func:`make_builder`).

        Why: that ``__init__`` stores each of the five fields through a bound ``object.__setattr__`` call,
        about 6 k instructions of the GM ``adjust``'s 34 k decision (issue 16, session 12;
        tests/test_model_evolve.py compares the two)."""
        draft: EventDraft = _DRAFT_BUILDER(type, payload, None, None, True)
        return draft


@attrs.frozen
class Event:
    """An immutable fact of the fight's log."""

    fight_id: str
    seq: int
    type: str
    payload: Mapping[str, JSON]
    actor: str
    command_id: str
    recorded_at: str
    ruleset_version: str
    prev_hash: str
    hash: str
    #: ``canonical_json(payload)``, when whoever made the event already wrote it (the engine, hashing it:
    #: ``canonical.event_hash``, through :meth:`with_payload_text`); the store writes it as the row's
    #: payload instead of writing it again (issue 16). Not part of the event's value, and not an
    #: ``__init__`` argument, so a copy (``attrs.evolve``, maybe with another payload) never carries it.
    payload_text: str | None = attrs.field(default=None, eq=False, repr=False, init=False)

    def with_payload_text(self, text: str) -> "Event":
        """This event, carrying ``text`` (which must be ``canonical_json(self.payload)``) for the store."""
        object.__setattr__(self, "payload_text", text)
        return self

    @staticmethod
    def made(fight_id: str, seq: int, type: str, payload: Mapping[str, JSON], actor: str, command_id: str,
             recorded_at: str, ruleset_version: str, prev_hash: str, hash: str, payload_text: str) -> "Event":
        """``Event(...).with_payload_text(payload_text)``, built without attrs' ``__init__`` (:func:`make_builder`:
        the engine makes one event per event, issue 16, session 11; tests/test_model_evolve.py)."""
        event: Event = _EVENT_BUILDER(fight_id=fight_id, seq=seq, type=type, payload=payload, actor=actor,
                                      command_id=command_id, recorded_at=recorded_at, ruleset_version=ruleset_version,
                                      prev_hash=prev_hash, hash=hash, payload_text=payload_text)
        return event

    def canonical(self) -> dict[str, JSON]:
        """The part covered by the hash (everything but the hashes themselves)."""
        return {
            "fight_id": self.fight_id,
            "seq": self.seq,
            "type": self.type,
            "payload": self.payload,
            "actor": self.actor,
            "command_id": self.command_id,
            "recorded_at": self.recorded_at,
            "ruleset_version": self.ruleset_version,
        }

    def to_dict(self) -> dict[str, JSON]:
        out = self.canonical()
        out["prev_hash"] = self.prev_hash
        out["hash"] = self.hash
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, JSON]) -> "Event":
        return cls(
            fight_id=str(data["fight_id"]),
            seq=int(data["seq"]),
            type=str(data["type"]),
            payload=dict(data["payload"]),
            actor=str(data["actor"]),
            command_id=str(data["command_id"]),
            recorded_at=str(data["recorded_at"]),
            ruleset_version=str(data["ruleset_version"]),
            prev_hash=str(data["prev_hash"]),
            hash=str(data["hash"]),
        )


def _slow_event(payload_text: str, **fields: Any) -> Event:
    """What :meth:`Event.made` does when :func:`make_builder` cannot build an :class:`Event` directly."""
    return Event(**fields).with_payload_text(payload_text)


#: :meth:`Event.made`'s builder (called with every field by name).
_EVENT_BUILDER: Callable[..., Event] = make_builder(Event) or _slow_event


def _slow_draft(type: str, payload: Mapping[str, JSON], before: None, after: None, plain: bool) -> EventDraft:
    """What :meth:`EventDraft.plain_draft` does when :func:`make_builder` cannot build an :class:`EventDraft`."""
    return EventDraft(type, payload, before, after, plain=plain)


#: :meth:`EventDraft.plain_draft`'s builder (called with every field, in ``attrs.fields`` order).
_DRAFT_BUILDER: Callable[..., EventDraft] = make_builder(EventDraft) or _slow_draft


@attrs.frozen
class Prompt:
    """Something the fight waits for, naming who must answer.

    ``combatant`` is the combatant whose seat answers (the GM may always answer on
    its behalf); ``None`` means the GM. Which prompts the server answers by itself
    (unless the fight uses manual dice) is the ruleset's ``auto_answer``.
    """

    id: str
    kind: str
    combatant: str | None
    text: str
    options: Mapping[str, JSON] = attrs.field(factory=dict)


@attrs.frozen
class Combatant:
    """A character sheet (ruleset-specific, validated) plus its live condition."""

    id: str
    name: str
    side: str  # "pc" or "npc"
    sheet: Any
    condition: Any
    hidden: bool = False


def combatant_or_none(state: "FightState", combatant: Combatant) -> tuple[str, ...]:
    """An :data:`ADJUSTABLE_TO` domain: a combatant id of this fight, or "" (none)."""
    return ("", *state.combatants)


def names_or_none(load: Callable[[], Any]) -> Callable[["FightState", Combatant], frozenset[str]]:
    """An :data:`ADJUSTABLE_TO` domain of a rules table's names, or "" (none), read from ``load()`` the first time
    a GM adjusts the field: the table's module imports the condition's, so the condition's cannot import it."""
    names: list[frozenset[str]] = []

    def domain(state: "FightState", combatant: Combatant) -> frozenset[str]:
        if not names:
            names.append(frozenset(("", *load())))
        return names[0]

    return domain


@attrs.frozen
class FightState:
    """The pure fold of a fight's effective events."""

    fight_id: str
    ruleset: str
    ruleset_version: str
    options: Mapping[str, JSON]
    dice_mode: str
    title: str = ""
    seq: int = 0
    status: str = "setup"  # setup -> active -> ended
    combatants: Mapping[str, Combatant] = attrs.field(factory=dict)
    combat: Any = None
    prompts: tuple[Prompt, ...] = ()
    notes: tuple[str, ...] = ()
    undone: tuple[int, ...] = ()
    turn_start_seq: int = 0
    ended_reason: str = ""

    def combatant(self, combatant_id: str) -> Combatant:
        try:
            return self.combatants[combatant_id]
        except KeyError:
            raise reject("combatant/unknown", f"no combatant {combatant_id!r} in this fight") from None

    def with_combatant(self, combatant: Combatant) -> "FightState":
        combatants = dict(self.combatants)
        combatants[combatant.id] = combatant
        new: FightState = evolve(self, {"combatants": combatants})
        return new

    def with_condition(self, combatant_id: str, **changes: Any) -> "FightState":
        c = self.combatants[combatant_id]
        return self.with_combatant(evolve(c, {"condition": evolve(c.condition, changes)}))
