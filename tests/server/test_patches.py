"""Protocol 2 (issue 16): a live push carries the event, its explanation and a patch of the seat's view
since the previous seq with the hash of the whole view; whole views come with ``subscribed`` and on
request (``view`` -> ``full_view``). docs/protocol.md, "Views and patches"."""

from __future__ import annotations

import orjson

from combat_server.client import CombatClient
from combat_server.patch import view_hash
from combat_server.server import CombatServer

from .conftest import SHEET, Connect, Table


async def _adjust(gm: CombatClient, cid: str, hp: int) -> int:
    result = await gm.command("adjust", {"combatant": cid, "changes": {"hp": hp}, "reason": "test"})
    return int(result["last_seq"])


async def test_a_push_carries_a_patch_and_the_hash_of_the_whole_view_not_the_view(table: Table) -> None:
    watcher = await CombatClient.connect(table.server.ws_url, record=True)
    try:
        await watcher.subscribe(table.tokens["spectator"])
        seq = await _adjust(table.gm, "alice", 7)
        await watcher.wait_for_seq(seq)
        push = next(m for m in watcher.received or [] if m.get("type") == "event" and m["seq"] == seq)
        assert "state" not in push
        assert {"op": "replace", "path": "/combatants/alice/condition/hp", "value": 7} in push["patch"]
        assert push["view_hash"] == view_hash(watcher.state)
    finally:
        await watcher.close()


async def test_every_seat_patches_its_own_view_to_the_one_it_would_be_sent_whole(table: Table) -> None:
    """GM, player and spectator (the orc's sheet hidden from the last two) after a change to a visible
    and a hidden combatant: each patched copy equals the full view the server sends on request."""
    await _adjust(table.gm, "alice", 6)
    seq = await _adjust(table.gm, "orc", 3)
    for client in (table.gm, table.alice, table.bob, table.spectator):
        await client.wait_for_seq(seq)
        patched = client.state
        full = await client.request({"type": "view"})
        assert full["seq"] == seq and client.resyncs == 0
        assert patched == full["state"] and full["view_hash"] == view_hash(patched)
    assert table.alice.state is not None and table.alice.state["combatants"]["orc"]["sheet"] is None


async def test_each_pushed_event_keeps_the_view_right_after_it(table: Table) -> None:
    first = await _adjust(table.gm, "bob", 5)
    await _adjust(table.gm, "bob", 4)
    await table.bob.wait_for_seq(first + 1)
    views = {e.seq: e.state for e in table.bob.events if e.seq >= first}
    assert views[first] is not None and views[first]["combatants"]["bob"]["condition"]["hp"] == 5
    assert views[first + 1] is not None and views[first + 1]["combatants"]["bob"]["condition"]["hp"] == 4


async def test_a_client_whose_view_drifted_asks_for_the_whole_view_and_recovers(table: Table) -> None:
    spectator = table.spectator
    assert spectator.state is not None
    spectator.state = {**spectator.state, "title": "not what the server has"}  # a copy gone wrong
    seq = await _adjust(table.gm, "alice", 9)
    await spectator.wait_until(lambda c: c.resyncs == 1 and not c.view_stale and c.state_seq >= seq)
    assert spectator.state is not None and spectator.state["title"] == "test fight"
    assert spectator.state["combatants"]["alice"]["condition"]["hp"] == 9
    seq = await _adjust(table.gm, "alice", 8)  # and patches again from the view it was sent
    await spectator.wait_for_seq(seq)
    assert spectator.resyncs == 1 and spectator.state["combatants"]["alice"]["condition"]["hp"] == 8


async def test_a_one_hp_change_costs_the_same_bytes_whatever_the_fight_size(server: CombatServer,
                                                                             connect: Connect) -> None:
    """4 combatants or 60: the push of one HP change differs only by the digits of its numbers."""
    sizes = []
    for count in (4, 60):
        gm = await connect()
        created = await gm.create_fight("gurps", title="size")
        await gm.subscribe(created["token"])
        for i in range(count):
            await gm.command("add_combatant", {"id": f"c{i}", "name": f"C{i}", "side": "npc", "sheet": SHEET})
        watcher = await connect(record=True)
        await watcher.subscribe((await gm.add_seat("spectator"))["token"])
        seq = await _adjust(gm, "c1", 5)
        await watcher.wait_for_seq(seq)
        push = next(m for m in watcher.received or [] if m.get("type") == "event" and m["seq"] == seq)
        sizes.append(len(orjson.dumps(push)))
        assert len(orjson.dumps(push["patch"])) < 150
    assert abs(sizes[0] - sizes[1]) <= 8, sizes


async def test_a_v1_client_is_told_this_server_speaks_protocol_2(table: Table) -> None:
    assert table.gm.welcome["protocol"] == 2
