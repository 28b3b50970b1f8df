"""server/receiving.py and ``app.Session.take_text``: client messages handled as they are parsed
(issue 16), in the order they arrived, with the library's checks kept."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from combat_server.server import CombatServer
from combat_server.server.receiving import Started, start
from tests.server.conftest import Table


async def _joined(server: CombatServer, token: str) -> ClientConnection:
    ws = await connect(server.ws_url)
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "subscribe", "token": token, "ref": "join"}))
    while json.loads(await ws.recv()).get("ref") != "join":
        pass
    return ws


async def _replies(ws: ClientConnection, n: int) -> list[dict[str, Any]]:
    """The next ``n`` messages that answer a request (they carry a ``ref``); pushes are skipped."""
    out: list[dict[str, Any]] = []
    while len(out) < n:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if "ref" in message:
            out.append(message)
    return out


def test_a_coroutine_that_does_not_wait_is_finished_by_start() -> None:
    async def seven() -> int:
        return 7

    assert start(seven()) == (True, 7)


async def test_a_coroutine_that_waits_is_finished_by_awaiting_what_start_returned() -> None:
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def doubled() -> int:
        return 2 * await gate

    done, rest = start(doubled())
    assert not done and isinstance(rest, Started)
    asyncio.get_running_loop().call_soon(gate.set_result, 21)
    assert await rest == 42


async def test_cancelling_the_task_that_awaits_the_rest_cancels_the_coroutine() -> None:
    cleaned: list[str] = []

    async def waits() -> None:
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append("finally")

    done, rest = start(waits())
    assert not done

    async def finish() -> None:
        await rest

    task = asyncio.get_running_loop().create_task(finish())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cleaned == ["finally"]


async def test_a_message_after_one_that_waits_for_the_fight_is_answered_after_it(table: Table) -> None:
    """The command waits for the fight's lock (held here); the ``view`` request behind it needs no lock,
    yet is answered second: messages are handled in the order they arrived."""
    gm = await _joined(table.server, table.tokens["gm"])
    hub = table.server.hub(table.fight_id)
    async with hub.lock:
        await gm.send(json.dumps({"type": "command", "command_id": "c1", "command": "adjust", "ref": "first",
                                  "args": {"combatant": "alice", "changes": {"hp": 3}, "reason": "test"}}))
        await gm.send(json.dumps({"type": "view", "ref": "second"}))
        await asyncio.sleep(0.05)
    first, second = await _replies(gm, 2)
    assert (first["ref"], first["type"], second["ref"], second["type"]) == ("first", "result", "second", "full_view")
    assert second["seq"] == first["last_seq"]
    await gm.close()


async def test_messages_sent_in_one_write_are_answered_in_order(table: Table) -> None:
    gm = await _joined(table.server, table.tokens["gm"])
    refs = [f"r{i}" for i in range(20)]
    for i, ref in enumerate(refs):  # queued by the client's protocol, written out together
        kind = {"type": "view"} if i % 2 else {"type": "command", "command_id": f"c{i}", "command": "adjust",
                                                "args": {"combatant": "bob", "changes": {"hp": i}, "reason": "t"}}
        gm.protocol.send_text(json.dumps({**kind, "ref": ref}).encode())
    gm.send_data()
    assert [m["ref"] for m in await _replies(gm, len(refs))] == refs
    await gm.close()


async def test_a_whole_message_after_a_fragmented_one_is_answered_after_it(table: Table) -> None:
    """The fragmented message goes the library's way (``recv`` assembles it); the whole one that follows
    in the same write must wait for it."""
    gm = await _joined(table.server, table.tokens["gm"])
    first = json.dumps({"type": "view", "ref": "fragmented"}).encode()
    gm.protocol.send_text(first[:10], fin=False)
    gm.protocol.send_continuation(first[10:], fin=True)
    gm.protocol.send_text(json.dumps({"type": "view", "ref": "whole"}).encode())
    gm.send_data()
    assert [m["ref"] for m in await _replies(gm, 2)] == ["fragmented", "whole"]
    await gm.close()


async def test_a_text_frame_that_is_not_utf8_still_closes_the_connection_1007(table: Table) -> None:
    gm = await _joined(table.server, table.tokens["gm"])
    gm.protocol.send_frame(Frame(Opcode.TEXT, b'{"type":"view","ref":"\xff"}'))
    gm.send_data()
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(gm.recv(), 5)
    assert gm.close_code == 1007


async def test_a_bug_while_a_message_is_handled_closes_that_connection_1011(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception that escapes a request's steps is logged and closes its connection (as websockets
    does for a handler that raised); the other connections are served on."""
    from combat_server.server.connection import Connection, Steps

    real = Connection.receive

    def receive(self: Connection, raw: str | bytes) -> Steps:
        if isinstance(raw, str) and "boom" in raw:
            raise RuntimeError("a bug")
        return real(self, raw)

    monkeypatch.setattr(Connection, "receive", receive)
    gm = await _joined(table.server, table.tokens["gm"])
    await gm.send(json.dumps({"type": "view", "ref": "boom"}))
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(gm.recv(), 5)
    assert gm.close_code == 1011
    other = await _joined(table.server, table.tokens["spectator"])
    await other.send(json.dumps({"type": "view", "ref": "still"}))
    assert (await _replies(other, 1))[0]["type"] == "full_view"
    await other.close()


def test_nothing_the_server_runs_outside_a_task_needs_one() -> None:
    """``receiving.start`` runs a session's effects outside any task until they first wait: code on
    that path must not enter ``asyncio.timeout()`` (``asyncio.wait_for`` from Python 3.12, built on
    it) or ask for ``current_task()``, which would fail there. The session's effects live in the
    server and the engine: neither uses them."""
    import ast
    from pathlib import Path

    needs_a_task = {"timeout", "timeout_at", "wait_for", "current_task"}
    root = Path(__file__).resolve().parents[2] / "combat_server"
    for path in sorted([*(root / "server").glob("*.py"), *(root / "engine").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                assert name not in needs_a_task, f"{path.name}:{node.lineno} calls {name}: see receiving.start"


# ---------------------------------------------------------------------------- a read that is one whole text frame
#
# receiving_text.OffersWholeText.data_received hands such a read to take_text without the library's parser
# (issue 16). Checked against the definition: the library's own data_received fed the same reads, on both
# sides (the server's frames are unmasked, a client's masked), whatever the frames and however the bytes
# are cut into reads.

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from websockets.asyncio.client import ClientConnection as _LibraryClient  # noqa: E402
from websockets.asyncio.server import ServerConnection as _LibraryServer  # noqa: E402
from unittest import mock  # noqa: E402

from websockets.frames import apply_mask  # noqa: E402
from websockets.protocol import Protocol, Side, State  # noqa: E402

from combat_server.receiving_text import OffersWholeText, parser_waits_for_a_frame, whole_text  # noqa: E402

_LIMIT = 40  # max_size of the connections below: some frames are too big


class _Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.eof = False

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def write_eof(self) -> None:
        self.eof = True

    def can_write_eof(self) -> bool:
        return True

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return default

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def close(self) -> None:
        pass

    def abort(self) -> None:
        pass


class _NoServer:
    """What a ServerConnection asks of its server when it is made: a handler that returns at once."""

    def __init__(self) -> None:
        self.handler_tasks: set[Any] = set()

    async def handler(self, ws: Any) -> None:
        pass


def _recording(base: type) -> type:
    class Recording(base):  # type: ignore[valid-type, misc]
        """What reached the library's ``process_event`` (a frame going to ``recv``, a pong, ...)."""

        def process_event(self, event: Any) -> None:
            self.library_events.append((event.opcode, bytes(event.data), event.fin))
            super().process_event(event)

    return Recording


_BASES = {Side.CLIENT: _recording(_LibraryClient), Side.SERVER: _recording(_LibraryServer)}


def _connection(side: Side, fast: bool) -> Any:
    """A connection in the open state on a fake transport; ``fast``: with OffersWholeText's ``data_received``,
    else with the library's (OffersWholeText's ``process_event`` in both)."""
    base = _BASES[side]
    cls = type("Fast" if fast else "Library", (OffersWholeText, base),
               {} if fast else {"data_received": base.data_received})
    protocol = Protocol(side, state=State.OPEN, max_size=_LIMIT)
    ws = cls(protocol) if side is Side.CLIENT else cls(protocol, _NoServer())
    ws.library_events = []
    if side is Side.CLIENT:  # the handshake is done: the library takes every event after it as a frame
        ws.response = object()
    else:
        ws.request = object()
    ws.connection_made(_Transport())
    return ws


class _Reader:
    """take_text and left_to_recv of a reader that is idle until a frame goes the library's way, and idle
    again when the test says its ``recv`` took what was queued."""

    def __init__(self, ws: Any) -> None:
        self.idle = True
        self.taken: list[str] = []
        ws.take_text, ws.left_to_recv = self.take, self.left

    def take(self, text: str) -> bool:
        if self.idle:
            self.taken.append(text)
        return self.idle

    def left(self) -> None:
        self.idle = False


_ANY_FRAME = st.tuples(
    st.sampled_from([Opcode.TEXT, Opcode.TEXT, Opcode.TEXT, Opcode.BINARY, Opcode.CONT, Opcode.PING, Opcode.PONG,
                     Opcode.CLOSE]),
    st.one_of(st.text(max_size=50).map(str.encode), st.binary(max_size=50)),
    st.booleans(),  # fin
    st.sampled_from([False, False, False, True]),  # rsv1
    st.sampled_from([None, None, None, True, False]),  # masked as the sending side should (None) or not
    st.sampled_from([None, None, 126, 127]),  # the length written in 2 or 8 bytes, whatever it is
)
#: A frame the combat server or a client sends: whole, text, masked by a client only.
_TEXT_FRAME = st.tuples(st.just(Opcode.TEXT), st.text(max_size=50).map(str.encode), st.just(True), st.just(False),
                        st.just(None), st.sampled_from([None, None, None, 126, 127]))
_FRAMES = st.lists(st.one_of(_TEXT_FRAME, _ANY_FRAME), max_size=6)


_KEY = b"\x01\x80\x33\xfe"  # the masking key of the frames written here


def _wire(frames: list[Any], sender: Side) -> bytes:
    """The frames' bytes as RFC 6455 section 5.2 lays them out, bad ones included (a fragmented ping, a
    reserved bit, a server's frame masked, a client's not, a length field longer than it needs)."""
    out = b""
    for opcode, data, fin, rsv1, masked, length_form in frames:
        if opcode is Opcode.CLOSE and data:
            data = b"\x03\xe8" + data[:10]
        mask = (sender is Side.CLIENT) if masked is None else masked
        n = len(data)
        form = length_form if length_form is not None else (n if n < 126 else 126)
        head = bytes((fin << 7 | rsv1 << 6 | opcode.value, mask << 7 | form))
        if form == 126:
            head += n.to_bytes(2, "big")
        elif form == 127:
            head += n.to_bytes(8, "big")
        out += head + (_KEY + apply_mask(data, _KEY) if mask else data)
    return out


def _fixed_masks() -> Any:
    """A client's frames (a pong, a close) masked with one key, so that two runs write the same bytes."""
    return mock.patch("websockets.frames.secrets.token_bytes", lambda n: _KEY[:n])


@settings(max_examples=200, deadline=None)
@given(_FRAMES, st.sampled_from([Side.CLIENT, Side.SERVER]), st.lists(st.integers(0, 400), max_size=8),
       st.lists(st.booleans(), max_size=10))
def test_a_read_of_one_whole_text_frame_is_handled_as_the_library_would(
        frames: list[Any], side: Side, cuts: list[int], recv_takes: list[bool]) -> None:
    sender = Side.SERVER if side is Side.CLIENT else Side.CLIENT
    data = _wire(frames, sender)
    bounds = sorted({0, len(data), *(c for c in cuts if c < len(data))})
    reads = [data[a:b] for a, b in zip(bounds, bounds[1:])]

    async def run(fast: bool) -> Any:
        ws = _connection(side, fast)
        reader = _Reader(ws)
        for i, chunk in enumerate(reads):
            ws.data_received(chunk)
            if i < len(recv_takes) and recv_takes[i]:
                reader.idle = True  # recv took what was queued and waits again
        transport = ws.transport
        return (reader.taken, ws.library_events, transport.written, transport.eof, ws.protocol.state,
                ws.protocol.close_sent, ws.protocol.close_rcvd, bytes(ws.protocol.reader.buffer),
                ws.protocol.current_size, type(ws.protocol.parser_exc))

    with _fixed_masks():
        assert asyncio.run(run(True)) == asyncio.run(run(False))


@settings(max_examples=150, deadline=None)
@given(_FRAMES, st.sampled_from([Side.CLIENT, Side.SERVER]))
def test_each_frame_in_its_own_read_is_handled_as_the_library_would(frames: list[Any], side: Side) -> None:
    """The same, one read per frame: the reads the fast path takes, among those it must leave alone."""
    sender = Side.SERVER if side is Side.CLIENT else Side.CLIENT

    async def run(fast: bool) -> Any:
        ws = _connection(side, fast)
        reader = _Reader(ws)
        for frame in frames:
            ws.data_received(_wire([frame], sender))
            reader.idle = True
        return (reader.taken, ws.library_events, ws.transport.written, ws.protocol.state, ws.protocol.close_sent,
                bytes(ws.protocol.reader.buffer), ws.protocol.current_size, type(ws.protocol.parser_exc))

    with _fixed_masks():
        assert asyncio.run(run(True)) == asyncio.run(run(False))


async def test_the_fast_path_takes_a_whole_text_frame_between_frames_on_both_sides() -> None:
    """Pins what whole_text relies on in the installed websockets (the parser's generators): if a later
    version builds its parser otherwise, this fails instead of every frame silently taking the slow path."""
    for side, mask in ((Side.CLIENT, False), (Side.SERVER, True)):
        ws = _connection(side, True)
        assert parser_waits_for_a_frame(ws.protocol)
        frame = Frame(Opcode.TEXT, '{"type":"event","é":1}'.encode()).serialize(mask=mask)
        assert whole_text(ws.protocol, frame) == '{"type":"event","é":1}'
        ws.data_received(frame[:1])  # half a head: the parser waits inside a frame now
        assert not parser_waits_for_a_frame(ws.protocol)
        ws.data_received(frame[1:])
        assert parser_waits_for_a_frame(ws.protocol)
        reader = _Reader(ws)
        seen = list(ws.library_events)
        with mock.patch.object(ws.protocol, "receive_data", side_effect=AssertionError("parsed by the library")):
            ws.data_received(frame)
        assert reader.taken == ['{"type":"event","é":1}'] and ws.library_events == seen


@pytest.mark.parametrize("fast", [True, False], ids=["fast-path", "library"])
async def test_a_failed_write_of_what_was_waiting_is_recorded_and_the_message_still_handled(fast: bool) -> None:
    """A server frame waiting in the protocol (a push queued this turn) whose write fails when a command
    arrives: websockets records the error as the connection's and hands the command on; the fast path
    does the same rather than letting the error out of data_received (which would abort the connection
    and lose the command)."""
    ws = _connection(Side.SERVER, fast)
    reader = _Reader(ws)

    def refuse(data: bytes) -> None:
        raise RuntimeError("write failed")

    ws.transport.write = refuse
    ws.protocol.writes.append(Frame(Opcode.TEXT, b"push").serialize(mask=False))
    ws.data_received(Frame(Opcode.TEXT, b"cmd").serialize(mask=True))
    assert reader.taken == ["cmd"]
    assert isinstance(ws.connection_exc, RuntimeError)


def test_a_protocols_state_is_read_from_its_attribute_with_this_library() -> None:
    """issue 16: the server and the client read ``protocol._state`` for ``protocol.state`` when the library's
    property only returns it (websockets 17.4); a library built otherwise is read through its property."""
    from combat_server import receiving_text

    assert receiving_text.STATE_IS_PLAIN
    for state in State:
        protocol = Protocol(Side.SERVER, state=state)
        assert protocol._state is protocol.state is state


class _Told:
    """A ``Reads``: what it was told, and whether ``reading`` was set while the read was handled."""

    def __init__(self) -> None:
        self.reading = False
        self.told: list[str] = []

    def read_done(self) -> None:
        self.told.append("done" if self.reading else "done-without-reading")
        self.reading = False


@pytest.mark.parametrize("read", ["whole-text", "library", "raising"])
async def test_reads_is_told_around_every_read(read: str) -> None:
    """Issue 16, server CPU: OffersWholeText tells ``reads`` around each read (``reading`` while it is handled,
    ``read_done()`` after), whichever way the read goes and when handling it raises. (The server's connection
    no longer overrides ``data_received`` to do it.)"""
    ws = _connection(Side.SERVER, True)
    told = _Told()
    seen_reading: list[bool] = []

    def take(text: str) -> bool:
        seen_reading.append(told.reading)
        if read == "raising":
            raise RuntimeError("a bug while handling")
        return True

    ws.take_text, ws.reads = take, told
    frame = Frame(Opcode.TEXT, b"cmd").serialize(mask=True)
    if read == "raising":
        with pytest.raises(RuntimeError):
            ws.data_received(frame)
    elif read == "library":  # a frame cut in two reads: the library's parser takes both
        ws.data_received(frame[:3])
        ws.data_received(frame[3:])
    else:
        ws.data_received(frame)
    assert told.told == ["done"] * (2 if read == "library" else 1)
    assert seen_reading == [True]


def test_the_servers_connection_reads_through_offers_whole_text_alone() -> None:
    """The server's connection is told around a read by OffersWholeText's ``data_received`` itself: an override
    of its own on top would tell ``reads`` twice per read (issue 16, server CPU)."""
    from combat_server.server.receiving import ReceivingConnection

    assert ReceivingConnection.data_received is OffersWholeText.data_received


async def test_without_reads_a_read_is_handled_all_the_same() -> None:
    """The client's connections (and a server connection before its session set ``reads``) have none."""
    ws = _connection(Side.SERVER, True)
    reader = _Reader(ws)
    assert ws.reads is None
    ws.data_received(Frame(Opcode.TEXT, b"cmd").serialize(mask=True))
    assert reader.taken == ["cmd"]


async def _locks_in(state: str) -> tuple[asyncio.Lock, asyncio.Lock]:
    """Two locks in the same one of the states a fight's lock can be in when a command asks for it."""
    locks = (asyncio.Lock(), asyncio.Lock())
    if state == "free, never contended":
        return locks
    for lock in locks:
        await lock.acquire()
    if state == "held":
        return locks
    waiters = [asyncio.ensure_future(lock.acquire()) for lock in locks]
    await asyncio.sleep(0)
    if state == "held, a waiter queued":
        return locks
    for lock, waiter in zip(locks, waiters):
        if state == "free, its waiter cancelled":
            waiter.cancel()  # its future is cancelled at once; the task leaves the queue when it next runs
        lock.release()  # a waiter still queued is woken, but has not run yet: the lock is free, promised to it
    if state in ("free, its waiter cancelled", "free, promised to a waiter"):
        return locks
    await asyncio.gather(*waiters)
    for lock in locks:
        lock.release()
    return locks  # "free, contended before": an empty queue of waiters


_LOCK_STATES = ["free, never contended", "held", "held, a waiter queued", "free, promised to a waiter",
                "free, its waiter cancelled", "free, contended before"]


@pytest.mark.parametrize("state", _LOCK_STATES)
async def test_a_lock_is_taken_without_acquire_exactly_when_acquire_would_take_it_at_once(state: str) -> None:
    """Issue 16, server CPU: ``take_free_lock`` (a command's lock without ``acquire()``'s coroutine) takes a lock
    only when ``acquire()`` would have taken it without waiting, and leaves it as it was otherwise (then the
    session goes through ``acquire()``, which decides); asserts what it reads of asyncio's lock, too."""
    from combat_server.server.receiving import LOCK_IS_PLAIN, take_free_lock

    assert LOCK_IS_PLAIN
    mine, theirs = await _locks_in(state)
    before = (mine.locked(), len(mine._waiters or ()))  # type: ignore[arg-type]
    taken = take_free_lock(mine)
    done, value = start(theirs.acquire())
    if taken:
        assert done and value is True and mine.locked() and theirs.locked()
        assert len(mine._waiters or ()) == len(theirs._waiters or ())  # type: ignore[arg-type]
    else:
        assert (mine.locked(), len(mine._waiters or ())) == before  # type: ignore[arg-type]
        if done:  # acquire() took it at once all the same: only past waiters that were all cancelled
            assert state == "free, its waiter cancelled"
        else:
            value.coro.close()
    assert taken == (state in ("free, never contended", "free, contended before"))
