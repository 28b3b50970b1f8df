"""GULLIVER's advanced shock recovery (V-24, R-10, A-40) wired through the gurps ruleset (issue
#11, third step), on the real engine (SQLite file and PostgreSQL): the shock penalty no longer
wears off after the victim's turn (G-47) but drops by the margin of a HT roll at the end of it,
and what is left carries into the next turn. Each test plays the same blow on the same dice with
the option on and off; numbers worked by hand."""

from __future__ import annotations

from typing import Sequence

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import blow, explained, fight

HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
#: E-16's human: 10 HP, HT 10, IQ 10: 4 crushing injury is shock -4 (G-47).
HUMAN = {"st": 10, "ht": 10, "hp": 10}
RECOVERY = ("damage_shock", "shock_recovery")


def _foes_turn(table: Table, recovery_faces: Sequence[int] | None = None) -> None:
    """The foe does nothing through its turn (and rolls against its shock when asked), then the
    hero does nothing, so the foe's next turn starts."""
    table.maneuver("foe", "do_nothing")
    if recovery_faces is not None:
        table.roll(recovery_faces, "shock_recovery")
    table.maneuver("hero", "do_nothing")


def _recovery_prompts(table: Table) -> list[str]:
    return [p.text for p in table.state.prompts if p.options.get("purpose") == "shock_recovery"]


def test_v24_off_the_shock_lasts_the_victims_next_turn_only(engine: Engine) -> None:
    """G-47 (V-24 off): -4 in force during the foe's turn, no roll, 0 on its turn after."""
    table = fight(engine, HERO, HUMAN, "damage_shock")
    blow(table, "club", [4])
    _foes_turn(table)
    assert not table.events("check_rolled")
    assert table.last("turn_started").payload["shock"] == 0


def test_v24_a_success_by_2_leaves_2_of_4_for_the_next_turn(engine: Engine) -> None:
    """V-24 / R-10: at -4, HT 10 rolls 8, success by 2: -2 is left and in force on the next turn."""
    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    table.maneuver("foe", "do_nothing")
    assert _recovery_prompts(table) == ["Foe rolls HT to shake off shock (V-24 (in place of G-47), R-10)"]
    assert explained(table, "turn_ending").endswith("Shock: HT roll to shake it off (V-24 (in place of G-47), R-10).")
    table.roll([2, 3, 3], "shock_recovery")
    check = table.last("check_rolled").payload
    assert (check["purpose"], check["record"]["rule"], check["shock_left"], check["shock_pending"]) == \
        ("shock_recovery", "V-24", 2, 2)
    assert explained(table, "check_rolled").endswith("Shock -2 carries into Foe's next turn (V-24, R-10, A-40).")
    table.maneuver("hero", "do_nothing")
    assert table.last("turn_started").payload["shock"] == 2
    assert table.cond("foe").shock == 2


def test_v24_a_success_by_as_much_as_the_penalty_clears_it(engine: Engine) -> None:
    """V-24: at -4, HT 10 rolls 6, success by 4: nothing is left."""
    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    _foes_turn(table, [1, 2, 3])
    assert "shock_left" not in table.last("check_rolled").payload
    assert explained(table, "check_rolled").endswith("The shock wears off (V-24).")
    assert table.last("turn_started").payload["shock"] == 0


def test_v24_a40_success_by_0_removes_nothing(engine: Engine) -> None:
    """A-40: HT 10 rolls exactly 10, success by 0: -4 stays."""
    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    _foes_turn(table, [3, 3, 4])
    assert table.last("check_rolled").payload["shock_left"] == 4
    assert table.last("turn_started").payload["shock"] == 4


def test_r10_a_failure_keeps_the_penalty_and_rolls_again_next_turn(engine: Engine) -> None:
    """R-10: 14 fails HT 10: -4 stays for the next turn, at whose end the foe rolls again
    (9: success by 1, -3 left)."""
    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    _foes_turn(table, [4, 5, 5])
    assert table.last("turn_started").payload["shock"] == 4
    _foes_turn(table, [3, 3, 3])
    assert table.last("check_rolled").payload["shock_left"] == 3
    assert table.last("turn_started").payload["shock"] == 3


def test_r10_new_shock_adds_to_what_is_left_under_g47s_cap(engine: Engine) -> None:
    """R-10: -2 left after a success by 2, then a 3-point blow (shock 3): 2 + 3 = 5, capped at -4
    by G-47 (no V-18) on the foe's next turn."""
    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    table.maneuver("foe", "do_nothing")
    table.roll([2, 3, 3], "shock_recovery")
    blow(table, "club", [3])
    assert table.last("turn_started").payload["shock"] == 4


def test_r10_strong_will_helps_the_recovery_roll(engine: Engine) -> None:
    """R-10 / V-08: Will 12 against IQ 10 is +2: 10 vs HT 10 + 2 succeeds by 2, -2 left."""
    table = fight(engine, HERO, {**HUMAN, "will": 12}, *RECOVERY)
    blow(table, "club", [4])
    _foes_turn(table, [3, 3, 4])
    check = table.last("check_rolled").payload
    assert [(m["value"], m["rule"]) for m in check["record"]["modifiers"]] == [(2, "V-08")]
    assert check["shock_left"] == 2


def test_v24_what_is_left_is_hidden_with_a_hidden_victim(engine: Engine) -> None:
    """V-24: the penalty left is the victim's secret, like the roll's margin (docs/protocol.md)."""
    from combat_server.rules.gurps.events import EVENTS
    from combat_server.rules.kit.events import redact

    table = fight(engine, HERO, HUMAN, *RECOVERY)
    blow(table, "club", [4])
    table.maneuver("foe", "do_nothing")
    table.roll([2, 3, 3], "shock_recovery")
    payload = table.last("check_rolled").payload
    shown = redact(EVENTS["check_rolled"], payload, frozenset({"foe"}))
    assert ("shock_left" in shown, "shock_pending" in shown, "margin" in shown["record"]) == (False, False, False)
