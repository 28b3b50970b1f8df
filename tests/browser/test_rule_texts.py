"""#13: a rule id in the page opens a short explanation in our own words, shipped by the ruleset
(welcome.rulesets[].rule_texts), by mouse or keyboard; Escape closes it and gives focus back."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.gurps.rule_texts import RULE_TEXTS

from .conftest import ServerProcess
from .helpers import add_from_json, expect, gm_page

pytestmark = pytest.mark.browser


def test_a_rule_id_opens_the_rulesets_explanation(browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "Rule texts")
    add_from_json(gm, "Alice", "pc", {"dx": 14})
    add_from_json(gm, "Orc", "npc", {})
    gm.get_by_role("button", name="Start combat").click()
    rule = gm.locator("#log li[data-type=combat_started] abbr.rule", has_text="G-19").first
    rule.click()
    pop = gm.locator("#rule-pop")
    expect(pop).to_be_visible()
    expect(gm.locator("#rule-pop-id")).to_have_text("G-19")
    expect(gm.locator("#rule-pop-text")).to_have_text(RULE_TEXTS["G-19"])
    gm.keyboard.press("Escape")
    expect(pop).to_be_hidden()
    expect(rule).to_be_focused()
    # by keyboard: a threshold's rule on the card
    card = gm.locator("#roster li[data-cid=orc] details.c-card")
    card.locator("summary").click()
    g45 = card.locator("abbr.rule", has_text="G-45").first
    g45.focus()
    gm.keyboard.press("Enter")
    expect(gm.locator("#rule-pop-text")).to_have_text(RULE_TEXTS["G-45"])
    gm.locator("#rule-pop-close").click()
    expect(pop).to_be_hidden()
    assert gm.js_errors == []
    gm.context.close()
