"""#13 links that can be found again: the GM page lists every seat of the fight (list_seats), with
the link this browser kept or, where it kept none (another browser, a cleared one), a New link
button: the seat gets a new token, its old link stops working (a page open with it is closed and
told so), the log records links_reissued."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from .conftest import ServerProcess
from .helpers import add_from_json, expect, gm_page, page_at, player_page

pytestmark = pytest.mark.browser


def test_the_gm_page_lists_every_seat_and_replaces_a_lost_link(browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "Links found again")
    add_from_json(gm, "Alice", "pc", {})
    alice = player_page(browser, gm, "Alice")
    old_link = gm.locator("#links li[data-label=Alice] input").input_value()
    gm.get_by_role("button", name="Spectator link").click()
    expect(gm.locator("#links li")).to_have_count(2)
    gm_link = gm.url

    # the GM's link opened in another browser: it keeps no link, but lists the seats
    again = page_at(browser, gm_link)
    expect(again.locator("#seat-badge")).to_have_text("GM")
    again.locator("details#gm-seats").evaluate("d => { d.open = true; }")
    expect(again.locator("#gm-link")).to_have_value(gm_link)
    rows = again.locator("#links li")
    expect(rows).to_have_count(2)
    lost = again.locator("#links li.lost[data-label=Alice]")
    expect(lost).to_contain_text("link not kept in this browser")
    again.once("dialog", lambda d: d.accept())
    lost.get_by_role("button", name="New link").click()
    new_link = again.locator("#links li[data-label=Alice] input")
    expect(again.locator("#links li.lost[data-label=Alice]")).to_have_count(0)
    fresh = new_link.input_value()
    assert fresh != old_link and "#token=" in fresh
    expect(again.locator("#log li[data-type=links_reissued]")).to_be_visible()
    expect(gm.locator("#log li[data-type=links_reissued]")).to_be_visible()

    # Alice's page, open with the old link, is closed by the server and told so
    expect(alice.locator("#landing")).to_be_visible()
    expect(alice.locator(".toast", has_text="not valid any more")).to_be_visible()
    expect(alice.locator("#banner")).to_be_hidden()
    # the old link no longer joins; the new one does, as Alice
    stale = page_at(browser, old_link)
    expect(stale.locator(".toast")).to_contain_text("not valid any more")
    joined = page_at(browser, fresh)
    expect(joined.locator("#seat-badge")).to_have_text("Player · Alice")
    # the first GM page forgot the link it kept for Alice: it is dead now
    expect(gm.locator("#links li.lost[data-label=Alice]")).to_be_visible()
    for page in (gm, alice, again, stale, joined):
        assert page.js_errors == []
        page.context.close()


def test_the_gms_page_whose_links_were_replaced_says_how_the_gm_gets_new_ones(
        browser: Any, server: ServerProcess) -> None:
    """The links replaced on the command line while the server was down (`combat-server links`, or
    `serve --demo` restarted on the same database): the GM's page, reconnecting, tells the GM the
    command that prints new links, not to ask the GM, and its badge stops saying "joining…"."""
    gm = gm_page(browser, server, "GM link replaced")
    add_from_json(gm, "Alice", "pc", {})
    alice = player_page(browser, gm, "Alice")
    fight = gm.evaluate("window.combatClient.fightId")
    server.stop()
    done = subprocess.run([sys.executable, "-m", "combat_server.cli", "links", fight,
                           "--database-url", server.database_url], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    server.start()
    expect(gm.locator("#landing")).to_be_visible()
    expect(gm.locator(".toast", has_text="not valid any more")).to_contain_text(f"combat-server links {fight}")
    expect(gm.locator(".toast", has_text="not valid any more")).not_to_contain_text("ask the GM")
    expect(gm.locator("#conn")).to_have_text("online")
    expect(gm.locator("#seat-badge")).to_be_hidden()
    # a player's page, refused alike, is told to ask the GM
    expect(alice.locator(".toast", has_text="not valid any more")).to_contain_text("ask the GM for a new one")
    expect(alice.locator("#conn")).to_have_text("online")
    for page in (gm, alice):
        assert page.js_errors == []
        page.context.close()
