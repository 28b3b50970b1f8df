"""The web page's maneuver list comes from the seat's description (#9, describe), not from a
table of its own: it offers what the rules allow now, with their words (G-21 Aim only with a
ranged weapon, G-23 Suppression Fire with RoF 5+, which the page's old table lacked)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from .conftest import LAPTOP, ServerProcess
from .helpers import add_from_json, gm_page

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect

GUNNER = {"dx": 14, "ht": 12, "weapons": [{"name": "smg", "kind": "ranged", "skill": 13, "damage": "2d",
                                         "damage_type": "pi", "rof": 10, "max_range": 100, "parry": None}]}
BRAWLER = {"dx": 10}


def test_the_maneuvers_offered_are_the_descriptions(browser: Any, server: ServerProcess) -> None:
    gm = browser.new_context(viewport=LAPTOP).new_page()
    gm.set_default_timeout(10_000)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    gm.goto(server.url + "/")
    gm.get_by_label("Title").fill("Described maneuvers")
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    form = gm.locator("#add-form")
    for name, side, sheet in (("Gunner", "npc", GUNNER), ("Brawler", "pc", BRAWLER)):
        form.locator("[name=name]").fill(name)
        form.locator("[name=side]").select_option(side)
        if not form.get_by_label("Sheet JSON").is_visible():
            form.locator("summary", has_text="paste a sheet").click()
        form.get_by_label("Sheet JSON").fill(json.dumps(sheet))
        form.get_by_role("button", name="Add combatant").click()
        expect(gm.locator("#roster li.combatant", has_text=name)).to_be_visible()
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#current-name")).to_have_text("Gunner")  # Basic Speed 6.5 against 5
    act = gm.locator("#act")
    choices = act.locator("label.maneuver-choice .m-name")
    expect(choices.first).to_have_text("Attack")
    names = choices.all_inner_texts()
    assert "Aim" in names and "Feint" in names  # G-21: the smg aims; G-30: the punch feints
    act.locator("label.maneuver-choice", has_text="All-Out Attack").click()
    options = act.get_by_label("Option", exact=True).locator("option")
    expect(options).to_contain_text(["Determined", "Suppression Fire"])
    assert errors == []
    gm.context.close()


def test_bars_and_badges_are_the_descriptions(browser: Any, server: ServerProcess) -> None:
    """The roster draws the description's bars (their thresholds' tone and meaning, G-43) and badges
    (label, tone, rule): Brenna at 3 of 12 HP is reeling, as the rules say, not as the page computes."""
    gm = browser.new_context(viewport=LAPTOP).new_page()
    gm.set_default_timeout(10_000)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    gm.goto(server.url + "/")
    expect(gm.locator("#demo-text")).to_contain_text("Brenna the Bold")  # the ruleset's demo, from welcome
    gm.get_by_role("button", name="Open a demo fight").click()
    brenna = gm.locator("#roster li[data-cid=brenna]")
    expect(brenna.locator(".bar").first).not_to_have_class(re.compile(r"tone-"))
    adjust = gm.locator("#adjust-form")
    gm.locator("details:has(#adjust-form)").evaluate("d => { d.open = true; }")
    adjust.get_by_label("Combatant", exact=True).select_option("brenna")
    adjust.get_by_label("HP", exact=True).fill("3")
    adjust.get_by_label("Reason").fill("arrow")
    adjust.get_by_role("button", name="Apply").click()
    hp = brenna.locator(".bar").first
    expect(hp.locator(".bar-num")).to_have_text("3/12")
    expect(hp).to_have_class(re.compile(r"\btone-warn\b"))
    expect(hp).to_have_attribute("title", "reeling: half Move and Dodge (G-43)")
    chip = brenna.locator(".chip", has_text="reeling")
    expect(chip).to_have_class(re.compile(r"\btone-warn\b"))
    expect(chip).to_have_attribute("title", re.compile(r"^G-43: "))
    expect(brenna.locator(".c-stats")).to_contain_text("HP 3/12")
    assert errors == []
    gm.context.close()


def test_the_gm_calls_for_a_fright_check_from_the_described_action(browser: Any, server: ServerProcess) -> None:
    """G-18: the GM's description offers Start combat in setup and the Fright Check in play; the page
    shows each as a card of its fields, and the Fright Check is rolled with the modifier given."""
    gm = browser.new_context(viewport=LAPTOP).new_page()
    gm.set_default_timeout(10_000)
    errors: list[str] = []
    gm.on("pageerror", lambda e: errors.append(str(e)))
    gm.goto(server.url + "/")
    gm.get_by_role("button", name="Open a demo fight").click()
    expect(gm.locator("#gm-actions .gm-action")).to_have_count(1)
    expect(gm.locator("#gm-actions")).to_contain_text("G-19")
    gm.get_by_role("button", name="Start combat").click()
    card = gm.locator("#gm-actions .gm-action[data-action=fright_check]")
    card.get_by_label("Who", exact=True).select_option("brenna")
    card.get_by_label("Modifier", exact=True).fill("-2")
    card.get_by_label("What happens", exact=True).fill("the troll roars")
    card.get_by_role("button", name="Fright Check").click()
    expect(gm.locator("#log li[data-type=fright_check_demanded]")).to_have_count(1)
    # the demo's dice are seeded: the server rolls Brenna's Will at once
    rolled = gm.locator("#log li[data-type=check_rolled]", has_text="rolls for a Fright Check")
    expect(rolled).to_contain_text("-2 the troll roars")
    assert errors == []
    gm.context.close()


ARCHER = {"dx": 14, "ht": 12, "weapons": [
    {"name": "sword", "damage": "sw+1", "damage_type": "cut", "skill": 13, "reach": "1"},
    {"name": "bow", "kind": "ranged", "skill": 13, "damage": "1d+1", "damage_type": "imp", "max_range": 150,
     "parry": None}]}


def test_a_choice_open_only_with_another_fields_value_follows_it(browser: Any, server: ServerProcess) -> None:
    """Choice.when (G-22, G-23): in All-Out Attack the bow is open with Determined, not with Feint; the page
    closes it when Feint is chosen (the selected weapon gives way to the first open one) and opens it again."""
    gm = gm_page(browser, server, "Choices that follow")
    for name, side, sheet in (("Archer", "npc", ARCHER), ("Brawler", "pc", BRAWLER)):
        add_from_json(gm, name, side, sheet)
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#current-name")).to_have_text("Archer")
    act = gm.locator("#act")
    act.locator("label.maneuver-choice", has_text="All-Out Attack").click()
    option, weapon = act.get_by_label("Option", exact=True), act.get_by_label("Weapon", exact=True)
    bow = weapon.locator("option[value=bow]")
    option.select_option("determined")
    expect(bow).to_be_enabled()
    weapon.select_option("bow")
    option.select_option("feint")
    expect(bow).to_be_disabled()
    expect(weapon).not_to_have_value("bow")
    option.select_option("determined")
    expect(bow).to_be_enabled()
    assert gm.js_errors == []
    gm.context.close()
