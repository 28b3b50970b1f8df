"""The demo fight: a small, reproducible GURPS skirmish written through the engine.

It uses seeded dice (the fight's seed plus its id and seq pick every face), so a
demo fight's rolls are reproducible from its first event. It sets the scene (two
PCs, two NPCs and a note); :func:`play_demo_turns` then plays real turns through
the same commands a table would send: each combatant attacks the nearest foe and
each defender picks its best defence.
"""

from __future__ import annotations

from typing import Any

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command

__all__ = ["DEMO_SEED", "DEMO_COMBATANTS", "build_demo_fight", "play_demo_turns"]

DEMO_SEED = "combat-server-demo"
DEMO_TITLE = "Demo: ambush at the ford"  # how `serve --demo` finds the demo fight again

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
    created = engine.create_fight("gurps", dice_mode="seeded", seed=DEMO_SEED, title=DEMO_TITLE)
    fight_id = created.fight_id
    for cid, name, side, sheet in DEMO_COMBATANTS:
        engine.execute(fight_id, Command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet},
                                         GM_ACTOR, f"demo-add-{cid}"))
    engine.execute(fight_id, Command("note", {"text": "The raiders wait at the ford; the heroes come round the bend."},
                                     GM_ACTOR, "demo-note-1"))
    return fight_id


def _best_defense(options: Any) -> dict[str, Any]:
    """The defence with the highest effective number, as a careful player would choose."""
    best: dict[str, Any] = {"defense": "none"}
    best_target = -100
    for kind in ("dodge", "block"):
        entry = options.get(kind)
        if entry and entry["target"] > best_target:
            best, best_target = {"defense": kind}, entry["target"]
    for weapon, entry in (options.get("parry") or {}).items():
        if entry["target"] > best_target:
            best, best_target = {"defense": "parry", "weapon": weapon}, entry["target"]
    return best


def play_demo_turns(engine: Engine, fight_id: str, turns: int = 4) -> None:
    """Start combat and play ``turns`` turns: attack a foe, defend as well as possible."""
    state = engine.load(fight_id)
    if state.status == "setup":
        engine.execute(fight_id, Command("start_combat", {}, GM_ACTOR, "demo-start"))
    played = 0
    step = 0
    while step < 10 * turns:
        step += 1
        state = engine.load(fight_id)
        if state.status != "active":
            return
        defend = next((p for p in state.prompts if p.kind == "defend"), None)
        if defend is None and played >= turns:
            return  # stop at a clean point: no defence left waiting
        if defend is not None:
            engine.execute(fight_id, Command("defend", {"prompt": defend.id, **_best_defense(defend.options)},
                                             GM_ACTOR, f"demo-defend-{state.seq}"))
            continue
        current = state.combat.current
        me = state.combatants[current]
        foes = [c for c in state.combatants.values()
                if c.side != me.side and not c.condition.dead and not c.condition.unconscious]
        if not foes:
            return
        weapon = me.sheet.weapons[0] if me.sheet.weapons else None
        args: dict[str, Any] = {"combatant": current, "maneuver": "attack", "target": foes[0].id}
        if weapon is not None:
            args["weapon"] = weapon.name
            if weapon.kind == "ranged":
                args["range"] = 10
        engine.execute(fight_id, Command("maneuver", args, GM_ACTOR, f"demo-turn-{state.seq}"))
        played += 1
