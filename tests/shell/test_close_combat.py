"""SHELL close combat (S-40 ... S-43) and combat spellcasting (S-44, R-17)."""

from __future__ import annotations

import pytest

from combat_server.rules.shell import casting, close_combat as cc
from combat_server.rules.shell.sheet import validate_sheet

SPEAR = {"name": "spear", "style": "Spear", "thrusting": True, "damage_types": ["imp"]}
AXE = {"name": "axe", "style": "Spear"}
DAGGER = {"name": "dagger", "style": "Spear", "close_combat": True, "thrusting": True}


def test_s40_stop_thrust_needs_a_thrusting_weapon_or_bare_hands() -> None:
    """S-40: a spear or bare hands may stop-thrust; a swung axe may not."""
    sheet = validate_sheet({"styles": [{"name": "Spear"}], "weapons": [SPEAR, AXE]})
    assert cc.may_stop_thrust(sheet.weapon("spear"), blocks_left=1)
    assert cc.may_stop_thrust(None, blocks_left=1)
    assert not cc.may_stop_thrust(sheet.weapon("axe"), blocks_left=1)


def test_s40_r13_stop_thrust_needs_a_defence_left() -> None:
    """S-40: a stop thrust counts as a defence; with none left it is not allowed."""
    assert not cc.may_stop_thrust(None, blocks_left=0)


@pytest.mark.parametrize("result,damaged,contest,kept_out", [
    ("hit", True, None, True), ("shield hit", True, None, True), ("hit", False, True, True),
    ("hit", False, False, False), ("miss", False, None, False), ("defended", False, None, False),
])
def test_s40_a79_stop_thrust(result: str, damaged: bool, contest: bool | None, kept_out: bool) -> None:
    """S-40 / A-79: a hit keeps the attacker out if it did damage, else if the defender wins the ST contest;
    a miss or a defended roll lets them in."""
    assert cc.entry_prevented("stop thrust", result, damaged, contest) is kept_out


@pytest.mark.parametrize("result,kept_out", [("hit", True), ("shield hit", True), ("defended", False), ("miss", False)])
def test_s40_shield_block_keeps_out_on_any_hit(result: str, kept_out: bool) -> None:
    """S-40: a shield block that hits always prevents entry (and does no damage)."""
    assert cc.entry_prevented("shield block", result, False, None) is kept_out


def test_s41_only_bare_hands_and_close_combat_weapons_inside() -> None:
    """S-41: inside close combat the spear is useless; bare hands and the dagger remain."""
    sheet = validate_sheet({"styles": [{"name": "Spear"}], "weapons": [SPEAR, DAGGER]})
    assert [w.name for w in cc.close_combat_weapons(sheet, "Spear")] == ["bare hand", "dagger"]


def test_e14_s42_s43_takedown_and_pin() -> None:
    """E-14: ST 14 vs 11 takedown +3; pin 180 vs 140 lb +5, vs 150 lb +4; escape at -3."""
    assert cc.takedown_mod(14, 11) == 3
    assert cc.pin_mod(14, 11, 180, 140) == 5
    assert cc.pin_mod(14, 11, 180, 150) == 4
    assert cc.takedown_mod(11, 14) == -3


@pytest.mark.parametrize("steps,defended,damaged,cinematic,lost,wp", [
    (1, False, False, False, False, False), (2, False, False, False, True, False),
    (0, True, False, False, True, False), (2, False, False, True, False, True),
    (0, True, False, True, False, True), (0, False, True, True, True, False),
])
def test_s44_concentration(steps: int, defended: bool, damaged: bool, cinematic: bool, lost: bool, wp: bool) -> None:
    """S-44: more than a step, a defence or damage loses the spell; the cinematic option turns
    moving and defending (not damage) into a WP roll."""
    assert casting.concentration(steps, defended, damaged, cinematic) == casting.Interruption(lost, wp)


def test_s44_casting_time() -> None:
    """S-44: casting time 0 rolls at once; 2 rolls after two uninterrupted turns."""
    assert casting.rolls_now(0, 0)
    assert not casting.rolls_now(2, 1) and casting.rolls_now(2, 2)
