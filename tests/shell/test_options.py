"""SHELL per-fight options: each "(cfg)" reading with the catalogue's default (A-61, A-62,
A-65, A-76) and the cinematic options (S-24, S-44), through the shared option validation."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected
from combat_server.rules.options import validate
from combat_server.rules.shell.options import OPTIONS


def test_defaults_are_the_catalogue_readings() -> None:
    """Every option defaults to the catalogue's proposal: reject overloads, MV lowered directly,
    plain pre-emptive guard attack, WP roll for crushing only, no cinematic casting or maneuvers."""
    assert validate("shell", OPTIONS, {}) == {
        "overload": "reject", "fatigue_rederives_mv": False, "guard_preemptive_bonus": False,
        "wp_roll_any_damage_type": False, "cinematic_casting": False, "cinematic_maneuvers": False,
    }


@pytest.mark.parametrize("name,rule", [("overload", "A-61"), ("fatigue_rederives_mv", "A-62"),
                                       ("guard_preemptive_bonus", "A-65"), ("wp_roll_any_damage_type", "A-76"),
                                       ("cinematic_casting", "S-44"), ("cinematic_maneuvers", "S-24")])
def test_each_option_cites_its_rule_and_explains_itself(name: str, rule: str) -> None:
    """Each option names the rule it configures and has help text for the create-fight form."""
    spec = next(s for s in OPTIONS if s.name == name)
    assert rule in spec.rules and spec.help and spec.label


def test_a61_overload_accepts_only_its_two_readings() -> None:
    """A-61: overload is "reject" or "immobile"; anything else is refused naming the choices."""
    assert validate("shell", OPTIONS, {"overload": "immobile"})["overload"] == "immobile"
    with pytest.raises(Rejected) as err:
        validate("shell", OPTIONS, {"overload": "drop it"})
    assert err.value.code == "fight/bad_option" and "immobile" in str(err.value)
