"""Command specs: one per command, its args as a JSON Schema and the capability it needs.

Field checks and authorisation for every command, core or ruleset, come from this
one table (:func:`check_command`); the rules then see a principal
(``model.Principal``), never a seat role. Clients read the same specs
(``subscribed.commands``, docs/protocol.md).
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Callable, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.model import JSON, Command, FightState, Principal, Prompt

#: Who may send a command (``CommandSpec.capability``).
GM = "gm"  # the GM only
CONTROLS = "controls"  # a principal that controls the combatant named in ``subject``
ANSWERS = "answers"  # a principal that controls the combatant of the prompt named in ``subject``
ANY = "any"  # any principal that may act (not a watcher)
CAPABILITIES = (GM, CONTROLS, ANSWERS, ANY)

#: How a JSON type is named to users (JSON words, not Python's).
_JSON_WORDS: Mapping[str, str] = {"object": "an object", "array": "a list", "string": "text",
                                  "integer": "a whole number", "boolean": "true or false", "number": "a number",
                                  "null": "null"}


@attrs.frozen
class CommandSpec:
    """One command as data: its arguments (a JSON Schema) and who may send it.

    Why: field checks and authorisation for every command, core or ruleset, come
    from one table (:func:`check_command`), so a new ruleset declares its commands
    instead of re-implementing "is this a field?" and "may this seat do that?";
    clients and docs read the same specs (``subscribed.commands``).

    ``args`` maps each field to its JSON Schema; a field's ``x-error`` names the
    error code for a value it refuses when a more specific one than
    ``command/bad_field`` applies (``maneuver/unknown``). ``subject`` is the field
    naming the combatant (``controls``) or the prompt (``answers``, of kind
    ``prompt_kind``). ``gm_fields`` are fields only the GM may send (G-35
    circumstance modifiers). ``when_ended``: allowed after the fight ended.
    ``variant`` names a field whose value selects the fields that apply
    (``maneuver``); ``variants`` maps each value to them, besides ``required`` and
    ``variant`` itself: a field of the command that does not apply to the chosen
    variant is refused as unknown, never dropped (#14).
    """

    name: str
    capability: str
    args: Mapping[str, Mapping[str, JSON]] = attrs.field(factory=dict)
    required: tuple[str, ...] = ()
    subject: str = ""
    prompt_kind: str = ""
    gm_fields: tuple[str, ...] = ()
    when_ended: bool = False
    help: str = ""
    denied: str = ""  # the refusal text for a non-GM (default "only the GM may <name>")
    variant: str = ""
    variants: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    _validator: Any = attrs.field(init=False, eq=False, repr=False)
    _fast: Mapping[str, Callable[[JSON], bool] | None] = attrs.field(init=False, eq=False, repr=False)
    _plain: "_PlainFields | None" = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if self.capability not in CAPABILITIES:
            raise ValueError(f"command {self.name}: unknown capability {self.capability!r}")
        if self.capability in (CONTROLS, ANSWERS) and self.subject not in self.required:
            # authorise reads it: a command without it must be refused as missing, never crash
            raise ValueError(f"command {self.name}: subject {self.subject!r} is not one of its required fields")
        if not set(self.required) | set(self.gm_fields) <= set(self.args):
            raise ValueError(f"command {self.name}: required or GM-only fields it does not declare")
        if self.variants and (self.variant not in self.args
                              or not {f for fs in self.variants.values() for f in fs} <= set(self.args)):
            raise ValueError(f"command {self.name}: variant fields it does not declare")
        # jsonschema ships no type stubs, hence the import by name (as server/protocol.py).
        cls = importlib.import_module("jsonschema").Draft202012Validator
        cls.check_schema(self.schema())
        object.__setattr__(self, "_validator", cls(self.schema()))
        object.__setattr__(self, "_fast", {name: _compile(schema) for name, schema in self.args.items()})
        object.__setattr__(self, "_plain", None if self.variant else _PlainFields.of(self.args, self.required))

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of the command's ``args`` object."""
        return {"type": "object", "properties": {k: dict(v) for k, v in self.args.items()},
                "required": list(self.required), "additionalProperties": False}

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"name": self.name, "capability": self.capability, "args": self.schema()}
        for key in ("subject", "prompt_kind", "help"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        if self.gm_fields:
            out["gm_fields"] = list(self.gm_fields)
        if self.when_ended:
            out["when_ended"] = True
        if self.variants:
            out["variant"] = self.variant
            out["variants"] = {k: list(v) for k, v in self.variants.items()}
        return out

    def plainly_fits(self, args: Mapping[str, JSON]) -> bool:
        """Whether ``args`` surely pass :meth:`refuse_unknown` and :meth:`validate`, told cheaply:
        the spec has no variant, every required field is there, and every field is one the spec
        declares with a schema of nothing but a type, holding a value of exactly that JSON type
        (``str`` for text, ``int`` for a whole number: never ``bool``, nor a subclass).

        Why: the GM's ``adjust`` (three such fields) spent 14 k instructions in the two checks,
        more than the rest of its decision (issue 16, session 11). ``False`` says nothing: the two
        checks then decide, and name the error, as before (tests/gurps/test_command_specs.py).
        """
        plain = self._plain
        if plain is None or not args.keys() >= plain.required:
            return False
        types = plain.types
        for name, value in args.items():
            if type(value) not in types.get(name, ()):  # an undeclared field, or one with more than a type: ()
                return False
        return True

    def refuse_unknown(self, args: Mapping[str, JSON]) -> None:
        """Refuse a field the command does not have.

        Why: a misspelt field (``weapn``) would otherwise be dropped silently and the
        command applied as if it were not there. So is a field of the command that the
        chosen variant does not take (a ``posture`` with ``move``, a ``weapon`` with
        ``do_nothing``): nothing a client sends is silently dropped (#14).
        """
        known = self.args
        for k in args:  # a plain loop first: sorting a generator of nothing cost 4 k a command (issue 16)
            if k not in known:
                break
        else:
            if not self.variant:
                return
        unknown = sorted(k for k in args if k not in self.args)
        if unknown:
            raise reject("command/unknown_field",
                         f"{self.name}: no field {', '.join(repr(k) for k in unknown)} (misspelt?)", fields=unknown)
        chosen = args.get(self.variant) if self.variant else None
        if isinstance(chosen, str) and chosen in self.variants:
            takes = set(self.variants[chosen]) | set(self.required) | {self.variant}
            extra = sorted(k for k in args if k not in takes)
            if extra:
                raise reject("command/unknown_field",
                             f"{self.name} {chosen}: no field {', '.join(repr(k) for k in extra)} (it takes "
                             f"{', '.join(sorted(takes - set(self.required) - {self.variant})) or 'no other field'})",
                             fields=extra)

    def validate(self, args: Mapping[str, JSON]) -> None:
        """Refuse a missing required field, or a value its schema does not allow, naming the field."""
        for name in self.required:
            if name not in args:
                raise reject("command/missing_field", f"{self.name}: field {name!r} is required", field=name)
        # Fast path (jsonschema takes ~10x the rest of a GM adjust): each field's compiled check;
        # jsonschema decides whatever a compiled check cannot, and names the error.
        slow = False
        for name, value in args.items():
            fits = self._fast[name]
            if fits is None:
                slow = True
            elif not fits(value):
                break
        else:
            if not slow:
                return
        bad = first_bad_field(self._validator, args, list(self.args))
        if bad is None:
            return
        schema = self.args[bad]
        code = str(schema.get("x-error", "command/bad_field"))
        details: dict[str, JSON] = {"field": bad}
        if "enum" in schema:
            details["known"] = [v for v in schema["enum"] if v is not None]
        raise reject(code, f"{self.name}: field {bad!r} must be {describe_schema(schema)}", **details)


def first_bad_field(validator: Any, values: Mapping[str, JSON], order: list[str]) -> str | None:
    """The first field, in the order the spec declares them, whose value ``validator`` (a
    jsonschema validator of the whole object) refuses; ``None`` when every field fits.

    Why the declared order: an error names one field, and a form is read top to bottom.
    """
    errors = [e for e in validator.iter_errors(dict(values)) if e.absolute_path]
    if not errors:
        return None
    return str(min(errors, key=lambda e: order.index(str(e.absolute_path[0]))).absolute_path[0])


_TYPE_CHECKS: Mapping[str, Callable[[JSON], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}
_ANNOTATIONS = frozenset({"description", "title", "default", "x-error"})  # "default": what the rules take

#: The exact Python types a JSON type's values arrive as from a JSON decoder, and that the
#: type alone lets through (``bool`` is not an ``int`` here, as in JSON Schema).
_EXACT_TYPES: Mapping[str, frozenset[type]] = {
    "string": frozenset({str}), "integer": frozenset({int}), "number": frozenset({int, float}),
    "boolean": frozenset({bool}), "object": frozenset({dict}), "array": frozenset({list}),
    "null": frozenset({type(None)}),
}


@attrs.frozen
class _PlainFields:
    """A spec's fields whose schema is only a type, each with the exact types it surely accepts,
    and its required fields: what :meth:`CommandSpec.plainly_fits` asks (issue 16)."""

    types: Mapping[str, frozenset[type]]
    required: frozenset[str]

    @classmethod
    def of(cls, args: Mapping[str, Mapping[str, JSON]], required: tuple[str, ...]) -> "_PlainFields":
        types: dict[str, frozenset[type]] = {}
        for name, schema in args.items():
            kinds = schema.get("type")
            if set(schema) - _ANNOTATIONS != {"type"}:
                continue  # enum, range, pattern, items...: the compiled checks or the schema decide
            names = [kinds] if isinstance(kinds, str) else list(kinds)  # type: ignore[arg-type]
            types[name] = frozenset().union(*(_EXACT_TYPES[str(k)] for k in names))
        return cls(types, frozenset(required))


def _compile(schema: Mapping[str, JSON]) -> Callable[[JSON], bool] | None:
    """A predicate that accepts only what ``schema`` accepts, for the keywords specs use
    (type, enum, minimum, maximum, minLength, pattern, items), or ``None`` for any other.

    It may refuse a value the schema accepts (an integral float): the schema then decides.
    """
    if set(schema) - _ANNOTATIONS - {"type", "enum", "minimum", "maximum", "minLength", "pattern", "items"}:
        return None
    checks: list[Callable[[JSON], bool]] = []
    if "type" in schema:
        kinds = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
        tests = [_TYPE_CHECKS[k] for k in kinds]
        checks.append(tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests)))
    if "enum" in schema:
        allowed = list(schema["enum"])
        checks.append(lambda v: any(type(v) is type(a) and v == a for a in allowed))
    number = _TYPE_CHECKS["number"]
    if "minimum" in schema:
        lo = schema["minimum"]
        checks.append(lambda v: not number(v) or v >= lo)
    if "maximum" in schema:
        hi = schema["maximum"]
        checks.append(lambda v: not number(v) or v <= hi)
    if "minLength" in schema:
        least = int(schema["minLength"])
        checks.append(lambda v: not isinstance(v, str) or len(v) >= least)
    if "pattern" in schema:
        search = re.compile(str(schema["pattern"])).search
        checks.append(lambda v: not isinstance(v, str) or search(v) is not None)
    if "items" in schema:
        item = _compile(schema["items"])
        if item is None:
            return None
        checks.append(lambda v: not isinstance(v, list) or all(item(x) for x in v))
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def describe_schema(schema: Mapping[str, JSON]) -> str:
    """A field's schema in the words of an error message ("a whole number 1..100", "one of 'pc', 'npc'")."""
    if "enum" in schema:
        return "one of " + ", ".join(repr(v) for v in schema["enum"] if v is not None)
    kinds = schema.get("type", "")
    words = " or ".join(_JSON_WORDS.get(k, k) for k in ([kinds] if isinstance(kinds, str) else kinds) if k != "null")
    low, high = schema.get("minimum"), schema.get("maximum")
    if low is not None and high is not None:
        words += f" {low}..{high}"
    elif low is not None:
        words += f", at least {low}"
    elif high is not None:
        words += f", at most {high}"
    items = schema.get("items")
    if isinstance(items, dict) and items:
        # a list of the wrong things is refused naming them: "a list of text", not "a list" (which it is)
        words = f"a list of {_plural(describe_schema(items))}" if words == "a list" else f"{words} of {describe_schema(items)}"
    fields = schema.get("properties")
    if isinstance(fields, dict) and fields:
        # an object names its fields and what each takes: "objects with value (...) and reason (...)"
        parts = [f"{name} ({describe_schema(sub)})" for name, sub in fields.items() if isinstance(sub, dict)]
        words += " with " + ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]
    if schema.get("minLength"):
        words += ", not empty"
    if "pattern" in schema:
        words += ", not blank" if schema["pattern"] == "\\S" else f" matching {schema['pattern']}"
    return words or "valid"


def _plural(words: str) -> str:
    """"an object with ..." -> "objects with ...", for "a list of" (the rest reads the same)."""
    for single, many in (("an object", "objects"), ("a whole number", "whole numbers"), ("a number", "numbers")):
        if words.startswith(single):
            return many + words[len(single):]
    return words


def authorise(spec: CommandSpec, state: FightState, principal: Principal, args: Mapping[str, JSON]) -> None:
    """The capability of ``spec``, for this principal and these (validated) args."""
    if spec.capability == CONTROLS and not principal.is_gm:
        c = state.combatant(str(args[spec.subject]))
        if not principal.controls(c.id):
            raise reject("auth/not_your_combatant", f"you do not control {c.name}")
    elif spec.capability == ANSWERS:
        prompt = open_prompt(state, spec, args[spec.subject])
        if prompt.combatant is None and not principal.is_gm:
            raise reject("auth/not_your_prompt", "only the GM answers this prompt")
        if prompt.combatant is not None and not principal.controls(prompt.combatant):
            owner = state.combatants.get(prompt.combatant)
            raise reject("auth/not_your_prompt",
                         f"only {owner.name if owner else prompt.combatant}'s seat or the GM answers this prompt")
    for name in spec.gm_fields:
        if args.get(name) and not principal.is_gm:
            raise reject("auth/gm_only", spec.denied or f"only the GM may send {name!r}", field=name)


def open_prompt(state: FightState, spec: CommandSpec, prompt_id: JSON) -> Prompt:
    """The open prompt an ``answers`` command names, or ``prompt/unknown``."""
    prompt = next((p for p in state.prompts if p.id == prompt_id and p.kind == spec.prompt_kind), None)
    if prompt is None:
        raise reject("prompt/unknown", f"no open {spec.prompt_kind} prompt {prompt_id!r}")
    return prompt


def check_command(spec: CommandSpec | None, state: FightState, command: Command) -> CommandSpec:
    """Authorise and validate any command against its spec, in one order for every command.

    The order: a watcher may send nothing; a GM-only command is refused to others
    before anything about it is looked at; an ended fight takes only what may follow
    its end; then the command must exist, have no unknown field (named even when
    the command would fail anyway), carry its required fields with allowed values,
    and the principal must hold its capability.
    """
    principal = command.actor
    if principal.read_only:
        raise reject("auth/read_only", "spectators can only watch")
    if spec is not None and spec.capability == GM and not principal.is_gm:
        raise reject("auth/gm_only", spec.denied or f"only the GM may {command.type.replace('_', ' ')}")
    if state.status == "ended" and not (spec is not None and spec.when_ended):
        raise reject("fight/ended", "the fight has ended")
    if spec is None:
        raise reject("command/unknown", f"unknown command type {command.type!r}")
    if not spec.plainly_fits(command.args):  # the cheap proof that both pass (issue 16)
        spec.refuse_unknown(command.args)
        spec.validate(command.args)
    authorise(spec, state, principal, command.args)
    return spec
