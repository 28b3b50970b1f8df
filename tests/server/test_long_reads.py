"""Reading a long log on the real server (issue 15 item 2): ``replay`` answers in pages
with a continuation, ``state_at`` and a subscribe's catch-up read from the nearest
snapshot, and all three read the store in a worker thread, so another fight is served
while a long read is under way.

The long fights are built in bulk (bench/bulkfight.py): real rules, real hash chain,
snapshots, appended to the real SQLite file of the server.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Awaitable, Callable

import pytest

from bench.bulkfight import long_fight
from combat_server.client import CombatClient, ServerError
from combat_server.rules import core
from combat_server.rules.ruleset import get_ruleset
from combat_server.server import CombatServer
from combat_server.server.hub import MAX_PAGE, Seat
from combat_server.server.protocol import dumps

from .conftest import Connect, MakeServer

EVENTS = 2_600  # more than two default pages, and more than the hub's recent cache (1,024)


class Gate:
    """Wraps one real store read: records the thread that runs it and holds it until released,
    so a test can see what the server does while that read is under way."""

    def __init__(self, read: Callable[..., Any]) -> None:
        self.read = read
        self.entered = threading.Event()
        self.release = threading.Event()
        self.threads: list[str] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.threads.append(threading.current_thread().name)
        self.entered.set()
        self.release.wait(5)
        return self.read(*args, **kwargs)


async def _long(make_server: MakeServer, connect: Connect, events: int = EVENTS,
                **server: Any) -> tuple[CombatServer, str, CombatClient]:
    """A server with a long fight; its GM connected (not yet subscribed)."""
    srv = await make_server(**server)
    fight_id, token = long_fight(srv.engine, events)
    gm = await connect(srv.ws_url)
    gm.token = token
    return srv, fight_id, gm


async def _pages(client: CombatClient, **request: Any) -> list[dict[str, Any]]:
    """Every ``history`` reply of a replay read page by page by hand, following ``more``."""
    replies = []
    message = {"type": "replay", **request}
    while True:
        reply = await client.request(message)
        replies.append(reply)
        if not reply["more"]:
            return replies
        message = {**message, "after": reply["items"][-1]["seq"], "upto": reply["upto"]}


async def test_paged_replay_returns_every_event_of_the_fight_in_order(make_server: MakeServer, connect: Connect,
                                                                     databases: Any) -> None:
    """#15 item 2: pages of at most ``limit`` events, joined by the cursor, are exactly the log with
    the explanations and undone marks of the whole-log replay (``Engine.history``), on both stores."""
    srv, fight_id, gm = await _long(make_server, connect, url=databases.new_url())
    await gm.subscribe(gm.token or "")
    await gm.command("adjust", {"combatant": "a", "changes": {"hp": 1}, "reason": "to be undone"})
    await gm.command("undo", {})
    replies = await _pages(gm, limit=700)
    assert [len(r["items"]) for r in replies] == [700, 700, 700, 502]
    assert [r["more"] for r in replies] == [True, True, True, False]
    got = [item for r in replies for item in r["items"]]
    whole = srv.engine.history(fight_id)
    assert [i["seq"] for i in got] == list(range(1, EVENTS + 3))
    assert [(i["event"], i["explanation"], i["undone"]) for i in got] == [
        (json.loads(dumps(le.event.to_dict())), le.explanation, le.undone) for le in whole]
    assert got[-2]["undone"] and not got[-1]["undone"]
    assert await gm.replay() == got  # the client follows the continuation by itself


async def test_a_replay_page_is_at_most_the_documented_maximum(make_server: MakeServer, connect: Connect) -> None:
    """#15 item 2: without a limit a page holds MAX_PAGE (1,000) events; a larger limit is refused."""
    _srv, _fid, gm = await _long(make_server, connect)
    await gm.subscribe(gm.token or "")
    reply = await gm.request({"type": "replay", "after": 100})
    assert (len(reply["items"]), reply["items"][0]["seq"], reply["more"]) == (MAX_PAGE, 101, True)
    with pytest.raises(ServerError) as refused:
        await gm.request({"type": "replay", "limit": MAX_PAGE + 1})
    assert refused.value.code == "protocol/schema"


async def test_a_players_paged_replay_matches_the_paged_catch_up(make_server: MakeServer, connect: Connect,
                                                                 databases: Any) -> None:
    """A player's catch-up from 0, read from the store page by page, and their paged replay give the
    same redacted events and explanations, every seq once, in order, on both stores."""
    srv, _fid, gm = await _long(make_server, connect, url=databases.new_url())
    await gm.subscribe(gm.token or "")
    seat = await gm.add_seat("player", ["a"], "player")
    player = await connect(srv.ws_url, chain=True)  # whole live records, to compare with replay's
    await player.subscribe(seat["token"], after=0)
    await player.wait_for_seq(EVENTS)
    assert [e.seq for e in player.events] == list(range(1, EVENTS + 1))
    replayed = await player.replay()
    assert [(i["seq"], i["event"], i["explanation"]) for i in replayed] == [
        (e.seq, e.event, e.explanation) for e in player.events]
    sheets = {i["event"]["payload"]["id"]: i["event"]["payload"]["sheet"] for i in replayed
              if i["event"]["type"] == "combatant_added"}
    assert sheets["d"] is None and sheets["a"] is not None  # the hidden NPC's sheet stays hidden


async def test_state_at_every_seq_equals_the_fold_of_the_log_up_to_it(make_server: MakeServer,
                                                                      connect: Connect) -> None:
    """``state_at(seq)`` (nearest snapshot, then the events after it) is the fold of the log up to
    ``seq``, at every seq, with undos and redos that reach back across snapshots."""
    srv, fight_id, gm = await _long(make_server, connect, events=60, snapshot_every=7)
    await gm.subscribe(gm.token or "")
    for i in range(12):
        await gm.command("adjust", {"combatant": "b", "changes": {"hp": i}, "reason": "r"})
    await gm.command("undo", {"to": "seq", "seq": 55})
    await gm.command("adjust", {"combatant": "c", "changes": {"fp": 2}, "reason": "after the undo"})
    await gm.command("undo", {})
    await gm.command("redo", {})
    log = srv.engine.store.events(fight_id)
    rs = get_ruleset(log[0].payload["ruleset"], log[0].payload["ruleset_version"])
    hub, seat = srv.hub(fight_id), Seat(fight_id, "gm", "gm")
    for seq in range(1, len(log) + 1):
        expected = json.loads(dumps(hub.view(seat, core.fold(rs, log[:seq]))))
        assert await gm.state_at(seq) == expected, f"seq {seq}"


def _replay(client: CombatClient) -> Awaitable[Any]:
    return client.replay(after=0)


def _state_at(client: CombatClient) -> Awaitable[Any]:
    return client.state_at(EVENTS // 2)


def _subscribe(client: CombatClient) -> Awaitable[Any]:
    async def subscribe_and_catch_up() -> None:
        await client.subscribe(client.token or "", after=0)
        await client.wait_for_seq(EVENTS, 30)
    return subscribe_and_catch_up()


@pytest.mark.parametrize(("read", "store_method"), [
    (_replay, "events_page"), (_subscribe, "events_page"), (_state_at, "snapshot_seqs"),
], ids=["replay", "subscribe_from_0", "state_at"])
async def test_another_fights_command_is_answered_while_a_long_read_is_under_way(
        make_server: MakeServer, connect: Connect, monkeypatch: pytest.MonkeyPatch,
        read: Callable[[CombatClient], Awaitable[Any]], store_method: str) -> None:
    """#15 item 2: a long read of one fight runs in a worker thread, so while its store read is held,
    a command of another fight gets its result; then the read completes."""
    srv, _fid, reader = await _long(make_server, connect)
    if read is not _subscribe:
        await reader.subscribe(reader.token or "")
    other = await connect(srv.ws_url)
    created = await other.create_fight("gurps", title="another fight")
    await other.subscribe(created["token"])
    gate = Gate(getattr(srv.engine.store, store_method))
    monkeypatch.setattr(srv.engine.store, store_method, gate)
    reading = asyncio.ensure_future(read(reader))
    assert await asyncio.to_thread(gate.entered.wait, 5), "the long read never reached the store"
    result = await other.command("add_combatant", {"id": "x", "name": "X", "side": "pc", "sheet": {"st": 10}})
    assert result["last_seq"] == 2
    assert not reading.done(), "the long read finished before the other fight was answered"
    gate.release.set()
    await asyncio.wait_for(reading, 30)
    assert gate.threads and all(name.startswith("combat-read") for name in gate.threads)


async def test_live_events_during_a_catch_up_from_the_store_follow_it(make_server: MakeServer, connect: Connect,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """While a subscriber's catch-up is read from the store (the fight's lock is not held meanwhile),
    a command of the same fight is applied; the subscriber gets every seq once, in order: the
    catch-up, then the live event."""
    srv, _fid, gm = await _long(make_server, connect)
    await gm.subscribe(gm.token or "")
    seat = await gm.add_seat("spectator", [], "late")
    late = await connect(srv.ws_url)
    gate = Gate(srv.engine.store.events_page)
    monkeypatch.setattr(srv.engine.store, "events_page", gate)
    joining = asyncio.ensure_future(late.subscribe(seat["token"], after=0))
    assert await asyncio.to_thread(gate.entered.wait, 5)
    result = await gm.command("note", {"text": "while you were catching up"})
    gate.release.set()
    await joining
    await late.wait_for_seq(result["last_seq"], 30)
    assert [e.seq for e in late.events] == list(range(1, result["last_seq"] + 1))
    assert late.events[-1].state is not None and late.events[-2].state is None  # live after catch-up


async def test_the_bulk_built_fights_snapshots_are_the_ones_a_load_uses(make_server: MakeServer) -> None:
    """bench/bulkfight.py stores each snapshot with its event hash: a load trusts it (since migration 0004 a
    snapshot without one is refolded past), so the long fights here and in bench/ read as real ones do."""
    srv = await make_server()
    fight_id, _token = long_fight(srv.engine, 250)
    seqs = [seq for seq, _version in srv.engine.store.snapshot_seqs(fight_id)]
    assert seqs and all(srv.engine.store.checked_snapshot(fight_id, seq) is not None for seq in seqs)
