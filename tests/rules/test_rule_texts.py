"""Issue #13: every rule id a ruleset cites opens a short explanation in the project's own words.

The texts are data in each ruleset package (rules/gurps/rule_texts.py, rules/shell/rule_texts.py);
these tests say which ids must have one, that titles are the catalogue's, and that no text copies
the seeds (the rule books we summarise) or the catalogue's sentences.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping

import pytest

import combat_server
from combat_server.rules.gurps.rule_texts import RULE_TEXTS as GURPS_TEXTS
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.rule_text import RuleText, rule_texts
from combat_server.rules.shell.rule_texts import RULE_TEXTS as SHELL_TEXTS

PACKAGE = Path(combat_server.__file__).resolve().parent
#: <repo>/../shared/rules, looked for above the repository too (a git worktree sits one level deeper).
RULES = next((p / "shared" / "rules" for p in Path(__file__).resolve().parents[2].parents
              if (p / "shared" / "rules" / "CATALOGUE.md").is_file()), Path("../shared/rules"))
SHARED_RUN = 8  # words in a row that no text may share with a seed


def cited_ids(package: str, pattern: str) -> set[str]:
    """The rule ids the package's source cites (its own rule_texts.py aside: it is the answer)."""
    found: set[str] = set()
    for path in (PACKAGE / "rules" / package).rglob("*.py"):
        if path.name != "rule_texts.py":
            found.update(re.findall(pattern, path.read_text(encoding="utf-8")))
    return found


def catalogue_titles() -> dict[str, str]:
    """``#### G-36 · Attack roll and critical hits `[combat-core]``` -> {"G-36": "Attack roll and critical hits"}."""
    text = (RULES / "CATALOGUE.md").read_text(encoding="utf-8")
    return {m[1]: m[2].strip() for m in re.finditer(r"^#### ([GVS]-\d\d) · (.+?) `\[", text, re.M)}


def word_runs(text: str, n: int = SHARED_RUN) -> set[tuple[str, ...]]:
    words = re.findall(r"\w+", text.lower())
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def all_texts() -> Iterable[RuleText]:
    yield from GURPS_TEXTS.values()
    yield from SHELL_TEXTS.values()


def test_every_rule_id_the_gurps_package_cites_has_a_text() -> None:
    cited = cited_ids("gurps", r"\b[GAVR]-\d\d\b")
    assert len(cited) > 50  # the scan found the package's citations
    assert sorted(cited - set(GURPS_TEXTS)) == []


def test_every_gurps_and_gulliver_rule_and_their_readings_have_a_text() -> None:
    """G-01…G-52, V-01…V-68 and the readings A-01…A-55 of sections 1 and 2 of the catalogue."""
    wanted = ({f"G-{n:02d}" for n in range(1, 53)} | {f"V-{n:02d}" for n in range(1, 69)}
              | {f"A-{n:02d}" for n in range(1, 56)})
    assert sorted(wanted - set(GURPS_TEXTS)) == []


def test_every_rule_id_the_shell_package_cites_has_a_text() -> None:
    cited = cited_ids("shell", r"\b[SAR]-\d\d\b")
    assert len(cited) > 40
    assert sorted(cited - set(SHELL_TEXTS)) == []


def test_every_shell_rule_and_reading_has_a_text() -> None:
    """S-01…S-48 and the readings A-56…A-82 of section 3, whether or not the package cites them yet."""
    wanted = {f"S-{n:02d}" for n in range(1, 49)} | {f"A-{n:02d}" for n in range(56, 83)}
    assert sorted(wanted - set(SHELL_TEXTS)) == []


def test_the_gurps_ruleset_sends_its_texts() -> None:
    assert GurpsRuleset.rule_texts is GURPS_TEXTS
    assert GurpsRuleset.rule_texts["G-36"].title == "Attack roll and critical hits"


@pytest.mark.parametrize("texts", [GURPS_TEXTS, SHELL_TEXTS], ids=["gurps", "shell"])
def test_a_rule_texts_title_is_the_catalogues_entry_title(texts: Mapping[str, RuleText]) -> None:
    titles = catalogue_titles()
    assert len(titles) == 52 + 68 + 48
    wrong = {rid: (t.title, titles[rid]) for rid, t in texts.items() if rid in titles and t.title != titles[rid]}
    assert wrong == {}


def test_each_text_is_one_or_two_short_sentences() -> None:
    long = [t.id for t in all_texts() if len(t.text) > 300 or t.text.count(". ") > 1 or not t.text.endswith((".", "…"))]
    assert long == []


def test_no_text_shares_eight_words_in_a_row_with_a_seed() -> None:
    """Our own words: a summary of what the rule does, never the seed's sentences (issue #13)."""
    seeds = sorted((RULES / "seeds").glob("*.txt"))
    assert len(seeds) == 3
    seed_runs: set[tuple[str, ...]] = set()
    for seed in seeds:
        seed_runs |= word_runs(seed.read_text(encoding="utf-8", errors="replace"))
    copied = {t.id: sorted(" ".join(r) for r in word_runs(t.text) & seed_runs) for t in all_texts()}
    assert {k: v for k, v in copied.items() if v} == {}


def test_no_text_copies_a_sentence_of_the_catalogue() -> None:
    """The catalogue restates the seeds for developers; the texts restate it again for players."""
    catalogue = word_runs((RULES / "CATALOGUE.md").read_text(encoding="utf-8"))
    copied = {t.id: sorted(" ".join(r) for r in word_runs(t.text) & catalogue) for t in all_texts()}
    assert {k: v for k, v in copied.items() if v} == {}


def test_a_malformed_or_repeated_rule_id_fails_when_the_ruleset_is_imported() -> None:
    with pytest.raises(ValueError, match="not a rule id"):
        rule_texts(("G36", "Attack", "Roll."))
    with pytest.raises(ValueError, match="G-36: given twice"):
        rule_texts(("G-36", "Attack", "Roll."), ("G-36", "Attack", "Roll again."))
    with pytest.raises(ValueError, match="needs a title and a text"):
        rule_texts(("G-36", "Attack", " "))
