"""Delivery guarantees on a real server: ordered and gapless to every subscriber,
one command at a time per fight, slow clients cut off without delaying others,
reconnects that lose and double nothing."""

from __future__ import annotations

import asyncio

import pytest

from combat_server.client import CombatClient, ServerError

from .conftest import Connect, MakeServer, Table


async def test_concurrent_commands_reach_every_subscriber_in_order(table: Table, connect: Connect) -> None:
    """Commands racing from four seats: every subscriber sees seqs 1..N once each, in order."""
    watchers = [table.spectator, await connect(), await connect()]
    for w in watchers[1:]:
        await w.subscribe(table.tokens["spectator"], after=0)

    async def send(client: CombatClient, n: int) -> list[dict[str, int]]:
        return [await client.command("note", {"text": f"{client.seat and client.seat['seat_id']} {i}"})
                for i in range(n)]

    results = await asyncio.gather(send(table.gm, 25), send(table.alice, 25), send(table.bob, 25),
                                   send(table.gm, 25))
    seqs = sorted(s for r in results for res in r for s in range(res["first_seq"], res["last_seq"] + 1))
    last = table.server.engine.load(table.fight_id).seq
    assert seqs == list(range(seqs[0], last + 1))
    for w in watchers + [table.gm, table.alice, table.bob]:
        await w.wait_for_seq(last)
        assert [e.seq for e in w.events] == list(range(1, last + 1))


async def test_result_arrives_after_the_events_it_names(table: Table) -> None:
    """The reply to a command comes after its events on the same connection."""
    result = await table.alice.command("note", {"text": "ordered"})
    assert table.alice.last_seq >= result["last_seq"]


async def test_two_gms_racing_on_one_prompt_one_wins(table: Table, connect: Connect) -> None:
    """Two GM connections rule on the same dispute at once: one wins, the other gets dispute/unknown."""
    second_gm = await connect()
    await second_gm.subscribe(table.tokens["gm"])
    await table.alice.command("dispute", {"seq": 2, "comment": "?"})
    prompt = await table.gm.wait_for_prompt("dispute")
    args = {"dispute": prompt["id"], "verdict": "uphold"}
    outcomes = await asyncio.gather(table.gm.command("rule", args), second_gm.command("rule", args),
                                    return_exceptions=True)
    errors = [o for o in outcomes if isinstance(o, ServerError)]
    assert len(errors) == 1 and errors[0].code == "dispute/unknown"
    events = table.server.engine.store.events(table.fight_id)
    assert [e.type for e in events].count("dispute_ruled") == 1


async def test_racing_with_expect_seq_one_wins_other_is_stale(table: Table) -> None:
    """Two players acting on the same seq: the second is refused command/stale_seq."""
    seq = table.gm.last_seq
    outcomes = await asyncio.gather(
        table.alice.command("note", {"text": "a"}, expect_seq=seq),
        table.bob.command("note", {"text": "b"}, expect_seq=seq), return_exceptions=True)
    errors = [o for o in outcomes if isinstance(o, ServerError)]
    assert len(errors) == 1 and errors[0].code == "command/stale_seq"
    assert errors[0].details == {"expected": seq, "actual": seq + 1}


async def test_slow_client_is_cut_off_and_others_are_not_delayed(make_server: MakeServer) -> None:
    """A client whose socket stops draining is closed with 4008; the others get every event; it catches up."""
    server = await make_server(queue_size=8)
    async with await CombatClient.connect(server.ws_url) as gm:
        created = await gm.create_fight("gurps", dice_mode="seeded", seed="s")
        await gm.subscribe(created["token"])
        spectator = (await gm.add_seat("spectator"))["token"]
        fast = await CombatClient.connect(server.ws_url)
        slow = await CombatClient.connect(server.ws_url, reconnect=False)
        try:
            await fast.subscribe(spectator)
            await slow.subscribe(spectator)
            assert slow._ws is not None
            local = slow._ws.local_address
            (session,) = [s for s in server.sessions if s.seat and s.ws.remote_address == local]
            stuck = asyncio.Event()

            async def never_drains(message: str) -> None:
                await stuck.wait()  # as a socket whose peer stopped reading

            # The socket's buffer is full and never drains: the server stops writing
            # directly, queues, and its writer waits forever.
            session.ws.transport.get_write_buffer_size = lambda: 10 ** 9  # type: ignore[method-assign]
            session.ws.send = never_drains  # type: ignore[method-assign,assignment]
            last = 0
            for i in range(30):
                last = (await gm.command("note", {"text": f"n{i}"}))["last_seq"]
            await fast.wait_for_seq(last)
            assert [e.seq for e in fast.events] == list(range(1, last + 1))
            await slow.wait_until(lambda c: bool(c.close_codes), 10)
            assert slow.close_codes == [4008]
            assert session not in server.hub(created["fight_id"]).subscribers
            # It reconnects with the last seq it saw and catches up, nothing doubled.
            seen = slow.last_seq
            again = await CombatClient.connect(server.ws_url)
            await again.subscribe(spectator, after=seen)
            await again.wait_for_seq(last)
            assert [e.seq for e in again.events] == list(range(seen + 1, last + 1))
            await again.close()
        finally:
            await fast.close()
            await slow.close()


async def test_client_reconnects_from_last_seq_without_loss_or_doubles(table: Table) -> None:
    """The connection drops mid-fight; the client reconnects, resubscribes and resends its pending command."""
    for i in range(5):
        await table.gm.command("note", {"text": f"before {i}"})
    await table.spectator.wait_for_seq(table.gm.last_seq)
    await table.spectator.drop_connection()
    await table.alice.drop_connection()
    for i in range(5):
        await table.gm.command("note", {"text": f"while away {i}"})
    # alice's command goes out while she is reconnecting: sent once she is back, applied once.
    result = await table.alice.command("note", {"text": "from alice"}, command_id="alice-1")
    last = table.server.engine.load(table.fight_id).seq
    for c in (table.spectator, table.alice):
        await c.wait_for_seq(last)
        assert [e.seq for e in c.events] == list(range(1, last + 1))
        assert c.reconnects == 1
    assert result["last_seq"] == last
    notes = table.server.engine.load(table.fight_id).notes
    assert notes.count("from alice") == 1


async def test_catch_up_after_restart_of_the_hub_cache(table: Table, connect: Connect) -> None:
    """A subscriber whose last seq is older than the in-memory cache catches up from the store."""
    hub = table.server.hub(table.fight_id)
    for i in range(3):
        await table.gm.command("note", {"text": str(i)})
    hub._recent.clear()  # as after a restart
    c = await connect()
    await c.subscribe(table.tokens["bob"], after=3)
    last = table.gm.last_seq
    await c.wait_for_seq(last)
    assert [e.seq for e in c.events] == list(range(4, last + 1))
    assert all(e.explanation for e in c.events)
    expected = [i["explanation"] for i in await table.bob.replay(after=3)]
    assert [e.explanation for e in c.events] == expected


async def test_a_request_not_answered_in_time_raises_timeout_error_and_is_forgotten() -> None:
    """``request(timeout=...)``: a server that never answers gives ``TimeoutError`` (as ``asyncio.wait_for`` did
    before issue 16 replaced it with a timer), and the request is not resent after a reconnect."""
    from websockets.asyncio.server import ServerConnection, serve

    async def silent(ws: ServerConnection) -> None:
        await ws.wait_closed()

    async with serve(silent, "127.0.0.1", 0) as listener:
        port = listener.sockets[0].getsockname()[1]
        client = await CombatClient.connect(f"ws://127.0.0.1:{port}/ws", reconnect=False)
        try:
            with pytest.raises(asyncio.TimeoutError):
                await client.request({"type": "list_seats"}, timeout=0.05)
            assert client._pending == {}
        finally:
            await client.close()


async def test_subscribed_comes_before_a_catch_up_read_from_the_store(table: Table) -> None:
    """docs/protocol.md: `subscribed`, then `events`, then live events. A catch-up from the store (here
    from seq 0, before the hub's recent cache) held the reply back with the live messages, so the
    catch-up came first on the wire (a black-box pass saw it in the browser)."""
    import json

    import websockets

    async with websockets.connect(table.server.ws_url) as ws:
        assert json.loads(await ws.recv())["type"] == "welcome"
        await ws.send(json.dumps({"type": "subscribe", "token": table.tokens["spectator"], "after": 0}))
        first, second = json.loads(await ws.recv()), json.loads(await ws.recv())
    assert (first["type"], second["type"]) == ("subscribed", "events")
    assert second["items"][0]["seq"] == 1
