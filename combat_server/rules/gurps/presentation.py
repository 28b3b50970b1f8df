"""What the GURPS ruleset tells clients so that they render it without knowing GURPS (#13, #9).

Why a module of its own: the GM's Adjust form, the log's foldable turn bookkeeping and the
combatant card are drawn by a generic web page from these declarations; keeping them here
leaves describe.py (the seat's actions and prompts) as it was.
"""

from __future__ import annotations

from combat_server.rules.describe import Field

#: What the GM sets by hand (the ``adjust`` command, a ruling's override): HP and FP, as the
#: Adjust form always offered. Other condition fields stay settable through the command itself.
ADJUST_FIELDS: tuple[Field, ...] = (
    Field("hp", "integer", "HP", "Current hit points: below 0 brings HT rolls, -5xHP is death.", "G-43"),
    Field("fp", "integer", "FP", "Current fatigue points: at 0 or below each maneuver needs a Will roll.", "G-51"),
)

#: The events that only keep the turn's books: a turn starts, its end-of-turn checks, it ends.
QUIET_EVENTS: frozenset[str] = frozenset({"turn_started", "turn_ending", "turn_ended"})
