"""#14 item 5 on the web page: a weapon's shots are counted on the combatant's card, from the
description's badges; an empty weapon is offered to reload, not to attack with (G-33)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import LAPTOP, ServerProcess
from .test_web_fight import _dice

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect

SNIPER = {"dx": 14, "ht": 12, "weapons": [{"name": "crossbow", "kind": "ranged", "skill": 14, "damage": "thr+4",
                                         "damage_type": "imp", "max_range": 300, "parry": None, "shots": 1,
                                         "reload": 2},
                                        {"name": "knife", "skill": 12, "damage": "thr", "damage_type": "imp"}]}
TARGET = {"dx": 10}


def test_the_shots_left_are_on_the_card_and_an_empty_weapon_is_reloaded(browser: Any, server: ServerProcess) -> None:
    gm = browser.new_context(viewport=LAPTOP).new_page()
    gm.set_default_timeout(10_000)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    gm.goto(server.url + "/")
    gm.get_by_label("Title").fill("Shots")
    gm.locator("input[name=dice_mode][value=manual]").check()
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    form = gm.locator("#add-form")
    for name, side, sheet in (("Sniper", "npc", SNIPER), ("Target", "npc", TARGET)):
        form.locator("[name=name]").fill(name)
        form.locator("[name=side]").select_option(side)
        if not form.get_by_label("Sheet JSON").is_visible():
            form.locator("summary", has_text="paste a sheet").click()
        form.get_by_label("Sheet JSON").fill(json.dumps(sheet))
        form.get_by_role("button", name="Add combatant").click()
        expect(gm.locator("#roster li.combatant", has_text=name)).to_be_visible()
    sniper = gm.locator("#roster li.combatant", has_text="Sniper")
    expect(sniper.locator(".chip", has_text="crossbow: 1/1 shots")).to_be_visible()
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#current-name")).to_have_text("Sniper")  # Basic Speed 6.5 against 5
    act = gm.locator("#act")
    act.locator("label.maneuver-choice", has_text="Attack with a ready weapon").click()
    expect(act.get_by_label("Weapon", exact=True)).to_have_value("crossbow")
    _dice(act, [6, 6, 6])
    act.locator("#go-btn").click()
    expect(gm.locator("#log li[data-type=attack_rolled]")).to_have_count(1)
    expect(sniper.locator(".chip", has_text="crossbow: 0/1 shots")).to_be_visible()
    # 18 misses (G-36): the turn ends; the target does nothing; the sniper's turn again.
    expect(gm.locator("#current-name")).to_have_text("Target")
    act.locator("label.maneuver-choice", has_text="Do nothing").click()
    act.locator("#go-btn").click()
    expect(gm.locator("#current-name")).to_have_text("Sniper")
    act.locator("label.maneuver-choice", has_text="Attack with a ready weapon").click()
    weapons = act.get_by_label("Weapon", exact=True)
    expect(weapons.locator("option", has_text="knife")).to_have_count(1)
    expect(weapons.locator("option", has_text="crossbow")).to_have_count(0)  # empty: not offered
    act.locator("label.maneuver-choice", has_text="Ready a weapon or an item").click()
    expect(act.get_by_label("Weapon to ready", exact=True).locator("option")).to_contain_text(
        ["reload crossbow (0/1 shots; turn 1 of 2)"])
    assert errors == []
    gm.context.close()
