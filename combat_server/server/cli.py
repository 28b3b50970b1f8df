"""``combat-server serve``: the subcommand that runs the live server.

The main CLI registers it with :func:`add_serve_command`; ``python -m
combat_server.server`` runs it alone. Logging is configured here, at the edge.
"""

from __future__ import annotations

import argparse
import asyncio
import errno
import importlib
import math
import os
import signal
import sys
from typing import Any, Callable, Sequence, TextIO

import structlog

from combat_server.engine.fight import Engine
from combat_server.errors import CombatError, reject
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.demo import DEFAULT_DEMO_RULESET
from combat_server.rules.ruleset import load_rulesets
from combat_server.server.app import CombatServer, ServerConfig, is_loopback
from combat_server.server.gcpolicy import GcPolicy
from combat_server.server.links import public_url_arg
from combat_server.store import SqlStore, default_database_url, open_store

__all__ = ["add_serve_command", "run_serve", "build_demo", "checkpoint_loop", "main"]

log = structlog.get_logger("combat_server.server")


def whole_number(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``low`` to ``high`` (no upper bound when ``None``), else
    ``ArgumentTypeError`` naming the range (``serve --port 99999`` used to end in bind()'s OverflowError,
    ``--queue-size -1`` to start a server that drops every client)."""
    span = f"from {low} to {high}" if high is not None else f"at least {low}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number (it must be {span})") from None
        if value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range: it must be {span}")
        return value

    return parse


def real_number(low: float, *, low_allowed: bool) -> Callable[[str], float]:
    """An argparse type: a finite number above ``low`` (or equal to it when ``low_allowed``), else
    ``ArgumentTypeError`` naming the range."""
    span = f"{'at least' if low_allowed else 'more than'} {low:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number (it must be {span})") from None
        if not math.isfinite(value) or value < low or (value == low and not low_allowed):
            raise argparse.ArgumentTypeError(f"{text} is out of range: it must be a finite number {span}")
        return value

    return parse


def add_serve_command(subparsers: Any, common: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """Add ``serve`` to an argparse subparsers object; ``args.func(args)`` runs it."""
    parents = [common] if common is not None else []
    p: argparse.ArgumentParser = subparsers.add_parser(
        "serve", parents=parents, help="run the live websocket server (and the web client's files)",
        description="Serve many fights over websockets on one port; the web client is served on the same port.",
    )
    if common is None:
        p.add_argument("--database-url", default=default_database_url(),
                       help="SQLAlchemy URL (default: $COMBAT_DATABASE_URL, else sqlite:///combat.sqlite)")
    p.add_argument("--host", default="127.0.0.1", help="interface to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=whole_number(0, 65535), default=8765,
                   help="TCP port, 0 to 65535 (default %(default)s; 0 picks a free one)")
    p.add_argument("--server-key", default=os.environ.get("COMBAT_SERVER_KEY"),
                   help="secret needed to create fights (default: $COMBAT_SERVER_KEY)")
    p.add_argument("--create-policy", choices=("open", "key"), default=None,
                   help="who may create fights: open, or key (default: key when a server key is given or the "
                        "host is not loopback, else open)")
    p.add_argument("--public-url", type=public_url_arg, default=None,
                   help="base URL for the links handed out with tokens, an absolute http(s) URL (default: "
                        "http://HOST:PORT)")
    p.add_argument("--demo", nargs="?", const=DEFAULT_DEMO_RULESET, default=None, metavar="RULESET",
                   help="create a ready demo fight of RULESET (default gurps) from its demo declaration and print "
                        "its links")
    p.add_argument("--queue-size", type=whole_number(1), default=512,
                   help="messages buffered per client before it is disconnected as too slow (close 4008); at "
                        "least 1 (default %(default)s)")
    p.add_argument("--queue-bytes", type=whole_number(1), default=16 * 1024 * 1024,
                   help="characters of pushes and replies buffered per client before it is dropped (4008); at "
                        "least 1 (default %(default)s)")
    p.add_argument("--rate", type=real_number(0, low_allowed=False), default=200.0,
                   help="messages per second per connection (sustained); more than 0 (default %(default)s)")
    p.add_argument("--burst", type=whole_number(1), default=400,
                   help="messages a connection may send at once; at least 1 (default %(default)s)")
    p.add_argument("--max-message", type=whole_number(1), default=256 * 1024,
                   help="longest message accepted, characters; at least 1 (default %(default)s)")
    p.add_argument("--snapshot-every", type=whole_number(0), default=100, metavar="N",
                   help="store a state snapshot every N events; 0 never (default %(default)s)")
    p.add_argument("--compression", action="store_true",
                   help="offer permessage-deflate to clients (less bandwidth, about half the broadcast throughput)")
    p.add_argument("--no-peers", dest="listen_peers", action="store_false",
                   help="do not watch for other writers of the database: on PostgreSQL other server processes "
                        "(LISTEN), on a SQLite file the command line run beside the server (links, "
                        "import-character: a look every 0.5 s)")
    p.add_argument("--gc-sweep", type=real_number(0, low_allowed=True), default=1.0, metavar="SECONDS",
                   help="run the garbage collector's full passes from a sweep every SECONDS instead of when CPython "
                        "decides (pauses stay short with many connections; 0 leaves CPython's default) "
                        "(default %(default)s)")
    p.add_argument("--durability", choices=("normal", "full"), default="normal",
                   help="SQLite: 'normal' (default) keeps every committed event through a crash of the server "
                        "process but may lose the last ones to a power loss or OS crash; 'full' fsyncs every "
                        "commit and keeps them through those too, at a cost (docs/benchmarks.md)")
    p.add_argument("--loop", choices=("asyncio", "uvloop"), default="asyncio",
                   help="event loop: 'asyncio' (default, the standard library's) or 'uvloop' (needs the uvloop "
                        "package, `pip install uvloop`; less CPU per push: docs/benchmarks.md)")
    p.add_argument("--log-level", dest="serve_log_level", default="info",
                   help="log level of the server (default info: one line per command)")
    p.set_defaults(func=run_serve)
    return p


def _config(args: argparse.Namespace) -> ServerConfig:
    policy = args.create_policy
    if policy is None:
        policy = "key" if args.server_key or not is_loopback(args.host) else "open"
    if policy == "key" and not args.server_key:
        raise reject(
            "serve/server_key_needed", f"listening on {args.host} creates fights only with a server key: "
            "give --server-key (or $COMBAT_SERVER_KEY), or --create-policy open to allow anyone"
        )
    return ServerConfig(
        host=args.host, port=args.port, create_policy=policy, server_key=args.server_key or None,
        public_url=args.public_url, queue_size=args.queue_size, queue_bytes=args.queue_bytes, rate=args.rate, burst=args.burst,
        max_message=args.max_message, hard_max_message=max(args.max_message * 4, 1024 * 1024),
        compression=args.compression, listen_peers=args.listen_peers,
    )


def build_demo(server: CombatServer, ruleset: str = DEFAULT_DEMO_RULESET) -> dict[str, str]:
    """Create ``ruleset``'s demo fight (from its ``demo`` declaration) with GM and player seats; returns the links."""
    from combat_server.demo import build_demo_fight, start_demo

    engine = server.engine
    fight_id = build_demo_fight(engine, ruleset)
    start_demo(engine, fight_id)
    state = engine.load(fight_id)
    links: dict[str, str] = {}
    gm, token = server.add_seat(fight_id, "gm", "GM", (), seat_id="gm")
    links["GM"] = server.link(token)
    for c in state.combatants.values():
        if c.side == "pc":
            _seat, token = server.add_seat(fight_id, "player", c.name, (c.id,))
            links[c.name] = server.link(token)
    _seat, token = server.add_seat(fight_id, "spectator", "spectators", ())
    links["spectators"] = server.link(token)
    links["fight"] = fight_id
    return links


def _stored_demo(store: SqlStore, ruleset: str) -> str | None:
    """The ruleset's demo fight already in this database, if any (`serve --demo` reuses it instead of a new copy)."""
    from combat_server.demo import demo_of

    title = demo_of(ruleset)["title"]
    return next((f.fight_id for f in store.fights() if f.title == title and f.ruleset == ruleset), None)


def _configure_logging(args: argparse.Namespace) -> None:
    try:
        from combat_server.logs import configure_logging
    except ImportError:
        return
    try:
        configure_logging(json=getattr(args, "log_json", None), level=getattr(args, "serve_log_level", "info"))
    except ValueError as exc:  # an unknown --log-level, refused before anything starts
        raise CombatError("cli/usage", f"serve --log-level: {exc}") from None


async def checkpoint_loop(store: SqlStore, interval: float = 1.0) -> None:
    """Checkpoint the SQLite WAL every ``interval`` seconds in a worker thread (:meth:`SqlStore.checkpoint`)."""
    while True:
        await asyncio.sleep(interval)
        try:
            await asyncio.to_thread(store.checkpoint)
        except Exception as exc:  # a locked or full disk: say so, try again next time
            log.warning("checkpoint_failed", error=f"{type(exc).__name__}: {exc}")


def _gc_trace(args: argparse.Namespace) -> TextIO | None:
    """The file ``COMBAT_GC_LOG=path`` names, opened for appending one line per collection (time,
    generation, ms, objects freed) to see the pauses; opened before the server starts, so that a path
    that cannot be written is refused (``file/unwritable``) instead of ending a listening server."""
    path = os.environ.get("COMBAT_GC_LOG")
    if args.gc_sweep <= 0 or not path:
        return None
    try:
        return open(path, "a", buffering=1, encoding="utf-8")
    except OSError as exc:
        raise reject("file/unwritable", f"cannot write COMBAT_GC_LOG={path}: {exc.strerror}") from None


def _gc_policy(args: argparse.Namespace, server: CombatServer,
               trace: TextIO | None) -> "asyncio.Task[None] | None":
    """Install the GC policy (:mod:`combat_server.server.gcpolicy`) and start its sweeps (``trace``:
    :func:`_gc_trace`)."""
    if args.gc_sweep <= 0:
        return None
    policy = GcPolicy(sweep_interval=args.gc_sweep, trace=trace)
    policy.install()
    return asyncio.create_task(policy.run(lambda: server.connections_closed, lambda: len(server.sessions)))


async def _serve(args: argparse.Namespace, config: ServerConfig, gc_trace: TextIO | None = None) -> None:
    store = open_store(args.database_url, migrate=True, background_checkpoints=True, durability=args.durability)
    engine = Engine(store, snapshot_every=args.snapshot_every)
    server = CombatServer(engine, config)
    try:
        await server.start()
    except OSError as exc:
        store.dispose()
        if exc.errno == errno.EADDRINUSE:
            raise reject("serve/port_in_use", f"port {config.port} on {config.host} is already in use (another "
                         "server?): pick another with --port, or --port 0 for a free one") from None
        raise reject("serve/cannot_listen", f"cannot listen on {config.host}:{config.port}: "
                     f"{exc.strerror or exc}") from None
    print(f"combat-server listening on {server.base_url} (websocket {server.ws_url})", flush=True)
    if config.create_policy == "key":
        print("fights can be created only with the server key", flush=True)
    if args.demo:
        existing = _stored_demo(store, args.demo)
        if existing is None:
            links = build_demo(server, args.demo)
            print(f"\ndemo fight {links.pop('fight')}: open the web client at {server.base_url}/", flush=True)
        else:
            from combat_server.server.links import reissue_links

            links = {s.label: s.link for s in reissue_links(engine, existing, server.base_url,
                                                             reason="serve --demo reused the demo fight")}
            print(f"\ndemo fight {existing} (already in this database: new links, the old ones no longer work): "
                  f"open the web client at {server.base_url}/", flush=True)
        for who, link in links.items():
            print(f"  {who:<20} {link}", flush=True)
    sweeper = _gc_policy(args, server, gc_trace)
    checkpoints = asyncio.create_task(checkpoint_loop(store)) if store.background_checkpoints else None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        await stop.wait()
    finally:
        for task in (sweeper, checkpoints):
            if task is not None:
                task.cancel()
        await server.close()
        store.dispose()


def run_serve(args: argparse.Namespace) -> int:
    """Run the server until SIGINT/SIGTERM; returns the exit code.

    The rulesets are loaded first: one that fails to load, or two with the same
    name and version, stop the server here (``RulesetLoadError`` naming them)
    instead of failing the first fight that needs them.
    """
    load_rulesets()
    config = _config(args)
    _configure_logging(args)
    loop_factory = _loop_factory(getattr(args, "loop", "asyncio"))
    gc_trace = _gc_trace(args)
    with asyncio.Runner(loop_factory=loop_factory) as runner:
        runner.run(_serve(args, config, gc_trace))
    return 0


def _loop_factory(name: str) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The event loop ``serve --loop`` names (``None``: asyncio's own). uvloop is optional: asked for
    without being installed, the server refuses to start with ``serve/no_uvloop`` rather than quietly
    running on another loop than the one measured (issue 16, server CPU per push)."""
    if name != "uvloop":
        return None
    try:
        uvloop = importlib.import_module("uvloop")
    except ImportError:
        raise CombatError("serve/no_uvloop", "--loop uvloop needs the uvloop package: pip install uvloop") from None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def main(argv: Sequence[str] | None = None) -> int:
    from combat_server.cli import UsageError, _Parser

    parser = _Parser(prog="python -m combat_server.server")
    sub = parser.add_subparsers(dest="command")
    serve = add_serve_command(sub)
    serve.prog = "python -m combat_server.server"  # `serve` is implied here: the usage line must not show it
    try:
        args = parser.parse_args(["serve", *(sys.argv[1:] if argv is None else argv)])
    except UsageError as exc:  # as combat-server's own: error: cli/usage: ..., exit 2
        print(f"error: cli/usage: {exc}", file=sys.stderr)
        return 2
    try:
        code: int = args.func(args)
    except CombatError as exc:
        print(f"error: {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    return code
