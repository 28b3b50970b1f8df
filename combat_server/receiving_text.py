"""Whole text messages handled as soon as websockets parses them (issue 16), for both ends: the server's
sessions (``server.receiving.ReceivingConnection``) and :class:`~combat_server.client.CombatClient`
(``receiving_client.ReceivingClientConnection``).

``websockets`` reads a connection's messages through a queue: the protocol (sans I/O) parses the
bytes into frames (permessage-deflate already undone: extensions decode a frame as it is parsed),
the asyncio connection puts each data frame in its assembler, and the reader's ``recv`` wakes up in
a later turn of the event loop to take it out, join and decode it: a tenth of the server's Python
work per client message, and at a client following several seats, a turn of the loop per push.

:class:`OffersWholeText` keeps the library's protocol and connection, and with them every check and
behaviour they own: the frame parser's limit (``max_size``, 1009), masking, pings and pongs, the
closing handshake, UTF-8 validity (1007), fragmented and binary messages, flow control (reading
pauses while ``max_queue`` frames wait). One thing is added: a whole (FIN) text frame that decodes
as UTF-8 is offered to :attr:`~OffersWholeText.take_text` first, which handles it at once if its
reader is idle; anything it declines, and every other frame, goes the library's way to ``recv``.
The reader says it is idle only while its ``recv`` waits with nothing queued, and
:meth:`~OffersWholeText.process_event` tells it (:attr:`~OffersWholeText.left_to_recv`) as soon as a
data frame went the library's way, so messages are handled in the order they arrived.
"""

from __future__ import annotations

from typing import Any, Callable

from websockets.frames import Frame, Opcode
from websockets.protocol import Event

__all__ = ["OffersWholeText"]

_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)


class OffersWholeText:
    """Mixed in before a websockets asyncio connection class (``ServerConnection``, ``ClientConnection``).
    Without :attr:`take_text` (before a reader sets it, after it left) the connection is the library's,
    frame for frame."""

    #: Handles one whole text message now, or returns ``False`` to leave it to ``recv`` (``None``: always).
    take_text: Callable[[str], bool] | None = None
    #: Called when a data frame was queued for ``recv`` (the reader is no longer idle).
    left_to_recv: Callable[[], None] | None = None

    def process_event(self, event: Event) -> None:
        take = self.take_text
        if take is not None and type(event) is Frame:  # a handshake's request or response goes the library's way
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
        next_in_line: Any = super()
        next_in_line.process_event(event)
