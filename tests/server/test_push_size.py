"""Issue 16's byte target: a live push of a one-HP change is at most 300 bytes, whatever the fight's
size (protocol 4, docs/protocol.md "The pushed record"; docs/benchmarks.md). The bytes are those the
hub hands to a subscriber's socket, so this is exact and deterministic, not a timing test: the hub
runs in process with a subscriber that keeps what it is sent.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import orjson
import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.server.hub import FightHub, Seat
from combat_server.store.sql import open_store

from .conftest import SHEET, Keeper

LIMIT = 300


def _one_hp_push(tmp_path: Path, combatants: int, chain: bool = False) -> str:
    """The push a spectator gets when the GM sets one combatant's HP, in a fight of ``combatants``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = open_store(f"sqlite:///{tmp_path / 'size.sqlite'}", migrate=True)
    try:
        engine = Engine(store)
        fid = engine.create_fight("gurps", title="size").fight_id
        for i in range(combatants):
            engine.execute(fid, Command("add_combatant", {"id": f"c{i}", "name": f"C{i}", "side": "npc",
                                                          "sheet": SHEET}, GM_ACTOR, f"gm:add-{i}"))
        hub = FightHub(engine, fid)
        watcher = Keeper(Seat(fid, "spectator-1", "spectator"), chain)

        async def adjust() -> None:
            async with hub.lock:
                hub.add(watcher, hub.synced_seq)
                hub.live_view(watcher)
                before = hub.state()
                result = engine.execute(fid, Command("adjust", {"combatant": "c1", "changes": {"hp": 9},
                                                                "reason": "hit"}, GM_ACTOR, "gm:c1"))
                hub.publish(result, before)

        asyncio.run(adjust())
        (push,) = watcher.sent
        return push
    finally:
        store.dispose()


@pytest.mark.parametrize("combatants", [4, 500])
def test_a_one_hp_push_is_at_most_300_bytes_whatever_the_fights_size(tmp_path: Path, combatants: int) -> None:
    push = _one_hp_push(tmp_path, combatants)
    message: dict[str, Any] = orjson.loads(push)
    assert message["patch"] == [["/combatants/c1/condition/hp", 9]]  # the one change, nothing of the rest
    assert len(push.encode("utf-8")) <= LIMIT


def test_the_chain_costs_only_the_subscribers_that_ask_for_it(tmp_path: Path) -> None:
    """With ``chain`` the record also carries the command id, the stored time and the hash (64 hex
    digits); a plain push has what the event says and who did it."""
    push = orjson.loads(_one_hp_push(tmp_path, 4, chain=True))
    assert set(push["event"]) == {"type", "payload", "actor", "command_id", "recorded_at", "hash"}
    assert len(push["event"]["hash"]) == 64 and push["event"]["command_id"] == "gm:c1"
    assert set(orjson.loads(_one_hp_push(tmp_path / "plain", 4))["event"]) == {"type", "payload", "actor"}
