"""The live server: websockets on ``/ws``, the web client's static files on the
same port, many fights in one asyncio process.

The loop stays thin (STYLE.md principle 1): decode and validate a message, authorise it
against the connection's seat, hand it to the engine under the fight's lock, publish
what was appended, reply. Those steps are decided sans I/O by ``connection.Connection``
(issue 16); :class:`Session` performs its effects here. The engine is synchronous and
fast (about a millisecond per command on SQLite), so it is called directly on the loop
there: a thread hop would cost more than it saves. On PostgreSQL it runs in worker
threads (round trips release the GIL). Reads of the log that can be long (replay and
catch-up pages, ``state_at``) always run in read worker threads
(:meth:`CombatServer.read`). Fights are independent: one fight's lock never waits for
another's. Several processes can serve the same fights on one PostgreSQL database
(store/pg_listen.py).
"""

from __future__ import annotations

import asyncio
import functools
import uuid
import datetime as dt
import hashlib
import ipaddress
import mimetypes
import secrets
import time
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from http import HTTPStatus
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, Sequence, TypeVar

import attrs
import structlog
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State
from websockets.http11 import Request, Response

from combat_server.engine.fight import CommandResult, Engine
from combat_server.errors import Conflict, Rejected
from combat_server.logs import BoundPerConfiguration, enabled as log_enabled
from combat_server.receiving_text import STATE_IS_PLAIN
from combat_server.rules.model import GM_ACTOR, Event, FightState
from combat_server.server.connection import (
    AddSeat, Calculate, CatchUp, CommandRange, Connection, CreateFight, Disconnect, Evict, Execute, Forget, Granted,
    HistoryPage, Lock, Log, OpenHub, Policy, Preview, Refresh, ReplaceLink, SeatForToken, Seats, Send, StateAt, Steps,
    Unlock,
)
from combat_server.server.httpbody import HTTP_METHODS, method_not_allowed
from combat_server.server.hub import FightHub, Seat, Subscriber
from combat_server.server.protocol import (
    CLOSE_LINK_REPLACED, CLOSE_REASONS, CLOSE_SHUTDOWN, CLOSE_TOO_SLOW, ProtocolError, dumps,
)
from combat_server.server.receiving import ReceivingConnection, Started, start as start_coroutine, take_free_lock
from combat_server.store.pg_listen import PeerListener
from combat_server.store.sqlite_watch import SqliteWatcher, sqlite_file
from combat_server.store.recorder import SeatRow

WEB_DIR = Path(__file__).resolve().parents[1] / "web"
WS_PATH = "/ws"
#: Bytes buffered in a socket's transport before sends wait for it to drain.
WRITE_LIMIT = 32 * 1024
#: Worker threads for reads of the log (replay and catch-up pages, state_at); each read checks
#: out its own store connection (issue 15 item 2).
READ_WORKERS = 2
#: Worker threads for engine calls on PostgreSQL (issue 16): they mostly wait for the append's commit
#: (about 2 ms with its fsync here), so two were bound by that wait, and eight, or the six of asyncio's
#: default executor on two cores, cost more CPU per command (docs/benchmarks.md). Each fight's commands
#: still run one at a time (the hub's lock).
ENGINE_WORKERS = 4
#: A seq past any fight's end: :meth:`CombatServer.peer_appended` with it refreshes a watched fight from the store.
MAX_SEQ = 2 ** 63 - 1
#: Seconds a shutdown waits for clients to answer its close (1001) before it drops their connections.
SHUTDOWN_GRACE = 2.0

log = structlog.get_logger("combat_server.server")
#: ``log`` bound once per configuration, for the :class:`Log` effects (the ``info`` record of every command).
_effects_log = BoundPerConfiguration("combat_server.server")
T = TypeVar("T")
#: The open state, read once: an enum member looked up on its class costs more than the comparison.
_OPEN = State.OPEN


def text_frame(data: bytes) -> bytes:
    """A whole (FIN), unmasked websocket text frame of ``data``: what ``websockets`` writes for a
    server's ``send_text`` without extensions (RFC 6455 section 5.2), built once per pushed text
    and shared by every connection it goes to (issue 16, server CPU; :meth:`CombatServer.frame`)."""
    n = len(data)
    if n < 126:
        return bytes((0x81, n)) + data
    if n < 65536:
        return bytes((0x81, 126)) + n.to_bytes(2, "big") + data
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + data


@attrs.frozen
class ServerConfig:
    """Everything ``serve`` can be told; defaults are safe for a laptop."""

    host: str = "127.0.0.1"
    port: int = 8765
    #: ``open``: anyone who reaches the server may create fights; ``key``: only with ``server_key``.
    create_policy: str = "open"
    server_key: str | None = None
    #: Base of the links handed out with tokens (default: ``http://host:port``).
    public_url: str | None = None
    #: Messages waiting for one client before it counts as too slow (close 4008).
    queue_size: int = 512
    #: Characters of pushes and replies waiting for one client before it counts as too slow
    #: (close 4008; the catch-up after ``subscribe`` counts against ``queue_size`` only).
    queue_bytes: int = 16 * 1024 * 1024
    #: Token bucket per connection: sustained messages per second, and burst.
    rate: float = 200.0
    burst: int = 400
    #: Rate-limited messages (counted until a second passes without one) after which the
    #: connection is closed (4029).
    flood_close: int = 2000
    #: Messages longer than this get ``protocol/too_big``; past ``hard_max_message`` the socket closes (1009).
    max_message: int = 256 * 1024  # a GCS character file (up to ~100 kB) fits (#13)
    hard_max_message: int = 1024 * 1024
    web_dir: Path = WEB_DIR
    #: Fights whose hubs (subscribers, catch-up cache) are kept in memory.
    max_hubs: int = 4096
    #: On PostgreSQL, LISTEN for other server processes' appends and push them to this
    #: process's subscribers (several processes serving the same fights, store/pg_listen.py).
    listen_peers: bool = True
    #: permessage-deflate for clients that offer it (browsers do): about a fifth of the
    #: bytes on the wire, but each message is compressed per connection, which halves
    #: broadcast throughput; off by default (issue 4).
    compression: bool = False

    def __attrs_post_init__(self) -> None:
        if self.create_policy not in ("open", "key"):
            raise ValueError("create_policy must be 'open' or 'key'")
        if self.create_policy == "key" and not self.server_key:
            raise ValueError("create_policy 'key' needs a server key")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """192 random bits, URL-safe, and never starting with '-' (a token is typed after
    ``--token`` on command lines, where a leading dash reads as an option)."""
    return "t" + secrets.token_urlsafe(24)


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")


class CombatServer:
    """Serve many fights from one engine; ``async with CombatServer(...) as s: ...``."""

    def __init__(self, engine: Engine, config: ServerConfig = ServerConfig()) -> None:
        self.engine = engine
        self.engine_in_threads = engine.store.dialect == "postgresql"
        self.config = config
        self._hubs: OrderedDict[str, FightHub] = OrderedDict()
        self._seats: dict[str, Seat] = {}  # token hash -> seat
        self._server: Server | None = None
        self.sessions: set[Session] = set()
        #: Connections closed since start (the GC policy counts them: each leaves a reference cycle).
        self.connections_closed = 0
        self.peers: PeerListener | None = None
        #: On a SQLite file: what sees the command line's writes (store/sqlite_watch.py).
        self.watcher: SqliteWatcher | None = None
        self._refreshing: dict[str, int] = {}  # fight -> highest notified seq of its queued peer refresh
        self._peer_tasks: set[asyncio.Task[None]] = set()
        self._peers_task: asyncio.Task[None] | None = None
        self._reader: ThreadPoolExecutor | None = None
        self._engine_workers: ThreadPoolExecutor | None = None
        #: The last text framed (:meth:`frame`) and its frame: a push goes to every seat that sees it alike.
        self._framed: tuple[str, bytes] = ("", text_frame(b""))
        #: Connections with frames handed to their protocol this turn of the loop (:meth:`_flush_all`).
        self._unflushed: list[Session] = []
        #: A :meth:`_flush_all` is scheduled (``call_soon``) for the connections in ``_unflushed``.
        self._flush_scheduled = False
        #: A connection's read is being handled (:meth:`read_done` decides when its frames are written).
        self.reading = False
        #: The loop the server runs on, and its queue of ready callbacks when it is asyncio's own
        #: (``None`` on another loop, uvloop: then frames are always written in a turn of their own).
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready: deque[Any] | None = None

    # ------------------------------------------------------------------ outgoing

    def frame(self, text: str) -> bytes:
        """``text`` as a websocket text frame, encoded once for every connection it is delivered to in a row.

        The hub hands the same string object to every subscriber that sees the same push (issue 16):
        the UTF-8 encode and the framing were done once per connection. Keyed by identity: the
        cached text is held, so its identity cannot be reused while cached.
        """
        framed = self._framed
        if framed[0] is not text:
            framed = self._framed = (text, text_frame(text.encode("utf-8")))
        return framed[1]

    def _schedule_flush(self) -> None:
        """Have the frames of the connections in ``_unflushed`` written at the end of this turn of the loop:
        one callback per turn for every connection (a command's push goes to every watcher in the same
        turn), not one each. :meth:`Session.deliver` adds a connection to ``_unflushed`` and calls this
        unless a callback is scheduled already or a read is being handled (:attr:`reading`: then
        :meth:`read_done` decides).

        Also for a message handled as it was parsed (:meth:`Session.take_text`): writing its frames at
        once, before the other connections ready in the same turn were read, cost 5-10% more CPU per
        command at 16 busy fights (each reply woke the client alone, docs/benchmarks.md); :meth:`read_done`
        writes them at once only when nothing else is ready in the turn."""
        self._flush_scheduled = True
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        loop.call_soon(self._flush_all)

    def read_done(self) -> None:
        """A connection's read was handled (``ReceivingConnection.data_received``): write the frames it
        caused now if nothing else is ready to run in this turn of the loop, else at its end.

        Why (issue 16, server CPU): a turn of its own for the writes (``call_soon``) cost every command
        a second pass of the loop (``_run_once``, an ``epoll_wait`` syscall). When asyncio's queue of
        ready callbacks is empty, that turn would run the flush before anything else (what the next
        poll finds is queued after it), so writing now does the same writes, in the same order,
        without it. Reads of other connections still pending in this turn keep the writes of the
        whole turn together (their callbacks are in the queue)."""
        self.reading = False
        if self._unflushed and not self._flush_scheduled:
            ready = self._ready
            if ready is not None and not ready:
                self._flush_all()  # a connection's failed write is reported there, the read not failed for it
            else:
                self._schedule_flush()

    def _flush_all(self) -> None:
        """Write the frames each connection was handed during this turn of the loop in one transport write.

        Why: on loopback a socket ``send`` costs the sender the receiver's side of TCP too, and
        was the largest part of a command's server CPU (issue 16, docs/benchmarks.md); a command's
        events and its ``result`` to the commanding client (and all the events of a many-event
        command to every subscriber) now cost one ``send`` per connection instead of one per
        message. Order is kept: the protocol keeps frames in order, and a ``ws.send`` or close by the
        library in between writes them out first (then there is nothing left here). Each connection's
        part is written out here, not in a call of its own (issue 16: once per watcher per command).
        A connection whose write fails is reported to the loop's exception handler and the others are
        still written: each is taken off the list before its write, so none is left waiting for a flush
        that no longer comes.
        """
        self._flush_scheduled = False
        sessions, self._unflushed = self._unflushed, []
        for session in sessions:
            session._flush_soon = False
            session._unflushed = 0
            ws = session.ws
            try:
                chunks = ws.protocol.data_to_send()
                data = b"".join(chunks)
                if data:
                    ws.transport.write(data)
                if b"" in chunks:
                    session._end_stream()
            except Exception as exc:  # this connection's failure, not the others' (a write after its end)
                loop = self._loop or asyncio.get_running_loop()
                loop.call_exception_handler({"message": "a connection's write failed", "exception": exc})

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        self._loop = loop = asyncio.get_running_loop()
        ready = getattr(loop, "_ready", None)
        self._ready = ready if isinstance(loop, asyncio.BaseEventLoop) and type(ready) is deque else None
        self._server = await serve(
            self._handle, self.config.host, self.config.port,
            process_request=self._http, create_connection=ReceivingConnection, compression="deflate" if self.config.compression else None,
            max_size=self.config.hard_max_message, max_queue=16, write_limit=WRITE_LIMIT,
            ping_interval=20, ping_timeout=20, close_timeout=5,
        )
        if self.engine.store.dialect == "postgresql" and self.config.listen_peers:
            self.peers = PeerListener.for_store(self.engine.store, self.peer_appended, self.resync_peers)
            self._peers_task = asyncio.get_running_loop().create_task(self.peers.run())
        elif self.config.listen_peers and (path := sqlite_file(self.engine.store.url)) is not None:
            # The command line beside this server (links, import-character) writes to the same file.
            self.watcher = SqliteWatcher(path, self._held_fights, self.peer_appended)
            self._peers_task = asyncio.get_running_loop().create_task(self.watcher.run())

    @property
    def port(self) -> int:
        assert self._server is not None, "start() first"
        for sock in self._server.sockets:
            return int(sock.getsockname()[1])
        raise RuntimeError("server has no socket")

    @property
    def base_url(self) -> str:
        if self.config.public_url:
            return self.config.public_url.rstrip("/")
        host = self.config.host if ":" not in self.config.host else f"[{self.config.host}]"
        return f"http://{host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return self.base_url.replace("http", "ws", 1) + WS_PATH

    def link(self, token: str) -> str:
        return f"{self.base_url}/#token={token}"

    async def close(self) -> None:
        if self._server is None:
            return
        for task in [t for t in (self._peers_task, *self._peer_tasks) if t is not None]:
            task.cancel()
            try:
                await task
            except BaseException as exc:  # cancelled, or it had already failed: shut down anyway
                if not isinstance(exc, asyncio.CancelledError):
                    log.warning("peer_task_failed", error=f"{type(exc).__name__}: {exc}")
        self._peers_task = None
        await self._close_sessions()
        self._server.close(close_connections=False)
        await self._server.wait_closed()
        self._server = None
        for workers in (self._reader, self._engine_workers):
            if workers is not None:
                workers.shutdown(wait=False, cancel_futures=True)
        self._reader = self._engine_workers = None

    async def _close_sessions(self) -> None:
        """Stop listening, close every connection at once (1001), and drop those that have not
        answered after :data:`SHUTDOWN_GRACE`: a client that never reads cannot hold the
        shutdown (one by one, ten such clients took 44 s, #15 item 7)."""
        assert self._server is not None
        self._server.server.close()  # no new connections from here on
        sessions = list(self.sessions)
        if not sessions:
            return
        loop = asyncio.get_running_loop()
        closing = [loop.create_task(session.close(CLOSE_SHUTDOWN)) for session in sessions]
        _, late = await asyncio.wait(closing, timeout=SHUTDOWN_GRACE)
        for session in sessions:
            if session.ws.protocol.state is not State.CLOSED:
                session.ws.transport.abort()
        for task in late:
            task.cancel()
        await asyncio.gather(*closing, return_exceptions=True)
        if late:
            log.info("shutdown_dropped", connections=len(late))

    async def __aenter__(self) -> "CombatServer":
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def serve_forever(self) -> None:
        assert self._server is not None
        await self._server.serve_forever()

    # ------------------------------------------------------------------ other server processes

    def peer_appended(self, fight_id: str, seq: int) -> None:
        """Another process (or this one) appended up to ``seq``: push what this process has not.

        Called for every notification, so it never waits: our own appends were
        usually pushed already (one comparison), a fight nobody watches here only
        drops its cached state, and a watched one gets at most one queued refresh
        (it reads up to the end of the log, so later notifications fold into it).
        """
        hub = self._hubs.get(fight_id)
        if hub is None or not hub.subscribers:
            cached = self.engine.cached_seq(fight_id)
            if cached is not None and cached < seq:
                self.engine.forget(fight_id)  # the next command or subscriber loads the fresh log
            return
        if seq <= hub.synced_seq:
            return
        queued = self._refreshing.get(fight_id)
        self._refreshing[fight_id] = max(seq, queued or 0)
        if queued is None:
            task = asyncio.get_running_loop().create_task(self._peer_refresh(hub))
            self._peer_tasks.add(task)
            task.add_done_callback(self._peer_tasks.discard)

    def _held_fights(self) -> set[str]:
        """The fights whose state this process holds: watched (a hub with subscribers) or cached."""
        return {fid for fid, hub in self._hubs.items() if hub.subscribers} | set(self.engine.cached_fights())

    def _revoked(self, fight_id: str, subscribers: Sequence[Subscriber]) -> None:
        """Close the connections whose link another process or ``combat-server links`` revoked (4003): the
        old link joins nowhere any more, and its open connections must not go on acting for the seat.

        Only those opened with a token that is no longer the seat's: a page opened with the new link in the
        moment before this process saw the change keeps going (a black-box pass saw it closed). One read of
        the fight's seats, made only when links were replaced."""
        current = {row.seat_id: row.token_hash for row in self.engine.store.seats(fight_id)}
        for sub in subscribers:
            seat = sub.seat
            if isinstance(sub, Session) and seat is not None and current.get(seat.seat_id) != sub.joined_with:
                log.info("link_revoked_elsewhere", fight_id=fight_id, seat=seat.seat_id)
                sub.revoke()

    async def _peer_refresh(self, hub: FightHub) -> None:
        try:
            async with hub.lock:
                # From here on a notification queues another refresh; ours covers up to ``seq``.
                seq = self._refreshing.pop(hub.fight_id, 0)
                if seq > hub.synced_seq:  # not our own append, pushed while we waited for the lock
                    await self._refresh(hub)
        except Exception:  # a database hiccup: the next notification or resync tries again
            log.exception("peer_refresh_failed", fight_id=hub.fight_id)

    async def resync_peers(self) -> None:
        """After notifications may have been lost: bring every watched fight up to the store,
        and drop the cached state of the others (they reload on their next use)."""
        for fight_id in self.engine.cached_fights():
            hub = self._hubs.get(fight_id)
            if hub is None or not hub.subscribers:
                self.engine.forget(fight_id)
        for hub in list(self._hubs.values()):
            if hub.subscribers:
                async with hub.lock:
                    await self._refresh(hub)

    async def _refresh(self, hub: FightHub) -> None:
        """Reload the fight from the store and push what the subscribers have not seen (lock held)."""
        def fetch() -> tuple[FightState, list[Event]]:
            state = self.engine.refresh(hub.fight_id)
            tail = self.engine.store.events(hub.fight_id, after=hub.synced_seq, upto=state.seq) \
                if state.seq > hub.synced_seq and hub.subscribers else []
            return state, tail

        state, tail = await self.call_engine(fetch)
        hub.catch_up(state, tail)

    async def call_engine(self, fn: Callable[..., T], *args: Any) -> T:
        """Run an engine call: in an engine worker thread on PostgreSQL (round trips release the GIL),
        directly on the loop on SQLite (a thread hop would cost more than the call)."""
        if not self.engine_in_threads:
            return fn(*args)
        if self._engine_workers is None:
            self._engine_workers = ThreadPoolExecutor(ENGINE_WORKERS, thread_name_prefix="combat-engine")
        return await asyncio.get_running_loop().run_in_executor(self._engine_workers, functools.partial(fn, *args))

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a read of the log (a replay or catch-up page, ``state_at``) in a read worker thread.

        Why not on the loop, even on SQLite: such a read folds from the nearest
        snapshot and explains a page, tens of milliseconds, and on a long fight
        it used to take seconds while every other fight waited (issue 15 item 2).
        The worker checks out its own connection from the store's pool (SQLite in
        WAL mode: readers never block the writer); the few workers bound how many
        connections and how much of the GIL reads can take from the loop.
        """
        if self._reader is None:
            self._reader = ThreadPoolExecutor(READ_WORKERS, thread_name_prefix="combat-read")
        return await asyncio.get_running_loop().run_in_executor(self._reader, functools.partial(fn, *args))

    # ------------------------------------------------------------------ fights and seats

    def hub(self, fight_id: str) -> FightHub:
        hub = self._hubs.get(fight_id)
        if hub is None:
            self.engine.load(fight_id)  # raises fight/unknown
            hub = self._hubs[fight_id] = FightHub(self.engine, fight_id, on_revoked=self._revoked)
            while len(self._hubs) > self.config.max_hubs:
                for fid, old in self._hubs.items():
                    if not old.subscribers and not old.lock.locked():
                        del self._hubs[fid]
                        break
                else:
                    break
        self._hubs.move_to_end(fight_id)
        return hub

    def seat_for_token(self, token: str) -> Seat:
        """The seat a link's token opens, read from the store at every subscribe.

        Why not from the cache: `combat-server links` (another process) or a peer server on
        PostgreSQL may have replaced the token since; a leaked link must join no more at once
        (#13). One indexed read per subscribe.
        """
        digest = token_hash(token)
        row = self.engine.store.seat_by_token_hash(digest)
        if row is None:
            self._seats.pop(digest, None)
            raise ProtocolError("auth/bad_token")
        seat = Seat(row.fight_id, row.seat_id, row.role, row.label, tuple(row.combatants))
        self._seats[digest] = seat
        return seat

    def forget_seat(self, fight_id: str, seat_id: str) -> None:
        """Drop a seat's cached token (its token was replaced): the old link joins no more."""
        for digest in [d for d, s in self._seats.items() if s.fight_id == fight_id and s.seat_id == seat_id]:
            del self._seats[digest]

    def add_seat(self, fight_id: str, role: str, label: str, combatants: tuple[str, ...], seat_id: str = "") -> tuple[Seat, str]:
        """Store a new seat (only its token's hash); returns it with the token, shown once."""
        if not seat_id:
            taken = {s.seat_id for s in self.engine.store.seats(fight_id)}
            n = 1
            while f"{role}-{n}" in taken:
                n += 1
            seat_id = f"{role}-{n}"
        token = new_token()
        digest = token_hash(token)
        self.engine.store.add_seat(SeatRow(fight_id, seat_id, role, label, combatants, digest), _now())
        seat = Seat(fight_id, seat_id, role, label, combatants)
        self._seats[digest] = seat
        return seat, token

    def create_fight(self, *, ruleset: str, version: str | None = None,
                     options: Mapping[str, Any] | None = None, dice_mode: str = "server", title: str = "",
                     seed: str | None = None) -> tuple[str, Seat, str]:
        fight_id = uuid.uuid4().hex[:16]
        token = new_token()
        digest = token_hash(token)
        # The fight and its GM seat are written in one transaction.
        self.engine.create_fight(ruleset, options=options, dice_mode=dice_mode, title=title, seed=seed,
                                 actor=GM_ACTOR, version=version, fight_id=fight_id,
                                 seats=[SeatRow(fight_id, "gm", "gm", "GM", (), digest)])
        seat = Seat(fight_id, "gm", "gm", "GM", ())
        self._seats[digest] = seat
        return fight_id, seat, token

    # ------------------------------------------------------------------ HTTP

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        response = self._http_response(connection, request)
        if response is not None and request.method == "HEAD":
            response.body = b""  # the headers (Content-Length included) as for GET, no body
        return response

    def _http_response(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.method not in HTTP_METHODS or (request.method != "GET" and "Upgrade" in request.headers):
            return method_not_allowed(connection.protocol)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            if request.path.split("?", 1)[0] == WS_PATH:
                return None
            return connection.respond(HTTPStatus.NOT_FOUND, "websocket endpoint is /ws\n")
        path = request.path.split("?", 1)[0].split("#", 1)[0]
        if path == WS_PATH:  # a browser or curl opened the endpoint itself: say what it is (RFC 7231 6.5.15)
            response = connection.respond(HTTPStatus.UPGRADE_REQUIRED,
                                          f"{WS_PATH} is the websocket endpoint: connect with a websocket client "
                                          "(docs/protocol.md); the web client is at /\n")
            response.headers["Upgrade"] = "websocket"
            return response
        if path == "/healthz":
            return connection.respond(HTTPStatus.OK, "ok\n")
        if path.endswith("/"):
            path += "index.html"
        root = self.config.web_dir.resolve()
        try:
            target = (root / path.lstrip("/")).resolve()
        except (OSError, ValueError):
            return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")
        if not target.is_relative_to(root) or not target.is_file():
            return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")
        body = target.read_bytes()
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if ctype.startswith("text/") or ctype in ("application/javascript", "application/json"):
            ctype += "; charset=utf-8"
        headers = Headers([("Content-Type", ctype), ("Content-Length", str(len(body))),
                           ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")])
        return Response(200, "OK", headers, body)

    # ------------------------------------------------------------------ websocket

    async def _handle(self, ws: ServerConnection) -> None:
        session = Session(self, ws)
        self.sessions.add(session)
        try:
            await session.run()
        finally:
            self.sessions.discard(session)
            self.connections_closed += 1


#: What :func:`_next_effect` returns when a request has no effect left.
_DONE = object()


def _next_effect(steps: Steps, value: Any, failure: BaseException | None) -> Any:
    """A request's next effect, given what its last one gave (or raised); :data:`_DONE` at its end.
    :meth:`Session.perform` (awaited effects) resumes requests with it; :meth:`Session._drive` writes the
    same lines inline, a call less per effect on the path of every command (issue 16)."""
    try:
        return steps.send(value) if failure is None else steps.throw(failure)
    except StopIteration:
        return _DONE


class Session:
    """One websocket connection's asyncio side: a bounded outgoing queue, the socket, and the
    effects of its :class:`~combat_server.server.connection.Connection` (the logic, sans I/O)
    performed on the loop. It is the fight hub's subscriber (``seat`` and ``chain``, set by the
    connection when it joins)."""

    def __init__(self, server: CombatServer, ws: ServerConnection) -> None:
        self.server = server
        self.ws = ws
        self.seat: Seat | None = None
        #: The hash of the token this connection joined with, and whether that link was replaced since: a
        #: replaced link's connection acts no more (auth/link_replaced) while its close is on the way.
        self.joined_with: str | None = None
        self.revoked = False
        #: Live pushes carry what checking the hash chain takes (``subscribe.chain``, protocol 4).
        self.chain = False
        #: Texts waiting for the writer, each with the characters it counts against ``queue_bytes``.
        self._queue: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue(maxsize=server.config.queue_size)
        self._queued = 0  # characters counted in the queue
        self._backlog = 0  # items in the queue (its qsize(), read on every delivery)
        protocol = ws.protocol
        #: Frames are built once per text and shared with other connections (:meth:`CombatServer.frame`);
        #: not with permessage-deflate (negotiated in the handshake, done by now) or the library's debug log.
        self._shares_frames = not (protocol.extensions or protocol.debug)
        cfg = server.config
        #: The requests, replies and limits of this connection, sans I/O (server/connection.py).
        self.connection = Connection(self, Policy(
            create_policy=cfg.create_policy, server_key=cfg.server_key, rate=cfg.rate, burst=cfg.burst,
            flood_close=cfg.flood_close, max_message=cfg.max_message, queue_size=cfg.queue_size,
            queue_bytes=cfg.queue_bytes, peers=server.peers is not None), time.monotonic, log_enabled)
        self._closing = False
        self._sending = False  # the writer task is inside ws.send (maybe waiting for the socket to drain)
        #: Live messages held back while a catch-up is read from the store (``None``: not holding).
        self._held: list[tuple[str, bool]] | None = None
        self._held_size = 0  # characters of the bounded messages in _held
        self._write_limit = WRITE_LIMIT
        #: Bytes of frames handed to the websocket protocol by the fast path and not yet written to the
        #: socket; they go out together, in one write, at the end of the loop's turn (:meth:`_flush`).
        self._unflushed = 0
        self._flush_soon = False
        #: :meth:`run` waits in ``recv`` with nothing queued there: a message may be handled as it is parsed.
        self._idle = False
        #: The rest of a message handled as it was parsed, which had to wait (:meth:`take_text`).
        self._continuing: asyncio.Task[None] | None = None
        #: How each effect is performed: the plain ones at once, the awaited ones in ``_awaited``.
        self._plain: dict[type, Callable[[Any], Any]] = {
            Send: self._send, Disconnect: self._disconnect, Log: self._log, Forget: self._forget,
            Evict: self._evict, Unlock: self._unlock, CreateFight: self._create_fight,
            SeatForToken: self._seat_for_token, OpenHub: self._open_hub, CommandRange: self._command_range,
            AddSeat: self._add_seat, Seats: self._seats, ReplaceLink: self._replace_link,
            Preview: self._preview, Calculate: self._calculate,
        }
        self._awaited: dict[type, Callable[[Any], Awaitable[Any]]] = {
            Lock: self._lock, Refresh: self._refresh, Execute: self._execute, CatchUp: self._catch_up,
            StateAt: self._state_at, HistoryPage: self._history_page,
        }
        if not server.engine_in_threads:  # SQLite: the engine runs on the loop, a command never waits
            self._plain[Execute] = self._execute_here

    @property
    def hub(self) -> FightHub | None:
        """The fight this connection joined (``None`` before ``subscribe``)."""
        return self.connection.hub

    # ------------------------------------------------------------------ outgoing

    def deliver(self, text: str, bounded: bool = True) -> bool:
        """Send or queue a message without waiting; ``False`` when the queue is full (too slow).

        The queue holds at most ``queue_size`` messages and, counting only ``bounded``
        ones, ``queue_bytes`` characters: pushed states can be large, so a count alone
        lets a client that stopped reading hold any amount of memory. The catch-up is
        not ``bounded`` (it is as long as the fight, and the count caps it).

        Fast path: when nothing is queued or being sent and the socket's write
        buffer is below the limit, the frame is written to the transport right
        here (no task switch per message; order is kept since nothing is ahead of
        it). Otherwise it goes to the bounded queue and the writer task, which
        waits for the socket to drain (the flow control that makes a slow client
        fill its queue and be dropped).

        Run once per message and connection, so the fast path is here, not in a call of its own, and
        its checks read plain attributes where they can (issue 16, server CPU): the writer's backlog as
        a count, the open state as a module constant, whether frames are shared as decided at the
        handshake.
        """
        if self._closing:
            return False
        if self._held is not None:  # a catch-up is still being read: live messages come after it
            if bounded:
                self._held_size += len(text)
            if len(self._held) >= self._queue.maxsize or self._held_size > self.server.config.queue_bytes:
                return False
            self._held.append((text, bounded))
            return True
        if not self._sending and not self._backlog:
            ws = self.ws
            protocol = ws.protocol
            if ((protocol._state if STATE_IS_PLAIN else protocol.state) is _OPEN
                    and ws.transport.get_write_buffer_size() + self._unflushed < self._write_limit):
                if self._shares_frames:
                    # What send_text would append, framed once for every connection this text goes to.
                    framed = self.server._framed
                    frame = framed[1] if framed[0] is text else self.server.frame(text)
                    protocol.writes.append(frame)
                    size = len(frame)
                else:  # compressed per connection (or logged): the library frames it
                    data = text.encode("utf-8")
                    protocol.send_text(data)
                    size = len(data)
                self._unflushed += size
                if not self._flush_soon:  # written at the end of the turn (CombatServer._schedule_flush)
                    self._flush_soon = True
                    server = self.server
                    server._unflushed.append(self)
                    if not server._flush_scheduled and not server.reading:
                        server._schedule_flush()
                return True
        size = len(text) if bounded else 0
        if size and self._queued + size > self.server.config.queue_bytes:
            return False
        try:
            self._queue.put_nowait((text, size))
        except asyncio.QueueFull:
            return False
        self._backlog += 1
        self._queued += size
        return True

    def hold_live(self) -> None:
        """Hold live messages until the catch-up read from the store is sent (:meth:`_catch_up`)."""
        self._held, self._held_size = [], 0

    def _deliver_now(self, text: str, bounded: bool = True) -> bool:
        """:meth:`deliver` past the live messages held back (a page of the catch-up they wait for)."""
        held, self._held = self._held, None
        try:
            return self.deliver(text, bounded)
        finally:
            self._held = held

    def _end_stream(self) -> None:
        """The protocol's frames ended with the end of the stream (:meth:`CombatServer._flush_all`): half-close
        (or close) the socket as ``ws.send_data`` does."""
        transport = self.ws.transport
        if transport.can_write_eof():
            try:
                transport.write_eof()
            except Exception:  # as websockets: write_eof documents no exceptions (uvloop raises RuntimeError)
                pass
        else:
            transport.close()

    def send(self, message: Mapping[str, Any]) -> None:
        if not self.deliver(dumps(message)):
            self.drop_too_slow()

    def drop_too_slow(self) -> None:
        if not self._closing:
            log.warning("client_too_slow", seat=self.seat.seat_id if self.seat else None,
                        fight_id=self.seat.fight_id if self.seat else None)
            asyncio.get_running_loop().create_task(self.close(CLOSE_TOO_SLOW))

    async def close(self, code: int) -> None:
        self._closing = True
        if self.hub is not None:
            self.hub.remove(self)
        try:
            self._queue.put_nowait(None)
        except asyncio.QueueFull:
            pass
        else:
            self._backlog += 1
        await self.ws.close(code, CLOSE_REASONS.get(code, ""))

    async def _writer(self) -> None:
        while True:
            item = await self._queue.get()
            self._backlog -= 1
            if item is None:
                return
            text, size = item
            self._queued -= size
            self._sending = True
            try:
                await self.ws.send(text)
            finally:
                self._sending = False

    # ------------------------------------------------------------------ incoming

    async def run(self) -> None:
        writer = asyncio.get_running_loop().create_task(self._writer())
        self.send(self.connection.welcome())
        ws = self.ws
        if isinstance(ws, ReceivingConnection):
            ws.take_text, ws.left_to_recv, ws.reads = self.take_text, self._left_to_recv, self.server
        try:
            while True:
                self._idle = True
                try:
                    raw = await ws.recv()
                finally:
                    self._idle = False
                if self._continuing is not None:
                    try:
                        await self._continuing  # the message before this one, handled as it was parsed, first
                    except Exception:  # reported, and the connection closed, by _continued_done
                        pass
                    self._continuing = None
                if self._closing:
                    continue  # keep reading so the closing handshake is seen (reading pauses when full)
                await self.perform(self.connection.receive(raw))
        except ConnectionClosed:
            pass
        finally:
            if isinstance(ws, ReceivingConnection):
                ws.take_text = ws.left_to_recv = ws.reads = None
            self._closing = True
            if self._continuing is not None:
                try:
                    await self._continuing
                except (Exception, asyncio.CancelledError):  # reported by _continued_done
                    pass
            if self.hub is not None:
                self.hub.remove(self)
            writer.cancel()
            try:
                await writer
            except (asyncio.CancelledError, ConnectionClosed):
                pass

    def take_text(self, raw: str) -> bool:
        """Handle a client message as soon as the connection parsed it, if :meth:`run` is idle (else
        ``False``: ``recv`` hands it to :meth:`run`, behind the ones before it).

        Why (issue 16, server CPU): through ``recv`` each message waited for a later turn of the
        event loop and passed the library's queue and assembler, and the frames it caused were
        written in a third turn (:meth:`CombatServer._schedule_flush`). Here its effects run at once
        until one has to wait (on SQLite a command never does): the rest then runs in a task, and
        later messages wait for it. The frames it caused are written at the end of this turn, with
        those of every other message read in it (:meth:`CombatServer._schedule_flush`).
        """
        if not self._idle or self._closing or (self._continuing is not None and not self._continuing.done()):
            return False
        try:
            self._drive(self.connection.receive(raw))
        except Exception as exc:
            self._handler_failed(exc)
        return True

    def _left_to_recv(self) -> None:
        self._idle = False

    def _drive(self, steps: Steps) -> None:
        """Perform ``steps`` here and now, each awaited effect started at once, until one has to wait:
        the rest is :meth:`_continued` in a task.

        The generator is resumed here, not through :func:`_next_effect` (the same three lines): one
        call less per effect, five per command (issue 16, server CPU). A free lock is taken without
        ``acquire()``'s coroutine (:func:`~combat_server.server.receiving.take_free_lock`, once per command)."""
        plain, awaited = self._plain, self._awaited
        value: Any = None
        failure: BaseException | None = None
        while True:
            try:
                effect = steps.send(value) if failure is None else steps.throw(failure)
            except StopIteration:
                return
            failure = None
            kind = type(effect)
            try:
                run = plain.get(kind)
                if run is not None:
                    value = run(effect)
                    continue
                if type(effect) is Lock and take_free_lock(effect.hub.lock):  # type(), which mypy narrows by
                    value = True  # what acquire() gives
                    continue
                done, value = start_coroutine(awaited[kind](effect))
            except BaseException as exc:  # the connection's to handle (a cancellation is re-raised by it)
                value, failure = None, exc
                continue
            if not done:
                self._continuing = asyncio.get_running_loop().create_task(self._continued(steps, value))
                self._continuing.add_done_callback(self._continued_done)
                return

    async def _continued(self, steps: Steps, rest: Started) -> None:
        try:
            value, failure = await rest, None
        except BaseException as exc:  # the connection's to handle
            value, failure = None, exc
        await self.perform(steps, value, failure)

    def _continued_done(self, task: "asyncio.Task[None]") -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self._handler_failed(exc)

    def _handler_failed(self, exc: BaseException) -> None:
        """A bug while a message was handled outside :meth:`run`: as websockets does for a handler that
        raised, log it and close the connection (1011)."""
        self.ws.logger.error("connection handler failed", exc_info=exc)
        self._closing = True
        asyncio.get_running_loop().create_task(self.close(1011))

    async def perform(self, steps: Steps, value: Any = None, failure: BaseException | None = None) -> None:
        """Perform a request's effects in order, sending each result (or throwing each failure) back in;
        ``value`` or ``failure``: what to send in first (a request :meth:`_drive` started)."""
        plain, awaited = self._plain, self._awaited
        while (effect := _next_effect(steps, value, failure)) is not _DONE:
            failure = None
            try:
                run = plain.get(type(effect))
                value = run(effect) if run is not None else await awaited[type(effect)](effect)
            except BaseException as exc:  # the connection's to handle (a cancellation is re-raised by it)
                value, failure = None, exc

    # ------------------------------------------------------------------ effects

    def _send(self, e: Send) -> None:
        """:meth:`send`, written out (a call less per request, issue 16)."""
        if not self.deliver(dumps(e.message)):
            self.drop_too_slow()

    def _disconnect(self, e: Disconnect) -> None:
        self._closing = True
        asyncio.get_running_loop().create_task(self.close(e.code))

    @staticmethod
    def _log(e: Log) -> None:
        bound = _effects_log.logger()  # what ``log`` would bind for this line (issue 16, server CPU)
        if e.exc is not None:
            getattr(bound, e.level)(e.event, exc_info=e.exc, **e.fields)
        else:
            getattr(bound, e.level)(e.event, **e.fields)

    def _forget(self, e: Forget) -> None:
        self.server.engine.forget(e.fight_id)

    @staticmethod
    def _evict(e: Evict) -> None:
        for sub in e.subscribers:
            if isinstance(sub, Session):
                sub.revoke(e.code)

    def revoke(self, code: int = CLOSE_LINK_REPLACED) -> None:
        """This connection's link was replaced: it acts no more from now on (a request already read from it is
        refused, auth/link_replaced), and it is closed with ``code``."""
        self.revoked = True
        asyncio.get_running_loop().create_task(self.close(code))

    @staticmethod
    def _lock(e: Lock) -> Awaitable[Any]:
        """The lock's own ``acquire``, not a coroutine awaiting it: one coroutine less to start per request
        (issue 16, server CPU). What it gives (``True``) is not used."""
        return e.hub.lock.acquire()

    @staticmethod
    def _unlock(e: Unlock) -> None:
        e.hub.lock.release()

    async def _refresh(self, e: Refresh) -> None:
        await self.server._refresh(e.hub)

    def _create_fight(self, e: CreateFight) -> Granted:
        _, seat, token = self.server.create_fight(ruleset=e.ruleset, version=e.version, options=e.options,
                                                  dice_mode=e.dice_mode, title=e.title, seed=e.seed)
        return Granted(seat, token, self.server.link(token))

    def _seat_for_token(self, e: SeatForToken) -> Seat:
        seat = self.server.seat_for_token(e.token)
        if self.seat is None:  # the link this connection joins with (a second subscribe is refused)
            self.joined_with = token_hash(e.token)
        return seat

    def _open_hub(self, e: OpenHub) -> FightHub:
        return self.server.hub(e.fight_id)

    def _command_range(self, e: CommandRange) -> tuple[int, int] | None:
        return self.server.engine.store.command_range(e.fight_id, e.command_id)

    async def _execute(self, e: Execute) -> CommandResult:
        """On PostgreSQL the engine runs in a worker thread, so one fight's round trips to the
        database do not stall the other fights (the GIL is released while psycopg waits); on
        SQLite a call takes well under a millisecond and the thread hop would cost more than it
        saves. Either way the fight's lock keeps its commands one at a time.

        A failure other than a refusal or a conflict may come after the append committed (the
        snapshot written after it, the refold after an undo): nothing publishes those events then
        (on PostgreSQL this process's listener skips its own notifications, ``OwnNotifications``,
        which used to catch the watchers up; on SQLite nothing did). A refresh of the fight is
        queued instead (issue 16), on either store."""
        try:
            return await self.server.call_engine(self.server.engine.execute, e.fight_id, e.command, e.faces,
                                                 e.expect_seq)
        except Exception as exc:
            self._engine_failed(e, exc)
            raise

    def _execute_here(self, e: Execute) -> CommandResult:
        """:meth:`_execute` on SQLite (``call_engine`` calls the engine directly there), as a plain effect:
        no coroutine to start and finish around the call (issue 16, server CPU)."""
        try:
            return self.server.engine.execute(e.fight_id, e.command, e.faces, e.expect_seq)
        except Exception as exc:
            self._engine_failed(e, exc)
            raise

    def _engine_failed(self, e: Execute, exc: Exception) -> None:
        """After a failure other than a refusal or a conflict, queue a refresh of the fight (:meth:`_execute`)."""
        if not isinstance(exc, (Rejected, Conflict)):
            self.server.peer_appended(e.fight_id, MAX_SEQ)

    def _add_seat(self, e: AddSeat) -> Granted:
        seat, token = self.server.add_seat(e.fight_id, e.role, e.label, e.combatants)
        return Granted(seat, token, self.server.link(token))

    def _seats(self, e: Seats) -> list[SeatRow]:
        return list(self.server.engine.store.seats(e.fight_id))

    def _replace_link(self, e: ReplaceLink) -> Granted:
        token = new_token()
        self.server.engine.store.replace_tokens(e.seat.fight_id, {e.seat.seat_id: token_hash(token)})
        self.server.forget_seat(e.seat.fight_id, e.seat.seat_id)
        return Granted(e.seat, token, self.server.link(token))

    def _preview(self, e: Preview) -> dict[str, Any]:
        return self.server.engine.preview(e.fight_id, e.command)

    def _calculate(self, e: Calculate) -> dict[str, Any]:
        return self.server.engine.calculate(e.fight_id, e.actor, e.tool, e.inputs, e.combatant)

    async def _state_at(self, e: StateAt) -> FightState:
        return await self.server.read(self.server.engine.state_at, e.fight_id, e.seq)

    async def _history_page(self, e: HistoryPage) -> list[dict[str, Any]]:
        return await self.server.read(e.hub.history_page, e.seat, e.now, e.after, e.upto, e.limit)

    async def _catch_up(self, e: CatchUp) -> bool:
        """Send the stored events (after, state.seq] page by page, each read in a worker thread,
        then the live events held meanwhile: a subscribe from 0 to a long fight costs the loop
        only the sending, and the fight's lock is not held (its log up to ``state`` is fixed).
        ``False``: the client was too slow for them; a store failure is raised (held ones dropped)."""
        after = e.after
        try:
            while after < e.state.seq and not self._closing:
                text, after = await self.server.read(e.hub.catch_up_page, e.seat, e.state, after)
                if not self._deliver_now(text, bounded=False):  # catch-up: the message count bounds it
                    return False
        finally:
            held, self._held = self._held or [], None
        for text, bounded in held:
            if not self.deliver(text, bounded):  # nothing is held back any more
                return False
        return True


__all__ = ["CombatServer", "ServerConfig", "Session", "is_loopback", "token_hash", "WS_PATH"]
