"""The server's rulesets on the wire (#9): a fight names its ruleset; a client that names
none (written when there was one) gets the server's only ruleset, and is told to choose
when there are several."""

from __future__ import annotations

from typing import Iterator

import pytest

from combat_server.client import ServerError
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.ruleset import get_ruleset, register, registered_rulesets, unregister

from .conftest import Connect


class VariantRuleset(GurpsRuleset):
    """A second ruleset, registered only by these tests."""

    name = "variant"
    version = "2.0"


@pytest.fixture
def two_rulesets() -> Iterator[None]:
    get_ruleset("gurps")  # the installed ones are loaded first
    register(VariantRuleset(), "tests/server/test_rulesets.py")
    yield
    unregister("variant", "2.0")


@pytest.fixture
def only_gurps() -> Iterator[None]:
    """A server with one ruleset: the installed ones but gurps are forgotten for the test."""
    others = [r for r in registered_rulesets() if r.name != "gurps"]
    for r in others:
        unregister(r.name, r.version)
    yield
    for r in others:
        register(r, "tests/server/test_rulesets.py")


async def test_a_fight_created_without_a_ruleset_gets_the_servers_only_ruleset(connect: Connect,
                                                                            only_gurps: None) -> None:
    gm = await connect()
    created = await gm.create_fight(title="old client")
    subscribed = await gm.subscribe(created["token"])
    assert subscribed["state"]["ruleset"] == "gurps"


async def test_with_several_rulesets_a_fight_must_name_one(connect: Connect, two_rulesets: None) -> None:
    gm = await connect()
    with pytest.raises(ServerError) as err:
        await gm.create_fight(title="which one?")
    assert err.value.code == "fight/ruleset_required"
    assert "gurps, shell, variant" in err.value.message
    created = await gm.create_fight("variant", title="named")
    assert (await gm.subscribe(created["token"]))["state"]["ruleset"] == "variant"


async def test_welcome_lists_the_rulesets_with_their_versions_and_option_specs(connect: Connect) -> None:
    c = await connect()
    (gurps,) = [r for r in c.welcome["rulesets"] if r["name"] == "gurps"]
    assert gurps["name"] == "gurps" and gurps["version"] == "1.0" and gurps["versions"] == ["1.0"]
    specs = {o["name"]: o for o in gurps["options"]}
    assert specs["step_yards"] == {
        "name": "step_yards", "type": "integer", "default": 1, "label": "Step (yards)",
        "help": "How far a maneuver that allows a step moves the fighter.", "rules": ["G-20", "A-11"],
        "group": "Posture and movement", "minimum": 1, "maximum": 5, "excludes": [], "requires": [],
    }
    assert [o["name"] for o in gurps["options"]] == [s.name for s in GurpsRuleset.option_specs]


async def test_welcome_lists_every_registered_ruleset(connect: Connect, two_rulesets: None) -> None:
    c = await connect()
    assert [(r["name"], r["version"]) for r in c.welcome["rulesets"]] == [("gurps", "1.0"), ("shell", "1.0"),
                                                                         ("variant", "2.0")]


async def test_a_bad_option_is_refused_naming_it_and_its_allowed_values(connect: Connect) -> None:
    gm = await connect()
    with pytest.raises(ServerError) as err:
        await gm.create_fight("gurps", options={"step_yards": 9})
    assert err.value.code == "fight/bad_option"
    assert err.value.message == "option step_yards must be an integer from 1 to 5, got 9"
    assert err.value.details == {"option": "step_yards", "allowed": "an integer from 1 to 5"}
    created = await gm.create_fight("gurps", options={"step_yards": 2})
    assert (await gm.subscribe(created["token"]))["state"]["options"]["step_yards"] == 2


def test_the_protocol_doc_shows_the_schema_of_welcome_rulesets() -> None:
    """docs/protocol.md's JSON Schema of the rulesets and their options is the one the server's welcome uses."""
    import json
    from pathlib import Path

    import combat_server

    root = Path(combat_server.__file__).resolve().parents[1]
    doc = (root / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("### Rulesets and their options", 1)[1]
    shown = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    welcome = json.loads((root / "combat_server" / "schemas" / "welcome.json").read_text(encoding="utf-8"))
    assert shown == {"$defs": welcome["$defs"], **welcome["properties"]["rulesets"]}


def test_a_rulesets_demo_fight_is_in_welcome_and_its_sheets_are_valid() -> None:
    """#9 generic clients: the web page's demo comes from the ruleset (welcome.rulesets[].demo), not
    from a table in the page; every sheet in it is one the ruleset accepts, and a ruleset without
    a demo sends none."""
    from combat_server.rules.ruleset import rulesets_json

    class NoDemo(GurpsRuleset):
        name = "nodemo"
        version = "1.0"
        demo = None

    get_ruleset("gurps")
    register(NoDemo(), "tests/server/test_rulesets.py")
    try:
        by_name = {r["name"]: r for r in rulesets_json()}
    finally:
        unregister("nodemo", "1.0")
    demo = by_name["gurps"]["demo"]
    assert isinstance(demo, dict) and demo["title"]
    sides = [c["side"] for c in demo["combatants"]]
    assert "pc" in sides and "npc" in sides
    gurps = get_ruleset("gurps")
    for c in demo["combatants"]:
        gurps.validate_sheet(c["sheet"])
    assert "demo" not in by_name["nodemo"]


async def test_welcome_carries_each_rulesets_rule_texts_for_clients_to_open(connect: Connect) -> None:
    """#13: a rule id in a client opens the ruleset's own short explanation, sent once in welcome."""
    from combat_server.server.protocol import validate_server_message

    from combat_server.rules.shell.ruleset import ShellRuleset

    c = await connect()
    gurps, shell = c.welcome["rulesets"]
    assert gurps["rule_texts"]["G-36"] == {"title": "Attack roll and critical hits",
                                           "text": GurpsRuleset.rule_texts["G-36"].text}
    assert set(gurps["rule_texts"]) == set(GurpsRuleset.rule_texts)
    assert set(shell["rule_texts"]) == set(ShellRuleset.rule_texts) and "S-25" in shell["rule_texts"]
    validate_server_message(c.welcome)


def test_a_ruleset_without_texts_sends_an_empty_map() -> None:
    """The texts are optional for a ruleset: clients then show the bare id."""
    from combat_server.rules.ruleset import rulesets_json

    class Untold(GurpsRuleset):
        name = "untold"
        version = "1.0"
        rule_texts = {}

    get_ruleset("gurps")
    register(Untold(), "tests/server/test_rulesets.py")
    try:
        by_name = {r["name"]: r for r in rulesets_json()}
    finally:
        unregister("untold", "1.0")
    assert by_name["untold"]["rule_texts"] == {}


def test_the_rulesets_description_is_built_once_and_again_when_the_registry_changes() -> None:
    """Every welcome carries the rulesets' description (about 100 kB): it is built once, not per
    connection, and a ruleset registered or unregistered afterwards is in (or out of) the next one."""
    from combat_server.rules.ruleset import rulesets_json

    class Later(GurpsRuleset):
        name = "later"
        version = "1.0"

    get_ruleset("gurps")
    first = rulesets_json()
    assert rulesets_json() is first
    register(Later(), "tests/server/test_rulesets.py")
    try:
        with_later = rulesets_json()
        assert "later" in {r["name"] for r in with_later}
        assert rulesets_json() is with_later
    finally:
        unregister("later", "1.0")
    assert "later" not in {r["name"] for r in rulesets_json()}
