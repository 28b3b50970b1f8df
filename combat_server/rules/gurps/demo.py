"""The GURPS demo fight the web page's *Open a demo fight* builds (``welcome.rulesets[].demo``).

Why here: its sheets are GURPS sheets (weapons, skills, a shield); the page only
sends what the ruleset offers, so it keeps no sheet of any ruleset.
"""

from __future__ import annotations

from combat_server.rules.model import JSON

DEMO: dict[str, JSON] = {
    "title": "Demo: ambush at the ford",
    "note": "The raiders wait at the ford; the heroes come round the bend.",
    "combatants": [
        {"id": "brenna", "name": "Brenna the Bold", "side": "pc",
         "sheet": {"st": 12, "dx": 12, "iq": 10, "ht": 12, "dr": 2, "shield_skill": 12,
                   "shield_name": "medium shield",
                   "weapons": [{"name": "broadsword", "skill": 14, "damage": "sw+1", "damage_type": "cut",
                                "parry": 0}]}},
        {"id": "tam", "name": "Tam Quickfingers", "side": "pc",
         "sheet": {"st": 10, "dx": 14, "iq": 12, "ht": 11,
                   "weapons": [{"name": "rapier", "skill": 15, "damage": "thr+1", "damage_type": "imp", "parry": 0},
                               {"name": "dagger", "skill": 14, "damage": "thr-1", "damage_type": "imp", "reach": "C",
                                "parry": -1}]}},
        {"id": "orc", "name": "Orc Raider", "side": "npc",
         "sheet": {"st": 13, "dx": 11, "iq": 9, "ht": 12, "dr": 1,
                   "weapons": [{"name": "axe", "skill": 12, "damage": "sw+2", "damage_type": "cut",
                                "unbalanced": True}]}},
        {"id": "goblin", "name": "Goblin Archer", "side": "npc",
         "sheet": {"st": 9, "dx": 12, "iq": 10, "ht": 10,
                   "weapons": [{"name": "short bow", "kind": "ranged", "skill": 13, "damage": "1d",
                                "damage_type": "imp", "acc": 1, "half_damage": 75, "max_range": 150,
                                "parry": None, "bulk": -6},
                               {"name": "knife", "skill": 11, "damage": "thr-1", "damage_type": "imp", "reach": "C",
                                "parry": -1}]}},
    ],
}
