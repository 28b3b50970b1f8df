"""Every GURPS GM tool in one table (#12): the ruleset's ``calculators``.

Each family module exports ``SPECS``; adding a family is one import and one entry in
``FAMILIES`` (the physics tools, collisions and falling, join the same way).
"""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.gurps.tools import exposure, movement, senses, strength
from combat_server.rules.kit.calculators import CalculatorSpec, registry

FAMILIES = (movement, strength, senses, exposure)

CALCULATORS: Mapping[str, CalculatorSpec] = registry(*(spec for family in FAMILIES for spec in family.SPECS))
