"""Protocol 2 (issue 16): a live push carries the event, its explanation and a patch of the seat's view
since the previous seq with the hash of the whole view; whole views come with ``subscribed`` and on
request (``view`` -> ``full_view``). Protocol 3: the pushed record leaves out what the client holds
(fight, seq, ruleset version, previous hash) and the patch the view's seq. Protocol 4: the chain's fields
(command id, stored time, hash) only for a subscriber that asks (``chain``), patch ops as ``[path, value]``
and ``[path]``. docs/protocol.md, "Views and patches" and "The pushed record"."""

from __future__ import annotations

import orjson

import pytest

from combat_server.canonical import chain_hash
from combat_server.client import ChainError, CombatClient
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
        assert ["/combatants/alice/condition/hp", 7] in push["patch"]
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



async def test_a_client_whose_copy_of_a_combatant_the_push_left_alone_drifted_asks_for_the_whole_view(
        table: Table) -> None:
    """The client checks the whole view, not only what the patch changed (issue 16: it caches the texts of
    the parts that stay the same object): a copy of bob gone wrong after a push was checked is found by the
    next push, which changes alice only."""
    spectator = table.spectator
    await spectator.wait_for_seq(await _adjust(table.gm, "alice", 7))
    assert spectator.state is not None and spectator.resyncs == 0
    combatants = spectator.state["combatants"]
    name = combatants["bob"]["name"]
    spectator.state = {**spectator.state, "combatants": {**combatants, "bob": {**combatants["bob"], "name": "x"}}}
    seq = await _adjust(table.gm, "alice", 9)
    await spectator.wait_until(lambda c: c.resyncs == 1 and not c.view_stale and c.state_seq >= seq)
    assert spectator.state is not None and spectator.state["combatants"]["bob"]["name"] == name

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


async def test_a_client_is_told_this_server_speaks_protocol_5(table: Table) -> None:
    assert table.gm.welcome["protocol"] == 5


def test_the_clients_speak_the_servers_protocol() -> None:
    """CombatClient and the web page check ``welcome.protocol`` against their own: bumped with the server's."""
    import re
    from pathlib import Path

    from combat_server import client
    from combat_server.server.protocol import PROTOCOL_VERSION

    page = (Path(client.__file__).parent / "web" / "app.js").read_text("utf-8")
    assert client.PROTOCOL == PROTOCOL_VERSION
    found = re.search(r"^const PROTOCOL = (\d+);$", page, re.M)
    assert found is not None and int(found.group(1)) == PROTOCOL_VERSION


async def test_a_push_leaves_out_what_the_client_already_holds(table: Table) -> None:
    """No fight id (the subscription's), no seq, ruleset version or previous hash in the record (the
    push's seq, the view's version, the previous event's hash: protocol 3), no patch op for the view's
    seq; and, for a subscriber that did not ask for the chain, no command id, time or hash (protocol 4)."""
    watcher = await CombatClient.connect(table.server.ws_url, record=True)
    try:
        await watcher.subscribe(table.tokens["spectator"])
        seq = await _adjust(table.gm, "alice", 7)
        await watcher.wait_for_seq(seq)
        push = next(m for m in watcher.received or [] if m.get("type") == "event" and m["seq"] == seq)
        assert "fight_id" not in push
        assert set(push["event"]) == {"type", "payload", "actor"}
        assert push["patch"] == [["/combatants/alice/condition/hp", 7]]
        assert watcher.state is not None and watcher.state["seq"] == seq
    finally:
        await watcher.close()


async def test_a_subscriber_that_asks_for_the_chain_gets_what_checking_it_takes(table: Table) -> None:
    watcher = await CombatClient.connect(table.server.ws_url, record=True, chain=True)
    try:
        await watcher.subscribe(table.tokens["spectator"])
        seq = await _adjust(table.gm, "alice", 7)
        await watcher.wait_for_seq(seq)
        push = next(m for m in watcher.received or [] if m.get("type") == "event" and m["seq"] == seq)
        assert set(push["event"]) == {"type", "payload", "actor", "command_id", "recorded_at", "hash"}
    finally:
        await watcher.close()


async def test_a_chain_client_rebuilds_the_stored_record_of_every_push(table: Table) -> None:
    """The record a ``CombatClient(chain=True)`` hands on is the stored one, as ``replay`` reads it,
    prev_hash included."""
    watcher = await CombatClient.connect(table.server.ws_url, chain=True)
    try:
        await watcher.subscribe(table.tokens["bob"])
        first = await _adjust(table.gm, "bob", 5)
        last = await _adjust(table.gm, "bob", 4)
        await watcher.wait_for_seq(last)
        stored = {item["seq"]: item["event"] for item in await watcher.replay(after=first - 1)}
        assert [dict(e.event) for e in watcher.events if e.seq >= first] == [stored[first], stored[last]]
    finally:
        await watcher.close()


async def test_a_plain_client_gets_what_the_event_says_and_who_did_it(table: Table) -> None:
    """Without the chain a pushed record is the stored one's fight, seq, type, payload, actor and
    ruleset version (protocol 4)."""
    seq = await _adjust(table.gm, "bob", 5)
    await table.bob.wait_for_seq(seq)
    stored = (await table.bob.replay(after=seq - 1))[0]["event"]
    kept = ("fight_id", "seq", "type", "payload", "actor", "ruleset_version")
    assert dict(table.bob.events[-1].event) == {k: stored[k] for k in kept}


async def test_a_client_that_wants_it_verifies_the_hash_chain_of_the_pushes(table: Table) -> None:
    """``subscribed.last_hash`` links the first live push to the log; each push's ``hash`` is then
    checked against its rebuilt record (docs/architecture.md, Hash chain)."""
    checker = await CombatClient.connect(table.server.ws_url, verify_chain=True)
    try:
        await checker.subscribe(table.tokens["gm"], after=table.gm.last_seq)
        await _adjust(table.gm, "alice", 3)
        seq = await _adjust(table.gm, "alice", 2)
        await checker.wait_for_seq(seq)
        pushed = [e.event for e in checker.events]
        assert len(pushed) == 2 and pushed[1]["prev_hash"] == pushed[0]["hash"]
        body = {k: v for k, v in pushed[1].items() if k not in ("prev_hash", "hash")}
        assert chain_hash(str(pushed[1]["prev_hash"]), body) == pushed[1]["hash"]
    finally:
        await checker.close()


async def test_a_pushed_hash_that_does_not_follow_the_chain_is_refused(table: Table) -> None:
    """A push whose hash is not that of its record on the previous hash raises, and is not taken."""
    checker = await CombatClient.connect(table.server.ws_url, verify_chain=True)
    try:
        await checker.subscribe(table.tokens["gm"])  # the whole log, each record checked as it arrives
        seq = checker.last_seq
        forged = {"type": "event", "seq": seq + 1, "explanation": "", "patch": [], "view_hash": "00000000",
                  "event": {"type": "note_added", "payload": {"text": "x"}, "actor": "gm", "command_id": "gm:x",
                            "recorded_at": "2026-01-01T00:00:00.000000+00:00", "hash": "0" * 64}}
        with pytest.raises(ChainError):
            checker._dispatch(forged)
        assert checker.last_seq == seq
    finally:
        await checker.close()


async def test_a_checking_client_that_subscribes_from_an_earlier_seq_takes_the_chain_from_there(table: Table) -> None:
    """Subscribing again with ``after`` before the last event seen: the catch-up restarts the chain at
    ``after`` (the hash held there), not at the event last seen."""
    checker = await CombatClient.connect(table.server.ws_url, verify_chain=True)
    try:
        await checker.subscribe(table.tokens["gm"])
        last = checker.last_seq
        await checker.subscribe(table.tokens["gm"], after=last - 2)
        seq = await _adjust(table.gm, "alice", 4)
        await checker.wait_for_seq(seq)
        assert [e.seq for e in checker.events[-4:]] == [last - 2, last - 1, last, seq]
        assert checker.events[-1].event["prev_hash"] == checker.events[-2].event["hash"]
    finally:
        await checker.close()
