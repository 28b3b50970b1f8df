"""Demo fights for any ruleset, written through the engine from the ruleset's own ``demo``
declaration (title, note, combatants: docs/rulesets.md).

It uses seeded dice (the fight's seed plus its id and seq pick every face), so a
demo fight's rolls are reproducible from its first event. :func:`play_demo_turns`
then plays real turns through the same commands a table would send, read from the
ruleset's description alone: the GM starts the fight, each combatant takes its first
action at a foe (one that rolls dice at once first), and each prompt gets the answer with the best
number (a defence) or its first answer (a roll). No ruleset is named here.
"""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.engine.fight import Engine
from combat_server.errors import reject
from combat_server.rules.describe import Action, Description, Field
from combat_server.rules.model import GM_ACTOR, JSON, Command, FightState, Principal
from combat_server.rules.ruleset import Ruleset, get_ruleset

__all__ = ["DEMO_SEED", "DEFAULT_DEMO_RULESET", "DEMO_COMBATANTS", "DEMO_TITLE", "build_demo_fight",
           "demo_of", "play_demo_turns"]

DEMO_SEED = "combat-server-demo"
#: The ruleset ``serve --demo`` and ``demo`` use when none is named (the first one the project had).
DEFAULT_DEMO_RULESET = "gurps"
#: The GM as its seat is labelled ("GM", as the server seats it): the demo's note reads "Note by GM:" as
#: one the GM adds from the page does, not "Note by gm:" (the seat id).
DEMO_GM = Principal.of_seat("gm", "gm", (), "GM")


def demo_of(ruleset_name: str) -> Mapping[str, JSON]:
    """The ruleset's demo declaration, or ``demo/none`` naming the rulesets that have one."""
    ruleset = get_ruleset(ruleset_name)
    if ruleset.demo is None:
        from combat_server.rules.ruleset import registered_rulesets

        having = sorted({r.name for r in registered_rulesets() if r.demo is not None})
        raise reject("demo/none", f"ruleset {ruleset_name!r} declares no demo fight", known=having)
    return ruleset.demo


def _default_demo() -> Mapping[str, JSON]:
    return demo_of(DEFAULT_DEMO_RULESET)


def __getattr__(name: str) -> Any:
    # The default ruleset's demo, for callers written when there was one demo (tests, older tools).
    if name == "DEMO_TITLE":
        return str(_default_demo()["title"])
    if name == "DEMO_COMBATANTS":
        return tuple((c["id"], c["name"], c["side"], c["sheet"]) for c in _default_demo()["combatants"])
    raise AttributeError(name)


def build_demo_fight(engine: Engine, ruleset: str = DEFAULT_DEMO_RULESET) -> str:
    """Write ``ruleset``'s demo fight through ``engine`` (seeded dice) and return its fight id."""
    demo = demo_of(ruleset)
    created = engine.create_fight(ruleset, dice_mode="seeded", seed=DEMO_SEED, title=str(demo["title"]))
    fight_id = created.fight_id
    for c in demo["combatants"]:
        engine.execute(fight_id, Command("add_combatant", {k: c[k] for k in ("id", "name", "side", "sheet") if k in c},
                                         GM_ACTOR, f"demo-add-{c['id']}"))
    if demo.get("note"):
        engine.execute(fight_id, Command("note", {"text": str(demo["note"])}, DEMO_GM, "demo-note-1"))
    return fight_id


def start_demo(engine: Engine, fight_id: str) -> None:
    """Start the fight by the GM's first action that needs no fields (the ruleset's start), if any."""
    state = engine.load(fight_id)
    if state.status != "setup":
        return
    ruleset = engine.ruleset_of(fight_id)
    start = next((a for a in ruleset.describe(state, GM_ACTOR).actions if not a.fields and a.combatant is None), None)
    if start is not None:
        engine.execute(fight_id, Command(start.command, dict(start.args), GM_ACTOR, "demo-start"))


def _side(state: FightState, cid: JSON) -> str:
    c = state.combatants.get(str(cid)) if cid is not None else None
    return c.side if c is not None else ""


def _value(state: FightState, action: Action, f: Field) -> JSON:
    """A target: the first foe; a field with a default: the default; a required one without: its first
    choice or its minimum; an optional one without a default is left out."""
    if f.type == "choice" and f.choices and f.name == "target":
        mine = _side(state, action.combatant)
        foes = [c.value for c in f.choices if _side(state, c.value) not in ("", mine)]
        if foes:
            return foes[0]
    if f.default is not None or not f.required:
        return f.default
    if f.type == "choice" and f.choices:
        return f.choices[0].value
    if f.type == "integer" and f.minimum is not None:
        return max(f.minimum, 0)
    return None


def _fill(state: FightState, action: Action) -> dict[str, JSON] | None:
    """The action's args with each field filled as a quick player would; ``None`` if a required one cannot be."""
    args: dict[str, JSON] = dict(action.args)
    for f in action.fields:
        if f.when and any(args.get(k) not in v for k, v in f.when.items()):
            continue
        value = _value(state, action, f)
        if value is None:
            if f.required:
                return None
            continue
        args[f.name] = value
    return args


def _attack(state: FightState, description: Description) -> Command | None:
    # an action that rolls at once first (an attack roll), else the first with a target (its roll may
    # come with the defender's answer)
    for action in sorted(description.actions, key=lambda a: not a.rolls):
        if action.combatant is None or not any(f.name == "target" for f in action.fields):
            continue
        args = _fill(state, action)
        if args is not None and _side(state, args.get("target")) not in ("", _side(state, action.combatant)):
            return Command(action.command, args, GM_ACTOR, f"demo-turn-{state.seq}")
    return None


def _answer(state: FightState, description: Description) -> Command | None:
    for prompt in description.prompts:
        if prompt.answers:
            numbered = [a for a in prompt.answers if a.number is not None]
            best = max(numbered, key=lambda a: a.number or 0) if numbered else prompt.answers[0]
            return Command(best.command, dict(best.args), GM_ACTOR, f"demo-answer-{state.seq}")
    return None


def play_demo_turns(engine: Engine, fight_id: str, turns: int = 4) -> None:
    """Start the fight and play ``turns`` actions: attack a foe, answer each prompt as well as possible;
    stop at a clean point (no prompt waiting) or when no one can attack."""
    start_demo(engine, fight_id)
    ruleset: Ruleset = engine.ruleset_of(fight_id)
    played = 0
    for step in range(20 * turns):
        state = engine.load(fight_id)
        if state.status != "active":
            return
        description = ruleset.describe(state, GM_ACTOR)
        answer = _answer(state, description)
        if answer is not None:
            engine.execute(fight_id, answer)
            continue
        if played >= turns:
            return
        attack = _attack(state, description)
        if attack is None:
            return
        engine.execute(fight_id, attack)
        played += 1
