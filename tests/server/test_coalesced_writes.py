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
