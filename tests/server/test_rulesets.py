"""The server's rulesets on the wire (#9): a fight names its ruleset; a client that names
none (written when there was one) gets the server's only ruleset, and is told to choose
when there are several."""

from __future__ import annotations

from typing import Iterator

import pytest

from combat_server.client import ServerError
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.ruleset import get_ruleset, register, unregister

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


async def test_a_fight_created_without_a_ruleset_gets_the_servers_only_ruleset(connect: Connect) -> None:
    gm = await connect()
    created = await gm.create_fight(title="old client")
    subscribed = await gm.subscribe(created["token"])
    assert subscribed["state"]["ruleset"] == "gurps"


async def test_with_several_rulesets_a_fight_must_name_one(connect: Connect, two_rulesets: None) -> None:
    gm = await connect()
    with pytest.raises(ServerError) as err:
        await gm.create_fight(title="which one?")
    assert err.value.code == "fight/ruleset_required"
    assert "gurps, variant" in err.value.message
    created = await gm.create_fight("variant", title="named")
    assert (await gm.subscribe(created["token"]))["state"]["ruleset"] == "variant"
