"""Several server processes serving the same fights on one PostgreSQL database (DESIGN.md).

Two real servers (each its own engine, store, connection pool and LISTEN
connection) on one PostgreSQL schema, real websocket clients on both: whatever
server a command goes to, every subscriber of every server gets every event
once, in order, with the same state.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import sqlalchemy as sa

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer
from combat_server.server.protocol import CLOSE_LINK_REPLACED
from combat_server.store.pg_listen import libpq_url, parse_payload

from .conftest import SHEET, MakeServer


async def _pair(make_server: MakeServer, pg_databases: Any) -> tuple[CombatServer, CombatServer]:
    url = pg_databases.new_url()
    a = await make_server(url=url)
    b = await make_server(url=url)
    for s in (a, b):
        assert s.peers is not None
        await asyncio.wait_for(s.peers.listening.wait(), 10)
    return a, b


async def _fight(server: CombatServer) -> tuple[CombatClient, str, dict[str, str]]:
    gm = await CombatClient.connect(server.ws_url)
    created = await gm.create_fight("gurps", title="two processes")
    await gm.subscribe(created["token"])
    for cid, side in (("alice", "pc"), ("orc", "npc")):
        await gm.command("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": SHEET})
    tokens = {"gm": created["token"]}
    for label in ("watch-a", "watch-b"):
        tokens[label] = (await gm.add_seat("spectator", label=label))["token"]
    return gm, created["fight_id"], tokens


async def _watch(server: CombatServer, token: str) -> CombatClient:
    """A client of ``server`` subscribed with ``token`` from the first event."""
    client = await CombatClient.connect(server.ws_url)
    await client.subscribe(token, after=0)
    return client


def _seqs(client: CombatClient) -> list[int]:
    return [e.seq for e in client.events]


async def _adjusts(client: CombatClient, n: int, tag: str) -> None:
    for i in range(n):
        await client.command("adjust", {"combatant": "orc", "changes": {"hp": i % 9}, "reason": f"{tag} {i}"})


async def _watched_across(make_server: MakeServer, pg_databases: Any, n: int,
                          tag: str) -> tuple[CombatServer, CombatClient, CombatClient]:
    """Two processes; a's GM makes ``n`` adjusts, which a watcher on b, subscribed before them, gets every
    one of, in order: ``(b, a's GM, b's watcher)``."""
    a, b = await _pair(make_server, pg_databases)
    gm, _fid, tokens = await _fight(a)
    watcher = await _watch(b, tokens["watch-b"])
    await _adjusts(gm, n, tag)
    await watcher.wait_for_seq(gm.last_seq, timeout=10)
    assert _seqs(watcher) == list(range(1, gm.last_seq + 1))
    return b, gm, watcher


async def test_a_watcher_on_another_process_gets_every_event_in_order(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    _b, gm, watcher = await _watched_across(make_server, pg_databases, 10, "a")
    pushed_a = {e.seq: e.state for e in gm.events if e.state is not None}
    pushed_b = {e.seq: e.state for e in watcher.events if e.state is not None}
    assert pushed_b and all(pushed_b[s] == pushed_a[s] for s in pushed_b if s in pushed_a)
    assert [e.explanation for e in watcher.events] == [e.explanation for e in gm.events]
    await gm.close()
    await watcher.close()


async def test_commands_racing_on_two_processes_reach_every_subscriber_once_in_order(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """The unique (fight, seq) key keeps one writer winning; the loser retries on the fresh log and
    its process first pushes the winner's events, so nobody sees a gap or a repeat."""
    a, b = await _pair(make_server, pg_databases)
    gm_a, fid, tokens = await _fight(a)
    gm_b = await _watch(b, tokens["gm"])
    watchers = []
    for server, label in ((a, "watch-a"), (b, "watch-b")):
        w = await _watch(server, tokens[label])
        watchers.append(w)
    await asyncio.gather(_adjusts(gm_a, 15, "a"), _adjusts(gm_b, 15, "b"))
    last = a.engine.store.fight(fid).last_seq
    for c in (gm_a, gm_b, *watchers):
        await c.wait_for_seq(last, timeout=10)
        assert _seqs(c) == list(range(1, last + 1))
    assert watchers[0].state == watchers[1].state
    reasons = [e.event["payload"].get("reason", "") for e in watchers[1].events if e.type == "condition_adjusted"]
    assert sorted(reasons) == sorted([f"a {i}" for i in range(15)] + [f"b {i}" for i in range(15)])
    assert a.engine.verify(fid).ok
    for c in (gm_a, gm_b, *watchers):
        await c.close()


async def test_subscribing_on_a_process_with_a_stale_cache_gets_everything(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    a, b = await _pair(make_server, pg_databases)
    gm, fid, tokens = await _fight(a)
    early = await _watch(b, tokens["watch-b"])
    await early.close()  # b now holds the fight in its cache, with nobody watching
    await _adjusts(gm, 5, "a")
    late = await _watch(b, tokens["watch-b"])
    await late.wait_for_seq(gm.last_seq, timeout=10)
    assert _seqs(late) == list(range(1, gm.last_seq + 1))
    await _adjusts(gm, 3, "more")
    await late.wait_for_seq(gm.last_seq, timeout=10)
    assert _seqs(late) == list(range(1, gm.last_seq + 1))
    await gm.close()
    await late.close()


async def test_a_lost_listening_connection_reconnects_and_catches_up(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """Notifications sent while b's LISTEN connection is down are lost; b re-checks the store on reconnect."""
    a, b = await _pair(make_server, pg_databases)
    gm, fid, tokens = await _fight(a)
    watcher = await _watch(b, tokens["watch-b"])
    assert b.peers is not None and b.peers.backend_pid is not None
    with a.engine.store.engine.connect() as conn:  # the database drops b's listener
        conn.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": b.peers.backend_pid})
        conn.commit()
    await _adjusts(gm, 4, "while down")
    await watcher.wait_for_seq(gm.last_seq, timeout=15)
    assert _seqs(watcher) == list(range(1, gm.last_seq + 1))
    assert b.peers.connections >= 2
    await gm.close()
    await watcher.close()


async def test_expect_seq_is_checked_against_the_log_not_a_stale_cache(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    a, b = await _pair(make_server, pg_databases)
    gm_a, fid, tokens = await _fight(a)
    gm_b = await _watch(b, tokens["gm"])
    await gm_b.close()
    await _adjusts(gm_a, 2, "a")  # b's cached state is behind now
    gm_b = await CombatClient.connect(b.ws_url)
    await gm_b.subscribe(tokens["gm"])
    last = gm_a.last_seq  # read before the command: gm_a may see the note's push before the assert
    result = await gm_b.command("note", {"text": "from b"}, expect_seq=last)
    assert result["first_seq"] == last + 1
    await gm_a.close()
    await gm_b.close()


def test_notification_payload_and_libpq_url() -> None:
    assert parse_payload("abc123 42") == ("abc123", 42)
    assert parse_payload("abc123") is None and parse_payload("abc x") is None and parse_payload("") is None
    url = libpq_url("postgresql+psycopg://postgres@127.0.0.1/test?options=-csearch_path%3Dt_1")
    assert url.startswith("postgresql://postgres@127.0.0.1/test?options=")


async def test_two_server_processes_share_a_fight(
    pg_databases, tmp_path  # type: ignore[no-untyped-def]
) -> None:
    """The same, with two real `python -m combat_server.server` processes on one database."""
    import signal
    import subprocess

    from .test_crash import _free_port, start_serve

    url = pg_databases.new_url()
    procs: list[subprocess.Popen[bytes]] = []
    ports = [_free_port(), _free_port()]
    try:
        for port in ports:
            procs.append(await start_serve(url, port))
        urls = [f"ws://127.0.0.1:{p}/ws" for p in ports]
        gm_1 = await CombatClient.connect(urls[0])
        created = await gm_1.create_fight("gurps", title="two processes")
        await gm_1.subscribe(created["token"])
        await gm_1.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET})
        watch_token = (await gm_1.add_seat("spectator"))["token"]
        gm_2 = await CombatClient.connect(urls[1])
        await gm_2.subscribe(created["token"], after=0)
        watcher = await CombatClient.connect(urls[1])
        await watcher.subscribe(watch_token, after=0)
        await asyncio.sleep(0.3)  # both processes LISTEN from start-up; give the second a moment
        await asyncio.gather(_adjusts(gm_1, 10, "one"), _adjusts(gm_2, 10, "two"))
        last = max(gm_1.last_seq, gm_2.last_seq)
        for c in (gm_1, gm_2, watcher):
            await c.wait_for_seq(last, timeout=15)
            assert _seqs(c) == list(range(1, last + 1))
        assert gm_1.state == watcher.state
        for c in (gm_1, gm_2, watcher):
            await c.close()
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _received_seqs(client: CombatClient) -> list[int]:
    """Every seq a recording client received, catch-up and live, in arrival order."""
    assert client.received is not None
    seqs: list[int] = []
    for m in client.received:
        if m["type"] == "events":
            seqs += [item["seq"] for item in m["items"]]
        elif m["type"] == "event":
            seqs.append(m["seq"])
    return seqs


async def test_subscribing_while_a_peer_notification_is_in_flight_gets_each_seq_once(
    pg_databases, make_server: MakeServer, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    """b hears about a's appends late (NOTIFY is asynchronous; here 0.3 s late) and a subscriber
    joins in between, with a catch-up read from the store: no seq twice, none missing."""
    from combat_server.server import hub as hub_module

    monkeypatch.setattr(hub_module, "RECENT_EVENTS", 4)  # catch-up from the store, not the recent cache
    a, b = await _pair(make_server, pg_databases)
    gm, fid, tokens = await _fight(a)
    first = await _watch(b, tokens["watch-b"])
    await _adjusts(gm, 10, "early")
    await first.wait_for_seq(gm.last_seq)
    assert b.peers is not None
    heard = b.peers.on_append
    b.peers.on_append = lambda f, s: asyncio.get_running_loop().call_later(0.3, heard, f, s)
    await _adjusts(gm, 2, "late")
    late = await CombatClient.connect(b.ws_url, record=True)
    await late.subscribe(tokens["watch-b"], after=0)
    await asyncio.sleep(0.6)
    assert _received_seqs(late) == list(range(1, gm.last_seq + 1))
    await first.wait_for_seq(gm.last_seq)
    assert _seqs(first) == list(range(1, gm.last_seq + 1))
    for c in (gm, first, late):
        await c.close()


async def test_listener_survives_a_failing_handler(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """An error while handling a notification or resyncing restarts the listener; it never dies."""
    a, b = await _pair(make_server, pg_databases)
    gm, fid, tokens = await _fight(a)
    watcher = await _watch(b, tokens["watch-b"])
    assert b.peers is not None
    heard, failures = b.peers.on_append, [0]

    def flaky(fight_id: str, seq: int) -> None:
        if not failures[0]:
            failures[0] += 1
            raise RuntimeError("handler bug")
        heard(fight_id, seq)

    b.peers.on_append = flaky
    await _adjusts(gm, 3, "through a failure")
    await watcher.wait_for_seq(gm.last_seq, timeout=15)
    assert failures[0] == 1 and b.peers.connections >= 2
    assert _seqs(watcher) == list(range(1, gm.last_seq + 1))
    await gm.close()
    await watcher.close()


async def test_subscribing_after_lost_notifications_sees_the_log_not_a_stale_cache(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """b's listener is down while a appends (the notifications are lost); a subscriber on b that
    already saw everything (after = the real last seq) is accepted, not refused as ahead of b."""
    a, b = await _pair(make_server, pg_databases)
    gm, fid, tokens = await _fight(a)
    early = await _watch(b, tokens["watch-b"])
    await early.close()  # b caches the fight, nobody watches it there
    assert b.peers is not None
    b.peers.on_append = lambda f, s: None  # deaf: as if every notification were lost
    await _adjusts(gm, 3, "unheard")
    late = await CombatClient.connect(b.ws_url)
    reply = await late.subscribe(tokens["watch-b"], after=gm.last_seq)
    assert reply["last_seq"] == gm.last_seq
    await gm.close()
    await late.close()


async def test_notifications_read_during_a_heartbeat_reach_the_subscribers(
    pg_databases, make_server: MakeServer, monkeypatch: pytest.MonkeyPatch  # type: ignore[no-untyped-def]
) -> None:
    """b's listener checks its connection (SELECT 1) all the time: the notifications psycopg reads during those
    checks are handed on like the ones read between them, and b's watcher misses nothing."""
    from combat_server.store import pg_listen

    monkeypatch.setattr(pg_listen, "HEARTBEAT_SECONDS", 0.001)
    b, gm, watcher = await _watched_across(make_server, pg_databases, 20, "through heartbeats")
    assert b.peers is not None and b.peers.connections == 1  # heard, not caught up after a reconnection
    await gm.close()
    await watcher.close()


def test_the_listener_skips_what_its_own_store_notified_and_hands_on_the_rest() -> None:
    """A payload this process's store sent is dropped (this process pushed that append itself); another
    process's payload for the same fight, or a repeat of our own, is handed on."""
    from types import SimpleNamespace

    from combat_server.store.pg_listen import PeerListener
    from combat_server.store.sql import OwnNotifications

    async def nothing() -> None:
        return None

    own = OwnNotifications()
    heard: list[tuple[str, int]] = []
    listener = PeerListener("postgresql+psycopg://postgres@127.0.0.1/test", lambda f, s: heard.append((f, s)),
                            nothing, own)
    own.add("fight-1 7")
    for payload in ("fight-1 7", "fight-1 9", "fight-1 7", "garbage"):
        listener._heard(SimpleNamespace(payload=payload))
    assert heard == [("fight-1", 9), ("fight-1", 7)]


async def test_a_server_listens_knowing_its_own_stores_notifications(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """The server's listener skips exactly what the server's own store notified."""
    server = await make_server(url=pg_databases.new_url())
    assert server.peers is not None
    assert server.peers.own is not None and server.peers.own is getattr(server.engine.store, "own_notifications")


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_watcher_gets_the_events_of_a_command_that_failed_after_its_append(
    backend: str, request: pytest.FixtureRequest, make_server: MakeServer
) -> None:
    """The append committed, then the snapshot after it failed: the command is answered with an error and
    nothing publishes its events. On PostgreSQL the listener skips this process's own notifications
    (issue 16); on SQLite there is none. The server queues a refresh itself and the watcher is caught up
    without waiting for another command."""
    from combat_server.errors import StoreUnavailable

    if backend == "postgresql":
        server = await make_server(url=request.getfixturevalue("pg_databases").new_url(), snapshot_every=1)
        assert server.peers is not None
        await asyncio.wait_for(server.peers.listening.wait(), 10)
    else:
        server = await make_server(snapshot_every=1)
        assert server.peers is None
    gm, fid, tokens = await _fight(server)
    watcher = await _watch(server, tokens["watch-a"])
    store = server.engine.store
    real = store.save_snapshot_text

    def fails_once(*args: Any, **kwargs: Any) -> None:
        store.save_snapshot_text = real  # type: ignore[method-assign]
        raise StoreUnavailable(None, "the database could not be reached: a restart")

    store.save_snapshot_text = fails_once  # type: ignore[method-assign]
    with pytest.raises(ServerError) as refused:
        await gm.command("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "then the snapshot fails"})
    assert refused.value.code == "store/unavailable"
    committed = store.fight(fid).last_seq
    await watcher.wait_for_seq(committed, timeout=5)
    assert _seqs(watcher) == list(range(1, committed + 1))
    await gm.close()
    await watcher.close()


async def test_a_link_replaced_on_one_process_closes_its_connections_on_the_other(
    pg_databases, make_server: MakeServer  # type: ignore[no-untyped-def]
) -> None:
    """new_link on a: the seat's connection on b, opened with the old link, is closed with 4003 when b sees
    the links_reissued event, and cannot act for the seat any more (a black-box pass found it kept acting)."""
    a, b = await _pair(make_server, pg_databases)
    gm, _fid, tokens = await _fight(a)
    seats = {s["label"]: s["seat_id"] for s in await gm.list_seats()}
    old = await _watch(b, tokens["watch-b"])
    kept = await _watch(b, tokens["watch-a"])
    await gm.request({"type": "new_link", "seat": seats["watch-b"]})
    await old.wait_until(lambda c: bool(c.close_codes), 10)
    assert old.close_codes[0] == CLOSE_LINK_REPLACED
    await kept.wait_for_seq(gm.last_seq, timeout=10)
    assert not kept.close_codes
    late = await CombatClient.connect(b.ws_url)
    with pytest.raises(ServerError) as refused:
        await late.subscribe(tokens["watch-b"])
    assert refused.value.code == "auth/bad_token"
