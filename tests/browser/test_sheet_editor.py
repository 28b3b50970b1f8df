"""The Add-a-combatant form is built from the ruleset's sheet schema in ``welcome``
(#9, sheet schema): a field per property with its title and help, its bounds and
choices, weapons as a list that grows; a combatant added through it has the sheet
typed, and a value the server refuses names the field."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.store.sql import open_store

from .conftest import LAPTOP, ServerProcess

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


def _gm(browser: Any, server: ServerProcess, title: str) -> Any:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(server.url + "/")
    page.get_by_label("Title").fill(title)
    page.get_by_role("button", name="Create fight").click()
    expect(page.locator("#seat-badge")).to_have_text("GM")
    page.locator("details:has(#add-form)").evaluate("d => { d.open = true; }")
    return page


def _stored_sheet(server: ServerProcess, title: str, name: str) -> Any:
    store = open_store(server.database_url)
    try:
        fight = next(f for f in store.fights() if f.title == title)
        return next(e.payload["sheet"] for e in store.events(fight.fight_id)
                    if e.type == "combatant_added" and e.payload["name"] == name)
    finally:
        store.dispose()


def test_the_sheet_form_shows_the_schemas_fields_titles_and_bounds(browser: Any, server: ServerProcess) -> None:
    gm = _gm(browser, server, "Sheet form fields")
    form = gm.locator("#add-form")
    st = form.get_by_label("ST", exact=True)
    assert st.get_attribute("min") == "1" and st.get_attribute("max") == "200"
    assert st.get_attribute("placeholder") == "10"
    assert "Strength" in (st.get_attribute("title") or "")
    dtype = form.locator("[data-path='weapons.#.damage_type'] option")
    expect(dtype).to_contain_text(["cr", "cut", "imp"])
    expect(form.get_by_label("HP", exact=True)).to_be_hidden()  # not a primary field: folded under More
    assert gm.js_errors == []
    gm.context.close()


def test_a_combatant_is_added_through_the_generated_sheet_form(browser: Any, server: ServerProcess) -> None:
    title = "Sheet form adds a combatant"
    gm = _gm(browser, server, title)
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Vera")
    form.get_by_label("ST", exact=True).fill("12")
    form.get_by_label("DX", exact=True).fill("13")
    form.locator("#sheet-editor > details.sheet-more > summary").click()
    form.get_by_label("HP", exact=True).fill("15")
    form.locator("[data-path='skills']").fill("Climbing: 12")
    first = form.locator(".sheet-item").nth(0)
    first.locator("[data-path='weapons.#.name']").fill("broadsword")
    first.locator("[data-path='weapons.#.skill']").fill("14")
    first.locator("[data-path='weapons.#.damage']").fill("sw+1")
    first.locator("[data-path='weapons.#.damage_type']").select_option("cut")
    form.get_by_role("button", name="Add weapon").click()
    second = form.locator(".sheet-item").nth(1)
    second.locator("[data-path='weapons.#.name']").fill("bow")
    second.locator("[data-path='weapons.#.kind']").select_option("ranged")
    second.locator("[data-path='weapons.#.skill']").fill("12")
    second.locator("[data-path='weapons.#.damage']").fill("1d")
    second.locator("[data-path='weapons.#.damage_type']").select_option("imp")
    second.locator("summary", has_text="More").click()
    second.locator("[data-path='weapons.#.max_range']").fill("150")
    second.locator("[data-path='weapons.#.parry']").fill("")
    form.get_by_role("button", name="Add combatant").click()
    stats = gm.locator("#roster li.combatant", has_text="Vera").locator(".c-stats")
    expect(stats).to_contain_text("broadsword 14, 1d+3")  # sw for ST 12 is 1d+2, then +1
    expect(stats).to_contain_text("bow 12, 1d")
    sheet = _stored_sheet(server, title, "Vera")
    assert (sheet["st"], sheet["dx"], sheet["hp"], sheet["skills"]) == (12, 13, 15, {"Climbing": 12})
    assert [(w["name"], w["kind"], w["damage_type"], w["max_range"]) for w in sheet["weapons"]] == [
        ("broadsword", "melee", "cut", 0), ("bow", "ranged", "imp", 150)]
    # the form starts afresh for the next combatant
    expect(form.locator(".sheet-item")).to_have_count(1)
    expect(form.get_by_label("ST", exact=True)).to_have_value("")
    assert gm.js_errors == []
    gm.context.close()


def test_a_refused_sheet_field_is_named_and_nothing_is_added(browser: Any, server: ServerProcess) -> None:
    gm = _gm(browser, server, "Sheet form refusal")
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Nameless blade")
    form.locator("[data-path='weapons.#.name']").fill("blade")
    form.locator("[data-path='weapons.#.damage']").fill("sw+x")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator(".toast", has_text="weapons[0].damage")).to_contain_text("sheet/bad_field")
    expect(gm.locator("#roster li.combatant")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()


def test_the_eyes_block_is_typed_in_the_sheet_form(browser: Any, server: ServerProcess) -> None:
    """V-46: the sheet's eyes block is a group of the form, one choice per field: Night Blindness true,
    sunglasses 1 and partial Night Vision are stored as the boolean, the number and the text."""
    title = "Sheet form eyes"
    gm = _gm(browser, server, title)
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Owl")
    form.locator("#sheet-editor > details.sheet-more > summary").click()
    eyes = form.locator("[data-path='eyes']")
    eyes.locator("[data-path='eyes.night_blindness']").select_option(label="true")
    eyes.locator("[data-path='eyes.eyewear']").select_option(label="1")
    eyes.locator("[data-path='eyes.night_vision']").select_option(label="partial")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li.combatant", has_text="Owl")).to_be_visible()
    assert _stored_sheet(server, title, "Owl")["eyes"] == {"night_blindness": True, "eyewear": 1,
                                                            "night_vision": "partial"}
    assert gm.js_errors == []
    gm.context.close()
