"""Issue #13 in the web page: a rule id shown anywhere opens the ruleset's short explanation of it,
in the project's own words (welcome.rulesets[].rule_texts), by mouse or keyboard; Escape closes it."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.gurps.ruleset import GurpsRuleset

from .conftest import LAPTOP, ServerProcess

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


def _gm_with_started_demo(browser: Any, server: ServerProcess) -> Any:
    ctx = browser.new_context(viewport=LAPTOP)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    page.js_errors = []
    page.on("pageerror", lambda e: page.js_errors.append(str(e)))
    page.goto(server.url + "/")
    page.get_by_role("button", name="Open a demo fight").click()
    expect(page.locator("#roster li.combatant")).to_have_count(4)
    page.get_by_role("button", name="Start combat").click()
    expect(page.locator("#log li[data-type=combat_started]")).to_be_visible()
    return page


def test_clicking_a_rule_id_in_the_log_shows_its_title_and_text(browser: Any, server: ServerProcess, shoot: Any) -> None:
    gm = _gm_with_started_demo(browser, server)
    rule = gm.locator("#log li[data-type=combat_started] .expl button.rule").first
    rule_id = rule.get_attribute("data-rule")
    told = GurpsRuleset.rule_texts[rule_id]
    rule.click()
    pop = gm.get_by_role("dialog", name=f"{rule_id} · {told.title}")
    expect(pop).to_be_visible()
    expect(pop).to_contain_text(told.text)
    expect(rule).to_have_attribute("aria-expanded", "true")
    shoot(gm, "60-rule-text-popover", focus=pop)
    assert gm.js_errors == []
    gm.context.close()


def test_escape_closes_the_rule_text_and_focus_returns_to_the_id(browser: Any, server: ServerProcess) -> None:
    gm = _gm_with_started_demo(browser, server)
    rule = gm.locator("#log li[data-type=combat_started] .expl button.rule").first
    rule.focus()
    gm.keyboard.press("Enter")  # a button: the keyboard opens it as a click does
    pop = gm.locator("#rule-pop")
    expect(pop).to_be_visible()
    expect(pop).to_be_focused()
    gm.keyboard.press("Escape")
    expect(pop).to_be_hidden()
    expect(rule).to_be_focused()
    expect(rule).to_have_attribute("aria-expanded", "false")
    gm.context.close()


def test_a_click_elsewhere_closes_the_rule_text(browser: Any, server: ServerProcess) -> None:
    gm = _gm_with_started_demo(browser, server)
    gm.locator("#log li[data-type=combat_started] .expl button.rule").first.click()
    expect(gm.locator("#rule-pop")).to_be_visible()
    gm.locator("#roster").click(position={"x": 5, "y": 5})
    expect(gm.locator("#rule-pop")).to_be_hidden()
    gm.context.close()


def test_a_rule_id_of_a_create_fight_option_opens_its_text(browser: Any, server: ServerProcess) -> None:
    """Before any fight: the ids next to the options come from the chosen ruleset's texts."""
    page = browser.new_page(viewport=LAPTOP)
    page.goto(server.url + "/")
    page.locator("#create-options summary").click()
    option = page.locator("#create-options [data-option=step_yards]")
    option.locator("button.rule[data-rule='A-11']").click()
    told = GurpsRuleset.rule_texts["A-11"]
    expect(page.get_by_role("dialog", name=f"A-11 · {told.title}")).to_contain_text(told.text)
    page.close()


def test_a_modifiers_rule_id_in_the_preview_and_in_the_logged_roll_opens_its_text(browser: Any,
                                                                                 server: ServerProcess) -> None:
    """Move and Attack's −4 (G-32) before the roll (the preview) and on the logged attack roll."""
    gm = _gm_with_started_demo(browser, server)
    act = gm.locator("#act")
    act.locator("summary", has_text="Act for").click()
    act.locator("label.maneuver-choice", has_text="Move and Attack").click()
    told = GurpsRuleset.rule_texts["G-32"]
    gm.locator("#preview button.rule[data-rule='G-32']").first.click()
    expect(gm.get_by_role("dialog", name=f"G-32 · {told.title}")).to_contain_text(told.text)
    gm.keyboard.press("Escape")
    act.locator("#go-btn").click()
    modifier = gm.locator("#log li[data-type=attack_rolled] .mod", has_text="Move and Attack")
    modifier.locator("button.rule[data-rule='G-32']").click()
    expect(gm.get_by_role("dialog", name=f"G-32 · {told.title}")).to_contain_text(told.text)
    assert gm.js_errors == []
    gm.context.close()


def test_tabbing_past_the_rule_text_closes_it_and_returns_to_its_id(browser: Any, server: ServerProcess) -> None:
    """The popover is not modal: Tab past its close button closes it, back on the id it belongs to."""
    gm = _gm_with_started_demo(browser, server)
    rule = gm.locator("#log li[data-type=combat_started] .expl button.rule").first
    rule.click()
    pop = gm.locator("#rule-pop")
    expect(pop).to_be_focused()
    gm.keyboard.press("Tab")  # to its close button, still inside
    expect(pop.get_by_role("button", name="Close the rule")).to_be_focused()
    gm.keyboard.press("Tab")  # past its end
    expect(pop).to_be_hidden()
    expect(rule).to_be_focused()
    gm.context.close()


def test_a_rule_id_on_a_combatants_card_opens_its_text_by_keyboard(browser: Any, server: ServerProcess) -> None:
    """A card stat cites its rule (describe's stats, #13): the HP thresholds' G-45 opens its text with Enter."""
    gm = _gm_with_started_demo(browser, server)
    card = gm.locator("#roster li[data-cid=orc] details.c-card")
    card.locator("summary").click()
    rule = card.locator("button.rule[data-rule='G-45']").first
    rule.focus()
    gm.keyboard.press("Enter")
    told = GurpsRuleset.rule_texts["G-45"]
    pop = gm.get_by_role("dialog", name=f"G-45 · {told.title}")
    expect(pop).to_contain_text(told.text)
    pop.get_by_role("button", name="Close the rule").click()
    expect(pop).to_be_hidden()
    expect(rule).to_be_focused()
    assert gm.js_errors == []
    gm.context.close()
