"""What a person who typed the wrong dice is told: the purpose, how many values of which size, and
what they typed (``roll/bad_faces``), worded for one die as for several."""

from __future__ import annotations

import pytest

from combat_server.engine.dice import ManualDice
from combat_server.errors import CombatError
from combat_server.rules.model import DiceRequest


def _refusal(faces: list[list[int]], count: int, sides: int, purpose: str) -> CombatError:
    with pytest.raises(CombatError) as err:
        ManualDice(faces).roll(DiceRequest(count, sides, purpose))
    return err.value


def test_one_die_asked_for_says_one_value() -> None:
    err = _refusal([[6, 6]], 1, 6, "damage")
    assert err.code == "roll/bad_faces"
    assert err.message == "damage needs 1 value from 1 to 6, got [6, 6]"
    assert (err.details["count"], err.details["sides"], err.details["index"]) == (1, 6, 0)


def test_several_dice_asked_for_say_values() -> None:
    err = _refusal([[3, 4]], 3, 6, "attack")
    assert err.message == "attack needs 3 values from 1 to 6, got [3, 4]"
