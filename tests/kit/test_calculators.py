"""The calculator kit (#12): inputs checked from the spec, defaults filled, steps as JSON."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

import pytest

from combat_server.errors import Rejected
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm, Step, number, registry
from combat_server.rules.model import JSON


def _double(inputs: Mapping[str, JSON]) -> Calculation:
    height = int(str(inputs["height"]))
    return Calculation(tool="double", inputs=inputs, steps=(Step("height x 2", height * 2, "X-01"),),
                       result={"twice": height * 2}, summary=f"{height * 2}",
                       harm=Harm(dice=height, adds=0, kind="cr", rule="X-01"))


SPEC = CalculatorSpec(
    name="double", title="Double", rules=("X-01",), run=_double, required=("height",),
    inputs={"height": {"type": "integer", "minimum": 0, "maximum": 100, "title": "Height", "x-unit": "yd"},
            "ground": {"type": "string", "enum": ["soft", "hard"], "default": "hard"}},
)


def test_defaults_are_filled_in() -> None:
    assert SPEC.check({"height": 3}) == {"height": 3, "ground": "hard"}


@pytest.mark.parametrize(("raw", "code", "field"), [
    ({}, "tool/missing_input", "height"),
    ({"height": -1}, "tool/bad_input", "height"),
    ({"height": "ten"}, "tool/bad_input", "height"),
    ({"height": 1, "ground": "lava"}, "tool/bad_input", "ground"),
])
def test_a_bad_input_is_refused_naming_the_field(raw: dict[str, JSON], code: str, field: str) -> None:
    with pytest.raises(Rejected) as info:
        SPEC.calculate(raw)
    assert info.value.code == code
    assert info.value.details["field"] == field


def test_an_unknown_input_is_refused() -> None:
    with pytest.raises(Rejected) as info:
        SPEC.calculate({"height": 1, "hieght": 2})
    assert info.value.code == "tool/unknown_input"


def test_the_result_is_json_with_its_steps_and_harm() -> None:
    out = SPEC.calculate({"height": 4}).to_json()
    assert out["steps"] == [{"text": "height x 2", "value": 8, "rule": "X-01"}]
    assert out["harm"] == {"dice": 4, "adds": 0, "kind": "cr", "rule": "X-01"}


def test_fractions_stay_exact_as_text() -> None:
    assert number(Fraction(7, 2)) == "7/2"
    assert number(Fraction(4, 2)) == 2


def test_the_spec_is_sent_as_json_schema() -> None:
    out = SPEC.to_json()
    assert out["inputs"]["required"] == ["height"]
    assert out["rules"] == ["X-01"]


def test_a_tool_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError):
        registry(SPEC, SPEC)


def test_a_whole_float_for_an_integer_input_reaches_the_tool_as_an_int() -> None:
    """JSON Schema's integer takes 3.0 (#12): the tool gets 3, never a float it did not expect."""
    checked = SPEC.check({"height": 3.0})
    assert checked["height"] == 3 and isinstance(checked["height"], int)


def test_harm_rolls_with_its_multiplier_floored_once() -> None:
    """R-01: (5 + 6 + 1) x 1/6 = 2; (1 + 1 + 1) x 1/6 = 1/2 -> 0; never below 0 with negative adds."""
    harm = Harm(dice=2, adds=1, kind="burn", rule="X-01", multiplier=Fraction(1, 6))
    assert (harm.total((5, 6)), harm.total((1, 1)), harm.text()) == (2, 0, "2d+1 x 1/6 burn")
    assert Harm(dice=1, adds=-5, kind="cr", rule="X-01").total((2,)) == 0
    assert Harm(dice=0, adds=3, kind="fat", rule="X-01").text() == "3 fat"


def test_workings_record_each_step_as_it_is_worked_out() -> None:
    from combat_server.rules.kit.calculators import Workings
    w = Workings("double", {"height": 3})
    assert w.step("3 / 2", Fraction(3, 2), "X-01") == Fraction(3, 2)
    calc = w.done({"half": "3/2"}, "half")
    assert calc.steps == (Step("3 / 2", "3/2", "X-01"),) and calc.harm is None


def test_prefill_reads_a_combatants_numbers_by_dotted_path_and_fraction_text() -> None:
    spec = CalculatorSpec(name="p", title="P", rules=("X-01",), run=_double,
                          inputs={"height": {"type": "integer"}, "lift": {"type": "number"},
                                  "skill": {"type": "integer"}, "half": {"type": "integer"}},
                          prefill={"height": "st", "lift": "basic_lift", "skill": "skills.Climbing", "half": "bs"})
    numbers = {"st": 12, "basic_lift": "144/5", "skills": {"Climbing": 13}, "bs": "23/4"}
    assert spec.prefilled(numbers) == {"height": 12, "lift": 28.8, "skill": 13}  # 23/4 is no whole number
    assert spec.prefilled({"st": "strong"}) == {}


def test_prefill_of_several_paths_takes_the_first_the_combatant_has() -> None:
    """A prefill may name several paths (GULLIVER's Load ST, else ST): the first that gives a number wins,
    and the declaration sends them as a list."""
    spec = CalculatorSpec(name="p", title="P", rules=("X-01",), run=_double, inputs={"st": {"type": "integer"}},
                          prefill={"st": ("load_st.st", "st")})
    assert spec.prefilled({"st": 10, "load_st": {"st": 20, "rule": "V-01"}}) == {"st": 20}
    assert spec.prefilled({"st": 10}) == {"st": 10}
    assert spec.prefilled({"st": 10, "load_st": {"st": "strong"}}) == {"st": 10}
    assert spec.to_json()["prefill"] == {"st": ["load_st.st", "st"]}


def test_harm_takes_minus_off_after_the_multiplier() -> None:
    """E-17's 6d-5 rolled as 3d x 2 - 5 (R-03, A-43): 3 + 4 + 5 = 12 -> 24 - 5 = 19; 1 + 1 + 1 -> 6 - 5 = 1."""
    harm = Harm(dice=3, adds=0, kind="cr", rule="X-01", multiplier=Fraction(2), minus=Fraction(5))
    assert (harm.total((3, 4, 5)), harm.total((1, 1, 1)), harm.text()) == (19, 1, "3d x 2 - 5 cr")
    assert harm.to_json()["minus"] == 5
