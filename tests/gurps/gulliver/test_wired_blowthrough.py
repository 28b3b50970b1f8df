"""GULLIVER's blowthrough modifiers (V-07, A-30) wired through the gurps ruleset (issue #11),
played through the real engine on a SQLite file and on PostgreSQL: the location factors, beams
and bullets multiply V-05's cap. Each test plays the same blow on the same dice with
`blowthrough_modifiers` on and off (V-05 alone); numbers worked by hand in the docstrings."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.sheet import sheet_to_json, validate_sheet

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, explained, fight

#: ST 12: the spear (thr+2) rolls 1d+1 impaling; the pistol a .45 hollow-point (4d pi+, V-07's bullet;
#: pi+ wounds x1, A-20), the plain pistol 3d pi+; the laser a 4d burning beam.
SHOOTER = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "spear", "skill": 14, "damage": "thr+2", "damage_type": "imp"},
    {"name": "pistol", "kind": "ranged", "skill": 14, "damage": "4d", "damage_type": "pi+", "max_range": 100,
     "parry": None, "firearm": True, "large_calibre": True, "hollow_point": True},
    {"name": "plain pistol", "kind": "ranged", "skill": 14, "damage": "3d", "damage_type": "pi+", "max_range": 100,
     "parry": None, "firearm": True},
    {"name": "laser", "kind": "ranged", "skill": 14, "damage": "4d", "damage_type": "burn", "max_range": 100,
     "parry": None, "firearm": True, "beam": True},
]}
#: A 10-HP human: V-05's base cap is 10 (A-27: HP before bought HP, size 1).
HUMAN = {"st": 10, "ht": 10, "hp": 10}
PLAIN = ("blowthrough", "hit_locations")
MODIFIED = (*PLAIN, "blowthrough_modifiers")


def _aimed(switches: tuple[str, ...], engine: Engine, weapon: str, location: str, to_hit: list[int],
           faces: list[int], **args: Any) -> tuple[Table, dict[str, Any]]:
    table = fight(engine, SHOOTER, HUMAN, *switches)
    table.maneuver("hero", "attack", [to_hit], target="foe", weapon=weapon, location=location, **args)
    if table.state.prompts and table.state.prompts[0].kind == "defend":
        table.defend("none")
    table.roll(faces, "damage")
    return table, dict(table.last("damage_rolled").payload)


def test_v07_a_limb_halves_the_cap(engine: Engine) -> None:
    """V-07: the spear rolls 6 + 1 = 7 on the right arm (aimed, -2: 14 -> 12, 3d 11 hits), x1 imp on a
    limb = 7. V-05 alone caps at 10 (kept); V-07 caps the arm at 10 x 1/2 = 5."""
    _, off = _aimed(PLAIN, engine, "spear", "right arm", TO_HIT, [6])
    table, on = _aimed(MODIFIED, engine, "spear", "right arm", TO_HIT, [6])
    assert off["injury"] == 7 and "blowthrough" not in off
    assert on["injury"] == 5
    assert on["blowthrough"] == {"cap": "5", "before": 7, "rule": "V-07", "factors": [{"value": "1/2",
                                                                                        "reason": "right arm"}]}
    assert table.last("injury_applied").payload["hp_after"] == 5
    assert "7, blowthrough caps it at 5 (base x1/2 right arm, V-07) -> injury 5" in explained(table, "damage_rolled")


def test_v07_the_vitals_triple_the_cap(engine: Engine) -> None:
    """V-07: the spear rolls 6 + 1 = 7 into the vitals (-3: 14 -> 11, 3d 11 hits), x3 imp = 21. V-05 alone
    caps it at 10; V-07's vitals cap is 10 x 3 = 30, so all 21 get through."""
    _, off = _aimed(PLAIN, engine, "spear", "vitals", TO_HIT, [6])
    _, on = _aimed(MODIFIED, engine, "spear", "vitals", TO_HIT, [6])
    assert off["injury"] == 10 and off["blowthrough"]["rule"] == "V-05"
    assert on["injury"] == 21 and "blowthrough" not in on


def test_v07_the_brain_has_no_cap(engine: Engine) -> None:
    """V-07: the skull (the brain) has no blowthrough: the spear rolls 7 at the skull (-7: 14 -> 7, 3d 6
    hits), less its natural DR 2 = 5, x4 = 20. V-05 alone caps it at 10."""
    _, off = _aimed(PLAIN, engine, "spear", "skull", [1, 2, 3], [6])
    _, on = _aimed(MODIFIED, engine, "spear", "skull", [1, 2, 3], [6])
    assert (off["injury"], on["injury"]) == (10, 20) and "blowthrough" not in on


def test_v07_a_large_hollow_point_bullet_raises_the_cap_by_half_twice(engine: Engine) -> None:
    """V-07 / A-30: the .45 hollow-point pistol rolls 6, 6, 6, 6 = 24 at the torso (pi+ x1, A-20). V-05
    alone: 10. V-07: 10 x 3/2 (calibre .40+) x 3/2 (hollow-point) = 45/2, compared exactly and applied as 22."""
    _, off = _aimed(PLAIN, engine, "pistol", "torso", TO_HIT, [6, 6, 6, 6], range=2)
    table, on = _aimed(MODIFIED, engine, "pistol", "torso", TO_HIT, [6, 6, 6, 6], range=2)
    assert off["injury"] == 10
    assert on["injury"] == 22 and on["blowthrough"] == {
        "cap": "45/2", "before": 24, "rule": "V-07",
        "factors": [{"value": "3/2", "reason": "calibre .40+"}, {"value": "3/2", "reason": "hollow-point"}]}
    assert "24, blowthrough caps it at 45/2 (base x3/2 calibre .40+ x3/2 hollow-point, V-07) -> injury 22" in \
        explained(table, "damage_rolled")


def test_v07_an_ordinary_bullet_keeps_the_base_cap(engine: Engine) -> None:
    """V-07: a bullet without calibre or hollow point has the torso's base cap: 18 -> 10, as V-05's."""
    _, on = _aimed(MODIFIED, engine, "plain pistol", "torso", TO_HIT, [6, 6, 6], range=2)
    assert on["injury"] == 10 and on["blowthrough"] == {"cap": "10", "before": 18, "rule": "V-07"}


def test_v07_a_beam_is_capped_at_twice_the_base_on_the_torso(engine: Engine) -> None:
    """V-07: beams blow through (V-05 alone names only bullets and impaling wounds, so there the laser's
    4d burn of 6, 6, 6, 6 = 24 is not capped); with V-07 the torso cap is 10 x 2 = 20."""
    _, off = _aimed(PLAIN, engine, "laser", "torso", TO_HIT, [6, 6, 6, 6], range=2)
    _, on = _aimed(MODIFIED, engine, "laser", "torso", TO_HIT, [6, 6, 6, 6], range=2)
    assert off["injury"] == 24 and "blowthrough" not in off
    assert on["injury"] == 20 and on["blowthrough"]["factors"] == [{"value": "2", "reason": "beam"}]


def test_v07_bullet_fields_stay_out_of_the_sheet_json_at_their_defaults() -> None:
    """Stored fights keep their bytes: a weapon without the V-07 fields stores as before; set ones are kept."""
    sheet = validate_sheet({"weapons": [{"name": "spear", "damage_type": "imp"},
                                        {"name": "gun", "damage_type": "pi", "hollow_point": True}]})
    spear, gun = sheet_to_json(sheet)["weapons"]  # type: ignore[misc]
    assert not {"beam", "large_calibre", "hollow_point"} & set(spear)
    assert gun["hollow_point"] is True and "large_calibre" not in gun


@pytest.mark.parametrize("field", ["large_calibre", "hollow_point"])
def test_v07_only_a_bullet_has_a_calibre_or_a_hollow_point(field: str) -> None:
    """V-07: calibre and hollow points are a bullet's: a cutting weapon with one is refused, naming the field."""
    with pytest.raises(Rejected) as err:
        validate_sheet({"weapons": [{"name": "axe", "damage_type": "cut", field: True}]})
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == f"weapons[0].{field}"
