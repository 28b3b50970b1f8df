"""A rule's short explanation in the project's own words (``Ruleset.rule_texts``, issue #13).

Why: the log, the badges and the roll modifiers cite rule ids (G-36, S-25, A-10); a
player who does not have the catalogue open should still learn what the rule does at
the table. Each ruleset ships these texts as data; clients show them when an id is
clicked (web page) or asked for (``rule ID`` in the terminal client).
"""

from __future__ import annotations

import re
from typing import Mapping

import attrs

from combat_server.rules.model import JSON

#: The shape of a rule id in the catalogue: one or two capital letters, a dash, two or three digits.
RULE_ID = re.compile(r"[A-Z]{1,2}-\d{2,3}")


@attrs.frozen
class RuleText:
    """One rule's id, its catalogue title and one or two sentences of what it does."""

    id: str
    title: str
    text: str

    def to_json(self) -> dict[str, JSON]:
        return {"title": self.title, "text": self.text}


def rule_texts(*entries: tuple[str, str, str]) -> Mapping[str, RuleText]:
    """The texts of a ruleset, by id, from ``(id, title, text)`` rows; a malformed or repeated id,
    or an empty title or text, fails when the ruleset's module is imported, not in a client."""
    out: dict[str, RuleText] = {}
    for rule_id, title, text in entries:
        if not RULE_ID.fullmatch(rule_id):
            raise ValueError(f"rule text {rule_id!r}: not a rule id like G-36")
        if rule_id in out:
            raise ValueError(f"rule text {rule_id}: given twice")
        if not title.strip() or not text.strip():
            raise ValueError(f"rule text {rule_id}: needs a title and a text")
        out[rule_id] = RuleText(rule_id, title, text)
    return dict(sorted(out.items()))


def rule_texts_json(texts: Mapping[str, RuleText]) -> dict[str, JSON]:
    """``welcome.rulesets[].rule_texts``: ``{id: {title, text}}``."""
    return {rule_id: t.to_json() for rule_id, t in sorted(texts.items())}
