"""server/inbound.py: a connection's intake, sans I/O (issue 16), fed frames and a hand-set clock, and
the answer to each accepted message once its handler returned or raised."""

from __future__ import annotations

import json

import pytest

from combat_server.errors import StoreUnavailable, reject
from combat_server.server.inbound import Accept, Answer, Close, Inbound, RateLimiter, Refuse
from combat_server.server.protocol import CLOSE_FLOODING


class Clock:
    """Seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _inbound(clock: Clock, rate: float = 2.0, burst: int = 2, flood_close: int = 3, max_message: int = 200) -> Inbound:
    return Inbound(rate=rate, burst=burst, flood_close=flood_close, max_message=max_message, clock=clock)


LIST = json.dumps({"type": "list_seats", "ref": "r1"})


def test_a_valid_message_is_accepted_with_its_ref() -> None:
    step = _inbound(Clock()).receive(LIST)
    assert step == Accept({"type": "list_seats", "ref": "r1"}, "r1")


def test_past_the_burst_a_message_is_refused_unread_until_the_bucket_refills() -> None:
    """Burst 2 at 2 per second: the third at the same instant is rate/limited; half a second later one
    token is back (2/s x 0.5 s)."""
    clock = Clock()
    inbound = _inbound(clock)
    assert isinstance(inbound.receive(LIST), Accept) and isinstance(inbound.receive(LIST), Accept)
    step = inbound.receive('{"ref":"r-9", not json')
    assert isinstance(step, Refuse) and step.error.code == "rate/limited" and step.ref == "r-9"
    assert step.error.details == {"retry_after_ms": 501}
    clock.now += 0.5
    assert isinstance(inbound.receive(LIST), Accept)


def test_a_client_that_keeps_ignoring_the_limit_is_closed() -> None:
    """flood_close 3: the third refusal without a quiet second in between closes (4029)."""
    inbound = _inbound(Clock(), burst=1, rate=0.001)
    assert isinstance(inbound.receive(LIST), Accept)
    assert isinstance(inbound.receive(LIST), Refuse) and isinstance(inbound.receive(LIST), Refuse)
    assert inbound.receive(LIST) == Close(CLOSE_FLOODING)


def test_a_steady_sender_at_four_times_the_rate_is_closed_though_refills_let_some_through() -> None:
    """#15 item 9: 64 messages a second against a rate of 16 (burst 1, flood_close 40; times in 64ths of a
    second, exact in binary): each message adds a quarter token, so every fourth gets through at a refill,
    which does not reset the flood count (no quiet second). Messages 0, 4, ..., 52 pass (14), the three
    between each pair are refused (39 by message 51), and message 53, at 53/64 s, is the 40th refusal."""
    limiter = RateLimiter.starting(rate=16.0, burst=1, flood_close=40, now=0.0)
    accepted = refused = 0
    for k in range(240):
        if limiter.allow(k / 64):
            accepted += 1
        else:
            refused += 1
        if limiter.flooding:
            break
    assert limiter.flooding and (k, accepted, refused) == (53, 14, 40)


def test_a_quiet_second_starts_the_flood_count_again() -> None:
    limiter = RateLimiter.starting(rate=0.001, burst=0, flood_close=3, now=0.0)
    assert not limiter.allow(0.0) and not limiter.allow(0.5)
    assert not limiter.allow(1.6)  # more than a second after the last refusal: counted from 1 again
    assert limiter.limited == 1 and not limiter.flooding


def test_size_is_checked_before_decoding() -> None:
    step = _inbound(Clock(), max_message=30).receive('{"type":"command","ref":"big-1","x":"xxxxxxxxxxxxxxxxxxxx" oops')
    assert isinstance(step, Refuse) and step.error.code == "protocol/too_big" and step.ref == "big-1"
    assert step.error.details == {"limit": 30}


def test_binary_unreadable_and_invalid_messages_are_refused_by_code() -> None:
    inbound = _inbound(Clock(), burst=10)
    refusals = [inbound.receive(b"\x00"), inbound.receive('{"ref":"x-1" nope'),
                inbound.receive('{"type":"command","ref":"c-1"}')]
    assert [(r.error.code, r.ref) for r in refusals if isinstance(r, Refuse)] == [
        ("protocol/binary", None), ("protocol/bad_json", "x-1"), ("protocol/schema", "c-1")]


COMMAND = Accept({"type": "command", "command_id": "c7", "command": "note", "args": {"text": "x"}, "ref": "r9"}, "r9")


def test_a_reply_is_sent_with_the_ref_of_its_message() -> None:
    assert Inbound.answer(COMMAND, {"type": "result", "command_id": "c7"}) == Answer(
        {"type": "result", "command_id": "c7", "ref": "r9"})


def test_a_handler_that_sent_its_own_messages_gets_nothing_more_sent() -> None:
    assert Inbound.answer(Accept({"type": "subscribe", "token": "t"}, None), None) == Answer(None)


def test_a_refusal_is_an_error_with_its_code_ref_and_the_clients_command_id() -> None:
    answer = Inbound.answer(COMMAND, reject("combatant/unknown", "no combatant 'x' in this fight", field="combatant"))
    assert answer == Answer({"type": "error", "code": "combatant/unknown", "message": "no combatant 'x' in this fight",
                             "details": {"field": "combatant"}, "ref": "r9", "command_id": "c7"})


def test_a_store_that_is_down_is_store_unavailable_and_drops_the_cached_fight() -> None:
    answer = Inbound.answer(COMMAND, StoreUnavailable(None, "connection refused"))
    assert answer.message is not None and answer.message["code"] == "store/unavailable"
    assert answer.forget_fight and answer.log == "store_unavailable"


def test_a_bug_is_an_internal_error_naming_only_its_type() -> None:
    answer = Inbound.answer(COMMAND, KeyError("secret detail"))
    assert answer.message == {"type": "error", "code": "internal/error", "message": "internal error: KeyError",
                              "ref": "r9", "command_id": "c7"}
    assert answer.log == "internal_error" and not answer.forget_fight

