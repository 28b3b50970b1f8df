"""#13 rule texts: every G-, A- and R- rule id the gurps ruleset cites has a short explanation, sent to clients
in welcome.rulesets[].rule_texts, written in our own words (no run of eight words from a seed text)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import combat_server.rules.gurps as gurps_package
from combat_server.rules.gurps.rule_texts import RULE_TEXTS
from combat_server.rules.ruleset import rulesets_json

SEEDS = next((p / "shared" / "rules" / "seeds" for p in Path(__file__).resolve().parents
              if (p / "shared" / "rules" / "seeds").is_dir()), None)


def _cited() -> set[str]:
    root = Path(gurps_package.__file__).parent
    return {m for path in root.rglob("*.py") if path.name != "rule_texts.py"
            for m in re.findall(r"\b[GAR]-\d{2}\b", path.read_text(encoding="utf-8"))}


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def test_every_rule_gurps_cites_has_an_explanation() -> None:
    missing = sorted(_cited() - set(RULE_TEXTS))
    assert not missing, f"rule ids cited in rules/gurps without a text in rule_texts.py: {missing}"
    assert all(10 <= len(text) <= 300 for text in RULE_TEXTS.values())


def test_the_texts_reach_clients_in_welcome() -> None:
    gurps = next(r for r in rulesets_json() if r["name"] == "gurps")
    assert gurps["rule_texts"]["G-43"] == RULE_TEXTS["G-43"]


def test_the_texts_are_our_own_words_not_the_seeds() -> None:
    if SEEDS is None:
        pytest.fail("no ../shared/rules/seeds next to the repository")
    seed_runs: set[tuple[str, ...]] = set()
    for path in SEEDS.rglob("*"):
        if path.is_file():
            words = _words(path.read_text(encoding="utf-8", errors="replace"))
            seed_runs.update(tuple(words[i:i + 8]) for i in range(len(words) - 7))
    copied = {rule: " ".join(run) for rule, text in RULE_TEXTS.items()
              for words in [_words(text)] for i in range(len(words) - 7)
              for run in [tuple(words[i:i + 8])] if run in seed_runs}
    assert not copied, copied
