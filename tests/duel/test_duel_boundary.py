"""No file outside tests/ names the duel or knows its words (#9, "How we know it is done"): the
engine, server, store, web page and terminal client play it from its declarations alone."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from tests.duel.ruleset import COMMANDS, EVENTS, WARD, Condition, DuelRuleset, Sheet
from tests.test_ruleset_boundary import PACKAGE, SCANNED, python_words, web_words

ROOT = PACKAGE.parent


def duel_words() -> frozenset[str]:
    """The duel's own words, as it declares them: its name, commands, events, prompt kind,
    sheet and condition fields and options (not its answers' English, e.g. block, careful)."""
    fields = {f.name for cls in (Sheet, Condition) for f in attrs.fields(cls)}
    options = {spec.name for spec in DuelRuleset.option_specs}
    return frozenset({DuelRuleset.name, WARD} | set(COMMANDS) | set(EVENTS) | fields | options)


def test_the_generic_code_knows_no_duel_word() -> None:
    words = duel_words()
    found = {}
    for part in SCANNED:
        base = PACKAGE / part
        for path in sorted([base] if base.is_file() else base.rglob("*")):
            if path.suffix == ".py":
                hits = python_words(path.read_text(encoding="utf-8"), words)
            elif path.suffix in (".js", ".html", ".css"):
                hits = web_words(path.read_text(encoding="utf-8"), words)
            else:
                continue
            if hits:
                found[path.relative_to(PACKAGE).as_posix()] = sorted(hits)
    assert found == {}


def test_no_file_outside_tests_names_the_duel() -> None:
    named = re.compile(r"\b(?:duel|tests[./]duel|DuelRuleset)\b", re.IGNORECASE)
    files = [p for p in ROOT.rglob("*") if p.is_file() and p.suffix in (".py", ".md", ".js", ".html", ".toml", ".cfg")
             and not p.relative_to(ROOT).parts[0].startswith((".", "tests", "artifacts", "build"))]
    assert files
    assert [p.relative_to(ROOT).as_posix() for p in files if named.search(p.read_text(encoding="utf-8"))] == []


def test_the_scan_finds_a_duel_word_planted_in_a_script() -> None:
    assert web_words('send("ward", {prompt})', duel_words()) == {"ward"}
    assert python_words('x = cond.vigour\n', duel_words()) == {"vigour"}
