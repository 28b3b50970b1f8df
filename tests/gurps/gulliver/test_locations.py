"""Hit-location tables as data (A-24, A-63): the humanoid table by default, other body
types as their own tables that replace it; penalties, roll ranges, wound multipliers,
crippling shares, Toughness shares and blowthrough factors per location."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps.gulliver.locations import (BODIES, HUMANOID, QUADRUPED, crippling_threshold,
                                                          location, location_dr, location_for_roll,
                                                          location_toughness, wound_multiplier)
from combat_server.rules.gurps.gulliver.size import Scale

from tests.gurps.gulliver.policies import OFF, policy


@pytest.mark.parametrize("body", sorted(BODIES))
def test_every_3d_total_lands_on_exactly_one_location(body: str) -> None:
    """A random hit: each total 3..18 belongs to one location of the table."""
    totals = [t for loc in BODIES[body].values() for t in loc.rolls]
    assert sorted(totals) == list(range(3, 19))


@pytest.mark.parametrize("total,name", [(3, "skull"), (5, "face"), (7, "right leg"), (8, "right arm"),
                                        (10, "torso"), (11, "groin"), (12, "left arm"), (14, "left leg"),
                                        (15, "hand"), (16, "foot"), (18, "neck")])
def test_humanoid_roll_ranges(total: int, name: str) -> None:
    """The humanoid table (Basic Set p. 552): 3-4 skull, 5 face, 6-7 right leg, 8 right arm, 9-10
    torso, 11 groin, 12 left arm, 13-14 left leg, 15 hand, 16 foot, 17-18 neck."""
    assert location_for_roll("humanoid", total).name == name


def test_a63_a_quadruped_table_replaces_the_humanoid_one() -> None:
    """A-63: a quadruped rolling 6 hits its neck (a humanoid's right leg); 17 its tail."""
    assert location_for_roll("quadruped", 6).name == "neck"
    assert location_for_roll("quadruped", 17).name == "tail"
    assert "tail" not in HUMANOID and "right arm" not in QUADRUPED


def test_aimed_only_locations_have_no_roll() -> None:
    """The eye and the vitals are hit only by aiming, at -9 and -3."""
    assert (HUMANOID["eye"].rolls, HUMANOID["eye"].penalty) == ((), -9)
    assert (HUMANOID["vitals"].rolls, HUMANOID["vitals"].penalty) == ((), -3)


@pytest.mark.parametrize("name,damage_type,mult", [
    ("vitals", "imp", Fraction(3)), ("skull", "cr", Fraction(4)), ("neck", "cut", Fraction(2)),
    ("neck", "cr", Fraction(3, 2)), ("right arm", "imp", Fraction(1)), ("right arm", "cut", Fraction(3, 2)),
    ("torso", "imp", Fraction(2)), ("eye", "imp", Fraction(4)),
])
def test_location_wound_multipliers(name: str, damage_type: str, mult: Fraction) -> None:
    """Location multipliers replace G-42's where listed (vitals imp x3, V-63's example); others keep G-42's."""
    assert wound_multiplier(HUMANOID[name], damage_type) == mult


def test_crippling_shares_of_hp() -> None:
    """V-11: limbs and the neck over HPmax/2, hands and feet over HPmax/3; the torso never."""
    assert crippling_threshold(HUMANOID["left leg"], 10) == 5
    assert crippling_threshold(HUMANOID["foot"], 10) == Fraction(10, 3)
    assert crippling_threshold(HUMANOID["neck"], 10) == 5
    assert crippling_threshold(HUMANOID["torso"], 10) is None


@pytest.mark.parametrize("name,t", [("torso", 5), ("hand", 2), ("foot", 2), ("groin", 2), ("neck", 2),
                                    ("eye", 0), ("skull", 0)])
def test_v64_toughness_by_location(name: str, t: int) -> None:
    """V-64 / A-53: T 5 is halved (floor 2) in hands, feet, groin and the neck (throat), 0 in the eye,
    and the skull uses its DR instead."""
    assert location_toughness(HUMANOID[name], 5) == t


def test_dr_by_location_from_the_sheet() -> None:
    """DR where the blow lands: the sheet's ``dr_locations`` (GCS ids), the torso's DR where none is
    given, plus the skull's natural 2."""
    assert location_dr(HUMANOID["right arm"], {"arm": 4}, 2) == 4
    assert location_dr(HUMANOID["face"], {"arm": 4}, 2) == 2
    assert location_dr(HUMANOID["skull"], {"skull": 3}, 2) == 5


def test_without_hit_locations_every_blow_is_to_the_torso() -> None:
    """A-24: off, an aimed or rolled blow lands on the torso, at no penalty, with the sheet's DR."""
    assert OFF.where(aimed="skull").name == "torso" and OFF.where(roll=3).name == "torso"
    assert OFF.aim_penalty(HUMANOID["skull"]) == 0
    assert OFF.location_dr(HUMANOID["skull"], 2, {"skull": 6}) == 2


def test_with_hit_locations_blows_land_where_aimed_or_rolled() -> None:
    """With the table: aimed at the skull at -7 with DR 6 + 2; a rolled 17 on a quadruped is its tail."""
    on = policy("hit_locations")
    assert on.where(aimed="skull").name == "skull" and on.aim_penalty(HUMANOID["skull"]) == -7
    assert on.location_dr(HUMANOID["skull"], 2, {"skull": 6}) == 8
    assert on.where(Scale(body="quadruped"), roll=17).name == "tail"


def test_location_lookup_by_body_and_name() -> None:
    assert location("quadruped", "foreleg").kind == "leg"
    with pytest.raises(KeyError):
        location("humanoid", "tail")
