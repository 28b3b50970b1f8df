"""The interface every ruleset implements, and the registry by name and version.

The engine only knows this surface: sheets and conditions (validated and built
by the ruleset), ``decide`` (command -> event drafts, may raise ``Rejected``),
``apply`` (event -> state, never re-validates), ``explain`` (event -> one sentence).
"""

from __future__ import annotations

import abc
from typing import Any, ClassVar, Mapping

from combat_server.errors import reject
from combat_server.rules.model import JSON, Command, DiceSource, Event, EventDraft, FightState


class Ruleset(abc.ABC):
    name: ClassVar[str]
    version: ClassVar[str]
    sheet_type: ClassVar[type]
    condition_type: ClassVar[type]
    combat_type: ClassVar[type | None] = None
    #: per-fight options with their defaults; unknown options are refused.
    default_options: ClassVar[Mapping[str, JSON]] = {}
    #: command types this ruleset decides (beyond the core ones).
    command_types: ClassVar[frozenset[str]] = frozenset()

    def validate_options(self, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        unknown = sorted(set(raw) - set(self.default_options))
        if unknown:
            raise reject(
                "fight/unknown_option",
                f"unknown option(s) for ruleset {self.name}: {', '.join(unknown)}",
                known=sorted(self.default_options),
            )
        options = dict(self.default_options)
        for key, value in raw.items():
            default = self.default_options[key]
            if type(value) is not type(default):
                raise reject(
                    "fight/bad_option",
                    f"option {key!r} must be a {type(default).__name__}, got {value!r}",
                )
            options[key] = value
        return options

    @abc.abstractmethod
    def validate_sheet(self, raw: Mapping[str, JSON]) -> Any:
        """Turn a client's sheet JSON into the ruleset's sheet, or raise ``sheet/...``."""

    @abc.abstractmethod
    def sheet_to_json(self, sheet: Any) -> dict[str, JSON]:
        """The normalized sheet as stored in ``combatant_added`` events."""

    @abc.abstractmethod
    def new_condition(self, sheet: Any) -> Any:
        """The live condition of a fresh combatant (full HP, standing, ...)."""

    @abc.abstractmethod
    def decide(self, state: FightState, command: Command, dice: DiceSource) -> list[EventDraft]:
        """Validate a ruleset command against the state and return its events."""

    @abc.abstractmethod
    def apply(self, state: FightState, event: Event) -> FightState:
        """Fold one ruleset event (and react to core events if needed)."""

    def after_core(self, state: FightState, event: Event) -> FightState:
        """Hook after a core event was folded (e.g. a combatant joins the sequence)."""
        return state

    #: Per ruleset command, its fields; any other is refused (core.refuse_unknown), and a command
    #: listed in ``command_types`` but not here accepts no fields.
    command_fields: ClassVar[Mapping[str, frozenset[str]]] = {}

    def follow_up(self, state: FightState, dice: DiceSource) -> list[EventDraft]:
        """The ruleset's automatic steps after a core command changed the fight (``state``: after it).

        Why: a GM removing the combatant whose turn it is, or knocking it out with
        an adjustment, must not leave the turn sequence waiting for someone who
        cannot act; the ruleset moves the fight on exactly as after its own commands.
        """
        return []

    def explain(self, state_before: FightState, event: Event, hidden: frozenset[str] = frozenset()) -> str | None:
        """One readable sentence citing rule ids, or ``None`` to use the core text.

        ``hidden``: combatants whose sheets the reader may not see; their numbers
        (skills, modifiers, targets, margins, DR, HP, ...) are left out.
        """
        return None

    def view_combatant(self, state: FightState, combatant_id: str) -> dict[str, JSON]:
        """Derived, effective numbers of a combatant for clients (not folded state)."""
        return {}


_REGISTRY: dict[tuple[str, str], Ruleset] = {}
_LATEST: dict[str, str] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _REGISTRY[(ruleset.name, ruleset.version)] = ruleset
    current = _LATEST.get(ruleset.name)
    if current is None or _version_key(ruleset.version) > _version_key(current):
        _LATEST[ruleset.name] = ruleset.version
    return ruleset


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split("."))


def get_ruleset(name: str, version: str | None = None) -> Ruleset:
    """The ruleset pinned by a fight; a stored fight keeps its version forever."""
    _load_builtin()
    if version is None:
        if name not in _LATEST:
            raise reject("fight/unknown_ruleset", f"unknown ruleset {name!r}", known=sorted(_LATEST))
        version = _LATEST[name]
    try:
        return _REGISTRY[(name, version)]
    except KeyError:
        raise reject(
            "fight/unknown_ruleset", f"ruleset {name!r} has no version {version!r}", known=sorted(_LATEST)
        ) from None


def known_rulesets() -> dict[str, str]:
    _load_builtin()
    return dict(_LATEST)


def _load_builtin() -> None:
    if not _REGISTRY:
        import combat_server.rules.gurps  # noqa: F401  (registers itself)
