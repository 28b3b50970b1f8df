"""Hidden sheets on a real server: players and spectators see a hidden NPC's dice hit
the table and the outcome, never the numbers of its sheet (skill, modifiers, target,
margin, DR, HP, defences); the GM sees everything; live pushes, catch-up, replay and
state_at are redacted alike."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from combat_server.client import CombatClient, PushedEvent
from combat_server.server import CombatServer

from .conftest import SHEET, Connect

#: The hidden NPC: numbers that appear nowhere else at the table (skill 14, DR 2, HP 15).
ORC: dict[str, Any] = {
    "st": 13, "dx": 11, "ht": 12, "hp": 15, "dr": 2,
    "weapons": [{"name": "axe", "skill": 14, "damage": "sw+2", "damage_type": "cut"}],
}
SECRETS = ("base", "base_reason", "modifiers", "target", "margin")


@attrs.define
class Fight:
    gm: CombatClient
    alice: CombatClient
    spectator: CombatClient
    tokens: dict[str, str]


@pytest.fixture
async def fight(server: CombatServer, connect: Connect) -> Fight:
    """Manual dice; Alice (PC) and a hidden Orc; the GM, Alice's player and a spectator subscribed.

    Every client asks for whole records (``chain``, protocol 4), so live records compare with catch-up
    and ``replay`` ones field by field."""
    gm = await connect(chain=True)
    created = await gm.create_fight("gurps", dice_mode="manual")
    await gm.subscribe(created["token"])
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": SHEET})
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": ORC, "hidden": True})
    tokens = {"gm": created["token"]}
    clients = []
    for role, combatants in (("player", ["alice"]), ("spectator", [])):
        tokens[role] = (await gm.add_seat(role, combatants, role))["token"]
        client = await connect(chain=True)
        await client.subscribe(tokens[role])
        clients.append(client)
    return Fight(gm, clients[0], clients[1], tokens)


async def _orc_attacks(f: Fight) -> int:
    """The orc swings at Alice: 3d [3, 4, 5] = 12 vs its skill 14, a hit; returns the last seq."""
    await f.gm.command("start_combat", {"order": ["orc", "alice"]})
    result = await f.gm.command("maneuver", {"combatant": "orc", "maneuver": "attack", "target": "alice",
                                             "weapon": "axe"}, faces=[[3, 4, 5]])
    for c in (f.gm, f.alice, f.spectator):
        await c.wait_for_seq(result["last_seq"])
    return int(result["last_seq"])


async def _alice_hits_orc(f: Fight) -> dict[str, Any]:
    """Alice hits the orc (12 vs 13); returns the orc's defend prompt as the GM sees it."""
    await f.gm.command("start_combat", {"order": ["alice", "orc"]})
    await f.alice.command("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc",
                                       "weapon": "broadsword"}, faces=[[3, 4, 5]])
    prompt = await f.gm.wait_for_prompt("defend", "orc")
    for c in (f.alice, f.spectator):
        await c.wait_for_seq(f.gm.last_seq)
    return prompt


def _one(client: CombatClient, etype: str) -> PushedEvent:
    found = [e for e in client.events if e.type == etype]
    assert len(found) == 1, [e.type for e in client.events]
    return found[0]


async def test_player_sees_hidden_attackers_dice_and_outcome_only(fight: Fight) -> None:
    """A player's attack_rolled of the hidden orc keeps dice, total and outcome, not skill, modifiers, target, margin."""
    await _orc_attacks(fight)
    for c in (fight.alice, fight.spectator):
        payload = _one(c, "attack_rolled").event["payload"]
        record = payload["record"]
        assert record["dice"] == [3, 4, 5] and record["total"] == 12 and record["outcome"] == "hit"
        assert not set(SECRETS) & set(record)
        assert not {"effective", "margin", "damage_dice", "damage_adds"} & set(payload["attack"])


async def test_player_explanation_has_no_skill_of_hidden_orc(fight: Fight) -> None:
    """The player's sentence for the orc's attack names dice and outcome but not its skill; the GM's names the skill."""
    await _orc_attacks(fight)
    assert "axe skill 14" in _one(fight.gm, "attack_rolled").explanation
    for c in (fight.alice, fight.spectator):
        text = _one(c, "attack_rolled").explanation
        assert "3d [3, 4, 5] = 12: hit" in text
        assert "14" not in text and "skill" not in text


async def test_defend_prompt_of_hidden_orc_shows_no_numbers_to_players(fight: Fight) -> None:
    """The hidden orc's defend prompt reaches players as id, kind, combatant and a neutral text, with no options."""
    gm_prompt = await _alice_hits_orc(fight)
    assert gm_prompt["options"]["dodge"]["target"] > 0
    for c in (fight.alice, fight.spectator):
        prompt = c.prompts("defend", "orc")[0]
        assert prompt == {"id": gm_prompt["id"], "kind": "defend", "combatant": "orc",
                          "text": "Orc chooses a defence", "options": {}}
        opened = _one(c, "attack_rolled").event["payload"]["opens"]
        assert opened == [prompt]


async def test_damage_against_hidden_orc_hides_its_dr_and_hp(fight: Fight) -> None:
    """Damage and injury to the hidden orc reach players without its DR, penetration, injury or HP."""
    prompt = await _alice_hits_orc(fight)
    await fight.gm.command("defend", {"prompt": prompt["id"], "defense": "dodge"}, faces=[[6, 6, 5]])
    damage = await fight.alice.wait_for_prompt("roll", "alice")
    result = await fight.alice.command("roll", {"prompt": damage["id"]}, faces=[[4]])
    for c in (fight.gm, fight.alice, fight.spectator):
        await c.wait_for_seq(result["last_seq"])
    assert _one(fight.gm, "damage_rolled").event["payload"]["dr"] == 2
    assert "DR 2" in _one(fight.gm, "damage_rolled").explanation
    for c in (fight.alice, fight.spectator):
        rolled = _one(c, "damage_rolled")
        assert rolled.event["payload"]["dice"] == [4]
        assert not {"dr", "penetrating", "multiplier", "injury"} & set(rolled.event["payload"])
        assert "DR" not in rolled.explanation
        assert "[4] +3 = 7 basic" in rolled.explanation  # Alice's own adds (sw+1 at ST 12: 1d+3) stay
        injury = _one(c, "injury_applied")
        assert not {"hp_before", "hp_after", "hp_max", "injury"} & set(injury.event["payload"])
        assert "15" not in injury.explanation and "HP" not in injury.explanation


async def test_catch_up_after_reconnect_is_redacted_like_live(fight: Fight, connect: Connect) -> None:
    """A player reconnecting with after=0 gets the same redacted events and explanations it got live."""
    await _alice_hits_orc(fight)
    late = await connect()
    await late.subscribe(fight.tokens["player"], after=0)
    await late.wait_for_seq(fight.alice.last_seq)
    assert [(e.seq, e.event, e.explanation) for e in late.events] == \
        [(e.seq, e.event, e.explanation) for e in fight.alice.events]
    assert late.prompts("defend", "orc")[0]["options"] == {}


async def test_cold_catch_up_from_the_store_is_redacted_like_live(fight: Fight, server: CombatServer,
                                                                  connect: Connect) -> None:
    """With the fight's in-memory cache gone (as after a restart) a catch-up explained from the store is redacted alike."""
    await _orc_attacks(fight)
    fid = fight.alice.fight_id
    assert fid is not None
    server._hubs.pop(fid)  # the next subscriber gets a fresh hub: events and explanations come from the store
    late = await connect()
    await late.subscribe(fight.tokens["player"], after=3)
    await late.wait_for_seq(fight.alice.last_seq)
    assert [(e.seq, e.event, e.explanation) for e in late.events] == \
        [(e.seq, e.event, e.explanation) for e in fight.alice.events if e.seq > 3]
    assert not set(SECRETS) & set(_one(late, "attack_rolled").event["payload"]["record"])


async def test_replay_is_redacted_like_live(fight: Fight) -> None:
    """``replay`` gives a player the same redacted events and explanations as the live pushes."""
    await _orc_attacks(fight)
    items = await fight.alice.replay()
    live = {e.seq: (e.event, e.explanation) for e in fight.alice.events}
    assert {i["seq"]: (i["event"], i["explanation"]) for i in items if i["seq"] in live} == live
    assert not set(SECRETS) & set(next(i for i in items if i["event"]["type"] == "attack_rolled")
                                  ["event"]["payload"]["record"])


async def test_state_at_redacts_the_hidden_orcs_prompt(fight: Fight) -> None:
    """``state_at`` a seq with the orc's defend prompt open shows players the neutral prompt only."""
    await _alice_hits_orc(fight)
    seq = fight.gm.last_seq
    await fight.gm.command("note", {"text": "later"})
    state = await fight.spectator.state_at(seq)
    assert [p["options"] for p in state["prompts"] if p["combatant"] == "orc"] == [{}]
    assert (await fight.gm.state_at(seq))["prompts"][0]["options"]["dodge"]


async def test_turn_order_basis_hides_the_orcs_speed(fight: Fight) -> None:
    """combat_started shows players the orc's place in the order but not its Basic Speed or DX."""
    await _orc_attacks(fight)
    basis = {b["id"]: b for b in _one(fight.alice, "combat_started").event["payload"]["basis"]}
    assert set(basis["orc"]) == {"id", "side"} and "dx" in basis["alice"]
    assert "dx" in {b["id"]: b for b in _one(fight.gm, "combat_started").event["payload"]["basis"]}["orc"]


async def test_gm_sees_everything(fight: Fight) -> None:
    """The GM's events, explanations, prompts and replay keep every number of the hidden orc."""
    await _orc_attacks(fight)
    record = _one(fight.gm, "attack_rolled").event["payload"]["record"]
    assert record["target"] == 14 and record["base_reason"] == "axe skill"
    assert "move_allowance" in _one(fight.gm, "maneuver_chosen").event["payload"]
    assert "move_allowance" not in _one(fight.alice, "maneuver_chosen").event["payload"]
    replayed = {i["seq"]: i for i in await fight.gm.replay()}
    for e in fight.gm.events:
        assert (replayed[e.seq]["event"], replayed[e.seq]["explanation"]) == (e.event, e.explanation)


async def test_pending_attack_of_hidden_orc_shows_no_numbers_in_pushed_state(fight: Fight) -> None:
    """While Alice chooses her defence, the state's pending attack keeps the orc's weapon, not its
    skill, margin or damage dice (the event was already redacted; the state must be too)."""
    await _orc_attacks(fight)
    assert fight.gm.state is not None and fight.gm.state["combat"]["attack"]["effective"] == 14
    for c in (fight.alice, fight.spectator):
        assert c.state is not None
        attack = c.state["combat"]["attack"]
        assert attack["attacker"] == "orc" and attack["weapon"] == "axe"
        assert not {"effective", "margin", "damage_dice", "damage_adds"} & set(attack)
        seq_state = await c.state_at(c.last_seq)
        assert not {"effective", "margin", "damage_dice", "damage_adds"} & set(seq_state["combat"]["attack"])


async def test_state_at_hides_a_sheet_the_gm_hid_later(fight: Fight) -> None:
    """A combatant hidden after seq N shows in ``state_at(N)`` as it does now: name and visible condition."""
    await fight.gm.command("add_combatant", {"id": "elf", "name": "Elf", "side": "npc", "sheet": SHEET})
    seq = fight.gm.last_seq
    await fight.gm.command("update_combatant", {"id": "elf", "hidden": True})
    await fight.spectator.wait_for_seq(fight.gm.last_seq)
    for c in (fight.alice, fight.spectator):
        past = await c.state_at(seq)
        assert past["combatants"]["elf"]["sheet"] is None and "elf" not in past["derived"]
    assert (await fight.gm.state_at(seq))["combatants"]["elf"]["sheet"] is not None


# --------------------------------------------------------------------------- #15 item 1: removal, undo, reveal

def _record_of_orcs_attack(items: list[dict[str, Any]]) -> tuple[dict[str, Any], str]:
    """The orc's attack_rolled record and explanation among replay or catch-up items."""
    item = next(i for i in items if i["event"]["type"] == "attack_rolled")
    return item["event"]["payload"]["record"], item["explanation"]


def _assert_orc_redacted(items: list[dict[str, Any]]) -> None:
    record, explanation = _record_of_orcs_attack(items)
    assert record["dice"] == [3, 4, 5] and not set(SECRETS) & set(record)
    assert "skill" not in explanation and "14" not in explanation
    added = next(i for i in items if i["event"]["type"] == "combatant_added" and i["event"]["payload"]["id"] == "orc")
    assert added["event"]["payload"]["sheet"] is None


async def _catch_up_items(connect: Connect, token: str, upto: int) -> list[dict[str, Any]]:
    late = await connect()
    await late.subscribe(token, after=0)
    await late.wait_for_seq(upto)
    return [{"seq": e.seq, "event": e.event, "explanation": e.explanation} for e in late.events]


async def test_replay_after_removal_keeps_the_removed_orc_redacted(fight: Fight) -> None:
    """Removing the hidden orc does not show its sheet or roll numbers in a later replay (#15 item 1)."""
    await _orc_attacks(fight)
    await fight.gm.command("remove_combatant", {"id": "orc"})
    for c in (fight.alice, fight.spectator):
        _assert_orc_redacted(await c.replay())


async def test_catch_up_after_removal_keeps_the_removed_orc_redacted(fight: Fight, connect: Connect) -> None:
    """A subscribe from 0 after the hidden orc was removed gets its events redacted as they were live (#15 item 1)."""
    await _orc_attacks(fight)
    last = (await fight.gm.command("remove_combatant", {"id": "orc"}))["last_seq"]
    for role in ("player", "spectator"):
        _assert_orc_redacted(await _catch_up_items(connect, fight.tokens[role], last))


async def test_undoing_the_orcs_entry_keeps_its_events_redacted(fight: Fight, connect: Connect) -> None:
    """Undoing back to before the hidden orc joined leaves its (now undone) events redacted in replay and
    catch-up: what a seat may see is decided at each event, in the log as written (#15 item 1)."""
    await _orc_attacks(fight)
    added = next(e.seq for e in fight.gm.events if e.type == "combatant_added" and e.event["payload"]["id"] == "orc")
    last = (await fight.gm.command("undo", {"to": "seq", "seq": added - 1}))["last_seq"]
    assert "orc" not in (await fight.gm.state_at(last))["combatants"]
    for c in (fight.alice, fight.spectator):
        items = await c.replay()
        assert next(i for i in items if i["event"]["type"] == "attack_rolled")["undone"]
        _assert_orc_redacted(items)
    for role in ("player", "spectator"):
        _assert_orc_redacted(await _catch_up_items(connect, fight.tokens[role], last))


async def test_redo_of_the_orcs_entry_keeps_it_hidden(fight: Fight) -> None:
    """Undo then redo of the hidden orc's entry: it is hidden again, in the state and in every replayed event."""
    await _orc_attacks(fight)
    added = next(e.seq for e in fight.gm.events if e.type == "combatant_added" and e.event["payload"]["id"] == "orc")
    await fight.gm.command("undo", {"to": "seq", "seq": added - 1})
    last = (await fight.gm.command("redo", {}))["last_seq"]
    await fight.alice.wait_for_seq(last)
    assert fight.alice.state is not None and fight.alice.state["combatants"]["orc"]["sheet"] is None
    _assert_orc_redacted(await fight.alice.replay())


async def test_state_at_before_the_removal_hides_the_orc(fight: Fight) -> None:
    """``state_at`` a seq when the since-removed orc was hidden shows it as it showed then: no sheet, no derived."""
    seq = await _orc_attacks(fight)
    await fight.gm.command("remove_combatant", {"id": "orc"})
    for c in (fight.alice, fight.spectator):
        past = await c.state_at(seq)
        assert past["combatants"]["orc"]["sheet"] is None and "orc" not in past["derived"]
        assert not {"effective", "margin", "damage_dice", "damage_adds"} & set(past["combat"]["attack"])


async def test_a_revealed_orc_shows_its_numbers_from_the_reveal_on(fight: Fight) -> None:
    """Once the GM reveals the orc, players see its sheet and numbers from then on; what happened while it
    was hidden stays redacted in replay (#15 item 1)."""
    await _orc_attacks(fight)
    await fight.gm.command("update_combatant", {"id": "orc", "hidden": False})
    last = (await fight.gm.command("adjust", {"combatant": "orc", "changes": {"hp": 9}, "reason": "bled"}))["last_seq"]
    await fight.alice.wait_for_seq(last)
    assert fight.alice.state is not None and fight.alice.state["combatants"]["orc"]["sheet"]["hp"] == 15
    items = await fight.alice.replay()
    _assert_orc_redacted(items)
    adjusted = next(i for i in items if i["event"]["type"] == "condition_adjusted")
    assert adjusted["event"]["payload"]["changes"] == {"hp": 9} and "hp 15 -> 9" in adjusted["explanation"]
    assert _one(fight.alice, "condition_adjusted").event["payload"]["changes"] == {"hp": 9}


async def test_the_orcs_controller_sees_its_numbers_after_its_removal(fight: Fight, connect: Connect) -> None:
    """A seat that controls the hidden orc still sees its sheet and roll numbers after the removal."""
    seat = await fight.gm.add_seat("player", ["orc"], "orc's player")
    await _orc_attacks(fight)
    await fight.gm.command("remove_combatant", {"id": "orc"})
    owner = await connect()
    await owner.subscribe(seat["token"], after=0)
    for items in (await owner.replay(), await _catch_up_items(connect, seat["token"], fight.gm.last_seq)):
        record, explanation = _record_of_orcs_attack(items)
        assert record["target"] == 14 and "axe skill 14" in explanation
        added = next(i for i in items if i["event"]["type"] == "combatant_added"
                     and i["event"]["payload"]["id"] == "orc")
        assert added["event"]["payload"]["sheet"]["hp"] == 15
