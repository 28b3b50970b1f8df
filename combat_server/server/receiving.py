"""A client's whole text messages handed to its session as they are parsed (issue 16, server CPU).

``websockets`` reads a connection's messages through a queue: the protocol (sans I/O) parses the
bytes into frames, the asyncio connection puts each data frame in its assembler, and the handler's
``recv`` wakes up in a later turn of the event loop to take it out, join and decode it. Per client
message that was a tenth of the server's Python work (docs/benchmarks.md) and a turn of the loop.

:class:`ReceivingConnection` keeps the library's protocol and connection, and with them every
check and behaviour they own: the frame parser's limits (``max_size``, 1009) and masking, pings
and pongs, the closing handshake, UTF-8 validity (1007), fragmented messages, flow control (reading
pauses while ``max_queue`` frames wait). One thing is added: a whole (FIN) text frame that decodes
as UTF-8 is offered to the connection's :attr:`~ReceivingConnection.take_text` first, which
handles it at once if its reader is idle; anything it declines, and every other frame, goes the
library's way to ``recv``. The reader says it is idle only while its ``recv`` waits with nothing
queued, and :meth:`ReceivingConnection.process_event` tells it (:attr:`left_to_recv`) as soon as a
data frame went the library's way, so messages are handled in the order they arrived.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable, Coroutine, Generator

from websockets.frames import Frame, Opcode
from websockets.protocol import Event

from combat_server.server.httpbody import BodyAwareConnection

__all__ = ["ReceivingConnection", "Started", "start"]


class ReceivingConnection(BodyAwareConnection):
    """websockets' server connection (with :class:`BodyAwareConnection`'s HTTP answers) that offers whole
    text messages to :attr:`take_text` before queueing them for ``recv``."""

    #: Handles one whole text message now, or returns ``False`` to leave it to ``recv`` (``None``: always).
    take_text: Callable[[str], bool] | None = None
    #: Called when a data frame was queued for ``recv`` (the reader is no longer idle).
    left_to_recv: Callable[[], None] | None = None

    def process_event(self, event: Event) -> None:
        take = self.take_text
        if take is not None and type(event) is Frame:
            if event.opcode is Opcode.TEXT and event.fin:
                try:
                    text = bytes(event.data).decode()
                except UnicodeDecodeError:
                    pass  # recv decodes it again and fails the connection (1007), as the library does
                else:
                    if take(text):
                        return
            if event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT) and self.left_to_recv is not None:
                self.left_to_recv()
        super().process_event(event)


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
    coro = awaitable if isinstance(awaitable, Coroutine) else _wrap(awaitable)
    try:
        waited = coro.send(None)
    except StopIteration as done:
        return True, done.value
    return False, Started(coro, waited)


async def _wrap(awaitable: Awaitable[Any]) -> Any:
    return await awaitable
