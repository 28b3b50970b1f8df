"""What the GURPS ruleset tells clients so that they render it without knowing GURPS (#13, #9).

Why a module of its own: the GM's Adjust form, the log's foldable turn bookkeeping and the
combatant card are drawn by a generic web page from these declarations; keeping them here
leaves describe.py (the seat's actions and prompts) as it was.
"""

from __future__ import annotations

from typing import Iterator

from combat_server.rules.describe import Field, Stat
from combat_server.rules.gurps import derived, maneuvers
from combat_server.rules.gurps.gulliver.policy import OFF, Policy
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Condition
from combat_server.rules.model import Combatant

#: What the GM sets by hand (the ``adjust`` command, a ruling's override): HP and FP, as the
#: Adjust form always offered. Other condition fields stay settable through the command itself.
ADJUST_FIELDS: tuple[Field, ...] = (
    Field("hp", "integer", "HP", "Current hit points: below 0 brings HT rolls, -5xHP is death.", "G-43"),
    Field("fp", "integer", "FP", "Current fatigue points: at 0 or below each maneuver needs a Will roll.", "G-51"),
)

#: The events that only keep the turn's books: a turn starts, its end-of-turn checks, it ends.
QUIET_EVENTS: frozenset[str] = frozenset({"turn_started", "turn_ending", "turn_ended"})


# --------------------------------------------------------------------------- the combatant card (#13)
# What a player looks up at the table, as labelled numbers (describe.Stat): the defences (G-39..G-41),
# DR (G-42), Will, Per, Move, the shots of a ranged weapon, and where HP at 0 and below bites
# (G-44, G-45). Memoized per combatant object: a description is built for every seat after each command.

_CARDS: dict[int, tuple[Combatant, Policy, tuple[Stat, ...]]] = {}
_CARDS_LIMIT = 4096


def card(c: Combatant, policy: Policy = OFF) -> tuple[Stat, ...]:
    """The card of combatant ``c`` (a seat that may see its sheet gets it; describe decides)."""
    hit = _CARDS.get(id(c))
    if hit is not None and hit[0] is c and hit[1] is policy:
        return hit[2]
    stats = tuple(_card(c, policy))
    if len(_CARDS) >= _CARDS_LIMIT:
        _CARDS.clear()
    _CARDS[id(c)] = (c, policy, stats)
    return stats


def _card(c: Combatant, policy: Policy) -> Iterator[Stat]:
    """The card's numbers; each cites its rule, whose text (rule_texts.py) says how it is made."""
    sheet, cond = c.sheet, c.condition
    assert isinstance(sheet, Sheet) and isinstance(cond, Condition)
    cid = c.id
    yield Stat(cid, "Defences", "Dodge", str(derived.dodge(sheet, cond, policy)), "G-39")
    for w in sheet.all_weapons():
        p = derived.parry(w, sheet)
        if p is not None:
            yield Stat(cid, "Defences", f"Parry ({w.name})", str(p), "G-41")
    b = derived.block(sheet)
    if b is not None:
        yield Stat(cid, "Defences", f"Block ({sheet.shield_name or 'shield'})", str(b), "G-40")
    if sheet.db:
        yield Stat(cid, "Defences", "Shield DB", f"+{sheet.db}", "G-40", "added to every defence")
    yield Stat(cid, "Armour", "DR", str(sheet.dr), "G-42")
    for location, dr in sheet.dr_locations.items():
        yield Stat(cid, "Armour", f"DR {location}", str(dr))
    yield Stat(cid, "Scores", "Will", str(sheet.will_score), "G-18")
    yield Stat(cid, "Scores", "Per", str(sheet.per_score))
    yield Stat(cid, "Scores", "Move", str(derived.move(sheet, cond, policy)), "G-09")
    lift = derived.lift_st(sheet, policy)
    if lift == sheet.st:
        yield Stat(cid, "Scores", "Encumbrance", str(derived.encumbrance_level(sheet)), "G-02")
    else:  # V-01: the level from Load ST's Basic Lift
        yield Stat(cid, "Scores", "Encumbrance", str(derived.encumbrance_level(sheet, policy)), "V-01",
                   f"by Load ST {lift} (Basic Lift {derived.carrying_bl(sheet, policy)} lb)")
    for w in sheet.weapons:
        left = maneuvers.shots_left(cond, w)  # #14: counted down by each attack, refilled by a reload
        if left is not None:
            yield Stat(cid, "Ammunition", w.name, f"{left}/{w.shots} shot{'s' if w.shots != 1 else ''}", "G-33",
                       f"empty: {w.reload} Ready to reload" if left == 0 else "each shot fired counts down")
    hp = sheet.hp_max
    yield Stat(cid, "When HP falls", "HP ≤ 0", "0", "G-44", "HT roll each turn")
    for n in range(1, 6):
        yield Stat(cid, "When HP falls", f"−{n}×HP", str(-n * hp), "G-45", "dead" if n == 5 else "HT roll or die")
