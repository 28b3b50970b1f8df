"""The ``creature`` GM tool of a SHELL fight over real websockets on loopback (#12, S-16): listed in
``subscribed.tools``, run with ``calculate`` prefilled from a combatant, bad input refused naming the
field, nothing appended."""

from __future__ import annotations

from typing import Any, AsyncIterator

import pytest

from combat_server.client import CombatClient, ServerError
from combat_server.server.protocol import validator
from tests.server.conftest import make_server  # noqa: F401  (fixture)
from tests.server.conftest import MakeServer
from tests.shell.table import KNIGHT
from tests.shell.test_bodies import WOLF


@pytest.fixture
async def gm(make_server: MakeServer) -> AsyncIterator[CombatClient]:  # noqa: F811
    """The GM of a SHELL fight with a knight and a wolf (AG 16), on a real server with a SQLite file."""
    server = await make_server()
    client = await CombatClient.connect(server.ws_url)
    await client.wait_until(lambda c: bool(c.welcome), 5)
    created = await client.create_fight("shell", dice_mode="manual", title="the wolf")
    await client.subscribe(created["token"])
    for cid, name, side, sheet in (("knight", "Knight", "pc", KNIGHT), ("wolf", "Wolf", "npc", WOLF)):
        await client.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet})
    yield client
    await client.close()


async def test_subscribed_lists_the_creature_tool(gm: CombatClient) -> None:
    (tool,) = gm.tools
    assert tool["name"] == "creature" and "S-16" in tool["rules"] and "A-63" in tool["rules"]
    assert tool["inputs"]["properties"]["body"]["enum"] == ["humanoid", "quadruped", "centaur"]


async def test_calculate_prefills_ag_from_the_wolf(gm: CombatClient) -> None:
    """The wolf's AG 16, EL 0: predator 5 gives AT 5 + 3 = 8 and dodge 5 + 3 - 1 = 7."""
    reply: dict[str, Any] = await gm.calculate("creature", {"body": "quadruped", "predator": 5}, combatant="wolf")
    assert reply["type"] == "calculation" and (reply["inputs"]["ag"], reply["inputs"]["el"]) == (16, 0)
    assert (reply["result"]["at"], reply["result"]["dodge_def"]) == (8, 7)
    assert "harm" not in reply and "apply" not in reply
    assert not list(validator("calculation").iter_errors(reply))


async def test_calculate_refuses_a_bad_body_naming_the_field_and_appends_nothing(gm: CombatClient) -> None:
    before = gm.last_seq
    with pytest.raises(ServerError) as err:
        await gm.calculate("creature", {"body": "serpent"})
    assert err.value.code == "tool/bad_input" and err.value.details["field"] == "body"
    await gm.command("note", {"text": "after"})
    assert gm.last_seq == before + 1
