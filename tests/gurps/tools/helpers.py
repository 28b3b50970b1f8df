"""Running one GM tool by name, as the server would (inputs checked, defaults filled in)."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.tools.catalog import CALCULATORS
from combat_server.rules.kit.calculators import Calculation


def run(tool: str, **inputs: Any) -> Calculation:
    return CALCULATORS[tool].calculate(inputs)


def refused(tool: str, **inputs: Any) -> Rejected:
    with pytest.raises(Rejected) as info:
        run(tool, **inputs)
    return info.value


def rules_cited(calc: Calculation) -> set[str]:
    return {part.strip() for step in calc.steps for part in step.rule.split(",")}
