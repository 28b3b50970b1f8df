"""The GURPS sheet schema (#9, sheet schema) and validate_sheet agree: every sheet the
schema allows is accepted, and every bound the schema states is refused with
``sheet/bad_field`` naming the field."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterator

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.gurps.sheet import validate_sheet
from combat_server.rules.gurps.sheet_schema import sheet_schema

SCHEMA = sheet_schema()


def _decimals(validator: Any, places: int, instance: Any, schema: Any) -> Iterator[jsonschema.ValidationError]:
    """The schema's ``x-decimals`` annotation, as a client that honours it checks it (#15 item 4)."""
    if isinstance(instance, (int, float)) and not isinstance(instance, bool) and round(instance, places) != instance:
        yield jsonschema.ValidationError(f"{instance} has more than {places} decimals")


def _rational(validator: Any, on: bool, instance: Any, schema: Any) -> Iterator[jsonschema.ValidationError]:
    """The GULLIVER block's ``x-rational`` annotation: a rational written as text ("1/36") keeps the
    bounds the schema states for numbers (A-27, catalogue 2.0)."""
    if on and isinstance(instance, str):
        try:
            value = Fraction(instance)
        except (ValueError, ZeroDivisionError):
            yield jsonschema.ValidationError(f"{instance!r} is not a number")
            return
        if not schema["exclusiveMinimum"] < value <= schema["maximum"]:
            yield jsonschema.ValidationError(f"{instance} is out of bounds")


VALIDATOR = jsonschema.validators.extend(jsonschema.Draft202012Validator,
                                         {"x-decimals": _decimals, "x-rational": _rational})(SCHEMA)


def _strategy(schema: dict[str, Any]) -> Any:
    """Values valid by ``schema`` (the keywords the sheet schema uses), optional properties sometimes left out."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    options: list[Any] = []
    for t in types:
        if t == "null":
            options.append(st.none())
        elif t == "integer":
            options.append(st.integers(schema.get("minimum"), schema.get("maximum")))
        elif t == "number":
            lo, hi = schema.get("minimum", 0), schema.get("maximum", 10**6)
            places = schema.get("x-decimals")
            if places is None:
                options.append(st.floats(lo, hi, allow_nan=False) | st.integers(int(lo), int(hi)))
            else:  # at most that many decimals, written as people write them (1.001, 0.125)
                options.append(st.integers(int(lo * 10**places), int(hi * 10**places))
                               .map(lambda k, p=places: round(k / 10**p, p)))
        elif t == "boolean":
            options.append(st.booleans())
        elif t == "string":
            if "pattern" in schema and schema["pattern"] != r"\S":
                options.append(st.from_regex(schema["pattern"], fullmatch=True))
            elif "pattern" in schema:
                options.append(st.text(min_size=1, max_size=12).filter(lambda s: s.strip() != ""))
            else:
                options.append(st.text(max_size=12))
        elif t == "array":
            items = st.lists(_strategy(schema["items"]), max_size=4)
            key = schema.get("x-unique-by")
            if key:  # validate_sheet compares the names as it stores them: trimmed
                items = items.filter(lambda xs: len({x[key].strip() for x in xs}) == len(xs))
            options.append(items)
        elif t == "object":
            if "properties" not in schema:
                options.append(st.dictionaries(st.text(max_size=12), _strategy(schema["additionalProperties"]),
                                               max_size=3))
                continue
            required = set(schema.get("required", ()))
            props = {k: _strategy(v) for k, v in schema["properties"].items()}
            options.append(st.fixed_dictionaries(
                {k: s for k, s in props.items() if k in required},
                optional={k: s for k, s in props.items() if k not in required}))
    return st.one_of(*options)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(_strategy(SCHEMA).filter(VALIDATOR.is_valid))
def test_every_sheet_the_schema_allows_is_accepted(raw: dict[str, Any]) -> None:
    validate_sheet(raw)


def test_the_ruleset_serves_its_schema_and_it_is_a_valid_json_schema() -> None:
    schema = GurpsRuleset().sheet_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema == SCHEMA
    assert all("title" in p and "description" in p for p in schema["properties"].values())
    weapon = schema["properties"]["weapons"]["items"]
    assert all("title" in p and "description" in p for p in weapon["properties"].values())


def _bounds(schema: dict[str, Any], path: str) -> list[tuple[str, Any]]:
    """(field path, a value just outside the schema) for every stated bound, enum and type."""
    out: list[tuple[str, Any]] = []
    if "minimum" in schema:
        out.append((path, schema["minimum"] - 1))
    if "maximum" in schema:
        out.append((path, schema["maximum"] + 1))
    if "enum" in schema:
        out.append((path, "no-such-" + path))
    types = schema.get("type")
    if types in ("integer", ["integer", "null"]):
        out += [(path, "7"), (path, 2.5), (path, True)]
    elif types == "number":
        out += [(path, "7"), (path, True)]
    if "x-decimals" in schema:
        out.append((path, round(1 + 10.0 ** -(schema["x-decimals"] + 1), schema["x-decimals"] + 1)))
    elif types == "boolean":
        if not path.endswith("st_based"):  # a historical leniency: any value counts as true or false
            out.append((path, "yes"))
    elif types == "string":
        out.append((path, 12))
    return out


SHEET_BOUNDS = [b for k, v in SCHEMA["properties"].items() if k not in ("weapons", "skills")
                for b in _bounds(v, k)]
WEAPON_BOUNDS = [b for k, v in SCHEMA["properties"]["weapons"]["items"]["properties"].items()
                 for b in _bounds(v, k)]


@pytest.mark.parametrize(("field", "value"), SHEET_BOUNDS, ids=[f"{f}={v!r}" for f, v in SHEET_BOUNDS])
def test_each_sheet_bound_of_the_schema_is_enforced(field: str, value: Any) -> None:
    raw = {field: value}
    assert not VALIDATOR.is_valid(raw)
    with pytest.raises(Rejected) as exc:
        validate_sheet(raw)
    assert exc.value.code == "sheet/bad_field" and exc.value.details["field"] == field


@pytest.mark.parametrize(("field", "value"), WEAPON_BOUNDS, ids=[f"{f}={v!r}" for f, v in WEAPON_BOUNDS])
def test_each_weapon_bound_of_the_schema_is_enforced(field: str, value: Any) -> None:
    weapon: dict[str, Any] = {"name": "axe", field: value}
    raw = {"weapons": [weapon]}
    assert not VALIDATOR.is_valid(raw)
    with pytest.raises(Rejected) as exc:
        validate_sheet(raw)
    assert exc.value.code == "sheet/bad_field" and exc.value.details["field"] == f"weapons[0].{field}"


@pytest.mark.parametrize(("raw", "field"), [
    ({"weapons": [{"skill": 12}]}, "weapons[0].name"),  # required
    ({"weapons": [{"name": "  "}]}, "weapons[0].name"),  # pattern: not blank
    ({"weapons": [{"name": "axe", "damage": "sw+x"}]}, "weapons[0].damage"),
    ({"weapons": [{"name": "axe", "damage": "51d"}]}, "weapons[0].damage"),
    ({"weapons": [{"name": "axe", "damage": "banana"}]}, "weapons[0].damage"),
    ({"weapons": [{"name": "bow", "kind": "ranged"}]}, "weapons[0].max_range"),  # if/then
    ({"weapons": [{"name": "axe", "edge": 1}]}, "weapons[0].edge"),  # additionalProperties
    ({"weapons": [{"name": "axe"}, {"name": "axe"}]}, "weapons"),  # x-unique-by
    ({"mana": 3}, "mana"),  # additionalProperties
    ({"skills": {"Climbing": 41}}, "skills"),
    ({"skills": {"Climbing": "12"}}, "skills"),
    ({"weapons": {"name": "axe"}}, "weapons"),
])
def test_the_schemas_structural_rules_are_enforced(raw: dict[str, Any], field: str) -> None:
    if field != "weapons" or isinstance(raw["weapons"], dict):
        assert not VALIDATOR.is_valid(raw)
    with pytest.raises(Rejected) as exc:
        validate_sheet(raw)
    assert exc.value.code == "sheet/bad_field" and exc.value.details["field"] == field
