"""Per-fight options as data: one :class:`OptionSpec` per option a ruleset offers.

Why specs and not a dict of defaults: validation (``fight/bad_option`` naming the
allowed values) and the clients' create-fight form come from the same
declaration, so a new option is one spec in its ruleset and nothing else.
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

import attrs

from combat_server.errors import reject
from combat_server.rules.model import JSON

#: Option types, by their JSON Schema names.
OPTION_TYPES = ("boolean", "integer", "number", "string")


@attrs.frozen
class OptionSpec:
    """One per-fight option.

    ``choices``: the allowed values (empty: any value of the type, within
    ``minimum``/``maximum`` for numbers). ``excludes``/``requires``: options that
    may not / must also be in use when this one is; an option is *in use* when it
    is a boolean set to true, or another type set to a value other than its default.
    """

    name: str
    type: str
    default: JSON
    help: str
    label: str = ""
    rules: tuple[str, ...] = ()
    group: str = "General"
    choices: tuple[JSON, ...] = ()
    minimum: int | float | None = None
    maximum: int | float | None = None
    excludes: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()

    def __attrs_post_init__(self) -> None:
        if self.type not in OPTION_TYPES:
            raise ValueError(f"option {self.name}: type must be one of {', '.join(OPTION_TYPES)}")
        if _type_error(self, self.default) or _value_error(self, self.default):
            raise ValueError(f"option {self.name}: the default {self.default!r} is not an allowed value")

    def in_use(self, value: JSON) -> bool:
        return value is True if self.type == "boolean" else value != self.default

    def allowed(self) -> str:
        """The allowed values in words, for error messages and help."""
        if self.choices:
            return "one of " + ", ".join(_show(c) for c in self.choices)
        kind = {"boolean": "true or false", "integer": "an integer", "number": "a number", "string": "a string"}[self.type]
        if self.minimum is not None and self.maximum is not None:
            return f"{kind} from {_show(self.minimum)} to {_show(self.maximum)}"
        if self.minimum is not None:
            return f"{kind} of at least {_show(self.minimum)}"
        if self.maximum is not None:
            return f"{kind} of at most {_show(self.maximum)}"
        return kind

    def to_json(self) -> dict[str, JSON]:
        """The spec as clients get it (docs/protocol.md, ``welcome.rulesets``)."""
        out: dict[str, JSON] = {
            "name": self.name, "type": self.type, "default": self.default, "label": self.label or self.name,
            "help": self.help, "rules": list(self.rules), "group": self.group,
            "excludes": list(self.excludes), "requires": list(self.requires),
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def specs_from_defaults(defaults: Mapping[str, JSON]) -> tuple[OptionSpec, ...]:
    """Specs for a ruleset that declares only defaults (the type of each default, no help)."""
    kinds = {bool: "boolean", int: "integer", float: "number", str: "string"}
    return tuple(OptionSpec(name, kinds[type(value)], value, "") for name, value in defaults.items()
                 if type(value) in kinds)


def check_specs(owner: str, specs: Sequence[OptionSpec]) -> None:
    """A ruleset's specs name each option once and refer only to each other."""
    names = [s.name for s in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"{owner}: an option is declared twice")
    for s in specs:
        unknown = sorted((set(s.excludes) | set(s.requires)) - set(names))
        if unknown:
            raise ValueError(f"{owner}: option {s.name} refers to unknown option(s) {', '.join(unknown)}")


def validate(ruleset: str, specs: Iterable[OptionSpec], raw: Mapping[str, JSON]) -> dict[str, JSON]:
    """Every option with its value (the defaults filled in), or the first reason it is refused."""
    by_name = {s.name: s for s in specs}
    if not isinstance(raw, Mapping):
        raise reject("fight/bad_option", "options must be an object of option names and values")
    unknown = sorted(set(raw) - set(by_name))
    if unknown:
        raise reject("fight/unknown_option", f"unknown option(s) for ruleset {ruleset}: {', '.join(unknown)}",
                     known=sorted(by_name))
    given: dict[str, JSON] = {}
    for name, value in raw.items():
        spec = by_name[name]
        if spec.type == "integer" and type(value) is float and value.is_integer():
            value = int(value)  # JSON Schema's integer takes 2.0 (a client that writes numbers as floats): stored as 2
        if _type_error(spec, value) or _value_error(spec, value):
            raise reject("fight/bad_option", f"option {name} must be {spec.allowed()}, got {_show(value)}",
                         option=name, allowed=spec.allowed())
        given[name] = value
    options = {s.name: given.get(s.name, s.default) for s in by_name.values()}
    for spec in by_name.values():
        if not spec.in_use(options[spec.name]):
            continue
        for other in spec.excludes:
            if by_name[other].in_use(options[other]):
                raise reject("fight/option_conflict", f"option {spec.name} cannot be used with option {other}",
                             option=spec.name, excludes=other)
        for other in spec.requires:
            if not by_name[other].in_use(options[other]):
                raise reject("fight/option_conflict", f"option {spec.name} needs option {other} too",
                             option=spec.name, requires=other)
    return options


def _type_error(spec: OptionSpec, value: object) -> bool:
    if spec.type == "boolean":
        return type(value) is not bool
    if spec.type == "integer":
        return type(value) is not int
    if spec.type == "number":
        return type(value) not in (int, float)
    return type(value) is not str


def _value_error(spec: OptionSpec, value: JSON) -> bool:
    if spec.choices and value not in spec.choices:
        return True
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if spec.minimum is not None and value < spec.minimum:
            return True
        if spec.maximum is not None and value > spec.maximum:
            return True
    return False


def _show(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return repr(value) if isinstance(value, str) else str(value)
