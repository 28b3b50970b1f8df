"""Any inputs a client may send either run a tool or are refused with a ``tool/...`` error naming the
field, never another exception (which the server would answer with internal/error)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from combat_server.errors import Rejected
from combat_server.rules.gurps.tools.catalog import CALCULATORS

#: Values at the edges of the input schemas (bool is not a number, 2.0 is a whole number, ...).
EDGES: list[Any] = [None, True, False, 0, 1, -1, 2.0, 2.5, 1e-9, 1e300, -1e300, 100, 10001, 10 ** 20, "", "x", "0",
                    "1/0", "0/5", "0.5/2", "1/36", "4", "9" * 400, "1/" + "9" * 400, "2d+1", "51d", "0d+3", "3d-100",
                    [], {}, "water", "stone_wall", "hp", "fat"]


def _inputs(spec_name: str) -> st.SearchStrategy[dict[str, Any]]:
    spec = CALCULATORS[spec_name]
    values = st.sampled_from(EDGES) | st.integers(-10 ** 6, 10 ** 6) | st.floats(allow_nan=False,
                                                                                  allow_infinity=False)
    enum_values = [v for schema in spec.inputs.values() for v in schema.get("enum", [])]
    if enum_values:
        values = values | st.sampled_from(enum_values)
    return st.dictionaries(st.sampled_from(list(spec.inputs)), values, max_size=len(spec.inputs))


@pytest.mark.parametrize("name", sorted(CALCULATORS))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_inputs_run_or_are_refused_naming_the_field(name: str, data: st.DataObject) -> None:
    raw = data.draw(_inputs(name))
    try:
        CALCULATORS[name].calculate(raw)
    except Rejected as exc:
        assert exc.code.startswith("tool/")
        assert exc.details.get("field") in CALCULATORS[name].inputs or exc.details.get("fields")


@pytest.mark.parametrize("text", ["0.5/2", "2.5/3"])
def test_a_ratio_may_have_a_decimal_numerator(text: str) -> None:
    assert CALCULATORS["exposure"].calculate({"ls": text}).harm is not None


def test_a_ratio_out_of_range_is_refused_naming_it() -> None:
    with pytest.raises(Rejected) as err:
        CALCULATORS["exposure"].calculate({"ls": "9" * 400})
    assert err.value.details["field"] == "ls"
