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
from fractions import Fraction
from typing import Any, Callable, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.commands import describe_schema
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
    recorded like any roll, manual faces allowed); ``per_die`` is for rules that
    deal e.g. 1 point per die (0: normal d6 faces). ``kind`` is the damage type the
    ruleset's injury path takes (``cr``, ``burn``, ``fat`` for fatigue, ...).
    """

    dice: int
    adds: int
    kind: str
    rule: str

    def to_json(self) -> dict[str, JSON]:
        return {"dice": self.dice, "adds": self.adds, "kind": self.kind, "rule": self.rule}

    def text(self) -> str:
        adds = f"{self.adds:+d}" if self.adds else ""
        return f"{self.dice}d{adds} {self.kind}"


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


@attrs.frozen
class CalculatorSpec:
    """One GM tool as data.

    ``inputs`` maps each input to its JSON Schema (``type``, ``minimum``/``maximum``,
    ``enum``, plus ``title`` and ``x-unit`` for the form); ``required`` lists the
    ones without a default. ``prefill`` maps an input to the name of a number of the
    chosen combatant (a sheet field or a derived number, e.g. ``"st"``, ``"hp"``,
    ``"basic_move"``) the clients fill it with. ``players``: a player may run it for
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
    prefill: Mapping[str, str] = attrs.field(factory=dict)
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
            out["prefill"] = dict(self.prefill)
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
        order = list(self.inputs)
        errors = [e for e in self._validator.iter_errors(dict(raw)) if e.absolute_path]
        if errors:
            error = min(errors, key=lambda e: order.index(str(e.absolute_path[0])))
            name = str(error.absolute_path[0])
            schema = self.inputs[name]
            details: dict[str, JSON] = {"field": name}
            if "enum" in schema:
                details["known"] = list(schema["enum"])
            raise reject("tool/bad_input", f"{self.name}: input {name!r} must be {describe_schema(schema)}",
                         **details)
        out = {k: v["default"] for k, v in self.inputs.items() if "default" in v}
        out.update(raw)
        return out

    def calculate(self, raw: Mapping[str, JSON]) -> Calculation:
        """Check the inputs, then run the tool."""
        return self.run(self.check(raw))


def registry(*specs: CalculatorSpec) -> Mapping[str, CalculatorSpec]:
    """Specs by name; two with one name is a programming error."""
    out: dict[str, CalculatorSpec] = {}
    for spec in specs:
        if spec.name in out:
            raise ValueError(f"tool {spec.name} declared twice")
        out[spec.name] = spec
    return out
