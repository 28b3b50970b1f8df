"""The GULLIVER size-and-scale block (A-27, catalogue 2.0; issue #11) in the sheet editor: the form
built from the sheet schema shows it as its own group of fields under More, a combatant added
through it has the block in the stored sheet (rationals exact: "1/36"), an edit brings the
block's values back into the form, and a sheet without GULLIVER numbers stores no block."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .helpers import expect, gm_page, stored_events

pytestmark = pytest.mark.browser


def _block(form: Any) -> Any:
    return form.locator("fieldset.sheet-group[data-path='gulliver']")


def test_the_gulliver_block_is_typed_in_the_sheet_editor_and_stored_exactly(
        browser: Any, server: ServerProcess) -> None:
    title = "GULLIVER sheet block"
    gm = gm_page(browser, server, title)
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Pixie")
    form.get_by_label("ST", exact=True).fill("3")
    form.locator("#sheet-editor > details.sheet-more > summary").click()
    block = _block(form)
    expect(block.locator("legend").first).to_have_text("GULLIVER size and scale")
    ls = block.get_by_label("Linear Scale")
    assert "1/36" in (ls.get_attribute("title") or "")  # the help the schema gives
    ls.fill("1/36")
    block.get_by_label("Combat ST").fill("2")
    block.get_by_label("Racial IQ").fill("6")
    block.get_by_label("Monster race").check()
    block.get_by_label("Body type").select_option("quadruped")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li.combatant", has_text="Pixie")).to_be_visible()
    added = next(e.payload["sheet"] for e in stored_events(server, title) if e.type == "combatant_added")
    assert added["gulliver"] == {"linear_scale": "1/36", "combat_st": 2, "racial_iq": 6, "non_pc_race": True,
                                 "body": "quadruped"}

    # an edit brings the block back into the form; a change to one field keeps the others
    gm.locator("#roster li[data-cid=pixie]").get_by_role("button", name="Edit").click()
    expect(block.get_by_label("Linear Scale")).to_have_value("1/36")
    expect(block.get_by_label("Monster race")).to_be_checked()
    block.get_by_label("Linear Scale").fill("0.5")
    form.get_by_role("button", name="Save changes").click()
    expect(gm.locator("#gm-setup > summary")).to_have_text("Add a combatant")
    updated = next(e.payload["sheet"] for e in stored_events(server, title) if e.type == "combatant_updated")
    assert updated["gulliver"] == {"linear_scale": "1/2", "combat_st": 2, "racial_iq": 6, "non_pc_race": True,
                                   "body": "quadruped"}
    assert gm.js_errors == []
    gm.context.close()


def test_a_sheet_without_gulliver_numbers_stores_no_block(browser: Any, server: ServerProcess) -> None:
    title = "No GULLIVER block"
    gm = gm_page(browser, server, title)
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Plain")
    form.get_by_label("ST", exact=True).fill("11")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li.combatant", has_text="Plain")).to_be_visible()
    added = next(e.payload["sheet"] for e in stored_events(server, title) if e.type == "combatant_added")
    assert "gulliver" not in added and added["st"] == 11
    assert gm.js_errors == []
    gm.context.close()


def test_a_refused_block_field_is_named(browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "GULLIVER block refusal")
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Halfling")
    form.locator("#sheet-editor > details.sheet-more > summary").click()
    _block(form).get_by_label("HP of the other half").fill("12")  # V-04 without the other half's locations
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator(".toast", has_text="gulliver.other_half_hp")).to_contain_text("sheet/bad_field")
    expect(gm.locator("#roster li.combatant")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()
