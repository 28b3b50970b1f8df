"""GULLIVER's hit locations (A-24, A-63) wired through the gurps ruleset (issue #11, second
step), played through the real engine on a SQLite file and on PostgreSQL: an attack aims at a
location at its penalty or rolls 3d for where it lands; the blow meets that location's DR and
wound multiplier; G-46's major-wound roll is for torso blows only. Without the option every
blow is to the torso, as before. Numbers worked by hand in the docstrings."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, blow, explained, fight

#: ST 12: the spear (thr+2) rolls 1d+1, the axe (sw) 1d+2.
FIGHTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "spear", "skill": 14, "damage": "thr+2", "damage_type": "imp"},
    {"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"},
]}
#: 30 HP; DR 1 on the torso, 4 on the arms (a GCS sheet's DR by location).
ARMOURED = {"st": 10, "ht": 10, "hp": 30, "dr": 1, "dr_locations": {"arm": 4}}
#: A 10-HP human: a blow of more than 5 is a major wound (G-46).
HUMAN = {"st": 10, "ht": 10, "hp": 10}


def test_a24_aiming_at_the_skull_costs_its_penalty_and_meets_skull_dr_and_x4(engine: Engine) -> None:
    """A-24: aimed at the skull, -7 to hit (skill 14 -> 7; 3d rolls 6: a hit). The spear's 1d+1 rolls
    6 -> 7; the skull's natural DR 2 (+ the sheet's DR 1 there: none given, so the torso's 1) -> 3,
    7 - 3 = 4 penetrating, x4 imp in the skull = 16."""
    table = fight(engine, FIGHTER, ARMOURED, "hit_locations")
    table.maneuver("hero", "attack", [[1, 2, 3]], target="foe", weapon="spear", location="skull")
    attack = table.last("attack_rolled").payload
    assert [(m["value"], m["rule"]) for m in attack["record"]["modifiers"]] == [(-7, "A-24")]
    assert attack["record"]["target"] == 7
    assert attack["location"] == {"name": "skull", "aimed": True, "penalty": -7, "rule": "A-24"}
    assert "Aimed at the skull (A-24)." in explained(table, "attack_rolled")
    table.defend("none")
    table.roll([6], "damage")
    dmg = table.last("damage_rolled").payload
    assert (dmg["location"], dmg["dr"], dmg["penetrating"], dmg["multiplier"], dmg["injury"]) == ("skull", 3, 4, "4", 16)
    assert explained(table, "damage_rolled").startswith("spear damage to the skull (A-24) [6] +1 = 7 basic; DR 3")


def test_a24_an_unaimed_hit_rolls_its_location(engine: Engine) -> None:
    """A-24: a hit not aimed rolls 3d on the humanoid table: 2 + 3 + 3 = 8 is the right arm, where the
    spear's impaling wound is x1 (Basic Set limbs) and the arm's DR 4 applies: 7 - 4 = 3 -> 3."""
    table = fight(engine, FIGHTER, ARMOURED, "hit_locations")
    table.maneuver("hero", "attack", [TO_HIT, [2, 3, 3]], target="foe", weapon="spear")
    assert table.last("attack_rolled").payload["location"] == {
        "name": "right arm", "dice": [2, 3, 3], "total": 8, "rule": "A-24"}
    assert "Hit location: 3d [2, 3, 3] = 8, the right arm (A-24)." in explained(table, "attack_rolled")
    table.defend("none")
    table.roll([6], "damage")
    dmg = table.last("damage_rolled").payload
    assert (dmg["location"], dmg["dr"], dmg["multiplier"], dmg["injury"]) == ("right arm", 4, "1", 3)


def test_a24_without_the_option_every_blow_is_to_the_torso(engine: Engine) -> None:
    """A-24: off, no location is rolled (the attack takes one set of dice) and the torso's DR 1 and
    x2 imp apply: 7 - 1 = 6 -> 12."""
    table = fight(engine, FIGHTER, ARMOURED)
    dmg = blow(table, "spear", [6])
    assert "location" not in table.last("attack_rolled").payload
    assert "location" not in table.last("attack_rolled").payload["attack"]
    assert (dmg["dr"], dmg["injury"], "location" in dmg) == (1, 12, False)


def test_a24_aiming_without_hit_locations_is_refused_and_appends_nothing(engine: Engine) -> None:
    """A-24: a fight without hit locations refuses an aimed attack, naming the field and why."""
    table = fight(engine, FIGHTER, ARMOURED)
    before = len(engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="spear", location="skull")
    assert err.value.code == "maneuver/bad_location" and err.value.details["field"] == "location"
    assert "hit_locations" in err.value.message
    assert len(engine.store.events(table.fight_id)) == before


def test_a63_a_location_the_body_lacks_is_refused_with_the_choices(engine: Engine) -> None:
    """A-63: the humanoid table has no tail: refused, listing its locations."""
    table = fight(engine, FIGHTER, ARMOURED, "hit_locations")
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="spear", location="tail")
    assert err.value.code == "maneuver/bad_location" and "skull" in err.value.details["known"]


@pytest.mark.parametrize("roll,where,major", [([3, 3, 4], "torso", True), ([2, 3, 3], "right arm", False)])
def test_a24_g46_major_wound_roll_only_for_a_torso_blow(engine: Engine, roll: list[int], where: str,
                                                       major: bool) -> None:
    """A-24 / G-46: the axe's 1d+2 rolls 6 -> 8, x1.5 cut = 12 > 10/2 on a 10-HP human, in the torso
    (3d = 10) and on the arm (3d = 8) alike; only the torso blow calls for the major-wound HT roll."""
    table = fight(engine, FIGHTER, HUMAN, "hit_locations")
    table.maneuver("hero", "attack", [TO_HIT, roll], target="foe", weapon="axe")
    table.defend("none")
    table.roll([6], "damage")
    assert (table.last("damage_rolled").payload["location"], table.last("damage_rolled").payload["injury"]) == (where, 12)
    purposes = [p.options.get("purpose") for p in table.state.prompts if p.kind == "roll"]
    assert ("major_wound" in purposes) is major


def test_a24_a_fight_with_locations_refolds_to_the_same_state(engine: Engine) -> None:
    """The location is in the events (the roll, the attack): refolding gives the same bytes."""
    table = fight(engine, FIGHTER, ARMOURED, "hit_locations", "blowthrough")
    table.maneuver("hero", "attack", [TO_HIT, [1, 1, 6]], target="foe", weapon="spear")
    assert table.refold_matches()
    table.defend("none")
    table.roll([5], "damage")
    assert table.refold_matches()


def test_a24_the_attack_form_offers_the_locations_only_with_the_option(engine: Engine) -> None:
    """A-24: with hit locations the Attack action has a "Hit location" choice: a 3d roll (no value) or
    a location with its penalty; without them, no such field."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    def location_field(table: Table) -> Any:
        attack = next(a for a in GurpsRuleset().describe(table.state, GM_ACTOR).actions if a.id == "attack")
        return next((f for f in attack.fields if f.name == "location"), None)

    assert location_field(fight(engine, FIGHTER, ARMOURED)) is None
    field = location_field(fight(engine, FIGHTER, ARMOURED, "hit_locations"))
    labels = {c.value: c.label for c in field.choices}
    assert labels[None] == "roll 3d" and labels["skull"] == "skull (-7)" and labels["torso"] == "torso"
    assert field.rule == "A-24" and not field.required


def test_a63_the_attack_form_follows_a_foes_body_changed_mid_fight(engine: Engine) -> None:
    """A-63: the form offers the locations of each foe's body. The GM makes the foe a quadruped
    (update_combatant): the hero's form, built before for a humanoid foe, now offers its forelegs."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    def offered(table: Table) -> set[Any]:
        attack = next(a for a in GurpsRuleset().describe(table.state, GM_ACTOR).actions if a.id == "attack")
        return {c.value for f in attack.fields if f.name == "location" for c in f.choices}

    table = fight(engine, FIGHTER, ARMOURED, "hit_locations")
    assert "foreleg" not in offered(table)
    table.send("update_combatant", {"id": "foe", "sheet": {**ARMOURED, "gulliver": {"body": "quadruped"}}})
    assert "foreleg" in offered(table)
