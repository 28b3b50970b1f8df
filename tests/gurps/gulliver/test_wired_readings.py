"""GULLIVER's readings of how shock is counted, wired through the gurps ruleset (issue #11), on
the real engine (SQLite file and PostgreSQL): `crippling_shock` (V-11 / A-33: the doubled shock of
a crippling blow is of the HP taken, or of the whole blow) and `toughness_shock` (V-64: shock
after Toughness (a), or before it less Toughness (b)). Each test plays the same blow on the same
dice under both choices; numbers worked by hand."""

from __future__ import annotations

from typing import Any

from combat_server.engine.fight import Engine
from combat_server.rules.model import JSON

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, blow, explained, fight

#: ST 12: the axe (sw) rolls 1d+2 cutting; the nerve baton 1d crushing with shock x4 (V-17).
FIGHTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"},
    {"name": "nerve baton", "skill": 14, "damage": "1d", "damage_type": "cr", "shock_multiplier": 4}]}
#: A 10-HP human: an arm cripples over 5 (V-11).
HUMAN = {"st": 10, "ht": 10, "hp": 10}
#: ST 15: Toughness floor(15/5) = 3 (V-63), 10 HP, no DR.
TOUGH = {"st": 15, "ht": 12, "hp": 10}
ARM = [2, 3, 3]  # 3d 8: the right arm
CRIPPLING = ("hit_locations", "crippled_limbs", "damage_shock", "shock_penalty_bands")
TOUGHNESS = ("damage_shock", "shock_points", "shock_stun", "new_toughness", "location_toughness")


def _crippling_blow(engine: Engine, reading: str) -> Table:
    """The axe rolls 3 + 2 = 5 on the right arm, x1.5 cut = 7: over 5, crippled; 6 HP taken (A-33)."""
    table = fight(engine, FIGHTER, HUMAN, *CRIPPLING, crippling_shock=reading)
    table.maneuver("hero", "attack", [TO_HIT, ARM], target="foe", weapon="axe")
    table.defend("none")
    table.roll([3], "damage")
    return table


def test_v11_crippling_shock_applied_doubles_the_hp_taken(engine: Engine) -> None:
    """A-33 (the default): shock 2 x the 6 HP taken = 12; V-18's bands at HP 10 (-1 a point): -12."""
    table = _crippling_blow(engine, "applied")
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["shock_added"]) == (6, 12)
    assert injury["shock"] == {"points": "12", "basis": "6", "of": "taken",
                               "factors": [{"value": "2", "reason": "crippling or amputation", "rule": "V-11"}]}
    assert "Shock 12 points: 6 from the HP taken (V-11, A-33) x2 crippling or amputation (V-11)." in \
        explained(table, "injury_applied")


def test_v11_crippling_shock_full_blow_doubles_the_whole_blow(engine: Engine) -> None:
    """A-33 (cfg) full_blow: the same blow's shock is 2 x the whole 7 = 14 (-14), though only 6 HP are taken."""
    table = _crippling_blow(engine, "full_blow")
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["shock_added"]) == (6, 14)
    assert injury["shock"]["points"] == "14" and (injury["shock"]["basis"], injury["shock"]["of"]) == ("7", "blow")
    assert "Shock 14 points: 7 from the whole blow (V-11, A-33: crippling_shock full_blow) x2 crippling" in \
        explained(table, "injury_applied")


def _tough_blow(engine: Engine, face: int, **reading: JSON) -> tuple[Table, dict[str, Any]]:
    table = fight(engine, FIGHTER, TOUGH, *TOUGHNESS, **reading)
    return table, blow(table, "nerve baton", [face])


def test_v64_toughness_shock_after_counts_the_injury_past_toughness(engine: Engine) -> None:
    """V-64 (a), the default: the baton rolls 4, x1 = 4, less Toughness 3 = 1 HP; shock 1 x 4 = 4, not
    over 10/2: no stun (V-19)."""
    table, dmg = _tough_blow(engine, 4, toughness_shock="after")
    assert dmg["injury"] == 1
    assert table.last("injury_applied").payload["shock"]["points"] == "4"
    assert not table.events("shock_effect")


def test_v64_toughness_shock_before_counts_the_wound_before_toughness(engine: Engine) -> None:
    """V-64 (b): the same 1 HP wound's shock is 4 x 4 - 3 = 13: over 10/2, stunned (V-19)."""
    table, dmg = _tough_blow(engine, 4, toughness_shock="before")
    assert dmg["injury"] == 1
    shock = table.last("injury_applied").payload["shock"]
    assert shock == {"points": "13", "basis": "4", "of": "before_toughness", "less": 3,
                     "factors": [{"value": "4", "reason": "nerve baton shock x4", "rule": "V-17"}]}
    assert table.last("shock_effect").payload["points"] == "13" and table.cond("foe").stunned
    assert ("Shock 13 points: 4 from the wound before Toughness (V-64 (b)) x4 nerve baton shock x4 "
            "(V-17 (in place of G-47)) - Toughness 3 (V-64 (b)).") in explained(table, "injury_applied")


def test_v64_before_a_blow_toughness_stopped_still_stuns(engine: Engine) -> None:
    """V-64 (b): the baton rolls 3: Toughness 3 stops all of it (no HP lost); (a) no shock at all, no
    injury recorded; (b) 3 x 4 - 3 = 9 shock: stunned, HP still 10."""
    after, _ = _tough_blow(engine, 3)
    before, dmg = _tough_blow(engine, 3, toughness_shock="before")
    assert dmg["injury"] == 0
    assert not after.events("injury_applied") and not after.cond("foe").stunned
    injury = before.last("injury_applied").payload
    assert (injury["injury"], injury["hp_after"], injury["shock"]["points"]) == (0, 10, "9")
    assert before.cond("foe").stunned
