"""Issue 16, server CPU: a push is encoded and framed once for every connection it goes to
(``text_frame``, ``CombatServer.frame``), and the frame is what ``websockets`` itself would send."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from combat_server.server.app import text_frame

from .conftest import Table


@pytest.mark.parametrize("length", [0, 1, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_is_byte_for_byte_what_websockets_serializes(length: int) -> None:
    """RFC 6455 5.2: the 7-bit, 16-bit and 64-bit length forms, unmasked (a server's frames)."""
    data = ("é" * length).encode("utf-8")[:length]
    assert text_frame(data) == Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])


async def test_each_text_gets_its_own_frame(table: Table) -> None:
    """The cache is keyed by the text object: another text, even an equal one made anew, is framed from its own bytes."""
    server = table.server
    first = server.frame('{"type":"event","seq":1}')
    second = server.frame('{"type":"event","seq":2}')
    assert first.endswith(b'"seq":1}') and second.endswith(b'"seq":2}')
    text = "".join(['{"a":', '1}'])
    assert server.frame(text) is server.frame(text) and server.frame(text).endswith(b'{"a":1}')


async def test_seats_that_see_alike_get_the_same_push_whole(table: Table) -> None:
    """The shared frame reaches each seat whole: the two players and the spectator (the orc hidden from all
    three) apply the same patch to the same view, and it checks against the push's hash."""
    result = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 7}, "reason": "test"})
    for client in (table.alice, table.bob, table.spectator):
        await client.wait_for_seq(result["last_seq"])
    assert table.alice.state == table.bob.state == table.spectator.state
    assert table.alice.state["combatants"]["alice"]["condition"]["hp"] == 7
    assert table.alice.state["combatants"]["orc"]["sheet"] is None  # still redacted (hidden)
