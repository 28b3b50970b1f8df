"""Bad input, table-driven: every error code the server adds (and the engine's
that pass through) is produced by a real message on a real connection, the
connection stays usable, and the log is untouched."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Awaitable, Callable

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer
from combat_server.server.protocol import SERVER_ERRORS

from .conftest import Connect, MakeServer, Table, dump_log

KEY = "the-server-key"


@pytest.fixture
async def server(make_server: MakeServer) -> CombatServer:
    """A server that creates fights only with a key and limits each connection to 50 messages/s."""
    return await make_server(create_policy="key", server_key=KEY, rate=50.0, burst=50, max_message=4096)


Action = Callable[[Table, Connect], Awaitable[tuple[CombatClient, Any]]]


async def _raw(client: CombatClient, data: str | bytes) -> ServerError:
    """Send raw data; the refusal comes back without a ref (the server could not read one)."""
    before = len(client.errors)
    await client.send_raw(data)
    await client.wait_until(lambda c: len(c.errors) > before, 5)
    return client.errors[-1]


async def _request(client: CombatClient, message: dict[str, Any]) -> ServerError:
    with pytest.raises(ServerError) as err:
        await client.request(message)
    return err.value


async def _flood(table: Table, connect: Connect) -> tuple[CombatClient, ServerError]:
    c = await connect()
    await c.subscribe(table.tokens["spectator"])
    # list_seats from a spectator is refused at once (auth/gm_only, no read of the store), so the
    # burst is over long before the bucket refills, however loaded the machine.
    results = await asyncio.gather(*(c.list_seats() for _ in range(120)), return_exceptions=True)
    refused = [r for r in results if isinstance(r, ServerError) and r.code == "rate/limited"]
    assert refused and all(isinstance(r, ServerError) and r.code in ("rate/limited", "auth/gm_only")
                           for r in results)
    await asyncio.sleep(1.1)  # the bucket refills: usable again
    return c, refused[0]


async def _internal(table: Table, connect: Connect) -> tuple[CombatClient, ServerError]:
    engine = table.server.engine

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    original = engine.execute
    engine.execute = broken  # type: ignore[method-assign]
    try:
        return table.gm, await _request(table.gm, {"type": "command", "command_id": "x", "command": "note",
                                                   "args": {"text": "n"}})
    finally:
        engine.execute = original  # type: ignore[method-assign]


def case(code: str, action: Callable[[Table, Connect], Awaitable[tuple[CombatClient, ServerError]]]) -> Any:
    return pytest.param(code, action, id=code)


async def gm_req(t: Table, m: dict[str, Any]) -> tuple[CombatClient, ServerError]:
    return t.gm, await _request(t.gm, m)


def cmd(command: str, args: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command_id": f"c-{command}", "command": command, "args": args or {}, **extra}


CASES = [
    # --- added by the server
    case("protocol/bad_json", lambda t, c: _pair(t.gm, _raw(t.gm, "{not json"))),
    case("protocol/unknown_type", lambda t, c: _pair(t.gm, _raw(t.gm, json.dumps({"type": "explode"})))),
    case("protocol/schema", lambda t, c: gm_req(t, {"type": "command", "command_id": "x"})),
    case("protocol/version", lambda t, c: gm_req(t, {"type": "state_at", "seq": 1, "v": 1})),
    case("protocol/too_big", lambda t, c: gm_req(t, cmd("note", {"text": "x" * 5000}))),
    case("protocol/too_deep", lambda t, c: gm_req(t, cmd("note", {"text": "n", "deep": _nested(40)}))),
    case("protocol/binary", lambda t, c: _pair(t.gm, _raw(t.gm, b"\x00\x01"))),
    case("rate/limited", _flood),
    case("auth/bad_token", lambda t, c: _fresh_req(c, {"type": "subscribe", "token": "nope", "after": 0})),
    case("auth/server_key", lambda t, c: _fresh_req(c, {"type": "create_fight", "server_key": "wrong"})),
    case("auth/not_joined", lambda t, c: _fresh_req(c, {"type": "state_at", "seq": 1})),
    case("auth/already_joined", lambda t, c: _pair(t.alice, _request(t.alice, {"type": "subscribe",
                                                                               "token": t.tokens["bob"]}))),
    case("auth/read_only", lambda t, c: _pair(t.spectator, _request(t.spectator, cmd("note", {"text": "hi"})))),
    case("auth/gm_only", lambda t, c: _pair(t.alice, _request(t.alice, {"type": "add_seat", "role": "spectator"}))),
    case("seat/unknown_combatant", lambda t, c: gm_req(t, {"type": "add_seat", "role": "player",
                                                           "combatants": ["nobody"]})),
    case("seat/no_combatants", lambda t, c: gm_req(t, {"type": "add_seat", "role": "player"})),
    case("seat/unknown", lambda t, c: gm_req(t, {"type": "new_link", "seat": "player-99"})),
    case("seat/own_link", lambda t, c: gm_req(t, {"type": "new_link", "seat": "gm"})),
    case("command/stale_seq", lambda t, c: gm_req(t, cmd("note", {"text": "late"}, expect_seq=1))),
    case("replay/bad_seq", lambda t, c: gm_req(t, {"type": "state_at", "seq": 999})),
    case("store/unavailable", lambda t, c: _database_fails(t)),
    case("internal/error", _internal),
    # --- raised by the engine and the rules, passed through unchanged
    case("command/unknown", lambda t, c: gm_req(t, cmd("explode"))),
    case("command/missing_field", lambda t, c: gm_req(t, cmd("adjust", {"reason": "r", "changes": {"hp": 1}}))),
    case("command/id_reused", lambda t, c: _reused(t)),
    case("command/unknown_field", lambda t, c: gm_req(t, cmd("note", {"text": "n", "txet": "typo"}))),
    case("combatant/unknown", lambda t, c: gm_req(t, cmd("adjust", {"combatant": "nobody", "reason": "r",
                                                                    "changes": {"hp": 1}}))),
    case("adjust/reason_required", lambda t, c: gm_req(t, cmd("adjust", {"combatant": "alice", "reason": " ",
                                                                         "changes": {"hp": 1}}))),
    case("roll/faces_not_allowed", lambda t, c: gm_req(t, cmd("note", {"text": "n"}, faces=[[1, 2, 3]]))),
    case("dispute/bad_seq", lambda t, c: _pair(t.alice, _request(t.alice, cmd("dispute", {"seq": 999,
                                                                                          "comment": "?"})))),
    case("dispute/unknown", lambda t, c: gm_req(t, cmd("rule", {"dispute": "dispute:1", "verdict": "uphold"}))),
    case("redo/nothing", lambda t, c: gm_req(t, cmd("redo"))),
    case("fight/unknown_ruleset", lambda t, c: _fresh_req(c, {"type": "create_fight", "ruleset": "chess",
                                                               "server_key": KEY})),
]


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


async def _database_fails(t: Table) -> tuple[CombatClient, ServerError]:
    """The database fails under a read (its events table out of reach for a moment; a real outage on
    PostgreSQL is in test_postgres.py): a clear, retryable store/unavailable, not a server bug."""
    store = t.server.engine.store
    with store.engine.begin() as conn:
        conn.exec_driver_sql("ALTER TABLE events RENAME TO events_away")
    try:
        return t.gm, await _request(t.gm, {"type": "state_at", "seq": 1})
    finally:
        with store.engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE events_away RENAME TO events")


async def _reused(t: Table) -> tuple[CombatClient, ServerError]:
    """The command id of the GM's add_combatant (seq 2) sent again with an adjust."""
    used = next(i["event"]["command_id"] for i in await t.gm.replay(after=1, upto=2)).split(":", 1)[1]
    return t.gm, await _request(t.gm, cmd("adjust", {"combatant": "alice", "changes": {"hp": 3}, "reason": "r"},
                                          command_id=used))


async def _pair(client: CombatClient, error: Awaitable[ServerError]) -> tuple[CombatClient, ServerError]:
    return client, await error


async def _fresh_req(connect: Connect, message: dict[str, Any]) -> tuple[CombatClient, ServerError]:
    c = await connect()
    return c, await _request(c, message)


def test_the_table_covers_every_server_code() -> None:
    """Each code in protocol.SERVER_ERRORS has a row in the table."""
    assert set(SERVER_ERRORS) <= {p.values[0] for p in CASES}


@pytest.mark.parametrize(("code", "action"), CASES)
async def test_error_code(table: Table, connect: Connect, code: str,
                          action: Callable[[Table, Connect], Awaitable[tuple[CombatClient, ServerError]]]) -> None:
    """The bad input gets its stable code, the log is untouched, the connection still works."""
    store = table.server.engine.store
    before = dump_log(store)
    client, error = await action(table, connect)
    assert error.code == code, error
    assert error.message
    assert dump_log(store) == before
    if client.seat is not None:
        assert (await client.state_at(1))["seq"] == 1
    else:
        reply = await client.subscribe(table.tokens["spectator"])
        assert reply["fight_id"] == table.fight_id


async def test_past_hard_size_limit_closes_1009(table: Table, connect: Connect) -> None:
    """A message past the hard limit closes the socket with 1009 (RFC 6455 section 7.4.1)."""
    c = await connect(reconnect=False)
    await c.send_raw("x" * (table.server.config.hard_max_message + 10))
    await c.wait_until(lambda x: bool(x.close_codes), 5)
    assert c.close_codes == [1009]


async def test_flooding_far_past_the_limit_closes_4029(make_server: MakeServer) -> None:
    """A connection that keeps flooding after refusals is closed with 4029."""
    server = await make_server(rate=1.0, burst=1, flood_close=20)
    c = await CombatClient.connect(server.ws_url, reconnect=False)
    try:
        for _ in range(40):
            await c.send_raw('{"type":"list_seats"}')
        await c.wait_until(lambda x: bool(x.close_codes), 5)
        assert c.close_codes == [4029]
    finally:
        await c.close()

