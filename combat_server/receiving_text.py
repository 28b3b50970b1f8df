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

A read of the socket that is exactly one such frame, arriving while the library's parser waits for
the start of a frame, is not parsed by the library at all (:meth:`~OffersWholeText.data_received`):
the parser would have handed on that frame and nothing else, and been left where it was. That is
every push a client receives and every command a server reads, one per read on a quiet connection.
"""

from __future__ import annotations

from typing import Any, Callable, Protocol as Interface

from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN, SERVER, Event, Protocol
from websockets.streams import StreamReader

try:  # the library's own choice (websockets.frames): its C unmasking when built
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

__all__ = ["OffersWholeText", "Reads", "STATE_IS_PLAIN", "parser_waits_for_a_frame", "whole_text"]

_DATA = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)
#: The first byte of a whole (FIN) text frame without reserved bits (RFC 6455 section 5.2).
_FIN_TEXT = 0x81
#: Where the library's parser waits between two frames: ``Protocol.parse`` asks ``StreamReader.at_eof``
#: for more data before it reads a frame's head (websockets 17.4; tests/server/test_receiving.py pins it).
_PARSE = Protocol.parse.__code__
_AT_EOF = StreamReader.at_eof.__code__


def _state_is_plain() -> bool:
    """Whether a protocol's ``state`` only reads its ``_state`` (websockets 17.4: a property whose getter is
    ``return self._state``), on the library's protocol and both its sides."""
    from websockets.client import ClientProtocol
    from websockets.server import ServerProtocol

    prop = Protocol.__dict__.get("state")
    return (isinstance(prop, property) and prop.fget is not None
            and getattr(prop.fget, "__code__", None) is not None and prop.fget.__code__.co_names == ("_state",)
            and all(getattr(side, "state", None) is prop for side in (ServerProtocol, ClientProtocol)))


#: ``protocol._state`` may be read for ``protocol.state``: the property's call cost about 1 k instructions,
#: and the state is read for every message received and every message sent (issue 16, server CPU).
#: ``False`` with a library built otherwise: then the property is read (tests/server/test_receiving.py).
STATE_IS_PLAIN = _state_is_plain()


def parser_waits_for_a_frame(protocol: Protocol) -> bool:
    """Whether ``protocol``'s parser is suspended between two frames with nothing buffered: then bytes
    fed to it are parsed from the head of a new frame (:func:`whole_text`).

    The parser is a generator (the handshake's, then ``Protocol.parse``, then ``StreamReader.at_eof``,
    each inside the one before through ``yield from``); this looks at the innermost two. A library
    whose parser is built otherwise answers ``False`` here, and every frame is then parsed by the
    library as before (tests/server/test_receiving.py checks that this one answers ``True``)."""
    if protocol.reader.buffer:
        return False
    outer: Any = protocol.parser
    inner = outer.gi_yieldfrom
    while inner is not None and inner.gi_yieldfrom is not None:
        outer, inner = inner, inner.gi_yieldfrom
    return inner is not None and inner.gi_code is _AT_EOF and outer.gi_code is _PARSE


def whole_text(protocol: Protocol, data: bytes) -> str | None:
    """The text of ``data`` if it is exactly one whole text frame that ``protocol`` would parse and
    hand on as it is, else ``None`` (then the library parses ``data``).

    Why (issue 16, the clients' CPU per push and the server's per command): the library's parser
    (generators reading the head, the length, the payload; a ``Frame``; its checks; an event list)
    was about a sixth of what a client spends on a push. The conditions are those under which that
    parser would accept the frame and change nothing but hand it on: the connection is open, no
    extension (permessage-deflate) and no debug log, no fragmented message in progress, the parser
    between two frames with nothing buffered; the frame is FIN, text, without reserved bits, masked
    exactly when this side is the server, within ``max_size``, its payload valid UTF-8, and ``data``
    holds nothing else. Anything else (a ping, a close, a partial or coalesced read, a bad frame)
    goes the library's way, which accepts, answers or fails it as it always did."""
    n = len(data)
    if (n < 2 or data[0] != _FIN_TEXT or (protocol._state if STATE_IS_PLAIN else protocol.state) is not OPEN
            or protocol.extensions or protocol.debug
            or protocol.current_size is not None):
        return None
    second = data[1]
    masked = second >= 0x80
    if masked is not (protocol.side is SERVER):
        return None
    length = second & 0x7F
    head = 2
    if length == 126:
        length, head = int.from_bytes(data[2:4], "big"), 4
    elif length == 127:
        length, head = int.from_bytes(data[2:10], "big"), 10
    if masked:
        head += 4
    if head + length != n:
        return None
    limit, fragment = protocol.max_message_size, protocol.max_fragment_size
    if (limit is not None and length > limit) or (fragment is not None and length > fragment):
        return None
    if not parser_waits_for_a_frame(protocol):
        return None
    payload = apply_mask(data[head:], data[head - 4:head]) if masked else data[head:]
    try:
        return payload.decode()
    except UnicodeDecodeError:
        return None


class Reads(Interface):
    """Who is told that a connection's read was handled (the server, ``app.CombatServer``): it writes the
    frames the read caused (:meth:`read_done`), and holds them back while ``reading``."""

    reading: bool

    def read_done(self) -> None:
        """The read was handled (whether it raised or not)."""


class OffersWholeText:
    """Mixed in before a websockets asyncio connection class (``ServerConnection``, ``ClientConnection``).
    Without :attr:`take_text` (before a reader sets it, after it left) the connection is the library's,
    frame for frame."""

    #: Handles one whole text message now, or returns ``False`` to leave it to ``recv`` (``None``: always).
    take_text: Callable[[str], bool] | None = None
    #: Called when a data frame was queued for ``recv`` (the reader is no longer idle).
    left_to_recv: Callable[[], None] | None = None
    #: Told around each read (``None``: nobody; the server's sessions set it, the client does not).
    reads: Reads | None = None

    def data_received(self, data: bytes) -> None:
        """Offer ``data`` to :attr:`take_text` without the library's parser when it is one whole text frame
        the parser would hand on as it is (:func:`whole_text`); otherwise, or when declined, the library's.

        What the library's ``data_received`` does besides parsing is done in the same order: what is
        waiting in the protocol is written before the message is handled, a failed write recorded as the
        connection's error (``set_connection_exc``) and the message handled all the same; an open
        connection expects no close, so there is no close deadline to set.

        :attr:`reads` is told before (``reading``) and after (``read_done()``, whether the read raised or
        not): the server then writes the frames the messages in it caused at once when nothing else waits
        in the loop's turn, instead of in a turn of their own (``app.CombatServer.read_done``, issue 16,
        server CPU). Told here, not in an override of the server's connection: a call less per read."""
        reads = self.reads
        if reads is not None:
            reads.reading = True
        try:
            take = self.take_text
            if take is not None:
                protocol = self.protocol  # type: ignore[attr-defined]
                text = whole_text(protocol, data)
                if text is not None:
                    if protocol.writes:  # else send_data would find nothing to write
                        try:
                            self.send_data()  # type: ignore[attr-defined]
                        except Exception as exc:  # as websockets' own data_received: recorded, not raised
                            self.set_connection_exc(exc)  # type: ignore[attr-defined]
                    if take(text):
                        return
            next_in_line: Any = super()
            next_in_line.data_received(data)
        finally:
            if reads is not None:
                reads.read_done()

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
