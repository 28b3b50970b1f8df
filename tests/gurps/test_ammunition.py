"""#14 item 5: ammunition. Every ranged attack spends the shots it fires (RoF), an empty weapon
cannot attack, a Ready reloads it in the turns the sheet gives (G-33), and the count is shown."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.describe import Description
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR

from .conftest import ORC, Table

#: A crossbow: one bolt, two Readies to reload; a pistol: 7 shots, RoF 3.
SHOOTER = {"st": 10, "dx": 12, "ht": 10, "weapons": [
    {"name": "crossbow", "kind": "ranged", "skill": 13, "damage": "thr+4", "damage_type": "imp", "acc": 4,
     "max_range": 300, "half_damage": 20, "parry": None, "shots": 1, "reload": 2},
    {"name": "pistol", "kind": "ranged", "skill": 13, "damage": "2d", "damage_type": "pi", "max_range": 150,
     "rof": 3, "shots": 7, "reload": 3, "parry": None, "firearm": True},
    {"name": "knife", "damage": "thr", "damage_type": "imp", "reach": "C"}]}


@pytest.fixture
def range_(table: Table) -> Table:
    table.add("shooter", SHOOTER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["shooter", "orc"]})
    return table


def _fire(t: Table, weapon: str, faces: list[list[int]] | None = None, **args: Any) -> None:
    t.maneuver("shooter", "attack", faces or [[6, 6, 6]], target="orc", weapon=weapon, range=5, **args)  # a miss


def _next_round(t: Table) -> None:
    t.maneuver("orc", "do_nothing")


def _describe(t: Table) -> Description:
    return GurpsRuleset().describe(t.state, GM_ACTOR)


def test_an_attack_spends_its_shot(range_: Table) -> None:
    """One shot per attack: the crossbow's single bolt is spent, hit or miss."""
    _fire(range_, "crossbow")
    assert range_.cond("shooter").ammo_used == {"crossbow": 1}


def test_rapid_fire_spends_every_shot_fired(range_: Table) -> None:
    """RoF: three shots fired are three shots spent (G-39 rapid fire)."""
    _fire(range_, "pistol", shots=3)
    assert range_.cond("shooter").ammo_used == {"pistol": 3}


def test_an_empty_weapon_cannot_attack(range_: Table) -> None:
    """With no shot left the attack is refused, naming the weapon and the reload, and nothing is appended."""
    _fire(range_, "crossbow")
    _next_round(range_)
    before = len(range_.engine.store.events(range_.fight_id))
    with pytest.raises(Rejected) as err:
        _fire(range_, "crossbow")
    assert err.value.code == "maneuver/out_of_ammo" and "G-33" in err.value.message
    assert err.value.details["field"] == "weapon"
    assert len(range_.engine.store.events(range_.fight_id)) == before


def test_more_shots_than_are_left_are_refused(range_: Table) -> None:
    """Seven rounds, three fired twice: one left, so a burst of three is refused naming the shots."""
    _fire(range_, "pistol", shots=3)
    _next_round(range_)
    _fire(range_, "pistol", shots=3)
    _next_round(range_)
    with pytest.raises(Rejected) as err:
        _fire(range_, "pistol", shots=3)
    assert (err.value.code, err.value.details["field"], err.value.details["left"]) == ("maneuver/bad_shots", "shots", 1)


def test_g33_ready_reloads_in_the_turns_the_sheet_gives(range_: Table) -> None:
    """G-33: the crossbow reloads after two Ready maneuvers; after the first it is still empty."""
    _fire(range_, "crossbow")
    _next_round(range_)
    range_.maneuver("shooter", "ready", weapon="crossbow")
    assert range_.cond("shooter").ammo_used == {"crossbow": 1}
    assert range_.cond("shooter").reload_progress == {"crossbow": 1}
    _next_round(range_)
    range_.maneuver("shooter", "ready", weapon="crossbow")
    reloaded = range_.last("weapon_reloaded").payload
    assert (reloaded["weapon"], reloaded["shots"], reloaded["turns"]) == ("crossbow", 1, 2)
    assert range_.cond("shooter").ammo_used == {} and range_.cond("shooter").reload_progress == {}
    _next_round(range_)
    _fire(range_, "crossbow")  # loaded again
    assert range_.cond("shooter").ammo_used == {"crossbow": 1}


def test_the_count_is_shown_on_the_card(range_: Table) -> None:
    """The shots left are on the combatant's badges and summary; an empty weapon is not offered to attack
    with but offered to reload."""
    _fire(range_, "crossbow")
    _next_round(range_)
    d = _describe(range_)
    labels = [b.label for b in d.badges if b.combatant == "shooter"]
    assert "crossbow: 0/1 shots" in labels and "pistol: 7/7 shots" in labels
    summary = next(s.text for s in d.summaries if s.combatant == "shooter")
    assert "crossbow 13, 1d+2, 0/1 shots" in summary
    attack = next(a for a in d.actions if a.id == "attack")
    weapons = next(f for f in attack.fields if f.name == "weapon")
    assert [c.value for c in weapons.choices] == ["pistol", "knife", "punch"]
    assert "7/7 shots" in weapons.choices[0].label
    ready = next(a for a in d.actions if a.id == "ready")
    to_ready = next(f for f in ready.fields if f.name == "weapon")
    assert [c.value for c in to_ready.choices] == ["crossbow"] and "turn 1 of 2" in to_ready.choices[0].label


def test_weapons_without_shots_are_not_counted(range_: Table) -> None:
    """shots 0 (the default): melee and thrown weapons spend nothing and show no count."""
    range_.maneuver("shooter", "attack", [[6, 6, 6]], target="orc", weapon="knife")
    assert range_.cond("shooter").ammo_used == {}


def test_the_card_counts_the_shots_left(range_: Table) -> None:
    """The card's Ammunition (#13's stats) gives shots left of the sheet's, and how to reload an empty weapon."""
    _fire(range_, "crossbow")
    stats = {s.label: (s.value, s.rule, s.help) for s in _describe(range_).stats
             if s.combatant == "shooter" and s.group == "Ammunition"}
    assert stats == {"crossbow": ("0/1 shot", "G-33", "empty: 2 Ready to reload"),
                     "pistol": ("7/7 shots", "G-33", "each shot fired counts down")}
