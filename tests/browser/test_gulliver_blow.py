"""Issue #11 acceptance in a browser: a GM creates a gurps fight with several GULLIVER options on
in the create-fight form, sets the light from the described GM action, and plays one blow through
the page (manual dice); every seat's log explains each GULLIVER step citing its V id.

Numbers worked by hand. Hero: club skill 20, 1d cr. Foe: ST 10, HT 10, HP 20, no DR. Options:
hit locations (A-24), the damage-and-shock system (V-08), stun from shock (V-19), brain hits double
shock (V-20), Toughness from ST (V-63), light levels (V-46). The GM sets the light to dim: darkness
-1 (V-46, A-47). Hero aims at the skull (-7): 20 - 1 - 7 = 12; 3d [3, 4, 4] = 11 hits. The foe's
Dodge 8 (Basic Speed 5 + 3) is 7 in the dim light; it does not defend. Damage 1d [4] = 4; skull DR
2 -> 2 penetrating, x4 cr -> 8, less Toughness floor(10 / 5) = 2 -> injury 6: HP 20 -> 14. Shock
6 x 2 for the brain (V-20) = 12 > HPmax / 2 = 10: stunned (V-19, in place of G-46).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ServerProcess
from .helpers import add_from_json, page_at, player_page, stored_events

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect

HERO = {"st": 12, "dx": 12, "ht": 12, "weapons": [{"name": "club", "skill": 20, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "dx": 10, "ht": 10, "hp": 20}
#: The create-fight form's labels of the GULLIVER switches this fight turns on.
SWITCHES = ("Hit locations", "Damage-and-shock system", "Stun from shock", "Brain hits double shock",
            "Toughness from ST", "Light levels")
TITLE = "A GULLIVER blow in the browser"


def _dice(scope: Any, faces: list[int]) -> None:
    inputs = scope.locator(".die-input")
    expect(inputs).to_have_count(len(faces))
    for i, f in enumerate(faces):
        inputs.nth(i).fill(str(f))


def _entry(page: Any, etype: str) -> Any:
    return page.locator(f"#log li[data-type={etype}]").last


def test_a_blow_with_gulliver_options_on_is_explained_with_its_v_ids(browser: Any, server: ServerProcess,
                                                                   shoot: Any) -> None:
    gm = page_at(browser, server.url + "/")
    gm.get_by_label("Title").fill(TITLE)
    gm.get_by_label("We roll physical dice").check()
    gm.locator("#create-options summary").click()
    for label in SWITCHES:
        gm.get_by_label(label, exact=True).check()
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    gm.locator("details:has(#add-form)").evaluate("d => { d.open = true; }")
    add_from_json(gm, "Hero", "pc", HERO)
    add_from_json(gm, "Foe", "npc", FOE)
    player = player_page(browser, gm, "Hero")
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#current-name")).to_have_text("Hero")  # Basic Speed 6 against 5

    # --- V-46: the GM sets the light from the description's action card
    card = gm.locator("#gm-actions .gm-action[data-action=set_light]")
    card.get_by_label("Light", exact=True).select_option("dim")
    card.get_by_label("What happens", exact=True).fill("the lamps gutter")
    card.get_by_role("button", name="Set the light level").click()
    for page in (gm, player):
        expect(_entry(page, "light_changed")).to_contain_text(
            "The GM sets the light to dim, was normal (the lamps gutter): darkness -1 on Vision, attacks and active "
            "defences (A-47) (V-46).")
        expect(page.locator("#roster li[data-cid=foe] .chip", has_text="light: dim")).to_be_visible()

    # --- the hero's player aims at the skull: 20 - 1 (dim) - 7 (skull) = 12, the number the rules preview
    act = player.locator("#act")
    act.get_by_label("Target", exact=True).select_option("foe")
    act.get_by_label("Weapon", exact=True).select_option("club")
    act.get_by_label("Hit location", exact=True).select_option("skull")
    expect(player.locator("#effective-skill")).to_have_text("12")
    expect(player.locator("#preview")).to_contain_text("-1 darkness dim (V-46, A-47)")
    _dice(player.locator("#attack-dice"), [3, 4, 4])
    player.get_by_role("button", name="Attack with these dice").click()

    # --- the foe is the GM's: Dodge 7 in the dim light; no defence
    prompt = gm.locator(".prompt-defend.mine")
    expect(prompt).to_contain_text("Hero hits Foe")
    expect(prompt.locator("button[data-defense=dodge] .d-num")).to_have_text("7")
    prompt.locator("button[data-defense=none]").click()

    # --- the hero's damage: 1d [4] -> injury 6 at the skull, stunned by 12 shock
    roll = player.locator(".prompt-roll.mine")
    expect(roll).to_contain_text("damage")
    _dice(roll, [4])
    roll.get_by_role("button", name="Use these dice").click()
    for page in (gm, player):
        expect(page.locator("#roster li[data-cid=foe] .bar.hp .bar-num")).to_have_text("14/20")
        expect(_entry(page, "attack_rolled")).to_contain_text("-1 darkness dim V-46, A-47")
        expect(_entry(page, "attack_rolled")).to_contain_text("Aimed at the skull (A-24)")
        expect(_entry(page, "damage_rolled")).to_contain_text(
            "club damage to the skull (A-24) [4] = 4 basic; DR 2 -> 2 penetrating (G-42); x4 cr -> 8, less "
            "Toughness 2 of 2 (V-63 (in place of G-42)) -> injury 6")
        expect(_entry(page, "shock_effect")).to_contain_text("Foe is stunned by 12 shock (V-19 (in place of G-46)).")
    shoot(gm, "gulliver-blow-log", focus=_entry(gm, "shock_effect"))

    # the page sent what the log says: the stored events carry the same V ids
    events = {e.type: e.payload for e in stored_events(server, TITLE)}
    assert events["light_changed"] == {"level": "dim", "was": "normal", "reason": "the lamps gutter"}
    assert events["damage_rolled"]["toughness"]["rule"] == "V-63"
    assert events["shock_effect"]["rule"] == "V-19"
    assert gm.js_errors == [] and player.js_errors == []
    gm.context.close()
    player.context.close()
