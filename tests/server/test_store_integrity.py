"""#15 items 5, 6, 7, 10 and 14 on the real server: real websockets on loopback, real `serve`
processes on the real PostgreSQL, a real SQLite file edited behind the server's back."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer

from .conftest import SHEET, MakeServer, dump_log
from .test_crash import _free_port, start_serve


async def _gm(server: CombatServer) -> tuple[CombatClient, str, str]:
    gm = await CombatClient.connect(server.ws_url)
    created = await gm.create_fight("gurps", title="integrity")
    await gm.subscribe(created["token"])
    return gm, created["fight_id"], created["token"]


# ---------------------------------------------------------------- item 5: two processes, one expect_seq


async def test_expect_seq_holds_across_two_serve_processes_on_postgresql(pg_databases: Any) -> None:
    """#15 item 5: two real `serve` processes on one PostgreSQL; in each of 20 races a GM on each sends a
    note with the same expect_seq at once: exactly one is applied, the other is refused as stale."""
    url = pg_databases.new_url()
    ports = [_free_port(), _free_port()]
    procs: list[subprocess.Popen[bytes]] = []
    clients: list[CombatClient] = []
    try:
        for port in ports:
            procs.append(await start_serve(url, port))
        one = await CombatClient.connect(f"ws://127.0.0.1:{ports[0]}/ws")
        clients.append(one)
        created = await one.create_fight("gurps", title="race")
        await one.subscribe(created["token"])
        two = await CombatClient.connect(f"ws://127.0.0.1:{ports[1]}/ws")
        clients.append(two)
        await two.subscribe(created["token"])
        seq = one.last_seq
        for race in range(20):
            outcomes = await asyncio.gather(
                *(c.command("note", {"text": f"race {race} {i}"}, expect_seq=seq) for i, c in enumerate((one, two))),
                return_exceptions=True)
            applied = [o for o in outcomes if isinstance(o, dict)]
            refused = [o for o in outcomes if isinstance(o, ServerError)]
            assert len(applied) == 1 and len(refused) == 1, (race, outcomes)
            assert refused[0].code == "command/stale_seq"
            seq = applied[0]["last_seq"]
            assert seq == 1 + race + 1
    finally:
        for c in clients:
            await c.close()
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


# ---------------------------------------------------------------- item 10: the longest command id fits


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_the_longest_command_id_the_schema_accepts_is_stored(
    backend: str, pg_databases: Any, make_server: MakeServer
) -> None:
    """#15 item 10: a command_id of 128 characters (the schema's limit), stored with its seat prefix, fits
    the column on PostgreSQL too (it was internal/error); a retry with it is answered as a duplicate."""
    server = await make_server(url=pg_databases.new_url() if backend == "postgresql" else None)
    gm, fid, _ = await _gm(server)
    long_id = "c" * 128
    first = await gm.command("note", {"text": "long id"}, command_id=long_id)
    again = await gm.command("note", {"text": "long id"}, command_id=long_id)
    assert again["first_seq"] == first["first_seq"] and again.get("duplicate") is True
    assert server.engine.store.command_range(fid, f"gm:{long_id}") == (first["first_seq"], first["last_seq"])
    await gm.close()


# ---------------------------------------------------------------- item 14: NaN and Infinity in a sheet


@pytest.mark.parametrize(("raw", "code"), [("NaN", "protocol/bad_json"), ("Infinity", "protocol/bad_json"),
                                           ("-Infinity", "protocol/bad_json"), ("1e400", "sheet/bad_field")])
async def test_nan_or_infinity_in_a_sheet_is_a_bad_field(raw: str, code: str, make_server: MakeServer) -> None:
    """#15 item 14: NaN or Infinity (not JSON: the message is refused as such) or a number that overflows to
    infinity (``sheet/bad_field`` naming the field) as `carried`: not internal/error, and nothing is appended."""
    server = await make_server()
    first, fid, token = await _gm(server)
    await first.close()
    gm = await CombatClient.connect(server.ws_url, record=True)
    await gm.subscribe(token)
    before = dump_log(server.engine.store)
    sheet = dict(SHEET, carried="__RAW__")
    text = json.dumps({"type": "command", "command_id": "nan-1", "command": "add_combatant", "ref": "raw-nan",
                       "args": {"id": "orc", "name": "Orc", "side": "npc", "sheet": sheet}})
    await gm.send_raw(text.replace('"__RAW__"', raw))
    await gm.wait_until(lambda c: any(m.get("ref") == "raw-nan" for m in c.received or ()), 10)
    error = next(m for m in gm.received or () if m.get("ref") == "raw-nan")
    assert error["code"] == code, error
    if code == "sheet/bad_field":
        assert error["details"]["field"] == "carried"
    else:
        assert f"{raw} is not a JSON number" in error["message"]
    assert dump_log(server.engine.store) == before
    await gm.close()


# ---------------------------------------------------------------- item 6: a tampered log is refused


async def test_a_tampered_fight_is_refused_with_store_corrupt_and_never_appended_to(
    make_server: MakeServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """#15 item 6: an event edited in the database (the orc's HP to 999) while the server is down: after a
    restart, subscribing is refused with store/corrupt naming the seq, the refusal is logged, and a
    command sends nothing to the log."""
    url = f"sqlite:///{tmp_path / 'tampered.sqlite'}"
    server = await make_server(url=url)
    gm, fid, token = await _gm(server)
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET})
    done = await gm.command("adjust", {"combatant": "orc", "changes": {"hp": 5}, "reason": "cut"})
    await gm.close()
    await server.close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("UPDATE events SET payload = replace(payload, '\"hp\":5', '\"hp\":999') "
                             "WHERE fight_id = ? AND seq = ?", (fid, done["last_seq"]))
    engine.dispose()
    await _refused_after_restart(make_server, url, token, done["last_seq"])
    logged = capsys.readouterr().out
    assert "store_corrupt" in logged and f"seq={done['last_seq']}" in logged


async def _refused_after_restart(make_server: MakeServer, url: str, token: str, seq: int) -> None:
    """A restarted server refuses the damaged fight with store/corrupt naming ``seq``, and a command
    sent anyway appends nothing (#15 item 6)."""
    again = await make_server(url=url)
    before = dump_log(again.engine.store)
    client = await CombatClient.connect(again.ws_url)
    with pytest.raises(ServerError) as info:
        await client.subscribe(token)
    assert info.value.code == "store/corrupt"
    assert f"seq {seq}" in info.value.message
    with pytest.raises(ServerError):
        await client.command("note", {"text": "on top"})
    assert dump_log(again.engine.store) == before
    await client.close()


async def test_a_fight_whose_last_event_was_deleted_is_refused_after_a_restart(make_server: MakeServer,
                                                                              tmp_path: Path) -> None:
    """#15 item 6 (black-box pass): the last event deleted while the server is down leaves a chain that
    still holds; after a restart subscribing is refused with store/corrupt naming the missing seq, and a
    command appends nothing over it."""
    url = f"sqlite:///{tmp_path / 'truncated.sqlite'}"
    server = await make_server(url=url)
    gm, fid, token = await _gm(server)
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET})
    done = await gm.command("note", {"text": "the last word"})
    await gm.close()
    await server.close()
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM events WHERE fight_id = ? AND seq = ?", (fid, done["last_seq"]))
    engine.dispose()
    await _refused_after_restart(make_server, url, token, done["last_seq"])


# ---------------------------------------------------------------- item 7: bounded shutdown


async def _silent_client(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket client that completes the handshake and then never reads nor answers a close."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    await writer.drain()
    status = await reader.readuntil(b"\r\n\r\n")
    assert status.startswith(b"HTTP/1.1 101"), status
    return reader, writer


async def test_shutdown_with_clients_that_never_answer_ends_in_bounded_time(make_server: MakeServer) -> None:
    """#15 item 7: ten connected clients that never answer the close: the server stops listening at once
    and exits after one short grace, not one close timeout per client (44 s before)."""
    server = await make_server()
    port = server.port
    silent = [await _silent_client(port) for _ in range(10)]
    await asyncio.sleep(0.2)
    assert len(server.sessions) == 10
    started = time.monotonic()
    closing = asyncio.create_task(server.close())
    await asyncio.sleep(0.1)
    with pytest.raises(OSError):  # no longer listening while it waits for the silent ones
        await asyncio.open_connection("127.0.0.1", port)
    await asyncio.wait_for(closing, 40)
    assert time.monotonic() - started < 15
    assert not server.sessions
    for _, writer in silent:
        writer.close()
