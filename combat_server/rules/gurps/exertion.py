"""What a turn's exertion costs under GULLIVER (issue #11), each charged through the one fatigue
path (``checks.lose_fatigue``, so V-48's heat, V-52's load and V-53's ST scaling and HT roll apply):

* V-47 / A-48 (in place of G-10): moving costs fatigue per time by pace. Each turn is one second
  (G-19); the seconds moved at each pace are kept in ``Condition.pace_seconds``, and a point is
  charged whenever the seconds, each worth 1/interval of a point, add up to another whole one.
* V-52: standing under a Super-Heavy load (over 10 x BL) costs 1 fatigue a turn (sitting or lying
  spares it).
* V-48: Extra Effort of any kind costs 1 fatigue a turn (the maneuver's ``extra_effort`` field).

Why events: the pace of each second is a ``pace_timed`` event (its seconds folded into the
condition) and each charge a ``fatigue_spent`` citing its rule, so a replay gives the same state."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import checks, derived
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.fatigue import PACES, SPRINT_SECONDS, EXTRA_EFFORT_SPRINT_SECONDS
from combat_server.rules.gurps.gulliver.options import cite
from combat_server.rules.gurps.tables import LYING

#: V-47: seconds per fatigue point of each pace, by its name.
INTERVALS: Mapping[str, int] = {**{name: seconds for _limit, seconds, name in PACES},
                                "sprinting": SPRINT_SECONDS, "Extra Effort sprinting": EXTRA_EFFORT_SPRINT_SECONDS}
#: V-52: postures that do not hold a load up ("sitting or lying down may alleviate" it).
RESTING = ("sitting", *LYING)


def owed(seconds: Mapping[str, int]) -> int:
    """V-47: the whole fatigue points the seconds moved at each pace add up to (exact sum)."""
    return math.floor(sum((Fraction(s, INTERVALS[pace]) for pace, s in seconds.items()), Fraction(0)))


def end_of_turn(b: Batch, cid: str) -> None:
    """The turn's second of exertion, at its end (before the end-of-turn rolls): V-47's pace, or
    V-52's cost of standing under a Super-Heavy load when the combatant did not move."""
    c = b.state.combatants.get(cid)
    if c is None:
        return
    sheet, cond = b.sheet(cid), b.cond(cid)
    if cond.dead or cond.unconscious:
        return
    if cond.moved > 0:
        _paced(b, cid)
    elif b.policy.standing_fatigue(derived.fatigue_load(sheet, b.policy)) and cond.posture not in RESTING:
        checks.lose_fatigue(b, cid, b.policy.standing_fatigue(derived.fatigue_load(sheet, b.policy)),
                            "standing under a Super-Heavy load", rule="V-52", loaded=False)


def _paced(b: Batch, cid: str) -> None:
    """V-47 / A-48: this second's pace from the yards moved against Move now; its seconds so far; the
    point it completes, if any."""
    sheet, cond = b.sheet(cid), b.cond(cid)
    move = derived.move(sheet, cond, b.policy)
    pace = b.policy.movement_pace(cond.moved, move)
    if pace is None:
        return
    seconds = {**cond.pace_seconds, pace.name: cond.pace_seconds.get(pace.name, 0) + 1}
    b.emit("pace_timed", {"combatant": cid, "pace": pace.name, "seconds": seconds[pace.name],
                          "interval": pace.seconds_per_point, "moved": cond.moved, "move": move, "rule": "V-47"})
    points = owed(seconds) - owed(cond.pace_seconds)
    if points:
        checks.lose_fatigue(b, cid, points, "movement", rule="V-47",
                            pace=f"{pace.name}: 1 per {pace.seconds_per_point} s")


def extra_effort(b: Batch, cid: str, wanted: object) -> None:
    """V-48: Extra Effort of any kind costs 1 fatigue this turn, charged with the maneuver it helps.
    Without V-48 the core has no Extra Effort rule: asking for it is refused, so nothing is charged
    silently."""
    if wanted is None or wanted is False:
        return
    if wanted is not True:
        raise reject("command/bad_field", "extra_effort must be true or false", field="extra_effort")
    cost = b.policy.extra_effort_cost()
    if not cost:
        raise reject("maneuver/extra_effort_off", "Extra Effort is charged only with GULLIVER's "
                     f"{cite('V-48')} option (effort_heat_fatigue), which this fight does not use",
                     field="extra_effort")
    checks.lose_fatigue(b, cid, cost, "Extra Effort this turn", rule="V-48")
