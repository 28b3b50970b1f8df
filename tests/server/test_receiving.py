"""server/receiving.py and ``app.Session.take_text``: client messages handled as they are parsed
(issue 16), in the order they arrived, with the library's checks kept."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode

from combat_server.server import CombatServer
from combat_server.server.receiving import Started, start
from tests.server.conftest import Table


async def _joined(server: CombatServer, token: str) -> ClientConnection:
    ws = await connect(server.ws_url)
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "subscribe", "token": token, "ref": "join"}))
    while json.loads(await ws.recv()).get("ref") != "join":
        pass
    return ws


async def _replies(ws: ClientConnection, n: int) -> list[dict[str, Any]]:
    """The next ``n`` messages that answer a request (they carry a ``ref``); pushes are skipped."""
    out: list[dict[str, Any]] = []
    while len(out) < n:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if "ref" in message:
            out.append(message)
    return out


def test_a_coroutine_that_does_not_wait_is_finished_by_start() -> None:
    async def seven() -> int:
        return 7

    assert start(seven()) == (True, 7)


async def test_a_coroutine_that_waits_is_finished_by_awaiting_what_start_returned() -> None:
    gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    async def doubled() -> int:
        return 2 * await gate

    done, rest = start(doubled())
    assert not done and isinstance(rest, Started)
    asyncio.get_running_loop().call_soon(gate.set_result, 21)
    assert await rest == 42


async def test_cancelling_the_task_that_awaits_the_rest_cancels_the_coroutine() -> None:
    cleaned: list[str] = []

    async def waits() -> None:
        try:
            await asyncio.sleep(10)
        finally:
            cleaned.append("finally")

    done, rest = start(waits())
    assert not done

    async def finish() -> None:
        await rest

    task = asyncio.get_running_loop().create_task(finish())
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert cleaned == ["finally"]


async def test_a_message_after_one_that_waits_for_the_fight_is_answered_after_it(table: Table) -> None:
    """The command waits for the fight's lock (held here); the ``view`` request behind it needs no lock,
    yet is answered second: messages are handled in the order they arrived."""
    gm = await _joined(table.server, table.tokens["gm"])
    hub = table.server.hub(table.fight_id)
    async with hub.lock:
        await gm.send(json.dumps({"type": "command", "command_id": "c1", "command": "adjust", "ref": "first",
                                  "args": {"combatant": "alice", "changes": {"hp": 3}, "reason": "test"}}))
        await gm.send(json.dumps({"type": "view", "ref": "second"}))
        await asyncio.sleep(0.05)
    first, second = await _replies(gm, 2)
    assert (first["ref"], first["type"], second["ref"], second["type"]) == ("first", "result", "second", "full_view")
    assert second["seq"] == first["last_seq"]
    await gm.close()


async def test_messages_sent_in_one_write_are_answered_in_order(table: Table) -> None:
    gm = await _joined(table.server, table.tokens["gm"])
    refs = [f"r{i}" for i in range(20)]
    for i, ref in enumerate(refs):  # queued by the client's protocol, written out together
        kind = {"type": "view"} if i % 2 else {"type": "command", "command_id": f"c{i}", "command": "adjust",
                                                "args": {"combatant": "bob", "changes": {"hp": i}, "reason": "t"}}
        gm.protocol.send_text(json.dumps({**kind, "ref": ref}).encode())
    gm.send_data()
    assert [m["ref"] for m in await _replies(gm, len(refs))] == refs
    await gm.close()


async def test_a_whole_message_after_a_fragmented_one_is_answered_after_it(table: Table) -> None:
    """The fragmented message goes the library's way (``recv`` assembles it); the whole one that follows
    in the same write must wait for it."""
    gm = await _joined(table.server, table.tokens["gm"])
    first = json.dumps({"type": "view", "ref": "fragmented"}).encode()
    gm.protocol.send_text(first[:10], fin=False)
    gm.protocol.send_continuation(first[10:], fin=True)
    gm.protocol.send_text(json.dumps({"type": "view", "ref": "whole"}).encode())
    gm.send_data()
    assert [m["ref"] for m in await _replies(gm, 2)] == ["fragmented", "whole"]
    await gm.close()


async def test_a_text_frame_that_is_not_utf8_still_closes_the_connection_1007(table: Table) -> None:
    gm = await _joined(table.server, table.tokens["gm"])
    gm.protocol.send_frame(Frame(Opcode.TEXT, b'{"type":"view","ref":"\xff"}'))
    gm.send_data()
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(gm.recv(), 5)
    assert gm.close_code == 1007


async def test_a_bug_while_a_message_is_handled_closes_that_connection_1011(
        table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception that escapes a request's steps is logged and closes its connection (as websockets
    does for a handler that raised); the other connections are served on."""
    from combat_server.server.connection import Connection, Steps

    real = Connection.receive

    def receive(self: Connection, raw: str | bytes) -> Steps:
        if isinstance(raw, str) and "boom" in raw:
            raise RuntimeError("a bug")
        return real(self, raw)

    monkeypatch.setattr(Connection, "receive", receive)
    gm = await _joined(table.server, table.tokens["gm"])
    await gm.send(json.dumps({"type": "view", "ref": "boom"}))
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(gm.recv(), 5)
    assert gm.close_code == 1011
    other = await _joined(table.server, table.tokens["spectator"])
    await other.send(json.dumps({"type": "view", "ref": "still"}))
    assert (await _replies(other, 1))[0]["type"] == "full_view"
    await other.close()


def test_nothing_the_server_runs_outside_a_task_needs_one() -> None:
    """``receiving.start`` runs a session's effects outside any task until they first wait: code on
    that path must not enter ``asyncio.timeout()`` (``asyncio.wait_for`` from Python 3.12, built on
    it) or ask for ``current_task()``, which would fail there. The session's effects live in the
    server and the engine: neither uses them."""
    import ast
    from pathlib import Path

    needs_a_task = {"timeout", "timeout_at", "wait_for", "current_task"}
    root = Path(__file__).resolve().parents[2] / "combat_server"
    for path in sorted([*(root / "server").glob("*.py"), *(root / "engine").glob("*.py")]):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
                assert name not in needs_a_task, f"{path.name}:{node.lineno} calls {name}: see receiving.start"
