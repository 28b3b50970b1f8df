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


def full_state(ruleset: Ruleset, state: FightState) -> dict[str, Any]:
    """The state as JSON plus the ruleset's derived numbers per combatant."""
    data = state_to_json(state)
    derived = {cid: ruleset.view_combatant(state, cid) for cid in state.combatants}
    data["derived"] = {cid: d for cid, d in derived.items() if d}
    return data


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


__all__ = ["GM_VIEW", "PUBLIC_VIEW", "VISIBLE_CONDITION", "view_key", "full_state", "state_view", "event_view"]
