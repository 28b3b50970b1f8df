"""Fights played from the description alone (#9, describe): every action, field and choice a seat is offered
is one the rules take.

A seeded random player, the GM (who may do everything), plays each ruleset's demo fight: it answers an open
prompt with one of its ready-made answers, or takes one of the offered actions and fills its fields the way a
client may (every required field, about half of the others, a value within the bounds, a choice among those
open: ``Field.when`` and ``Choice.when``). Dice are seeded, so each run is the same fight. Nothing it sends may
be refused, and the fight never waits with nothing offered (G-19, G-51: when nobody can act, the GM ends it or
undoes). Refusals the description cannot know ahead (none so far) would be listed here with their reason.
"""

from __future__ import annotations

import random
from typing import Any, Mapping

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.rules.ruleset import get_ruleset

STEPS = 150
#: (ruleset, options): the plain rules, and GULLIVER's / SHELL's options that add fields and refusals.
FIGHTS: list[tuple[str, dict[str, Any]]] = [
    ("gurps", {}),
    ("gurps", {"fatigue_on_st": True, "movement_fatigue": True, "effort_heat_fatigue": True,
               "fatigue_skill_penalty": True, "encumbrance_fatigue": True}),
    ("gurps", {"hit_locations": True, "light_levels": True, "crippled_limbs": True, "knockdown": True,
               "shock_recovery": True, "damage_shock": True, "limb_stun": True, "finishing_blow": True,
               "heart_attack": True}),
    ("shell", {}),
    ("shell", {"cinematic_maneuvers": True, "guard_preemptive_bonus": True, "fatigue_rederives_mv": True,
               "cinematic_casting": True}),
]


def _open(when: Mapping[str, Any] | None, args: Mapping[str, Any]) -> bool:
    return all(args.get(name) in allowed for name, allowed in (when or {}).items())


def _filled(action: Mapping[str, Any], rnd: random.Random) -> dict[str, Any]:
    """The action's command args as a client may fill them in: its fields in order, each only while it applies."""
    args = dict(action["args"])
    for field in action["fields"]:
        if not _open(field["when"], args) or (not field["required"] and rnd.random() < 0.5):
            continue
        if field["type"] == "choice":
            choices = [c for c in field["choices"] if _open(c.get("when"), args)]
            assert choices or not field["required"], f"{action['id']}: required {field['name']} has no choice open"
            if choices:
                args[field["name"]] = rnd.choice(choices)["value"]
        elif field["type"] == "integer":
            low = field["minimum"] if field["minimum"] is not None else 0
            high = field["maximum"] if field["maximum"] is not None else low + 10
            args[field["name"]] = rnd.randint(low, min(high, low + 20))
        elif field["type"] == "boolean":
            args[field["name"]] = rnd.random() < 0.5
        else:
            args[field["name"]] = "words"
    return args


def _play(engine: Engine, ruleset_name: str, options: dict[str, Any], seed: int) -> list[str]:
    ruleset = get_ruleset(ruleset_name)
    rnd = random.Random(seed)
    fid = engine.create_fight(ruleset_name, options=options, dice_mode="seeded", seed=str(seed)).fight_id
    ids = iter(range(1, 10**6))

    def send(kind: str, args: dict[str, Any]) -> None:
        engine.execute(fid, Command(kind, args, GM_ACTOR, f"c{next(ids)}"))

    assert ruleset.demo is not None
    for combatant in ruleset.demo["combatants"]:
        send("add_combatant", dict(combatant))
    send("start_combat", {})
    refused: list[str] = []
    for _ in range(STEPS):
        state = engine.load(fid)
        if state.status != "active":
            break
        described = to_json(ruleset.describe(state, GM_ACTOR))
        if described["prompts"]:
            prompt = rnd.choice(described["prompts"])
            assert prompt["answers"], f"prompt {prompt['kind']} without answers: {prompt['text']}"
            answer = rnd.choice(prompt["answers"])
            kind, args = answer["command"], dict(answer["args"])
        else:
            assert described["actions"], f"active, nothing offered: {described['waiting_for']}"
            # Ending or undoing only when nothing else is offered: the fight goes on for longer.
            playing = [a for a in described["actions"] if a["command"] not in ("end_fight", "undo")]
            action = rnd.choice(playing or described["actions"])
            kind, args = action["command"], _filled(action, rnd)
        try:
            send(kind, args)
        except Rejected as exc:
            refused.append(f"{kind} {args}: {exc.code}: {exc.message}")
    return refused


@pytest.mark.parametrize(("ruleset_name", "options"), FIGHTS, ids=[f"{r}-{i}" for i, (r, _o) in enumerate(FIGHTS)])
def test_every_offered_action_and_answer_is_taken_by_the_rules(rules_engine: Engine, ruleset_name: str,
                                                                options: dict[str, Any]) -> None:
    """#9: seeded random play from the GM's description of each demo fight is never refused."""
    refused = [line for seed in range(8) for line in _play(rules_engine, ruleset_name, options, seed)]
    assert refused == []
