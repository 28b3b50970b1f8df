"""combat_server/receiving_client.py and ``CombatClient._take_text``: pushes handled as they are parsed
(issue 16, the clients' latency), in the order they arrived, with the library's checks kept.

The server's end of a client's connection writes the odd frames (fragmented, binary, not UTF-8) the
combat server never sends by itself, so that the client's reading of them is tested on a real
connection.
"""

from __future__ import annotations

import asyncio
import json
import math
from typing import Any, Callable

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from combat_server.client import ChainError, CombatClient, GapError, PushedEvent
from combat_server.receiving_client import ReceivingClientConnection
from combat_server.server import CombatServer

from .conftest import Connect, MakeServer, Table


class ThroughRecv(CombatClient):
    """A client that reads every message through the library's ``recv`` (as before issue 16's pass)."""

    _connection = ClientConnection


class Seen:
    """An ``on_event`` hook that notes, per seq, whether the push was handled as it was parsed (in the
    connection's ``data_received``, outside any task) or by the reader task through ``recv``."""

    def __init__(self) -> None:
        self.as_parsed: dict[int, bool] = {}

    def __call__(self, pushed: PushedEvent) -> None:
        self.as_parsed[pushed.seq] = asyncio.current_task() is None


def _server_end(server: CombatServer, client: CombatClient) -> ServerConnection:
    """The server's side of ``client``'s current connection."""
    assert client._ws is not None
    ends = [s.ws for s in server.sessions if s.ws.remote_address == client._ws.local_address]
    assert len(ends) == 1
    end = ends[0]
    assert isinstance(end, ServerConnection)
    return end


def _error(code: str) -> bytes:
    """A message the client keeps in order in ``errors`` (an error that answers no request)."""
    return json.dumps({"type": "error", "code": code, "message": code}).encode()


async def _adjust(gm: CombatClient, hp: int) -> int:
    result = await gm.command("adjust", {"combatant": "alice", "changes": {"hp": hp}, "reason": "test"})
    return int(result["last_seq"])


async def _watcher(table: Table, cls: type[CombatClient] = CombatClient, **kwargs: Any) -> CombatClient:
    client = await cls.connect(table.server.ws_url, **kwargs)
    await client.wait_until(lambda c: bool(c.welcome), 5)
    await client.subscribe(table.tokens["gm"])
    return client


async def test_a_client_connects_with_the_connection_that_hands_pushes_over_as_parsed(table: Table) -> None:
    assert isinstance(table.gm._ws, ReceivingClientConnection)


async def test_a_push_handled_as_parsed_gives_the_same_event_and_view_as_through_recv(table: Table) -> None:
    direct_seen, recv_seen = Seen(), Seen()
    direct = await _watcher(table, on_event=direct_seen)
    through_recv = await _watcher(table, ThroughRecv, on_event=recv_seen)
    try:
        start = direct.last_seq
        for hp in (9, 7, 11):
            seq = await _adjust(table.gm, hp)
        await direct.wait_for_seq(seq)
        await through_recv.wait_for_seq(seq)
        live = range(start + 1, seq + 1)
        assert all(direct_seen.as_parsed[s] for s in live)
        assert not any(recv_seen.as_parsed[s] for s in live)

        def pushed(c: CombatClient) -> list[tuple[Any, ...]]:
            return [(e.seq, e.event, e.explanation, e.state) for e in c.events]

        assert pushed(direct) == pushed(through_recv)
        assert direct.state == through_recv.state and direct.state == table.gm.state
        assert direct.resyncs == through_recv.resyncs == 0
    finally:
        await direct.close()
        await through_recv.close()


@pytest.mark.parametrize("compression", [False, True], ids=["plain", "deflate"])
async def test_whole_messages_after_a_fragmented_one_are_handled_after_it(
        make_server: MakeServer, connect: Connect, compression: bool) -> None:
    """The fragmented message goes the library's way (``recv`` assembles it); the whole ones that follow
    in the same write must wait for it, compressed or not."""
    server = await make_server(compression=compression)
    client = await connect(server.ws_url, compression=compression)
    assert client.compressed is compression
    end = _server_end(server, client)
    first = _error("test/fragmented")
    end.protocol.send_text(first[:10], fin=False)
    end.protocol.send_continuation(first[10:], fin=True)
    end.protocol.send_text(_error("test/whole-1"))
    end.protocol.send_text(_error("test/whole-2"))
    end.send_data()
    await client.wait_until(lambda c: len(c.errors) == 3, 5)
    assert [e.code for e in client.errors] == ["test/fragmented", "test/whole-1", "test/whole-2"]


async def test_whole_text_messages_after_a_binary_one_are_handled_after_it(server: CombatServer,
                                                                           connect: Connect) -> None:
    client = await connect()
    end = _server_end(server, client)
    end.protocol.send_binary(_error("test/binary"))
    end.protocol.send_text(_error("test/text-1"))
    end.protocol.send_text(_error("test/text-2"))
    end.send_data()
    await client.wait_until(lambda c: len(c.errors) == 3, 5)
    assert [e.code for e in client.errors] == ["test/binary", "test/text-1", "test/text-2"]


async def test_messages_written_together_are_handled_in_order(server: CombatServer, connect: Connect) -> None:
    client = await connect()
    end = _server_end(server, client)
    codes = [f"test/{i}" for i in range(20)]
    for code in codes:  # queued by the server's protocol, written out in one go
        end.protocol.send_text(_error(code))
    end.send_data()
    await client.wait_until(lambda c: len(c.errors) == len(codes), 5)
    assert [e.code for e in client.errors] == codes


async def test_a_message_handled_as_parsed_that_orjson_refuses_is_read_as_json_reads_it(
        server: CombatServer, connect: Connect) -> None:
    """``NaN`` (the client's ``_loads``: orjson, and ``json`` for what orjson refuses), in a message taken as it
    was parsed."""
    client = await connect()
    end = _server_end(server, client)
    await end.send('{"type": "error", "code": "test/nan", "message": "m", "details": {"n": NaN}}')
    await client.wait_until(lambda c: len(c.errors) == 1, 5)
    assert client.errors[0].code == "test/nan" and math.isnan(client.errors[0].details["n"])


async def test_pushes_over_a_compressed_connection_are_handled_as_parsed(make_server: MakeServer) -> None:
    """permessage-deflate is undone as a frame is parsed, before the connection sees it."""
    server = await make_server(compression=True)
    seen = Seen()
    gm = await CombatClient.connect(server.ws_url, compression=True, on_event=seen)
    try:
        created = await gm.create_fight("gurps", title="deflate")
        await gm.subscribe(created["token"])
        await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": {"st": 13}})
        result = await gm.command("adjust", {"combatant": "orc", "changes": {"hp": 4}, "reason": "test"})
        await gm.wait_for_seq(result["last_seq"])
        assert gm.compressed
        assert all(seen.as_parsed.values()) and len(seen.as_parsed) == gm.last_seq
        held = gm.state
        assert held == (await gm.request({"type": "view"}))["state"] and gm.resyncs == 0
    finally:
        await gm.close()


async def test_a_reconnected_client_gets_every_event_once_in_order_and_reads_on_as_parsed(table: Table) -> None:
    seen = Seen()
    watcher = await _watcher(table, on_event=seen)
    try:
        old = watcher._ws
        await watcher.drop_connection()
        for hp in (8, 6):
            seq = await _adjust(table.gm, hp)  # while the watcher is away: caught up after the reconnect
        await watcher.wait_until(lambda c: c.reconnects == 1 and c.last_seq == seq, 10)
        assert watcher._ws is not old and isinstance(watcher._ws, ReceivingClientConnection)
        after = await _adjust(table.gm, 10)
        await watcher.wait_for_seq(after)
        assert [e.seq for e in watcher.events] == list(range(1, after + 1))
        assert seen.as_parsed[after]
        assert watcher.state == table.gm.state
    finally:
        await watcher.close()


def _break_chain(client: CombatClient) -> None:
    client.last_hash = "0" * 64


def _skip_a_seq(client: CombatClient) -> None:
    client.last_seq -= 1
    client.events.pop()


@pytest.mark.parametrize("cls", [CombatClient, ThroughRecv], ids=["as-parsed", "through-recv"])
@pytest.mark.parametrize(("spoil", "error"), [(_break_chain, ChainError), (_skip_a_seq, GapError)],
                         ids=["chain", "gap"])
async def test_a_push_the_client_refuses_ends_its_reading_with_the_error_and_leaves_the_connection_open(
        table: Table, cls: type[CombatClient], spoil: Callable[[CombatClient], None],
        error: type[Exception]) -> None:
    """As it always did through ``recv``: the reader task ends with the error (``close`` swallows it),
    nothing after the refused push is taken, and the connection is neither closed nor failed."""
    watcher = await _watcher(table, cls, verify_chain=True)
    try:
        spoil(watcher)
        held = watcher.last_seq
        await _adjust(table.gm, 5)
        assert watcher._reader is not None
        with pytest.raises(error):
            await asyncio.wait_for(asyncio.shield(watcher._reader), 5)
        await _adjust(table.gm, 6)
        assert watcher._ws is not None
        await asyncio.wait_for(await watcher._ws.ping(), 5)  # the push after it is not taken; the connection answers
        assert watcher.last_seq == held
        assert watcher._ws.state is State.OPEN and watcher.close_codes == []
    finally:
        await watcher.close()


class Refusing:
    """An ``on_event`` hook that raises ``error`` (made by ``make``) at the first push."""

    def __init__(self, make: Callable[[], BaseException]) -> None:
        self.make = make

    def __call__(self, pushed: PushedEvent) -> None:
        raise self.make()


@pytest.mark.parametrize("cls", [CombatClient, ThroughRecv], ids=["as-parsed", "through-recv"])
async def test_what_on_event_raises_ends_the_reading_with_its_own_cause_and_context(
        table: Table, cls: type[CombatClient]) -> None:
    """The reader task ends with the hook's exception as it was raised: its ``__cause__`` and
    ``__context__`` are its own, not the cancellation that carried it out of ``data_received``."""
    def make() -> BaseException:
        try:
            raise KeyError("the cause")
        except KeyError as cause:
            error = RuntimeError("on_event failed")
            error.__cause__ = cause
            return error

    watcher = await _watcher(table, cls)
    watcher.on_event = Refusing(make)  # live pushes only: the subscription's catch-up is taken
    try:
        await _adjust(table.gm, 5)
        assert watcher._reader is not None
        with pytest.raises(RuntimeError) as raised:
            await asyncio.wait_for(asyncio.shield(watcher._reader), 5)
        assert isinstance(raised.value.__cause__, KeyError)
        assert not isinstance(raised.value.__context__, asyncio.CancelledError)
    finally:
        await watcher.close()


@pytest.mark.parametrize("cls", [CombatClient, ThroughRecv], ids=["as-parsed", "through-recv"])
async def test_a_cancellation_raised_by_on_event_ends_the_reading_and_leaves_the_connection_open(
        table: Table, cls: type[CombatClient]) -> None:
    """Never the transport's to see (it would abort the connection and the client reconnect): the reader
    task ends cancelled, as through ``recv``, and the connection stays open."""
    watcher = await _watcher(table, cls)
    watcher.on_event = Refusing(asyncio.CancelledError)
    try:
        await _adjust(table.gm, 5)
        assert watcher._reader is not None
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(watcher._reader), 5)
        assert watcher._ws is not None
        await asyncio.wait_for(await watcher._ws.ping(), 5)
        assert watcher._ws.state is State.OPEN and watcher.close_codes == [] and watcher.reconnects == 0
    finally:
        await watcher.close()


async def test_nothing_read_in_the_same_write_after_a_refused_message_is_taken(table: Table) -> None:
    """A message the client cannot take (a push without its fields) and an error frame right behind it,
    in one write: the reading ends at the first, and the second is never handled."""
    watcher = await _watcher(table)
    try:
        end = _server_end(table.server, watcher)
        end.protocol.send_text(b'{"type":"event"}')
        end.protocol.send_text(_error("test/after"))
        end.send_data()
        assert watcher._reader is not None
        with pytest.raises(KeyError):
            await asyncio.wait_for(asyncio.shield(watcher._reader), 5)
        assert watcher.errors == []
    finally:
        await watcher.close()


#: Frames websockets refuses, and the close code the client fails the connection with: a message over
#: ``max_size`` (the client is opened with 400,000; the welcome is ~106 kB) and a text frame that is not UTF-8.
_REFUSED = {
    "over-max-size-1009": (Frame(Opcode.TEXT, _error("test/" + "x" * 500_000)), 1009),
    "not-utf8-1007": (Frame(Opcode.TEXT, b'{"type":"error","code":"\xff"}'), 1007),
}


@pytest.mark.parametrize("refused", _REFUSED.values(), ids=_REFUSED.keys())
@pytest.mark.parametrize("cls", [CombatClient, ThroughRecv], ids=["as-parsed", "through-recv"])
async def test_a_frame_websockets_refuses_still_closes_the_connection_with_its_code(
        server: CombatServer, cls: type[CombatClient], refused: tuple[Frame, int]) -> None:
    """The client fails the connection (``close_sent``; ``close_codes`` holds what the server sent back,
    1006 here, nothing) and reports no error message."""
    frame, code = refused
    client = await cls.connect(server.ws_url, reconnect=False, max_size=400_000)
    try:
        await client.wait_until(lambda c: bool(c.welcome), 5)
        end = _server_end(server, client)
        end.protocol.send_frame(frame)
        end.send_data()
        await client.wait_until(lambda c: c._closed, 5)
        assert client._ws is not None and client._ws.protocol.close_sent is not None
        assert client._ws.protocol.close_sent.code == code and client.errors == []
    finally:
        await client.close()


async def test_a_ping_from_the_server_is_answered(server: CombatServer, connect: Connect) -> None:
    client = await connect()
    pong = await _server_end(server, client).ping()
    await asyncio.wait_for(pong, 5)


async def test_the_client_reports_a_server_that_speaks_another_protocol(server: CombatServer) -> None:
    """Its view hashes would not match the pushes' (every push would resync): ``errors`` says why."""
    client = await CombatClient.connect(server.ws_url, reconnect=False)
    try:
        await client.wait_until(lambda c: bool(c.welcome), 5)
        assert client.errors == []  # this server speaks the client's protocol
        end = _server_end(server, client)
        end.protocol.send_text(json.dumps({**client.welcome, "protocol": 4}).encode())
        end.send_data()
        await client.wait_until(lambda c: bool(c.errors), 5)
        assert [e.code for e in client.errors] == ["client/protocol"]
    finally:
        await client.close()
