"""A GCS import fills GULLIVER's sheet blocks (issue #11) where the GCS format has the numbers: Size
from the Size Modifier, Combat and Load ST from striking and lifting ST (V-01), mass from the
profile's weight, the body's hit-location table (A-63), and the eyes (V-46) from Night Vision,
Night Blindness and Light Sensitivity; what the file cannot give is said in ``unused``. The files
are the shared samples (read from ../shared, never copied); a variant is a sample changed in memory."""

from __future__ import annotations

import json
from typing import Any

from combat_server.engine.fight import Engine
from combat_server.rules.gurps.gcs import Imported, read_gcs
from combat_server.rules.gurps.gulliver.size import combat_st_of, load_st_of, scale_of
from combat_server.rules.gurps.sheet import eyes_of

from tests.gcs_samples import SAMPLES
from tests.gurps.gulliver.wired import TO_HIT, fight

DRAGON = "nonhuman_Dragon-Medium-Fire.gcs"
ARCHER = "archer_Basic-Archer.gcs"
KNIGHT = "fighter-shield_Noble-Knight.gcs"


def _data(name: str) -> dict[str, Any]:
    return dict(json.loads((SAMPLES / name).read_text(encoding="utf-8")))


def _read(name: str) -> Imported:
    return read_gcs((SAMPLES / name).read_bytes(), name)


def _with_traits(name: str, *traits: dict[str, Any]) -> Imported:
    """The sample with these trait rows added at the top level (v5: a trait's id starts with "t")."""
    data = _data(name)
    data["traits"] = list(data["traits"]) + [{"id": f"tTEST{i}", **t} for i, t in enumerate(traits)]
    return read_gcs(json.dumps(data), name)


def test_a_size_modifier_is_gullivers_size_and_what_the_file_lacks_is_listed() -> None:
    """catalogue 2.0: the dragon's SM +4 is Size 4 (and still the sheet's SM for G-35); its Linear Scale,
    base HP and racial IQ are not GCS data, so unused says to type them."""
    imp = _read(DRAGON)
    assert (scale_of(imp.sheet).size, imp.sheet.sm) == (4, 4)
    assert any(u.startswith("Size Modifier +4 taken as GULLIVER Size 4; Linear Scale, base HP and racial IQ")
               for u in imp.unused)


def test_a_human_file_leaves_size_at_zero_and_says_nothing_about_it() -> None:
    """No SM in the knight's profile: Size 0, no Size line in unused."""
    imp = _read(KNIGHT)
    assert scale_of(imp.sheet).size == 0 and not any("Size" in u for u in imp.unused)


def test_a63_a_quadruped_body_type_takes_the_quadruped_table_and_lists_the_wings() -> None:
    """A-63: "Quadruped, Winged" is the quadruped table; its wings are not on it, which unused says."""
    imp = _read(DRAGON)
    assert scale_of(imp.sheet).body == "quadruped"
    assert "hit locations the quadruped table lacks: wing (blows land on the table's own locations, A-63)" \
        in imp.unused


def test_a63_a_body_type_without_a_table_is_listed_and_stays_humanoid() -> None:
    """A-63: a body the rules have no table for ("Snakeman") keeps the humanoid table, said in unused."""
    data = _data(KNIGHT)
    data["settings"]["body_type"]["name"] = "Snakeman"
    imp = read_gcs(json.dumps(data), KNIGHT)
    assert scale_of(imp.sheet).body == "humanoid"
    assert any(u.startswith("body type 'Snakeman': no hit-location table") for u in imp.unused)


def test_v01_striking_st_is_combat_st() -> None:
    """V-01: the archer's ST 12 with Striking ST 1 (calc.striking_st_bonus 1): Combat ST 13, Load ST 12;
    Striking ST is no longer among the traits the rules do not use."""
    imp = _read(ARCHER)
    assert (imp.sheet.st, combat_st_of(imp.sheet), load_st_of(imp.sheet)) == (12, 13, 12)
    assert not any("Striking ST" in u for u in imp.unused)


def test_v01_lifting_st_is_load_st() -> None:
    """V-01: a knight (ST 15) whose file gives lifting ST +5: Load ST 20, Combat ST 15."""
    data = _data(KNIGHT)
    data["calc"]["lifting_st_bonus"] = 5
    imp = read_gcs(json.dumps(data), KNIGHT)
    assert (combat_st_of(imp.sheet), load_st_of(imp.sheet)) == (15, 20)


def test_the_profiles_weight_is_the_mass() -> None:
    """catalogue 2.0's mass: the knight's profile weight "117 lb" is 117 lb; the dragon gives none (150 x LS^3)."""
    assert scale_of(_read(KNIGHT).sheet).mass_lb == 117
    assert scale_of(_read(DRAGON).sheet).mass_lb is None


def test_a_weight_in_kg_is_converted_and_an_unreadable_one_listed() -> None:
    """"80 kg" is 160 lb (the importer's 2 lb a kg); "heavy" is listed in unused and no mass is set."""
    data = _data(KNIGHT)
    data["profile"]["weight"] = "80 kg"
    assert scale_of(read_gcs(json.dumps(data), KNIGHT).sheet).mass_lb == 160
    data["profile"]["weight"] = "heavy"
    imp = read_gcs(json.dumps(data), KNIGHT)
    assert scale_of(imp.sheet).mass_lb is None and "weight 'heavy': not a mass in lb the rules can read" in imp.unused


def test_v46_night_vision_levels_are_the_partial_or_full_version() -> None:
    """V-46: the archer's Night Vision 2 is the partial version (one level brighter); the dragon's 9
    covers very dark's -8: the full version. Neither is listed as unused."""
    archer, dragon = _read(ARCHER), _read(DRAGON)
    assert eyes_of(archer.sheet).night_vision == "partial" and eyes_of(dragon.sheet).night_vision == "full"
    assert not any("Night Vision" in u for u in archer.unused + dragon.unused)


def test_v46_night_blindness_and_light_sensitivity_come_from_traits() -> None:
    """V-46: Night Blindness sets night_blindness; Light Sensitivity is 2 levels, its mild form 1."""
    eyes = eyes_of(_with_traits(KNIGHT, {"name": "Night Blindness"}, {"name": "Light Sensitivity"}).sheet)
    assert (eyes.night_blindness, eyes.light_sensitivity) == (True, 2)
    assert eyes_of(_with_traits(KNIGHT, {"name": "Light Sensitivity (Mild)"}).sheet).light_sensitivity == 1


def test_v46_bad_sight_for_distance_is_not_light_sensitivity() -> None:
    """Nearsightedness is not V-46's light sensitivity: the eyes stay default and the trait is listed."""
    imp = _with_traits(KNIGHT, {"name": "Bad Sight (Nearsighted)"})
    assert eyes_of(imp.sheet).light_sensitivity == 0
    assert any("Bad Sight (Nearsighted)" in u for u in imp.unused if u.startswith("traits the rules do not use"))


def test_a63_an_imported_dragon_is_hit_on_its_own_table(engine: Engine) -> None:
    """A-63 through the engine: the dragon imported into a fight with hit locations has a tail to aim
    at (-3, the quadruped table); the humanoid knight imported alongside has none."""
    table = fight(engine, {"st": 12, "dx": 12, "ht": 11, "weapons": [
        {"name": "spear", "skill": 14, "damage": "thr+2", "damage_type": "imp"}]}, {"st": 10, "hp": 10},
        "hit_locations")
    table.send("import_character", {"file_name": DRAGON, "id": "dragon", "side": "npc",
                                    "content": (SAMPLES / DRAGON).read_text(encoding="utf-8")})
    assert table.last("character_imported").payload["sheet"]["gulliver"] == {"size": 4, "body": "quadruped"}
    table.maneuver("hero", "attack", [TO_HIT], target="dragon", weapon="spear", location="tail")
    assert table.last("attack_rolled").payload["location"] == {"name": "tail", "aimed": True, "penalty": -3,
                                                               "rule": "A-24"}
    assert table.refold_matches()
