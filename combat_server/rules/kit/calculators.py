"""GM tools as data: a calculator is a pure function declared once, like a command.

Why: the catalogue's ``[gm-tool]`` rules (falling, collisions, jumping, ...) are
calculations the GM runs beside the turn loop (#12). Declaring each one as a
:class:`CalculatorSpec` (its inputs as a JSON Schema with titles, units and
ranges, the rule ids it applies) lets the server validate the inputs, the web
page build its "GM tools" panel and the terminal client its ``tool`` verb from
one table, as commands do (rules/commands.py). The result carries its arithmetic
step by step, each step citing its rule id, so the audit shows how a number came
about; applying it (dice rolled and recorded, injury through the normal path) is
the ruleset's event, which carries the inputs and these steps.
"""

from __future__ import annotations

import importlib
import math
from fractions import Fraction
from typing import Any, Callable, Mapping, TypeVar

import attrs

from combat_server.errors import reject
from combat_server.rules.commands import describe_schema, first_bad_field
from combat_server.rules.model import JSON


@attrs.frozen
class Step:
    """One line of a calculation: what was done, the number it gave, and the rule that says so.

    ``value`` is the number as JSON: a whole number, a float only where a rule keeps
    decimals, or a fraction as text (``"7/2"``) where the catalogue keeps rationals
    (R-01: round once at the end; R-03: fractional collision dice).
    """

    text: str
    value: JSON
    rule: str

    def to_json(self) -> dict[str, JSON]:
        return {"text": self.text, "value": self.value, "rule": self.rule}


def number(value: Fraction | int | float) -> JSON:
    """A step's value as JSON: a whole number as an int, any other fraction as ``"p/q"`` text."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return value


@attrs.frozen
class Harm:
    """What applying a calculation does to a combatant: dice of damage of a type (``3d+2 cr``).

    ``dice`` and ``adds`` are the roll to make when the GM applies it (rolled and
    recorded like any roll, manual faces allowed; no dice: a fixed number of points).
    ``multiplier`` scales the rolled total for rules that scale damage (exposure by
    body size, a collision's mass and hardness) and ``minus`` is taken off after it
    (absorption, which cannot be folded into whole ``adds`` once the total is
    scaled): both kept exact, the result floored once at the end (R-01). ``kind`` is
    the damage type the ruleset's injury path takes (``cr``, ``burn``, ``fat`` for
    fatigue, ...).
    """

    dice: int
    adds: int
    kind: str
    rule: str
    multiplier: Fraction = Fraction(1)
    minus: Fraction = Fraction(0)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"dice": self.dice, "adds": self.adds, "kind": self.kind, "rule": self.rule}
        if self.multiplier != 1:
            out["multiplier"] = number(self.multiplier)
        if self.minus:
            out["minus"] = number(self.minus)
        return out

    def text(self) -> str:
        adds = f"{self.adds:+d}" if self.adds else ""
        roll = f"{self.dice}d{adds}" if self.dice else str(self.adds)
        times = f" x {number(self.multiplier)}" if self.multiplier != 1 else ""
        minus = f" - {number(self.minus)}" if self.minus else ""
        return f"{roll}{times}{minus} {self.kind}"

    def total(self, faces: tuple[int, ...] | list[int]) -> int:
        """The points the rolled ``faces`` deal: (sum + adds) x multiplier - minus, floored once (R-01),
        never below 0; the ruleset's injury path takes it from there (DR, wound multiplier, ...)."""
        return max(0, math.floor((sum(faces) + self.adds) * self.multiplier - self.minus))


@attrs.frozen
class Calculation:
    """The outcome of a calculator: named results, the steps that led there, a one-line summary.

    ``harm`` is present when the result can be applied to a combatant (an injury to
    roll); a purely informative result (a jump distance) has none.
    """

    tool: str
    inputs: Mapping[str, JSON]
    steps: tuple[Step, ...]
    result: Mapping[str, JSON]
    summary: str
    harm: Harm | None = None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "tool": self.tool,
            "inputs": dict(self.inputs),
            "steps": [s.to_json() for s in self.steps],
            "result": dict(self.result),
            "summary": self.summary,
        }
        if self.harm is not None:
            out["harm"] = self.harm.to_json()
        return out


_T = TypeVar("_T")


class Workings:
    """The steps of one calculation as it runs: each number is written down with its rule id
    when it is worked out, so the steps cannot drift from the arithmetic."""

    def __init__(self, tool: str, inputs: Mapping[str, JSON]) -> None:
        self.tool = tool
        self.inputs = inputs
        self.steps: list[Step] = []

    def step(self, text: str, value: _T, rule: str) -> _T:
        """Write down ``value`` (returned unchanged) with what it is and the rule that says so."""
        self.steps.append(Step(text, number(value) if isinstance(value, (Fraction, int, float)) else value, rule))
        return value

    def done(self, result: Mapping[str, JSON], summary: str, harm: Harm | None = None) -> Calculation:
        return Calculation(self.tool, dict(self.inputs), tuple(self.steps), dict(result), summary, harm)


@attrs.frozen
class CalculatorSpec:
    """One GM tool as data.

    ``inputs`` maps each input to its JSON Schema (``type``, ``minimum``/``maximum``,
    ``enum``, plus ``title`` and ``x-unit`` for the form); ``required`` lists the
    ones without a default. ``prefill`` maps an input to the name of a number of the
    chosen combatant (a sheet field or a derived number, e.g. ``"st"``, ``"hp"``,
    ``"basic_move"``) the clients fill it with, or to several such names, the first the
    combatant has winning (GULLIVER's Load ST where the view gives one, else ST). ``players``: a player may run it for
    its own combatant (read-only tools: jump distance, throwing range). ``run`` is
    pure: validated inputs (defaults filled in) -> :class:`Calculation`.
    """

    name: str
    title: str
    rules: tuple[str, ...]
    inputs: Mapping[str, Mapping[str, JSON]]
    run: Callable[[Mapping[str, JSON]], Calculation]
    required: tuple[str, ...] = ()
    group: str = ""
    help: str = ""
    prefill: Mapping[str, str | tuple[str, ...]] = attrs.field(factory=dict)
    players: bool = False
    _validator: Any = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not set(self.required) <= set(self.inputs):
            raise ValueError(f"tool {self.name}: required inputs it does not declare")
        if not set(self.prefill) <= set(self.inputs):
            raise ValueError(f"tool {self.name}: prefill names inputs it does not declare")
        cls = importlib.import_module("jsonschema").Draft202012Validator
        cls.check_schema(self.schema())
        object.__setattr__(self, "_validator", cls(self.schema()))

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of the tool's inputs object."""
        return {"type": "object", "properties": {k: dict(v) for k, v in self.inputs.items()},
                "required": list(self.required), "additionalProperties": False}

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"name": self.name, "title": self.title, "rules": list(self.rules),
                                "inputs": self.schema()}
        for key in ("group", "help"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.prefill:
            out["prefill"] = {k: v if isinstance(v, str) else list(v) for k, v in self.prefill.items()}
        if self.players:
            out["players"] = True
        return out

    def check(self, raw: Mapping[str, JSON]) -> dict[str, JSON]:
        """The inputs with defaults filled in, or ``tool/unknown_input`` / ``tool/missing_input`` /
        ``tool/bad_input`` naming the field and what it must be."""
        unknown = sorted(k for k in raw if k not in self.inputs)
        if unknown:
            raise reject("tool/unknown_input", f"{self.name}: no input {', '.join(repr(k) for k in unknown)}",
                         fields=unknown)
        for name in self.required:
            if name not in raw:
                raise reject("tool/missing_input", f"{self.name}: input {name!r} is required", field=name)
        bad = first_bad_field(self._validator, raw, list(self.inputs))
        if bad is not None:
            schema = self.inputs[bad]
            details: dict[str, JSON] = {"field": bad}
            if "enum" in schema:
                details["known"] = list(schema["enum"])
            # a pattern says little to a person: its description says what to type ("a fraction such as 1/36")
            what = schema["description"] if "pattern" in schema and "description" in schema else describe_schema(schema)
            raise reject("tool/bad_input", f"{self.name}: input {bad!r} must be {what}", **details)
        out = {k: v["default"] for k, v in self.inputs.items() if "default" in v}
        out.update(raw)
        for name, value in out.items():  # JSON Schema's integer takes 2.0: the tools get 2
            if isinstance(value, float) and self.inputs[name].get("type") == "integer":
                out[name] = int(value)
        return out

    def calculate(self, raw: Mapping[str, JSON]) -> Calculation:
        """Check the inputs, then run the tool."""
        return self.run(self.check(raw))

    def prefilled(self, numbers: Mapping[str, JSON]) -> dict[str, JSON]:
        """The inputs ``prefill`` finds in a combatant's ``numbers`` (``Ruleset.tool_numbers``).

        A path may be dotted (``skills.Climbing``); a number written as ``"p/q"`` text
        is read as a number; of several paths the first that gives a number counts; a value
        missing or of the wrong kind is left out (the input keeps its default, or must be given).
        """
        out: dict[str, JSON] = {}
        for name, paths in self.prefill.items():
            candidates = (paths,) if isinstance(paths, str) else paths
            found = next((n for n in (_as_number(_at_path(numbers, p)) for p in candidates) if n is not None), None)
            if found is None:
                continue
            if self.inputs[name].get("type") == "integer":
                if found.denominator == 1:
                    out[name] = int(found)
            else:
                out[name] = int(found) if found.denominator == 1 else float(found)
        return out


def _as_number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float) and math.isfinite(value):
        return Fraction(value)
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            return None
    return None


def registry(*specs: CalculatorSpec) -> Mapping[str, CalculatorSpec]:
    """Specs by name; two with one name is a programming error."""
    out: dict[str, CalculatorSpec] = {}
    for spec in specs:
        if spec.name in out:
            raise ValueError(f"tool {spec.name} declared twice")
        out[spec.name] = spec
    return out


def _at_path(numbers: Mapping[str, JSON], path: str) -> Any:
    """The value a dotted prefill path names in a combatant's numbers, or None."""
    value: Any = numbers
    for part in path.split("."):
        value = value.get(part) if isinstance(value, Mapping) else None
    return value
