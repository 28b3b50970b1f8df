"""Reading a connection's client messages, sans I/O (issue 16): rate, size, decoding and schema
checks as a plain object fed raw frames and the time, answering what to do with each: hand the
message to its handler, refuse it with an error, or close the connection; and, once the handler
returned or raised, what to answer (:meth:`Inbound.answer`: the reply with its ``ref``, or the error
its exception means, and whether the fight's cached state must be dropped). ``connection.Connection``
runs it before and after each request's handler; everything here is tested with a hand-set clock, no
sockets and no sleeping.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from combat_server.errors import CombatError, StoreUnavailable
from combat_server.server.protocol import (
    CLOSE_FLOODING, ProtocolError, error_message, peek_ref, read_client_message, reply_ref,
    validate_client_message,
)

#: The flood count starts again after this many seconds without a rate-limited message.
FLOOD_QUIET = 1.0


@attrs.define
class RateLimiter:
    """A token bucket (``rate`` per second, ``burst`` at once) that also counts the messages it turned
    away until a quiet second passes: ``flooding`` once that count reaches ``flood_close``."""

    rate: float
    burst: int
    flood_close: int
    tokens: float
    refilled: float
    limited: int = 0
    last_limited: float = float("-inf")

    @classmethod
    def starting(cls, rate: float, burst: int, flood_close: int, now: float) -> "RateLimiter":
        return cls(rate, burst, flood_close, float(burst), now)

    def allow(self, now: float) -> bool:
        self.tokens = min(float(self.burst), self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        # A message let through does not reset the count (at the refill rate one always is):
        # only a quiet second does, so a client that keeps ignoring the limit is closed.
        if now - self.last_limited > FLOOD_QUIET:
            self.limited = 0
        self.limited += 1
        self.last_limited = now
        return False

    @property
    def flooding(self) -> bool:
        return self.limited >= self.flood_close


@attrs.frozen
class Accept:
    """A valid message for its handler; ``ref`` is echoed in the reply."""

    message: dict[str, Any]
    ref: str | None


@attrs.frozen
class Refuse:
    """Send this error (the message is dropped; the connection stays open)."""

    error: CombatError
    ref: str | None


@attrs.frozen
class Close:
    """Close the connection with this code (nothing is sent before the close frame)."""

    code: int


@attrs.frozen
class Answer:
    """What to send for an accepted message once its handler is done (``None``: nothing, the handler
    sent its own), and what the connection must do besides: ``forget_fight`` drop the engine's cached
    state of its fight (the store failed mid-command), ``log`` an event name for the server's log
    (``internal_error``: with the traceback)."""

    message: dict[str, Any] | None
    forget_fight: bool = False
    log: str | None = None


class Inbound:
    """One connection's intake. ``clock`` gives seconds (monotonic); tests hand it a counter."""

    def __init__(self, *, rate: float, burst: int, flood_close: int, max_message: int,
                 clock: Callable[[], float]) -> None:
        self.clock = clock
        self.max_message = max_message
        self.limiter = RateLimiter.starting(rate, burst, flood_close, clock())

    def receive(self, raw: str | bytes) -> Accept | Refuse | Close:
        """What to do with one frame. Rate and size first, on the raw text: a flood or an oversized
        message costs no decoding."""
        if not self.limiter.allow(self.clock()):
            if self.limiter.flooding:
                return Close(CLOSE_FLOODING)
            ref = peek_ref(raw) if isinstance(raw, str) else None
            return Refuse(ProtocolError("rate/limited", retry_after_ms=int(1000 / self.limiter.rate) + 1), ref)
        if isinstance(raw, bytes):
            return Refuse(ProtocolError("protocol/binary"), None)
        if len(raw) > self.max_message:
            return Refuse(ProtocolError("protocol/too_big", f"messages are limited to {self.max_message} characters",
                                        limit=self.max_message), peek_ref(raw))
        try:
            message, plain = read_client_message(raw)
        except ProtocolError as exc:
            return Refuse(exc, peek_ref(raw))  # unreadable or too deep: echo a plain ref if there is one
        ref = reply_ref(message) if "ref" in message else None  # (the call only for a message with one)
        try:
            validate_client_message(message, raw, plain)
        except CombatError as exc:
            return Refuse(exc, ref)
        return Accept(message, ref)

    @staticmethod
    def answer(accepted: Accept, outcome: dict[str, Any] | None | BaseException) -> Answer:
        """The answer to ``accepted`` given what its handler returned (a reply, or ``None``) or raised.

        A refusal (:class:`CombatError`) is an ``error`` with its code, the ``ref`` and the
        ``command_id``; a store that is down is ``store/unavailable`` and drops the cached fight; any
        other exception is a bug: ``internal/error`` naming only its type, never a traceback.
        """
        ref, command_id = accepted.ref, accepted.message.get("command_id")
        if not isinstance(outcome, BaseException):
            if outcome is not None and ref is not None:
                outcome["ref"] = ref
            return Answer(outcome)
        if isinstance(outcome, StoreUnavailable):
            return Answer(error_message(ProtocolError("store/unavailable"), ref, command_id), forget_fight=True,
                          log="store_unavailable")
        if isinstance(outcome, CombatError):
            return Answer(error_message(outcome, ref, command_id))
        error = ProtocolError("internal/error", f"internal error: {type(outcome).__name__}")
        return Answer(error_message(error, ref, command_id), log="internal_error")


__all__ = ["Inbound", "RateLimiter", "Accept", "Refuse", "Close", "Answer", "FLOOD_QUIET"]
