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


@pytest.mark.parametrize("field,value", [("hp_exact", "abc"), ("hp_exact", "7/2"), ("fp_exact", "1/0"),
                                         ("fp_exact", "57/4")])
async def test_a50_the_exact_hp_and_fatigue_are_the_rules_bookkeeping_not_an_adjustment(
        server: CombatServer, connect: Connect, field: str, value: str) -> None:
    """V-03 / A-50: ``hp_exact`` and ``fp_exact`` hold the fraction the rules kept beside whole HP and FP
    (read only while they match them). The GM sets HP or FP; an adjust of the exact text, well formed or
    not, is adjust/bad_value naming the field, nothing is appended and the fight still plays."""
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="manual", options={"tiny_damage": True, "fatigue_on_st": True})
    await gm.subscribe(created["token"])
    for cid, side in (("alice", "pc"), ("orc", "npc")):
        await gm.command("add_combatant", {"id": cid, "name": cid.title(), "side": side, "sheet": {"st": 12}})
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    before = gm.last_seq
    with pytest.raises(ServerError) as err:
        await gm.command("adjust", {"combatant": "alice", "changes": {field: value}, "reason": "a typo"})
    assert (err.value.code, (err.value.details or {}).get("field")) == ("adjust/bad_value", field)
    assert field in str(err.value) and (await gm.replay())[-1]["seq"] == before
    done = await gm.command("adjust", {"combatant": "alice", "changes": {"hp": 5, "fp": 6}, "reason": "the GM's way"})
    await gm.wait_for_seq(done["last_seq"])
    assert gm.state is not None and gm.state["combatants"]["alice"]["condition"]["hp"] == 5
