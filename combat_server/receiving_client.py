"""Whole text messages handed to a :class:`~combat_server.client.CombatClient` as they are parsed
(issue 16, the clients' latency and CPU).

``websockets`` reads a connection's messages through a queue: the protocol (sans I/O) parses the
bytes into frames (permessage-deflate already undone: extensions decode a frame as it is parsed),
the asyncio connection puts each data frame in its assembler, and the reader's ``recv`` wakes up in
a later turn of the event loop to take it out, join and decode it. A client process that follows
several seats pays that per push, and the last seat's push waits for the turns of the ones before it.

:class:`ReceivingClientConnection` keeps the library's protocol and connection, and with them every
check and behaviour they own: the frame parser's limit (``max_size``, 1009), pings and pongs, the
closing handshake, UTF-8 validity (1007), fragmented and binary messages, flow control (reading
pauses while ``max_queue`` frames wait). One thing is added: a whole (FIN) text frame that decodes
as UTF-8 is offered to :attr:`~ReceivingClientConnection.take_text` first, which handles it at once
if its reader is idle; anything it declines, and every other frame, goes the library's way to
``recv``. The reader says it is idle only while its ``recv`` waits with nothing queued, and
:meth:`ReceivingClientConnection.process_event` tells it (:attr:`~ReceivingClientConnection.left_to_recv`)
as soon as a data frame went the library's way, so messages are handled in the order they arrived.

The server does the same for the messages it reads (``combat_server.server.receiving``); this module
is the client's own so that the client imports nothing of the server.
"""

from __future__ import annotations

from typing import Callable

from websockets.asyncio.client import ClientConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import Event

__all__ = ["ReceivingClientConnection"]

_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class ReceivingClientConnection(ClientConnection):
    """websockets' client connection that offers whole text messages to :attr:`take_text` before
    queueing them for ``recv``. Without :attr:`take_text` (before a reader sets it, after it left)
    it is the library's connection, frame for frame."""

    #: Handles one whole text message now, or returns ``False`` to leave it to ``recv`` (``None``: always).
    take_text: Callable[[str], bool] | None = None
    #: Called when a data frame was queued for ``recv`` (the reader is no longer idle).
    left_to_recv: Callable[[], None] | None = None

    def process_event(self, event: Event) -> None:
        take = self.take_text
        if take is not None and type(event) is Frame:  # the handshake's Response goes the library's way
            if event.opcode is Opcode.TEXT and event.fin:
                try:
                    text = bytes(event.data).decode()
                except UnicodeDecodeError:
                    pass  # recv decodes it again and fails the connection (1007), as the library does
                else:
                    if take(text):
                        return
            if event.opcode in _DATA and self.left_to_recv is not None:
                self.left_to_recv()
        super().process_event(event)
