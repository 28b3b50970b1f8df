"""#13 a log that follows the table: it follows new events unless the reader scrolled up, then a
button counts them ("N new events ↓"); the ruleset's turn bookkeeping (quiet_events) is folded
away until asked for; Dispute and Undo show on keyboard focus and on touch screens, not only on
hover; the tab title (and, when asked for, a sound) tells a seat that it is its turn."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import PHONE, ServerProcess
from .helpers import add_from_json, expect, gm_page, player_page

pytestmark = pytest.mark.browser


def _note(gm: Any, text: str) -> None:
    form = gm.locator("#note-form")
    form.locator("[name=text]").fill(text)
    form.get_by_role("button", name="Add note").click()
    expect(gm.locator("#log li[data-type=note_added]").last).to_contain_text(text)


def _at_bottom(page: Any) -> bool:
    return bool(page.evaluate("(() => { const ol = document.querySelector('#log');"
                              " return ol.scrollHeight - ol.scrollTop - ol.clientHeight < 80; })()"))


def test_the_log_follows_new_events_unless_scrolled_up_then_counts_them(browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "A log that follows")
    gm.locator("details:has(#note-form)").evaluate("d => { d.open = true; }")
    for n in range(25):
        _note(gm, f"note {n}")
    assert gm.evaluate("document.querySelector('#log').scrollHeight > document.querySelector('#log').clientHeight")
    assert _at_bottom(gm)  # it followed
    expect(gm.locator("#log-new")).to_be_hidden()
    gm.evaluate("document.querySelector('#log').scrollTop = 0")
    _note(gm, "while reading back")
    _note(gm, "and another")
    expect(gm.locator("#log-new")).to_have_text("2 new events ↓")
    assert gm.evaluate("document.querySelector('#log').scrollTop") == 0  # it kept still for the reader
    gm.locator("#log-new").click()
    assert _at_bottom(gm)
    expect(gm.locator("#log-new")).to_be_hidden()
    assert gm.js_errors == []
    gm.context.close()


def test_turn_bookkeeping_folds_into_one_divider_per_turn_until_asked_for(
        browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "Folded bookkeeping")
    add_from_json(gm, "Orc", "npc", {"dx": 14})  # Basic Speed 6: first (G-19), the GM's to run
    add_from_json(gm, "Alice", "pc", {})
    gm.get_by_role("button", name="Start combat").click()
    gm.locator("label.maneuver-choice", has_text="Do nothing").click()
    gm.locator("#go-btn").click()
    expect(gm.locator("#current-name")).to_have_text("Alice")
    quiet = gm.locator("#log li.quiet")
    count = quiet.count()
    assert count >= 3  # a turn started; then its end and the next turn's start
    # folded: one divider per turn, each the run's last event, which names the new turn
    shown = gm.locator("#log li.quiet:visible")
    expect(shown).to_have_count(2)
    expect(shown.nth(0)).to_contain_text("Round 1: Orc's turn")
    expect(shown.nth(1)).to_contain_text("Alice's turn")
    expect(shown.nth(1).get_by_role("button", name="Dispute")).to_be_hidden()
    expect(gm.locator("#quiet-toggle")).to_contain_text(f"Show turn bookkeeping ({count})")
    gm.get_by_label("Show turn bookkeeping").check()
    expect(gm.locator("#log li.quiet:visible")).to_have_count(count)
    gm.get_by_label("Show turn bookkeeping").uncheck()
    expect(gm.locator("#log li.quiet:visible")).to_have_count(2)
    assert gm.js_errors == []
    gm.context.close()


def test_the_tab_title_and_a_sound_tell_a_seat_its_turn_came(browser: Any, server: ServerProcess) -> None:
    title = "Whose turn"
    gm = gm_page(browser, server, title)
    add_from_json(gm, "Alice", "pc", {"dx": 14})  # Basic Speed 6: first (G-19)
    add_from_json(gm, "Orc", "npc", {})
    alice = player_page(browser, gm, "Alice")
    alice.get_by_label("Sound").check()
    expect(alice).to_have_title(f"{title} · combat-server")
    gm.get_by_role("button", name="Start combat").click()
    expect(alice).to_have_title(f"● Your turn · {title} · combat-server")
    expect(gm).to_have_title(f"{title} · combat-server")  # Alice's turn is not the GM's to take
    assert alice.evaluate("window.combatClient.chimes") == 1
    assert gm.evaluate("window.combatClient.chimes || 0") == 0  # the GM did not ask for sound
    assert alice.js_errors == [] and gm.js_errors == []
    gm.context.close()
    alice.context.close()


def test_the_tab_title_tells_the_gm_a_prompt_waits_for_it(browser: Any, server: ServerProcess) -> None:
    title = "Who answers"
    gm = gm_page(browser, server, title, manual_dice=True)
    add_from_json(gm, "Alice", "pc", {"dx": 14})
    add_from_json(gm, "Orc", "npc", {})
    alice = player_page(browser, gm, "Alice")
    gm.get_by_role("button", name="Start combat").click()
    expect(alice).to_have_title(f"● Your turn · {title} · combat-server")
    act = alice.locator("#act")
    act.get_by_label("Target", exact=True).select_option("orc")
    dice = act.locator("#attack-dice .die-input")
    expect(dice).to_have_count(3)
    for i in range(3):
        dice.nth(i).fill("2")  # 6 against DX 14: a hit (G-36), the Orc's defence is the GM's to roll
    act.locator("#go-btn").click()
    expect(gm.locator(".prompt.mine")).to_be_visible()
    expect(gm).to_have_title(f"● Waiting for you · {title} · combat-server")
    expect(alice).to_have_title(f"{title} · combat-server")  # her turn waits on the Orc's answer
    assert alice.js_errors == [] and gm.js_errors == []
    gm.context.close()
    alice.context.close()


def test_dispute_and_undo_show_on_keyboard_focus_and_on_a_touch_screen(browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "Controls without hover")
    entry = gm.locator("#log li.entry").first
    actions = entry.locator(".entry-actions")
    expect(actions).to_have_css("opacity", "0")  # a mouse user sees them on hover
    entry.locator("button.seq").focus()
    expect(actions).to_have_css("opacity", "1")
    ctx = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)  # no hover on a touch screen
    touch = ctx.new_page()
    touch.set_default_timeout(10_000)
    touch.goto(gm.url)
    expect(touch.locator("#log li.entry").first.locator(".entry-actions")).to_have_css("opacity", "1")
    expect(touch.locator("#log li.entry").first.get_by_role("button", name="Undo after")).to_be_visible()
    gm.context.close()
    ctx.close()
