"""The ``creature`` GM tool (S-16, A-63): a body type's hit-location table with what the size puts out
of reach, and the predator style's AT and dodge DEF modified by AG like any style (S-26, S-03);
numbers worked by hand from the seed text."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.kit.calculators import Calculation
from combat_server.rules.shell.ruleset import ShellRuleset

TOOL = ShellRuleset.calculators["creature"]


def _run(**inputs: Any) -> Calculation:
    return TOOL.calculate(inputs)


def _at(calc: Calculation) -> dict[str, int]:
    return {str(r["location"]): int(r["at"]) for r in calc.result["locations"]}  # type: ignore[union-attr, index, call-overload]


def test_shell_declares_the_creature_tool_citing_s16_and_a63() -> None:
    assert list(ShellRuleset.calculators) == ["creature"]
    assert {"S-16", "A-63"} <= set(TOOL.rules) and TOOL.prefill == {"ag": "ag_now", "el": "el"}


def test_a_tiger_predator_5_with_ag_16() -> None:
    """AT = 5 + floor((16 - 10) / 2) = 8; dodge = 5 + ceil(6 / 2) - (1 + 0) = 7; damage floor(4 / 3) = +1."""
    calc = _run(body="quadruped", predator=5, ag=16)
    assert (calc.result["at"], calc.result["dodge_def"], calc.result["damage_bonus"]) == (8, 7, 1)


def test_a_predator_with_low_ag_and_encumbrance() -> None:
    """Predator 6, AG 9, EL 2: AT = 6 + floor(-1 / 2) = 5; dodge = 6 + ceil(-1 / 2) - (1 + 2) = 3;
    damage floor(5 / 3) = +1."""
    calc = _run(predator=6, ag=9, el=2)
    assert (calc.result["at"], calc.result["dodge_def"], calc.result["damage_bonus"]) == (5, 3, 1)


def test_a_level_1_predator_has_no_damage_bonus() -> None:
    """S-11: +1 per 3 levels above the first: floor(0 / 3) = 0."""
    assert _run(predator=1, ag=10).result["damage_bonus"] == 0


def test_the_quadrupeds_table_replaces_the_humanoid_one() -> None:
    """S-16: a quadruped is -2 to the head or face; A-63: the table replaces the humanoid one (face -2,
    not -3 or -5); it has four legs and feet and no arms or hands."""
    table = _at(_run(body="quadruped"))
    assert (table["head"], table["face"], table["torso"]) == (-2, -2, 0)
    assert (table["left foreleg"], table["right hind foot"]) == (-1, -3)
    assert "left arm" not in table and "right hand" not in table and len(table) == 16


def test_the_humanoid_table_is_the_s29_chart() -> None:
    table = _at(_run())
    assert (table["face"], table["neck"], table["left eye"], table["right hand"], table["left leg"]) == \
        (-3, -4, -5, -3, -1)


def test_a_centaur_has_a_humanoid_portion_on_four_legs() -> None:
    """S-16's centaur: head -2, face -3, arms and hands as a humanoid's (S-29), four legs and feet."""
    table = _at(_run(body="centaur"))
    assert (table["face"], table["left arm"], table["right hand"]) == (-3, -1, -3)
    assert (table["left foreleg"], table["right hind foot"]) == (-1, -3) and len(table) == 20


def test_a_centaurs_hind_legs_are_the_far_side_from_the_front() -> None:
    """S-16: attacking a centaur's hind legs from the front is a far-side attack: leg -1 and -3 = -4."""
    calc = _run(body="centaur")
    assert calc.result["far_side"] == ["left hind leg", "right hind leg", "left hind foot", "right hind foot"]
    assert any(s.value == -4 and "left hind leg" in s.text and s.rule == "S-16, S-29" for s in calc.steps)


def test_a_centaurs_humanoid_portion_is_the_far_side_from_behind() -> None:
    far = _run(body="centaur", facing="behind").result["far_side"]
    assert far == ["head", "face", "neck", "left eye", "right eye", "left arm", "right arm", "left hand", "right hand"]


def test_a_quadruped_has_no_far_side_by_shape() -> None:
    assert _run(body="quadruped").result["far_side"] == []


def test_a_tiny_creatures_eyes_are_out_of_reach() -> None:
    assert _run(size="tiny").result["unreachable"] == ["left eye", "right eye"]


def test_a_huge_creatures_head_face_neck_and_eyes_are_out_of_reach() -> None:
    assert _run(size="huge").result["unreachable"] == ["head", "face", "neck", "left eye", "right eye"]


def test_from_higher_ground_a_huge_creature_has_nothing_out_of_reach() -> None:
    assert _run(size="huge", higher=True).result["unreachable"] == []


def test_every_step_cites_a_rule() -> None:
    calc = _run(body="quadruped", size="huge", predator=6, ag=18)
    rules = {s.rule for s in calc.steps}
    assert all(s.rule for s in calc.steps)
    assert {"S-16, A-63", "S-16", "S-03", "S-26", "S-11, R-20"} <= rules


def test_the_tool_is_informational_with_nothing_to_apply() -> None:
    assert _run(body="quadruped").harm is None


@pytest.mark.parametrize("inputs,code,field", [
    ({"body": "serpent"}, "tool/bad_input", "body"),
    ({"size": "gigantic"}, "tool/bad_input", "size"),
    ({"predator": -1}, "tool/bad_input", "predator"),
    ({"ag": 0}, "tool/bad_input", "ag"),
    ({"el": 5}, "tool/bad_input", "el"),
    ({"facing": "above"}, "tool/bad_input", "facing"),
])
def test_a_bad_input_is_refused_naming_the_field(inputs: dict[str, Any], code: str, field: str) -> None:
    with pytest.raises(Rejected) as err:
        TOOL.calculate(inputs)
    assert err.value.code == code and err.value.details["field"] == field


def test_an_unknown_input_is_refused() -> None:
    with pytest.raises(Rejected) as err:
        TOOL.calculate({"tail": 1})
    assert err.value.code == "tool/unknown_input"


def test_gm_tools_doc_lists_the_creature_tool_with_its_rules_and_inputs() -> None:
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "gm-tools.md").read_text(encoding="utf-8")
    heading = f"#### `{TOOL.name}`: {TOOL.title} ({', '.join(TOOL.rules)})"
    assert heading in text
    section = text[text.index(heading):]
    assert all(f"| `{name}` |" in section for name in TOOL.inputs)


def test_the_terminal_client_reads_the_creature_tool_from_its_declaration() -> None:
    """``tool creature body=quadruped predator=6 as=wolf`` runs it prefilled from the wolf; ``help tool
    creature`` shows each input with its choices and what ``as=`` fills."""
    from combat_server.tui import Calc, help_text, parse_line

    tools = [TOOL.to_json()]
    state = {"combatants": {"wolf": {"name": "Wolf"}}}
    gm = {"seat_id": "gm", "role": "gm", "label": "GM", "combatants": []}
    assert parse_line("tool creature body=quadruped predator=6 as=wolf", state, gm, None, [], tools) == \
        Calc("creature", {"body": "quadruped", "predator": 6}, "wolf")
    text = help_text(None, [], "tool creature", tools)
    assert "quadruped" in text and "ag_now" in text
