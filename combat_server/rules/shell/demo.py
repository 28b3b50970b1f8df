"""The SHELL demo fight (``welcome.rulesets[].demo``, ``serve --demo shell``): a shield
fighter and a mage against an orc with a shield and a goblin archer, so a first fight
meets shield bands, blocks that damage shields, a ranged attack and a spell."""

from __future__ import annotations

from combat_server.rules.model import JSON

DEMO: dict[str, JSON] = {
    "title": "Demo: the bridge at Harrow",
    "note": "The orc holds the bridge; its goblin archer watches from the far bank.",
    "combatants": [
        {"id": "aldric", "name": "Aldric Shieldbearer", "side": "pc",
         "sheet": {"st": 13, "ag": 12, "iq": 10, "ht": 12, "body_weight": 180,
                   "styles": [{"name": "Sword and Shield", "level": 4}],
                   "weapons": [{"name": "long sword", "style": "Sword and Shield", "damage_types": ["cut", "imp"],
                                "hands": "either", "min_st": 11, "hp": 10, "weight": 3, "thrusting": True}],
                   "shield": {"size": "medium", "weight": 12},
                   "armour": [{"material": "chain", "locations": ["torso", "arm", "leg"], "weight": 30}]}},
        {"id": "maren", "name": "Maren the Wise", "side": "pc",
         "sheet": {"st": 10, "ag": 11, "iq": 14, "ht": 10, "body_weight": 130,
                   "styles": [{"name": "Staff", "level": 2}],
                   "arts": [{"name": "Elementalism", "level": 7, "spells": [
                       {"name": "Firebolt", "min_level": 4, "end_cost": 2, "casting_time": 0},
                       {"name": "Stone Skin", "min_level": 5, "end_cost": 3, "casting_time": 1}]}],
                   "weapons": [{"name": "quarterstaff", "style": "Staff", "damage": 1, "damage_types": ["cr"],
                                "hands": "two", "hp": 12, "weight": 4}]}},
        {"id": "grask", "name": "Grask the Orc", "side": "npc",
         "sheet": {"st": 14, "ag": 10, "iq": 8, "ht": 12, "npc": True, "body_weight": 200,
                   "styles": [{"name": "Axe and Shield", "level": 3}],
                   "weapons": [{"name": "axe", "style": "Axe and Shield", "damage": 1, "damage_types": ["cut"],
                                "min_st": 12, "hp": 12, "weight": 4}],
                   "shield": {"size": "small", "weight": 8},
                   "armour": [{"material": "leather", "locations": ["torso"], "weight": 10}]}},
        {"id": "snikt", "name": "Snikt the Goblin", "side": "npc",
         "sheet": {"st": 8, "ag": 14, "iq": 9, "ht": 9, "npc": True, "body_weight": 70,
                   "styles": [{"name": "Bow", "level": 4, "kind": "ranged"}, {"name": "Knife", "level": 2}],
                   "weapons": [{"name": "short bow", "style": "Bow", "damage_types": ["imp"], "ranged": True,
                                "range_st": 10, "speed": 2, "min_st": 7, "hands": "two", "hp": 6, "weight": 2},
                               {"name": "knife", "style": "Knife", "damage": -2, "damage_types": ["imp"],
                                "thrusting": True, "close_combat": True, "hp": 5, "weight": 1}]}},
    ],
}
