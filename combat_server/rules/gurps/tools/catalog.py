"""Every GURPS GM tool in one table (#12): the ruleset's ``calculators``.

Each family module of this package exports ``SPECS``; ``FAMILIES`` names them, so a new
family (the physics tools, ``collisions`` and ``falling``) joins by adding its name there.
"""

from __future__ import annotations

import importlib
from typing import Mapping

from combat_server.rules.kit.calculators import CalculatorSpec, registry

#: The family modules, in the order clients list their tools.
FAMILIES = ("movement", "strength", "senses", "exposure", "collisions", "falling")


def _specs(family: str) -> tuple[CalculatorSpec, ...]:
    specs = importlib.import_module(f"{__package__}.{family}").SPECS
    return tuple(specs)


CALCULATORS: Mapping[str, CalculatorSpec] = registry(*(spec for family in FAMILIES for spec in _specs(family)))
