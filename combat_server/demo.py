"""The demo fight: a small, reproducible GURPS skirmish written through the engine.

It uses seeded dice (the fight's seed plus its id and seq pick every face), so a
demo fight's rolls are reproducible from its first event. For now
it sets the scene (two PCs, two NPCs and a note); it is the place to grow into a
few played turns once the ``gurps`` combat commands exist.
"""

from __future__ import annotations

from typing import Any

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command

__all__ = ["DEMO_SEED", "DEMO_COMBATANTS", "build_demo_fight"]

DEMO_SEED = "combat-server-demo"

#: (id, name, side, GURPS sheet)
DEMO_COMBATANTS: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    ("brenna", "Brenna the Bold", "pc", {
        "st": 12, "dx": 12, "iq": 10, "ht": 12, "dr": 2,
        "shield_skill": 12, "shield_name": "medium shield",
        "weapons": [{"name": "broadsword", "skill": 14, "damage": "sw+1", "damage_type": "cut", "parry": 0}],
    }),
    ("tam", "Tam Quickfingers", "pc", {
        "st": 10, "dx": 14, "iq": 12, "ht": 11,
        "weapons": [
            {"name": "rapier", "skill": 15, "damage": "thr+1", "damage_type": "imp", "parry": 0},
            {"name": "dagger", "skill": 14, "damage": "thr-1", "damage_type": "imp", "reach": "C", "parry": -1},
        ],
    }),
    ("orc", "Orc Raider", "npc", {
        "st": 13, "dx": 11, "iq": 9, "ht": 12, "dr": 1,
        "weapons": [{"name": "axe", "skill": 12, "damage": "sw+2", "damage_type": "cut", "unbalanced": True}],
    }),
    ("goblin", "Goblin Archer", "npc", {
        "st": 9, "dx": 12, "iq": 10, "ht": 10,
        "weapons": [
            {"name": "short bow", "kind": "ranged", "skill": 13, "damage": "1d", "damage_type": "imp",
             "acc": 1, "half_damage": 75, "max_range": 150, "parry": None, "bulk": -6},
            {"name": "knife", "skill": 11, "damage": "thr-1", "damage_type": "imp", "reach": "C", "parry": -1},
        ],
    }),
)


def build_demo_fight(engine: Engine) -> str:
    """Write the demo fight through ``engine`` (seeded dice) and return its fight id."""
    created = engine.create_fight("gurps", dice_mode="seeded", seed=DEMO_SEED, title="Demo: ambush at the ford")
    fight_id = created.fight_id
    for cid, name, side, sheet in DEMO_COMBATANTS:
        engine.execute(fight_id, Command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet},
                                         GM_ACTOR, f"demo-add-{cid}"))
    engine.execute(fight_id, Command("note", {"text": "The raiders wait at the ford; the heroes come round the bend."},
                                     GM_ACTOR, "demo-note-1"))
    return fight_id
