"""Issue #13 in the terminal client: ``rule G-36`` prints what a rule id cited in the log means,
in the ruleset's own short words (welcome.rulesets[].rule_texts); ``help rule`` lists the ids.

The pure parts read a real welcome's rulesets (``rulesets_json``); the pty test drives the
client against a real server.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import pexpect
import pytest

from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.ruleset import rulesets_json
from combat_server.tui import InputError, Local, Send, parse_line, rule_help, rule_text, rule_texts_of

from .conftest import Table, Terminal

GM = {"seat_id": "gm", "role": "gm", "label": "GM", "combatants": []}
G36 = GurpsRuleset.rule_texts["G-36"]


def _welcome() -> dict[str, Any]:
    return {"type": "welcome", "rulesets": rulesets_json()}


def _texts() -> Mapping[str, Any]:
    return rule_texts_of(_welcome(), "gurps")


def _words(text: str) -> str:
    """A pattern for ``text`` that allows the terminal to wrap it anywhere between words."""
    return r"\s+".join(re.escape(w) for w in text.split())


def test_rule_and_an_id_asks_for_the_rules_text_not_a_ruling() -> None:
    assert parse_line("rule G-36", {}, GM) == Local("rule", "G-36")
    assert parse_line("rule g-36", {}, GM) == Local("rule", "G-36")
    assert parse_line("rule 12 uphold fair", {}, GM) == Send(
        "rule", {"dispute": "dispute:12", "verdict": "uphold", "comment": "fair"})


def test_rule_text_is_the_title_then_the_explanation() -> None:
    assert rule_text(_texts(), "G-36") == f"G-36 · {G36.title}\n  {G36.text}"


def test_an_id_without_a_text_is_an_input_error_that_says_where_to_look() -> None:
    with pytest.raises(InputError, match=r"rule Z-99: this fight's rules have no text for it; help rule lists"):
        rule_text(_texts(), "Z-99")


def test_another_rulesets_texts_are_never_used() -> None:
    assert rule_texts_of(_welcome(), "no-such-ruleset") == {}


def test_help_rule_lists_every_id_with_a_text_and_help_rule_id_shows_one() -> None:
    told = rule_help(_texts(), "rule")
    assert told.startswith("rule ID    what a rule id cited in the log means")
    assert "G-01, G-02," in told and "R-21" in told
    assert rule_help(_texts(), "rule G-36") == rule_text(_texts(), "G-36")


def test_a_player_reads_a_rule_text_in_the_terminal(terminal: Terminal, table: Table) -> None:
    alice = terminal(table.server.ws_url, f"--token={table.tokens['alice']}", "--fight", table.fight_id)
    alice.expect_exact("alice> ")
    alice.sendline("rule G-36")
    alice.expect_exact(f"G-36 · {G36.title}")
    alice.expect(_words(G36.text))
    alice.sendline("help rule")
    alice.expect(r"Ids with a text: A-01, .*G-36, .*R-21")
    alice.sendline("rule Z-99")
    alice.expect_exact("error: input: rule Z-99: this fight's rules have no text for it")
    alice.sendline("help")
    alice.expect_exact("rule ID ")
    alice.sendline("quit")
    alice.expect(pexpect.EOF)
