"""#9 item "commands": the specs reach the clients in `subscribed`, so a client can build
and check a command from them instead of keeping its own list of commands and fields."""

from __future__ import annotations

import jsonschema
import pytest

from combat_server.client import ServerError

from .conftest import Table


async def test_subscribed_carries_every_command_spec_of_the_fight(table: Table) -> None:
    reply = await table.alice.subscribe(table.tokens["alice"])
    specs = {s["name"]: s for s in reply["commands"]}
    assert {"note", "undo", "maneuver", "defend", "roll"} <= set(specs)
    maneuver = specs["maneuver"]
    assert maneuver["capability"] == "controls" and maneuver["subject"] == "combatant"
    assert maneuver["gm_fields"] == ["modifiers"]
    check = jsonschema.Draft202012Validator(maneuver["args"])
    assert check.is_valid({"combatant": "alice", "maneuver": "attack", "target": "orc"})
    assert not check.is_valid({"combatant": "alice", "maneuver": "attack", "weapn": "sword"})
    assert specs["undo"]["capability"] == "gm" and specs["undo"]["when_ended"] is True
    assert specs["defend"]["prompt_kind"] == "defend"


async def test_a_spectator_preview_is_refused_by_the_same_table(table: Table) -> None:
    """A spectator seat's principal may send nothing, a preview included (auth/read_only)."""
    with pytest.raises(ServerError) as err:
        await table.spectator.preview("note", {"text": "x"})
    assert err.value.code == "auth/read_only"
