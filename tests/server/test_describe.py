"""A seat that asks for it gets describe(state, viewer) on a real server on loopback (#9,
describe): in ``subscribed``, then a ``description`` message whenever its own description
changes, and none when it does not; a seat that did not ask gets none."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import jsonschema

from combat_server.client import CombatClient
from combat_server.server import CombatServer
from combat_server.server.protocol import schema, validate_server_message

Connect = Callable[..., Awaitable[CombatClient]]
SWORD = {"name": "broadsword", "skill": 12, "damage": "sw+1", "damage_type": "cut"}
DESCRIPTION = jsonschema.Draft202012Validator({"$ref": "#/$defs/description", "$defs": schema("description")["$defs"]})


async def _fight(connect: Connect) -> tuple[CombatClient, CombatClient, CombatClient]:
    """A GM, Alice's player and a spectator; Alice (PC) and a hidden Orc (NPC, ST 14, HP 3 left)."""
    gm = await connect(record=True)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="describe")
    await gm.subscribe(created["token"], describe=True)
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": {"weapons": [SWORD]}})
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": {"st": 14},
                                       "hidden": True})
    await gm.command("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "wounded earlier"})
    alice, watcher = await connect(record=True), await connect(record=True)
    await alice.subscribe((await gm.add_seat("player", ["alice"], "Alice"))["token"], describe=True)
    await watcher.subscribe((await gm.add_seat("spectator", [], "watcher"))["token"], describe=True)
    return gm, alice, watcher


def _descriptions(client: CombatClient) -> list[dict[str, Any]]:
    return [m for m in client.received or [] if m["type"] == "description"]


async def test_a_seat_gets_its_description_when_it_subscribes(server: CombatServer, connect: Connect) -> None:
    gm, alice, watcher = await _fight(connect)
    subscribed = next(m for m in alice.received or [] if m["type"] == "subscribed")
    validate_server_message(subscribed)
    DESCRIPTION.validate(subscribed["description"])
    assert alice.description == subscribed["description"]
    assert alice.description["actions"] == []  # setup: the GM starts combat
    assert [a["id"] for a in gm.description["actions"]] == ["start_combat"]  # type: ignore[index]
    # The hidden Orc: its HP (3 of 14) reaches the GM only.
    orc_line = {s["combatant"]: s["text"] for s in alice.description["summaries"]}["orc"]
    assert orc_line == "Orc (NPC)"
    assert "3/14" not in str(alice.description) and "3/14" not in str(watcher.description)
    assert {s["combatant"]: s["text"] for s in gm.description["summaries"]}["orc"].startswith(  # type: ignore[index]
        "Orc (NPC): HP 3/14")


async def test_a_change_pushes_each_seat_its_new_description(server: CombatServer, connect: Connect) -> None:
    gm, alice, watcher = await _fight(connect)
    before = len(_descriptions(alice))
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    await alice.wait_until(lambda c: any(a["id"] == "attack" for a in (c.description or {}).get("actions", [])))
    pushed = _descriptions(alice)[before:]
    assert pushed, "Alice's turn: her seat is told what she can do"
    for m in pushed:
        validate_server_message(m)
        assert m["fight_id"] == gm.fight_id
    attack = next(a for a in alice.description["actions"] if a["id"] == "attack")  # type: ignore[index]
    assert attack["command"] == "maneuver" and attack["args"] == {"combatant": "alice", "maneuver": "attack"}
    target = next(f for f in attack["fields"] if f["name"] == "target")
    assert [c["value"] for c in target["choices"]] == ["orc"]
    await watcher.wait_until(lambda c: "Alice to choose" in (c.description or {}).get("waiting_for", ""))
    assert watcher.description["actions"] == []  # type: ignore[index]


async def test_an_unchanged_description_is_not_pushed_again(server: CombatServer, connect: Connect) -> None:
    gm, alice, watcher = await _fight(connect)
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    await alice.wait_until(lambda c: bool((c.description or {}).get("actions")))
    counts = [len(_descriptions(c)) for c in (gm, alice, watcher)]
    result = await gm.command("note", {"text": "rain starts"})  # a note changes no one's description
    for c in (gm, alice, watcher):
        await c.wait_for_seq(result["last_seq"])
    await gm.command("note", {"text": "and stops"})  # the pushes of the first note came before this event
    for c in (gm, alice, watcher):
        await c.wait_for_seq(gm.last_seq)
    assert [len(_descriptions(c)) for c in (gm, alice, watcher)] == counts


async def test_a_seat_that_does_not_ask_gets_no_description(server: CombatServer, connect: Connect) -> None:
    """Descriptions cost the server a computation per seat and command: only clients that render them ask."""
    gm, alice, watcher = await _fight(connect)
    plain = await connect(record=True)
    subscribed = await plain.subscribe((await gm.add_seat("player", ["alice"], "Alice again"))["token"])
    assert "description" not in subscribed
    await gm.command("start_combat", {"order": ["alice", "orc"]})
    await alice.wait_until(lambda c: bool((c.description or {}).get("actions")))
    await plain.wait_for_seq(gm.last_seq)
    assert _descriptions(plain) == [] and plain.description is None


def test_the_protocol_doc_shows_the_description_schema() -> None:
    """docs/protocol.md's schema of descriptions is the one the server's messages are checked against."""
    import json
    from pathlib import Path

    import combat_server

    root = Path(combat_server.__file__).resolve().parents[1]
    doc = (root / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("### Descriptions", 1)[1]
    shown = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    assert shown == schema("description")["$defs"]
