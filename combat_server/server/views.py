"""What each seat may see: the state and events, with hidden sheets redacted.

The GM sees everything. A combatant the GM marked ``hidden`` shows to players
and spectators as its name, side and *visible* condition only (posture, stunned,
down, dead, the maneuver it visibly took), unless the seat controls it. Seats
that see the same thing share a :func:`view_key`, so a pushed message is encoded
once per distinct view, not once per subscriber.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from combat_server.rules.model import Event, FightState
from combat_server.rules.ruleset import Ruleset
from combat_server.rules.serialize import state_to_json

GM_VIEW = "gm"
PUBLIC_VIEW = "public"

#: Condition fields anyone at the table can see on a hidden combatant.
VISIBLE_CONDITION = ("posture", "stunned", "unconscious", "dead", "collapsed", "maneuver", "maneuver_option")

_SHEET_EVENTS = ("combatant_added", "combatant_updated")


def view_key(role: str, combatants: Iterable[str], state: FightState) -> str:
    """Seats with equal keys see equal messages."""
    if role == "gm":
        return GM_VIEW
    own_hidden = sorted(c for c in combatants if c in state.combatants and state.combatants[c].hidden)
    return PUBLIC_VIEW if not own_hidden else PUBLIC_VIEW + ":" + ",".join(own_hidden)


def _visible_to(key: str) -> frozenset[str]:
    if key in (GM_VIEW, PUBLIC_VIEW):
        return frozenset()
    return frozenset(key.split(":", 1)[1].split(","))


class DerivedCache:
    """The ruleset's derived numbers per combatant, recomputed only when that combatant changed.

    Assumes what ``Ruleset.view_combatant`` promises: the view depends on the
    combatant (sheet and condition) and the fight's options. Combatants are
    frozen and replaced on every change, so identity is the change test.
    """

    def __init__(self) -> None:
        self._views: dict[str, tuple[object, object, dict[str, Any]]] = {}

    def views(self, ruleset: Ruleset, state: FightState) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for cid, c in state.combatants.items():
            hit = self._views.get(cid)
            if hit is None or hit[0] is not c or hit[1] is not state.options:
                hit = (c, state.options, ruleset.view_combatant(state, cid))
                self._views[cid] = hit
            if hit[2]:
                out[cid] = hit[2]
        for gone in set(self._views) - set(state.combatants):
            del self._views[gone]
        return out


def full_state(ruleset: Ruleset, state: FightState, cache: DerivedCache | None = None) -> dict[str, Any]:
    """The state as JSON plus the ruleset's derived numbers per combatant."""
    data = state_to_json(state)
    data["derived"] = (cache or DerivedCache()).views(ruleset, state)
    return data


def event_is_private(event: Event) -> bool:
    """Whether some seats see this event differently (a sheet that may be hidden)."""
    return event.type in _SHEET_EVENTS and "sheet" in event.payload


def state_view(full: Mapping[str, Any], state: FightState, key: str) -> dict[str, Any]:
    """``full`` (from :func:`full_state`) as the seats with view ``key`` may see it."""
    if key == GM_VIEW:
        return dict(full)
    own = _visible_to(key)
    hidden = [cid for cid, c in state.combatants.items() if c.hidden and cid not in own]
    if not hidden:
        return dict(full)
    out = dict(full)
    combatants = dict(out["combatants"])
    derived = dict(out.get("derived", {}))
    for cid in hidden:
        c = combatants[cid]
        condition = c.get("condition") or {}
        combatants[cid] = {
            "id": c["id"], "name": c["name"], "side": c["side"], "hidden": True, "sheet": None,
            "condition": {k: condition[k] for k in VISIBLE_CONDITION if k in condition},
        }
        derived.pop(cid, None)
    out["combatants"] = combatants
    out["derived"] = derived
    return out


def event_view(event: Event, state: FightState, key: str) -> dict[str, Any]:
    """The event as JSON, with the sheet of a hidden combatant left out for non-GM views."""
    data = event.to_dict()
    if key == GM_VIEW or event.type not in _SHEET_EVENTS or "sheet" not in event.payload:
        return data
    cid = str(event.payload.get("id", ""))
    c = state.combatants.get(cid)
    hidden = bool(event.payload.get("hidden")) or (c is not None and c.hidden)
    if hidden and cid not in _visible_to(key):
        payload = dict(event.payload)
        payload["sheet"] = None
        data["payload"] = payload
    return data


__all__ = [
    "GM_VIEW", "PUBLIC_VIEW", "VISIBLE_CONDITION", "DerivedCache", "view_key", "full_state", "state_view",
    "event_view", "event_is_private",
]
