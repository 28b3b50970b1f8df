"""Derived scores (derived.py): Basic Lift/Speed/Move, encumbrance (G-02), Dodge
(G-39), Parry (G-41), Block (G-40), reeling (G-43), fatigue (G-51) and the
halving order of A-21."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.rules.gurps import derived
from combat_server.rules.gurps.sheet import Sheet, Weapon
from combat_server.rules.gurps.state import Condition


def cond(hp: int = 10, fp: int = 10) -> Condition:
    return Condition(hp=hp, fp=fp)


# --------------------------------------------------------------------------- catalogue 1.0 inputs


@pytest.mark.parametrize(("st", "bl"), [(10, Fraction(20)), (5, Fraction(5)), (7, Fraction(49, 5)),
                                        (12, Fraction(29)), (14, Fraction(39))])
def test_basic_lift_is_st_squared_over_5_rounded_from_10(st: int, bl: Fraction) -> None:
    """Catalogue 1.0: BL = ST^2/5, kept exact below 10 (ST 7 -> 9.8) and rounded from 10 up (ST 12 -> 28.8 -> 29)."""
    assert derived.basic_lift(st) == bl


def test_basic_speed_keeps_quarters() -> None:
    """Catalogue 1.0: Basic Speed = (HT + DX)/4 with fractions kept: 11 + 12 -> 5.75."""
    assert derived.basic_speed(Sheet(dx=12, ht=11)) == Fraction(23, 4)


def test_basic_move_is_floor_of_basic_speed() -> None:
    """Catalogue 1.0: Basic Move = floor(Basic Speed): 5.75 -> 5."""
    assert derived.basic_move(Sheet(dx=12, ht=11)) == 5


# --------------------------------------------------------------------------- G-02 encumbrance


@pytest.mark.parametrize(("carried", "level"), [(0, 0), (20, 0), (20.5, 1), (40, 1), (41, 2), (60, 2), (61, 3),
                                                (120, 3), (121, 4), (200, 4)])
def test_g02_encumbrance_level_from_carried_weight(carried: float, level: int) -> None:
    """G-02: with BL 20, up to 20 lb is None, 40 Light, 60 Medium, 120 Heavy, 200 Extra-Heavy."""
    assert derived.encumbrance_level(Sheet(st=10, carried=carried)) == level


def test_g02_encumbrance_level_set_directly_wins() -> None:
    """G-02: a level typed on the sheet is used as is, whatever is carried."""
    assert derived.encumbrance_level(Sheet(st=10, carried=0, encumbrance=3)) == 3


@pytest.mark.parametrize(("level", "move", "dodge"), [(0, 5, 8), (1, 4, 7), (2, 3, 6), (3, 2, 5), (4, 1, 4)])
def test_g02_move_and_dodge_per_level(level: int, move: int, dodge: int) -> None:
    """G-02: Basic Move 5, Basic Speed 5.5: Move floor(5 x 1/0.8/0.6/0.4/0.2) and Dodge 8 - EL."""
    sheet = Sheet(dx=11, ht=11, encumbrance=level)
    assert (derived.move(sheet), derived.dodge(sheet)) == (move, dodge)


def test_g02_encumbrance_never_takes_move_below_1() -> None:
    """G-02: Basic Move 3 at Extra-Heavy is floor(0.6) = 0, raised to 1."""
    assert derived.move(Sheet(dx=7, ht=7, encumbrance=4)) == 1


def test_g02_encumbrance_never_takes_dodge_below_1() -> None:
    """G-02: Basic Speed 1.5 gives floor(4.5) = 4, minus EL 4 = 0, raised to 1."""
    assert derived.dodge(Sheet(dx=3, ht=3, encumbrance=4)) == 1


# --------------------------------------------------------------------------- G-39..G-41


def test_g39_dodge_floors_speed_plus_3() -> None:
    """G-39: Basic Speed 5.75 -> Dodge floor(8.75) = 8 unencumbered."""
    assert derived.dodge(Sheet(dx=12, ht=11)) == 8


@pytest.mark.parametrize(("skill", "bonus", "parry"), [(13, 0, 9), (12, 0, 9), (12, 2, 11), (1, 0, 3)])
def test_g41_parry_is_3_plus_half_skill_plus_weapon_bonus(skill: int, bonus: int, parry: int) -> None:
    """G-41: Parry = 3 + floor(skill/2) + the weapon's parry bonus (a quarterstaff's +2)."""
    assert derived.parry(Weapon("w", skill=skill, parry=bonus)) == parry


def test_g41_ranged_weapons_and_no_parry_weapons_cannot_parry() -> None:
    """G-41: a bow (ranged) and a weapon marked parry None give no Parry."""
    assert derived.parry(Weapon("bow", kind="ranged", skill=14)) is None
    assert derived.parry(Weapon("flail", skill=14, parry=None)) is None


@pytest.mark.parametrize(("shield", "block"), [(11, 8), (12, 9), (0, 3)])
def test_g40_block_is_3_plus_half_shield_skill(shield: int, block: int) -> None:
    """G-40: Block = 3 + floor(Shield/2)."""
    assert derived.block(Sheet(shield_skill=shield)) == block


def test_g40_no_shield_no_block() -> None:
    """G-40: without a shield or cloak there is no Block."""
    assert derived.block(Sheet()) is None


# --------------------------------------------------------------------------- G-43 reeling, G-51 tired


@pytest.mark.parametrize(("hp_max", "hp", "expected"), [(15, 5, False), (15, 4, True), (10, 4, False),
                                                        (10, 3, True), (10, 0, True), (10, -7, True)])
def test_g43_reeling_is_hp_strictly_below_a_third(hp_max: int, hp: int, expected: bool) -> None:
    """G-43: reeling when HP < HPmax/3 (exactly a third is not reeling)."""
    assert derived.reeling(Sheet(hp=hp_max), cond(hp=hp)) is expected


@pytest.mark.parametrize(("fp_max", "fp", "expected"), [(12, 4, False), (12, 3, True), (10, 4, False),
                                                        (10, 3, True), (10, 0, True)])
def test_g51_tired_is_fp_strictly_below_a_third(fp_max: int, fp: int, expected: bool) -> None:
    """G-51/R-04: combat fatigue effects start at FP < FPmax/3, not at exactly a third."""
    assert derived.tired(Sheet(fp=fp_max), cond(fp=fp)) is expected


@pytest.mark.parametrize(("st", "halved"), [(10, 5), (11, 6), (1, 1)])
def test_g51_tired_halves_st_rounding_up(st: int, halved: int) -> None:
    """G-51: FP < 1/3 halves ST, rounding up."""
    assert derived.effective_st(Sheet(st=st, ht=12), cond(hp=st, fp=1)) == halved


def test_g51_rested_st_is_unchanged() -> None:
    """G-51: with FP at or above a third, ST is the sheet's ST."""
    assert derived.effective_st(Sheet(st=13, ht=12), cond(hp=13, fp=4)) == 13


# --------------------------------------------------------------------------- A-21 halving order


def test_a21_move_encumbrance_floors_before_injury_halving() -> None:
    """A-21: Basic Move 8 at Heavy is floor(3.2) = 3, then reeling ceil(1.5) = 2 (halving first would give 1)."""
    sheet = Sheet(dx=16, ht=16, encumbrance=3)
    assert derived.basic_move(sheet) == 8
    assert derived.move(sheet, cond(hp=3)) == 2


def test_a21_dodge_subtracts_encumbrance_before_halving() -> None:
    """A-21: Dodge floor(6 + 3) - 3 = 6 at Heavy, then reeling -> 3 (halving before EL would give 2)."""
    assert derived.dodge(Sheet(dx=12, ht=12, encumbrance=3), cond(hp=3)) == 3


def test_a21_minimum_1_comes_before_halving() -> None:
    """A-21: Move raised to 1 by G-02 halves to ceil(0.5) = 1, and again to 1 when also tired."""
    sheet = Sheet(dx=8, ht=8, encumbrance=4)
    assert derived.move(sheet, cond(hp=3)) == 1
    assert derived.move(sheet, cond(hp=3, fp=1)) == 1


def test_a21_injury_and_fatigue_halvings_are_cumulative() -> None:
    """A-21: HP < 1/3 and FP < 1/3 together quarter Move 8 (8 -> 4 -> 2) and Dodge 11 (-> 6 -> 3)."""
    sheet = Sheet(dx=16, ht=16)
    both = cond(hp=3, fp=3)
    assert (derived.move(sheet, both), derived.dodge(sheet, both)) == (2, 3)


def test_a21_halvings_round_up_each_time() -> None:
    """A-21: Move 5 reeling is ceil(2.5) = 3, and tired as well is ceil(1.5) = 2."""
    sheet = Sheet(dx=10, ht=10)
    assert derived.move(sheet, cond(hp=3)) == 3
    assert derived.move(sheet, cond(hp=3, fp=3)) == 2


@pytest.mark.parametrize("value", [1, 2, 5, 8, 11])
@pytest.mark.parametrize(("hp", "fp", "hp_exact", "fp_exact"),
                         [(10, 10, "", ""), (3, 10, "", ""), (10, 3, "", ""), (3, 3, "", ""), (4, 4, "", ""),
                          (4, 10, "7/2", ""), (10, 4, "", "7/2"), (-5, -5, "", "")])
def test_a21_halved_by_the_answers_of_g43_and_g51_is_halvings(value: int, hp: int, fp: int, hp_exact: str,
                                                              fp_exact: str) -> None:
    """A-21: ``halved`` given ``reeling`` (G-43) and ``tired`` (G-51) is ``halvings`` (a combatant's view asks
    each question once for both Move and Dodge, issue 16), exact HP (V-03) and Fatigue (A-50) included."""
    sheet = Sheet(dx=12, ht=11)
    c = Condition(hp=hp, fp=fp, hp_exact=hp_exact, fp_exact=fp_exact)
    assert derived.halved(value, derived.reeling(sheet, c), derived.tired(sheet, c)) == \
        derived.halvings(value, sheet, c)


# --------------------------------------------------------------------------- A-12 half Move


@pytest.mark.parametrize(("move", "half"), [(5, 2), (4, 2), (3, 1), (1, 1)])
def test_a12_half_move_floors_with_a_minimum_of_1(move: int, half: int) -> None:
    """A-12: All-Out Attack's 1/2 Move is floor(Move/2), at least a 1-yard step."""
    assert derived.half_move(move) == half


# --------------------------------------------------------------------------- weapon damage


@pytest.mark.parametrize(("st", "spec", "expected"), [(12, "sw+1", (1, 3)), (10, "thr-1", (1, -3)),
                                                      (13, "sw", (2, -1)), (10, "2d+1", (2, 1))])
def test_weapon_damage_adds_to_the_st_row(st: int, spec: str, expected: tuple[int, int]) -> None:
    """Weapon damage: thr/sw come from the ST row plus the weapon's adds; fixed dice are used as written."""
    assert derived.weapon_damage(Sheet(st=st), Weapon("w", damage=spec)) == expected
