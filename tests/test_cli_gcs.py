"""#13 ``combat-server import-character FIGHT FILE...``: GCS files into a stored fight, by the real console
script against a temporary SQLite file; what the rules cannot use is printed; a bad file exits 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.gcs_samples import ARCHER_GCS, GUNNER_GCS, KNIGHT_GCS
from tests.test_cli import db, demo_fight, run  # noqa: F401  (fixtures)


def _state(tmp_path: Path, db: str, fight: str) -> dict[str, object]:
    out = run("replay", fight, "--json", "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    state: dict[str, object] = json.loads(out.stdout)["state"]
    return state


def test_import_character_adds_each_file_and_lists_what_it_did_not_use(tmp_path: Path, db: str,
                                                                       demo_fight: str) -> None:
    out = run("import-character", demo_fight, str(KNIGHT_GCS), str(GUNNER_GCS), "--side", "npc",
              "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Sir Henryk imported as sir-henryk" in out.stdout and "Wade Dunker imported as wade-dunker" in out.stdout
    assert "  not used: traits the rules do not use:" in out.stdout
    combatants = _state(tmp_path, db, demo_fight)["combatants"]
    assert isinstance(combatants, dict)
    assert combatants["wade-dunker"]["side"] == "npc" and combatants["wade-dunker"]["condition"]["hp"] == 5


def test_import_character_over_a_combatant_keeps_its_hp(tmp_path: Path, db: str, demo_fight: str) -> None:
    assert run("import-character", demo_fight, str(ARCHER_GCS), "--database-url", db, cwd=tmp_path).returncode == 0
    out = run("import-character", demo_fight, str(KNIGHT_GCS), "--combatant", "cordia-springston",
              "--database-url", db, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "re-imported over cordia-springston" in out.stdout
    c = _state(tmp_path, db, demo_fight)["combatants"]["cordia-springston"]  # type: ignore[index]
    assert c["sheet"]["st"] == 15 and c["condition"]["hp"] == 12


def test_import_character_refuses_a_file_that_is_not_a_character(tmp_path: Path, db: str, demo_fight: str) -> None:
    bad = tmp_path / "notes.gcs"
    bad.write_text("just some notes", encoding="utf-8")
    out = run("import-character", demo_fight, str(bad), "--database-url", db, cwd=tmp_path)
    assert out.returncode == 2 and out.stderr.startswith("error: import/not_json: notes.gcs")
    assert "Traceback" not in out.stderr
