"""Bad GULLIVER input over the protocol (issue #11): each refused with a specific error naming the
field (never internal/*), and the log stays as it was."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.client import ServerError
from combat_server.server import CombatServer

from .conftest import Connect


@pytest.mark.parametrize("body", [[], ["quadruped"], {}, {"body": "humanoid"}])
async def test_a27_a_body_type_that_is_not_text_is_a_bad_field(server: CombatServer, connect: Connect,
                                                                body: Any) -> None:
    """A-63: the size block's body names a location table; a list or an object is no name:
    sheet/bad_field naming gulliver.body, and nothing is appended."""
    gm = await connect()
    created = await gm.create_fight("gurps", options={"hit_locations": True})
    await gm.subscribe(created["token"])
    before = gm.last_seq
    with pytest.raises(ServerError) as err:
        await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc",
                                           "sheet": {"st": 12, "gulliver": {"body": body}}})
    assert (err.value.code, (err.value.details or {}).get("field")) == ("sheet/bad_field", "gulliver.body")
    assert (await gm.replay())[-1]["seq"] == before
