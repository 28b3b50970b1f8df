"""#9 leftover, #13: the GM's Adjust form and a ruling's override offer the fields the ruleset
declares (welcome.rulesets[].adjust) with its labels, not fields the page knows by name."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .helpers import add_from_json, expect, gm_page, player_page, stored_events

pytestmark = pytest.mark.browser


def _hp(page: Any, cid: str) -> Any:
    return page.locator(f"#roster li[data-cid={cid}] .bar-num").first


def test_the_adjust_form_offers_the_rulesets_fields_filled_with_the_current_values(
        browser: Any, server: ServerProcess) -> None:
    title = "Adjust from declared fields"
    gm = gm_page(browser, server, title)
    add_from_json(gm, "Vera", "npc", {"st": 12, "ht": 11})  # HP 12 (ST), FP 11 (HT)
    gm.locator("details:has(#adjust-form)").evaluate("d => { d.open = true; }")
    form = gm.locator("#adjust-form")
    expect(form.locator("[data-adjust] label")).to_have_text(["HP", "FP"])
    assert "G-43" in (form.locator("[data-adjust=hp]").get_attribute("title") or "")
    expect(form.get_by_label("HP", exact=True)).to_have_value("12")
    expect(form.get_by_label("FP", exact=True)).to_have_value("11")
    form.get_by_label("FP", exact=True).fill("7")
    form.get_by_label("Reason").fill("ran all night")
    form.get_by_role("button", name="Apply").click()
    expect(gm.locator("#roster li[data-cid=vera] .bar-num").nth(1)).to_have_text("7/11")
    adjusted = [e.payload for e in stored_events(server, title) if e.type == "condition_adjusted"]
    assert adjusted == [{"combatant": "vera", "changes": {"fp": 7}, "before": {"fp": 11}, "reason": "ran all night"}]
    assert gm.js_errors == []
    gm.context.close()


def test_a_ruling_overrides_through_the_declared_fields(browser: Any, server: ServerProcess) -> None:
    title = "Override from declared fields"
    gm = gm_page(browser, server, title)
    add_from_json(gm, "Bob", "pc", {"st": 10})
    bob = player_page(browser, gm, "Bob")
    bob.locator("#log li[data-type=combatant_added]").get_by_role("button", name="Dispute").click()
    bob.get_by_label("What is wrong?").fill("I was hurt before the fight")
    bob.get_by_role("button", name="Send dispute").click()
    ruling = gm.locator("form.dispute-rule")
    expect(ruling.locator("summary")).to_have_text("Override: set HP / FP")
    ruling.locator("summary").click()
    ruling.get_by_label("Combatant", exact=True).select_option("bob")
    expect(ruling.get_by_label("HP", exact=True)).to_have_value("10")
    ruling.get_by_label("HP", exact=True).fill("6")
    ruling.get_by_role("button", name="Override").click()
    expect(_hp(bob, "bob")).to_have_text("6/10")
    assert gm.js_errors == [] and bob.js_errors == []
    gm.context.close()
    bob.context.close()
