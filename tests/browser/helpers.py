"""Steps the #13 browser tests share: a GM page on a new fight, a combatant added from sheet JSON,
a second seat's page, and what the store holds (read back from the real SQLite file)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from combat_server.store.sql import open_store

from .conftest import LAPTOP, ServerProcess

expect: Any = pytest.importorskip("playwright.sync_api").expect


def page_at(browser: Any, url: str, viewport: dict[str, int] = LAPTOP) -> Any:
    """A page in a context of its own (its own localStorage), collecting the page's script errors."""
    page = browser.new_context(viewport=viewport).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


def gm_page(browser: Any, server: ServerProcess, title: str, ruleset: str | None = None,
            manual_dice: bool = False) -> Any:
    """The GM's page of a new fight called ``title``, its Add-a-combatant block open."""
    gm = page_at(browser, server.url + "/")
    if ruleset:
        gm.locator("#create-ruleset").select_option(ruleset)
    gm.get_by_label("Title").fill(title)
    if manual_dice:
        gm.get_by_label("We roll physical dice").check()
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    gm.locator("details:has(#add-form)").evaluate("d => { d.open = true; }")
    return gm


def add_from_json(gm: Any, name: str, side: str, sheet: dict[str, Any]) -> None:
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill(name)
    form.locator("[name=side]").select_option(side)
    if not form.get_by_label("Sheet JSON").is_visible():
        form.locator("summary", has_text="paste a sheet").click()
    form.get_by_label("Sheet JSON").fill(json.dumps(sheet))
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li.combatant", has_text=name)).to_be_visible()
    # the form empties when the command's result arrives (after the event): filling it sooner races that
    expect(form.locator("[name=name]")).to_have_value("")


def player_page(browser: Any, gm: Any, name: str) -> Any:
    """The page of the player seat the GM makes for PC ``name`` (its link from the GM's list)."""
    gm.locator("details#gm-seats").evaluate("d => { d.open = true; }")
    gm.get_by_role("button", name=f"Player link: {name}").click()
    page = page_at(gm.context.browser, gm.locator(f"#links li[data-label='{name}'] input").first.input_value())
    expect(page.locator("#seat-badge")).to_have_text(f"Player · {name}")
    return page


def stored_events(server: ServerProcess, title: str) -> list[Any]:
    store = open_store(server.database_url)
    try:
        fight = next(f for f in store.fights() if f.title == title)
        return list(store.events(fight.fight_id))
    finally:
        store.dispose()
