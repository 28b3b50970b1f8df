"""#9 leftover, #13: a ruleset that declares no adjustable fields gets its condition's whole-number
and true/false fields in the GM's Adjust form (the duel: vigour and exposed), and adjusting works;
the duel's own card (describe's stats) and sheet edits render like GURPS's."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.browser.conftest import ServerProcess, _free_port, browser  # noqa: F401 (fixture)
from tests.browser.helpers import expect, gm_page, stored_events
from tests.duel.test_duel_browser import DuelServer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = DuelServer(tmp_path_factory.mktemp("duel-adjust") / "fights.sqlite", _free_port())
    proc.start()
    yield proc
    proc.stop()


def test_the_adjust_form_offers_the_condition_fields_of_a_ruleset_that_declares_none(
        browser: Any, server: ServerProcess) -> None:  # noqa: F811
    title = "Duel adjust"
    gm = gm_page(browser, server, title, ruleset="duel")
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Anna")
    form.get_by_label("Vigour").fill("12")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li[data-cid=anna]")).to_be_visible()
    gm.locator("details:has(#adjust-form)").evaluate("d => { d.open = true; }")
    adjust = gm.locator("#adjust-form")
    expect(adjust.locator("[data-adjust] label")).to_have_text(["vigour", "exposed"])
    expect(adjust.get_by_label("vigour")).to_have_value("12")
    adjust.get_by_label("vigour").fill("9")
    adjust.get_by_label("Reason").fill("a bad night")
    adjust.get_by_role("button", name="Apply").click()
    expect(gm.locator("#roster li[data-cid=anna] .bar-num")).to_have_text("9/12")
    # its card, from the duel's own stats: a group and a labelled value with its rule id
    gm.locator("#roster li[data-cid=anna] details.c-card > summary").click()
    stat = gm.locator("#roster li[data-cid=anna] .card-group[data-group=Footwork] .stat[data-label=Sidestep]")
    expect(stat.locator(".stat-value")).to_have_text("3 or less on 1d6")
    expect(stat.locator(".rule")).to_have_text("D-3")
    adjusted = [e.payload["changes"] for e in stored_events(server, title) if e.type == "condition_adjusted"]
    assert adjusted == [{"vigour": 9}]
    assert gm.js_errors == []
    gm.context.close()


def test_a_combatant_of_a_ruleset_the_page_never_heard_of_is_edited_and_removed(
        browser: Any, server: ServerProcess) -> None:  # noqa: F811
    """#13: Edit fills the form the duel's schema built with the combatant's sheet; Save sends
    update_combatant; Remove sends remove_combatant."""
    title = "Duel edit"
    gm = gm_page(browser, server, title, ruleset="duel")
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Boris")
    form.get_by_label("Vigour").fill("8")
    form.get_by_role("button", name="Add combatant").click()
    boris = gm.locator("#roster li[data-cid=boris]")
    expect(boris).to_be_visible()
    expect(form.locator("[name=name]")).to_have_value("")
    boris.get_by_role("button", name="Edit").click()
    expect(form.get_by_label("Vigour")).to_have_value("8")
    expect(form.get_by_label("Nimbleness")).to_have_value("3")
    form.get_by_label("Nimbleness").fill("5")
    form.locator("[name=name]").fill("Boris the Quick")
    form.get_by_role("button", name="Save changes").click()
    expect(boris).to_contain_text("Boris the Quick")
    updated = [e.payload for e in stored_events(server, title) if e.type == "combatant_updated"]
    assert [(p["name"], p["sheet"]) for p in updated] == [("Boris the Quick", {"vigour": 8, "nimbleness": 5})]
    gm.once("dialog", lambda d: d.accept())
    boris.get_by_role("button", name="Remove").click()
    expect(gm.locator("#roster li.combatant")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()
