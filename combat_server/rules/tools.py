"""Running a ruleset's GM tools (#12): who may run which, and the inputs a combatant prefills.

Why here and not in the engine: which seat may run a tool for which combatant
is the same question a command's capability answers (rules/commands.py), and
the ruleset's apply command needs the same lookup; both read the declarations
(``Ruleset.calculators``), so no ruleset is named.
"""

from __future__ import annotations

from typing import Mapping

from combat_server.errors import reject
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec
from combat_server.rules.model import JSON, FightState, Principal
from combat_server.rules.ruleset import Ruleset


def find_tool(ruleset: Ruleset, name: str) -> CalculatorSpec:
    """The tool ``name`` of the ruleset, or ``tool/unknown`` listing the known ones."""
    spec = ruleset.calculators.get(name)
    if spec is None:
        raise reject("tool/unknown", f"{ruleset.name} has no tool {name!r}", field="tool",
                     known=sorted(ruleset.calculators))
    return spec


def authorise_tool(spec: CalculatorSpec, principal: Principal, combatant: str | None) -> None:
    """The GM runs any tool; a player only a tool marked ``players``, and only for a combatant it controls."""
    if principal.is_gm:
        return
    if principal.read_only:
        raise reject("auth/read_only", "spectators can only watch")
    if not spec.players:
        raise reject("auth/gm_only", f"only the GM runs the tool {spec.name}", field="tool")
    if combatant is None:
        raise reject("tool/combatant_required", f"{spec.name}: name the combatant you run it for",
                     field="combatant")
    if combatant not in principal.combatants:
        raise reject("auth/not_your_combatant", f"you do not control {combatant!r}", field="combatant")


def calculate(ruleset: Ruleset, state: FightState, principal: Principal, tool: str,
              inputs: Mapping[str, JSON], combatant: str | None = None) -> Calculation:
    """Run a tool read-only: inputs the caller leaves out are prefilled from ``combatant``'s numbers."""
    spec = find_tool(ruleset, tool)
    authorise_tool(spec, principal, combatant)
    raw: dict[str, JSON] = {}
    if combatant is not None:
        state.combatant(combatant)  # combatant/unknown
        raw.update(spec.prefilled(ruleset.tool_numbers(state, combatant)))
    raw.update(inputs)
    return spec.calculate(raw)
