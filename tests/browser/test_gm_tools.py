"""The GM tools panel (#12) in Chromium, built from ``subscribed.tools``: the GM runs a tool prefilled from
a combatant, reads its steps with their rule ids and applies it; a player sees only the players' tools."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .test_web_fight import _demo, _player

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect


def test_the_gm_runs_a_tool_from_the_panel_and_applies_it(browser: Any, server: ServerProcess, shoot: Any) -> None:
    """Brenna (HT 12, HP 12) in 60 deg F water: like 40 deg F air (V-28); failed by 6 -> 2 HP, as it is."""
    gm = _demo(browser, server)
    panel = gm.locator("#tools-card")
    expect(panel).to_be_visible()
    panel.get_by_label("Tool").select_option(label="Hazards: Cold, heat and water")
    panel.get_by_label("Prefill from").select_option(label="Brenna the Bold")
    expect(panel.locator("[data-path=ht]")).to_have_value("12")
    panel.get_by_label("Temperature (deg F)", exact=True).fill("60")
    panel.get_by_label("Surrounded by").select_option(label="water")
    panel.get_by_label("HT roll failed by").fill("6")
    panel.get_by_label("Loses").select_option(label="hp")
    panel.get_by_role("button", name="Run").click()
    expect(panel.locator(".tool-summary")).to_contain_text("feels like 40 deg F")
    expect(panel.locator(".tool-steps li").first).to_contain_text("(V-28)")
    shoot(gm, "gm-tools-panel", focus=panel)
    panel.locator("#tool-apply-btn").click()
    expect(gm.locator("#roster li[data-cid=brenna] .bar.hp .bar-num")).to_have_text("10/12")
    expect(gm.locator("#log li[data-type=tool_applied]")).to_contain_text("V-28")
    assert gm.js_errors == []
    gm.context.close()


def test_a_player_sees_only_the_players_tools_for_its_own_combatant(browser: Any, server: ServerProcess) -> None:
    """Tam: DX 14, HT 11 -> Basic Speed 25/4, Basic Move 6: standing high jump 26 in, broad 9 ft (G-07)."""
    gm = _demo(browser, server)
    tam = _player(browser, gm, "Tam Quickfingers")
    panel = tam.locator("#tools-card")
    expect(panel.locator("#tool-name option")).to_have_text(["Movement: Jumping", "Strength: Throwing distance"])
    expect(panel.locator("#tool-for option")).to_have_text(["Tam Quickfingers"])
    expect(panel.locator("[data-path=basic_move]")).to_have_value("6")
    panel.get_by_role("button", name="Run").click()
    expect(panel.locator(".tool-summary")).to_have_text("high jump 26 in, broad jump 9 ft")
    expect(panel.locator("#tool-apply-btn")).to_have_count(0)
    assert tam.js_errors == []
    tam.context.close()
    gm.context.close()
