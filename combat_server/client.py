"""An asyncio client for the combat-server websocket protocol (docs/protocol.md).

    async with await CombatClient.connect("ws://127.0.0.1:8765/ws") as gm:
        created = await gm.create_fight(ruleset="gurps", title="Ambush")
        await gm.subscribe(created["token"])
        await gm.command("add_combatant", {"name": "Orc", "sheet": {"st": 13}})
        event = await gm.next_event()

Every command gets a generated command id unless one is given; retries reuse it,
so the server answers a retry without applying it twice. When the connection
drops, the client reconnects by itself, subscribes again with the last seq it
saw and re-sends the commands still waiting for an answer: no event is lost or
delivered twice (``events`` is gapless, checked on arrival).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import secrets
import time
from pathlib import Path
from typing import Any, AsyncIterator, Callable, Mapping, Sequence

import attrs
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from combat_server.canonical import chain_hash
from combat_server.patch import PatchError, ViewPatcher
from combat_server.receiving_client import ReceivingClientConnection

__all__ = ["CombatClient", "CommandIds", "ServerError", "PushedEvent", "GapError", "ChainError"]

#: The protocol this client speaks (docs/protocol.md): a server that speaks another one is reported in ``errors``.
PROTOCOL = 5

#: Requests that are safe to send again after a reconnect (idempotent or read-only).
_RESENDABLE = frozenset({"command", "state_at", "replay", "list_seats"})


def _loads(raw: str | bytes) -> Any:
    """Decode one message: orjson (2-3x faster on the pushed states), ``json`` for what orjson refuses
    (numbers past 64 bits, NaN)."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return json.loads(raw)


class CommandIds:
    """The command ids a client makes: 16 hex digits of the time in nanoseconds, larger than the last id's
    even if the clock stood still or went back, then 8 random hex digits, so that two clients of one seat
    (a second device, a restarted program) do not meet.

    Why ordered (issue 16, the append): the server keeps one row per applied command, keyed by fight and
    ``seat:id``, to answer retries (docs/protocol.md). An id later than the seat's last one lands at the end of
    that seat's part of the key, on the page the last command's row was written to; a random id (a uuid4)
    lands on a random page, one more page written to the log per command: 38-40 against 61-69 us of CPU per
    append through the store (docs/benchmarks.md, "Session 14: ordered command ids"). The web page's ids grow
    with its clock's milliseconds too."""

    def __init__(self, clock: Callable[[], int] = time.time_ns, entropy: Callable[[int], str] = secrets.token_hex
                 ) -> None:
        self._clock = clock
        self._entropy = entropy
        self._last = 0

    def __call__(self) -> str:
        now = self._clock()
        if now <= self._last:
            now = self._last + 1
        self._last = now
        return f"{now:016x}{self._entropy(4)}"


def _time_out(fut: "asyncio.Future[Any]") -> None:
    if not fut.done():
        fut.set_exception(asyncio.TimeoutError())


class ServerError(Exception):
    """The server refused a request: ``code`` is the stable error code."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.details = dict(details or {})


class GapError(RuntimeError):
    """The server skipped a seq: a broken delivery guarantee, never expected."""


class ChainError(RuntimeError):
    """A pushed event's ``hash`` is not the hash of its record on the previous event's
    (``verify_chain=True``): the log this client was sent is not the server's chain."""


@attrs.frozen
class PushedEvent:
    """One event as this seat received it. ``state``: the seat's view right after it, the push's
    patch applied to the view before (``None`` for catch-up items, and while the client waits for
    the full view after a patch did not give the push's ``view_hash``)."""

    seq: int
    event: Mapping[str, Any]
    explanation: str
    state: Mapping[str, Any] | None
    received_at: float = 0.0

    @property
    def type(self) -> str:
        return str(self.event["type"])


class CombatClient:
    def __init__(self, url: str, *, reconnect: bool = True, reconnect_timeout: float = 30.0,
                 on_event: Callable[[PushedEvent], None] | None = None, max_size: int = 16 * 1024 * 1024,
                 record: bool = False, compression: bool = False, verify_chain: bool = False,
                 chain: bool = False) -> None:
        self.url = url
        #: Check every event's ``hash`` against its record and the previous event's hash (protocol 3
        #: pushes leave ``prev_hash`` out; this client rebuilds it either way).
        self.verify_chain = verify_chain
        #: Ask for live records whole (``subscribe.chain``, protocol 4: ``command_id``, ``recorded_at``,
        #: ``hash``); without it a push's record is what the event says (``type``, ``payload``) and who
        #: did it (``actor``). Checking the chain needs them, so ``verify_chain`` asks too.
        self.chain = chain or verify_chain
        #: The ``hash`` of the event at :attr:`last_seq`: the ``prev_hash`` of the next live push.
        self.last_hash = ""
        #: Offer permessage-deflate (used only if the server was started with ``--compression``).
        self.compression = compression
        self.reconnect = reconnect
        self.reconnect_timeout = reconnect_timeout
        #: Called with each new event, in seq order. It may run inside the connection's ``data_received``
        #: (a push handled as it was parsed), outside any task: it must not block, and what it raises ends
        #: the reading as a bad message does (:meth:`_read_loop`).
        self.on_event = on_event
        self.max_size = max_size
        self.welcome: dict[str, Any] = {}
        self.seat: dict[str, Any] | None = None
        self.fight_id: str | None = None
        self.token: str | None = None
        self.state: dict[str, Any] | None = None
        #: The seq :attr:`state` is at; live pushes patch it (protocol 2).
        self.state_seq = 0
        #: Whether :attr:`state` is known to be wrong (a patch did not give the pushed hash) until the
        #: full view asked for arrives; pushes meanwhile are kept without a view.
        self.view_stale = False
        #: How many times a patched view did not match its hash (each time the full view was asked for).
        self.resyncs = 0
        #: Makes the id of a command sent without one (:class:`CommandIds`).
        self.new_command_id = CommandIds()
        #: The patched views and their view_hash, re-encoding only what each patch changed (issue 16, the clients'
        #: CPU): a patched view shares every unchanged member and combatant entry with the view before.
        self._views = ViewPatcher()
        #: What this seat can do and see now (``subscribed`` and ``description`` messages, #9 describe).
        self.description: dict[str, Any] | None = None
        #: The GM tools of the fight's ruleset (``subscribed.tools``, #12).
        self.tools: list[dict[str, Any]] = []
        self.last_seq = 0
        self.events: list[PushedEvent] = []
        self.errors: list[ServerError] = []
        self.close_codes: list[int | None] = []
        self.reconnects = 0
        #: Every message received, when ``record`` is set (tests check them against the schemas).
        self.received: list[dict[str, Any]] | None = [] if record else None
        self._live = True
        self._describe = False
        self._queue: asyncio.Queue[PushedEvent] = asyncio.Queue()
        self._refs = itertools.count(1)
        self._pending: dict[str, tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = {}
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        #: A ``subscribed`` reply and its request's future, held until the catch-up it announced is in.
        self._subscribed_held: tuple[dict[str, Any], asyncio.Future[dict[str, Any]]] | None = None
        #: :meth:`_read_loop` waits in ``recv`` with nothing queued there: a message may be handled as it
        #: is parsed (:meth:`_take_text`).
        self._idle = False
        #: What a message handled as it was parsed raised; :meth:`_read_loop` raises it (as if ``recv`` had
        #: brought the message) when :meth:`_take_text` cancelled it to say so.
        self._failure: BaseException | None = None
        self._connected = asyncio.Event()
        self._closed = False
        self._changed = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ connection

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> "CombatClient":
        client = cls(url, **kwargs)
        await client._open()
        client._reader = asyncio.get_running_loop().create_task(client._read_loop())
        return client

    #: The websockets connection class: :class:`ReceivingClientConnection` hands each push to
    #: :meth:`_dispatch` as it is parsed (``ClientConnection``: every message through ``recv``).
    _connection: type[ClientConnection] = ReceivingClientConnection

    async def _open(self) -> None:
        self._ws = await connect(self.url, compression="deflate" if self.compression else None,
                                 max_size=self.max_size, open_timeout=10, close_timeout=2,
                                 create_connection=self._connection)
        self._connected.set()

    @property
    def compressed(self) -> bool:
        """Whether this connection negotiated permessage-deflate."""
        if self._ws is None or self._ws.response is None:
            return False
        return "permessage-deflate" in self._ws.response.headers.get("Sec-WebSocket-Extensions", "")

    async def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
        for _msg, fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ServerError("client/closed", "the client was closed"))
        self._pending.clear()

    async def __aenter__(self) -> "CombatClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def drop_connection(self) -> None:
        """Close the socket as a network failure would (tests): the client reconnects."""
        if self._ws is not None:
            self._ws.transport.abort()

    # ------------------------------------------------------------------ reading

    async def _read_loop(self) -> None:
        """Read each connection's messages in order, reconnecting until closed. A message that
        :meth:`_dispatch` (or the JSON decoder) cannot take ends this task with its exception, as it
        always did: whether it came through ``recv`` or was handled as it was parsed
        (:meth:`_take_text`), the exception is this task's, and the connection is left as it is."""
        while not self._closed:
            ws = self._ws
            assert ws is not None
            if isinstance(ws, ReceivingClientConnection):
                ws.take_text, ws.left_to_recv = self._take_text, self._left_to_recv
            failure: BaseException | None = None
            try:
                while True:  # recv itself, not ``async for``: one async generator step less per message
                    self._idle = True
                    try:
                        raw = await ws.recv()
                    finally:
                        self._idle = False
                    self._dispatch(_loads(raw))
            except ConnectionClosed:
                pass
            except asyncio.CancelledError:
                failure, self._failure = self._failure, None
                if failure is None:
                    raise
            finally:
                if isinstance(ws, ReceivingClientConnection):
                    ws.take_text = ws.left_to_recv = None
            if failure is not None:
                # What a message handled as it was parsed raised, raised here outside the handler: as it is,
                # with its own cause and context, as if recv had brought the message.
                raise failure
            self.close_codes.append(ws.close_code)
            self._connected.clear()
            if self._closed:
                return
            if not self.reconnect:
                self._fail_pending("client/disconnected", f"connection closed ({ws.close_code})")
                self._closed = True
                self._changed.set()
                return
            await self._reconnect()

    async def _reconnect(self) -> None:
        deadline = time.monotonic() + self.reconnect_timeout
        delay = 0.02
        for _msg, lost in [v for v in self._pending.values() if v[0]["type"] not in _RESENDABLE]:
            if not lost.done():
                lost.set_exception(ServerError("client/disconnected", "connection lost before the reply"))
        self._pending = {r: v for r, v in self._pending.items() if not v[1].done()}
        while True:
            try:
                await self._open()
                break
            except (OSError, InvalidHandshake, asyncio.TimeoutError) as exc:
                if time.monotonic() > deadline:
                    self._fail_pending("client/disconnected", f"could not reconnect: {exc}")
                    self._closed = True
                    self._changed.set()
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
        self.reconnects += 1
        assert self._ws is not None
        if self.token is not None:
            ref = f"r{next(self._refs)}"
            fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            fut.add_done_callback(self._note_resubscribe)
            msg = {"type": "subscribe", "ref": ref, "token": self.token, "after": self.last_seq, "live": self._live}
            if self.chain:
                msg["chain"] = True
            if self._describe:
                msg["describe"] = True
            self._pending[ref] = (msg, fut)
            await self._ws.send(json.dumps(msg))
        for ref, (msg, fut) in list(self._pending.items()):
            if msg["type"] != "subscribe" and not fut.done():
                await self._ws.send(json.dumps(msg))

    def _note_resubscribe(self, fut: "asyncio.Future[dict[str, Any]]") -> None:
        """Nobody awaits the automatic resubscribe: keep its refusal in ``errors``."""
        if not fut.cancelled() and isinstance(fut.exception(), ServerError):
            error = fut.exception()
            assert isinstance(error, ServerError)
            self.errors.append(error)

    def _fail_pending(self, code: str, message: str) -> None:
        for _msg, fut in self._pending.values():
            if not fut.done():
                fut.set_exception(ServerError(code, message))
        self._pending.clear()

    def _take_text(self, text: str) -> bool:
        """Handle a pushed message as soon as the connection parsed it, if :meth:`_read_loop` is idle
        (else ``False``: ``recv`` brings it, behind the ones before it).

        Why (issue 16, the clients' latency): through ``recv`` each message went through the library's
        assembler and waited for the reader task's next turn of the event loop; a process following
        several seats handled the last seat's push after all those turns. :meth:`_dispatch` is
        synchronous, so it runs here, in the connection's ``data_received``. What it raises must not
        reach the transport (which would close the connection and log a fatal error): it is kept, no
        message is taken after it, and the reader is cancelled to raise it (:meth:`_read_loop`).
        """
        if not self._idle:
            return False
        try:
            self._dispatch(_loads(text))
        except (Exception, asyncio.CancelledError) as exc:  # on_event's too: never the transport's to see
            self._idle = False
            self._failure = exc
            assert self._reader is not None  # it set this connection's take_text
            self._reader.cancel()
        return True

    def _left_to_recv(self) -> None:
        self._idle = False

    def _dispatch(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        now = time.perf_counter()
        if self.received is not None:
            self.received.append(m)
        if kind == "event":
            view = self._patched(m)
            self._accept(PushedEvent(m["seq"], self._full_record(m), m["explanation"], view, now))
        elif kind == "events":
            for item in m["items"]:
                self._accept(PushedEvent(item["seq"], item["event"], item["explanation"], None, now))
            held = self._subscribed_held
            if held is not None and (m.get("last") or self.last_seq >= held[0]["last_seq"]):
                # The catch-up the reply announced is in: subscribe() returns now (docs/protocol.md: subscribed,
                # then events), with every event up to last_seq taken, as when the catch-up came first.
                self._subscribed_held = None
                subscribed, fut = held
                if not fut.done():
                    fut.set_result(subscribed)
        elif kind == "welcome":
            self.welcome = m
            if m.get("protocol") != PROTOCOL:  # its view hashes would not match: every push would resync
                self.errors.append(ServerError("client/protocol", f"this client speaks protocol {PROTOCOL} and "
                                               f"the server {m.get('protocol')}: upgrade the client"))
        elif kind == "subscribed":
            self.seat = m["seat"]
            self.fight_id = m["fight_id"]
            if m["last_seq"] == self.last_seq:  # no catch-up follows: the next live push continues this hash
                self._check_link(self.last_seq, m["last_hash"])
                self.last_hash = m["last_hash"]
            self._take_view(m["last_seq"], m["state"])
            self.description = m.get("description")
            self.tools = list(m.get("tools", []))
        elif kind == "full_view":
            self._take_view(m["seq"], m["state"])
        elif kind == "description":
            self.description = m["description"]
        if kind == "error" and "ref" not in m:
            self.errors.append(ServerError(m["code"], m["message"], m.get("details")))
        ref = m.get("ref")
        if ref is not None and ref in self._pending:
            _msg, fut = self._pending.pop(ref)
            if kind == "subscribed" and m["last_seq"] > self.last_seq:
                self._subscribed_held = (m, fut)  # answered once its catch-up is in (above)
            elif not fut.done():
                if kind == "error":
                    fut.set_exception(ServerError(m["code"], m["message"], m.get("details")))
                else:
                    fut.set_result(m)
        self._changed.set()

    def _verify(self, record: Mapping[str, Any]) -> None:
        """Raise :class:`ChainError` unless ``record`` continues the chain this client holds.

        Every seat checks the links (each ``prev_hash`` is the hash before it). Only the GM's seat
        checks each record's own hash: another seat may be sent a record redacted for a hidden sheet
        (docs/protocol.md, "What each seat sees"), which keeps the stored record's hash.
        """
        if self.last_seq and self.last_hash and record["prev_hash"] != self.last_hash:
            raise ChainError(f"event {record['seq']}: prev_hash is not the hash of event {self.last_seq}")
        if (self.seat or {}).get("role") != "gm":
            return
        body = {k: record[k] for k in ("fight_id", "seq", "type", "payload", "actor", "command_id", "recorded_at",
                                       "ruleset_version")}
        if chain_hash(str(record["prev_hash"]), body) != record["hash"]:
            raise ChainError(f"event {record['seq']}: its hash is not the hash of its record")

    def _check_link(self, seq: int, digest: str) -> None:
        """A ``subscribed`` at the seq this client holds names the same last event (``verify_chain``)."""
        if self.verify_chain and seq and self.events and self.events[-1].seq == seq and digest != self.last_hash:
            raise ChainError(f"event {seq}: the server's hash differs from the one this client holds")

    def _full_record(self, m: Mapping[str, Any]) -> dict[str, Any]:
        """The record of a live push with what the push leaves out put back: ``fight_id`` of the
        subscription, ``seq`` of the push, ``ruleset_version`` of the view and, with :attr:`chain`,
        ``prev_hash``, the previous event's ``hash``: then it is the stored record, as ``replay``
        reads it. Without :attr:`chain` the push has no ``command_id``, ``recorded_at`` or ``hash``
        (protocol 4), nor has the record (docs/protocol.md, "The pushed record")."""
        slim = m["event"]
        version = (self.state or {}).get("ruleset_version", "")
        if "hash" not in slim:
            return {"fight_id": self.fight_id, "seq": m["seq"], "type": slim["type"], "payload": slim["payload"],
                    "actor": slim["actor"], "ruleset_version": version}
        return {"fight_id": self.fight_id, "seq": m["seq"], "type": slim["type"], "payload": slim["payload"],
                "actor": slim["actor"], "command_id": slim["command_id"], "recorded_at": slim["recorded_at"],
                "ruleset_version": version, "prev_hash": self.last_hash if m["seq"] == self.last_seq + 1 else "",
                "hash": slim["hash"]}

    def _patched(self, m: Mapping[str, Any]) -> dict[str, Any] | None:
        """Apply a push's patch to :attr:`state`; on a mismatch with its ``view_hash`` (or a patch that
        does not fit) ask for the full view and keep none until it comes (docs/protocol.md)."""
        seq = int(m["seq"])
        if self.view_stale or self.state is None or seq != self.state_seq + 1:
            return None  # a full view is on its way (or this push is one the held view already has)
        view: dict[str, Any]
        try:
            # The patch applied and the view's seq set to the push's (no patch op carries it, protocol 3), with the
            # copy's view_hash (None: not an object), made along the patch's paths (ViewPatcher, issue 16).
            view, digest = self._views.patch(self.state, m["patch"], seq)
            ok = digest is not None and digest == m["view_hash"]
        except (PatchError, TypeError, ValueError):
            ok = False
        if not ok:
            self.view_stale = True
            self.resyncs += 1
            self._ask_for_view()
            return None
        self.state, self.state_seq = view, seq
        return view

    def _take_view(self, seq: int, view: dict[str, Any]) -> None:
        """A full view (``subscribed``, ``full_view``): the base of the following patches."""
        if self.state is None or self.view_stale or seq >= self.state_seq:
            self.state, self.state_seq, self.view_stale = view, seq, False

    def _ask_for_view(self) -> None:
        if self._ws is None or not self._connected.is_set():
            return  # the resubscribe after the reconnect brings a full view

        async def ask() -> None:
            try:
                await self.request({"type": "view"})
            except (ServerError, asyncio.TimeoutError, ConnectionClosed):
                pass  # the next mismatch or reconnect asks again

        task = asyncio.get_running_loop().create_task(ask())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _accept(self, pushed: PushedEvent) -> None:
        if pushed.seq <= self.last_seq:
            return  # already seen (a resent catch-up); never delivered twice
        if pushed.seq != self.last_seq + 1:
            raise GapError(f"expected seq {self.last_seq + 1}, got {pushed.seq}")
        if self.verify_chain:
            self._verify(pushed.event)
        self.last_seq = pushed.seq
        self.last_hash = str(pushed.event.get("hash", ""))
        self.events.append(pushed)
        self._queue.put_nowait(pushed)
        if self.on_event is not None:
            self.on_event(pushed)

    # ------------------------------------------------------------------ requests

    async def request(self, message: Mapping[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        """Send one message and wait for its reply (an ``error`` reply raises :class:`ServerError`)."""
        if self._closed:
            raise ServerError("client/closed", "the client is closed")
        ref = f"r{next(self._refs)}"
        msg = {**message, "ref": ref}
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[ref] = (msg, fut)
        if self._connected.is_set() and self._ws is not None:
            try:
                await self._ws.send(json.dumps(msg))
            except ConnectionClosed:
                pass  # resent after the reconnect
        # A timer that fails the reply's future, rather than ``asyncio.wait_for`` (a task, a second future and
        # callbacks per request: about 4% of the latency bench client's Python samples, issue 16); the same TimeoutError.
        timer = asyncio.get_running_loop().call_later(timeout, _time_out, fut)
        try:
            return await fut
        finally:
            timer.cancel()
            self._pending.pop(ref, None)

    async def send_raw(self, data: str | bytes) -> None:
        """Send anything (tests of bad input)."""
        assert self._ws is not None
        await self._ws.send(data)

    async def create_fight(self, ruleset: str | None = None, *, options: Mapping[str, Any] | None = None,
                           dice_mode: str = "server", title: str = "", seed: str | None = None,
                           server_key: str | None = None) -> dict[str, Any]:
        """Create a fight; the reply carries ``fight_id``, the GM ``token`` and ``link``.

        ``ruleset``: ``None`` lets the server choose (its only ruleset; docs/protocol.md)."""
        msg: dict[str, Any] = {"type": "create_fight", "dice_mode": dice_mode, "title": title}
        if ruleset is not None:
            msg["ruleset"] = ruleset
        if options:
            msg["options"] = dict(options)
        if seed is not None:
            msg["seed"] = seed
        if server_key is not None:
            msg["server_key"] = server_key
        return await self.request(msg)

    async def subscribe(self, token: str, after: int | None = None, live: bool = True,
                        describe: bool = False) -> dict[str, Any]:
        """Join the fight of ``token``; events after ``after`` (default: the last seen) then follow.
        ``describe``: also keep :attr:`description` up to date (docs/protocol.md, Descriptions)."""
        self.token = token
        self._live = live
        self._describe = describe
        since = self.last_seq if after is None else after
        if after is not None and after != self.last_seq:
            self.last_seq = after
            self.events = [e for e in self.events if e.seq <= after]
            # The hash the next event continues, if this client holds the event at ``after`` ("": unknown).
            held = self.events[-1] if self.events and self.events[-1].seq == after else None
            self.last_hash = str(held.event.get("hash", "")) if held is not None else ""
        return await self.request({"type": "subscribe", "token": token, "after": since, "live": live,
                                   **({"describe": True} if describe else {}), **({"chain": True} if self.chain else {})})

    async def command(self, command: str, args: Mapping[str, Any] | None = None, *,
                      faces: Sequence[Sequence[int]] | None = None, command_id: str | None = None,
                      expect_seq: int | None = None, timeout: float = 30.0) -> dict[str, Any]:
        """Send a command; returns the ``result`` (its seq range), raises :class:`ServerError` if refused."""
        msg: dict[str, Any] = {"type": "command", "command_id": command_id or self.new_command_id(),
                               "command": command, "args": dict(args or {})}
        if faces is not None:
            msg["faces"] = [list(f) for f in faces]
        if expect_seq is not None:
            msg["expect_seq"] = expect_seq
        return await self.request(msg, timeout)

    async def import_character(self, path: str | Path, *, combatant: str | None = None, id: str | None = None,
                               side: str | None = None, hidden: bool | None = None) -> dict[str, Any]:
        """Import a GURPS Character Sheet file (``.gcs``) as a new combatant, or over ``combatant``
        (its HP, FP and conditions stay); returns the ``result``. The server reads the file (#13)."""
        p = Path(path)
        try:
            content = p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise ServerError("import/not_json", f"{p.name} is not a GCS character file (not UTF-8 text)") from None
        args: dict[str, Any] = {"file_name": p.name, "content": content}
        for key, value in (("combatant", combatant), ("id", id), ("side", side), ("hidden", hidden)):
            if value is not None:
                args[key] = value
        return await self.command("import_character", args)

    async def preview(self, command: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """What ``command`` would roll against (effective number, modifiers with rule ids); nothing is sent to the log."""
        return await self.request({"type": "preview", "command": command, "args": dict(args or {})})

    async def calculate(self, tool: str, inputs: Mapping[str, Any] | None = None,
                        combatant: str | None = None) -> dict[str, Any]:
        """Run a GM tool read-only (#12): its steps with rule ids, result and summary; nothing is appended."""
        message: dict[str, Any] = {"type": "calculate", "tool": tool, "inputs": dict(inputs or {})}
        if combatant is not None:
            message["combatant"] = combatant
        return await self.request(message)

    async def add_seat(self, role: str, combatants: Sequence[str] = (), label: str = "") -> dict[str, Any]:
        return await self.request({"type": "add_seat", "role": role, "combatants": list(combatants), "label": label})

    async def list_seats(self) -> list[dict[str, Any]]:
        reply = await self.request({"type": "list_seats"})
        seats: list[dict[str, Any]] = reply["seats"]
        return seats

    async def state_at(self, seq: int) -> dict[str, Any]:
        reply = await self.request({"type": "state_at", "seq": seq})
        state: dict[str, Any] = reply["state"]
        return state

    async def replay(self, after: int = 0, upto: int | None = None) -> list[dict[str, Any]]:
        """The whole log (after, upto], read page by page (a reply holds at most 1,000 events)."""
        items: list[dict[str, Any]] = []
        async for page in self.replay_pages(after, upto):
            items.extend(page)
        return items

    async def replay_pages(self, after: int = 0, upto: int | None = None,
                           limit: int | None = None) -> AsyncIterator[list[dict[str, Any]]]:
        """The log (after, upto] one ``history`` page at a time, following ``more`` (docs/protocol.md)."""
        while True:
            msg: dict[str, Any] = {"type": "replay", "after": after}
            if upto is not None:
                msg["upto"] = upto
            if limit is not None:
                msg["limit"] = limit
            reply = await self.request(msg)
            page: list[dict[str, Any]] = reply["items"]
            yield page
            if not reply.get("more") or not page:
                return
            after, upto = int(page[-1]["seq"]), int(reply["upto"])

    # ------------------------------------------------------------------ waiting

    async def next_event(self, timeout: float = 10.0) -> PushedEvent:
        return await asyncio.wait_for(self._queue.get(), timeout)

    def drain(self) -> list[PushedEvent]:
        """The events received since the last ``next_event``/``drain``."""
        out = []
        while not self._queue.empty():
            out.append(self._queue.get_nowait())
        return out

    async def wait_until(self, predicate: Callable[["CombatClient"], bool], timeout: float = 10.0) -> None:
        async def loop() -> None:
            while not predicate(self):
                if self._closed:
                    raise ServerError("client/closed", "the client is closed")
                self._changed.clear()
                await self._changed.wait()
        await asyncio.wait_for(loop(), timeout)

    async def wait_for_seq(self, seq: int, timeout: float = 10.0) -> None:
        await self.wait_until(lambda c: c.last_seq >= seq, timeout)

    def prompts(self, kind: str | None = None, combatant: str | None = None) -> list[dict[str, Any]]:
        prompts: list[dict[str, Any]] = list((self.state or {}).get("prompts", []))
        return [p for p in prompts if (kind is None or p["kind"] == kind)
                and (combatant is None or p.get("combatant") == combatant)]

    async def wait_for_prompt(self, kind: str | None = None, combatant: str | None = None,
                              timeout: float = 10.0) -> dict[str, Any]:
        """Wait until the state holds a prompt of this kind (and for this combatant)."""
        await self.wait_until(lambda c: bool(c.prompts(kind, combatant)), timeout)
        return self.prompts(kind, combatant)[0]
