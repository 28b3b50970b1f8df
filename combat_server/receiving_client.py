"""The client's websockets connection: pushes handed to :class:`~combat_server.client.CombatClient` as they
are parsed (issue 16, the clients' latency and CPU; :mod:`combat_server.receiving_text` says how and why).

A client process that follows several seats paid, per push, the library's assembler and a turn of the
event loop for the reader task, so the last seat's push waited for the turns of the ones before it.
"""

from __future__ import annotations

from websockets.asyncio.client import ClientConnection

from combat_server.receiving_text import OffersWholeText

__all__ = ["ReceivingClientConnection"]


class ReceivingClientConnection(OffersWholeText, ClientConnection):
    """websockets' client connection that offers whole text messages to ``take_text`` before queueing
    them for ``recv``."""
