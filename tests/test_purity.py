"""The rules are pure: nothing under combat_server/rules/ imports I/O, clocks or randomness."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import combat_server

RULES = Path(combat_server.__file__).parent / "rules"
FORBIDDEN = frozenset({
    "sqlalchemy", "websockets", "asyncio", "structlog", "logging", "random", "time", "datetime", "secrets",
    "os", "socket",
})


def imported_modules(path: Path) -> set[str]:
    """Top-level names of every module ``path`` imports (at any depth in the file)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_finds_rules_modules() -> None:
    """The purity check really looks at the rules package (and its rulesets)."""
    modules = {p.relative_to(RULES).as_posix() for p in RULES.rglob("*.py")}
    assert {"core.py", "model.py", "ruleset.py"} <= modules


def test_detects_a_forbidden_import(tmp_path: Path) -> None:
    """The import scanner sees plain, dotted, from- and nested imports."""
    sample = tmp_path / "sample.py"
    sample.write_text("import os.path\nfrom time import monotonic\ndef f():\n    import random\n")
    assert imported_modules(sample) == {"os", "time", "random"}


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: p.relative_to(RULES).as_posix())
def test_rules_module_imports_nothing_impure(path: Path) -> None:
    """This rules module imports no I/O, clock or randomness module."""
    assert imported_modules(path) & FORBIDDEN == set()
