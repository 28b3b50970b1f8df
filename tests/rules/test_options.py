"""Per-fight options come from one spec per option (#9, option specs): validation names the
option and its allowed values, exclusions and requirements are checked, and ``gurps``
declares its switches (the catalogue's A-xx "cfg" proposals) as specs."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.options import OptionSpec, validate
from combat_server.rules.ruleset import Ruleset

SPECS = (
    OptionSpec("lethal", "boolean", False, "wounds can kill", rules=("T-01",), group="Injury"),
    OptionSpec("tempo", "string", "normal", "how fast turns go", choices=("slow", "normal", "fast")),
    OptionSpec("reach", "integer", 1, "yards of a step", minimum=1, maximum=3),
    OptionSpec("gritty", "boolean", False, "wounds linger", requires=("lethal",)),
    OptionSpec("heroic", "boolean", False, "heroes shrug wounds off", excludes=("gritty",)),
)


def refused(raw: dict[str, Any]) -> Rejected:
    with pytest.raises(Rejected) as err:
        validate("test", SPECS, raw)
    return err.value


def test_options_not_given_take_their_defaults() -> None:
    assert validate("test", SPECS, {"reach": 2}) == {"lethal": False, "tempo": "normal", "reach": 2,
                                                      "gritty": False, "heroic": False}


def test_an_unknown_option_is_refused_with_the_known_ones() -> None:
    err = refused({"lethl": True})
    assert err.code == "fight/unknown_option" and "lethl" in err.message
    assert err.details["known"] == ["gritty", "heroic", "lethal", "reach", "tempo"]


@pytest.mark.parametrize(("raw", "message"), [
    ({"lethal": 1}, "option lethal must be true or false, got 1"),
    ({"tempo": "warp"}, "option tempo must be one of 'slow', 'normal', 'fast', got 'warp'"),
    ({"reach": 4}, "option reach must be an integer from 1 to 3, got 4"),
    ({"reach": True}, "option reach must be an integer from 1 to 3, got true"),
    ({"reach": 1.5}, "option reach must be an integer from 1 to 3, got 1.5"),
])
def test_a_bad_value_is_refused_naming_the_option_and_its_allowed_values(raw: dict[str, Any], message: str) -> None:
    err = refused(raw)
    assert err.code == "fight/bad_option" and err.message == message
    assert err.details["option"] == next(iter(raw))


def test_an_integer_option_written_as_a_whole_float_is_that_integer() -> None:
    """JSON Schema's integer takes 2.0; the option is stored as the integer 2 (a float never reaches the rules)."""
    reach = validate("test", SPECS, {"reach": 2.0})["reach"]
    assert reach == 2 and type(reach) is int


def test_an_option_that_requires_another_is_refused_without_it() -> None:
    err = refused({"gritty": True})
    assert err.code == "fight/option_conflict" and err.message == "option gritty needs option lethal too"
    assert validate("test", SPECS, {"gritty": True, "lethal": True})["gritty"] is True


def test_an_option_that_excludes_another_is_refused_with_it() -> None:
    err = refused({"heroic": True, "gritty": True, "lethal": True})
    assert err.code == "fight/option_conflict" and err.message == "option heroic cannot be used with option gritty"


def test_a_spec_whose_default_is_not_allowed_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        OptionSpec("reach", "integer", 0, "yards", minimum=1)


def test_a_ruleset_may_not_refer_to_an_option_it_does_not_declare() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        class Broken(GurpsRuleset):
            option_specs = (OptionSpec("a", "boolean", False, "a", requires=("b",)),)


def test_gurps_declares_each_option_with_help_rule_ids_and_a_group() -> None:
    """The catalogue's configurable proposals: A-03, A-11, A-13, A-19, A-20; then the GULLIVER
    switches wired so far (issue #11: gulliver/options.py ``OFFERED``, all off by default)."""
    from combat_server.rules.gurps.gulliver.options import OFFERED

    own = {s.name: s for s in GurpsRuleset.option_specs if s not in OFFERED}
    assert set(own) == {"posture_modifiers", "step_yards", "multiple_parry_penalty",
                        "basic_set_wound_multipliers", "generic_criticals"}
    assert {a for s in own.values() for a in s.rules if a.startswith("A-")} == {"A-03", "A-11", "A-13", "A-19",
                                                                                   "A-20"}
    assert all(s.help and s.label and s.group != "General" for s in GurpsRuleset.option_specs)
    assert dict(GurpsRuleset.default_options) == {"posture_modifiers": True, "step_yards": 1,
                                                  "multiple_parry_penalty": False,
                                                  "basic_set_wound_multipliers": False, "generic_criticals": True,
                                                  **{s.name: s.default for s in OFFERED}}


def test_gurps_refuses_a_step_of_more_than_five_yards() -> None:
    with pytest.raises(Rejected) as err:
        GurpsRuleset().validate_options({"step_yards": 6})
    assert err.value.code == "fight/bad_option" and "from 1 to 5" in err.value.message


def test_a_ruleset_that_declares_only_defaults_gets_specs_of_their_types() -> None:
    """Rulesets written before specs keep working: each default becomes a spec of its type."""
    class Plain(GurpsRuleset):
        default_options = {"fast": True, "count": 2}

    assert [(s.name, s.type, s.default) for s in Plain.option_specs] == [("fast", "boolean", True),
                                                                          ("count", "integer", 2)]
    with pytest.raises(Rejected):
        Plain().validate_options({"count": "two"})
    assert issubclass(Plain, Ruleset)
