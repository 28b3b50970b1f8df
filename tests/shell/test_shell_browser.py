"""A SHELL fight played in Chromium by a GM and two players, from the generic description alone
(#10): a spell, a block that breaks a shield, an attack into a shield band, a stun, a step into close
combat, a takedown and a pin. Manual dice: every seat types the faces it is asked for."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Iterator

import pytest

from combat_server.client import CombatClient
from tests.browser.conftest import LAPTOP, ServerProcess, _free_port, browser  # noqa: F401 (fixture)
from tests.shell.table import KNIGHT, MAGE, ORC

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect

#: The orc's small shield is worn: HP 8.
ORC_WORN: dict[str, Any] = {**ORC, "shield": {"size": "small", "hp": 8, "weight": 8}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("shell") / "fights.sqlite", _free_port())
    proc.start()
    yield proc
    proc.stop()


async def _fight(server: ServerProcess) -> dict[str, str]:
    """The fight, made over the protocol: a SHELL fight with manual dice, its three combatants, a seat each."""
    async with await CombatClient.connect(f"ws://127.0.0.1:{server.port}/ws") as gm:
        created = await gm.create_fight("shell", dice_mode="manual", title="Harrow bridge")
        await gm.subscribe(created["token"])
        for cid, name, side, sheet in (("knight", "Aldric", "pc", KNIGHT), ("mage", "Maren", "pc", MAGE),
                                       ("orc", "Grask", "npc", ORC_WORN)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet})
        tokens = {"gm": created["token"]}
        for cid in ("knight", "mage"):
            tokens[cid] = (await gm.add_seat("player", [cid], cid))["token"]
        return tokens


def _page(browser: Any, url: str) -> Any:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


def _act(page: Any, choice: str, fields: dict[str, str] | None = None, checks: tuple[str, ...] = ()) -> None:
    """Choose the maneuver whose label has ``choice``, fill its fields, send it."""
    form = page.locator("#maneuver-form")
    form.locator("label.maneuver-choice", has_text=choice).first.click()
    for label, value in (fields or {}).items():
        field = form.get_by_label(label, exact=True)
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    for label in checks:
        form.get_by_label(label).check()
    form.locator("#go-btn").click()


def _answer(page: Any, label: str, dice: tuple[int, ...] = ()) -> None:
    """Answer this seat's prompt: type the dice it asks for, then press the answer (or the roll button)."""
    prompt = page.locator("#prompts .prompt.mine").first
    expect(prompt).to_be_visible()
    for i, face in enumerate(dice):
        prompt.locator(".die-input").nth(i).fill(str(face))
    prompt.get_by_role("button", name=label).first.click()


def _badge(page: Any, cid: str, text: str) -> Any:
    return page.locator(f"#roster li[data-cid={cid}] .chip", has_text=text)


def test_a_gm_and_two_players_play_shell_in_the_web_page(browser: Any, server: ServerProcess) -> None:  # noqa: F811
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        tokens = pool.submit(asyncio.run, _fight(server)).result()
    gm, knight, mage = (_page(browser, f"{server.url}/#token={tokens[k]}") for k in ("gm", "knight", "mage"))
    expect(knight.locator("#seat-badge")).to_have_text("Player · Aldric")
    gm.get_by_role("button", name="Start combat").click()  # S-17: Maren 11, Aldric 10 (AG 12), Grask 10
    for page in (gm, knight, mage):
        expect(page.locator("#current-name")).to_have_text("Maren")

    # S-12 / S-44: Firebolt (time 0) at Grask; 9 on 3d6 against IQ 14 - 3 + 3 = 14
    _act(mage, "casts a spell", {"Spell": "Firebolt", "Target": "orc"})
    _answer(mage, "Use these dice", (2, 3, 4))
    expect(gm.locator("#log")).to_contain_text("Firebolt")
    for page in (gm, knight):
        expect(page.locator("#current-name")).to_have_text("Aldric")

    # S-25 / S-45 / R-12: Aldric attacks Grask, who blocks with the worn shield: R = 8 + 5 - 3 = 10, blocked;
    # the blow (1d+4 rolls 6: 10) is more than the shield's 8 HP: it breaks
    _act(knight, "attacks", {"Target": "orc"})
    _answer(gm, "Block with shield", (4, 4))
    _answer(knight, "Use these dice", (6,))
    for page in (gm, knight, mage):
        expect(_badge(page, "orc", "small shield lost")).to_be_visible()

    # S-25 / A-68: Grask's axe into Aldric's medium shield band: R = 14 + 3 - 5 = 12, the shield is hit
    _act(gm, "attacks", {"Target": "knight"})
    _answer(knight, "Block with shield", (7, 7))
    _answer(gm, "Use these dice", (1, 1))
    expect(gm.locator("#log")).to_contain_text("medium shield takes 3 against its 13 HP and holds")
    for page in (gm, mage):
        expect(page.locator("#current-name")).to_have_text("Maren")

    # S-35 / S-32: Maren's quarterstaff (1d+1 cr rolls 6: 7, - leather 2 = 5) stuns Grask (5 x 3 >= 14)
    _act(mage, "attacks", {"Target": "orc", "Weapon": "quarterstaff"})
    _answer(gm, "Dodge", (10, 10))
    _answer(mage, "Use these dice", (6,))
    expect(_badge(gm, "orc", "stunned")).to_be_visible()

    # S-40: Aldric steps into close combat; Grask lets him in; Grask's stunned turn is lost (S-32)
    _act(knight, "steps into close combat", {"Target": "orc"})
    _answer(gm, "Let it in")
    for page in (gm, knight):
        expect(_badge(page, "knight", "close combat")).to_be_visible()
        expect(page.locator("#current-name")).to_have_text("Maren")
    expect(_badge(gm, "orc", "stunned")).to_have_count(0)

    # S-42 / S-43 / A-80 / R-16: Maren defends; Aldric's takedown, then the pin at once
    _act(mage, "defends")
    _act(knight, "takedown", checks=("Pin at once if it works",))
    _answer(gm, "Dodge", (10, 10))
    expect(_badge(gm, "orc", "knocked down")).to_be_visible()
    _answer(gm, "Dodge", (10, 10))
    for page in (gm, knight, mage):
        expect(_badge(page, "orc", "pinned")).to_be_visible()
        expect(_badge(page, "knight", "pinning")).to_be_visible()
    for page in (gm, knight, mage):
        assert page.js_errors == []
        page.context.close()
