"""Clean HTTP answers to requests that carry a body.

websockets' request parser refuses any request with a body (a Content-Length other than 0 or a
Transfer-Encoding) before ``process_request`` runs, and then only hangs up: ``curl -d`` saw
"Empty reply from server" (black-box pass, #15 item 15). The server serves files to GET and HEAD
and takes everything else over the websocket, so no request of ours has a body: this protocol
looks at the header block before the library parses it and answers such a request itself, 405
with ``Allow`` for another method and 400 for GET/HEAD (a websocket upgrade included), so a
client is told why instead of being dropped.
"""

from __future__ import annotations

import re
from collections.abc import Generator
from http import HTTPStatus
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import InvalidMessage
from websockets.http11 import MAX_LINE_LENGTH, MAX_NUM_HEADERS, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

#: HTTP methods that get a file; any other is answered 405.
HTTP_METHODS = ("GET", "HEAD")
#: Past this many bytes without the end of the headers the library's own limits answer (431/414).
_HEAD_LIMIT = MAX_LINE_LENGTH * (MAX_NUM_HEADERS + 2)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
_BODY_HEADER = re.compile(rb"^(?:content-length[ \t]*:[ \t]*(?!0[ \t]*\r?$)|transfer-encoding[ \t]*:)",
                          re.IGNORECASE | re.MULTILINE)


def method_not_allowed(protocol: ServerProtocol) -> Response:
    """The 405 for a method other than GET and HEAD, with the ``Allow`` header it requires."""
    response = protocol.reject(HTTPStatus.METHOD_NOT_ALLOWED, "only GET and HEAD\n")
    response.headers["Allow"] = ", ".join(HTTP_METHODS)
    return response


class BodyAwareProtocol(ServerProtocol):
    """websockets' server protocol that answers a request with a body instead of hanging up."""

    def parse(self) -> Generator[None]:
        if self.state is State.CONNECTING:
            while not _HEAD_END.search(self.reader.buffer) and len(self.reader.buffer) <= _HEAD_LIMIT:
                if self.reader.eof:
                    break
                yield
            end = _HEAD_END.search(self.reader.buffer)
            head = bytes(self.reader.buffer[:end.start()]) if end else b""
            if end is not None and _BODY_HEADER.search(head):
                method = head.split(b" ", 1)[0].decode("ascii", "replace")
                self.handshake_exc = InvalidMessage(f"{method} request with a body")
                if method in HTTP_METHODS:
                    response = self.reject(HTTPStatus.BAD_REQUEST, "a request to this server has no body\n")
                else:
                    response = method_not_allowed(self)
                self.send_response(response)  # closes the connection after the answer
                yield
                return
        yield from super().parse()


class BodyAwareConnection(ServerConnection):
    """A server connection whose protocol is :class:`BodyAwareProtocol` (``serve(create_connection=...)``)."""

    def __init__(self, protocol: ServerProtocol, *args: Any, **kwargs: Any) -> None:
        # serve() builds a plain ServerProtocol and offers no hook for its class; no byte has been
        # received yet, so switching the class and restarting its parser loses nothing.
        protocol.__class__ = BodyAwareProtocol
        protocol.parser = protocol.parse()
        next(protocol.parser)
        super().__init__(protocol, *args, **kwargs)
