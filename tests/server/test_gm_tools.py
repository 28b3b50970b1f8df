"""GM tools over real websockets (#12): the tools come with ``subscribed``, ``calculate`` runs one read-only
(the GM any, a player a players' tool for its own combatant), ``apply_tool`` appends its events."""

from __future__ import annotations

import pytest

from combat_server.client import ServerError
from combat_server.server.protocol import validator

from .conftest import Table


async def test_subscribed_lists_the_tools_with_their_input_schemas(table: Table) -> None:
    tools = {t["name"]: t for t in table.gm.tools}
    assert {"jumping", "throwing", "exposure", "climbing"} <= set(tools)
    jumping = tools["jumping"]
    assert jumping["rules"] == ["G-07"] and jumping["players"] is True
    assert jumping["inputs"]["properties"]["basic_move"]["x-unit"] == "yd/s"
    assert jumping["prefill"] == {"basic_move": "basic_move"}
    assert table.alice.tools == table.gm.tools


async def test_the_gm_runs_a_tool_prefilled_from_a_combatant(table: Table) -> None:
    """Alice: DX 12, HT 11 -> Basic Speed 23/4, Basic Move 5: standing jumps 6 x 5 - 10 = 20 in, 2 x 5 - 3 = 7 ft."""
    reply = await table.gm.calculate("jumping", combatant="alice")
    assert reply["type"] == "calculation" and reply["inputs"]["basic_move"] == 5
    assert reply["result"] == {"high_in": 20, "broad_ft": 7}
    assert all(step["rule"] == "G-07" for step in reply["steps"])
    assert not list(validator("calculation").iter_errors(reply))


async def test_calculating_appends_nothing(table: Table) -> None:
    before = table.gm.last_seq
    await table.gm.calculate("exposure", {"damage": "2d", "ls": "1/36"})
    await table.gm.command("note", {"text": "after"})
    assert table.gm.last_seq == before + 1


async def test_a_player_runs_a_players_tool_for_its_own_combatant(table: Table) -> None:
    reply = await table.alice.calculate("throwing", {"weight": 6}, combatant="alice")
    assert reply["inputs"] == {"st": 12, "weight": 6}


async def test_a_player_is_refused_a_gm_only_tool(table: Table) -> None:
    with pytest.raises(ServerError) as err:
        await table.alice.calculate("exposure", {"damage": "1d"}, combatant="alice")
    assert err.value.code == "auth/gm_only"


async def test_a_player_is_refused_a_tool_for_another_combatant(table: Table) -> None:
    with pytest.raises(ServerError) as err:
        await table.alice.calculate("jumping", combatant="bob")
    assert err.value.code == "auth/not_your_combatant"


async def test_a_bad_input_is_refused_naming_the_field(table: Table) -> None:
    with pytest.raises(ServerError) as err:
        await table.gm.calculate("climbing", {"climb": "tree", "height": -3})
    assert err.value.code == "tool/bad_input" and err.value.details["field"] == "height"


async def test_the_gm_applies_a_tool_and_everyone_sees_the_wound(table: Table) -> None:
    result = await table.gm.command("apply_tool", {"tool": "temperature", "targets": ["bob"],
                                                   "inputs": {"temperature": 10, "ht": 11, "failed_by": 6,
                                                              "loses": "hp"}})
    await table.bob.wait_for_seq(result["last_seq"])
    applied = [e for e in table.bob.events if e.type == "tool_applied"]
    assert applied and applied[0].event["payload"]["steps"][0]["rule"] == "V-28"
    assert table.bob.state is not None and table.bob.state["combatants"]["bob"]["condition"]["hp"] == 12 - 2


async def test_a_player_cannot_apply_a_tool(table: Table) -> None:
    with pytest.raises(ServerError) as err:
        await table.alice.command("apply_tool", {"tool": "jumping", "inputs": {"basic_move": 5},
                                                 "targets": ["alice"]})
    assert err.value.code == "auth/gm_only"


async def test_a_result_with_harm_names_the_command_that_applies_it(table: Table) -> None:
    hurts = await table.gm.calculate("exposure", {"damage": "2d", "ls": "4"})
    assert hurts["harm"] == {"dice": 2, "adds": 0, "kind": "burn", "rule": "V-25", "multiplier": 2}
    assert hurts["apply"] == "apply_tool"
    assert "apply" not in await table.gm.calculate("jumping", {"basic_move": 5})
    fall = await table.gm.calculate("falling", {"height": 10, "mass": 150, "surface": "concrete"}, combatant="bob")
    assert fall["harm"]["minus"] == 6  # half of Bob's HPmax 12 absorbed (V-33, V-40)
    for reply in (hurts, fall):
        assert not list(validator("calculation").iter_errors(reply))


async def test_a_tool_applied_to_a_hidden_combatant_hides_its_numbers_from_players(table: Table) -> None:
    """The orc's sheet is hidden: a player sees the tool, not its inputs, steps, points, DR or injury."""
    result = await table.gm.command("apply_tool", {"tool": "exposure", "targets": ["orc"],
                                                   "inputs": {"damage": "0d+3", "kind": "cr"}})
    await table.alice.wait_for_seq(result["last_seq"])
    seen = next(e for e in table.alice.events if e.type == "tool_applied").event["payload"]
    assert seen["tool"] == "exposure"
    assert not {"inputs", "steps", "points", "dr", "injury"} & set(seen)
    gm_seen = next(e for e in table.gm.events if e.type == "tool_applied").event["payload"]
    assert gm_seen["injury"] == 3 and gm_seen["steps"] and gm_seen["points"] == 3


async def test_a_fall_applied_to_a_hidden_combatant_gives_players_no_hpmax(table: Table) -> None:
    """V-33 / V-40: a fall's absorption is half the victim's HPmax, taken off the dice (3d x 2 - 6 here, HPmax 12):
    the harm's absorption, the points they leave of the dice and the summary would each give the hidden
    orc's HPmax away, so a player gets the dice and the kind of harm only, and a sentence without them."""
    result = await table.gm.command("apply_tool", {"tool": "falling", "targets": ["orc"], "inputs": {
        "height": 10, "mass": 150, "surface": "concrete", "hp_max": 12}})
    await table.alice.wait_for_seq(result["last_seq"])
    mine = next(e for e in table.gm.events if e.type == "tool_applied")
    assert mine.event["payload"]["harm"]["minus"] == 6
    seen = next(e for e in table.alice.events if e.type == "tool_applied")
    payload = seen.event["payload"]
    assert not {"points", "summary", "inputs"} & set(payload) and not {"adds", "minus", "multiplier"} & set(payload["harm"])
    faces = ", ".join(str(d) for d in payload["dice"])
    assert seen.explanation == f"The GM applies {payload['title']} to Orc: 3d [{faces}] cr (V-40)."


async def test_a_spectator_runs_no_tool(table: Table) -> None:
    with pytest.raises(ServerError) as err:
        await table.spectator.calculate("jumping", {"basic_move": 5})
    assert err.value.code == "auth/read_only"


async def test_a_spectator_is_refused_a_tool_in_the_words_of_a_refused_command(table: Table) -> None:
    """One code, one sentence: auth/read_only reads the same for calculate as for a command."""
    with pytest.raises(ServerError) as tool:
        await table.spectator.calculate("jumping", {"basic_move": 5})
    with pytest.raises(ServerError) as command:
        await table.spectator.command("note", {"text": "hello"})
    assert tool.value.message == command.value.message == "spectators can only watch"


async def test_apply_tool_targets_of_the_wrong_kind_are_refused_naming_what_they_must_be(table: Table) -> None:
    """``targets: [5]`` is a list: the refusal says it must be a list *of text* (combatant ids), appending nothing."""
    before = table.gm.last_seq
    with pytest.raises(ServerError) as err:
        await table.gm.command("apply_tool", {"tool": "temperature", "targets": [5],
                                              "inputs": {"temperature": 10, "ht": 11, "failed_by": 6, "loses": "hp"}})
    assert err.value.code == "command/bad_field" and err.value.details["field"] == "targets"
    assert "must be a list of text" in err.value.message
    await table.gm.command("note", {"text": "after"})
    assert table.gm.last_seq == before + 1


async def test_a_tool_result_past_what_one_roll_takes_is_refused_saying_why(table: Table) -> None:
    """V-41: an object falling for an hour at 1000 g hits with millions of dice; applying it is refused with the
    dice sources' limit (at most 100 dice a roll) in the message, and nothing is appended."""
    inputs = {"time": 3600, "gravity": 1000, "mass": 1, "material": "rock", "hp_max": 10}
    calc = await table.gm.calculate("falling_object", inputs)
    assert calc["harm"]["dice"] > 100
    before = table.gm.last_seq
    with pytest.raises(ServerError) as err:
        await table.gm.command("apply_tool", {"tool": "falling_object", "inputs": inputs, "targets": ["bob"]})
    assert err.value.code == "roll/bad_request"
    assert err.value.details["count"] == calc["harm"]["dice"] and "1 to 100 dice" in err.value.message
    await table.gm.command("note", {"text": "after"})
    assert table.gm.last_seq == before + 1
