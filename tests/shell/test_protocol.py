"""A SHELL fight played over the real websocket protocol on loopback: a GM seat and two player seats,
each sending only what its own description offers, with every die typed in (manual dice)."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.client import CombatClient, ServerError
from tests.server.conftest import make_server  # noqa: F401  (fixture)
from tests.server.conftest import MakeServer
from tests.shell.table import KNIGHT, MAGE, ORC


def _action(client: CombatClient, action_id: str) -> dict[str, Any]:
    found = [a for a in (client.description or {}).get("actions", []) if a["id"] == action_id]
    assert found, f"no {action_id} in {[a['id'] for a in (client.description or {}).get('actions', [])]}"
    return found[0]


def _answer(client: CombatClient, label: str) -> dict[str, Any]:
    for prompt in (client.description or {}).get("prompts", []):
        for answer in prompt["answers"]:
            if answer["label"] == label:
                return dict(answer)
    raise AssertionError(f"no answer {label!r} in {client.description}")


def _cond(client: CombatClient, cid: str) -> dict[str, Any]:
    return dict(client.state["combatants"][cid]["condition"])  # type: ignore[index]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def connect(request: pytest.FixtureRequest, make_server: MakeServer) -> Any:  # noqa: F811
    """Clients of a real server on loopback, its store a SQLite file or a PostgreSQL database."""
    url = request.getfixturevalue("pg_databases").new_url() if request.param == "postgresql" else None
    server = await make_server(url=url)
    clients: list[CombatClient] = []

    async def open_client() -> CombatClient:
        client = await CombatClient.connect(server.ws_url)
        clients.append(client)
        await client.wait_until(lambda c: bool(c.welcome), 5)
        return client

    yield open_client
    for client in clients:
        await client.close()


async def test_a_gm_and_two_players_play_a_shell_round(connect: Any) -> None:
    gm = await connect()
    created = await gm.create_fight("shell", dice_mode="manual", title="the bridge")
    await gm.subscribe(created["token"], describe=True)
    for cid, name, side, sheet in (("knight", "Knight", "pc", KNIGHT), ("mage", "Mage", "pc", MAGE),
                                   ("orc", "Orc", "npc", ORC)):
        await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet})
    players: dict[str, CombatClient] = {}
    for cid in ("knight", "mage"):
        seat = await gm.add_seat("player", [cid], cid.title())
        players[cid] = await connect()
        await players[cid].subscribe(seat["token"], describe=True)
    knight, mage = players["knight"], players["mage"]
    assert knight.description["actions"] == []  # type: ignore[index]

    # S-17: initiative knight 10 (AG 12, EL 1), mage 11 (AG 11, EL 0), orc 10 (AG 10): mage, knight, orc
    start = _action(gm, "start")
    await gm.command(start["command"], start["args"])
    await mage.wait_until(lambda c: any(a["id"] == "cast" for a in (c.description or {}).get("actions", [])))
    assert [a["id"] for a in knight.description["actions"]] == []  # type: ignore[index]

    with pytest.raises(ServerError) as err:  # the knight's seat may not act for the mage
        await knight.command("act", {"combatant": "mage", "maneuver": "defend"})
    assert err.value.code.startswith("auth/")

    cast = _action(mage, "cast")
    await mage.command(cast["command"], {**cast["args"], "spell": "Firebolt", "target": "orc"})
    await mage.wait_until(lambda c: bool(c.prompts("roll", "mage")))
    roll = _answer(mage, "Roll")
    assert roll["dice"] == "3d6"
    await mage.command(roll["command"], roll["args"], faces=[[2, 3, 4]])  # 9 against 14: success, 2 END
    await knight.wait_until(lambda c: any(a["id"] == "attack" for a in (c.description or {}).get("actions", [])))
    assert _cond(knight, "mage")["end"] == 8

    attack = _action(knight, "attack")
    await knight.command(attack["command"], {**attack["args"], "target": "orc", "weapon": "long sword"})
    await gm.wait_until(lambda c: bool(c.prompts("defence", "orc")))
    block = _answer(gm, "Block with shield")
    assert block["number"] == 11 + 3 - 5  # DEF 3 (Axe and Shield 3, AG 10) against AT 5: holds on 2d10 <= 9
    await gm.command(block["command"], block["args"], faces=[[6, 6]])  # R = 12 + 5 - 3 = 14: past PR 1, a hit
    await gm.wait_until(lambda c: bool(c.prompts("roll", "knight")))
    damage = _answer(knight, "Roll")
    await knight.command(damage["command"], damage["args"], faces=[[1]])  # 1d+4 = 5, - leather 2 = 3: under HP 14 / 2, no stun
    await gm.wait_until(lambda c: (c.state or {}).get("combat", {}).get("current") == "orc")
    assert _cond(gm, "orc")["wounds"] == {"torso": 3}

    orc_attack = _action(gm, "attack")
    await gm.command(orc_attack["command"], {**orc_attack["args"], "target": "knight"})
    await knight.wait_until(lambda c: bool(c.prompts("defence", "knight")))
    dodge = _answer(knight, "Dodge")
    assert dodge["number"] == 11 + 3 - 3  # DEF 4 + 1 - (1 + EL 1) = 3 against AT 3
    await knight.command(dodge["command"], dodge["args"], faces=[[1, 2]])  # R = 3 + 3 - 3: a miss
    await gm.wait_until(lambda c: (c.state or {}).get("combat", {}).get("round") == 2)
    texts = [e.explanation for e in gm.events if e.type == "attack_resolved"]
    assert texts[-1].endswith("miss (S-25, S-26, S-28).")
