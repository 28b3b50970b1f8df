"""#13 GCS import over the protocol: the GM imports a .gcs file through a real websocket on loopback,
a player re-imports over its own combatant, a bad file gets its import/ error and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from combat_server.client import ServerError
from combat_server.server import CombatServer
from tests.gcs_samples import ARCHER_GCS, GUNNER_GCS, KNIGHT_GCS

from combat_server.client import CombatClient

from .conftest import Connect


def _combatants(c: CombatClient) -> dict[str, Any]:
    assert c.state is not None
    combatants: dict[str, Any] = c.state["combatants"]
    return combatants


async def test_the_gm_imports_a_gcs_file_and_every_seat_sees_the_combatant(server: CombatServer,
                                                                           connect: Connect) -> None:
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="server")
    await gm.subscribe(created["token"])
    await gm.import_character(GUNNER_GCS, id="wade")
    await gm.wait_until(lambda c: "wade" in _combatants(c))
    wade = _combatants(gm)["wade"]
    assert wade["name"] == "Wade Dunker" and wade["condition"]["hp"] == 5  # the file's stored 7 HP damage
    pushed = [e for e in gm.events if e.type == "character_imported"]
    assert pushed and pushed[0].event["payload"]["file"] == GUNNER_GCS.name
    assert len(pushed[0].event["payload"]["sha256"]) == 64 and "imported from" in pushed[0].explanation


async def test_a_player_reimports_over_its_own_combatant_and_keeps_its_hp(server: CombatServer,
                                                                          connect: Connect) -> None:
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="server")
    await gm.subscribe(created["token"])
    await gm.import_character(ARCHER_GCS, id="cordia")
    await gm.command("adjust", {"combatant": "cordia", "changes": {"hp": 3}, "reason": "an earlier fight"})
    player = await connect()
    await player.subscribe((await gm.add_seat("player", ["cordia"]))["token"])
    await player.import_character(KNIGHT_GCS, combatant="cordia")
    await player.wait_until(lambda c: _combatants(c)["cordia"]["sheet"]["st"] == 15)
    assert _combatants(player)["cordia"]["condition"]["hp"] == 3
    with pytest.raises(ServerError) as err:
        await player.import_character(KNIGHT_GCS)
    assert err.value.code == "auth/gm_only"


async def test_a_file_that_is_not_a_gcs_character_is_refused_with_its_code(server: CombatServer, connect: Connect,
                                                                           tmp_path: Path) -> None:
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="server")
    await gm.subscribe(created["token"])
    bad = tmp_path / "future.gcs"
    bad.write_text('{"version": 9, "attributes": [], "calc": {}}', encoding="utf-8")
    with pytest.raises(ServerError) as err:
        await gm.import_character(bad)
    assert err.value.code == "import/unknown_version" and "future.gcs" in str(err.value)
    assert _combatants(gm) == {}


async def _hidden_import_watched_by_a_player(connect: Connect) -> tuple[CombatClient, CombatClient]:
    """The GM imports the gunner as wade, a hidden NPC, while Alice's player watches: (GM, player)."""
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="server")
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc"})
    player = await connect()
    await player.subscribe((await gm.add_seat("player", ["alice"]))["token"])
    await gm.import_character(GUNNER_GCS, id="wade", side="npc", hidden=True)
    await player.wait_until(lambda c: "wade" in _combatants(c))
    return gm, player


async def test_a_hidden_import_shows_players_neither_sheet_nor_hp_nor_the_unused_list(server: CombatServer,
                                                                                   connect: Connect) -> None:
    gm, player = await _hidden_import_watched_by_a_player(connect)
    seen = next(e for e in player.events if e.type == "character_imported")
    payload = seen.event["payload"]
    assert payload["sheet"] is None and "hp" not in payload and "unused" not in payload
    assert "Not used" not in seen.explanation
    assert _combatants(player)["wade"]["sheet"] is None


async def test_a_hidden_import_names_players_neither_its_file_nor_its_hash(server: CombatServer,
                                                                           connect: Connect) -> None:
    """A player holding a public .gcs file could match the file's name or sha256 to tell which sheet a hidden
    NPC uses: both are left out of the event and its sentence for the player, and kept for the GM."""
    gm, player = await _hidden_import_watched_by_a_player(connect)
    mine = next(e for e in gm.events if e.type == "character_imported")
    digest = mine.event["payload"]["sha256"]
    seen = next(e for e in player.events if e.type == "character_imported")
    assert "file" not in seen.event["payload"] and "sha256" not in seen.event["payload"]
    assert GUNNER_GCS.name not in seen.explanation and digest[:12] not in seen.explanation
    assert seen.explanation == "Wade Dunker (NPC) joins the fight as wade, imported from a GCS file."
    assert mine.event["payload"]["file"] == GUNNER_GCS.name and digest[:12] in mine.explanation
