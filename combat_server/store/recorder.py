"""What the engine and the server need of a store, as protocols (issue 16, a narrow recorder): the
engine depends on :class:`Recorder` (append with an expected seq, events after a seq, control
events, command records, snapshots) and :class:`SeatDirectory`, not on :class:`SqlStore`, and
catches only the store errors of :mod:`combat_server.errors` (``store/conflict``,
``store/unavailable``, ``store/corrupt``, ...): whatever driver runs underneath, its errors are
translated by the store before they reach either.
"""

from __future__ import annotations

from typing import Iterator, Protocol, Sequence

import attrs

from combat_server.rules.model import JSON, Event


@attrs.frozen
class FightRow:
    fight_id: str
    ruleset: str
    ruleset_version: str
    title: str
    created_at: str
    last_seq: int


@attrs.frozen
class SeatRow:
    fight_id: str
    seat_id: str
    role: str
    label: str
    combatants: tuple[str, ...]
    token_hash: str


class Recorder(Protocol):
    """The fight log: append-only, one transaction per method, driver errors translated."""

    @property
    def dialect(self) -> str:
        """The database's name (``sqlite``, ``postgresql``): how the server schedules engine calls."""

    @property
    def url(self) -> str: ...

    def create_fight(self, first: Event, ruleset: str, title: str, seats: Sequence[SeatRow] = ()) -> None: ...

    def fight(self, fight_id: str) -> FightRow: ...

    def fights(self) -> list[FightRow]: ...

    def append(self, fight_id: str, expected_seq: int, events: Sequence[Event], command_id: str, actor: str,
               digest: str | None = None) -> None:
        """Append atomically iff the log still ends at ``expected_seq``; else ``store/conflict``."""

    def import_events(self, events: Sequence[Event], ruleset: str, title: str) -> None: ...

    def events(self, fight_id: str, after: int = 0, upto: int | None = None) -> list[Event]: ...

    def events_page(self, fight_id: str, after: int, upto: int, limit: int) -> list[Event]: ...

    def iter_events(self, fight_id: str, batch: int = 2000, upto: int | None = None) -> Iterator[Event]: ...

    def control_events(self, fight_id: str, after: int = 0) -> list[Event]: ...

    def command_record(self, fight_id: str, command_id: str) -> tuple[int, int, str | None] | None: ...

    def command_range(self, fight_id: str, command_id: str) -> tuple[int, int] | None: ...

    def commands_last_seq(self, fight_id: str) -> int: ...

    def log_ends(self, fight_id: str) -> tuple[int, int]: ...

    def save_snapshot(self, fight_id: str, seq: int, ruleset_version: str, state: dict[str, JSON],
                      event_hash: str | None = None) -> None: ...

    def save_snapshot_text(self, fight_id: str, seq: int, ruleset_version: str, canonical: bytes,
                           event_hash: str | None = None) -> None: ...

    def snapshots(self, fight_id: str, ruleset_version: str,
                  upto: int | None = None) -> list[tuple[int, dict[str, JSON]]]: ...

    def snapshot_seqs(self, fight_id: str) -> list[tuple[int, str]]: ...

    def checked_snapshot(self, fight_id: str, seq: int) -> tuple[dict[str, JSON], str] | None: ...


class SeatDirectory(Protocol):
    """Who sits at which fight: seats by token hash (the token itself is never stored)."""

    def add_seat(self, seat: SeatRow, created_at: str) -> None: ...

    def replace_tokens(self, fight_id: str, token_hashes: dict[str, str]) -> None: ...

    def seat_by_token_hash(self, token_hash: str) -> SeatRow | None: ...

    def seats(self, fight_id: str) -> list[SeatRow]: ...


class Store(Recorder, SeatDirectory, Protocol):
    """A recorder that is also the seat directory (both SQL stores): what the engine is given."""


__all__ = ["Recorder", "SeatDirectory", "Store", "FightRow", "SeatRow"]
