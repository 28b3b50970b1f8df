"""server/requests.py (issue 16, "A sans-I/O connection"): the request handlers' checks as plain
functions fed a message, a seat and what the fight holds; no sockets, no event loop."""

from __future__ import annotations

import pytest

from combat_server.errors import CombatError
from combat_server.server.requests import (
    check_server_key, needs_seat, new_link_target, replay_window, seat_request, subscribe_after,
)


def _code(exc: pytest.ExceptionInfo[CombatError]) -> str:
    return exc.value.code


def test_only_create_fight_and_subscribe_come_before_a_seat() -> None:
    assert not needs_seat("create_fight") and not needs_seat("subscribe")
    assert all(needs_seat(kind) for kind in ("command", "add_seat", "replay", "view", "state_at", "list_seats"))


def test_the_key_policy_needs_the_server_key() -> None:
    check_server_key("open", None, {})
    check_server_key("key", "s3cret", {"server_key": "s3cret"})
    for message in ({}, {"server_key": "guess"}, {"server_key": ""}):
        with pytest.raises(CombatError) as refused:
            check_server_key("key", "s3cret", message)
        assert _code(refused) == "auth/server_key"


def test_a_seat_request_names_each_combatant_once_in_the_order_given() -> None:
    got = seat_request("gm", {"role": "player", "combatants": ["b", "a", "b"], "label": "Pat"}, {"a", "b", "c"})
    assert got == ("player", ("b", "a"), "Pat")
    assert seat_request("gm", {"role": "spectator"}, {"a"}) == ("spectator", (), "")


@pytest.mark.parametrize("role, message, code", [
    ("player", {"role": "spectator"}, "auth/gm_only"),
    ("gm", {"role": "player", "combatants": ["x"]}, "seat/unknown_combatant"),
    ("gm", {"role": "player", "combatants": []}, "seat/no_combatants"),
    ("gm", {"role": "spectator", "combatants": ["a"]}, "command/bad_field"),
])
def test_a_seat_request_that_cannot_be_granted_is_refused(role: str, message: dict[str, object], code: str) -> None:
    with pytest.raises(CombatError) as refused:
        seat_request(role, message, {"a"})
    assert _code(refused) == code


def test_a_new_link_is_the_gms_for_another_seat() -> None:
    assert new_link_target("gm", "gm", {"seat": "player-1"}) == "player-1"
    with pytest.raises(CombatError) as own:
        new_link_target("gm", "gm", {"seat": "gm"})
    with pytest.raises(CombatError) as player:
        new_link_target("player", "player-1", {"seat": "player-2"})
    assert (_code(own), _code(player)) == ("seat/own_link", "auth/gm_only")


def test_a_replay_stops_at_the_last_seq_and_reads_a_page_by_default() -> None:
    assert replay_window({}, 40, 1000) == (0, 40, 1000)
    assert replay_window({"after": 10, "upto": 99, "limit": 5}, 40, 1000) == (10, 40, 5)


def test_a_subscribe_past_the_last_seq_is_refused_with_it() -> None:
    assert subscribe_after({}, 7, "f") == 0 and subscribe_after({"after": 7}, 7, "f") == 7
    with pytest.raises(CombatError) as refused:
        subscribe_after({"after": 8}, 7, "f")
    assert _code(refused) == "replay/bad_seq" and refused.value.details["last_seq"] == 7
