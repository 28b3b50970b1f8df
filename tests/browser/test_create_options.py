"""The create-fight form lists the server's rulesets and builds each one's options from the
option specs in ``welcome`` (#9, option specs), grouped, with their help and rule ids; a
fight created with a non-default option chosen in the form has it."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.gurps.gulliver.options import OFFERED
from combat_server.store.sql import open_store

from .conftest import LAPTOP, ServerProcess

pytestmark = pytest.mark.browser

#: The GULLIVER options the gurps ruleset offers (issue #11) at their defaults: switches off, readings the proposal.
GULLIVER_DEFAULTS = {s.name: s.default for s in OFFERED}

expect: Any = pytest.importorskip("playwright.sync_api").expect


def _landing(browser: Any, server: ServerProcess) -> Any:
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(server.url + "/")
    return page


def _stored_options(server: ServerProcess, title: str) -> Any:
    store = open_store(server.database_url)
    try:
        fight = next(f for f in store.fights() if f.title == title)
        return store.events(fight.fight_id, upto=1)[0].payload["options"]
    finally:
        store.dispose()


def test_the_form_offers_the_rulesets_options_by_group(browser: Any, server: ServerProcess) -> None:
    page = _landing(browser, server)
    expect(page.locator("#create-ruleset option")).to_have_text(["gurps 1.0", "shell 1.0"])
    page.locator("#create-options summary").click()
    expect(page.locator("#create-option-groups fieldset legend")).to_have_text(
        ["Posture and movement", "Defence", "Injury", "Rolls", "GULLIVER: damage", "GULLIVER: blowthrough",
         "GULLIVER: the damage-and-shock system", "GULLIVER: death and knockout", "GULLIVER: light",
         "GULLIVER: fatigue", "GULLIVER: monsters", "GULLIVER: Toughness", "GULLIVER: ST damage tables",
         "GULLIVER: hit locations"])
    step = page.get_by_label("Step (yards)")
    expect(step).to_have_value("1")
    assert step.get_attribute("min") == "1" and step.get_attribute("max") == "5"
    expect(page.get_by_label("Posture modifiers")).to_be_checked()
    expect(page.locator(".option[data-option=multiple_parry_penalty] .hint")).to_contain_text("(G-41, A-19)")
    assert page.js_errors == []
    page.context.close()


def test_gulliver_options_chosen_in_the_form_are_stored_with_the_fight(browser: Any, server: ServerProcess) -> None:
    """Issue #11: the wired GULLIVER switches are in the form under their groups, with their V ids."""
    page = _landing(browser, server)
    page.get_by_label("Title").fill("GULLIVER options chosen in the form")
    page.locator("#create-options summary").click()
    expect(page.locator(".option[data-option=new_toughness] .hint")).to_contain_text("(V-63)")
    page.get_by_label("Toughness from ST").check()
    page.get_by_label("Hit locations").check()
    page.get_by_role("button", name="Create fight").click()
    expect(page.locator("#seat-badge")).to_have_text("GM")
    stored = _stored_options(server, "GULLIVER options chosen in the form")
    assert {k for k, v in GULLIVER_DEFAULTS.items() if stored[k] != v} == {"new_toughness", "hit_locations"}
    assert page.js_errors == []
    page.context.close()


def test_a_fight_is_created_with_the_options_chosen_in_the_form(browser: Any, server: ServerProcess) -> None:
    page = _landing(browser, server)
    page.get_by_label("Title").fill("Options chosen in the form")
    page.locator("#create-options summary").click()
    page.get_by_label("Step (yards)").fill("2")
    page.get_by_label("Penalty for repeated parries").check()
    page.get_by_label("Posture modifiers").uncheck()
    page.get_by_role("button", name="Create fight").click()
    expect(page.locator("#seat-badge")).to_have_text("GM")
    assert _stored_options(server, "Options chosen in the form") == {
        "posture_modifiers": False, "step_yards": 2, "multiple_parry_penalty": True,
        "basic_set_wound_multipliers": False, "generic_criticals": True, **GULLIVER_DEFAULTS,
    }
    assert page.js_errors == []
    page.context.close()



def test_create_fight_waits_for_the_servers_list_of_rules(browser: Any, server: ServerProcess) -> None:
    """A GM who clicks "Create fight" before the server's ``welcome`` (which lists its rulesets) would get a
    fight in the server's default ruleset, one the form never showed: the button stays disabled until then."""
    page = browser.new_context(viewport=LAPTOP).new_page()
    page.set_default_timeout(10_000)
    held: list[Any] = []
    routes: list[Any] = []

    def hold_the_server(ws: Any) -> None:
        routes.append(ws)
        ws.connect_to_server().on_message(lambda message: held.append(message))  # held back, not forwarded

    page.route_web_socket("**/ws", hold_the_server)
    page.goto(server.url + "/")
    while not held:  # the welcome has come from the server and is being held back
        page.wait_for_timeout(50)
    create = page.get_by_role("button", name="Create fight")
    expect(create).to_be_disabled()
    expect(page.locator("#create-ruleset option")).to_have_count(0)
    for message in held:
        routes[0].send(message)
    expect(create).to_be_enabled()
    expect(page.locator("#create-ruleset option")).to_have_text(["gurps 1.0", "shell 1.0"])
    page.context.close()
