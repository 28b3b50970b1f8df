"""The seat x command matrix: who may do what, through a real server.

The GM may do everything (and act for any combatant); a player acts only for
the combatants bound to its seat and may note and dispute; a spectator only
reads. Every cell is one test; a refusal leaves the log untouched.
"""

from __future__ import annotations

from typing import Any, Awaitable, Callable

import pytest

from combat_server.client import CombatClient, ServerError

from .conftest import Table, dump_log

OK = "ok"
SEATS = ("gm", "player", "spectator")


async def _none(t: Table) -> None:
    return None


async def _dispute(t: Table) -> None:
    await t.bob.command("dispute", {"seq": 2, "comment": "?"})
    await t.gm.wait_for_prompt("dispute")


async def _undo(t: Table) -> None:
    await t.gm.command("note", {"text": "to undo"})
    await t.gm.command("undo")


async def _start(t: Table) -> None:
    await t.gm.command("start_combat", {"order": ["alice", "bob", "orc"]})


def cmd(command: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "command", "command_id": f"m-{command}", "command": command, "args": args or {}}


#: (name, setup, message, expected for gm, player (controls alice), spectator)
MATRIX: list[tuple[str, Callable[[Table], Awaitable[None]], dict[str, Any], tuple[str, str, str]]] = [
    ("add_combatant", _none, cmd("add_combatant", {"name": "Wolf", "sheet": {"st": 9}}),
     (OK, "auth/gm_only", "auth/read_only")),
    ("update_combatant", _none, cmd("update_combatant", {"id": "bob", "name": "Bobby"}),
     (OK, "auth/gm_only", "auth/read_only")),
    ("remove_combatant", _none, cmd("remove_combatant", {"id": "orc"}), (OK, "auth/gm_only", "auth/read_only")),
    ("adjust", _none, cmd("adjust", {"combatant": "alice", "changes": {"hp": 5}, "reason": "r"}),
     (OK, "auth/gm_only", "auth/read_only")),
    ("note", _none, cmd("note", {"text": "hi"}), (OK, OK, "auth/read_only")),
    ("end_fight", _none, cmd("end_fight", {"reason": "fled"}), (OK, "auth/gm_only", "auth/read_only")),
    ("dispute", _none, cmd("dispute", {"seq": 2, "comment": "no"}), (OK, OK, "auth/read_only")),
    ("rule", _dispute, cmd("rule", {"dispute": "dispute:5", "verdict": "uphold"}),
     (OK, "auth/gm_only", "auth/read_only")),
    ("undo", _none, cmd("undo", {"to": "last_command"}), (OK, "auth/gm_only", "auth/read_only")),
    ("redo", _undo, cmd("redo"), (OK, "auth/gm_only", "auth/read_only")),
    ("start_combat", _none, cmd("start_combat", {"order": ["alice", "bob", "orc"]}),
     (OK, "auth/gm_only", "auth/read_only")),
    ("maneuver own combatant", _start, cmd("maneuver", {"combatant": "alice", "maneuver": "do_nothing"}),
     (OK, OK, "auth/read_only")),
    ("maneuver other combatant", _start, cmd("maneuver", {"combatant": "bob", "maneuver": "do_nothing"}),
     ("command/not_your_turn", "auth/not_your_combatant", "auth/read_only")),
    ("add_seat", _none, {"type": "add_seat", "role": "spectator"}, (OK, "auth/gm_only", "auth/gm_only")),
    ("list_seats", _none, {"type": "list_seats"}, (OK, "auth/gm_only", "auth/gm_only")),
    ("state_at", _none, {"type": "state_at", "seq": 1}, (OK, OK, OK)),
    ("replay", _none, {"type": "replay"}, (OK, OK, OK)),
]

CELLS = [
    pytest.param(setup, message, seat, expected[i], id=f"{name}-{seat}")
    for name, setup, message, expected in MATRIX
    for i, seat in enumerate(SEATS)
]


@pytest.mark.parametrize(("setup", "message", "seat", "expected"), CELLS)
async def test_seat_command_matrix(table: Table, setup: Callable[[Table], Awaitable[None]], message: dict[str, Any],
                                   seat: str, expected: str) -> None:
    """Each seat gets exactly the outcome of its cell; refusals append nothing."""
    await setup(table)
    client: CombatClient = table.seats[seat]
    before = dump_log(table.server.engine.store)
    if expected == OK:
        reply = await client.request(message)
        assert reply["type"] != "error"
        return
    with pytest.raises(ServerError) as err:
        await client.request(message)
    assert err.value.code == expected
    assert dump_log(table.server.engine.store) == before
