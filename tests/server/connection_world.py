"""A connection's world without sockets or an event loop, for tests/server/test_connection_*.py.

:class:`World` performs a :class:`~combat_server.server.connection.Connection`'s effects synchronously
against real parts: a real :class:`CombatServer` (not started: no socket; its seats, hubs and fights
are the store's) over the test's engine, and the fight's real :class:`FightHub`. It records every
effect, so a test asserts the steps a request took; ``fail`` makes one kind of effect raise, as a
store that went down would. :class:`Outbox` is the connection's outgoing side: it keeps what it was
handed and can be made full (a client too slow to read).
"""

from __future__ import annotations

import asyncio
from typing import Any, Callable

import orjson

from combat_server.engine.fight import Engine
from combat_server.server import CombatServer, ServerConfig
from combat_server.server.connection import (
    AddSeat, Calculate, CatchUp, CommandRange, Connection, CreateFight, Disconnect, Effect, Evict, Execute, Forget,
    Granted, HistoryPage, Lock, Log, OpenHub, Policy, Preview, Refresh, ReplaceLink, SeatForToken, Seats, Send,
    StateAt, Steps, Unlock,
)
from combat_server.server.app import new_token, token_hash
from combat_server.server.hub import Seat

LINK_BASE = "http://table.test"


class Clock:
    """Seconds, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Outbox:
    """A connection's outgoing queue that holds ``room`` messages (then the client is too slow)."""

    def __init__(self, room: int = 10 ** 6) -> None:
        self.seat: Seat | None = None
        self.chain = False
        self.room = room
        self.texts: list[str] = []
        self.dropped = False
        self.holding = False
        self.revoked = False

    def deliver(self, text: str, bounded: bool = True) -> bool:
        if len(self.texts) >= self.room:
            return False
        self.texts.append(text)
        return True

    def drop_too_slow(self) -> None:
        self.dropped = True

    def hold_live(self) -> None:
        self.holding = True

    def messages(self) -> list[dict[str, Any]]:
        return [orjson.loads(t) for t in self.texts]


def _take(lock: asyncio.Lock) -> None:
    """Acquire a free asyncio lock without a loop: its ``acquire`` returns at once when nobody holds it."""
    try:
        lock.acquire().send(None)
    except StopIteration:
        return
    raise AssertionError("the fight's lock was held")


class World:
    """Performs effects on real parts, synchronously, recording each."""

    def __init__(self, engine: Engine, clock: Clock, **policy: Any) -> None:
        self.engine = engine
        self.clock = clock
        self.server = CombatServer(engine, ServerConfig(public_url=LINK_BASE))
        self.policy = Policy(**policy)
        self.effects: list[Effect] = []
        self.sent: list[dict[str, Any]] = []
        #: Effect types that raise this exception instead of being performed.
        self.fail: dict[type, Exception] = {}
        #: Seconds the clock moves while the engine runs a command.
        self.engine_takes = 0.0
        self.connections: list[Connection] = []

    def connect(self, outbox: Outbox | None = None) -> Connection:
        connection = Connection(outbox or Outbox(), self.policy, self.clock)
        self.connections.append(connection)
        return connection

    def run(self, steps: Steps) -> list[Effect]:
        """Drive a request's steps to the end; the effects it asked for, in order."""
        start = len(self.effects)
        value: Any = None
        failure: BaseException | None = None
        while True:
            try:
                effect = steps.send(value) if failure is None else steps.throw(failure)
            except StopIteration:
                return self.effects[start:]
            self.effects.append(effect)
            value, failure = None, None
            try:
                value = self.perform(effect)
            except Exception as exc:
                failure = exc

    def request(self, connection: Connection, message: dict[str, Any]) -> list[Effect]:
        return self.run(connection.receive(orjson.dumps(message).decode()))

    def perform(self, e: Effect) -> Any:
        if type(e) in self.fail:
            raise self.fail[type(e)]
        server, engine = self.server, self.engine
        if isinstance(e, Send):
            self.sent.append(e.message)
        elif isinstance(e, (Disconnect, Log, Evict)):
            pass  # recorded: the test looks at it
        elif isinstance(e, Forget):
            engine.forget(e.fight_id)
        elif isinstance(e, Lock):
            _take(e.hub.lock)
        elif isinstance(e, Unlock):
            e.hub.lock.release()
        elif isinstance(e, CreateFight):
            _, seat, token = server.create_fight(ruleset=e.ruleset, version=e.version, options=e.options,
                                                 dice_mode=e.dice_mode, title=e.title, seed=e.seed)
            return Granted(seat, token, server.link(token))
        elif isinstance(e, SeatForToken):
            return server.seat_for_token(e.token)
        elif isinstance(e, OpenHub):
            return server.hub(e.fight_id)
        elif isinstance(e, CommandRange):
            return engine.store.command_range(e.fight_id, e.command_id)
        elif isinstance(e, Execute):
            self.clock.now += self.engine_takes
            return engine.execute(e.fight_id, e.command, e.faces, e.expect_seq)
        elif isinstance(e, AddSeat):
            seat, token = server.add_seat(e.fight_id, e.role, e.label, e.combatants)
            return Granted(seat, token, server.link(token))
        elif isinstance(e, Seats):
            return list(engine.store.seats(e.fight_id))
        elif isinstance(e, ReplaceLink):
            token = new_token()
            engine.store.replace_tokens(e.seat.fight_id, {e.seat.seat_id: token_hash(token)})
            server.forget_seat(e.seat.fight_id, e.seat.seat_id)
            return Granted(e.seat, token, server.link(token))
        elif isinstance(e, Preview):
            return engine.preview(e.fight_id, e.command)
        elif isinstance(e, Calculate):
            return engine.calculate(e.fight_id, e.actor, e.tool, e.inputs, e.combatant)
        elif isinstance(e, StateAt):
            return engine.state_at(e.fight_id, e.seq)
        elif isinstance(e, HistoryPage):
            return e.hub.history_page(e.seat, e.now, e.after, e.upto, e.limit)
        elif isinstance(e, CatchUp):
            return self._catch_up(e)
        elif isinstance(e, Refresh):
            raise AssertionError("no other server process in these tests")
        else:
            raise AssertionError(f"unexpected effect {e!r}")
        return None

    def _catch_up(self, e: CatchUp) -> bool:
        """As ``Session``: the stored pages, then the held live messages (none here)."""
        after = e.after
        connection = next(c for c in self.connections if c.hub is e.hub and c.seat == e.seat)
        peer = connection.peer
        assert isinstance(peer, Outbox)
        while after < e.state.seq:
            text, after = e.hub.catch_up_page(e.seat, e.state, after)
            if not peer.deliver(text, bounded=False):
                return False
        peer.holding = False
        return True


def types_of(effects: list[Effect]) -> list[str]:
    return [type(e).__name__ for e in effects]


def only(effects: list[Effect], kind: Callable[..., Any]) -> Any:
    (found,) = [e for e in effects if isinstance(e, kind)]  # type: ignore[arg-type]
    return found
