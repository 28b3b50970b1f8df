"""#13: every command-line mistake ends in ``error: <code>: <message>`` and exit 2, never a traceback or
argparse's usage block; the message says what to write instead. The real console script, as a subprocess."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_cli import db, demo_fight, run  # noqa: F401  (fixtures)


def _refused(out: object, code: str) -> str:
    assert out.returncode == 2, (out.stdout, out.stderr)  # type: ignore[attr-defined]
    err: str = out.stderr  # type: ignore[attr-defined]
    assert err.startswith(f"error: {code}: "), err
    assert "Traceback" not in err and "\nusage:" not in err and not err.startswith("usage:")
    return err


def test_a_port_in_use_is_named_with_what_to_do(tmp_path: Path, db: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = _refused(run("serve", "--port", str(port), "--database-url", db, cwd=tmp_path), "serve/port_in_use")
    assert str(port) in err and "--port 0" in err


def test_a_database_url_that_is_not_a_url(tmp_path: Path) -> None:
    err = _refused(run("fights", "--database-url", "combat.sqlite", cwd=tmp_path), "store/bad_url")
    assert "sqlite:///" in err


def test_postgres_scheme_says_to_use_postgresql_psycopg(tmp_path: Path) -> None:
    err = _refused(run("fights", "--database-url", "postgres://me@localhost/test", cwd=tmp_path), "store/bad_url")
    assert "postgresql+psycopg://me@localhost/test" in err


@pytest.mark.parametrize("url", ["mysql://me@localhost/test", "postgresql+asyncpg://me@localhost/test"])
def test_a_dialect_without_its_driver(tmp_path: Path, url: str) -> None:
    err = _refused(run("migrate", "--database-url", url, cwd=tmp_path), "store/no_driver")
    assert "is not installed" in err


def test_a_subcommand_option_placed_before_the_subcommand(tmp_path: Path, db: str) -> None:
    err = _refused(run("--database-url", db, "fights", cwd=tmp_path), "cli/option_placement")
    assert "--database-url goes after the subcommand" in err


def test_a_global_option_placed_after_the_subcommand(tmp_path: Path, db: str) -> None:
    err = _refused(run("fights", "--database-url", db, "--log-level", "debug", cwd=tmp_path), "cli/option_placement")
    assert "--log-level goes before the subcommand" in err


def test_serve_keeps_its_own_log_level_option(tmp_path: Path) -> None:
    """serve has a --log-level of its own: after serve it is no misplaced option (here the bad URL is the error)."""
    _refused(run("serve", "--log-level", "debug", "--database-url", "nope", cwd=tmp_path), "store/bad_url")


def test_an_unknown_option_or_missing_argument_is_a_usage_error(tmp_path: Path, db: str) -> None:
    _refused(run("fights", "--bogus", cwd=tmp_path), "cli/usage")
    _refused(run("export", "--database-url", db, cwd=tmp_path), "cli/usage")
    _refused(run("nosuchcommand", cwd=tmp_path), "cli/usage")


def test_serve_on_a_public_interface_without_a_key(tmp_path: Path, db: str) -> None:
    _refused(run("serve", "--host", "0.0.0.0", "--port", "0", "--database-url", db, cwd=tmp_path),
             "serve/server_key_needed")


# --------------------------------------------------------------------------- files the CLI writes or reads


@pytest.mark.parametrize("where", ["missing-dir/out.jsonl", "a-directory", "/dev/full"])
def test_export_to_a_file_that_cannot_be_written_is_named(tmp_path: Path, db: str, demo_fight: str,
                                                          where: str) -> None:
    """A missing directory, a directory, a full disk: file/unwritable naming the path, not a traceback."""
    (tmp_path / "a-directory").mkdir()
    target = where if where.startswith("/") else str(tmp_path / where)
    err = _refused(run("export", demo_fight, "-o", target, "--database-url", db, cwd=tmp_path), "file/unwritable")
    assert f"cannot write {target}: " in err


def test_export_of_an_unknown_fight_leaves_the_output_file_as_it_was(tmp_path: Path, db: str,
                                                                     demo_fight: str) -> None:
    kept = tmp_path / "kept.jsonl"
    kept.write_text("before\n")
    _refused(run("export", "nosuchfight", "-o", str(kept), "--database-url", db, cwd=tmp_path), "fight/unknown")
    assert kept.read_text() == "before\n"


def test_a_database_url_naming_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    """store/unreadable, and the file is left as it was."""
    notdb = tmp_path / "notes.txt"
    notdb.write_text("not a database\n")
    for command in ("fights", "migrate"):
        err = _refused(run(command, "--database-url", f"sqlite:///{notdb}", cwd=tmp_path), "store/unreadable")
        assert "file is not a database" in err
    assert notdb.read_text() == "not a database\n"


def test_serve_refuses_a_gc_log_it_cannot_write_before_listening(tmp_path: Path, db: str) -> None:
    out = run("serve", "--port", "0", "--database-url", db, cwd=tmp_path,
              env={"COMBAT_GC_LOG": str(tmp_path / "missing-dir" / "gc.log")})
    err = _refused(out, "file/unwritable")
    assert "COMBAT_GC_LOG=" in err and "listening" not in out.stdout


# --------------------------------------------------------------------------- serve's numeric options


@pytest.mark.parametrize("args, option, allowed", [
    (["--port", "99999"], "--port", "from 0 to 65535"),
    (["--port", "-1"], "--port", "from 0 to 65535"),
    (["--max-message", "0"], "--max-message", "at least 1"),
    (["--rate", "-5", "--burst", "0"], "--rate", "more than 0"),
    (["--rate", "0"], "--rate", "more than 0"),
    (["--rate", "nan"], "--rate", "more than 0"),
    (["--rate", "inf"], "--rate", "more than 0"),
    (["--burst", "0"], "--burst", "at least 1"),
    (["--queue-size", "-1"], "--queue-size", "at least 1"),
    (["--queue-bytes", "0"], "--queue-bytes", "at least 1"),
    (["--snapshot-every", "-1"], "--snapshot-every", "at least 0"),
    (["--gc-sweep", "-1"], "--gc-sweep", "at least 0"),
    (["--port", "http"], "--port", "from 0 to 65535"),
])
def test_serve_refuses_an_out_of_range_option_at_parse_time(tmp_path: Path, args: list[str], option: str,
                                                            allowed: str) -> None:
    """cli/usage naming the option and its range, before any database is opened (none is created)."""
    err = _refused(run("serve", *args, cwd=tmp_path), "cli/usage")
    assert f"argument {option}: " in err and allowed in err
    assert not (tmp_path / "combat.sqlite").exists()


def test_serve_accepts_the_ends_of_each_range() -> None:
    from combat_server.cli import build_parser

    args = build_parser().parse_args(["serve", "--port", "65535", "--queue-size", "1", "--queue-bytes", "1",
                                      "--rate", "0.5", "--burst", "1", "--max-message", "1",
                                      "--snapshot-every", "0", "--gc-sweep", "0"])
    assert (args.port, args.queue_size, args.queue_bytes, args.rate, args.burst, args.max_message,
            args.snapshot_every, args.gc_sweep) == (65535, 1, 1, 0.5, 1, 1, 0, 0.0)
    assert build_parser().parse_args(["serve", "--port", "0"]).port == 0


def test_serve_refuses_an_unknown_log_level(tmp_path: Path, db: str) -> None:
    err = _refused(run("serve", "--port", "0", "--log-level", "loud", "--database-url", db, cwd=tmp_path), "cli/usage")
    assert "'loud'" in err and "debug" in err


def test_python_m_combat_server_server_refuses_as_combat_server_does(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "combat_server.server", "--port", "99999"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert "from 0 to 65535" in _refused(out, "cli/usage")


def test_serve_help_shows_each_limit_options_default(tmp_path: Path) -> None:
    out = run("serve", "--help", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())  # argparse wraps the help text
    for option, default in [("--port", "8765"), ("--queue-size", "512"), ("--queue-bytes", "16777216"),
                            ("--rate", "200.0"), ("--burst", "400"), ("--max-message", "262144"),
                            ("--snapshot-every", "100"), ("--gc-sweep", "1.0")]:
        help_text = text.split(f" {option} ", 1)[1].split(" --", 1)[0]
        assert f"(default {default}" in help_text, (option, help_text)


# --------------------------------------------------------------------------- public URLs


@pytest.mark.parametrize("url", ["notaurl", "127.0.0.1:8765", "ftp://example.org", "http://", "https:///x",
                                 "http://example.org:99999", "http://example.org/?room=1",
                                 "http://example.org/#x", "http://exa mple.org"])
def test_links_refuses_a_public_url_that_is_not_an_absolute_http_url_and_keeps_the_old_links(
        tmp_path: Path, db: str, demo_fight: str, url: str) -> None:
    from combat_server.server.app import token_hash
    from combat_server.store.recorder import SeatRow
    from combat_server.store.sql import open_store

    store = open_store(db)  # the GM seat whose link must keep working
    store.add_seat(SeatRow(demo_fight, "gm", "gm", "GM", (), token_hash("old-gm-token")), "2026-11-27T00:00:00+00:00")
    last_seq = store.fight(demo_fight).last_seq
    store.dispose()

    err = _refused(run("links", demo_fight, "--public-url", url, "--database-url", db, cwd=tmp_path), "cli/usage")
    assert "argument --public-url: " in err and "http" in err

    store = open_store(db)
    assert [s.token_hash for s in store.seats(demo_fight)] == [token_hash("old-gm-token")]  # the old link works
    assert store.fight(demo_fight).last_seq == last_seq  # no links_reissued event
    store.dispose()


def test_links_keeps_a_public_url_with_a_path_as_given(tmp_path: Path, db: str, demo_fight: str) -> None:
    from combat_server.server.app import token_hash
    from combat_server.store.recorder import SeatRow
    from combat_server.store.sql import open_store

    store = open_store(db)
    store.add_seat(SeatRow(demo_fight, "gm", "gm", "GM", (), token_hash("old-gm-token")), "2026-11-27T00:00:00+00:00")
    store.dispose()
    out = run("links", demo_fight, "--public-url", "https://example.org/combat/", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "https://example.org/combat/#token=" in out.stdout


def test_serve_refuses_a_public_url_that_is_not_an_absolute_http_url(tmp_path: Path) -> None:
    err = _refused(run("serve", "--port", "0", "--public-url", "notaurl", cwd=tmp_path), "cli/usage")
    assert "argument --public-url: 'notaurl'" in err
    assert not (tmp_path / "combat.sqlite").exists()



def _corrupt_an_event_partway(db: str, fight: str) -> None:
    """Seq 5's payload made unreadable: ``export`` has written its header line when the read fails
    (``store/corrupt``), as a disk filling up mid-export would fail it."""
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE events SET payload = '{not json' WHERE fight_id = ? AND seq = 5", (fight,))


def test_an_export_that_fails_partway_leaves_the_earlier_file_whole_and_no_part_file(
        tmp_path: Path, db: str, demo_fight: str) -> None:
    out_dir = tmp_path / "exports"
    out_dir.mkdir()
    earlier = out_dir / "fight.jsonl"
    earlier.write_text("an earlier export\n")
    _corrupt_an_event_partway(db, demo_fight)
    err = _refused(run("export", demo_fight, "-o", str(earlier), "--database-url", db, cwd=tmp_path),
                   "store/corrupt")
    assert "seq 5" in err
    assert earlier.read_text() == "an earlier export\n"
    assert sorted(p.name for p in out_dir.iterdir()) == ["fight.jsonl"]


def test_an_export_that_fails_partway_to_a_new_file_leaves_no_file(tmp_path: Path, db: str,
                                                                   demo_fight: str) -> None:
    out_dir = tmp_path / "exports"
    out_dir.mkdir()
    _corrupt_an_event_partway(db, demo_fight)
    _refused(run("export", demo_fight, "-o", str(out_dir / "fight.jsonl"), "--database-url", db, cwd=tmp_path),
             "store/corrupt")
    assert list(out_dir.iterdir()) == []


@pytest.mark.parametrize("command", ["import", "replay"])
def test_a_file_nested_too_deeply_is_named_not_a_traceback(tmp_path: Path, db: str, demo_fight: str,
                                                           command: str) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    args = [command, str(deep)] + (["--database-url", db] if command == "import" else [])
    err = _refused(run(*args, cwd=tmp_path), "import/bad_json")
    assert "line 1: nested too deeply" in err
