"""The limits of the protocol (#15 items 3, 9, 11, 12, 13, 15; docs/protocol.md "Limits"), each on a
real server on loopback: what a client may send is bounded, refused with a clear code before it costs
anything, the connection stays usable and the log is untouched; what the server queues for a client is
bounded in bytes; only GET and HEAD get files."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
from typing import Any

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer
from combat_server.server.protocol import MAX_DEPTH, MAX_INT, MAX_TEXT, too_deep

from .conftest import MakeServer, Table, dump_log


async def _refused(client: CombatClient, message: dict[str, Any]) -> ServerError:
    with pytest.raises(ServerError) as err:
        await client.request(message)
    return err.value


async def _recording(server: CombatServer, **kwargs: Any) -> CombatClient:
    """A client that keeps every message it receives (replies to raw text have no pending request)."""
    client = await CombatClient.connect(server.ws_url, record=True, reconnect=False, **kwargs)
    await client.wait_until(lambda c: bool(c.welcome), 5)
    return client


async def _raw_refusal(client: CombatClient, text: str) -> dict[str, Any]:
    """Send ``text`` as it is and return the error the server answers with (by ref or without one)."""
    assert client.received is not None
    before = len(client.received)
    await client.send_raw(text)
    await client.wait_until(lambda c: any(m.get("type") == "error" for m in (c.received or [])[before:]), 5)
    return next(m for m in client.received[before:] if m.get("type") == "error")


def _command(args: dict[str, Any], command: str = "note", **extra: Any) -> dict[str, Any]:
    return {"type": "command", "command_id": f"c-{command}", "command": command, "args": args, **extra}


async def _still_usable(table: Table, before: dict[str, list[tuple[Any, ...]]]) -> None:
    assert dump_log(table.server.engine.store) == before
    assert (await table.gm.state_at(1))["seq"] == 1


# ---------------------------------------------------------------- item 3: text sizes


@pytest.mark.parametrize(("who", "message"), [
    pytest.param("gm", _command({"text": "x" * (MAX_TEXT + 1)}), id="note"),
    pytest.param("alice", _command({"seq": 2, "comment": "x" * (MAX_TEXT + 1)}, "dispute"), id="dispute-comment"),
    pytest.param("gm", _command({"id": "eve", "name": "E" * (MAX_TEXT + 1), "side": "pc", "sheet": {}},
                                "add_combatant"), id="combatant-name"),
    pytest.param("gm", _command({"id": "alice", "reason": "x" * (MAX_TEXT + 1)}, "remove_combatant"), id="reason"),
    pytest.param("gm", {"type": "add_seat", "role": "spectator", "label": "x" * 101}, id="seat-label"),
    pytest.param("gm", {"type": "create_fight", "title": "x" * 201}, id="fight-title"),
])
async def test_every_text_a_seat_sends_is_bounded(table: Table, who: str, message: dict[str, Any]) -> None:
    """#15 item 3: a note, comment, name, reason, label or title past its limit is protocol/schema,
    naming where, and nothing is appended (the message itself is well within max_message)."""
    before = dump_log(table.server.engine.store)
    client = table.gm if who == "gm" else table.alice
    error = await _refused(client, message)
    assert error.code == "protocol/schema"
    assert error.details and error.details["path"] in ("args/text", "args/comment", "args/name", "args/reason",
                                                        "label", "title")
    await _still_usable(table, before)


async def test_a_note_of_the_longest_text_is_accepted(table: Table) -> None:
    """#15 item 3: the limit is MAX_TEXT characters, not fewer."""
    result = await table.gm.command("note", {"text": "x" * MAX_TEXT})
    assert result["first_seq"] == result["last_seq"]


async def test_notes_are_not_in_the_pushed_state_but_in_the_events(table: Table) -> None:
    """#15 item 3: every push carries the state, so the ever-growing log of notes stays out of it;
    clients read a note from its note_added event (live, catch-up and replay)."""
    seq = (await table.gm.command("note", {"text": "the bridge is out"}))["last_seq"]
    await table.spectator.wait_for_seq(seq)
    pushed = table.spectator.events[-1]
    assert pushed.event["type"] == "note_added" and pushed.event["payload"]["text"] == "the bridge is out"
    assert pushed.state is not None and "notes" not in pushed.state
    assert "notes" not in await table.spectator.state_at(seq)
    late = await CombatClient.connect(table.server.ws_url)
    try:
        reply = await late.subscribe(table.tokens["spectator"], after=0)
        assert "notes" not in reply["state"]
        await late.wait_for_seq(seq)
        assert [e.event["payload"]["text"] for e in late.events if e.event["type"] == "note_added"] == \
            ["the bridge is out"]
    finally:
        await late.close()
    assert table.server.engine.load(table.fight_id).notes[-1] == "the bridge is out"  # the log keeps it


async def test_a_client_that_stops_reading_is_closed_by_queued_bytes(make_server: MakeServer) -> None:
    """#15 item 3: the queue is bounded in bytes as well as in messages, so a client that stopped
    reading is closed with 4008 long before its message count is reached."""
    server = await make_server(queue_size=512, queue_bytes=60_000)
    async with await CombatClient.connect(server.ws_url) as gm:
        created = await gm.create_fight("gurps", dice_mode="seeded", seed="s")
        await gm.subscribe(created["token"])
        spectator = (await gm.add_seat("spectator"))["token"]
        slow = await CombatClient.connect(server.ws_url, reconnect=False)
        try:
            await slow.subscribe(spectator)
            assert slow._ws is not None
            local = slow._ws.local_address
            (session,) = [s for s in server.sessions if s.seat and s.ws.remote_address == local]
            stuck = asyncio.Event()

            async def never_drains(message: str) -> None:
                await stuck.wait()  # as a socket whose peer stopped reading

            session.ws.transport.get_write_buffer_size = lambda: 10 ** 9  # type: ignore[method-assign]
            session.ws.send = never_drains  # type: ignore[method-assign,assignment]
            for i in range(40):  # each push carries the 2,000-character note: 40 of them are past 60,000
                await gm.command("note", {"text": f"{i:04d}" + "n" * (MAX_TEXT - 4)})
            await slow.wait_until(lambda c: bool(c.close_codes), 10)
            assert slow.close_codes == [4008]
        finally:
            await slow.close()


# ---------------------------------------------------------------- item 9: rate and flood


async def test_a_client_that_keeps_sending_past_the_rate_is_closed_4029(make_server: MakeServer) -> None:
    """#15 item 9: over a real socket, a client that keeps sending past the rate is closed with 4029. The
    steady case (one message through at each refill does not reset the flood count) is timed by an injected
    clock in test_inbound.py, so this test sends as fast as it can and does not depend on the machine's speed."""
    server = await make_server(rate=20.0, burst=1, flood_close=40)
    c = await CombatClient.connect(server.ws_url, reconnect=False)
    try:
        for _ in range(240):
            if c.close_codes:
                break
            await c.send_raw('{"type":"list_seats"}')
        await c.wait_until(lambda x: bool(x.close_codes), 5)
        assert c.close_codes == [4029]
    finally:
        await c.close()


async def test_the_flood_count_starts_again_after_a_quiet_second(make_server: MakeServer) -> None:
    """#15 item 9: a client that slows down when told is not closed, however often it was limited."""
    server = await make_server(rate=50.0, burst=5, flood_close=30)
    c = await CombatClient.connect(server.ws_url, reconnect=False)
    try:
        for _ in range(3):
            for _ in range(25):  # 20 of them limited: below the threshold
                await c.send_raw('{"type":"list_seats"}')
            await asyncio.sleep(1.2)
        assert (await _refused(c, {"type": "list_seats"})).code == "auth/not_joined"
        assert c.close_codes == []
    finally:
        await c.close()


async def test_a_rate_limited_message_is_not_decoded(make_server: MakeServer) -> None:
    """#15 item 9: past the rate, the message is dropped unread (so unreadable JSON is rate/limited,
    not bad_json); a plain ref is still echoed."""
    server = await make_server(rate=1.0, burst=1)
    c = await _recording(server)
    try:
        assert (await _refused(c, {"type": "list_seats"})).code == "auth/not_joined"  # the one token
        reply = await _raw_refusal(c, '{"ref":"r-9", not json')
        assert reply["code"] == "rate/limited" and reply["ref"] == "r-9"
    finally:
        await c.close()


async def test_a_message_over_the_size_limit_is_not_decoded(table: Table) -> None:
    """#15 item 9: the size is checked before decoding: an oversized unreadable message is too_big."""
    limit = table.server.config.max_message
    c = await _recording(table.server)
    reply = await _raw_refusal(c, '{"type":"command","ref":"big-1","x":"' + "x" * limit + '" oops')
    assert reply["code"] == "protocol/too_big" and reply["ref"] == "big-1"
    assert reply["details"] == {"limit": limit}
    assert (await _refused(c, {"type": "list_seats"})).code == "auth/not_joined"
    await c.close()


# ---------------------------------------------------------------- item 11: lone surrogates


@pytest.mark.parametrize("message", [
    pytest.param(_command({"text": "a\ud800b"}), id="note"),
    pytest.param(_command({"text": "n"}) | {"command_id": "c\udfff"}, id="command_id"),
    pytest.param({"type": "add_seat", "role": "spectator", "label": "\ud83d"}, id="label"),
    pytest.param(_command({"id": "eve", "name": "\udc00", "side": "pc", "sheet": {}}, "add_combatant"), id="name"),
    pytest.param(_command({"text": "n", "\ud800": 1}), id="key"),
])
async def test_a_lone_surrogate_is_refused_as_schema(table: Table, message: dict[str, Any]) -> None:
    """#15 item 11: a lone surrogate is not text (no UTF-8 for it): protocol/schema, never
    internal/error, and the connection stays open."""
    before = dump_log(table.server.engine.store)
    error = await _refused(table.gm, message)
    assert error.code == "protocol/schema" and "surrogate" in error.message
    await _still_usable(table, before)


async def test_a_lone_surrogate_in_ref_or_token_keeps_the_connection(table: Table) -> None:
    """#15 item 11: a surrogate in the ref (which cannot be echoed) or a token is refused, unechoed,
    and the connection is not closed (it was 1011)."""
    before = dump_log(table.server.engine.store)
    c = await _recording(table.server)
    await c.subscribe(table.tokens["gm"])
    bad_ref = await _raw_refusal(c, json.dumps({"type": "state_at", "seq": 1, "ref": "\ud800"}))
    assert bad_ref["code"] == "protocol/schema" and "ref" not in bad_ref
    fresh = await CombatClient.connect(table.server.ws_url, reconnect=False)
    try:
        assert (await _refused(fresh, {"type": "subscribe", "token": "t\ud800"})).code == "protocol/schema"
        assert fresh.close_codes == []
    finally:
        await fresh.close()
    await _still_usable(table, before)
    assert (await c.state_at(1))["seq"] == 1 and c.close_codes == []
    await c.close()


# ---------------------------------------------------------------- item 12: nesting


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"a": [value]} if depth % 2 else [value]
    return value


async def test_deep_nesting_is_refused_before_decoding(table: Table) -> None:
    """#15 item 12: 500 levels in args is protocol/too_deep (it was a RecursionError: internal/error)."""
    before = dump_log(table.server.engine.store)
    error = await _refused(table.gm, _command({"text": "n", "x": _nested(500)}))
    assert error.code == "protocol/too_deep" and error.details == {"limit": MAX_DEPTH}
    await _still_usable(table, before)


async def test_nesting_within_the_limit_and_brackets_in_text_are_not_refused(table: Table) -> None:
    """#15 item 12: MAX_DEPTH levels are allowed (the message's own object is the first), and brackets
    inside strings do not count."""
    error = await _refused(table.gm, _command({"text": "n", "x": _nested(MAX_DEPTH - 2)}))
    assert error.code == "command/unknown_field"  # through the protocol, refused by the rules
    result = await table.gm.command("note", {"text": "[{" * 500 + "\\\"[["})
    assert result["first_seq"] == result["last_seq"]


@pytest.mark.parametrize(("text", "deep"), [
    pytest.param("[" * 33 + "]" * 33, True, id="33-levels"),
    pytest.param("[" * 32 + "]" * 32, False, id="32-levels"),
    pytest.param('{"a":"' + "[" * 40 + '"}', False, id="brackets-in-a-string"),
    pytest.param('["\\\"' + "[" * 40 + '"]', False, id="escaped-quote-in-a-string"),
    pytest.param("[" * 33 + '"' + '\\"' * 1000, True, id="unterminated-string-after"),
    pytest.param('"' + '\\"' * 1000 + "[" * 40, False, id="unterminated-string-before"),
])
def test_nesting_is_measured_on_the_raw_text(text: str, deep: bool) -> None:
    """#15 item 12: the depth scan skips strings (escapes included) and ends at an unterminated one."""
    assert too_deep(text, MAX_DEPTH) is deep


# ---------------------------------------------------------------- item 13: integers


@pytest.mark.parametrize("message", [
    pytest.param({"type": "replay", "upto": 2 ** 63}, id="replay-upto"),
    pytest.param({"type": "replay", "after": 2 ** 64}, id="replay-after"),
    pytest.param({"type": "state_at", "seq": 2 ** 63}, id="state_at-seq"),
    pytest.param(_command({"text": "n"}, expect_seq=2 ** 63), id="expect_seq"),
    pytest.param(_command({"text": "n"}, faces=[[2 ** 63]]), id="faces"),
    pytest.param(_command({"seq": -(2 ** 70), "comment": "c"}, "dispute"), id="args-seq"),
    pytest.param(_command({"combatant": "alice", "changes": {"hp": MAX_INT + 1}, "reason": "r"}, "adjust"),
                 id="args-adjust"),
])
async def test_every_integer_is_bounded(table: Table, message: dict[str, Any]) -> None:
    """#15 item 13: an integer past 2**53 - 1 in magnitude, anywhere in a message, is protocol/schema
    (``replay {upto: 2**63}`` was an OverflowError: internal/error)."""
    before = dump_log(table.server.engine.store)
    error = await _refused(table.gm, message)
    assert error.code == "protocol/schema", error
    await _still_usable(table, before)


# ---------------------------------------------------------------- item 15: HTTP methods


def _http(server: CombatServer, method: str, path: str = "/") -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "TRACE", "PATCH", "OPTIONS"])
async def test_only_get_and_head_serve_files(server: CombatServer, method: str) -> None:
    """#15 item 15: any other method is 405 with ``Allow: GET, HEAD``, and no file."""
    status, headers, body = await asyncio.to_thread(_http, server, method, "/app.js")
    assert status == 405
    assert headers["Allow"] == "GET, HEAD"
    assert b"function" not in body


def _raw_http(server: CombatServer, request: bytes) -> bytes:
    """Send raw bytes and read the whole answer until the server closes (b"" if it only hung up)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize("method", ["POST", "PUT"])
async def test_a_request_with_a_body_is_answered_405_not_dropped(server: CombatServer, method: str) -> None:
    """#15 item 15 (black-box pass): a POST/PUT with a body is 405 with ``Allow: GET, HEAD``, like one without."""
    request = (f"{method} /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\nabc=1").encode()
    answer = await asyncio.to_thread(_raw_http, server, request)
    head = answer.split(b"\r\n\r\n", 1)[0].decode()
    assert head.startswith("HTTP/1.1 405 "), answer
    assert "\r\nAllow: GET, HEAD\r\n" in head + "\r\n"


@pytest.mark.parametrize("body_header", ["Content-Length: 3", "Transfer-Encoding: chunked"])
async def test_a_get_with_a_body_is_a_clean_400(server: CombatServer, body_header: str) -> None:
    """#15 item 15 (black-box pass): GET or a websocket upgrade never carries a body; it is 400, not a hang-up."""
    request = f"GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n{body_header}\r\n\r\n3\r\nabc\r\n0\r\n\r\n".encode()
    answer = await asyncio.to_thread(_raw_http, server, request)
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert b"body" in answer.split(b"\r\n\r\n", 1)[1]


async def test_get_serves_a_file_and_head_its_headers(server: CombatServer) -> None:
    """#15 item 15: GET gets the file; HEAD the same headers, no body."""
    status, headers, body = await asyncio.to_thread(_http, server, "GET", "/app.js")
    assert status == 200 and len(body) == int(headers["Content-Length"]) > 0
    status, head_headers, head_body = await asyncio.to_thread(_http, server, "HEAD", "/app.js")
    assert status == 200 and head_body == b""
    assert head_headers["Content-Length"] == headers["Content-Length"]
    status, _headers, missing = await asyncio.to_thread(_http, server, "HEAD", "/nothing-here.js")
    assert status == 404 and missing == b""
