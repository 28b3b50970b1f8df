"""One connection's request handling, sans I/O (issue 16, "A sans-I/O connection").

:class:`Connection` is fed the client's frames and answers each with the steps to take, as a
generator of :data:`Effect` values: messages to send, a close code, log records, and requests for
what needs the event loop or reaches outside the process (the fight's lock, the engine, the store,
reads in worker threads). Each request's result is sent back into the generator (or, if it
failed, its exception thrown in), so a handler reads as the sequence of steps it is, and a test
drives it by hand: feed a frame, look at the effect, answer it, with a hand-set clock and no
sockets (tests/server/test_connection_*.py). ``app.Session`` is the asyncio adapter: it moves
bytes and performs the effects (:meth:`app.Session.perform`).

What stays a direct call: the fight's :class:`~combat_server.server.hub.FightHub` (the plain,
synchronous fan-out of one fight: subscribers, views, the catch-up cache) and the connection's
own outgoing queue (:class:`Peer`, which answers at once whether a message fitted). Both are
synchronous and in memory; everything that awaits is an effect.

Why generators and not a state machine of callbacks: the requests are short sequences (lock, read,
decide, run, publish, unlock, reply) whose steps depend on earlier results; a generator keeps each one
in one function, in order, with ``try``/``finally`` for the lock, and driving a command's five
effects costs about 6 µs against about 0.8 ms of server CPU per command (docs/architecture.md).
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Generator, Mapping, Protocol, Sequence

import attrs

from combat_server.engine.fight import CommandResult
from combat_server.errors import CombatError, reject
from combat_server.rules.core import command_specs
from combat_server.rules.model import SYSTEM_ACTOR, Command, FightState, Principal
from combat_server.rules.ruleset import default_ruleset_name, rulesets_json
from combat_server.server.hub import MAX_PAGE, FightHub, Seat, Subscriber
from combat_server.server.inbound import Close, Inbound, Refuse
from combat_server.server.protocol import (
    CLOSE_LINK_REPLACED, MAX_DEPTH, MAX_TEXT, PROTOCOL_VERSION, ProtocolError, error_message,
)
from combat_server.server.requests import (
    check_server_key, gm_only, needs_seat, new_link_target, replay_window, seat_request, subscribe_after,
)
from combat_server.store.recorder import SeatRow

#: Close code when a catch-up read from the store failed half-way (server error; reconnect from the last seq).
CLOSE_CATCH_UP_FAILED = 1011


# ---------------------------------------------------------------------- effects without a result


@attrs.frozen
class Send:
    """Send this message to the client (too slow to take it: the connection is dropped, 4008)."""

    message: dict[str, Any]


@attrs.frozen
class Disconnect:
    """Close the connection with this code; nothing more is read from it."""

    code: int


@attrs.frozen
class Log:
    """A record for the server's log: ``level`` is ``info``, ``warning`` or ``error``; ``exc`` adds the
    traceback (a bug, or a store that failed mid-way)."""

    level: str
    event: str
    fields: Mapping[str, Any]
    exc: BaseException | None = None


@attrs.frozen
class Forget:
    """Drop the engine's cached state of the fight (the store failed, or a bug, mid-command): the next
    use reloads it from the log."""

    fight_id: str


@attrs.frozen
class Evict:
    """Close these connections with ``code`` (their seat's link was replaced, #13)."""

    subscribers: tuple[Subscriber, ...]
    code: int


# ---------------------------------------------------------------------- effects with a result


@attrs.frozen
class Granted:
    """The result of creating a fight or a seat, or replacing a seat's link: the seat, its token
    (shown once) and the link that carries it."""

    seat: Seat
    token: str
    link: str


@attrs.frozen
class CreateFight:
    """Create a fight with its GM seat (one transaction) → :class:`Granted` (the GM's)."""

    ruleset: str
    version: str | None
    options: Mapping[str, Any] | None
    dice_mode: str
    title: str
    seed: str | None


@attrs.frozen
class SeatForToken:
    """The seat a link's token opens, read from the store → :class:`Seat` (or ``auth/bad_token``)."""

    token: str


@attrs.frozen
class OpenHub:
    """The fight's hub, loading the fight if it is not cached → :class:`FightHub` (or ``fight/unknown``)."""

    fight_id: str


@attrs.frozen
class Lock:
    """Wait for the fight's lock (one request of the fight at a time changes or reads its table); its result
    is not used."""

    hub: FightHub


@attrs.frozen
class Unlock:
    """Release the fight's lock → ``None``."""

    hub: FightHub


@attrs.frozen
class Refresh:
    """Bring the fight up to the store (another server process may have appended) and push what the
    subscribers missed (lock held) → ``None``."""

    hub: FightHub


@attrs.frozen
class CommandRange:
    """The (first, last) seq a command id already took in the fight's log → tuple or ``None``."""

    fight_id: str
    command_id: str


@attrs.frozen
class Execute:
    """Run a command on the engine (lock held) → :class:`CommandResult`."""

    fight_id: str
    command: Command
    faces: Any
    expect_seq: int | None


@attrs.frozen
class CatchUp:
    """Send the stored events (after, state.seq] page by page, read off the loop, then the live messages
    held meanwhile (:meth:`Peer.hold_live`) → ``True``, or ``False`` if the client was too slow for
    them; raises if the store failed half-way."""

    hub: FightHub
    seat: Seat
    state: FightState
    after: int


@attrs.frozen
class AddSeat:
    """Store a new seat (its token's hash only) → :class:`Granted`."""

    fight_id: str
    role: str
    label: str
    combatants: tuple[str, ...]


@attrs.frozen
class Seats:
    """The fight's seats as stored → ``list[SeatRow]``."""

    fight_id: str


@attrs.frozen
class ReplaceLink:
    """Give ``seat`` a new token in place of its old one, which joins no more → :class:`Granted`."""

    seat: Seat


@attrs.frozen
class Preview:
    """The number a command would roll against (nothing appended) → the rules' dict."""

    fight_id: str
    command: Command


@attrs.frozen
class Calculate:
    """Run a GM tool read-only (#12) → the rules' dict."""

    fight_id: str
    actor: Principal
    tool: str
    inputs: Mapping[str, Any]
    combatant: str | None


@attrs.frozen
class StateAt:
    """The fight's state at ``seq``, read off the loop → :class:`FightState`."""

    fight_id: str
    seq: int


@attrs.frozen
class HistoryPage:
    """One ``replay`` page of ``seat``'s items (after, upto], at most ``limit``, read off the loop → list."""

    hub: FightHub
    seat: Seat
    now: FightState
    after: int
    upto: int
    limit: int


Effect = (Send | Disconnect | Log | Forget | Evict | CreateFight | SeatForToken | OpenHub | Lock | Unlock
          | Refresh | CommandRange | Execute | CatchUp | AddSeat | Seats | ReplaceLink | Preview | Calculate
          | StateAt | HistoryPage)
#: A request's steps: effects out, their results in, the reply (or ``None``) returned.
Steps = Generator[Effect, Any, None]
Handler = Generator[Effect, Any, "dict[str, Any] | None"]


class Peer(Subscriber, Protocol):
    """The connection's outgoing side as the hub and the handlers see it: a hub subscriber whose
    ``seat`` and ``chain`` this connection sets, with a queue that says at once whether a message fitted."""

    #: The link this connection joined with was replaced (it is being closed, 4003): it acts no more.
    revoked: bool

    def deliver(self, text: str, bounded: bool = True) -> bool:
        """Queue one encoded message; ``False`` if it did not fit (the client is too slow).
        ``bounded``: counted against the queue's characters (a catch-up counts messages only)."""

    def hold_live(self) -> None:
        """Hold live messages back until a catch-up from the store (:class:`CatchUp`) has been sent."""


@attrs.frozen
class Policy:
    """What a connection is told by the server's configuration."""

    create_policy: str = "open"
    server_key: str | None = None
    rate: float = 200.0
    burst: int = 400
    flood_close: int = 2000
    max_message: int = 256 * 1024
    queue_size: int = 512
    queue_bytes: int = 16 * 1024 * 1024
    #: Other server processes may append to the same fights (PostgreSQL with the listener on): a
    #: subscribe, and a command expecting a seq ahead of the cache, refresh from the store first.
    peers: bool = False


class Connection:
    """The logic of one websocket connection: at most one seat, its requests and their replies.

    ``peer`` is this connection's outgoing side (``app.Session``; in tests, a recording one);
    ``clock`` gives seconds (monotonic) for the rate limit and the command log's latency;
    ``logs(level)`` says whether a :class:`Log` record at that level would be written (the server's
    :func:`combat_server.logs.enabled`): the per-command record is not built when it would not.
    """

    def __init__(self, peer: Peer, policy: Policy, clock: Callable[[], float],
                 logs: Callable[[str], bool] = lambda level: True) -> None:
        self.peer = peer
        self.policy = policy
        self.clock = clock
        self.logs = logs
        #: Rate, size, decoding and schema checks (server/inbound.py).
        self.inbound = Inbound(rate=policy.rate, burst=policy.burst, flood_close=policy.flood_close,
                               max_message=policy.max_message, clock=clock)
        self.hub: FightHub | None = None
        #: The effects that take and release the lock of the fight last commanded (:meth:`_locking`).
        self._lock_effects: tuple[Lock, Unlock] | None = None
        #: The seat last commanded for and its principal (:meth:`_actor`).
        self._seat_actor: tuple[Seat, Principal] | None = None
        self._handlers: dict[str, Callable[[dict[str, Any]], Handler | dict[str, Any]]] = {
            "create_fight": self._create_fight,
            "subscribe": self._subscribe,
            "command": self._command,
            "preview": self._preview,
            "calculate": self._calculate,
            "add_seat": self._add_seat,
            "list_seats": self._list_seats,
            "new_link": self._new_link,
            "state_at": self._state_at,
            "replay": self._replay,
            "view": self._view,
        }

    @property
    def seat(self) -> Seat | None:
        return self.peer.seat

    def welcome(self) -> dict[str, Any]:
        """The first message on a connection: the protocol, the limits the client must keep, the rulesets."""
        p = self.policy
        return {"type": "welcome", "protocol": PROTOCOL_VERSION, "server": "combat-server",
                "create_policy": p.create_policy,
                "limits": {"max_message": p.max_message, "rate": p.rate, "burst": p.burst,
                           "queue": p.queue_size, "queue_bytes": p.queue_bytes, "max_text": MAX_TEXT,
                           "max_depth": MAX_DEPTH},
                "rulesets": rulesets_json()}

    def receive(self, raw: str | bytes) -> Steps:
        """The steps for one frame: refuse or close (:class:`Inbound`), or run its request and answer it
        (:meth:`Inbound.answer`: the reply with its ``ref``, or the error its exception means)."""
        step = self.inbound.receive(raw)
        if isinstance(step, Close):
            yield Disconnect(step.code)
            return
        if isinstance(step, Refuse):
            # Bad input is refused to the client and in the log; a message over the rate limit is not bad input, and
            # a flood would write a line per message (the 4029 close is the log's to show).
            if step.error.code != "rate/limited" and self.logs("info"):
                yield Log("info", "refused", self._refusal(None, step.error))
            yield Send(error_message(step.error, step.ref, None))
            return
        outcome: dict[str, Any] | None | BaseException
        kind = step.message["type"]
        try:
            if (self.peer.seat is None or self.hub is None) and needs_seat(kind):
                raise ProtocolError("auth/not_joined")
            if self.peer.revoked and needs_seat(kind):  # its close (4003) is on the way
                raise reject("auth/link_replaced", "this seat's link was replaced: this connection acts no more "
                             "(ask the GM for the new link)")
            handled = self._handlers[kind](step.message)
            outcome = handled if isinstance(handled, dict) else (yield from handled)
        except Exception as exc:  # what it means for the client is Inbound.answer's to say
            outcome = exc
        if type(outcome) is dict:  # a reply: Inbound.answer's first case, written out (issue 16, every command)
            if step.ref is not None:
                outcome["ref"] = step.ref
            yield Send(outcome)
            return
        answer = self.inbound.answer(step, outcome)
        seat = self.peer.seat
        seat_id = seat.seat_id if seat else None
        if answer.forget_fight and seat is not None:
            yield Forget(seat.fight_id)  # the database is down or dropped us mid-command
        if answer.log == "internal_error":  # a bug: say so, keep serving the others
            bug = outcome if isinstance(outcome, BaseException) else None
            yield Log("error", "internal_error", {"seat": seat_id}, bug)
        elif answer.log is not None:
            yield Log("warning", answer.log, {"seat": seat_id, "error": getattr(outcome, "message", str(outcome))})
        elif kind != "command" and isinstance(outcome, CombatError) and self.logs("info"):
            yield Log("info", "refused", self._refusal(kind, outcome))  # a command's own line says its outcome
        if answer.message is not None:
            yield Send(answer.message)

    # ------------------------------------------------------------------ handlers

    def _joined(self) -> tuple[Seat, FightHub]:
        seat = self.peer.seat
        if seat is None or self.hub is None:
            raise ProtocolError("auth/not_joined")
        return seat, self.hub

    def _create_fight(self, m: dict[str, Any]) -> Handler:
        check_server_key(self.policy.create_policy, self.policy.server_key, m)
        # A client that names no ruleset (written when there was one) gets the registry's default.
        ruleset = m["ruleset"] if "ruleset" in m else default_ruleset_name()
        granted: Granted = yield CreateFight(ruleset, m.get("version"), m.get("options"), m.get("dice_mode", "server"),
                                             m.get("title", ""), m.get("seed"))
        fight_id = granted.seat.fight_id
        yield Log("info", "fight_created", {"fight_id": fight_id, "ruleset": ruleset})
        return {"type": "fight_created", "fight_id": fight_id, "seat_id": granted.seat.seat_id,
                "token": granted.token, "link": granted.link}

    def _subscribe(self, m: dict[str, Any]) -> Handler:
        peer = self.peer
        seat: Seat = yield SeatForToken(m["token"])
        if peer.seat is not None and peer.seat != seat:
            raise ProtocolError("auth/already_joined")
        hub: FightHub = yield OpenHub(seat.fight_id)
        yield Lock(hub)
        try:
            if self.policy.peers:
                yield Refresh(hub)  # another process may have moved the fight on
            after = subscribe_after(m, hub.state().seq, seat.fight_id)
            peer.seat, self.hub = seat, hub
            peer.chain = bool(m.get("chain", False))
            state, catchup, from_store = hub.add(peer, after, live=bool(m.get("live", True)))
            seq, view, digest = hub.live_view(peer)  # the view its live patches start from (protocol 2)
            reply = {"type": "subscribed", "fight_id": seat.fight_id, "seat": seat.to_json(),
                     "last_seq": seq, "last_hash": hub.last_hash(), "after": after, "state": view, "view_hash": digest,
                     "commands": [spec.to_json() for spec in command_specs(hub.ruleset())],
                     "tools": [spec.to_json() for spec in hub.ruleset().calculators.values()]}
            if m.get("describe"):  # a client that renders descriptions asks for them (#9, describe)
                description = hub.describe(peer, state)
                if description is not None:  # None: the rules could not describe it now (FightHub._description)
                    reply["description"] = description
            else:
                hub.forget_description(peer)
            if "ref" in m:
                reply["ref"] = m["ref"]
            yield Send(reply)
            if from_store:
                # After the reply (held, it came after the catch-up: protocol.md says subscribed, then events),
                # before the lock is released: nothing live is pushed ahead of the catch-up.
                peer.hold_live()
            for text in catchup:
                if not peer.deliver(text, bounded=False):
                    hub.remove(peer)
                    peer.drop_too_slow()
                    break
        finally:
            yield Unlock(hub)
        if from_store:
            # Without the fight's lock: the log up to ``state`` is fixed (docs/architecture.md, long reads).
            try:
                delivered = yield CatchUp(hub, seat, state, after)
            except Exception as exc:  # the store failed mid-way: the client has a gap, so it must reconnect
                hub.remove(peer)
                yield Log("error", "catch_up_failed", {"fight_id": seat.fight_id, "seat": seat.seat_id,
                                                       "after": after}, exc)
                yield Disconnect(CLOSE_CATCH_UP_FAILED)
                return None
            if not delivered:
                hub.remove(peer)
                peer.drop_too_slow()
        return None

    def _command(self, m: dict[str, Any]) -> Handler:
        seat, hub = self.peer.seat, self.hub  # self._joined(), written out (issue 16, every command)
        if seat is None or hub is None:
            raise ProtocolError("auth/not_joined")
        client_id: str = m["command_id"]
        # Who may send it (a spectator: nothing) is the command's spec's to say (rules/commands.py: check_command).
        command = Command(m["command"], m.get("args", {}), self._actor(seat), f"{seat.seat_id}:{client_id}")
        started = self.clock()
        outcome, first, last = "ok", 0, 0
        refusal: str | None = None
        lock, unlock = self._locking(hub)
        try:
            yield lock
            try:
                result = yield from self._execute(hub, command, m)
            finally:
                yield unlock
            first, last = result.first_seq, result.last_seq
            if result.duplicate:
                outcome = "duplicate"
            return {"type": "result", "command_id": client_id, "first_seq": first, "last_seq": last,
                    "duplicate": result.duplicate}
        except CombatError as exc:
            outcome, refusal = exc.code, exc.message
            raise
        except Exception:
            outcome = "internal/error"
            yield Forget(seat.fight_id)
            raise
        finally:
            if self.logs("info"):  # off (--log-level warning): no fields, no effect (issue 16, about 45 k instructions)
                fields = {
                    "fight_id": seat.fight_id, "seat": seat.seat_id, "command_id": client_id, "command": command.type,
                    "first_seq": first or None, "last_seq": last or None, "outcome": outcome,
                    "latency_ms": round((self.clock() - started) * 1000, 3)}
                if refusal is not None:
                    fields["error"] = refusal  # what the client was told, not only its code
                yield Log("info", "command", fields)

    def _refusal(self, kind: Any, error: CombatError) -> dict[str, Any]:
        """The fields of a ``refused`` log record: who sent what, and the code and message it was answered."""
        seat = self.peer.seat
        return {"fight_id": seat.fight_id if seat else None, "seat": seat.seat_id if seat else None,
                "type": kind if isinstance(kind, str) else None, "code": error.code, "error": error.message}

    def _actor(self, seat: Seat) -> Principal:
        """``seat.actor()``, made once for the commands of a connection (a frozen value, equal to a new one;
        issue 16, server CPU)."""
        known = self._seat_actor
        if known is None or known[0] is not seat:
            known = self._seat_actor = (seat, seat.actor())
        return known[1]

    def _locking(self, hub: FightHub) -> tuple[Lock, Unlock]:
        """:class:`Lock` and :class:`Unlock` of ``hub``, made once for the commands of a connection (they are
        frozen values, equal to new ones; issue 16, server CPU: two objects less per command)."""
        effects = self._lock_effects
        if effects is None or effects[0].hub is not hub:
            effects = self._lock_effects = (Lock(hub), Unlock(hub))
        return effects

    def _execute(self, hub: FightHub, command: Command, m: Mapping[str, Any]) -> Generator[Effect, Any, CommandResult]:
        """Run one command with the fight's lock held: stale check, engine, publish."""
        before = hub.state()
        expect = m.get("expect_seq")
        if expect is not None and expect > before.seq and self.policy.peers:
            yield Refresh(hub)  # another process may have moved the fight on
            before = hub.state()
        if expect is not None and expect != before.seq:
            done = yield CommandRange(hub.fight_id, command.command_id)
            if done is None:
                raise ProtocolError("command/stale_seq", f"the fight is at seq {before.seq}, not {expect}",
                                    expected=expect, actual=before.seq)
        result: CommandResult = yield Execute(hub.fight_id, command, m.get("faces"), expect)
        if not result.duplicate:
            hub.publish(result, before)
        elif result.last_seq > hub.synced_seq:
            # Applied, but its acknowledgement was lost (a dropped connection after the commit) or it
            # was applied by another process: the table has not seen it yet.
            yield Refresh(hub)
        return result

    def _add_seat(self, m: dict[str, Any]) -> Handler:
        seat, hub = self._joined()
        gm_only(seat.role, "adds seats")
        yield Lock(hub)
        try:
            role, combatants, label = seat_request(seat.role, m, hub.state().combatants)
            granted: Granted = yield AddSeat(seat.fight_id, role, label, combatants)
        finally:
            yield Unlock(hub)
        yield Log("info", "seat_added", {"fight_id": seat.fight_id, "seat": granted.seat.seat_id, "role": role})
        return {"type": "seat_added", "seat": granted.seat.to_json(), "token": granted.token, "link": granted.link}

    def _list_seats(self, m: dict[str, Any]) -> Handler:
        seat, _hub = self._joined()
        gm_only(seat.role, "lists seats")
        rows: Sequence[SeatRow] = yield Seats(seat.fight_id)
        return {"type": "seats", "seats": [_seat(r).to_json() for r in rows]}

    def _new_link(self, m: dict[str, Any]) -> Handler:
        """A new link for one seat whose link was lost (#13, links recovery), its old token revoked.

        Why here and not the ``reissue_links`` command alone: only the server holds the seat table
        and can hand the new token to the GM who asked. The change is recorded as that command's
        ``links_reissued`` event (sent as the system, as ``combat-server links`` does), so the table
        sees when the old link stopped working. The new token is stored before the event is recorded, and
        connections open with the old link are closed (CLOSE_LINK_REPLACED) once it is published, here and
        (when they see the event) in every other server process; the old link cannot join again.
        """
        seat, hub = self._joined()
        target = new_link_target(seat.role, seat.seat_id, m)
        yield Lock(hub)
        try:
            rows: Sequence[SeatRow] = yield Seats(seat.fight_id)
            row = next((r for r in rows if r.seat_id == target), None)
            if row is None:
                raise ProtocolError("seat/unknown", f"no seat {target!r} in this fight",
                                    known=[r.seat_id for r in rows])
            command = Command("reissue_links", {"seats": [target], "reason": f"new link for {row.label or target}"},
                              SYSTEM_ACTOR, f"{seat.seat_id}:new-link:{uuid.uuid4().hex[:12]}")
            # The token first, then the record: another process closes the old link's connections when it
            # sees the record, and by then the old link must join nowhere (else a quick reconnect would).
            granted: Granted = yield ReplaceLink(_seat(row))
            yield from self._execute(hub, command, {})
            replaced = tuple(s for s in hub.subscribers if s.seat is not None and s.seat.seat_id == target)
            if replaced:
                yield Evict(replaced, CLOSE_LINK_REPLACED)
        finally:
            yield Unlock(hub)
        yield Log("info", "link_reissued", {"fight_id": seat.fight_id, "seat": target})
        return {"type": "seat_added", "seat": granted.seat.to_json(), "token": granted.token, "link": granted.link}

    def _preview(self, m: dict[str, Any]) -> Handler:
        """The number a command would roll against, computed by the rules (nothing appended):
        clients show it before anyone rolls instead of re-implementing the modifiers."""
        seat, hub = self._joined()
        command = Command(m["command"], m.get("args", {}), seat.actor(), "")  # checked against its spec
        yield Lock(hub)
        try:
            result: dict[str, Any] = yield Preview(seat.fight_id, command)
        finally:
            yield Unlock(hub)
        return {"type": "preview_result", **result}

    def _calculate(self, m: dict[str, Any]) -> Handler:
        """Run a GM tool read-only (#12): the GM any tool, a player a players' tool for its own
        combatant; nothing is rolled or appended (applying it is a command of the ruleset)."""
        seat, hub = self._joined()
        yield Lock(hub)
        try:
            result: dict[str, Any] = yield Calculate(seat.fight_id, seat.actor(), m["tool"], m.get("inputs", {}),
                                                     m.get("combatant"))
        finally:
            yield Unlock(hub)
        return {"type": "calculation", **result}

    def _state_at(self, m: dict[str, Any]) -> Handler:
        seat, hub = self._joined()
        state: FightState = yield StateAt(seat.fight_id, int(m["seq"]))
        return {"type": "state", "fight_id": seat.fight_id, "seq": state.seq, "state": hub.view(seat, state)}

    def _view(self, m: dict[str, Any]) -> dict[str, Any]:
        """The seat's whole view at the seq its pushes have reached, with its hash: what a client
        whose patched copy no longer matches a push's ``view_hash`` asks for (protocol 2, issue 16).
        The next push's patch starts from exactly this view."""
        seat, hub = self._joined()
        seq, view, digest = hub.live_view(self.peer)
        return {"type": "full_view", "fight_id": seat.fight_id, "seq": seq, "state": view, "view_hash": digest}

    def _replay(self, m: dict[str, Any]) -> Handler:
        seat, hub = self._joined()
        now = hub.state()
        after, upto, limit = replay_window(m, now.seq, MAX_PAGE)
        items: list[dict[str, Any]] = (yield HistoryPage(hub, seat, now, after, upto, limit)) if after < upto else []
        more = bool(items) and int(items[-1]["seq"]) < upto
        return {"type": "history", "fight_id": seat.fight_id, "items": items, "upto": upto, "more": more}


def _seat(row: SeatRow) -> Seat:
    return Seat(row.fight_id, row.seat_id, row.role, row.label, tuple(row.combatants))


__all__ = [
    "Connection", "Peer", "Policy", "Effect", "Steps", "Granted", "CLOSE_CATCH_UP_FAILED",
    "Send", "Disconnect", "Log", "Forget", "Evict", "CreateFight", "SeatForToken", "OpenHub", "Lock", "Unlock",
    "Refresh", "CommandRange", "Execute", "CatchUp", "AddSeat", "Seats", "ReplaceLink", "Preview", "Calculate",
    "StateAt", "HistoryPage",
]
