"""A bug in a ruleset's ``describe`` (black-box pass): the seat descriptions are worked out after a command's events
are stored and pushed, so a failure there must not answer the stored command with an error, leave a subscribe
unanswered, or stop the fight's next commands. The failure is logged with its traceback; the seats keep the last
description they got and are sent one again once the rules can describe them."""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import pytest
from structlog.testing import capture_logs

from combat_server.client import CombatClient
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.server import CombatServer

Connect = Callable[..., Awaitable[CombatClient]]


@pytest.fixture
def broken_describe(monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """GURPS's describe raises while ``broken["on"]``: a stand-in for any bug in a ruleset's descriptions."""
    broken = {"on": False}
    real = GurpsRuleset.describe

    def describe(self: GurpsRuleset, state: Any, viewer: Any) -> Any:
        if broken["on"]:
            raise KeyError("flying")
        return real(self, state, viewer)

    monkeypatch.setattr(GurpsRuleset, "describe", describe)
    return broken


async def _gm(connect: Connect) -> tuple[CombatClient, str]:
    gm = await connect(record=True)
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="broken")
    await gm.subscribe(created["token"], describe=True)
    await gm.command("add_combatant", {"id": "alice", "name": "Alice", "side": "pc", "sheet": {}})
    return gm, created["fight_id"]


async def test_a_stored_command_is_answered_with_its_result_when_a_description_fails(
        server: CombatServer, connect: Connect, broken_describe: dict[str, bool]) -> None:
    gm, fight_id = await _gm(connect)
    broken_describe["on"] = True
    with capture_logs() as logs:
        result = await gm.command("note", {"text": "after the bug"})
    await gm.wait_for_seq(result["last_seq"])
    assert result["duplicate"] is False
    assert server.engine.load(fight_id).seq == result["last_seq"]
    assert gm.events[-1].event["type"] == "note_added"
    failed = [e for e in logs if e["event"] == "description_failed"]
    assert failed and failed[0]["log_level"] == "error" and failed[0]["seq"] == result["last_seq"]


async def test_the_fights_next_commands_go_on_while_descriptions_fail(
        server: CombatServer, connect: Connect, broken_describe: dict[str, bool]) -> None:
    gm, _ = await _gm(connect)
    broken_describe["on"] = True
    first = await gm.command("note", {"text": "one"})
    second = await gm.command("note", {"text": "two"})
    assert second["first_seq"] == first["last_seq"] + 1


async def test_a_subscribe_asking_for_a_description_is_answered_without_one_when_it_fails(
        server: CombatServer, connect: Connect, broken_describe: dict[str, bool]) -> None:
    gm, _ = await _gm(connect)
    token = (await gm.add_seat("spectator", [], "watcher"))["token"]
    broken_describe["on"] = True
    watcher = await connect(record=True)
    subscribed = await watcher.subscribe(token, describe=True)
    assert subscribed["type"] == "subscribed" and "description" not in subscribed
    assert watcher.description is None


async def test_a_seat_gets_its_description_again_once_the_rules_can_describe_it(
        server: CombatServer, connect: Connect, broken_describe: dict[str, bool]) -> None:
    gm, _ = await _gm(connect)
    broken_describe["on"] = True
    await gm.command("note", {"text": "while broken"})
    broken_describe["on"] = False
    result = await gm.command("add_combatant", {"id": "bob", "name": "Bob", "side": "pc", "sheet": {}})
    await gm.wait_until(lambda c: "bob" in str((c.description or {}).get("summaries", "")))
    assert gm.last_seq == result["last_seq"]
