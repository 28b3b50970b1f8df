"""The GULLIVER docs stay true (issue #11): docs/gulliver.md lists every option with its
rule id, and docs/rules-coverage.md has a row for every V id whose tests exist."""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from combat_server.rules.gurps.gulliver.options import OPTION_SPECS, SUPPORT, SWITCHES

ROOT = Path(__file__).resolve().parents[3]
GUIDE = (ROOT / "docs" / "gulliver.md").read_text(encoding="utf-8")
COVERAGE = (ROOT / "docs" / "rules-coverage.md").read_text(encoding="utf-8")
TESTS = Path(__file__).resolve().parent


def _v_rows() -> dict[str, str]:
    return {m.group(1): m.group(0) for m in re.finditer(r"^\| (V-\d\d) \|.*$", COVERAGE, re.M)}


def test_the_guide_lists_every_option_with_its_rule() -> None:
    """Each option's row in gulliver.md names it and its first rule id."""
    for spec in OPTION_SPECS:
        rows = [line for line in GUIDE.splitlines() if line.startswith(f"| `{spec.name}` |")]
        assert rows and spec.rules[0] in rows[0], spec.name


def test_coverage_has_a_row_for_every_v_id() -> None:
    """rules-coverage.md lists V-01 ... V-68, once each."""
    assert sorted(_v_rows()) == [f"V-{n:02d}" for n in range(1, 69)]


def test_every_test_the_coverage_names_exists() -> None:
    """Each ``file.py::pattern`` in a V row matches a test in tests/gurps/gulliver/."""
    names: dict[str, list[str]] = {}
    for path in TESTS.glob("test_*.py"):
        names[path.name] = re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)
    checked = 0
    for row in _v_rows().values():
        last_file = ""
        for ref in re.findall(r"`((?:test_\w+\.py)?(?:::)?[\w*]+)`", row.split("|")[5]):
            file, _, pattern = ref.partition("::")
            if not pattern:
                continue
            last_file = file or last_file
            assert any(fnmatch.fnmatch(n, pattern) for n in names[last_file]), f"{last_file}::{pattern}"
            checked += 1
    assert checked > 60  # every combat-option row names its tests


def _section(title: str) -> str:
    start = GUIDE.index(f"\n## {title}\n")
    end = GUIDE.find("\n## ", start + 1)
    return GUIDE[start:end if end != -1 else len(GUIDE)]


def test_each_switch_has_one_row_in_the_options_table_and_one_in_the_wired_table() -> None:
    """gulliver.md's "The options" and "Wired and offered" each hold one row per switch (no row of
    one table's format inside the other)."""
    switches = [spec.name for spec in (*SWITCHES, *SUPPORT)]
    for title in ("The options", "Wired and offered"):
        text = _section(title)
        for name in switches:
            rows = [line for line in text.splitlines() if line.startswith(f"| `{name}` |")]
            assert len(rows) == 1, (title, name, len(rows))
