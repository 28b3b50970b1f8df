"""server/connection.py (issue 16, "A sans-I/O connection"): requests after joining, the rate limit and
close codes, driven without sockets on a real engine, store and hub (tests/server/connection_world.py),
with a hand-set clock."""

from __future__ import annotations

import orjson
import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import StoreUnavailable
from combat_server.server.connection import (
    CommandRange, Connection, CreateFight, Disconnect, Evict, Execute, Forget, HistoryPage, Log, Send,
)
from combat_server.server.inbound import Accept, Inbound
from combat_server.server.protocol import CLOSE_FLOODING, CLOSE_LINK_REPLACED

from tests.conftest import populate
from .connection_world import LINK_BASE, Clock, Outbox, World, only, types_of


@pytest.fixture
def world(engine: Engine) -> World:
    return World(engine, Clock())


def _joined(world: World, role: str = "gm", combatants: tuple[str, ...] = (), outbox: Outbox | None = None,
            fight_id: str | None = None) -> tuple[Connection, str]:
    """A connection subscribed at the last seq (no catch-up) to a populated fight (8 events)."""
    fight_id = fight_id or populate(world.engine)
    _, token = world.server.add_seat(fight_id, role, role, combatants)
    connection = world.connect(outbox)
    world.request(connection, {"type": "subscribe", "token": token, "after": 8})
    assert connection.seat is not None
    return connection, fight_id


NOTE = {"type": "command", "command": "note", "args": {"text": "the rope holds"}, "command_id": "c1", "ref": "r1"}


def test_a_request_before_subscribe_is_refused_not_joined(world: World) -> None:
    effects = world.request(world.connect(), dict(NOTE))
    assert types_of(effects) == ["Send"]
    assert (only(effects, Send).message["code"], only(effects, Send).message["ref"]) == ("auth/not_joined", "r1")


def test_a_command_runs_under_the_lock_then_is_logged_and_answered(world: World) -> None:
    """The engine takes 2 ms on the hand-set clock: the command's log record says 2.0 ms."""
    world.engine_takes = 0.002
    connection, fight_id = _joined(world)
    effects = world.request(connection, dict(NOTE))
    assert types_of(effects) == ["Lock", "Execute", "Unlock", "Log", "Send"]
    assert only(effects, Execute).command.command_id == "gm-1:c1"
    assert only(effects, Send).message == {"type": "result", "command_id": "c1", "first_seq": 9, "last_seq": 9,
                                           "duplicate": False, "ref": "r1"}
    record = only(effects, Log)
    assert (record.event, record.fields["outcome"], record.fields["latency_ms"]) == ("command", "ok", 2.0)
    assert world.engine.load(fight_id).seq == 9


def test_a_command_builds_no_log_record_when_its_level_is_off(world: World) -> None:
    """issue 16, server CPU: with ``info`` off (``--log-level warning``) the command's record is not built;
    every other effect and the reply are those of a connection that logs it."""
    fight_id = populate(world.engine)
    effects = {}
    for logs_info in (True, False):
        _, token = world.server.add_seat(fight_id, "gm", f"gm{logs_info}", ())
        connection = Connection(Outbox(), world.policy, world.clock, logs=lambda level, on=logs_info: on or level != "info")
        world.request(connection, {"type": "subscribe", "token": token, "after": world.engine.load(fight_id).seq})
        effects[logs_info] = world.request(connection, {**NOTE, "command_id": f"c-{logs_info}"})
    assert types_of(effects[True]) == ["Lock", "Execute", "Unlock", "Log", "Send"]
    assert types_of(effects[False]) == ["Lock", "Execute", "Unlock", "Send"]
    replies = [only(effects[on], Send).message for on in (True, False)]
    assert [{**r, "command_id": "", "first_seq": 0, "last_seq": 0} for r in replies] == \
        [{"type": "result", "command_id": "", "first_seq": 0, "last_seq": 0, "duplicate": False, "ref": "r1"}] * 2


def test_a_command_is_pushed_to_the_subscribers_before_it_is_answered(world: World) -> None:
    watcher = Outbox()
    _, fight_id = _joined(world, "spectator", outbox=watcher)
    connection, _ = _joined(world, fight_id=fight_id)
    world.request(connection, dict(NOTE))
    (push,) = watcher.messages()
    assert push["type"] == "event" and push["event"]["type"] == "note_added"


def test_a_command_expecting_an_old_seq_is_refused_stale_and_appends_nothing(world: World) -> None:
    connection, fight_id = _joined(world)
    effects = world.request(connection, {**NOTE, "expect_seq": 5})
    assert types_of(effects) == ["Lock", "CommandRange", "Unlock", "Log", "Send"]
    error = only(effects, Send).message
    assert (error["code"], error["details"], error["command_id"]) == ("command/stale_seq",
                                                                       {"expected": 5, "actual": 8}, "c1")
    assert only(effects, Log).fields["outcome"] == "command/stale_seq"
    assert world.engine.load(fight_id).seq == 8


def test_a_retried_command_whose_seq_moved_on_is_answered_as_the_duplicate_it_is(world: World) -> None:
    """The first send was applied (seq 9) but its answer lost: the retry, still expecting 8, is not stale."""
    connection, fight_id = _joined(world)
    world.request(connection, {**NOTE, "expect_seq": 8})
    effects = world.request(connection, {**NOTE, "expect_seq": 8})
    assert only(effects, CommandRange).command_id == "gm-1:c1"
    reply = only(effects, Send).message
    assert (reply["first_seq"], reply["last_seq"], reply["duplicate"]) == (9, 9, True)
    assert world.engine.load(fight_id).seq == 9


def test_a_store_that_goes_down_mid_command_drops_the_cached_fight(world: World) -> None:
    connection, fight_id = _joined(world)
    world.fail[Execute] = StoreUnavailable("store/unavailable", "connection refused")
    effects = world.request(connection, dict(NOTE))
    assert types_of(effects) == ["Lock", "Execute", "Unlock", "Log", "Forget", "Log", "Send"]
    assert only(effects, Forget).fight_id == fight_id
    error = only(effects, Send).message
    assert (error["code"], error["command_id"], error["ref"]) == ("store/unavailable", "c1", "r1")


def test_a_player_cannot_add_seats_and_the_fight_is_not_locked_for_it(world: World) -> None:
    connection, _ = _joined(world, "player", ("alice",))
    effects = world.request(connection, {"type": "add_seat", "role": "spectator", "ref": "a1"})
    assert types_of(effects) == ["Log", "Send"]
    assert (only(effects, Log).event, only(effects, Log).fields["code"]) == ("refused", "auth/gm_only")
    assert only(effects, Send).message["code"] == "auth/gm_only"


def test_an_unknown_request_type_is_refused_with_the_known_ones(world: World) -> None:
    effects = world.request(world.connect(), {"type": "teleport", "ref": "x"})
    error = only(effects, Send).message
    assert error["code"] == "protocol/unknown_type" and "subscribe" in error["details"]["known"]
    assert error["message"] == 'unknown message type "teleport"'  # JSON's spelling, as the client sent it


def test_a_message_without_a_type_is_told_so_in_words_not_in_python(world: World) -> None:
    effects = world.request(world.connect(), {"ref": "x"})
    assert only(effects, Send).message["message"] == "the message has no type"


def test_past_the_burst_a_request_waits_for_the_bucket_to_refill(world: World) -> None:
    """Burst 2 at 2 per second: the third request at one instant is rate/limited (retry in 501 ms);
    half a second later one token is back (2/s x 0.5 s)."""
    world.policy = world.policy.__class__(rate=2.0, burst=2)
    connection = world.connect()
    view = orjson.dumps({"type": "view", "ref": "v"}).decode()
    for _ in range(2):
        assert only(world.run(connection.receive(view)), Send).message["code"] == "auth/not_joined"
    limited = only(world.run(connection.receive(view)), Send).message
    assert (limited["code"], limited["details"]) == ("rate/limited", {"retry_after_ms": 501})
    world.clock.now += 0.5
    assert only(world.run(connection.receive(view)), Send).message["code"] == "auth/not_joined"


def test_a_client_that_keeps_ignoring_the_rate_limit_is_closed_4029(world: World) -> None:
    world.policy = world.policy.__class__(rate=0.001, burst=1, flood_close=2)
    connection = world.connect()
    view = orjson.dumps({"type": "view"}).decode()
    world.run(connection.receive(view))
    assert types_of(world.run(connection.receive(view))) == ["Send"]
    assert world.run(connection.receive(view)) == [Disconnect(CLOSE_FLOODING)] and CLOSE_FLOODING == 4029


def test_a_replay_stops_at_the_last_seq_and_says_there_is_more(world: World) -> None:
    connection, _ = _joined(world)
    effects = world.request(connection, {"type": "replay", "after": 2, "upto": 99, "limit": 3})
    page = only(effects, HistoryPage)
    assert (page.after, page.upto, page.limit) == (2, 8, 3)
    history = only(effects, Send).message
    assert [item["seq"] for item in history["items"]] == [3, 4, 5]
    assert (history["upto"], history["more"]) == (8, True)


def test_a_replay_from_the_last_seq_reads_nothing(world: World) -> None:
    connection, _ = _joined(world)
    effects = world.request(connection, {"type": "replay", "after": 8})
    assert types_of(effects) == ["Send"]
    assert (only(effects, Send).message["items"], only(effects, Send).message["more"]) == ([], False)


def test_a_connection_whose_link_was_replaced_acts_no_more_while_it_closes(world: World) -> None:
    """A command read from a connection whose link was replaced (its close, 4003, is on the way: the server
    marks it revoked at once) is refused with auth/link_replaced and appends nothing (a black-box pass saw
    pipelined commands applied after the new link)."""
    watcher = Outbox()
    connection, fight_id = _joined(world, outbox=watcher)
    before = world.engine.load(fight_id).seq
    watcher.revoked = True
    effects = world.request(connection, NOTE)
    assert only(effects, Send).message["code"] == "auth/link_replaced"
    assert "Execute" not in types_of(effects) and world.engine.load(fight_id).seq == before


def test_a_new_link_closes_the_connections_of_the_old_one_4003(world: World) -> None:
    """#13, links recovery: the GM replaces the spectator's link; its open connection is closed (4003)
    once the links_reissued event is published, and the old token joins no more. The token is replaced
    before the event is recorded: another process closes its connections when it sees the event."""
    watcher = Outbox()
    gm, fight_id = _joined(world)
    spectator, _ = _joined(world, "spectator", outbox=watcher, fight_id=fight_id)
    assert spectator.seat is not None
    effects = world.request(gm, {"type": "new_link", "seat": spectator.seat.seat_id})
    assert types_of(effects) == ["Lock", "Seats", "ReplaceLink", "Execute", "Evict", "Unlock", "Log", "Send"]
    evict = only(effects, Evict)
    assert (evict.subscribers, evict.code) == ((watcher,), CLOSE_LINK_REPLACED) and CLOSE_LINK_REPLACED == 4003
    reply = only(effects, Send).message
    assert reply["type"] == "seat_added" and reply["link"] == f"{LINK_BASE}/#token={reply['token']}"
    assert [m["event"]["type"] for m in watcher.messages()] == ["links_reissued"]


def test_under_the_key_policy_a_fight_needs_the_server_key(world: World) -> None:
    world.policy = world.policy.__class__(create_policy="key", server_key="s3cret")
    refused = world.request(world.connect(), {"type": "create_fight", "ruleset": "gurps"})
    assert types_of(refused) == ["Log", "Send"] and only(refused, Send).message["code"] == "auth/server_key"
    created = world.request(world.connect(), {"type": "create_fight", "ruleset": "gurps", "server_key": "s3cret"})
    assert types_of(created) == ["CreateFight", "Log", "Send"]
    assert only(created, CreateFight).ruleset == "gurps"
    reply = only(created, Send).message
    assert reply["seat_id"] == "gm" and reply["link"].startswith(f"{LINK_BASE}/#token=")


@pytest.mark.parametrize("ref", [None, "r-1"])
def test_a_reply_is_sent_as_inbound_answer_would_send_it_with_or_without_a_ref(world: World, ref: str | None) -> None:
    """``Connection.receive`` writes ``Inbound.answer``'s reply case out (issue 16, every command): the handler's
    reply sent as it is, the request's ref added when it had one, nothing forgotten or logged but the command's
    own record."""
    connection, _ = _joined(world)
    request = {k: v for k, v in NOTE.items() if k != "ref"} | ({"ref": ref} if ref is not None else {})
    effects = world.request(connection, request)
    assert types_of(effects) == ["Lock", "Execute", "Unlock", "Log", "Send"]
    sent = only(effects, Send).message
    reply = {"type": "result", "command_id": "c1", "first_seq": 9, "last_seq": 9, "duplicate": False}
    assert sent == Inbound.answer(Accept(request, ref), dict(reply)).message
    assert ("ref" in sent) is (ref is not None)
