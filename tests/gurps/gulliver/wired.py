"""A GURPS fight with GULLIVER options, played through the real engine (SQLite file and
PostgreSQL): one attacker against one target, every die typed in, so a test can play the
same blow with an option on and off and compare what the log records."""

from __future__ import annotations

from typing import Any, Sequence

from combat_server.engine.fight import Engine
from combat_server.rules.model import JSON

from tests.gurps.conftest import Table

#: Skill 14 and a 3d roll of 11 always hit; the target then takes the blow (no defence).
TO_HIT = [3, 4, 4]


def fight(engine: Engine, attacker: dict[str, Any], target: dict[str, Any], *switches: str,
          **readings: JSON) -> Table:
    """A started fight with these GULLIVER switches on and readings chosen (validated like any create_fight)."""
    options: dict[str, JSON] = {name: True for name in switches}
    options.update(readings)
    table = Table(engine, engine.create_fight("gurps", dice_mode="manual", options=options).fight_id)
    table.add("hero", attacker)
    table.add("foe", target, side="npc")
    table.send("start_combat", {"order": ["hero", "foe"]})
    return table


def blow(table: Table, weapon: str, faces: Sequence[int], maneuver: str = "attack", option: str = "") -> dict[str, Any]:
    """The hero hits the foe with ``weapon``, the foe does not defend, the damage dice show
    ``faces``: the damage_rolled payload."""
    args: dict[str, Any] = {"target": "foe", "weapon": weapon}
    if option:
        args["option"] = option
    table.maneuver("hero", maneuver, [TO_HIT], **args)
    table.defend("none")
    table.roll(faces, "damage")
    return dict(table.last("damage_rolled").payload)


def explained(table: Table, type_: str) -> str:
    """The log's sentence for the last event of this type."""
    return table.explained(table.last(type_).seq)
