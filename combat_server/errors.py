"""One error tree with stable codes.

    CombatError                      every error we raise on purpose
    +-- Rejected                     the client asked for something invalid
    |                                (code like ``command/not_your_turn``)
    +-- StoreError                   the store refused (``store/...``)
    |   +-- Conflict                 another writer appended first
    |   +-- UnknownFight             no such fight id
    |   +-- MigrationMissing         the database schema is not at head
    +-- IntegrityFailure             the log does not verify (``verify/...``)
    +-- InvariantBroken              we broke an invariant: a bug, never the client

Codes are stable strings: clients and tests match on them, messages are for humans.
"""

from __future__ import annotations

from typing import Any


class CombatError(Exception):
    """Base of every error raised on purpose, with a stable ``code``."""

    code: str = "error"

    def __init__(self, code: str | None, message: str, **details: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            out["details"] = self.details
        return out

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Rejected(CombatError):
    """The command or input is invalid; nothing was appended."""


class StoreError(CombatError):
    code = "store/error"


class Conflict(StoreError):
    """Optimistic concurrency: the expected last seq was not the real one."""

    code = "store/conflict"


class StoreUnavailable(StoreError):
    """The database could not be reached or dropped the connection: the driver's error, translated
    by the store (issue 16) so that nothing above it knows the driver. Nothing was appended."""

    code = "store/unavailable"


class UnknownFight(StoreError):
    code = "fight/unknown"


class Corrupt(StoreError):
    """What the store holds for a fight fails its hash chain or cannot be read (``details.seq``
    names the first bad event): the fight is refused, never served or appended to (#15 item 6)."""

    code = "store/corrupt"


class MigrationMissing(StoreError):
    code = "store/migration_missing"


class IntegrityFailure(CombatError):
    """The stored log does not verify; ``details['seq']`` is the first bad seq."""

    code = "verify/failed"


class InvariantBroken(CombatError):
    """A bug of ours: state and events disagree in a way the rules forbid."""

    code = "internal/invariant"


def reject(code: str, message: str, **details: Any) -> Rejected:
    """Build a :class:`Rejected` (``raise reject(...)`` reads like the rule)."""
    return Rejected(code, message, **details)
