"""#13 GCS import: a .gcs file (data version 5 or 4) becomes a gurps sheet whose numbers are the ones
GCS computed (../shared/gcs-samples/expected-derived.json), with what the rules cannot use listed."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps import derived
from combat_server.rules.gurps.gcs import read_gcs
from combat_server.rules.gurps.tables import format_dice
from combat_server.rules.model import Principal

from tests.gcs_samples import SAMPLES

from .conftest import KNIGHT, ORC, Table

EXPECTED: dict[str, Any] = json.loads((SAMPLES / "expected-derived.json").read_text(encoding="utf-8"))
V4 = SAMPLES / "v4" / "fighter-shield_Noble-Knight_dataversion4.gcs"


def _read(name: str) -> Any:
    path = SAMPLES / name
    return read_gcs(path.read_bytes(), path.name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_sample_imports_with_the_attributes_and_pools_gcs_computed(name: str) -> None:
    exp, imp = EXPECTED[name], _read(name)
    s = imp.sheet
    assert imp.name == exp["name"]
    assert (s.st, s.dx, s.iq, s.ht, s.will_score, s.per_score, s.hp_max, s.fp_max, s.sm) == (
        exp["ST"], exp["DX"], exp["IQ"], exp["HT"], exp["Will"], exp["Per"], exp["HP"], exp["FP"], exp["SM"])
    assert (imp.hp, imp.fp) == (exp["HP_current"], exp["FP_current"])
    assert float(derived.basic_speed(s)) == exp["BasicSpeed"] and derived.basic_move(s) == exp["BasicMove"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_sample_derives_gcs_move_dodge_and_dr_at_its_encumbrance(name: str) -> None:
    """Encumbrance worked out as FORMAT.md §6; Move and Dodge (shield DB and Combat Reflexes included)
    then come out as GCS's own calc.move / calc.dodge at that level; DR by location is GCS's."""
    exp, s = EXPECTED[name], _read(name).sheet
    level = exp["enc_level_computed"]
    assert derived.encumbrance_level(s) == level
    assert derived.move(s) == exp["move_by_enc"][level]
    assert derived.dodge(s) == exp["dodge_by_enc"][level]
    for key, dr in exp["DR"].items():
        assert s.dr_locations[key.split("@")[0]] == dr["all"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_sample_attack_is_imported_with_gcs_numbers_or_listed_as_unused(name: str) -> None:
    """Skill, damage, parry, block, reach, Acc and range of each attack mode match GCS; an attack the
    rules cannot roll (area spells, 'burn/point') is named in the unused list, never dropped silently."""
    imp = _read(name)
    s = imp.sheet
    by_name = {w.name: w for w in s.weapons}
    for exp in EXPECTED[name]["weapons"]:
        usage = exp["usage"]
        wname = usage.lower() if exp["owner"] == "Natural Attacks" else (
            f"{exp['owner']} ({usage})" if usage else exp["owner"])
        w = by_name.get(wname)
        if w is None:
            assert any(exp["owner"] in u or wname in u for u in imp.unused), f"{wname} silently dropped"
            continue
        assert w.skill == exp["level"]
        dice, adds = derived.weapon_damage(s, w)
        assert f"{format_dice(dice, adds)} {w.damage_type}" == exp["damage"]
        if exp["melee"]:
            assert w.reach == exp["reach"]
            parry = derived.parry(w, s)
            assert (str(parry) if parry is not None else "No") == re.sub(r"[A-Z]$", "", exp["parry"] or "No")
            if exp["block"] is not None and s.shield_name == exp["owner"]:
                assert str(derived.block(s)) == exp["block"]
        else:
            half, _, top = exp["range"].partition("/")
            assert (w.half_damage, w.max_range) == ((int(half), int(top)) if top else (0, int(half)))
            if exp["acc"]:
                assert w.acc == int(exp["acc"])
            if exp["strength"]:
                assert w.min_st == int(exp["strength"].rstrip("†‡"))


def test_the_knight_has_shield_db_combat_reflexes_and_high_pain_threshold() -> None:
    s = _read("fighter-shield_Noble-Knight.gcs").sheet
    assert s.db == 2 and s.shield_name == "Medium Shield" and derived.block(s) == 14
    assert s.traits == ("Combat Reflexes", "High Pain Threshold")
    bow = s.weapon("Regular Bow (ST15)")
    assert (bow.acc, bow.bulk, bow.shots, bow.min_st, bow.two_handed) == (2, -7, 1, 15, True)

def test_an_imported_bow_reloads_in_the_seconds_gcs_gives_and_punch_kick_bite_are_unarmed() -> None:
    """GCS shots "1(2)": one shot, two Ready maneuvers to reload (G-33, #14 item 5); the knight's
    punch, kick and bite are unarmed (G-41), so no implicit punch is added."""
    s = _read("fighter-shield_Noble-Knight.gcs").sheet
    assert s.weapon("Regular Bow (ST15)").reload == 2
    assert {w.name for w in s.weapons if w.unarmed} == {"bite", "punch", "kick"}
    assert [w.name for w in s.all_weapons()].count("punch") == 1


def test_the_gunners_shotgun_keeps_rof_shots_recoil_and_its_stored_damage() -> None:
    imp = _read("gunner-damaged_Uncle-Rufus-as-Wade.gcs")
    gun = imp.sheet.weapon("Eclipse Meteor 10G Shotgun")
    assert (gun.rof, gun.shots, gun.recoil, gun.min_st, gun.firearm) == (2, 6, 1, 12, True)
    assert imp.sheet.weapon("Large Wolf Knife (Thrown)").kind == "thrown"
    assert imp.hp == 5 and imp.sheet.hp_max == 12
    assert any("2x11" in u for u in imp.unused)


def test_what_the_rules_cannot_use_is_listed() -> None:
    unused = _read("caster_Mage-Wizard-Scholar.gcs").unused
    assert any(u.startswith("30 spells") for u in unused)
    assert any("Magery" in u for u in unused)
    assert any("Natural Attacks" in u and "disabled" in u for u in unused)


def test_a_version_4_file_imports_as_its_version_5_copy() -> None:
    old, new = read_gcs(V4.read_bytes(), V4.name), _read("fighter-shield_Noble-Knight.gcs")
    assert old.sheet == new.sheet and (old.hp, old.fp) == (new.hp, new.fp)


@pytest.mark.parametrize(("content", "code"), [
    (b"\x89PNG not json", "import/not_json"),
    (b'{"name": "a note"}', "import/not_a_character"),
    (b'{"version": 5, "type": "equipment_list", "attributes": []}', "import/not_a_character"),
    (b'{"version": 6, "attributes": [], "calc": {}}', "import/unknown_version"),
    (b'{"version": 2, "attributes": [], "calc": {}}', "import/unknown_version"),
    (b'{"version": 5, "attributes": []}', "import/no_calc"),
])
def test_a_file_that_is_not_a_gcs_character_of_a_known_version_is_refused(content: bytes, code: str) -> None:
    with pytest.raises(Rejected) as err:
        read_gcs(content, "x.gcs")
    assert err.value.code == code and "x.gcs" in err.value.message


def _text(name: str) -> str:
    return (SAMPLES / name).read_text(encoding="utf-8")


def test_the_import_is_an_event_with_the_file_name_and_sha256(table: Table) -> None:
    import hashlib

    table.send("import_character", {"file_name": "knight.gcs", "content": _text("fighter-shield_Noble-Knight.gcs")})
    ev = table.last("character_imported").payload
    assert ev["file"] == "knight.gcs" and ev["id"] == "sir-henryk" and ev["replaced"] is False
    assert ev["sha256"] == hashlib.sha256((SAMPLES / "fighter-shield_Noble-Knight.gcs").read_bytes()).hexdigest()
    c = table.state.combatants["sir-henryk"]
    assert c.sheet.db == 2 and c.condition.hp == 15


def test_a_stored_hp_loss_comes_in_as_current_hp(table: Table) -> None:
    table.send("import_character", {"file_name": "wade.gcs", "id": "wade",
                                    "content": _text("gunner-damaged_Uncle-Rufus-as-Wade.gcs")})
    assert table.state.combatants["wade"].condition.hp == 5


def test_a_reimport_updates_the_sheet_and_keeps_hp_fp_and_conditions(table: Table) -> None:
    """#13: importing the character again (after a level-up) keeps current HP, FP and conditions."""
    table.send("import_character", {"file_name": "k.gcs", "id": "k", "content": _text("archer_Basic-Archer.gcs")})
    table.send("adjust", {"combatant": "k", "changes": {"hp": 4, "fp": 3, "posture": "kneeling"}, "reason": "test"})
    table.send("import_character", {"file_name": "k2.gcs", "combatant": "k",
                                    "content": _text("fighter-shield_Noble-Knight.gcs")})
    c = table.state.combatants["k"]
    assert c.sheet.st == 15 and c.name == "Cordia Springston"
    assert (c.condition.hp, c.condition.fp, c.condition.posture) == (4, 3, "kneeling")
    assert table.last("character_imported").payload["replaced"] is True


def test_a_reimport_with_lower_maxima_caps_current_hp_and_fp(table: Table) -> None:
    """#13: current HP and FP stay on a re-import, but never above the new sheet's maxima: the knight
    (HP 15, FP 13, unhurt) re-imported as the archer (HP 12, FP 11) is at 12 and 11, and the log says so."""
    table.send("import_character", {"file_name": "k.gcs", "id": "k",
                                    "content": _text("fighter-shield_Noble-Knight.gcs")})
    table.send("import_character", {"file_name": "a.gcs", "combatant": "k", "content": _text("archer_Basic-Archer.gcs")})
    c = table.state.combatants["k"]
    assert (c.condition.hp, c.condition.fp) == (12, 11)
    assert "HP drops to the new maximum, 12; FP drops to the new maximum, 11." in \
        table.engine.history(table.fight_id)[-1].explanation


def test_a_player_imports_over_its_own_combatant_only(table: Table) -> None:
    table.add("mine", KNIGHT)
    table.add("theirs", KNIGHT)
    player = Principal("seat-p", combatants=("mine",))
    content = _text("archer_Basic-Archer.gcs")
    table.send("import_character", {"file_name": "a.gcs", "combatant": "mine", "content": content}, actor=player)
    assert table.state.combatants["mine"].sheet.st == 12
    with pytest.raises(Rejected) as err:
        table.send("import_character", {"file_name": "a.gcs", "combatant": "theirs", "content": content}, actor=player)
    assert err.value.code == "auth/not_your_combatant"
    with pytest.raises(Rejected) as err:
        table.send("import_character", {"file_name": "a.gcs", "content": content}, actor=player)
    assert err.value.code == "auth/gm_only"


def test_a_bad_file_is_refused_and_the_fight_is_unchanged(table: Table) -> None:
    before = table.state.seq
    with pytest.raises(Rejected) as err:
        table.send("import_character", {"file_name": "notes.txt", "content": "hello"})
    assert err.value.code == "import/not_json" and table.state.seq == before


def test_high_pain_threshold_means_no_shock(table: Table) -> None:
    """HPT (a trait the rules use, read from GCS by name): injury gives no shock penalty (G-47 otherwise)."""
    table.add("knight", KNIGHT)
    table.add("orc", {**ORC, "traits": ["High Pain Threshold"]}, side="npc")
    table.send("start_combat", {"order": ["knight", "orc"]})
    table.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    table.defend("none")
    table.roll([1], "damage")
    assert table.last("injury_applied").payload["shock_added"] == 0
    assert table.cond("orc").shock == 0 and table.cond("orc").hp < 12


def test_combat_reflexes_and_shield_db_add_to_every_active_defence() -> None:
    from combat_server.rules.gurps.sheet import validate_sheet

    plain = validate_sheet(KNIGHT)
    better = validate_sheet({**KNIGHT, "db": 2, "traits": ["Combat Reflexes"]})
    sword = plain.weapon("broadsword")
    assert derived.dodge(better) == derived.dodge(plain) + 3
    assert derived.parry(sword, better) == derived.parry(sword, plain) + 3  # type: ignore[operator]
    assert derived.block(better) == derived.block(plain) + 3  # type: ignore[operator]


def test_a_trait_no_rule_uses_is_refused_on_a_typed_sheet() -> None:
    from combat_server.rules.gurps.sheet import validate_sheet

    with pytest.raises(Rejected) as err:
        validate_sheet({"traits": ["Luck"]})
    assert err.value.code == "sheet/bad_field" and "Luck" in err.value.message


# --------------------------------------------------------------------------- malformed values (defects C, D)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KNIGHT_DATA: dict[str, Any] = json.loads((SAMPLES / "fighter-shield_Noble-Knight.gcs").read_text(encoding="utf-8"))


def _import(data: Any) -> Any:
    return read_gcs(json.dumps(data), "knight.gcs")


def _knight_attr(data: dict[str, Any], attr: str) -> dict[str, Any]:
    return next(a for a in data["attributes"] if a["attr_id"] == attr)


def test_a_malformed_calc_dodge_is_refused_naming_the_field() -> None:
    data = json.loads(json.dumps(KNIGHT_DATA))
    data["calc"]["dodge"] = [1]
    with pytest.raises(Rejected) as exc:
        _import(data)
    assert exc.value.code == "import/bad_field" and "calc.dodge" in exc.value.message


@pytest.mark.parametrize("current", [2 ** 70, 1e300, 16, float("nan")], ids=["2**70", "1e300", "max+1", "nan"])
def test_current_hp_above_its_maximum_or_not_a_number_is_refused(current: Any) -> None:
    data = json.loads(json.dumps(KNIGHT_DATA))
    hp = _knight_attr(data, "hp")
    hp["calc"]["value"] = 15
    hp["calc"]["current"] = current
    with pytest.raises(Rejected) as exc:
        _import(data)
    assert exc.value.code.startswith("import/") and "attributes[hp].calc.current" in exc.value.message


def test_current_hp_below_minus_five_times_hp_counts_as_dead_at_that_line() -> None:
    """G-45: at -5xHP the character is dead; a lower value from the file is held as -5xHP and said so."""
    data = json.loads(json.dumps(KNIGHT_DATA))
    hp = _knight_attr(data, "hp")
    hp["calc"]["current"] = -(2 ** 70)
    imp = _import(data)
    assert imp.hp == -5 * imp.sheet.hp_max and any("current HP" in u for u in imp.unused)


def test_an_attribute_outside_the_sheet_bounds_is_refused_naming_the_attribute() -> None:
    data = json.loads(json.dumps(KNIGHT_DATA))
    _knight_attr(data, "st")["calc"]["value"] = 2 ** 70
    with pytest.raises(Rejected) as exc:
        _import(data)
    assert exc.value.code == "import/out_of_range" and "attributes[st]" in exc.value.message


def _paths(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        out += _paths(v, path + (k,))
    return out


KNIGHT_PATHS = _paths(KNIGHT_DATA)
WRONG = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 80), max_value=2 ** 80),
                  st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=5),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=2), st.integers(), max_size=2))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(KNIGHT_PATHS), WRONG), min_size=1, max_size=3))
def test_any_value_of_a_sample_made_the_wrong_type_imports_or_is_refused_as_import(
        changes: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Bad input gets a clear import/... error, never internal/error (defect C): any value of the
    Noble Knight sample replaced by a value of another type or shape."""
    data = json.loads(json.dumps(KNIGHT_DATA))
    for path, value in changes:
        node: Any = data
        try:
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier change removed this path
    try:
        text = json.dumps(data)
    except ValueError:
        return
    try:
        imp = read_gcs(text, "knight.gcs")
    except Rejected as exc:
        assert exc.code.startswith("import/"), exc
        return
    assert -5 * imp.sheet.hp_max <= imp.hp <= imp.sheet.hp_max and -imp.sheet.fp_max <= imp.fp <= imp.sheet.fp_max


def _knight() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_text("fighter-shield_Noble-Knight.gcs"))
    return data


def _weapon_rows(node: Any) -> list[dict[str, Any]]:
    """Every weapon row of a GCS file (rows of a ``weapons`` list, under traits and equipment)."""
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "weapons" and isinstance(value, list):
                found.extend(w for w in value if isinstance(w, dict))
            else:
                found.extend(_weapon_rows(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_weapon_rows(item))
    return found


def _import(data: dict[str, Any]) -> Any:
    return read_gcs(json.dumps(data).encode("utf-8"), "knight.gcs")


@pytest.mark.parametrize(("name", "why"), [("Sir\u0000Nul", "NUL"), ("K" * 2001, "longer than 2000")])
def test_an_imported_name_is_held_to_the_limits_of_a_typed_one(name: str, why: str) -> None:
    """docs/protocol.md, Limits: no text with a NUL, none past 2000 characters, whether typed or imported."""
    data = _knight()
    data["profile"]["name"] = name
    with pytest.raises(Rejected) as err:
        _import(data)
    assert err.value.code == "import/bad_field" and why in err.value.message and "profile.name" in err.value.message


def test_the_imports_text_limit_is_the_protocols() -> None:
    from combat_server.rules.gurps.gcs import MAX_TEXT
    from combat_server.server.protocol import MAX_TEXT as PROTOCOL_MAX_TEXT

    assert MAX_TEXT == PROTOCOL_MAX_TEXT


def test_a_skill_past_the_rules_range_is_said_to_be_taken_as_40() -> None:
    """Nothing is changed without a word: a weapon level of 10^12 is imported as 40 and listed as such."""
    data = _knight()
    _weapon_rows(data)[0]["calc"]["level"] = 10 ** 12
    imported = _import(data)
    assert any(f"skill {10 ** 12} taken as 40" in u for u in imported.unused)
    assert max(w.skill for w in imported.sheet.weapons) == 40


def test_an_attribute_that_is_not_whole_is_said_to_be_taken_whole() -> None:
    data = _knight()
    st = next(a for a in data["attributes"] if a["attr_id"] == "st")
    whole = int(st["calc"]["value"])
    st["calc"]["value"] = whole + 0.7
    imported = _import(data)
    assert imported.sheet.st == whole
    assert f"ST {whole + 0.7} taken as {whole} (the rules use whole numbers)" in imported.unused


def test_an_unreadable_field_is_named_in_the_files_words_not_pythons() -> None:
    data = _knight()
    data["profile"] = "a knight"  # GCS writes an object there
    with pytest.raises(Rejected) as err:
        _import(data)
    assert err.value.code == "import/unreadable" and "profile" in err.value.message
    assert "Error" not in err.value.message and "object has no attribute" not in err.value.message
