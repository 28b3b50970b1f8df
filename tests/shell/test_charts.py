"""SHELL tables (S-03, S-07, S-11, S-19, S-28, S-30, S-46) against the catalogue's rows."""

from __future__ import annotations

import pytest

from combat_server.rules.shell import charts

# S-03: (level, max Enc, damage, AG AT, AG DEF), copied by hand from the catalogue table.
CHART = [
    (7, 140, "1d-3", -2, -1), (8, 160, "1d-2", -1, -1), (9, 180, "1d-1", -1, 0), (10, 200, "1d", 0, 0),
    (11, 230, "1d+1", 0, 1), (12, 260, "1d+2", 1, 1), (13, 300, "1d+3", 1, 2), (14, 350, "2d", 2, 2),
    (15, 400, "2d+1", 2, 3), (16, 460, "2d+2", 3, 3), (17, 520, "2d+3", 3, 4), (18, 600, "3d", 4, 4),
    (19, 700, "3d+1", 4, 5), (20, 800, "3d+2", 5, 5),
]


@pytest.mark.parametrize("level,enc,dmg,at,def_", CHART)
def test_s03_primary_attribute_chart_rows(level: int, enc: int, dmg: str, at: int, def_: int) -> None:
    """S-03: every chart row: ST -> max Enc and damage, AG -> AT and DEF modifiers."""
    assert charts.MAX_ENC[level] == enc
    assert str(charts.st_damage(level)) == dmg
    assert (charts.ag_at_mod(level), charts.ag_def_mod(level)) == (at, def_)


@pytest.mark.parametrize("st,dmg", [(21, "3d+3"), (22, "4d"), (6, "1d-4"), (26, "5d")])
def test_a58_damage_beyond_the_chart(st: int, dmg: str) -> None:
    """A-58: damage extrapolates as the catalogue's formula (21 -> 3d+3, 22 -> 4d, 6 -> 1d-4)."""
    assert str(charts.st_damage(st)) == dmg


def test_a58_ag_modifiers_beyond_the_chart() -> None:
    """A-58: AT = floor((AG-10)/2), DEF = ceil((AG-10)/2), e.g. AG 21 -> +5/+6, AG 5 -> -3/-2."""
    assert (charts.ag_at_mod(21), charts.ag_def_mod(21)) == (5, 6)
    assert (charts.ag_at_mod(5), charts.ag_def_mod(5)) == (-3, -2)


@pytest.mark.parametrize("carried,el", [(0, 0), (20, 0), (20.5, 1), (40, 1), (60, 2), (61, 3), (120, 3),
                                        (121, 4), (200, 4)])
def test_s07_encumbrance_level_bands_are_inclusive(carried: float, el: int) -> None:
    """S-07: EL by carried / max Enc, each band's upper bound included (max Enc 200)."""
    assert charts.encumbrance_level(carried, 200) == el


def test_a61_over_full_load_has_no_el() -> None:
    """A-61: more than 100% of max Enc is not an EL at all; the option decides what follows."""
    assert charts.encumbrance_level(200.5, 200) is None


@pytest.mark.parametrize("level,bonus", [(1, 0), (3, 0), (4, 1), (6, 1), (7, 2), (10, 3)])
def test_s11_style_damage_bonus(level: int, bonus: int) -> None:
    """S-11 (E-13): +1 damage per 3 levels above the first."""
    assert charts.style_damage_bonus(level) == bonus


def test_r20_ranged_skills_get_no_damage_bonus() -> None:
    """R-20: only hand-to-hand styles get the level damage bonus."""
    assert charts.style_damage_bonus(7, hand_to_hand=False) == 0


@pytest.mark.parametrize("level,blocks", [(0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (9, 5)])
def test_s28_blocks_per_round(level: int, blocks: int) -> None:
    """S-28 (E-09, E-13): 1 + floor((L-1)/2): 2 at level 3, 3 at level 5."""
    assert charts.blocks_per_round(level) == blocks


@pytest.mark.parametrize("units,bonus", [(0, 0), (4, 0), (5, 1), (11, 2), (15, 3)])
def test_s19_charge_bonus(units: int, bonus: int) -> None:
    """S-19 / A-57: +1 damage per 5 units moved (E-10: 11 units -> +2)."""
    assert charts.charge_bonus(units) == bonus


@pytest.mark.parametrize("units,mod", [(1, 0), (2, 0), (3, -1), (5, -1), (6, -2), (10, -2), (11, -3), (16, -3),
                                       (17, -4), (25, -4), (26, -5), (40, -5), (41, -6), (60, -6), (61, -7),
                                       (90, -7), (91, -8), (135, -8), (136, -9), (202, -9), (203, -10),
                                       (303, -10), (304, -11)])
def test_s30_a71_range_bands(units: int, mod: int) -> None:
    """S-30 bands to 40 units, then A-71's floor(x1.5) bounds: 60, 90, 135, 202, 303."""
    assert charts.range_penalty(units) == mod


def test_s46_fatigue_rounds_by_el() -> None:
    """S-46: 25, 20, 15, 10, 5 active rounds per END at EL 0..4."""
    assert [charts.FATIGUE_ROUNDS[el] for el in range(5)] == [25, 20, 15, 10, 5]


def test_s18_maneuver_chart() -> None:
    """S-18: attack 0/0, guard +1/0, defend 0/+2, disarm -2/-1, aim 0/-2."""
    assert charts.MANEUVERS == {"attack": (0, 0), "guard": (1, 0), "defend": (0, 2), "disarm": (-2, -1),
                                "aim": (0, -2)}
