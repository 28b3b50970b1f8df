"""GULLIVER's options (#11): one switch per `[combat-option]` entry of catalogue section 2,
all off by default, grouped for the create-fight form, with the exclusions and
requirements the catalogue calls out (V-53/V-54, V-68 = V-63 with V-66, ...)."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.gulliver.options import OPTION_FOR_RULE, OPTION_SPECS, READINGS, SWITCHES, WIRED, cite
from combat_server.rules.gurps.gulliver.policy import FIELDS
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.options import check_specs, validate

from tests.gurps.gulliver.policies import OFF, policy

#: The 39 entries of section 2 tagged [combat-option] (catalogue section 7 counts 39).
COMBAT_OPTIONS = (
    "V-01", "V-02", "V-03", "V-04", "V-05", "V-06", "V-07", "V-08", "V-09", "V-10", "V-11", "V-12", "V-13",
    "V-14", "V-15", "V-17", "V-18", "V-19", "V-20", "V-21", "V-22", "V-24", "V-44", "V-46", "V-47", "V-48",
    "V-50", "V-52", "V-53", "V-54", "V-59", "V-60", "V-61", "V-62", "V-63", "V-64", "V-66", "V-67", "V-68",
)
GROUPS = {"GULLIVER: damage", "GULLIVER: blowthrough", "GULLIVER: the damage-and-shock system",
          "GULLIVER: death and knockout", "GULLIVER: fatigue", "GULLIVER: monsters", "GULLIVER: Toughness",
          "GULLIVER: ST damage tables", "GULLIVER: light", "GULLIVER: hit locations"}


def refused(raw: dict[str, Any]) -> Rejected:
    with pytest.raises(Rejected) as err:
        validate("gurps", OPTION_SPECS, raw)
    return err.value


def test_one_switch_per_combat_option_entry() -> None:
    """Issue #11: every [combat-option] entry V-01 ... V-68 (39) is exactly one switch, citing its id first."""
    assert len(COMBAT_OPTIONS) == 39
    assert sorted(OPTION_FOR_RULE) == sorted(COMBAT_OPTIONS)
    assert len(SWITCHES) == 39


def test_every_option_has_a_policy_field() -> None:
    """policy_for reads every option: the Policy has exactly one field per option name."""
    assert FIELDS == {s.name for s in OPTION_SPECS}


def test_a_policy_names_the_rules_in_force() -> None:
    """The fight's summary: the V ids of the switches on, in catalogue order; none when all are off."""
    assert OFF.in_force() == []
    assert policy("blowthrough_improved", "blowthrough", "hit_locations").in_force() == ["V-05", "V-06"]
    assert policy("proportional_death", "damage_shock", "shock_stun").in_force() == ["V-08", "V-15", "V-19"]


def test_specs_pass_the_shared_check() -> None:
    """check_specs: each option named once, excludes/requires name only options of the set."""
    check_specs("gulliver", OPTION_SPECS)


def test_every_option_is_off_by_default() -> None:
    """Issue #11: every switch defaults to off; each cfg reading to the catalogue's proposal
    (V-19 standard stun, A-33 applied HP, A-37 no cap, A-47 vision and combat, V-64 option (a)); V-48's
    heat to none."""
    options = validate("gurps", OPTION_SPECS, {})
    assert all(options[s.name] is False for s in SWITCHES)
    assert {s.name: options[s.name] for s in READINGS} == {
        "stun_rule": "standard", "crippling_shock": "applied", "shock_penalty_cap": False,
        "darkness_penalties": "vision_and_combat", "toughness_shock": "after",
        "fatigue_heat": "none"}


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=lambda s: s.name)
def test_each_option_explains_itself_for_the_form(spec: Any) -> None:
    """Each option has a label, one line of help, a GULLIVER rule id and one of the catalogue's groups."""
    assert spec.label and spec.help and "\n" not in spec.help
    assert any(r.startswith("V-") for r in spec.rules)
    assert spec.group in GROUPS


def test_names_do_not_clash_with_the_gurps_options() -> None:
    """The specs are merged into the gurps ruleset's: no name may be taken twice."""
    own = tuple(s for s in GurpsRuleset.option_specs if s not in OPTION_SPECS)
    assert not {s.name for s in OPTION_SPECS} & {s.name for s in own}
    check_specs("gurps+gulliver", own + OPTION_SPECS)


def test_the_ruleset_offers_exactly_the_wired_options() -> None:
    """Issue #11, second step: an option reaches the create-fight form only once it is wired
    (``WIRED``, each tested through the engine in test_wired_*.py); the rest stay in the pure layer."""
    offered = [s.name for s in GurpsRuleset.option_specs if s in OPTION_SPECS]
    assert offered == [s.name for s in OPTION_SPECS if s.name in WIRED]
    assert set(WIRED) <= {s.name for s in OPTION_SPECS}


def test_v53_and_v54_exclude_each_other() -> None:
    """V-53: pick exactly one fatigue basis; both at once is refused naming the other."""
    err = refused({"fatigue_on_st": True, "fatigue_on_ht": True})
    assert err.code == "fight/option_conflict" and "fatigue_on_ht" in str(err)
    assert validate("gurps", OPTION_SPECS, {"fatigue_on_ht": True})["fatigue_on_ht"] is True


@pytest.mark.parametrize("needs", ["new_toughness", "new_st_damage"])
def test_v68_is_v63_with_the_new_st_table(needs: str) -> None:
    """V-68 is Toughness (V-63) with the New ST damage table (V-66): either missing is refused."""
    raw = {"toughness_st_balance": True, "new_toughness": True, "new_st_damage": True}
    raw[needs] = False
    err = refused(raw)
    assert err.code == "fight/option_conflict" and needs in str(err)


@pytest.mark.parametrize("option,needs", [
    ("amputation", "crippled_limbs"), ("neck_injury", "crippled_limbs"), ("blowthrough_improved", "blowthrough"),
    ("blowthrough_modifiers", "blowthrough"), ("new_swing_damage", "new_st_damage"),
    ("location_toughness", "new_toughness"), ("shock_stun", "damage_shock"), ("shock_penalty_bands", "damage_shock"),
])
def test_an_option_built_on_another_needs_it(option: str, needs: str) -> None:
    """V-12/V-13 measure from V-11, V-06/V-07 change V-05's cap, V-67 is V-66's swing, V-64
    details V-63, the shock options count V-08's shock points: alone, each is refused naming the other."""
    err = refused({option: True})
    assert err.code == "fight/option_conflict" and needs in str(err) and option in str(err)


@pytest.mark.parametrize("option", ["crippled_limbs", "heart_attack"])
def test_location_options_need_hit_locations(option: str) -> None:
    """A-24: without hit locations every blow is to the torso, so the options that only act on a
    limb, the neck, the brain or the heart are refused without it."""
    err = refused({option: True})
    assert err.code == "fight/option_conflict" and "hit_locations" in str(err)


def test_brain_and_limb_stun_need_hit_locations_too() -> None:
    """V-20, V-21: a brain or a limb needs a location; refused naming hit_locations."""
    for option in ("brain_shock", "limb_stun"):
        err = refused({"damage_shock": True, option: True})
        assert "hit_locations" in str(err)


def test_explanations_name_the_rule_an_option_replaces() -> None:
    """Issue #11: an effect cites its V id and the G rule it replaces (V-15 for G-45); others the id alone."""
    assert cite("V-15") == "V-15 (in place of G-45)" and cite("V-11") == "V-11"


def test_a_cfg_reading_needs_its_option() -> None:
    """V-19's HT-roll stun rule is a reading of Stun from shock: chosen without it, refused."""
    err = refused({"stun_rule": "ht_roll"})
    assert err.code == "fight/option_conflict" and "shock_stun" in str(err)


def test_a_reading_outside_its_choices_is_refused_naming_them() -> None:
    """A-33: the crippling shock basis is applied or full_blow, nothing else."""
    err = refused({"crippled_limbs": True, "crippling_shock": "half"})
    assert err.code == "fight/bad_option" and "full_blow" in str(err)
