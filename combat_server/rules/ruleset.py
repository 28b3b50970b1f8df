"""The interface every ruleset implements, and the registry by name and version
(filled from the ``combat_server.rulesets`` entry points: docs/rulesets.md).

The engine only knows this surface: sheets and conditions (validated and built
by the ruleset), ``decide`` (command -> event drafts, may raise ``Rejected``),
``apply`` (event -> state, never re-validates), ``explain`` (event -> one sentence).
"""

from __future__ import annotations

import abc
import importlib.metadata
import typing
from typing import Any, Callable, ClassVar, Generic, Iterable, Mapping

import attrs
from typing_extensions import TypeVar

from combat_server.errors import CombatError, reject
from combat_server.rules.commands import CommandSpec
from combat_server.rules.describe import Description, Field, Viewer, field_json
from combat_server.rules.kit.calculators import CalculatorSpec
from combat_server.rules.kit.events import EventSpec, Secret
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState, Prompt
from combat_server.rules.options import OptionSpec, check_specs, specs_from_defaults
from combat_server.rules.options import validate as validate_options
from combat_server.rules.rule_text import RuleText, rule_texts_json


#: A ruleset's own sheet, condition and combat types (#9). They default to ``Any``, so code
#: that serves any ruleset (engine, server, registry) writes plain ``Ruleset``, while a
#: ruleset states its own: ``class GurpsRuleset(Ruleset[Sheet, Condition, Combat])``.
SheetT = TypeVar("SheetT", default=Any)
ConditionT = TypeVar("ConditionT", default=Any)
CombatT = TypeVar("CombatT", default=Any)


class Ruleset(abc.ABC, Generic[SheetT, ConditionT, CombatT]):
    name: ClassVar[str]
    version: ClassVar[str]
    sheet_type: ClassVar[type]
    condition_type: ClassVar[type]
    combat_type: ClassVar[type | None] = None
    #: The commands this ruleset decides (beyond the core ones), by name (rules/commands.py).
    commands: ClassVar[Mapping[str, CommandSpec]] = {}
    #: The events this ruleset folds (beyond the core ones), one spec each (rules/kit/events.py):
    #: payload fields, fold, explanation and the fields a reader who may not see a sheet must not get.
    events: ClassVar[Mapping[str, EventSpec]] = {}
    #: The GM tools (#12): calculators by name (rules/kit/calculators.py), sent to clients in
    #: ``subscribed.tools``; run read-only with a ``calculate`` request, applied by a command of the ruleset.
    calculators: ClassVar[Mapping[str, CalculatorSpec]] = {}
    #: The command that applies a tool's harm to combatants (args ``tool``, ``inputs``, ``targets``), named in
    #: a ``calculation`` reply that has harm, so clients send it without knowing the ruleset ("": none).
    tool_apply_command: ClassVar[str] = ""

    # ----------------------------------------------------------------- hidden sheets (#9, server/views.py)
    #: Condition fields anyone at the table sees on a combatant whose sheet is hidden from them.
    visible_condition: ClassVar[tuple[str, ...]] = ()
    #: Fields of the fight's ``combat`` state (e.g. a pending attack) that reveal a hidden combatant's sheet.
    combat_secrets: ClassVar[tuple[Secret, ...]] = ()
    #: Fields of an open prompt (``who`` and ``within`` read in the prompt: ``options.feinter``, ``options``) that
    #: reveal the sheet of a hidden combatant other than the one the prompt is about (that one's prompt is
    #: redacted whole: ``hidden_prompt_text``).
    prompt_secrets: ClassVar[tuple[Secret, ...]] = ()
    #: Per prompt kind, the text a reader who may not see the combatant's sheet gets (``{name}``: its name).
    hidden_prompt_text: ClassVar[Mapping[str, str]] = {}

    # ----------------------------------------------------------------- options (#9)
    #: One spec per per-fight option (rules/options.py): validation and the clients' form come from them.
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: A ready-made fight to try the ruleset with (``welcome.rulesets[].demo``): ``title``, a ``note``
    #: for the log and ``combatants`` (each ``{id, name, side, sheet}``, as add_combatant takes them).
    demo: ClassVar[Mapping[str, JSON] | None] = None
    #: The defaults, derived from ``option_specs`` (a ruleset that declares only defaults gets plain specs).
    default_options: ClassVar[Mapping[str, JSON]] = {}
    #: A short explanation, in the project's own words, of each rule id the ruleset cites
    #: (rules/rule_text.py), sent in ``welcome.rulesets[].rule_texts``: clients open it from an id.
    rule_texts: ClassVar[Mapping[str, RuleText]] = {}

    # ----------------------------------------------------------------- what clients render (#13)
    #: What the GM's Adjust form and a ruling's override offer to set on a combatant's condition, one
    #: ``describe.Field`` each (label, help, rule id, bounds). Empty: every whole-number and true/false
    #: field of ``condition_type``, labelled by its name (``adjustable()``). The ``adjust`` command
    #: itself accepts any scalar condition field (core.adjustable_fields); this is what a form shows.
    adjust_fields: ClassVar[tuple[Field, ...]] = ()
    #: Event types that only keep the turn's books (a turn began or ended): a client may fold them away.
    quiet_events: ClassVar[frozenset[str]] = frozenset()
    #: How a client reads a roll record whose ``rule`` is the key, where "total vs target" (a roll under
    #: the target) would mislead: a line with ``{field}`` for each number, taken from the record, else the
    #: roll event's payload (a number the seat may not see reads as ``?``). SHELL: R = 2d10 + AT - DEF (S-25).
    roll_readings: ClassVar[Mapping[str, str]] = {}

    def adjustable(self) -> tuple[Field, ...]:
        """``adjust_fields``, or the condition's whole-number and true/false fields when none are declared."""
        if self.adjust_fields:
            return self.adjust_fields
        hints = typing.get_type_hints(self.condition_type)
        kinds = {int: "integer", bool: "boolean"}
        return tuple(Field(f.name, kinds[hints[f.name]], f.name.replace("_", " "))
                     for f in attrs.fields(self.condition_type) if hints[f.name] in kinds)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "option_specs" in cls.__dict__:
            check_specs(cls.__qualname__, cls.option_specs)
            cls.default_options = {spec.name: spec.default for spec in cls.option_specs}
        elif "default_options" in cls.__dict__:
            cls.option_specs = specs_from_defaults(cls.default_options)

    def validate_options(self, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        """Every option of a new fight, defaults filled in; ``fight/unknown_option``,
        ``fight/bad_option`` (naming the allowed values) or ``fight/option_conflict``."""
        return validate_options(self.name, self.option_specs, raw)

    @abc.abstractmethod
    def validate_sheet(self, raw: Mapping[str, JSON]) -> SheetT:
        """Turn a client's sheet JSON into the ruleset's sheet, or raise ``sheet/...``."""

    def sheet_schema(self) -> dict[str, JSON]:
        """The JSON Schema of ``validate_sheet``'s input, with titles and help, from which clients
        build a sheet editor (``welcome.rulesets[].sheet``). It must refuse nothing validate_sheet
        accepts that a client should offer, and validate_sheet must enforce every bound it states."""
        return {"type": "object"}

    @abc.abstractmethod
    def sheet_to_json(self, sheet: SheetT) -> dict[str, JSON]:
        """The normalized sheet as stored in ``combatant_added`` events."""

    @abc.abstractmethod
    def new_condition(self, sheet: SheetT) -> ConditionT:
        """The live condition of a fresh combatant (full HP, standing, ...)."""

    @abc.abstractmethod
    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        """Validate a ruleset command against the state and return its events."""

    @abc.abstractmethod
    def apply(self, state: FightState, event: Event) -> FightState:
        """Fold one ruleset event (and react to core events if needed)."""

    def after_core(self, state: FightState, event: Event) -> FightState:
        """Hook after a core event was folded (e.g. a combatant joins the sequence).

        ``state.seq`` is the event's after some core folds (``condition_adjusted`` sets it in the same copy,
        issue 16) and the one before it after others: a hook must not read it; the engine sets it last."""
        return state

    def follow_up(self, state: FightState, dice: DiceSource) -> list[EventDraft]:
        """The ruleset's automatic steps after a core command changed the fight (``state``: after it).

        Why: a GM removing the combatant whose turn it is, or knocking it out with
        an adjustment, must not leave the turn sequence waiting for someone who
        cannot act; the ruleset moves the fight on exactly as after its own commands.
        """
        return []

    def auto_answer(self, state: FightState, prompt: Prompt) -> Command | None:
        """The command that answers ``prompt`` when the server rolls the dice, or ``None`` if a person must.

        Why here: which prompts need no decision (GURPS: a ``roll`` prompt, the dice
        being the whole answer) is a rule. Unless the fight uses manual dice, the
        engine sends this command in the same batch, as the system principal with
        the triggering command's id.
        """
        return None

    def preview(self, state: FightState, command: Command) -> Mapping[str, JSON] | None:
        """What ``command`` would roll against before anyone rolls (the number, each modifier
        with its reason and rule id), or ``None`` if it makes no roll.

        Clients show it instead of re-implementing the modifiers. It must not roll,
        and must refuse an illegal command with the error the real one would get;
        the command already passed its spec (``check_command``).
        """
        return None

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        """One readable sentence citing rule ids, or ``None`` to use the core text.

        ``hidden``: combatants whose sheets the reader may not see; their numbers
        (skills, modifiers, targets, margins, DR, HP, ...) are left out.
        """
        return None

    def view_combatant(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        """Derived, effective numbers of a combatant for clients (not folded state). They depend on
        the combatant, the fight's options and :meth:`view_context` only (views are cached on those)."""
        return {}

    def view_context(self, state: FightState) -> object:
        """What else of the fight every combatant's view reads (a fight-wide condition such as
        GULLIVER's light level), compared with ``==``: the server recomputes the views when it
        changes. None: nothing else."""
        return None

    def tool_numbers(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        """The numbers a tool's ``prefill`` names for a combatant: its sheet, overlaid by its
        condition (current HP, FP, ...), overlaid by :meth:`view_combatant`.

        Why one lookup: the clients build the same map from the state they hold
        (``combatants[id].sheet``, ``.condition``, ``derived[id]``), so a form
        prefilled in the page and a ``calculate`` that names a combatant agree.
        """
        c = state.combatant(combatant_id)
        out: dict[str, JSON] = dict(self.sheet_to_json(c.sheet))
        condition = attrs.asdict(c.condition) if attrs.has(type(c.condition)) else {}
        out.update({k: v for k, v in condition.items() if isinstance(v, (int, float, str, bool))})
        out.update(self.view_combatant(state, combatant_id))
        return out

    @abc.abstractmethod
    def describe(self, state: FightState, viewer: Viewer) -> Description:
        """What ``viewer`` can do and see now, as data (rules/describe.py): its actions with their
        fields and choices, the prompts it must answer with ready-made answers, bars, badges and a
        line per combatant. Pure; a hidden combatant's numbers only for the GM and its controller."""


# --------------------------------------------------------------------------- registry
# Rulesets are plug-ins: each registers through the ``combat_server.rulesets`` entry-point
# group (this project's pyproject.toml registers ``gurps``), so this module imports none.
# Loading is all or nothing: one that fails to load, or two with the same name and version,
# stop ``serve`` with an error naming them (RulesetLoadError), never a half-known set.

ENTRY_POINT_GROUP = "combat_server.rulesets"

_REGISTRY: dict[tuple[str, str], Ruleset] = {}
_LATEST: dict[str, str] = {}
#: Where each registered (name, version) came from, for error messages.
_ORIGIN: dict[tuple[str, str], str] = {}
_loaded = False


class RulesetLoadError(CombatError):
    """The installed rulesets cannot all be loaded; ``details['problems']`` names each one."""

    code = "ruleset/load_failed"


def register(ruleset: Ruleset, origin: str = "") -> Ruleset:
    """Make ``ruleset`` known by its name and version (entry points do this; tests may too).

    The same class registered again is a no-op (one distribution seen twice on the
    path); another ruleset with the same name and version is refused.
    """
    key = (ruleset.name, ruleset.version)
    current = _REGISTRY.get(key)
    if current is not None:
        if type(current) is type(ruleset):
            return current
        raise RulesetLoadError(
            "ruleset/duplicate",
            f"ruleset {ruleset.name} {ruleset.version} is registered twice: "
            f"by {_ORIGIN.get(key) or type(current).__qualname__} and by {origin or type(ruleset).__qualname__}",
            problems=[f"{ruleset.name} {ruleset.version}"],
        )
    _check_identity(ruleset, origin)
    _forget_description()
    _REGISTRY[key] = ruleset
    _ORIGIN[key] = origin or f"{type(ruleset).__module__}.{type(ruleset).__qualname__}"
    latest = _LATEST.get(ruleset.name)
    if latest is None or _version_key(ruleset.version) > _version_key(latest):
        _LATEST[ruleset.name] = ruleset.version
    return ruleset


def _forget_description() -> None:
    global _DESCRIBED
    _DESCRIBED = None


def unregister(name: str, version: str) -> None:
    """Forget one ruleset (for tests that register their own and must leave the registry as found)."""
    _forget_description()
    _REGISTRY.pop((name, version), None)
    _ORIGIN.pop((name, version), None)
    versions = [v for n, v in _REGISTRY if n == name]
    if versions:
        _LATEST[name] = max(versions, key=_version_key)
    else:
        _LATEST.pop(name, None)


def _check_identity(ruleset: Ruleset, origin: str) -> None:
    name, version = getattr(ruleset, "name", None), getattr(ruleset, "version", None)
    where = origin or type(ruleset).__qualname__
    if not isinstance(name, str) or not name or not isinstance(version, str):
        raise RulesetLoadError(None, f"{where}: a ruleset needs a non-empty name and a version (strings)",
                               problems=[where])
    try:
        _version_key(version)
    except ValueError:
        raise RulesetLoadError(None, f"{where}: version {version!r} is not dotted numbers (e.g. 1.0)",
                               problems=[where]) from None


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


EntryPointSource = Callable[[], Iterable[Any]]


def _installed_entry_points() -> Iterable[Any]:
    return importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)


def load_rulesets(source: EntryPointSource = _installed_entry_points) -> dict[str, str]:
    """Load every ruleset the installed distributions register; raise :class:`RulesetLoadError`
    naming each entry point that fails and each name and version registered twice.

    An entry point names a :class:`Ruleset` subclass (instantiated without arguments) or
    instance. Idempotent: entry points already loaded are skipped. Returns
    :func:`known_rulesets`.
    """
    global _loaded
    problems: list[str] = []
    codes: set[str] = set()
    for ep in sorted(source(), key=lambda e: (e.name, e.value)):
        origin = _describe(ep)
        try:
            obj = ep.load()
            ruleset = obj() if isinstance(obj, type) and issubclass(obj, Ruleset) else obj
            if not isinstance(ruleset, Ruleset):
                raise TypeError(f"it names {obj!r}, not a Ruleset subclass or instance")
        except Exception as exc:  # a plug-in's import may fail in any way: name it, do not crash
            problems.append(f"{origin} failed to load: {type(exc).__name__}: {exc}")
            codes.add(RulesetLoadError.code)
            continue
        try:
            register(ruleset, origin)
        except RulesetLoadError as exc:
            problems.append(exc.message)
            codes.add(exc.code)
    if problems:  # not marked loaded: every later lookup raises the same error, never a partial set
        code = codes.pop() if len(codes) == 1 else RulesetLoadError.code
        raise RulesetLoadError(code, "the rulesets cannot be loaded: " + "; ".join(problems), problems=problems)
    _loaded = True
    return known_rulesets()


def _describe(ep: Any) -> str:
    dist = getattr(ep, "dist", None)
    where = f" of {dist.metadata['Name']} {dist.version}" if dist is not None else ""
    return f"entry point {ep.name} = {ep.value}{where}"


def _ensure_loaded() -> None:
    if not _loaded:
        load_rulesets()


def get_ruleset(name: str, version: str | None = None) -> Ruleset:
    """The ruleset pinned by a fight; a stored fight keeps its version forever."""
    _ensure_loaded()
    if version is None:
        if name not in _LATEST:
            raise reject("fight/unknown_ruleset", f"unknown ruleset {name!r}", known=sorted(_LATEST))
        version = _LATEST[name]
    try:
        return _REGISTRY[(name, version)]
    except KeyError:
        # ``known``: what the client could have asked for instead, here the ruleset's versions.
        versions = sorted(v for n, v in _REGISTRY if n == name)
        raise reject(
            "fight/unknown_ruleset", f"ruleset {name!r} has no version {version!r} (it has {', '.join(versions)})",
            known=versions,
        ) from None


def known_rulesets() -> dict[str, str]:
    """Each registered ruleset's name and its latest version."""
    _ensure_loaded()
    return dict(sorted(_LATEST.items()))


def registered_rulesets() -> list[Ruleset]:
    """Every registered ruleset, each version, by name then version."""
    _ensure_loaded()
    return [_REGISTRY[k] for k in sorted(_REGISTRY, key=lambda k: (k[0], _version_key(k[1])))]


#: :func:`rulesets_json` as last built, until a ruleset is registered or unregistered.
_DESCRIBED: list[dict[str, JSON]] | None = None


def rulesets_json() -> list[dict[str, JSON]]:
    """What clients are told of the rulesets (``welcome.rulesets``): per name, its latest
    version, every version, and the latest version's option specs, sheet schema, rule texts and demo fight.

    Built once and kept until the registry changes: every connection's welcome carries it (about
    100 kB, 0.4 ms to build), and a reconnecting crowd would build it once each. The same list is
    returned every time: callers must not change it."""
    global _DESCRIBED
    _ensure_loaded()
    if _DESCRIBED is None:
        _DESCRIBED = _describe_rulesets()
    return _DESCRIBED


def _describe_rulesets() -> list[dict[str, JSON]]:
    out: list[dict[str, JSON]] = []
    for name, latest in sorted(_LATEST.items()):
        versions: list[JSON] = [v for v in sorted((v for n, v in _REGISTRY if n == name), key=_version_key)]
        ruleset = _REGISTRY[(name, latest)]
        specs: list[JSON] = [spec.to_json() for spec in ruleset.option_specs]
        entry: dict[str, JSON] = {"name": name, "version": latest, "versions": versions, "options": specs,
                                   "sheet": ruleset.sheet_schema(),
                                   "adjust": [field_json(f) for f in ruleset.adjustable()],
                                   "rule_texts": rule_texts_json(ruleset.rule_texts),
                                   "quiet_events": sorted(ruleset.quiet_events),
                                   "roll_readings": dict(ruleset.roll_readings)}
        if ruleset.demo is not None:
            entry["demo"] = dict(ruleset.demo)
        out.append(entry)
    return out


def default_ruleset_name() -> str:
    """The ruleset of a ``create_fight`` that names none (clients written before there were
    several): the only registered ruleset; with several, the client must choose."""
    _ensure_loaded()
    if len(_LATEST) == 1:
        return next(iter(_LATEST))
    raise reject("fight/ruleset_required", "name the fight's ruleset: this server has "
                 + (", ".join(sorted(_LATEST)) or "none"), known=sorted(_LATEST))
