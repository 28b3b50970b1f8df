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
