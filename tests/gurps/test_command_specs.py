"""#9 item "commands": one spec per command (a JSON Schema of its args and the capability it
needs); field checks and authorisation both come from that one table, and the rules see a
principal (is GM, controlled combatants, a display name), not seat roles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Mapping

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.commands import ANSWERS, ANY, CONTROLS, GM, CommandSpec, check_command
from combat_server.rules.model import Combatant, Command, FightState, Principal, Prompt
from combat_server.rules.ruleset import get_ruleset

from .conftest import Table

ROOT = Path(__file__).resolve().parents[2]
GURPS = get_ruleset("gurps", None)
ALICE = Principal.of_seat("p1", "player", ("alice",), "Alice's player")
WATCHER = Principal.of_seat("s1", "spectator")


def _state() -> FightState:
    alice = Combatant("alice", "Alice", "pc", None, None)
    orc = Combatant("orc", "Orc", "npc", None, None)
    prompts = (Prompt("p:1", "block", "orc", "Orc blocks?"), Prompt("p:2", "block", "alice", "Alice blocks?"),
               Prompt("p:3", "block", None, "GM decides"))
    return FightState("f", "test", "1", {}, "manual", status="active", combatants={"alice": alice, "orc": orc},
                      prompts=prompts)


#: A made-up ruleset's commands: the table alone decides who may send them, no handler runs.
SPECS = {s.name: s for s in (
    CommandSpec("shove", CONTROLS, {"combatant": {"type": "string"}, "bonus": {"type": "integer"}},
                required=("combatant",), subject="combatant", gm_fields=("bonus",)),
    CommandSpec("block", ANSWERS, {"prompt": {"type": "string"}, "how": {"enum": ["high", "low"],
                                                                          "x-error": "block/bad_choice"}},
                required=("prompt",), subject="prompt", prompt_kind="block"),
    CommandSpec("shout", ANY, {"text": {"type": "string", "minLength": 1}}, required=("text",)),
    CommandSpec("smite", GM, {}, denied="only the GM smites"),
)}


def _refusal(command: str, args: dict[str, object], who: Principal) -> str:
    with pytest.raises(Rejected) as err:
        check_command(SPECS.get(command), _state(), Command(command, args, who))
    return err.value.code


def test_controls_capability_lets_a_player_act_only_for_its_own_combatant() -> None:
    check_command(SPECS["shove"], _state(), Command("shove", {"combatant": "alice"}, ALICE))
    assert _refusal("shove", {"combatant": "orc"}, ALICE) == "auth/not_your_combatant"
    check_command(SPECS["shove"], _state(), Command("shove", {"combatant": "orc"}, Principal("gm", is_gm=True)))


def test_answers_capability_lets_a_player_answer_only_its_own_prompt() -> None:
    check_command(SPECS["block"], _state(), Command("block", {"prompt": "p:2"}, ALICE))
    assert _refusal("block", {"prompt": "p:1"}, ALICE) == "auth/not_your_prompt"
    assert _refusal("block", {"prompt": "p:3"}, ALICE) == "auth/not_your_prompt"  # nobody's: the GM's
    assert _refusal("block", {"prompt": "p:9"}, ALICE) == "prompt/unknown"


def test_gm_fields_are_refused_to_players_even_on_their_own_combatant() -> None:
    """G-35 style: a field only the GM may send, declared in the spec."""
    with pytest.raises(Rejected) as err:
        check_command(SPECS["shove"], _state(), Command("shove", {"combatant": "alice", "bonus": 4}, ALICE))
    assert err.value.code == "auth/gm_only" and err.value.details["field"] == "bonus"


def test_a_watcher_may_send_nothing_and_a_gm_command_is_the_gms() -> None:
    assert _refusal("shout", {"text": "hi"}, WATCHER) == "auth/read_only"
    check_command(SPECS["shout"], _state(), Command("shout", {"text": "hi"}, ALICE))
    with pytest.raises(Rejected) as err:
        check_command(SPECS["smite"], _state(), Command("smite", {}, ALICE))
    assert err.value.code == "auth/gm_only" and err.value.message == "only the GM smites"


def test_a_spec_whose_subject_is_not_required_is_refused_when_declared() -> None:
    """authorise reads the subject field: a ruleset cannot declare a spec that would let it be missing."""
    with pytest.raises(ValueError, match="subject"):
        CommandSpec("shove", CONTROLS, {"combatant": {"type": "string"}}, subject="combatant")
    with pytest.raises(ValueError, match="capability"):
        CommandSpec("shove", "players", {})


def test_field_checks_come_from_the_schema_with_specific_codes() -> None:
    assert _refusal("shove", {"combatant": "alice", "shoove": 1}, ALICE) == "command/unknown_field"
    assert _refusal("shove", {}, ALICE) == "command/missing_field"
    assert _refusal("shout", {"text": ""}, ALICE) == "command/bad_field"
    assert _refusal("block", {"prompt": "p:2", "how": "sideways"}, ALICE) == "block/bad_choice"  # its x-error
    assert _refusal("nothing", {}, ALICE) == "command/unknown"


def test_a_refused_value_is_named_with_what_it_must_be(duel: Table) -> None:
    """The message says the field and its allowed range or values, in JSON words."""
    with pytest.raises(Rejected) as err:
        duel.send("spend_fatigue", {"combatant": "knight", "points": 0})
    assert err.value.code == "command/bad_field" and err.value.details["field"] == "points"
    assert "a whole number 1..100" in err.value.message
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "fly")
    assert err.value.code == "maneuver/unknown" and "all_out_attack" in err.value.details["known"]


def test_a_wrongly_typed_field_is_refused_not_coerced(duel: Table) -> None:
    """spend_fatigue's reason used to be turned into text whatever it was ({"a": 1} became "{'a': 1}")."""
    with pytest.raises(Rejected) as err:
        duel.send("spend_fatigue", {"combatant": "knight", "points": 1, "reason": {"a": 1}})
    assert err.value.code == "command/bad_field" and err.value.details["field"] == "reason"


def test_every_command_spec_is_a_valid_json_schema() -> None:
    for spec in core.command_specs(GURPS):
        jsonschema.Draft202012Validator.check_schema(spec.to_json()["args"])
        assert spec.to_json()["capability"] in ("gm", "controls", "answers", "any")


def test_docs_gurps_lists_each_gurps_command_with_its_fields_and_who() -> None:
    """docs/gurps.md's command table is the specs', field for field (a doc that drifts fails here)."""
    rows = [line for line in (ROOT / "docs/gurps.md").read_text().splitlines() if line.startswith("| `")]
    documented = {}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = cells[0].strip("`")
        if name in GURPS.commands:
            documented[name] = (cells[1], set(re.findall(r"`([a-z_0-9]+)\??`", re.sub(r"\([^)]*\)", "", cells[2]))))
    assert set(documented) == set(GURPS.commands)
    for name, (who, fields) in documented.items():
        spec = GURPS.commands[name]
        assert fields == set(spec.args), name
        assert (who == "GM") == (spec.capability == GM), name


def test_the_rules_see_a_principal_not_seat_roles() -> None:
    """No module under rules/ except the principal's own mapping names a seat role."""
    assert not hasattr(ALICE, "role")
    for path in (ROOT / "combat_server/rules").rglob("*.py"):
        text = path.read_text()
        if path.name == "model.py":
            text = text[:text.index("ROLES = ")] + text[text.index("\n", text.index("ROLES = ")):]
            text = re.sub(r"def of_seat.*?return cls\([^\n]*\n", "", text, flags=re.S)
        assert not re.search(r"\.role\b|\"(player|spectator)\"", text), path


#: Values at the edges of the specs' types and ranges (bool is not an integer, 2.0 is, ...).
_EDGES: list[object] = [None, True, False, 0, 1, -1, 2.0, 2.5, 100, 101, 1000, 1001, 10000, 10001, 100000, 100001,
                        "", " ", "x", "a\n", "orc-2", "Orc", [], ["a"], [1], [{"value": 1, "reason": "r"}],
                        [{"value": 1, "reason": " "}], [{"value": True, "reason": "r"}], {}, {"hp": 1}]
_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 200_000) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["value", "reason", "x"]), inner,
                                                                 max_size=3),
    max_leaves=6,
)


def _values(schema: Mapping[str, object]) -> st.SearchStrategy[object]:
    enum = list(schema.get("enum", []))  # type: ignore[call-overload]
    return st.sampled_from(_EDGES + enum) | _JSON_VALUES


_ALL_SPECS = core.command_specs(GURPS)


_FIELDS = [(spec, name) for spec in _ALL_SPECS for name in spec.args]


def _example(schema: Mapping[str, object]) -> object:
    """A value the field's schema accepts (to fill the other required fields)."""
    if "enum" in schema:
        return list(schema["enum"])[0]  # type: ignore[call-overload]
    kind = schema["type"] if isinstance(schema["type"], str) else list(schema["type"])[0]  # type: ignore
    return {"string": "x", "integer": schema.get("minimum", 1), "object": {}, "array": [], "boolean": True}[kind]


def _agrees(spec: CommandSpec, name: str, value: object) -> None:
    args = {r: _example(spec.args[r]) for r in spec.required}
    args[name] = value
    by_schema = jsonschema.Draft202012Validator(spec.schema()).is_valid(args)
    try:
        spec.validate(args)
        accepted = True
    except Rejected as exc:
        assert exc.details.get("field") == name and exc.code != "command/unknown_field"
        accepted = False
    assert accepted == by_schema, (spec.name, args)


@pytest.mark.parametrize(("spec", "name"), _FIELDS, ids=[f"{s.name}.{n}" for s, n in _FIELDS])
def test_the_fast_field_checks_agree_with_the_json_schema_at_the_edges(spec: CommandSpec, name: str) -> None:
    """A spec's compiled checks (the fast path) accept exactly what its JSON Schema accepts."""
    for value in _EDGES + list(spec.args[name].get("enum", [])):
        _agrees(spec, name, value)


@pytest.mark.parametrize(("spec", "name"), _FIELDS, ids=[f"{s.name}.{n}" for s, n in _FIELDS])
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_the_fast_field_checks_agree_with_the_json_schema(spec: CommandSpec, name: str, data: st.DataObject) -> None:
    _agrees(spec, name, data.draw(_JSON_VALUES))


def test_a_variant_takes_only_its_own_fields() -> None:
    """#14: ``variants`` (by the value of ``variant``) say which fields apply; another field of the
    command is refused as unknown, naming it, before the rules run."""
    spec = CommandSpec("stance", ANY, {"stance": {"enum": ["guard", "lunge"]}, "hand": {"type": "string"},
                                       "yards": {"type": "integer"}},
                       required=("stance",), variant="stance", variants={"guard": ("hand",), "lunge": ("yards",)})
    check_command(spec, _state(), Command("stance", {"stance": "guard", "hand": "left"}, ALICE))
    with pytest.raises(Rejected) as err:
        check_command(spec, _state(), Command("stance", {"stance": "guard", "yards": 2}, ALICE))
    assert err.value.code == "command/unknown_field" and err.value.details["fields"] == ["yards"]
    assert spec.to_json()["variants"] == {"guard": ["hand"], "lunge": ["yards"]}


def test_a_spec_whose_variants_name_undeclared_fields_is_refused_when_declared() -> None:
    with pytest.raises(ValueError, match="variant"):
        CommandSpec("stance", ANY, {"stance": {"type": "string"}}, variant="stance", variants={"guard": ("hand",)})


#: Field names to draw args from: every declared one, and some no spec declares.
_NAMES = sorted({n for s in _ALL_SPECS for n in s.args} | {"zz", "weapn"})


@settings(max_examples=300, deadline=None)
@given(spec=st.sampled_from(_ALL_SPECS), data=st.data())
def test_plainly_fits_only_what_both_checks_let_through(spec: CommandSpec, data: st.DataObject) -> None:
    """``plainly_fits`` (check_command's fast path, issue 16) is never True for args that
    ``refuse_unknown`` or ``validate`` refuses: whatever it lets through, both let through."""
    names = data.draw(st.lists(st.sampled_from(_NAMES + list(spec.args) * 3), max_size=5, unique=True))
    args = {n: data.draw(_values(spec.args.get(n, {}))) for n in names}
    if data.draw(st.booleans()):
        args.update({r: _example(spec.args[r]) for r in spec.required if r not in args})
    if spec.plainly_fits(args):
        spec.refuse_unknown(args)
        spec.validate(args)


def test_plainly_fits_a_gms_usual_adjust() -> None:
    """The fast path is taken for the hot command (a GM's adjust), not only sound."""
    adjust = core.CORE_SPECS["adjust"]
    assert adjust.plainly_fits({"combatant": "c", "changes": {"hp": 5}, "reason": "r"})
    assert not adjust.plainly_fits({"combatant": "c", "changes": {"hp": 5}})
    assert not adjust.plainly_fits({"combatant": "c", "changes": {"hp": 5}, "reason": "r", "x": 1})
    assert not adjust.plainly_fits({"combatant": True, "changes": {"hp": 5}, "reason": "r"})


def _gurps_state() -> FightState:
    sheet = GURPS.validate_sheet({})
    state = FightState(fight_id="f", ruleset="gurps", ruleset_version=GURPS.version, options={}, dice_mode="server")
    return state.with_combatant(Combatant("orc", "Orc", "npc", sheet, GURPS.new_condition(sheet)))


#: Bad commands and the exact refusal each got before check_command's fast path (issue 16, session 11).
_REFUSALS: list[tuple[str, dict[str, object], str, str, dict[str, object]]] = [
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 3}, 'reason': 'r', 'why': 1}, 'command/unknown_field', "adjust: no field 'why' (misspelt?)", {'fields': ['why']}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 3}, 'reason': 'r', 'zz': 1, 'aa': 2}, 'command/unknown_field', "adjust: no field 'aa', 'zz' (misspelt?)", {'fields': ['aa', 'zz']}),
    ('adjust', {'zz': 1, 'reason': 3}, 'command/unknown_field', "adjust: no field 'zz' (misspelt?)", {'fields': ['zz']}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 3}}, 'command/missing_field', "adjust: field 'reason' is required", {'field': 'reason'}),
    ('adjust', {'changes': {'hp': 3}, 'reason': 'r'}, 'command/missing_field', "adjust: field 'combatant' is required", {'field': 'combatant'}),
    ('adjust', {'combatant': 3, 'changes': {'hp': 3}, 'reason': 'r'}, 'command/bad_field', "adjust: field 'combatant' must be text", {'field': 'combatant'}),
    ('adjust', {'combatant': 'orc', 'changes': [1], 'reason': 'r'}, 'command/bad_field', "adjust: field 'changes' must be an object", {'field': 'changes'}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 3}, 'reason': None}, 'command/bad_field', "adjust: field 'reason' must be text", {'field': 'reason'}),
    ('adjust', {'combatant': 3, 'changes': [], 'reason': None}, 'command/bad_field', "adjust: field 'combatant' must be text", {'field': 'combatant'}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 'x'}, 'reason': 'r'}, 'adjust/bad_value', 'hp cannot be set to "x"', {'field': 'hp'}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': True}, 'reason': 'r'}, 'adjust/bad_value', 'hp cannot be set to true', {'field': 'hp'}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': None}, 'reason': 'r'}, 'adjust/bad_value', 'hp cannot be set to null', {'field': 'hp'}),
    ('adjust', {'combatant': 'orc', 'changes': {}, 'reason': 'r'}, 'command/missing_field', 'adjust: changes must name at least one field', {}),
    ('adjust', {'combatant': 'orc', 'changes': {'hp': 1}, 'reason': ' '}, 'adjust/reason_required', 'a GM adjustment needs a reason the log can show', {}),
    ('adjust', {'combatant': 'elf', 'changes': {'hp': 1}, 'reason': 'r'}, 'combatant/unknown', "no combatant 'elf' in this fight", {}),
    ('undo', {'to': 'sideways'}, 'undo/bad_target', "undo: field 'to' must be one of 'last_command', 'turn_start', 'seq'", {'field': 'to', 'known': ['last_command', 'turn_start', 'seq']}),
    ('undo', {'to': 'seq', 'seq': 0}, 'undo/bad_seq', "undo: field 'seq' must be a whole number, at least 1", {'field': 'seq'}),
    ('undo', {'to': 'seq', 'seq': True}, 'undo/bad_seq', "undo: field 'seq' must be a whole number, at least 1", {'field': 'seq'}),
    ('dispute', {'seq': 1.5, 'comment': 'x'}, 'command/bad_field', "dispute: field 'seq' must be a whole number", {'field': 'seq'}),
    ('rule', {'dispute': 'd', 'verdict': 'uphold', 'adjustments': ['x']}, 'command/bad_field', "rule: field 'adjustments' must be a list of objects", {'field': 'adjustments'}),
    ('add_combatant', {'name': 'x', 'side': 'pcs'}, 'command/bad_field', "add_combatant: field 'side' must be one of 'pc', 'npc'", {'field': 'side', 'known': ['pc', 'npc']}),
    ('add_combatant', {'name': 'x', 'id': 'Bad Id'}, 'command/bad_field', "add_combatant: field 'id' must be text matching ^[a-z0-9][a-z0-9_-]{0,63}$", {'field': 'id'}),
    ('add_combatant', {'name': 'x', 'hidden': 1}, 'command/bad_field', "add_combatant: field 'hidden' must be true or false", {'field': 'hidden'}),
    ('reissue_links', {'seats': [1]}, 'command/bad_field', "reissue_links: field 'seats' must be a list of text", {'field': 'seats'}),
    ('note', {}, 'command/missing_field', "note: field 'text' is required", {'field': 'text'}),
    # G-35 modifiers are bounded (MODIFIER_LIMIT): their sum stays an exact integer for every client
    ('fright_check', {'combatant': 'orc', 'modifier': 101}, 'command/bad_field', "fright_check: field 'modifier' must be a whole number -100..100", {'field': 'modifier'}),
    ('maneuver', {'combatant': 'orc', 'maneuver': 'attack', 'modifiers': [{'value': 2 ** 53 - 1, 'reason': 'r'}]}, 'command/bad_field', "maneuver: field 'modifiers' must be a list of objects with value (a whole number -100..100) and reason (text, not blank)", {'field': 'modifiers'}),
]


@pytest.mark.parametrize(("kind", "args", "code", "message", "details"), _REFUSALS)
def test_a_bad_command_gets_the_same_refusal(kind: str, args: dict[str, object], code: str, message: str,
                                              details: dict[str, object]) -> None:
    """Unknown, missing and wrongly typed fields are refused as before the fast path: code, message, details."""
    gm = Principal.of_seat("gm", "gm", (), "GM")
    with pytest.raises(Rejected) as err:
        core.decide(GURPS, _gurps_state(), Command(kind, args, gm), None)  # type: ignore[arg-type]
    assert (err.value.code, err.value.message, err.value.details) == (code, message, details)
