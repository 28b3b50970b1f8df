"""Issue 16, server CPU per command: the messages a connection is sent in one turn of the event loop go to
its socket in one write (on loopback a ``send`` costs the sender the receiver's side of TCP too, and the
socket writes were the largest part of a command's server CPU). The commanding client's push and its
``result`` are one write, in order."""

from __future__ import annotations

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
