"""#13: every command-line mistake ends in ``error: <code>: <message>`` and exit 2, never a traceback or
argparse's usage block; the message says what to write instead. The real console script, as a subprocess."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.test_cli import db, run  # noqa: F401  (fixture)


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
