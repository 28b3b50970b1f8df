"""The protocol end to end on a real server: create, seats, subscribe, commands,
replay, undo/redo, disputes and rulings, hidden sheets, static files, logging."""

from __future__ import annotations

import asyncio
import hashlib
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from structlog.testing import capture_logs

from combat_server.client import CombatClient, ServerError
from combat_server.server import CombatServer
from combat_server.server.protocol import validate_server_message
from combat_server.store import tables as t

from .conftest import SHEET, Connect, MakeServer, Table


async def test_create_fight_returns_id_gm_token_and_link(server: CombatServer, connect: Connect) -> None:
    """create_fight answers with the fight id, a GM token and a link carrying it."""
    c = await connect()
    created = await c.create_fight("gurps", title="t")
    assert created["seat_id"] == "gm"
    assert created["link"] == f"{server.base_url}/#token={created['token']}"
    sub = await c.subscribe(created["token"])
    assert sub["fight_id"] == created["fight_id"]
    assert sub["seat"]["role"] == "gm"
    assert [e.type for e in c.events] == ["fight_created"]


async def test_only_token_hashes_are_stored(table: Table) -> None:
    """The seats table holds sha256 hashes of the tokens, never the tokens."""
    with table.server.engine.store.engine.connect() as conn:
        rows = conn.execute(sa.select(t.seats.c.token_hash)).scalars().all()
    assert len(rows) == 4
    for token in table.tokens.values():
        assert token not in rows
        assert hashlib.sha256(token.encode()).hexdigest() in rows


async def test_subscribe_after_seq_gets_exactly_the_later_events_then_live(table: Table, connect: Connect) -> None:
    """A subscriber that saw seq N receives N+1.. then the live events, each once."""
    last = table.gm.last_seq
    late = await connect()
    await late.subscribe(table.tokens["spectator"], after=2)
    await late.wait_for_seq(last)
    assert [e.seq for e in late.events] == list(range(3, last + 1))
    r = await table.gm.command("note", {"text": "live"})
    await late.wait_for_seq(r["last_seq"])
    assert [e.seq for e in late.events] == list(range(3, r["last_seq"] + 1))
    assert late.events[-1].state is not None and late.events[-1].explanation


async def test_pushed_message_carries_seq_event_explanation_state(table: Table) -> None:
    """Each live push has the seq, the event, a sentence and the state after it."""
    r = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 7}, "reason": "arrow"})
    await table.alice.wait_for_seq(r["last_seq"])
    pushed = table.alice.events[-1]
    assert pushed.event["type"] == "condition_adjusted"
    assert "Reason: arrow" in pushed.explanation
    assert pushed.state is not None
    assert pushed.state["seq"] == r["last_seq"]
    assert pushed.state["combatants"]["alice"]["condition"]["hp"] == 7


async def test_retry_with_same_command_id_is_answered_not_applied(table: Table) -> None:
    """A command sent twice with one id appends once; the retry names the same seqs."""
    first = await table.gm.command("note", {"text": "once"}, command_id="same-id")
    again = await table.gm.command("note", {"text": "once"}, command_id="same-id")
    assert again["duplicate"] is True
    assert (again["first_seq"], again["last_seq"]) == (first["first_seq"], first["last_seq"])
    assert table.server.engine.load(table.fight_id).seq == first["last_seq"]
    assert table.server.engine.load(table.fight_id).notes.count("once") == 1


async def test_command_ids_of_different_seats_do_not_collide(table: Table) -> None:
    """Two seats may pick the same command id; both commands are applied."""
    a = await table.alice.command("note", {"text": "from alice"}, command_id="c1")
    b = await table.bob.command("note", {"text": "from bob"}, command_id="c1")
    assert not a["duplicate"] and not b["duplicate"]
    assert b["first_seq"] == a["last_seq"] + 1


async def test_state_at_and_replay(table: Table) -> None:
    """state_at gives the state after a seq; replay the log with explanations."""
    s2 = await table.spectator.state_at(2)
    assert s2["seq"] == 2 and list(s2["combatants"]) == ["alice"]
    items = await table.spectator.replay()
    assert [i["seq"] for i in items] == list(range(1, table.gm.last_seq + 1))
    assert all(i["explanation"] for i in items)
    window = await table.spectator.replay(after=1, upto=3)
    assert [i["seq"] for i in window] == [2, 3]
    with pytest.raises(ServerError) as err:
        await table.spectator.state_at(999)
    assert err.value.code == "replay/bad_seq"


async def test_gm_undo_redo_are_events_and_marked_in_replay(table: Table) -> None:
    """Undo appends a reverted event, replay marks the undone one, redo restores it."""
    r = await table.gm.command("adjust", {"combatant": "bob", "changes": {"hp": 3}, "reason": "axe"})
    undo = await table.gm.command("undo", {"to": "last_command"})
    await table.bob.wait_for_seq(undo["last_seq"])
    assert table.bob.events[-1].type == "reverted"
    assert table.bob.state is not None and table.bob.state["combatants"]["bob"]["condition"]["hp"] == 12
    items = await table.bob.replay()
    assert {i["seq"]: i["undone"] for i in items}[r["first_seq"]] is True
    redo = await table.gm.command("redo")
    await table.bob.wait_for_seq(redo["last_seq"])
    assert table.bob.state is not None
    assert table.bob.state["combatants"]["bob"]["condition"]["hp"] == 3
    back = await table.gm.command("undo", {"to": "seq", "seq": 2})
    await table.gm.wait_for_seq(back["last_seq"])
    assert table.gm.state is not None
    assert list(table.gm.state["combatants"]) == ["alice"]


async def test_player_dispute_prompts_gm_who_overrides_with_adjustments(table: Table) -> None:
    """A player's dispute becomes a GM prompt; an override ruling adjusts the condition."""
    hit = await table.gm.command("adjust", {"combatant": "alice", "changes": {"hp": 2}, "reason": "axe"})
    await table.alice.command("dispute", {"seq": hit["first_seq"], "comment": "my shield was up"})
    prompt = await table.gm.wait_for_prompt("dispute")
    assert prompt["combatant"] is None and "my shield was up" in prompt["text"]
    ruled = await table.gm.command("rule", {"dispute": prompt["id"], "verdict": "override", "comment": "fair",
                                            "adjustments": [{"combatant": "alice", "changes": {"hp": 8}}]})
    await table.alice.wait_for_seq(ruled["last_seq"])
    assert [e.type for e in table.alice.events[-2:]] == ["dispute_ruled", "condition_adjusted"]
    assert table.alice.state is not None
    assert table.alice.state["combatants"]["alice"]["condition"]["hp"] == 8
    assert not table.alice.prompts("dispute")


async def test_gm_upholds_a_dispute(table: Table) -> None:
    """An uphold ruling closes the dispute and changes nothing else."""
    await table.bob.command("dispute", {"seq": 2, "comment": "why is she here"})
    prompt = await table.gm.wait_for_prompt("dispute")
    ruled = await table.gm.command("rule", {"dispute": prompt["id"], "verdict": "uphold"})
    assert ruled["first_seq"] == ruled["last_seq"]


async def test_hidden_sheet_shows_name_and_visible_condition_to_players(table: Table) -> None:
    """Players and spectators see a hidden NPC's name and visible condition, the GM all of it."""
    await table.gm.command("adjust", {"combatant": "orc", "changes": {"hp": 5, "posture": "kneeling"},
                                      "reason": "hurt"})
    await table.spectator.wait_for_seq(table.gm.last_seq)
    await table.alice.wait_for_seq(table.gm.last_seq)
    for seat in (table.alice, table.spectator):
        assert seat.state is not None
        orc = seat.state["combatants"]["orc"]
        assert orc["name"] == "Orc" and orc["sheet"] is None
        assert orc["condition"] == {"posture": "kneeling", "stunned": False, "unconscious": False, "dead": False,
                                    "collapsed": False, "maneuver": "", "maneuver_option": ""}
        assert "orc" not in seat.state["derived"]
        added = next(e for e in seat.events if e.type == "combatant_added" and e.event["payload"]["id"] == "orc")
        assert added.event["payload"]["sheet"] is None
        assert seat.state["combatants"]["alice"]["sheet"]["st"] == 12
    assert table.gm.state is not None
    assert table.gm.state["combatants"]["orc"]["condition"]["hp"] == 5
    assert table.gm.state["combatants"]["orc"]["sheet"]["st"] == 12


async def test_player_bound_to_hidden_combatant_sees_its_sheet(table: Table, connect: Connect) -> None:
    """A seat that controls a hidden combatant sees that combatant in full."""
    seat = await table.gm.add_seat("player", ["orc"], "orc player")
    c = await connect()
    sub = await c.subscribe(seat["token"])
    assert sub["state"]["combatants"]["orc"]["sheet"]["st"] == 12
    added = next(e for e in c.events if e.type == "combatant_added" and e.event["payload"]["id"] == "orc")
    assert added.event["payload"]["sheet"]["st"] == 12


async def test_gm_lists_seats_without_tokens(table: Table) -> None:
    """list_seats names every seat, its role and combatants, never a token."""
    seats = await table.gm.list_seats()
    assert [(s["seat_id"], s["role"], s["combatants"]) for s in seats] == [
        ("gm", "gm", []), ("player-1", "player", ["alice"]), ("player-2", "player", ["bob"]),
        ("spectator-1", "spectator", []),
    ]
    assert not any("token" in s for s in seats)


async def test_create_policy_key(make_server: MakeServer) -> None:
    """With a server key, create_fight needs it; the welcome says so."""
    server = await make_server(create_policy="key", server_key="s3cret")
    async with await CombatClient.connect(server.ws_url) as c:
        await c.wait_until(lambda x: bool(x.welcome))
        assert c.welcome["create_policy"] == "key"
        with pytest.raises(ServerError) as err:
            await c.create_fight("gurps")
        assert err.value.code == "auth/server_key"
        with pytest.raises(ServerError):
            await c.create_fight("gurps", server_key="wrong")
        created = await c.create_fight("gurps", server_key="s3cret")
        assert created["fight_id"]


def _get(url: str) -> tuple[int, bytes, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read(), resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), ""


async def test_static_files_on_the_same_port(make_server: MakeServer, tmp_path: Path) -> None:
    """The web client's files are served over plain HTTP; unknown paths are 404, no escape from the dir."""
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>combat</h1>")
    (web / "app.js").write_text("console.log(1)")
    (tmp_path / "secret.txt").write_text("no")
    server = await make_server(web_dir=web)
    status, body, ctype = await asyncio.to_thread(_get, server.base_url + "/")
    assert (status, body) == (200, b"<h1>combat</h1>") and ctype.startswith("text/html")
    status, _, ctype = await asyncio.to_thread(_get, server.base_url + "/app.js")
    assert status == 200 and "javascript" in ctype
    assert (await asyncio.to_thread(_get, server.base_url + "/nope.js"))[0] == 404
    assert (await asyncio.to_thread(_get, server.base_url + "/../secret.txt"))[0] == 404
    assert (await asyncio.to_thread(_get, server.base_url + "/healthz"))[0] == 200


async def test_a_plain_get_of_the_websocket_endpoint_says_to_upgrade(make_server: MakeServer) -> None:
    """``GET /ws`` without an upgrade (a browser pointed at the endpoint) is 426 Upgrade Required,
    naming websocket, not a 404 that reads as if the server had no such endpoint."""
    server = await make_server()

    def get() -> tuple[int, str, str]:
        try:
            urllib.request.urlopen(server.base_url + "/ws?x=1", timeout=5)
        except urllib.error.HTTPError as exc:
            return exc.code, exc.headers.get("Upgrade", ""), exc.read().decode()
        raise AssertionError("expected an HTTP error")

    status, upgrade, body = await asyncio.to_thread(get)
    assert (status, upgrade) == (426, "websocket") and "websocket endpoint" in body


async def test_no_index_is_404(make_server: MakeServer, tmp_path: Path) -> None:
    """Without a web client installed, / is a 404."""
    server = await make_server(web_dir=tmp_path / "empty")
    assert (await asyncio.to_thread(_get, server.base_url + "/"))[0] == 404


async def test_one_log_line_per_command(table: Table) -> None:
    """Each command logs fight id, seat, command id, seq range, outcome and latency."""
    with capture_logs() as logs:
        await table.alice.command("note", {"text": "x"}, command_id="log-me")
        with pytest.raises(ServerError):
            await table.alice.command("adjust", {"combatant": "alice", "changes": {"hp": 1}, "reason": "r"},
                                      command_id="refused")
    lines = [entry for entry in logs if entry["event"] == "command"]
    assert len(lines) == 2
    ok, refused = lines
    assert ok["fight_id"] == table.fight_id and ok["seat"] == "player-1" and ok["command_id"] == "log-me"
    assert ok["outcome"] == "ok" and ok["first_seq"] == ok["last_seq"] and ok["latency_ms"] > 0
    assert refused["outcome"] == "auth/gm_only" and refused["first_seq"] is None
    assert "GM" in refused["error"] and "error" not in ok  # what the player was told, beside its code


async def test_a_refused_request_is_logged_with_its_code_and_message(table: Table) -> None:
    """Bad input gets a specific error to the client and in the log: a refused request that is not a command
    (a player asking for the seats) and a message that could not be read each log a ``refused`` line."""
    with capture_logs() as logs:
        with pytest.raises(ServerError) as asked:
            await table.alice.list_seats()
        before = len(table.alice.errors)
        await table.alice.send_raw("{not json")
        await table.alice.wait_until(lambda c: len(c.errors) > before, 5)
    refused = [entry for entry in logs if entry["event"] == "refused"]
    assert [(r["type"], r["code"]) for r in refused] == [("list_seats", asked.value.code),
                                                         (None, table.alice.errors[-1].code)]
    assert refused[0]["error"] == asked.value.message and refused[0]["seat"] == "player-1"
    assert refused[0]["fight_id"] == table.fight_id and refused[1]["error"]


async def test_every_server_message_matches_its_schema(server: CombatServer, connect: Connect) -> None:
    """Messages of a whole session validate against combat_server/schemas."""
    gm = await connect(record=True)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="x")
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "a", "name": "A", "sheet": SHEET, "hidden": True})
    await gm.add_seat("player", ["a"])
    await gm.list_seats()
    await gm.state_at(1)
    await gm.replay()
    with pytest.raises(ServerError):
        await gm.command("nope")
    late = await connect(record=True)
    await late.subscribe(created["token"], after=0, describe=True)
    await late.wait_for_seq(gm.last_seq)
    received: list[dict[str, Any]] = (gm.received or []) + (late.received or [])
    kinds = {m["type"] for m in received}
    assert kinds == {"welcome", "fight_created", "subscribed", "event", "events", "result", "seat_added", "seats",
                     "state", "history", "error"}
    for m in received:
        validate_server_message(m)


async def test_a_clients_commands_are_keyed_in_the_order_it_sent_them(table: Table) -> None:
    """Issue 16: ``CombatClient``'s ids grow, so the server's command rows of a seat follow one another in its
    key (each beside the last one's page) in the order the commands were applied."""
    firsts = [(await table.gm.command("note", {"text": f"n{i}"}))["first_seq"] for i in range(8)]
    store = table.server.engine.store
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(t.commands.c.command_id, t.commands.c.first_seq)
                            .where(t.commands.c.fight_id == table.fight_id,
                                   t.commands.c.first_seq.in_(firsts))).all()
    by_key = [first for _, first in sorted(rows)]
    assert by_key == firsts
