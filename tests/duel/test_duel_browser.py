"""The duel, a ruleset the web page has never heard of, played in Chromium (#9, "How we know it
is done"): the create-fight form offers its option, the sheet editor comes from its schema, the
strike form from its description, the ward prompt's answers, bars and badges too; undo works."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from combat_server.store.sql import open_store
from tests.browser.conftest import LAPTOP, ServerProcess, _free_port, browser  # noqa: F401 (fixture)

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


class DuelServer(ServerProcess):
    """``serve`` with the duel ruleset registered (tests/duel/serve.py)."""

    module = "tests.duel.serve"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = DuelServer(tmp_path_factory.mktemp("duel") / "fights.sqlite", _free_port())
    proc.start()
    yield proc
    proc.stop()


def _page(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


def _add(gm: Any, name: str, side: str, vigour: int) -> None:
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill(name)
    form.locator("[name=side]").select_option(side)
    form.get_by_label("Vigour").fill(str(vigour))
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li.combatant", has_text=name)).to_be_visible()


def _vigour(page: Any, cid: str) -> Any:
    return page.locator(f"#roster li[data-cid={cid}] .bar.vigour .bar-num")


def _stored_options(server: ServerProcess, title: str) -> Any:
    store = open_store(server.database_url)
    try:
        fight = next(f for f in store.fights() if f.title == title)
        return store.events(fight.fight_id, upto=1)[0].payload["options"]
    finally:
        store.dispose()


def test_a_gm_and_a_player_play_a_duel_in_the_web_page(browser: Any, server: ServerProcess) -> None:  # noqa: F811
    gm = _page(browser, server.url + "/")
    expect(gm.locator("#create-ruleset option")).to_have_text(["duel 1.0", "gurps 1.0", "shell 1.0"])
    gm.locator("#create-ruleset").select_option("duel")
    gm.get_by_label("Title").fill("Duel at dawn")
    gm.locator("#create-options summary").click()
    expect(gm.locator("#create-option-groups fieldset legend")).to_have_text(["Strikes"])
    gm.get_by_label("Fierce bonus").fill("3")
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    assert _stored_options(server, "Duel at dawn") == {"fierce_bonus": 3}

    # the sheet editor is the duel's schema: Vigour and Nimbleness, nothing of GURPS
    expect(gm.locator("#sheet-editor [data-path]")).to_have_count(2)
    _add(gm, "Boris", "npc", 8)
    _add(gm, "Anna", "pc", 12)
    expect(_vigour(gm, "anna")).to_have_text("12/12")
    gm.get_by_role("button", name="Player link: Anna").click()
    anna = _page(browser, gm.locator("#links li[data-label=Anna] input").input_value())
    expect(anna.locator("#seat-badge")).to_have_text("Player · Anna")

    gm.get_by_role("button", name="Begin the duel").click()
    for page in (gm, anna):
        expect(page.locator("#current-name")).to_have_text("Boris")

    # D-2: the GM runs Boris, an NPC: a fierce strike at Anna leaves him exposed
    act = gm.locator("#act")
    act.get_by_label("Target").select_option("anna")
    act.get_by_label("Stance").select_option("fierce")
    act.get_by_role("button", name="Do it: Boris strikes").click()
    for page in (gm, anna):
        expect(page.locator("#roster li[data-cid=boris] .chip")).to_have_text("exposed")

    # D-3: Anna's seat answers the ward prompt; a block halves 5 harm to 2
    prompt = anna.locator("#prompts .prompt.mine")
    expect(prompt).to_contain_text("Boris strikes Anna for 5")
    expect(prompt.locator(".d-num")).to_have_text("3")  # the sidestep's number: her nimbleness
    prompt.get_by_role("button", name="Block").click()
    for page in (gm, anna):
        expect(_vigour(page, "anna")).to_have_text("10/12")
        expect(page.locator("#current-name")).to_have_text("Anna")

    # undo: the block is taken back, Anna has her vigour and the prompt again
    gm.locator("#gm-undo summary").click()
    gm.get_by_role("button", name="Undo last command").click()
    for page in (gm, anna):
        expect(_vigour(page, "anna")).to_have_text("12/12")
    expect(anna.locator("#prompts .prompt.mine")).to_be_visible()
    gm.get_by_role("button", name="Undo last command").click()
    for page in (gm, anna):
        expect(page.locator("#roster li[data-cid=boris] .chip")).to_have_count(0)
    assert gm.js_errors == [] and anna.js_errors == []
    gm.context.close()
    anna.context.close()
