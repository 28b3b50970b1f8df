"""server/connection.py (issue 16, "A sans-I/O connection"): joining a fight, driven without sockets.

A :class:`Connection` is fed frames; the test performs its effects on a real engine, store and hub
(tests/server/connection_world.py) and checks which steps it asked for, in which order, and what the
client was sent.
"""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import StoreUnavailable
from combat_server.server.connection import (
    CLOSE_CATCH_UP_FAILED, CatchUp, Disconnect, Log, Send, Unlock,
)

from tests.conftest import populate
from .connection_world import Clock, Outbox, World, only, types_of


@pytest.fixture
def world(engine: Engine) -> World:
    return World(engine, Clock())


def _gm_token(world: World) -> tuple[str, str]:
    """A populated fight (8 events: its creation, two combatants, adjust, note, undo, redo, adjust) and a GM token."""
    fight_id = populate(world.engine)
    _, token = world.server.add_seat(fight_id, "gm", "GM", ())
    return fight_id, token


def test_welcome_states_the_limits_the_client_must_keep(world: World) -> None:
    welcome = world.connect().welcome()
    assert welcome["type"] == "welcome" and welcome["create_policy"] == "open"
    assert welcome["limits"]["rate"] == 200.0 and welcome["limits"]["burst"] == 400
    assert welcome["limits"]["max_message"] == 256 * 1024


def test_a_subscribe_joins_under_the_fights_lock_then_catches_up_from_the_store_without_it(world: World) -> None:
    """A fresh hub has no recent events cached, so the 8 events after 0 are read from the store after the
    lock is released, with live messages held until then (docs/architecture.md, long reads)."""
    fight_id, token = _gm_token(world)
    outbox = Outbox()
    connection = world.connect(outbox)
    effects = world.request(connection, {"type": "subscribe", "token": token, "ref": "s1"})
    assert types_of(effects) == ["SeatForToken", "OpenHub", "Lock", "Send", "Unlock", "CatchUp"]
    reply = only(effects, Send).message
    assert (reply["type"], reply["ref"], reply["last_seq"], reply["after"]) == ("subscribed", "s1", 8, 0)
    assert reply["seat"]["seat_id"] == "gm-1" and set(reply["state"]["combatants"]) == {"alice", "orc"}
    catch_up = only(effects, CatchUp)
    assert (catch_up.after, catch_up.state.seq) == (0, 8)
    hub = world.server.hub(fight_id)
    assert outbox in hub.subscribers and connection.hub is hub and not hub.lock.locked()
    (events,) = outbox.messages()
    assert [item["seq"] for item in events["items"]] == list(range(1, 9)) and events["last"] is True


def test_a_subscribe_at_the_last_seq_catches_up_nothing(world: World) -> None:
    _, token = _gm_token(world)
    outbox = Outbox()
    effects = world.request(world.connect(outbox), {"type": "subscribe", "token": token, "after": 8})
    assert types_of(effects) == ["SeatForToken", "OpenHub", "Lock", "Send", "Unlock"]
    assert not outbox.holding and outbox.texts == []


def test_a_subscribe_past_the_last_seq_is_refused_with_it_and_joins_nothing(world: World) -> None:
    fight_id, token = _gm_token(world)
    outbox = Outbox()
    connection = world.connect(outbox)
    effects = world.request(connection, {"type": "subscribe", "token": token, "after": 9, "ref": "s2"})
    assert types_of(effects) == ["SeatForToken", "OpenHub", "Lock", "Unlock", "Log", "Send"]
    error = only(effects, Send).message
    assert (error["code"], error["details"], error["ref"]) == ("replay/bad_seq", {"last_seq": 8}, "s2")
    assert outbox.seat is None and connection.hub is None
    assert outbox not in world.server.hub(fight_id).subscribers


def test_a_token_that_opens_no_seat_is_refused_before_any_fight_is_touched(world: World) -> None:
    _gm_token(world)
    effects = world.request(world.connect(), {"type": "subscribe", "token": "t-not-a-link"})
    assert types_of(effects) == ["SeatForToken", "Log", "Send"]
    assert only(effects, Send).message["code"] == "auth/bad_token"


def test_a_connection_holds_one_seat(world: World) -> None:
    fight_id, token = _gm_token(world)
    _, other = world.server.add_seat(fight_id, "spectator", "watcher", ())
    connection = world.connect()
    world.request(connection, {"type": "subscribe", "token": token, "after": 8})
    effects = world.request(connection, {"type": "subscribe", "token": other})
    assert types_of(effects) == ["SeatForToken", "Log", "Send"]
    assert only(effects, Send).message["code"] == "auth/already_joined"
    assert connection.seat is not None and connection.seat.role == "gm"


def test_a_catch_up_the_client_is_too_slow_for_drops_it_from_the_fight(world: World) -> None:
    fight_id, token = _gm_token(world)
    outbox = Outbox(room=0)
    world.request(world.connect(outbox), {"type": "subscribe", "token": token})
    assert outbox.dropped and outbox not in world.server.hub(fight_id).subscribers


def test_a_catch_up_the_store_fails_half_way_closes_the_connection_1011(world: World) -> None:
    """The client would have a gap: it is closed (1011, a server error) and reconnects from its last seq."""
    fight_id, token = _gm_token(world)
    world.fail[CatchUp] = StoreUnavailable("store/unavailable", "the database went away")
    outbox = Outbox()
    effects = world.request(world.connect(outbox), {"type": "subscribe", "token": token})
    assert types_of(effects)[-3:] == ["CatchUp", "Log", "Disconnect"]
    assert only(effects, Disconnect).code == CLOSE_CATCH_UP_FAILED == 1011
    record = only(effects, Log)
    assert (record.level, record.event, record.fields["after"]) == ("error", "catch_up_failed", 0)
    assert outbox not in world.server.hub(fight_id).subscribers
    assert isinstance(effects[-4], Unlock)  # the lock was released before the catch-up began
