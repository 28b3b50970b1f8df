"""The GM tools panel (#12) in Chromium, built from ``subscribed.tools``: the GM runs a tool prefilled from
a combatant, reads its steps with their rule ids and applies it; a player sees only the players' tools."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .test_web_fight import _add_by_form, _demo, _dice, _hp, _page, _player

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


def test_a_prefill_of_several_paths_falls_back_to_the_sheets_st(browser: Any, server: ServerProcess) -> None:
    """The lifting tool prefills ["load_st.st", "st"]: Brenna's view has no Load ST (no GULLIVER V-01 in the
    demo), so the page fills her sheet's ST 12 from the second path."""
    gm = _demo(browser, server)
    panel = gm.locator("#tools-card")
    panel.get_by_label("Tool").select_option(label="Strength: Lifting and moving things")
    panel.get_by_label("Prefill from").select_option(label="Brenna the Bold")
    expect(panel.locator("#tool-fields [data-path=st]")).to_have_value("12")
    assert gm.js_errors == []
    gm.context.close()


def _run(panel: Any, tool: str, who: str, **inputs: str) -> None:
    panel.get_by_label("Tool").select_option(label=tool)
    panel.get_by_label("Prefill from").select_option(label=who)
    for name, value in inputs.items():
        field = panel.locator(f"#tool-fields [data-path={name}]")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    panel.get_by_role("button", name="Run").click()


def _apply_to(gm: Any, panel: Any, cid: str, faces: list[int]) -> None:
    for box in panel.locator("#tool-apply input[type=checkbox]").all():
        box.set_checked(box.get_attribute("value") == cid)
    panel.get_by_role("button", name="Apply to the ticked combatants").click()
    dialog = gm.locator("#dice-dialog")
    expect(dialog).to_be_visible()
    _dice(dialog, faces)
    dialog.get_by_role("button", name="Use these dice").click()


def test_the_gm_applies_a_fall_and_a_collision_with_manual_dice(browser: Any, server: ServerProcess,
                                                                 shoot: Any) -> None:
    """Alice (ST 12: HP 12) falls 10 yd onto concrete: 6d-6, rolled as 3d x 2 - 6 (E-17's reading, half HPmax
    absorbed, V-40, R-03): 3, 4, 5 -> 12 x 2 - 6 = 18 injury, HP -6. Bob runs into a stone wall at 20 mph,
    very localised: 2d x 2 (V-31, V-32): 2, 3 -> 10 injury, HP 2."""
    gm = _page(browser, server.url + "/")
    gm.get_by_label("Title").fill("Tools with manual dice")
    gm.get_by_label("We roll physical dice").check()
    gm.get_by_role("button", name="Create fight").click()
    _add_by_form(gm, "Alice", "pc", dx=14, ht=10)
    _add_by_form(gm, "Bob", "pc", dx=11, ht=11)
    panel = gm.locator("#tools-card")
    _run(panel, "Falling: Falling", "Alice", height="10", mass="150", surface="concrete")
    expect(panel.locator("[data-path=hp_max]")).to_have_value("12")
    expect(panel.locator(".tool-summary")).to_contain_text("6d (roll 3d × 2) - 6 cr")
    expect(panel.locator(".tool-steps")).to_contain_text("(V-40")
    _apply_to(gm, panel, "alice", [3, 4, 5])
    expect(_hp(gm, "alice")).to_have_text("-6/12")
    _run(panel, "Collisions: Collision damage", "Bob", speed_a="20", mass_a="150", mass_b="1000000",
         material_b="stone", impact="very_localised")
    expect(panel.locator(".tool-summary")).to_contain_text("4d (roll 2d × 2) cr")
    shoot(gm, "gm-tools-collision", focus=panel)
    _apply_to(gm, panel, "bob", [2, 3])
    expect(_hp(gm, "bob")).to_have_text("2/12")
    expect(gm.locator("#log li[data-type=tool_applied]")).to_have_count(2)
    assert gm.js_errors == []
    gm.context.close()
