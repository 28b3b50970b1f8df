"""GULLIVER's fatigue penalty to DX and IQ (V-50, A-49) wired through the gurps ruleset (issue
#11, third step), on the real engine (SQLite file and PostgreSQL): at 2/3, 1/2 and 1/3 of full
FP the hero's skill rolls (attacks, feints) take -1, -2, -3; without the option G-51 gives none.
Numbers worked by hand."""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, fight

#: HT 12: FPmax 12, so 2/3 is 8, 1/2 is 6, 1/3 is 4.
HERO = {"st": 12, "dx": 12, "ht": 12, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "ht": 10, "hp": 10}


def _tired_hero(engine: Engine, fp: int, *switches: str) -> Table:
    table = fight(engine, HERO, FOE, *switches)
    table.send("adjust", {"combatant": "hero", "changes": {"fp": fp}, "reason": "a long march"})
    return table


def _fatigue_mods(record: dict[str, object]) -> list[tuple[int, str, str]]:
    mods = record["modifiers"]
    assert isinstance(mods, list)
    return [(m["value"], m["reason"], m["rule"]) for m in mods if m["rule"] == "V-50"]


@pytest.mark.parametrize(("fp", "penalty"), [(9, 0), (8, -1), (7, -1), (6, -2), (5, -2), (4, -3), (1, -3)])
def test_v50_a49_the_attack_roll_takes_the_fatigue_penalty(engine: Engine, fp: int, penalty: int) -> None:
    """V-50 / A-49: FP 9 of 12 is over 2/3: none; 8 and 7 (<= 2/3): -1; 6, 5 (<= 1/2): -2; 4 and 1
    (<= 1/3): -3; skill 14 + penalty is the roll's target."""
    table = _tired_hero(engine, fp, "fatigue_skill_penalty")
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="club")
    record = table.last("attack_rolled").payload["record"]
    assert _fatigue_mods(record) == ([(penalty, f"fatigue: FP {fp} of 12", "V-50")] if penalty else [])
    assert record["target"] == 14 + penalty


def test_v50_off_no_penalty_from_fatigue(engine: Engine) -> None:
    """G-51 alone: FP 4 of 12 costs no skill."""
    table = _tired_hero(engine, 4)
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="club")
    record = table.last("attack_rolled").payload["record"]
    assert (_fatigue_mods(record), record["target"]) == ([], 14)


def test_v50_a_feint_takes_the_fatigue_penalty(engine: Engine) -> None:
    """V-50: a feint is a skill roll too: FP 6 of 12 gives -2."""
    table = _tired_hero(engine, 6, "fatigue_skill_penalty")
    table.maneuver("hero", "feint", [[3, 3, 3]], target="foe", weapon="club")
    record = table.last("feint_rolled").payload["record"]
    assert _fatigue_mods(record) == [(-2, "fatigue: FP 6 of 12", "V-50")]
