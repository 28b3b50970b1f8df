"""SHELL close combat (S-40 ... S-43): who may enter, what may be used inside, and
the takedown and pin modifiers. Pure decisions over results the caller already has
(the stop thrust's chart result, the damage it did, the ST contest)."""

from __future__ import annotations

from combat_server.rules.shell.resolution import HIT, SHIELD_HIT, pin_weight_mod
from combat_server.rules.shell.sheet import Sheet, Weapon, bare_hand


def may_stop_thrust(weapon: Weapon | None, blocks_left: int) -> bool:
    """S-40: a thrusting weapon or bare hands (``None``), and only with a defence left (it counts as one)."""
    return blocks_left > 0 and (weapon is None or weapon.thrusting)


def entry_prevented(response: str, result: str, damage_inflicted: bool, won_st_contest: bool | None) -> bool:
    """S-40 / A-79: whether the attacker is kept out (and forfeits the rest of the turn).

    ``response`` is "stop thrust" or "shield block"; ``result`` the chart result of
    the defender's roll. A miss or a defended roll lets the attacker in (A-79). A
    shield block that hits always keeps them out; a stop thrust that hits keeps them
    out if it did damage, or else if the defender won the ST contest (S-02)."""
    if result not in (HIT, SHIELD_HIT):
        return False
    if response == "shield block":
        return True
    if response != "stop thrust":
        raise ValueError(f"unknown response to entering close combat: {response!r}")
    return damage_inflicted or bool(won_st_contest)


def close_combat_weapons(sheet: Sheet, style: str) -> tuple[Weapon, ...]:
    """S-41: only bare hands (always) and close-combat weapons may be used inside."""
    return (bare_hand(style),) + tuple(w for w in sheet.weapons if w.close_combat)


def takedown_mod(attacker_st: int, defender_st: int) -> int:
    """S-42: +-1 per point of ST difference (E-14: 14 vs 11 -> +3; escaping the pin: -3)."""
    return attacker_st - defender_st


def pin_mod(attacker_st: int, defender_st: int, attacker_lb: float, defender_lb: float) -> int:
    """S-43 / A-80: as a takedown, plus +-1 per whole 20 lb, truncated toward zero."""
    return takedown_mod(attacker_st, defender_st) + pin_weight_mod(attacker_lb - defender_lb)


#: R-16: a pinner who goes down counts as knocked down: dodge only, at -4 (S-28).
PINNER_DODGE_MOD = -4
#: S-41: no shield band in close combat (pass ``shield_pr=None`` to resolution.resolve).
CLOSE_COMBAT_SHIELD_PR = None
