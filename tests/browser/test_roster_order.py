"""The roster's order does not depend on the server process that built the view (a live fight keeps its
combatants as they joined, one restored from a snapshot sorted by id): before combat the page lists
them by id, while combat runs in the turn order."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .helpers import add_from_json, expect, gm_page

pytestmark = pytest.mark.browser


def test_the_roster_is_in_id_order_before_combat_and_in_turn_order_during_it(
        browser: Any, server: ServerProcess) -> None:
    gm = gm_page(browser, server, "Roster order")
    # joining order Zed, Amy, Max; by id amy, max, zed; by Basic Speed (G-13) Max, Amy, Zed
    for name, dx in (("Zed", 8), ("Amy", 12), ("Max", 14)):
        add_from_json(gm, name, "pc", {"dx": dx})
    rows = gm.locator("#roster li.combatant")
    expect(rows).to_have_count(3)
    assert rows.evaluate_all("lis => lis.map((li) => li.dataset.cid)") == ["amy", "max", "zed"]
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#turn .order li")).to_have_count(3)
    order = gm.evaluate("window.combatClient.state.combat.order")
    assert order == ["max", "amy", "zed"]
    expect(rows.first).to_have_attribute("data-cid", "max")
    assert rows.evaluate_all("lis => lis.map((li) => li.dataset.cid)") == order
    assert gm.js_errors == []
    gm.context.close()
