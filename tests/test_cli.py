"""The real ``combat-server`` console script, run as a subprocess against a temporary SQLite file."""

from __future__ import annotations

import json
import re
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = shutil.which("combat-server", path=str(Path(sys.executable).parent)) or shutil.which("combat-server")


def run(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``combat-server ARGS`` and capture its output."""
    assert SCRIPT, "the combat-server console script is not installed (pip install -e '.[test]')"
    full_env = {k: v for k, v in os.environ.items() if k != "COMBAT_DATABASE_URL"}
    full_env.update(env or {})
    return subprocess.run([SCRIPT, *args], cwd=cwd, env=full_env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The URL of a temporary SQLite file (not yet migrated)."""
    return f"sqlite:///{tmp_path / 'cli.sqlite'}"


@pytest.fixture
def demo_fight(tmp_path: Path, db: str) -> str:
    """A migrated database holding the demo fight; returns its fight id."""
    out = run("demo", "--json", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    body = out.stdout[out.stdout.index("{"):]
    return str(json.loads(body)["fight_id"])


def test_migrate_creates_the_schema(tmp_path: Path, db: str) -> None:
    """migrate brings an empty database to the head revision and says so."""
    out = run("migrate", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "0005" in out.stdout
    assert run("fights", "--database-url", db, cwd=tmp_path).stdout.strip() == "no fights"


def test_unmigrated_database_is_refused(tmp_path: Path, db: str) -> None:
    """Commands other than migrate and demo refuse an unmigrated database with store/migration_missing."""
    for args in (["fights"], ["verify", "--all"], ["export", "x"], ["replay", "x"]):
        out = run(*args, "--database-url", db, cwd=tmp_path)
        assert out.returncode == 2
        assert "error: store/migration_missing:" in out.stderr
        assert "combat-server migrate" in out.stderr


def test_database_url_defaults_to_the_environment(tmp_path: Path) -> None:
    """Without --database-url the CLI uses COMBAT_DATABASE_URL."""
    url = f"sqlite:///{tmp_path / 'env.sqlite'}"
    assert run("migrate", cwd=tmp_path, env={"COMBAT_DATABASE_URL": url}).returncode == 0
    assert (tmp_path / "env.sqlite").exists()
    assert not (tmp_path / "combat.sqlite").exists()


def test_demo_writes_and_replays_a_fight(tmp_path: Path, db: str) -> None:
    """demo migrates by itself, writes a seeded GURPS fight and prints its readable replay."""
    out = run("demo", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Brenna the Bold (PC) joins the fight" in out.stdout
    assert "Goblin Archer" in out.stdout and "seeded dice" in out.stdout
    assert re.search(r"State at seq \d+", out.stdout)
    assert "attack_rolled" in out.stdout  # the demo plays real GURPS turns


def test_replay_state_uses_the_rulesets_wording(tmp_path: Path, db: str, demo_fight: str) -> None:
    """#13: the replay's state lines say what the web page and the terminal client say (the
    ruleset's summaries and badges, with their rule ids), never field names or Python reprs."""
    out = run("replay", demo_fight, "--database-url", db, cwd=tmp_path)
    state = out.stdout[out.stdout.index("State at seq"):]
    assert "Brenna the Bold (PC): HP " in state
    assert "(G-" in state  # a badge names its rule
    assert not re.search(r"\w+=|\('|\['|\bTrue\b|\bNone\b", state)


def last_seq(tmp_path: Path, fight_id: str) -> int:
    conn = sqlite3.connect(tmp_path / "cli.sqlite")
    try:
        return int(conn.execute("SELECT max(seq) FROM events WHERE fight_id = ?", (fight_id,)).fetchone()[0])
    finally:
        conn.close()


def test_fights_lists_the_demo(tmp_path: Path, db: str, demo_fight: str) -> None:
    """fights lists each fight with its ruleset, event count and title."""
    out = run("fights", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0
    line = next(ln for ln in out.stdout.splitlines() if ln.startswith(demo_fight))
    assert "gurps 1.0" in line and f" {last_seq(tmp_path, demo_fight)} " in line and "Demo" in line


def test_export_import_round_trip(tmp_path: Path, db: str, demo_fight: str) -> None:
    """A fight exported to a file and imported into another database verifies and replays the same."""
    export = tmp_path / "fight.jsonl"
    assert run("export", demo_fight, "-o", str(export), "--database-url", db, cwd=tmp_path).returncode == 0
    assert len(export.read_text().splitlines()) == 1 + last_seq(tmp_path, demo_fight)  # header + events
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    assert run("migrate", "--database-url", other, cwd=tmp_path).returncode == 0
    out = run("import", str(export), "--database-url", other, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert demo_fight in out.stdout
    assert run("verify", demo_fight, "--database-url", other, cwd=tmp_path).returncode == 0
    a = run("replay", demo_fight, "--json", "--database-url", db, cwd=tmp_path)
    b = run("replay", demo_fight, "--json", "--database-url", other, cwd=tmp_path)
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_export_to_stdout_is_json_lines(tmp_path: Path, db: str, demo_fight: str) -> None:
    """export without -o writes one JSON object per line to stdout, header first."""
    out = run("export", demo_fight, "--database-url", db, cwd=tmp_path)
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert rows[0]["format"] == "combat-server/fight-log"
    assert [r["seq"] for r in rows[1:]] == list(range(1, last_seq(tmp_path, demo_fight) + 1))


def test_import_of_bad_json_names_the_line(tmp_path: Path, db: str, demo_fight: str) -> None:
    """A broken line makes import exit 2 with import/bad_json and the line number."""
    lines = run("export", demo_fight, "--database-url", db, cwd=tmp_path).stdout.splitlines()
    lines[2] = lines[2][:10]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    run("migrate", "--database-url", other, cwd=tmp_path)
    out = run("import", str(bad), "--database-url", other, cwd=tmp_path)
    assert out.returncode == 2
    assert "error: import/bad_json: line 3" in out.stderr
    assert run("fights", "--database-url", other, cwd=tmp_path).stdout.strip() == "no fights"


def test_replay_to_seq_from_a_file(tmp_path: Path, db: str, demo_fight: str) -> None:
    """replay of an exported file with --to shows the log up to that seq and the state then."""
    export = tmp_path / "fight.jsonl"
    run("export", demo_fight, "-o", str(export), "--database-url", db, cwd=tmp_path)
    out = run("replay", str(export), "--to", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Tam Quickfingers (PC) joins" in out.stdout and "Orc Raider" not in out.stdout
    assert "State at seq 3" in out.stdout
    assert not (tmp_path / "combat.sqlite").exists()


def test_replay_marks_undone_events(tmp_path: Path, db: str, demo_fight: str) -> None:
    """Undone events stay in the replay, marked [undone]."""
    from combat_server.engine.fight import Engine
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.store.sql import open_store

    n = last_seq(tmp_path, demo_fight)
    store = open_store(db)
    Engine(store).execute(demo_fight, Command("undo", {"to": "seq", "seq": 5}, GM_ACTOR, "u1"))
    store.dispose()
    out = run("replay", demo_fight, "--database-url", db, cwd=tmp_path)
    note = next(ln for ln in out.stdout.splitlines() if ln.strip().startswith("6 "))
    assert note.endswith("[undone]")
    assert "note_added" in note
    data = json.loads(run("replay", demo_fight, "--json", "--database-url", db, cwd=tmp_path).stdout)
    assert [e["undone"] for e in data["events"]] == [False] * 5 + [True] * (n - 5) + [False]
    assert data["state"]["notes"] == []


def test_verify_exit_codes(tmp_path: Path, db: str, demo_fight: str) -> None:
    """verify exits 0 on a sound log and 1 naming the first bad seq after a raw SQL edit."""
    assert run("verify", "--all", "--database-url", db, cwd=tmp_path).returncode == 0
    conn = sqlite3.connect(tmp_path / "cli.sqlite")
    with conn:
        conn.execute("UPDATE events SET payload = json_set(payload, '$.name', 'Mallory') WHERE seq = 4")
    conn.close()
    out = run("verify", demo_fight, "--database-url", db, cwd=tmp_path)
    assert out.returncode == 1
    assert "seq 4" in out.stdout
    assert run("verify", "--all", "--database-url", db, cwd=tmp_path).returncode == 1


def test_unknown_fight_is_an_error(tmp_path: Path, db: str, demo_fight: str) -> None:
    """Naming a fight that does not exist exits 2 with fight/unknown."""
    out = run("export", "nope", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 2
    assert out.stderr.strip().endswith("error: fight/unknown: no fight 'nope'")


def test_unmigrated_sqlite_path_is_refused_without_creating_a_file(tmp_path: Path) -> None:
    """A command on a SQLite file that does not exist refuses with migration_missing and leaves no file."""
    missing = tmp_path / "nothing.sqlite"
    out = run("fights", "--database-url", f"sqlite:///{missing}", cwd=tmp_path)
    assert out.returncode == 2 and "store/migration_missing" in out.stderr
    assert not missing.exists()


@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\x1c"],
                         ids=["U+2028", "U+2029", "U+0085", "VT", "FF", "FS"])
def test_export_import_round_trip_keeps_texts_with_line_separators(tmp_path: Path, db: str, demo_fight: str,
                                                                    sep: str) -> None:
    """A note holding a character str.splitlines treats as a line break exports and imports intact:
    the log's lines are split on newline only."""
    from combat_server.engine.fight import Engine
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.store.sql import open_store

    store = open_store(db)
    Engine(store).execute(demo_fight, Command("note", {"text": f"a{sep}b"}, GM_ACTOR, "n1"))
    store.dispose()
    export = tmp_path / "fight.jsonl"
    assert run("export", demo_fight, "-o", str(export), "--database-url", db, cwd=tmp_path).returncode == 0
    other = f"sqlite:///{tmp_path / 'other.sqlite'}"
    assert run("migrate", "--database-url", other, cwd=tmp_path).returncode == 0
    out = run("import", str(export), "--database-url", other, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads(run("replay", demo_fight, "--json", "--database-url", other, cwd=tmp_path).stdout)
    assert data["state"]["notes"][-1] == f"a{sep}b"


def test_demo_ruleset_shell_writes_and_replays_a_shell_fight(tmp_path: Path, db: str) -> None:
    """#10: ``combat-server demo --ruleset shell`` writes the SHELL demo fight and prints its replay."""
    out = run("demo", "--ruleset", "shell", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "fight_created        Fight created with ruleset shell 1.0" in out.stdout
    assert "round_started" in out.stdout and "(S-25, S-26, S-28)" in out.stdout


def test_export_over_an_earlier_file_replaces_it_whole_and_keeps_its_permissions(tmp_path: Path, db: str,
                                                                                  demo_fight: str) -> None:
    earlier = tmp_path / "fight.jsonl"
    earlier.write_text("an earlier export, longer than nothing\n" * 1000)
    earlier.chmod(0o640)
    out = run("export", demo_fight, "-o", str(earlier), "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert earlier.read_text() == run("export", demo_fight, "--database-url", db, cwd=tmp_path).stdout
    assert earlier.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".part")) == []


def test_export_through_a_symlink_writes_the_linked_file_and_keeps_the_link(tmp_path: Path, db: str,
                                                                           demo_fight: str) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    out = run("export", demo_fight, "-o", str(link), "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert link.is_symlink() and real.read_text().startswith('{"') and real.read_text() != "old\n"


def test_export_to_a_device_writes_to_it(tmp_path: Path, db: str, demo_fight: str) -> None:
    """``-o /dev/stdout`` writes the log to standard output; it does not try to rename over the device."""
    out = run("export", demo_fight, "-o", "/dev/stdout", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout == run("export", demo_fight, "--database-url", db, cwd=tmp_path).stdout


def test_export_over_a_writable_file_in_a_folder_it_may_not_write_writes_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No new file may be made beside the target (the folder refuses: the tests run as root, so the refusal
    is the OS call's answer here): the target, which may be written, is written in place, as before."""
    from combat_server import cli

    target = tmp_path / "fight.jsonl"
    target.write_text("old\n")
    real_open = os.open

    def folder_refuses(path: str, *args: object, **kwargs: object) -> int:
        if str(path).endswith(".part"):
            raise PermissionError(13, "Permission denied", path)
        return real_open(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(cli.os, "open", folder_refuses)
    with cli._replacing(str(target)) as out:
        out.write("new\n")
    assert target.read_text() == "new\n"
    with pytest.raises(PermissionError):  # no file to write in place: the refusal stands
        with cli._replacing(str(tmp_path / "new.jsonl")):
            pass
