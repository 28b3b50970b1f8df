"""#13: GCS characters are imported from the web page: files dropped onto the roster (several at
once) or chosen with the picker, by the GM as new combatants and by a player over its own; what the
importer could not use is listed to whoever imported, a file that is not a character or of an
unknown version is refused with its error and appends nothing. The page knows only that a command
takes a file (its spec's ``x-file``), not which ruleset's. The samples are read from ../shared."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.gcs_samples import ARCHER_GCS, KNIGHT_GCS

from .conftest import ServerProcess
from .helpers import add_from_json, expect, gm_page, player_page, stored_events

pytestmark = pytest.mark.browser


def _drop(page: Any, selector: str, files: list[tuple[str, str]]) -> None:
    """Drop files (name, text) onto ``selector`` as a person dragging them from a file manager would."""
    data = page.evaluate_handle("""(files) => {
        const dt = new DataTransfer();
        for (const [name, text] of files) dt.items.add(new File([text], name, { type: "application/json" }));
        return dt;
    }""", files)
    page.dispatch_event(selector, "dragover", {"dataTransfer": data})
    page.dispatch_event(selector, "drop", {"dataTransfer": data})


def _stat(page: Any, cid: str, label: str) -> Any:
    return page.locator(f"#roster li[data-cid='{cid}'] .stat[data-label='{label}'] .stat-value")


def test_two_gcs_files_dropped_on_the_roster_become_combatants_with_gcs_numbers_on_their_cards(
        browser: Any, server: ServerProcess) -> None:
    title = "Import by dropping"
    gm = gm_page(browser, server, title)
    expect(gm.locator("#import-text")).to_contain_text("GURPS Character Sheet (.gcs)")
    _drop(gm, "#roster", [(KNIGHT_GCS.name, KNIGHT_GCS.read_text(encoding="utf-8")),
                          (ARCHER_GCS.name, ARCHER_GCS.read_text(encoding="utf-8"))])
    expect(gm.locator("#roster li.combatant")).to_have_count(2)
    knight = gm.locator("#roster li.combatant", has_text="Sir Henryk")
    expect(knight).to_be_visible()
    expect(gm.locator("#roster li.combatant", has_text="Cordia Springston")).to_be_visible()
    cid = knight.get_attribute("data-cid")
    knight.locator("details.c-card > summary").click()
    # expected-derived.json for the Noble Knight at encumbrance 1: Dodge 12, Move 5; Parry 14 with the
    # broadsword, Block 14 with the Medium Shield (DB 2 and Combat Reflexes in both), torso DR 4
    expect(_stat(gm, cid, "Dodge")).to_have_text("12")
    expect(_stat(gm, cid, "Move")).to_have_text("5")
    expect(_stat(gm, cid, "Parry (Thrusting Broadsword (Swing))")).to_have_text("14")
    expect(_stat(gm, cid, "Block (Medium Shield)")).to_have_text("14")
    expect(_stat(gm, cid, "DR")).to_have_text("4")
    expect(_stat(gm, cid, "DR skull")).to_have_text("6")
    expect(_stat(gm, cid, "Will")).to_have_text("10")
    expect(knight.locator(".bar-num").first).to_have_text("15/15")
    # the importer's leftovers, listed to the GM per file
    report = gm.locator("#import-report li.import-ok", has_text=KNIGHT_GCS.name)
    report.locator("summary").click()
    expect(report.locator("summary")).to_have_text("Not used by the rules (2)")
    expect(report.locator("details li").first).to_contain_text("Bloodlust")
    imported = [e.payload for e in stored_events(server, title) if e.type == "character_imported"]
    assert [p["file"] for p in imported] == [KNIGHT_GCS.name, ARCHER_GCS.name]
    assert gm.js_errors == []
    gm.context.close()


def test_a_file_that_is_not_a_character_or_of_an_unknown_version_is_refused_by_name(
        browser: Any, server: ServerProcess) -> None:
    title = "Import refusals"
    gm = gm_page(browser, server, title)
    future = json.loads(KNIGHT_GCS.read_text(encoding="utf-8"))
    future["version"] = 9
    _drop(gm, "#roster-card", [("notes.txt", "just some notes"), ("future.gcs", json.dumps(future))])
    errors = gm.locator("#import-report li.import-error")
    expect(errors).to_have_count(2)
    expect(errors.filter(has_text="notes.txt")).to_contain_text("import/not_json")
    expect(errors.filter(has_text="future.gcs")).to_contain_text("import/unknown_version")
    expect(errors.filter(has_text="future.gcs")).to_contain_text("version 9")
    expect(gm.locator("#roster li.combatant")).to_have_count(0)
    assert [e.type for e in stored_events(server, title)] == ["fight_created"]
    assert gm.js_errors == []
    gm.context.close()


def test_a_player_loads_a_file_over_its_own_combatant_with_the_picker_and_keeps_its_hp(
        browser: Any, server: ServerProcess) -> None:
    title = "Player re-import"
    gm = gm_page(browser, server, title)
    _drop(gm, "#roster", [(KNIGHT_GCS.name, KNIGHT_GCS.read_text(encoding="utf-8"))])
    knight = gm.locator("#roster li.combatant", has_text="Sir Henryk")
    expect(knight).to_be_visible()
    cid = knight.get_attribute("data-cid")
    gm.locator("details:has(#adjust-form)").evaluate("d => { d.open = true; }")
    gm.locator("#adjust-form").get_by_label("HP", exact=True).fill("9")
    gm.locator("#adjust-form").get_by_label("Reason").fill("old wound")
    gm.locator("#adjust-form").get_by_role("button", name="Apply").click()
    expect(knight.locator(".bar-num").first).to_have_text("9/15")
    player = player_page(browser, gm, "Sir Henryk")
    expect(player.locator("#import-text")).to_contain_text("update your combatant")
    player.locator("#import-files").set_input_files(str(ARCHER_GCS))  # a level-up, of sorts: another sheet
    expect(player.locator("#import-report li.import-ok")).to_contain_text(ARCHER_GCS.name)
    # the archer's sheet (HP 12), Sir Henryk's name and his current 9 HP
    expect(player.locator(f"#roster li[data-cid='{cid}'] .bar-num").first).to_have_text("9/12")
    expect(_stat(player, cid, "Dodge")).to_have_text("9")
    imported = [e.payload for e in stored_events(server, title) if e.type == "character_imported"]
    assert imported[-1]["replaced"] is True and imported[-1]["id"] == cid
    assert gm.js_errors == [] and player.js_errors == []
    gm.context.close()
    player.context.close()


def test_a_file_dropped_on_a_combatant_updates_that_combatant(browser: Any, server: ServerProcess) -> None:
    title = "GM re-import by dropping"
    gm = gm_page(browser, server, title)
    _drop(gm, "#roster", [(KNIGHT_GCS.name, KNIGHT_GCS.read_text(encoding="utf-8"))])
    knight = gm.locator("#roster li.combatant", has_text="Sir Henryk")
    expect(knight).to_be_visible()
    cid = knight.get_attribute("data-cid")
    _drop(gm, f"#roster li[data-cid='{cid}'] .c-name", [(ARCHER_GCS.name, ARCHER_GCS.read_text(encoding="utf-8"))])
    expect(gm.locator("#import-report li.import-ok", has_text=ARCHER_GCS.name)).to_be_visible()
    expect(gm.locator("#roster li.combatant")).to_have_count(1)  # the same combatant, not a new one
    # the archer's HP 12 as the maximum; the knight's current 15 HP is kept but capped at it (#13)
    expect(knight.locator(".bar-num").first).to_have_text("12/12")
    imported = [e.payload for e in stored_events(server, title) if e.type == "character_imported"]
    assert [(p["replaced"], p["id"]) for p in imported] == [(False, cid), (True, cid)]
    assert gm.js_errors == []
    gm.context.close()


def test_the_gm_imports_a_file_as_a_hidden_npc_whose_sheet_never_reaches_a_player(
        browser: Any, server: ServerProcess) -> None:
    """The command's side and hidden fields are offered before a file is sent (docs/gurps.md, GCS import):
    choosing NPC ticks Hidden, and the sheet, the file's name and its numbers never reach a player's page."""
    title = "Import a hidden NPC"
    gm = gm_page(browser, server, title)
    add_from_json(gm, "Alice", "pc", {})
    gm.locator("details#gm-seats").evaluate("d => { d.open = true; }")
    gm.get_by_role("button", name="Player link: Alice").click()
    link = gm.locator("#links li[data-label='Alice'] input").first.input_value()
    player = browser.new_context().new_page()
    frames: list[str] = []
    player.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    player.goto(link)
    expect(player.locator("#seat-badge")).to_have_text("Player · Alice")

    fields = gm.locator("#import-fields")
    fields.get_by_label("Side").select_option("npc")
    expect(fields.get_by_label("Hidden from players")).to_be_checked()
    gm.locator("#import-files").set_input_files(str(KNIGHT_GCS))
    expect(gm.locator("#import-report li.import-ok")).to_contain_text(KNIGHT_GCS.name)
    knight = player.locator("#roster li.combatant", has_text="Sir Henryk")
    expect(knight.locator(".tag", has_text="hidden")).to_be_visible()
    expect(knight.locator(".side")).to_have_text("NPC")
    imported = [e.payload for e in stored_events(server, title) if e.type == "character_imported"]
    assert [(p["side"], p["hidden"]) for p in imported] == [("npc", True)]
    assert [e.type for e in stored_events(server, title)][-1] == "character_imported"  # no Hide sheet needed
    cid = imported[0]["id"]
    assert player.evaluate(f"window.combatClient.state.combatants[{json.dumps(cid)}].sheet") is None
    # the knight's broadsword is only in its sheet; the file's name only in the GM's report
    assert not [f for f in frames if "Broadsword" in f or KNIGHT_GCS.name in f]
    gm.context.close()
    player.context.close()


def test_the_import_fields_start_at_the_defaults_the_command_declares(browser: Any, server: ServerProcess) -> None:
    """Without a choice, a file imports as the rules' default new combatant (a visible PC), the defaults the
    command's spec declares; a player, who only loads over its own, is offered no such fields."""
    title = "Import defaults"
    gm = gm_page(browser, server, title)
    fields = gm.locator("#import-fields")
    expect(fields.get_by_label("Side")).to_have_value("pc")
    expect(fields.get_by_label("Hidden from players")).not_to_be_checked()
    _drop(gm, "#roster", [(ARCHER_GCS.name, ARCHER_GCS.read_text(encoding="utf-8"))])
    expect(gm.locator("#roster li.combatant", has_text="Cordia Springston")).to_be_visible()
    imported = [e.payload for e in stored_events(server, title) if e.type == "character_imported"]
    assert [(p["side"], p["hidden"]) for p in imported] == [("pc", False)]
    player = player_page(browser, gm, "Cordia Springston")
    expect(player.locator("#import-text")).to_contain_text("update your combatant")
    expect(player.locator("#import-fields")).to_be_hidden()
    assert gm.js_errors == [] and player.js_errors == []
    gm.context.close()
    player.context.close()
