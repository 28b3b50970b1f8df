"""#9 item "auto_answer and preview": which prompts the server answers by itself, and what a
preview shows, are the ruleset's to say (Ruleset.auto_answer, Ruleset.preview); the engine
only asks. GURPS answers its roll prompts with `roll {prompt}` and previews attack, feint and
defence rolls, as the engine did before."""

from __future__ import annotations

from typing import Iterator, Mapping

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules import ruleset as registry
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import JSON, Command, FightState, Prompt

from .conftest import KNIGHT, ORC, Table

GURPS = registry.get_ruleset("gurps", "1.0")


class _PeopleRollEverything(GurpsRuleset):
    """GURPS, except that nothing is answered automatically and previews show a fixed number."""

    name = "test-people-roll"

    def auto_answer(self, state: FightState, prompt: Prompt) -> Command | None:
        return None

    def preview(self, state: FightState, command: Command) -> Mapping[str, JSON] | None:
        return {"target": 99, "modifiers": []} if command.args.get("maneuver") == "attack" else None


@pytest.fixture
def people_roll() -> Iterator[None]:
    registry.register(_PeopleRollEverything())
    yield
    registry.unregister("test-people-roll", "1.0")


def _duel(engine: Engine, ruleset: str) -> Table:
    """Seeded dice and a fixed fight id: the same faces every run (the knight's attack hits)."""
    fight_id = f"hooks-{ruleset}"
    table = Table(engine, engine.create_fight(ruleset, dice_mode="seeded", seed="hooks", fight_id=fight_id).fight_id)
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["knight", "orc"]})
    return table


def test_gurps_answers_a_roll_prompt_with_the_roll_command_and_leaves_choices_to_people() -> None:
    roll = Prompt("p:7", "roll", "knight", "damage", {"purpose": "damage"})
    defend = Prompt("p:8", "defend", "orc", "Orc defends")
    state = FightState("f", "gurps", "1.0", {}, "seeded")
    assert GURPS.auto_answer(state, roll) == Command("roll", {"prompt": "p:7"})
    assert GURPS.auto_answer(state, defend) is None


def test_the_engine_answers_only_what_the_ruleset_auto_answers(engine: Engine, people_roll: None) -> None:
    """With server dice, GURPS's damage roll is made in the same batch; a ruleset that answers
    nothing by itself leaves the roll prompt open for its seat (the engine knows no prompt kind)."""
    for ruleset, left_open in (("gurps", False), ("test-people-roll", True)):
        table = _duel(engine, ruleset)
        table.maneuver("knight", "attack", target="orc")
        assert table.events("attack_rolled")[-1].payload["record"]["outcome"] in ("hit", "critical hit")
        if any(p.kind == "defend" for p in table.state.prompts):
            table.defend("none")
        assert any(p.kind == "roll" for p in table.state.prompts) is left_open, ruleset
        assert bool(table.events("damage_rolled")) is not left_open, ruleset


def test_the_preview_is_the_rulesets(engine: Engine, people_roll: None) -> None:
    table = _duel(engine, "test-people-roll")
    command = Command("maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc"})
    assert engine.preview(table.fight_id, command) == {"target": 99, "modifiers": []}
    with pytest.raises(Rejected) as err:
        engine.preview(table.fight_id, Command("maneuver", {"combatant": "knight", "maneuver": "move"}))
    assert err.value.code == "preview/nothing_to_roll"


def test_a_preview_checks_the_command_spec_first(engine: Engine, people_roll: None) -> None:
    """Even a ruleset whose preview answers anything gets no preview of a misspelt command."""
    table = _duel(engine, "test-people-roll")
    with pytest.raises(Rejected) as err:
        engine.preview(table.fight_id, Command("maneuver", {"combatant": "knight", "maneuver": "attack",
                                                            "weapn": "axe"}))
    assert err.value.code == "command/unknown_field"
