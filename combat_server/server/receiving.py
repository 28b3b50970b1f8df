"""A client's whole text messages handed to its session as they are parsed (issue 16, server CPU).

The session's websockets connection; :mod:`combat_server.receiving_text` (shared with the client) says
how a whole text message is offered to ``take_text`` and why order is kept. :func:`start` and
:class:`Started` run a message's effects without a task switch until one has to wait.
"""

from __future__ import annotations

import asyncio
from types import CoroutineType
from typing import Any, Awaitable, Coroutine, Generator

from combat_server.receiving_text import OffersWholeText, Reads
from combat_server.server.httpbody import BodyAwareConnection

__all__ = ["LOCK_IS_PLAIN", "ReceivingConnection", "Reads", "Started", "start", "take_free_lock"]


class ReceivingConnection(OffersWholeText, BodyAwareConnection):
    """websockets' server connection (with :class:`BodyAwareConnection`'s HTTP answers) that offers whole
    text messages to ``take_text`` before queueing them for ``recv`` (:mod:`combat_server.receiving_text`),
    and tells ``reads`` (:class:`Reads`, the server) around each read of its socket."""


class Started:
    """The rest of a coroutine that was started by hand (``coro.send(None)``) and yielded ``first``,
    what it waits for: awaiting this finishes it in the awaiting task, as ``await coro`` would have
    (PEP 380's ``yield from``, written out). How a session runs a request's effects without a task
    switch when none of them has to wait (``app.Session.take_text``)."""

    __slots__ = ("coro", "first")

    def __init__(self, coro: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coro = coro
        self.first = first

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, waited = self.coro, self.first
        while True:
            try:
                sent = yield waited
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # a cancellation of the awaiting task, passed on
                try:
                    waited = coro.throw(exc)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waited = coro.send(sent)
                except StopIteration as done:
                    return done.value


def start(awaitable: Awaitable[Any]) -> tuple[bool, Any]:
    """Run a coroutine up to its first wait: ``(True, its result)`` if it finished without waiting (its
    exception raised), else ``(False, Started)`` to await for the rest.

    Until that first wait the coroutine runs outside any task (``asyncio.current_task()`` is ``None``):
    an effect the session starts this way must not enter ``asyncio.timeout()`` (nor, from Python 3.12,
    ``asyncio.wait_for``, built on it) before it first waits; none does today
    (tests/server/test_receiving.py checks the session's awaited effects for them)."""
    # A native coroutine (every effect's) by its type first: the ABC's isinstance is the slow way to say so.
    coro = awaitable if type(awaitable) is CoroutineType or isinstance(awaitable, Coroutine) else _wrap(awaitable)
    try:
        waited = coro.send(None)
    except StopIteration as done:
        return True, done.value
    return False, Started(coro, waited)


async def _wrap(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


#: asyncio's lock keeps its state in ``_locked`` and ``_waiters`` (CPython 3.11 to 3.13), which
#: :func:`take_free_lock` reads; ``False`` otherwise, and then every lock is taken through ``acquire()``.
LOCK_IS_PLAIN = all(hasattr(asyncio.Lock(), name) for name in ("_locked", "_waiters"))


def take_free_lock(lock: asyncio.Lock) -> bool:
    """Take ``lock`` here and now if it is free and nobody waits for it (``True``), which is ``acquire()``'s
    first case; else ``False``, the lock untouched, and ``acquire()`` decides (it waits, or takes a free lock
    whose waiters were all cancelled).

    Why (issue 16, server CPU): every command takes its fight's lock (``connection.Lock``), almost always
    free; through ``acquire()`` that was a coroutine made, started by :func:`start`, and finished by a
    ``StopIteration``, about 4 k instructions. tests/server/test_receiving.py checks this against
    ``acquire()`` in every state a lock can be in."""
    if LOCK_IS_PLAIN and not lock._locked and not lock._waiters:  # type: ignore[attr-defined]
        lock._locked = True  # type: ignore[attr-defined]
        return True
    return False
