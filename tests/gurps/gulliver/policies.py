"""Policies as a GM would ask for them: options switched on by name, through the same
validation a create_fight goes through, so every test uses a legal combination."""

from __future__ import annotations

from fractions import Fraction

from combat_server.rules.gurps.gulliver.options import OPTION_SPECS
from combat_server.rules.gurps.gulliver.policy import Injury, Policy, policy_for
from combat_server.rules.options import validate
from combat_server.rules.model import JSON

OFF = policy_for({})


def policy(*switches: str, **readings: JSON) -> Policy:
    """The policy with these switches on and these readings chosen, validated first."""
    raw: dict[str, JSON] = {name: True for name in switches}
    raw.update(readings)
    return policy_for(validate("gurps", OPTION_SPECS, raw))


def wound(hp: int) -> Injury:
    """An injury of ``hp`` after every multiplier (no Toughness)."""
    return Injury(hp, hp, Fraction(1))
