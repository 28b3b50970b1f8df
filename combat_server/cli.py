"""The ``combat-server`` command line: the edge where the store, the engine and
logging are set up for one operation and torn down again.

Each subcommand is registered by an ``_add_<name>`` function that adds its
parser and sets ``func`` (``args.func(args) -> exit code``); a new subcommand is
one more such function listed in :data:`SUBCOMMANDS`.

Exit codes: 0 done, 1 a verify found a bad log, 2 refused (``error: <code>:
<message>`` on stderr; the codes are those of :mod:`combat_server.errors`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import stat
import sys
import typing
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence, TextIO, TypeVar

import attrs

from combat_server.demo import DEFAULT_DEMO_RULESET
from combat_server.engine.fight import Engine, LogEntry
from combat_server.errors import CombatError, reject
from combat_server.logs import configure_logging, get_logger
from combat_server.rules.model import GM_ACTOR, FightState
from combat_server.rules.ruleset import get_ruleset
from combat_server.rules.serialize import state_to_json
from combat_server.store.sql import SqlStore, default_database_url, open_store

__all__ = ["main", "build_parser", "format_replay", "format_state"]

EXIT_OK, EXIT_VERIFY_FAILED, EXIT_ERROR = 0, 1, 2
T = TypeVar("T")


# --------------------------------------------------------------------------- helpers


def _is_terminal() -> bool:
    return sys.stdout.isatty() or sys.stderr.isatty()


@contextlib.contextmanager
def _progress(
    description: str, total: int | None, enabled: bool = True
) -> Iterator[Callable[[Iterable[T]], Iterator[T]]]:
    """Wrap iterables in a rich progress bar on stderr, only when a terminal is watching."""
    if not (enabled and _is_terminal()):
        def passthrough(items: Iterable[T]) -> Iterator[T]:
            yield from items

        yield passthrough
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task(description, total=total)

        def track(items: Iterable[T]) -> Iterator[T]:
            for item in items:
                yield item
                progress.advance(task)

        yield track


def _store(args: argparse.Namespace, *, migrate: bool = False) -> SqlStore:
    return open_store(args.database_url, migrate=migrate)


def _explain_entries(entries: Sequence[LogEntry]) -> list[str]:
    lines = []
    for entry in entries:
        e = entry.event
        mark = "  [undone]" if entry.undone else ""
        lines.append(f"{e.seq:>5}  {e.actor:<10} {e.type:<20} {entry.explanation}{mark}")
    return lines


def format_state(state: FightState) -> list[str]:
    """A readable summary of a state: the fight, each combatant's live condition, prompts, notes."""
    lines = [
        f"State at seq {state.seq}: {state.title or state.fight_id} "
        f"({state.ruleset} {state.ruleset_version}, {state.dice_mode} dice, {state.status})",
    ]
    combat_round = getattr(state.combat, "round", None)
    if combat_round:
        lines.append(f"  round {combat_round}, turn of {getattr(state.combat, 'current', '') or '-'}")
    if not state.combatants:
        lines.append("  no combatants")
    described = _described(state)
    for cid, c in state.combatants.items():
        hidden = " (hidden)" if c.hidden else ""
        if described is None:
            lines.append(f"  {cid:<12} {c.name} ({c.side.upper()}){hidden}: {_condition_text(c.condition)}")
            continue
        summaries, badges = described
        lines.append(f"  {cid:<12} {summaries.get(cid, c.name)}{hidden}")
        if badges.get(cid):
            lines.append(f"  {'':<12} {'; '.join(badges[cid])}")
    for p in state.prompts:
        lines.append(f"  waiting for {p.combatant or 'GM'}: {p.text}")
    for n in state.notes:
        lines.append(f"  note: {n}")
    if state.undone:
        lines.append(f"  undone seqs: {', '.join(str(s) for s in state.undone)}")
    if state.ended_reason:
        lines.append(f"  ended: {state.ended_reason}")
    return lines


def _described(state: FightState) -> tuple[dict[str, str], dict[str, list[str]]] | None:
    """Each combatant's summary line and badges as the ruleset describes them to the GM.

    Why: the replay then says what the web page and the terminal client say (#13: one
    wording everywhere), instead of field names and Python values. ``None`` when the
    fight's ruleset is not installed here (the raw condition is printed instead).
    """
    try:
        ruleset = get_ruleset(state.ruleset, state.ruleset_version)
    except CombatError:
        return None
    description = ruleset.describe(state, GM_ACTOR)
    summaries = {s.combatant: s.text for s in description.summaries}
    badges: dict[str, list[str]] = {}
    for b in description.badges:
        why = ", ".join(x for x in (b.rule, b.lasts) if x)
        badges.setdefault(b.combatant, []).append(f"{b.label} ({why})" if why else b.label)
    return summaries, badges


def _condition_text(condition: Any) -> str:
    """Fields without a default (e.g. HP, FP) always, the others only when they differ from it."""
    if not attrs.has(type(condition)):
        return str(condition)
    parts = []
    for f in attrs.fields(type(condition)):
        value = getattr(condition, f.name)
        if f.default is attrs.NOTHING or value != f.default:
            shown = ", ".join(str(v) for v in value) if isinstance(value, (tuple, list, frozenset)) else value
            parts.append(f"{f.name}={shown}")
    return ", ".join(parts) or "-"


def format_replay(entries: Sequence[LogEntry], state: FightState) -> str:
    """The readable log (seq, actor, type, explanation, undone marks), then the final state."""
    return "\n".join(_explain_entries(entries) + [""] + format_state(state)) + "\n"


def _replay_json(fight_id: str, entries: Sequence[LogEntry], state: FightState) -> dict[str, Any]:
    return {
        "fight_id": fight_id,
        "seq": state.seq,
        "events": [dict(e.event.to_dict(), explanation=e.explanation, undone=e.undone) for e in entries],
        "state": state_to_json(state),
    }


def _print_replay(engine: Engine, fight_id: str, upto: int | None, as_json: bool) -> None:
    state = engine.load(fight_id) if upto is None else engine.state_at(fight_id, upto)
    entries = engine.history(fight_id, upto=upto)
    if as_json:
        sys.stdout.write(json.dumps(_replay_json(fight_id, entries, state), indent=2, sort_keys=True) + "\n")
    else:
        sys.stdout.write(format_replay(entries, state))


def _read_lines(path: str) -> list[str]:
    """The log's lines, split on newline only: str.splitlines also breaks at U+2028, U+0085, form feed
    and the like, which JSON leaves unescaped inside strings (a note's text)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8", newline="") as f:
                text = f.read()
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the newline ending the last line
        return [line.removesuffix("\r") for line in lines]
    except OSError as exc:
        raise reject("file/unreadable", f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise reject("import/bad_encoding", f"{path} is not UTF-8 text ({exc.reason})") from None


# --------------------------------------------------------------------------- subcommands


def _cmd_migrate(args: argparse.Namespace) -> int:
    store = _store(args, migrate=True)
    print(f"database at revision {store.current_revision()}")
    get_logger().info("migrated", revision=store.current_revision())
    return EXIT_OK


def _cmd_fights(args: argparse.Namespace) -> int:
    rows = _store(args).fights()
    if not rows:
        print("no fights")
        return EXIT_OK
    print(f"{'FIGHT':<18} {'RULESET':<12} {'EVENTS':>6}  {'CREATED':<32} TITLE")
    for r in rows:
        print(f"{r.fight_id:<18} {r.ruleset + ' ' + r.ruleset_version:<12} {r.last_seq:>6}  {r.created_at:<32} {r.title}")
    return EXIT_OK


def _cmd_verify(args: argparse.Namespace) -> int:
    if bool(args.fight) == bool(args.all):
        raise reject("cli/usage", "verify needs a FIGHT id or --all (not both)")
    engine = Engine(_store(args))
    fight_ids = [r.fight_id for r in engine.store.fights()] if args.all else [args.fight]
    if not args.all:
        engine.store.fight(args.fight)  # unknown fight -> fight/unknown
    failed = 0
    with _progress("verifying", len(fight_ids)) as track:
        for fid in track(fight_ids):
            report = engine.verify(fid)
            if report.ok:
                print(f"ok      {fid}  {report.events} events")
            else:
                failed += 1
                print(f"FAILED  {fid}  seq {report.bad_seq}: {report.problem}")
                get_logger().warning("verify_failed", fight_id=fid, seq=report.bad_seq, problem=report.problem)
    return EXIT_VERIFY_FAILED if failed else EXIT_OK


def _cmd_export(args: argparse.Namespace) -> int:
    engine = Engine(_store(args))
    row = engine.store.fight(args.fight)  # fight/unknown before the file is opened (and emptied)
    to_file = bool(args.output) and args.output != "-"
    out: TextIO
    try:
        with contextlib.ExitStack() as stack:
            out = stack.enter_context(_replacing(args.output)) if to_file else sys.stdout
            # No progress bar over the JSON itself (stdout).
            with _progress(f"exporting {args.fight}", row.last_seq + 1, enabled=to_file) as track:
                for line in track(engine.export_lines(args.fight)):
                    out.write(line + "\n")
    except OSError as exc:
        if not to_file:
            raise  # stdout: a closed pipe is main's to handle
        # A missing directory, a directory, a full disk: named, not a traceback (the store is only read).
        raise reject("file/unwritable", f"cannot write {args.output}: {exc.strerror or exc}") from None
    if to_file:
        print(f"exported fight {args.fight} ({row.last_seq} events) to {args.output}", file=sys.stderr)
    return EXIT_OK


@contextlib.contextmanager
def _replacing(path: str) -> Iterator[TextIO]:
    """A file written whole or not at all: an export that fails partway (a full disk, a store error) leaves
    neither half a log, which ``import`` would refuse only at its end, nor a clobbered earlier export.

    The text goes to a new file beside the target and is renamed over it once complete. A target that exists
    and is not a regular file (``/dev/stdout``, a pipe, a terminal) is written in place, as before: renaming
    over a device would replace the device's name, not write to it.
    """
    try:
        mode: int | None = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        with open(path, "w", encoding="utf-8") as out:
            yield out
        return
    target = os.path.realpath(path)  # a symlink's file is replaced, not the link
    folder, name = os.path.split(target)
    part = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
    # O_EXCL: never write through a file someone else put there; 0o666 & ~umask, as open() would.
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except PermissionError:
        if mode is None:
            raise
        # A file we may write in a folder we may not: written in place, as before (whole or not is lost).
        with open(target, "w", encoding="utf-8") as out:
            yield out
        return
    try:
        with open(fd, "w", encoding="utf-8") as out:
            if mode is not None:
                os.fchmod(fd, stat.S_IMODE(mode))  # an earlier export's permissions stay
            yield out
            out.flush()
            os.fsync(fd)  # the rename never shows a file whose text is not on disk yet
        os.replace(part, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(part)
        raise


def _cmd_import(args: argparse.Namespace) -> int:
    engine = Engine(_store(args))
    lines = _read_lines(args.file)
    with _progress(f"importing {args.file}", len(lines)) as track:
        fight_id = engine.import_lines(track(lines))
    print(f"imported fight {fight_id} ({engine.store.fight(fight_id).last_seq} events)")
    return EXIT_OK


def _cmd_import_character(args: argparse.Namespace) -> int:
    from combat_server.rules.model import GM_ACTOR, Command

    if args.combatant and len(args.files) > 1:
        raise reject("cli/usage", "--combatant re-imports one character: give one FILE with it")
    engine = Engine(_store(args))
    engine.store.fight(args.fight)  # unknown fight -> fight/unknown, before any file is read
    for path in args.files:
        try:
            content = Path(path).read_bytes().decode("utf-8")
        except OSError as exc:
            raise reject("file/unreadable", f"cannot read {path}: {exc.strerror}") from None
        except UnicodeDecodeError:
            raise reject("import/not_json", f"{path} is not a GCS character file (not UTF-8 JSON text)") from None
        cmd: dict[str, Any] = {"file_name": Path(path).name, "content": content}
        if args.combatant:
            cmd["combatant"] = args.combatant
        else:
            cmd["side"] = args.side
            if args.hidden:
                cmd["hidden"] = True
        result = engine.execute(args.fight, Command("import_character", cmd, GM_ACTOR))
        event = next(e for e in result.events if e.type == "character_imported")
        p = event.payload
        verb = "re-imported over" if p["replaced"] else "imported as"
        print(f"{path}: {p['name']} {verb} {p['id']} (seq {event.seq}, sha256 {p['sha256']})")
        for item in p["unused"]:
            print(f"  not used: {item}")
    return EXIT_OK


def _cmd_links(args: argparse.Namespace) -> int:
    from combat_server.server.links import reissue_links

    engine = Engine(_store(args))
    links = reissue_links(engine, args.fight, args.public_url, reason="issued by combat-server links")
    print(f"new links for fight {args.fight} (the old ones no longer work; keep the GM link):")
    for s in links:
        print(f"  {s.role:<10} {s.label:<20} {s.link}")
    return EXIT_OK


def _cmd_replay(args: argparse.Namespace) -> int:
    source = args.fight_or_file
    if Path(source).is_file() or source == "-":
        # A file is replayed from a throwaway in-memory database: nothing is written anywhere.
        engine = Engine(open_store("sqlite://", migrate=True))
        fight_id = engine.import_lines(_read_lines(source))
    else:
        engine = Engine(_store(args))
        fight_id = source
    _print_replay(engine, fight_id, args.to, args.json)
    return EXIT_OK


def _cmd_demo(args: argparse.Namespace) -> int:
    from combat_server.demo import build_demo_fight, play_demo_turns

    engine = Engine(_store(args, migrate=True))
    fight_id = build_demo_fight(engine, args.ruleset)
    play_demo_turns(engine, fight_id, turns=4)
    print(f"demo fight {fight_id} written to {engine.store.url}\n")
    _print_replay(engine, fight_id, None, args.json)
    return EXIT_OK


# --------------------------------------------------------------------------- parser


def _common() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--database-url", default=default_database_url(),
        help="SQLAlchemy URL (default: $COMBAT_DATABASE_URL, else sqlite:///combat.sqlite)",
    )
    return common


Subparsers = Any  # argparse._SubParsersAction, private in typeshed


def _add_migrate(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("migrate", parents=[common], help="create or upgrade the database schema (alembic head)")
    p.set_defaults(func=_cmd_migrate)


def _add_fights(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("fights", parents=[common], help="list the stored fights")
    p.set_defaults(func=_cmd_fights)


def _add_verify(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("verify", parents=[common], help="recompute hash chain and fold; exit 1 on the first bad seq")
    p.add_argument("fight", nargs="?", help="fight id")
    p.add_argument("--all", action="store_true", help="verify every fight")
    p.set_defaults(func=_cmd_verify)


def _add_export(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("export", parents=[common], help="write a fight's log as JSON Lines")
    p.add_argument("fight", help="fight id")
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    p.set_defaults(func=_cmd_export)


def _add_import(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("import", parents=[common], help="import an exported fight log (all or nothing)")
    p.add_argument("file", help="JSON Lines file written by export ('-' for stdin)")
    p.set_defaults(func=_cmd_import)


def _add_import_character(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("import-character", parents=[common],
                       help="import GURPS Character Sheet files (.gcs) into a stored fight, as the GM")
    p.add_argument("fight", help="fight id")
    p.add_argument("files", nargs="+", metavar="FILE", help=".gcs files (GCS data version 5 or 4)")
    p.add_argument("--combatant", metavar="ID", help="re-import over this combatant (keeps its HP, FP, conditions)")
    p.add_argument("--side", choices=("pc", "npc"), default="pc", help="side of new combatants (default pc)")
    p.add_argument("--hidden", action="store_true", help="hide the new combatants' sheets from players")
    p.set_defaults(func=_cmd_import_character)


def _add_links(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from combat_server.server.links import DEFAULT_BASE_URL, public_url_arg

    p = sub.add_parser("links", parents=[common],
                       help="print new GM, player and spectator links of a stored fight (revokes the old ones)")
    p.add_argument("fight", help="fight id")
    p.add_argument("--public-url", type=public_url_arg, default=DEFAULT_BASE_URL,
                   help="the server's address the links start with, an absolute http(s) URL "
                        f"(default {DEFAULT_BASE_URL})")
    p.set_defaults(func=_cmd_links)


def _add_replay(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("replay", parents=[common], help="print a fight's log with explanations, then its state")
    p.add_argument("fight_or_file", metavar="FIGHT_OR_FILE", help="fight id, or an exported JSON Lines file")
    p.add_argument("--to", type=int, metavar="SEQ", help="stop after this seq")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=_cmd_replay)


def _add_demo(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("demo", parents=[common], help="write a demo fight (seeded dice) and print its replay")
    p.add_argument("--json", action="store_true", help="print the replay as JSON")
    p.add_argument("--ruleset", default=DEFAULT_DEMO_RULESET, help=f"whose demo fight to write (default {DEFAULT_DEMO_RULESET})")
    p.set_defaults(func=_cmd_demo)


def _add_client(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    # The terminal client talks to a running server, not to a database: no ``common`` options.
    from combat_server.tui import add_client_command

    add_client_command(sub)


def _add_serve(sub: Subparsers, common: argparse.ArgumentParser) -> None:
    from combat_server.server.cli import add_serve_command

    add_serve_command(sub, common)


SUBCOMMANDS: list[Callable[[Subparsers, argparse.ArgumentParser], None]] = [
    _add_migrate, _add_fights, _add_verify, _add_export, _add_import, _add_import_character, _add_links, _add_replay, _add_demo, _add_client,
    _add_serve,
]


class UsageError(Exception):
    """An argparse complaint, turned into ``error: cli/usage: ...`` and exit 2 by :func:`main`."""


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake raises (main prints it as ``error: <code>: <message>``) instead of
    printing the usage block and exiting by itself; subcommand parsers inherit it."""

    def error(self, message: str) -> typing.NoReturn:
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _option_names(parser: argparse.ArgumentParser) -> set[str]:
    return {o for a in parser._actions for o in a.option_strings}  # argparse keeps them nowhere public


def _misplaced_option(parser: argparse.ArgumentParser, argv: Sequence[str]) -> str | None:
    """Why an option sits on the wrong side of the subcommand, if one does.

    Why: argparse's own message for ``combat-server --database-url X fights`` is
    "invalid choice: 'X'", which sends the user looking at the wrong word.
    """
    sub_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    subparsers: dict[str, argparse.ArgumentParser] = dict(sub_action.choices)
    at = next((i for i, tok in enumerate(argv) if tok in subparsers), None)
    if at is None:
        return None
    top, command = _option_names(parser), argv[at]
    own = _option_names(subparsers[command])
    for tok in argv[:at]:
        name = tok.split("=", 1)[0]
        if name.startswith("--") and name not in top:
            where = f"after the subcommand: combat-server {command} {name} ..." if name in own else \
                f"after the subcommand it belongs to (combat-server {command} --help lists its options)"
            return f"{name} goes {where}"
    for tok in argv[at + 1:]:
        name = tok.split("=", 1)[0]
        if name in top - own and name not in ("-h", "--help"):
            return f"{name} goes before the subcommand: combat-server {name} ... {command} ..."
    return None


def check_database_url(url: str) -> None:
    """Refuse a database URL that cannot work, saying what to write instead (before anything opens it)."""
    import sqlalchemy as sa

    hint = "use sqlite:///path/to/file.sqlite or postgresql+psycopg://user@host/dbname"
    scheme = url.split("://", 1)[0] if "://" in url else ""
    if scheme.split("+")[0] in ("postgres",):
        fixed = "postgresql+psycopg://" + url.split("://", 1)[1]
        raise reject("store/bad_url", f"{scheme}:// is not a database dialect SQLAlchemy knows: write {fixed}")
    try:
        parsed = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ValueError):
        raise reject("store/bad_url", f"{url!r} is not a database URL: {hint}") from None
    try:
        dialect = parsed.get_dialect()
    except sa.exc.NoSuchModuleError:
        raise reject("store/bad_url", f"{parsed.drivername}:// is not a database dialect SQLAlchemy knows: "
                                      f"{hint}") from None
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        raise reject("store/no_driver", f"no driver for {parsed.drivername}:// (Python module {exc.name or exc} "
                                        f"is not installed): {hint}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="combat-server", description="Event-sourced turn-based combat server.")
    parser.add_argument("--log-level", default="warning", help="debug, info, warning (default), error")
    parser.add_argument("--log-json", action=argparse.BooleanOptionalAction, default=None,
                        help="JSON log lines (default: unless stderr is a terminal)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = _common()
    for add in SUBCOMMANDS:
        add(sub, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    misplaced = _misplaced_option(parser, argv)
    if misplaced:
        print(f"error: cli/option_placement: {misplaced}", file=sys.stderr)
        return EXIT_ERROR
    try:
        args = parser.parse_args(argv)
        if getattr(args, "database_url", None):
            check_database_url(args.database_url)
    except UsageError as exc:
        print(f"error: cli/usage: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except CombatError as exc:
        print(f"error: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_ERROR
    try:
        configure_logging(json=args.log_json, level=args.log_level)
    except ValueError as exc:
        print(f"error: cli/usage: {exc}", file=sys.stderr)
        return EXIT_ERROR
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except CombatError as exc:
        print(f"error: {exc.code}: {exc.message}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("error: cli/interrupted: interrupted", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

