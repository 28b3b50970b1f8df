"""#14 item 6 on the web page: a declared Wait (G-34). Tam waits; when the next combatant starts a
maneuver, the page asks Tam's seat (here the GM, answering for the absent player) before it resolves.
The page renders the ruleset's prompt and its ready-made answers; it knows no ruleset word."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .test_web_fight import _act_for_current, _demo

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


def test_the_waiting_seat_is_asked_when_another_starts_a_maneuver(browser: Any, server: ServerProcess) -> None:
    """G-34: Tam's Wait ('when someone moves', attack); the next combatant chooses Move; the prompt
    "... starts a Move: trigger Tam Quickfingers's Wait" appears with Trigger and Let it pass; the GM
    answers for Tam: let it pass, and the Move resolves."""
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="Wait").click()
    act.get_by_label("Trigger", exact=True).fill("when someone moves")
    act.get_by_label("Then", exact=True).select_option("attack")
    act.locator("#go-btn").click()
    expect(gm.locator("#current-name")).not_to_have_text("Tam Quickfingers")
    expect(gm.locator("#current-name")).to_have_text("Brenna the Bold")  # Basic Speed 6 after Tam's 6.25
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="Move up to your full Move").click()
    act.locator("#go-btn").click()
    card = gm.locator("#prompts .prompt-wait")
    expect(card).to_contain_text("starts a Move: trigger Tam Quickfingers's Wait (“when someone moves”: attack)?")
    card.locator("summary", has_text="Answer for Tam Quickfingers as GM").click()  # a PC's prompt: the GM may answer
    expect(card.get_by_role("button", name="Trigger: Attack")).to_have_count(2)  # rapier, dagger
    card.get_by_role("button", name="Let it pass").click()
    expect(gm.locator("#log li[data-type=wait_passed]")).to_have_count(1)
    expect(gm.locator("#prompts .prompt-wait")).to_have_count(0)
    expect(gm.locator("#log li[data-type=maneuver_chosen]")).to_have_count(2)
    assert gm.js_errors == []
    gm.context.close()
