"""The terminal client's ``tool`` verb (#12): parsing, help and completion come from ``subscribed.tools``
alone (pure, below), and a GM runs and applies a tool in a real pty against a real server."""

from __future__ import annotations

from typing import Any

import pexpect
import pytest

from combat_server.rules.ruleset import get_ruleset
from combat_server.tui import Calc, InputError, Local, completions, help_text, parse_line

from .conftest import Table, Terminal
from .test_terminal import _join

TOOLS = [spec.to_json() for spec in get_ruleset("gurps").calculators.values()]
STATE: dict[str, Any] = {"combatants": {"alice": {"name": "Alice"}, "bob": {"name": "Bob"}}}
GM = {"seat_id": "gm", "role": "gm", "label": "GM", "combatants": []}
ALICE = {"seat_id": "player-1", "role": "player", "label": "alice", "combatants": ["alice"]}


def _parse(line: str, seat: dict[str, Any] = GM) -> Any:
    return parse_line(line, STATE, seat, None, [], TOOLS)


def test_tool_alone_lists_the_tools() -> None:
    assert _parse("tool") == Local("tools")


def test_inputs_are_key_value_read_as_their_schema_wants() -> None:
    """ls is text in the schema: ls=4 is sent as "4"; height is a whole number."""
    assert _parse("tool exposure damage=2d+1 ls=4") == Calc("exposure", {"damage": "2d+1", "ls": "4"})
    assert _parse("tool climbing climb=tree height=30 as=bob") == Calc("climbing", {"climb": "tree", "height": 30},
                                                                       "bob")


def test_a_unique_prefix_names_the_tool() -> None:
    assert _parse("tool jump basic_move=6").tool == "jumping"


def test_apply_names_the_targets_and_dice_the_faces() -> None:
    calc = _parse("tool exposure damage=1d apply=alice,bo dice=3/5")
    assert calc.targets == ("alice", "bob") and calc.faces == ((3,), (5,))


def test_a_player_runs_a_players_tool_for_its_own_combatant() -> None:
    assert _parse("tool throwing weight=6", ALICE) == Calc("throwing", {"weight": 6}, "alice")


def test_a_player_is_not_offered_a_gm_tool() -> None:
    with pytest.raises(InputError, match="no tool 'exposure'"):
        _parse("tool exposure", ALICE)


def test_an_input_the_tool_lacks_is_refused_naming_its_inputs() -> None:
    with pytest.raises(InputError, match="has no input 'speed'.*basic_move, run_up"):
        _parse("tool jumping speed=3")


def test_help_tool_name_shows_inputs_units_ranges_and_prefill() -> None:
    text = help_text(None, [], "tool jumping", TOOLS)
    assert text.splitlines()[0] == "tool jumping: Jumping (G-07)"
    assert "  basic_move=  Basic Move (yd/s): a whole number from 0 to 100; required; as= fills it from basic_move" \
        in text.splitlines()
    assert "ls=  Linear Scale (1 = human): a number or a fraction such as 1/36; default 1" in \
        help_text(None, [], "tool exposure", TOOLS)


def test_completion_offers_tool_names_then_the_inputs_left() -> None:
    assert completions("tool exp", STATE, GM, None, [], TOOLS) == ["exposure", "exposure_effects"]
    left = completions("tool jumping basic_move=6 ", STATE, GM, None, [], TOOLS)
    assert left == ["run_up=<a whole number from 0 to 1000>", "as=<combatant>", "apply=<combatant,...>"]
    assert "tool" in completions("", STATE, GM, None, [], TOOLS)


def test_the_gm_runs_and_applies_a_tool_in_the_terminal(terminal: Terminal, table: Table) -> None:
    """Bob (HT 11, HP 12) in 60 deg F water, the HT roll failed by 6: 2 HP lost as it is (V-28): 12 -> 10."""
    gm = _join(terminal, table, "gm")
    gm.sendline("help tool temperature")
    gm.expect_exact("tool temperature: Cold, heat and water (V-28)")
    gm.expect_exact("ht=  HT: a whole number from 1 to 40; required; as= fills it from ht")
    gm.sendline("tool temperature temperature=60 medium=water failed_by=6 loses=hp as=bob")
    gm.expect_exact("temperature: feels like 40 deg F; HT against 11 every half hour; lose 2 HP")
    gm.expect_exact("water: 70 + 3 x (60 - 70) → 40  (V-28)")
    gm.sendline("tool temperature temperature=60 medium=water failed_by=6 loses=hp as=bob apply=bob")
    gm.expect(r"The GM applies Cold, heat and water to Bob: 2 injury \(V-28\)")
    gm.expect(r"bob\s+Bob\s+PC\s+10/12")


def test_a_player_runs_jumping_but_not_a_gm_tool(terminal: Terminal, table: Table) -> None:
    """Alice: DX 12, HT 11 -> Basic Move 5: high jump 20 in, broad jump 7 ft (G-07)."""
    alice = _join(terminal, table, "alice")
    alice.sendline("tool jumping")
    alice.expect_exact("jumping: high jump 20 in, broad jump 7 ft")
    alice.sendline("tool exposure damage=1d")
    alice.expect_exact("error: input: no tool 'exposure'")
    alice.sendline("tool ?")
    alice.expect_exact("next: jumping | throwing")
    with pytest.raises(pexpect.TIMEOUT):
        alice.expect_exact("Traceback", timeout=0.5)
