"""State <-> JSON, for snapshots, the wire and byte-identical replay checks."""

from __future__ import annotations

from typing import Any, Mapping

import attrs
import cattrs

from combat_server.canonical import canonical_json
from combat_server.rules.model import JSON, Combatant, FightState
from combat_server.rules.ruleset import Ruleset

_converter = cattrs.Converter()


def converter() -> cattrs.Converter:
    return _converter


def state_to_json(state: FightState) -> dict[str, JSON]:
    data: dict[str, JSON] = _converter.unstructure(state)
    return data


def state_from_json(ruleset: Ruleset, data: Mapping[str, JSON]) -> FightState:
    state = _converter.structure(dict(data), FightState)
    combatants = {
        cid: attrs.evolve(
            c,
            sheet=_converter.structure(c.sheet, ruleset.sheet_type),
            condition=_converter.structure(c.condition, ruleset.condition_type),
        )
        for cid, c in state.combatants.items()
    }
    combat: Any = None
    if state.combat is not None and ruleset.combat_type is not None:
        combat = _converter.structure(state.combat, ruleset.combat_type)
    return attrs.evolve(state, combatants=combatants, combat=combat)


def state_bytes(state: FightState) -> bytes:
    """The canonical byte form: two states are the same fight iff these are equal."""
    return canonical_json(state_to_json(state)).encode("utf-8")


__all__ = ["state_to_json", "state_from_json", "state_bytes", "converter", "Combatant"]
