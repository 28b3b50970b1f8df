"""SHELL's GM tool in Chromium (#12, S-16): the GM tools panel of a SHELL fight, built from
``subscribed.tools`` alone, runs ``creature`` prefilled from a wolf and lists its steps with their ids."""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Iterator

import pytest

from combat_server.client import CombatClient
from tests.browser.conftest import ServerProcess, _free_port, browser  # noqa: F401 (fixture)
from tests.shell.table import KNIGHT
from tests.shell.test_bodies import WOLF
from tests.shell.test_shell_browser import _page

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    proc = ServerProcess(tmp_path_factory.mktemp("creature") / "fights.sqlite", _free_port())
    proc.start()
    yield proc
    proc.stop()


async def _fight(server: ServerProcess) -> str:
    """A SHELL fight with a knight and a wolf, made over the protocol; the GM's token."""
    async with await CombatClient.connect(f"ws://127.0.0.1:{server.port}/ws") as gm:
        created = await gm.create_fight("shell", dice_mode="manual", title="the wolf")
        await gm.subscribe(created["token"])
        for cid, name, side, sheet in (("knight", "Aldric", "pc", KNIGHT), ("wolf", "Grey Wolf", "npc", WOLF)):
            await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet})
        return str(created["token"])


def test_the_gm_runs_the_creature_tool_prefilled_from_the_wolf(browser: Any, server: ServerProcess) -> None:  # noqa: F811
    """The wolf's AG 16: predator 5 gives AT 5 + 3 = +8 and dodge 5 + 3 - 1 = +7 (S-26, S-03); its face -2 (A-63)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        token = pool.submit(asyncio.run, _fight(server)).result()
    gm = _page(browser, f"{server.url}/#token={token}")
    panel = gm.locator("#tools-card")
    expect(panel).to_be_visible()
    panel.get_by_label("Tool").select_option(label="Creatures: Animal or alien")
    panel.get_by_label("Prefill from").select_option(label="Grey Wolf")
    expect(panel.locator("[data-path=ag]")).to_have_value("16")
    panel.get_by_label("Body type").select_option(label="quadruped")
    panel.get_by_role("button", name="Run").click()
    expect(panel.locator(".tool-summary")).to_contain_text("AT +8, dodge DEF +7")
    expect(panel.locator(".tool-steps li", has_text="quadruped face")).to_contain_text("S-16")
    expect(panel.locator("#tool-apply-btn")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()
