"""Issue 16, server CPU per command: the messages a connection is sent in one turn of the event loop go to
its socket in one write (on loopback a ``send`` costs the sender the receiver's side of TCP too, and the
socket writes were the largest part of a command's server CPU). The commanding client's push and its
``result`` are one write, in order."""

from __future__ import annotations

import asyncio
from typing import Any

from combat_server.server import CombatServer

from .conftest import Table


def _count_writes(server: CombatServer, seat_id: str) -> list[bytes]:
    """Record every transport write of the connection holding ``seat_id``."""
    (session,) = [s for s in server.sessions if s.seat is not None and s.seat.seat_id == seat_id]
    transport = session.ws.transport
    writes: list[bytes] = []
    real = transport.write

    def write(data: Any) -> None:
        writes.append(bytes(data))
        real(data)

    transport.write = write  # type: ignore[method-assign]
    return writes


async def test_a_commands_push_and_its_result_reach_the_commanding_client_in_one_write(table: Table) -> None:
    writes = _count_writes(table.server, "gm")
    result = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 7}, "reason": "test"})
    await table.gm.wait_for_seq(result["last_seq"])
    assert len(writes) == 1
    (data,) = writes
    assert data.index(b'"type":"event"') < data.index(b'"type":"result"')  # the event first, then its result


async def test_a_watcher_gets_a_push_in_one_write(table: Table) -> None:
    writes = _count_writes(table.server, "spectator-1")
    result = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 6}, "reason": "test"})
    await table.spectator.wait_for_seq(result["last_seq"])
    assert len(writes) == 1 and b'"type":"event"' in writes[0]


async def test_commands_read_in_one_turn_reach_a_watcher_in_one_write(table: Table, connect: Any) -> None:
    """The writes of a read are made at once only when nothing else is ready in the loop's turn
    (``CombatServer.read_done``): two commands read in the same turn still reach a watcher together."""
    second_gm = await connect()
    await second_gm.subscribe(table.tokens["gm"])
    await table.spectator.wait_for_seq(table.gm.last_seq)
    writes = _count_writes(table.server, "spectator-1")
    first, second = await asyncio.gather(
        table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 9}, "reason": "one"}),
        second_gm.command("adjust", {"combatant": "bob", "changes": {"hp": 8}, "reason": "two"}))
    await table.spectator.wait_for_seq(max(first["last_seq"], second["last_seq"]))
    assert len(writes) == 1 and writes[0].count(b'"type":"event"') == 2


async def test_a_reads_frames_are_written_at_once_only_when_nothing_else_is_ready(table: Table) -> None:
    """Issue 16, server CPU: after a read, its frames are written in the same turn of the loop when its queue
    of ready callbacks is empty (the turn of their own would have run them before anything else), and in a
    turn of their own otherwise; on asyncio's loop the server reads that queue."""
    server = table.server
    loop = asyncio.get_running_loop()
    assert server._ready is getattr(loop, "_ready")  # else every write takes a turn of its own (slower, not wrong)
    seen: list[tuple[bool, bool]] = []
    real = server.read_done

    def read_done() -> None:
        pending = bool(server._unflushed) and not server._flush_scheduled
        nothing_ready = not server._ready
        real()
        if pending:
            seen.append((nothing_ready, not server._unflushed))

    server.read_done = read_done  # type: ignore[method-assign]
    result = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 5}, "reason": "test"})
    await table.spectator.wait_for_seq(result["last_seq"])
    assert seen and all(nothing_ready == written for nothing_ready, written in seen)
    server.read_done = real  # type: ignore[method-assign]



async def test_a_connection_whose_write_fails_does_not_hold_back_the_others(table: Table) -> None:
    """A failed socket write (here: a transport that refuses it) is that connection's alone: it is reported
    to the loop's exception handler, and the other connections of the same flush still get their frames,
    on that push and on the next (none is left marked as waiting for a flush that does not come)."""
    server = table.server
    (gm_session,) = [s for s in server.sessions if s.seat is not None and s.seat.seat_id == "gm"]
    transport = gm_session.ws.transport
    loop = asyncio.get_running_loop()
    reported: list[dict[str, Any]] = []
    real_handler = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: reported.append(context))

    def refuse(data: Any) -> None:
        raise RuntimeError("this transport refuses the write")

    watchers = (table.alice, table.bob, table.spectator)
    transport.write = refuse  # type: ignore[method-assign]
    try:
        # The GM subscribed first: its connection is the first of the flush, the watchers' come after it.
        for hp in (4, 3):
            seqs = [w.last_seq for w in watchers]
            sent = asyncio.ensure_future(table.gm.command(
                "adjust", {"combatant": "alice", "changes": {"hp": hp}, "reason": "a failing write"}))
            for watcher, seq in zip(watchers, seqs):
                await watcher.wait_for_seq(seq + 1)
            sent.cancel()  # its result was in the refused write
        assert sum("write failed" in str(c.get("message")) for c in reported) == 2
        assert all(isinstance(c.get("exception"), RuntimeError) for c in reported)
    finally:
        del transport.write  # the transport's own method again
        loop.set_exception_handler(real_handler)
