"""S-16 animals and aliens in play (A-63): a defender's body type gives the hit-location table an
attacker aims at, replacing the humanoid one, and its size puts locations out of reach; through a
real Engine and store, every die typed in."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR
from combat_server.rules.shell.ruleset import ShellRuleset
from combat_server.rules.shell.sheet import sheet_to_json, validate_sheet
from tests.shell.table import KNIGHT, Table, at_total, resolved, start

#: A wolf: ST 10 (HP 10), AG 16 (AT +3, DEF +3), predator 5 (S-16), bites for cutting damage, a quadruped.
WOLF: dict[str, Any] = {
    "st": 10, "ag": 16, "iq": 5, "ht": 12, "npc": True, "body": "quadruped",
    "styles": [{"name": "predator", "level": 5}],
    "weapons": [{"name": "jaws", "style": "predator", "damage_types": ["cut"], "hp": 10}],
}
#: A giant: a huge humanoid, whose head is out of reach from the ground (S-16).
GIANT: dict[str, Any] = {"st": 20, "ag": 8, "npc": True, "size": "huge", "styles": [{"name": "Club", "level": 2}]}


def _fight(table: Table, foe: str, sheet: dict[str, Any]) -> None:
    table.add("knight", KNIGHT)
    table.add(foe, sheet, side="npc")
    start(table, "knight", foe)


def _refused(table: Table, code: str, args: dict[str, Any]) -> Rejected:
    before = len(table.engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.act("knight", "attack", **args)
    assert err.value.code == code and err.value.details.get("field") == "location"
    assert len(table.engine.store.events(table.fight_id)) == before
    return err.value


def test_a_sheet_without_a_body_is_a_humanoid_of_normal_size_written_as_before() -> None:
    sheet = validate_sheet(KNIGHT)
    assert (sheet.body, sheet.size) == ("humanoid", "normal")
    assert "body" not in sheet_to_json(sheet) and "size" not in sheet_to_json(sheet)


def test_a_quadruped_sheet_keeps_its_body_type() -> None:
    sheet = validate_sheet(WOLF)
    assert sheet.body == "quadruped" and sheet_to_json(sheet)["body"] == "quadruped"


def test_an_unknown_body_type_is_refused_naming_the_field() -> None:
    with pytest.raises(Rejected) as err:
        validate_sheet({**WOLF, "body": "serpent"})
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == "body"


def test_an_unknown_size_is_refused_naming_the_field() -> None:
    with pytest.raises(Rejected) as err:
        validate_sheet({**WOLF, "size": "gigantic"})
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == "size"


def test_the_quadrupeds_face_replaces_the_humanoid_modifier(table: Table) -> None:
    """Knight AT 4 + AG 12's +1 = 5; a quadruped's face is -2 (S-16), not the humanoid -3 nor -3 - 2 (A-63)."""
    _fight(table, "wolf", WOLF)
    result = table.act("knight", "attack", target="wolf", location="face")
    assert at_total(result) == 5 - 2
    declared = [e for e in result.events if e.type == "attack_declared"][-1].payload["attack"]
    assert {"value": -2, "reason": "aimed at the quadruped's face", "rule": "S-16, A-63"} in declared["at"]


def test_a_humanoids_face_keeps_the_s29_modifier(table: Table) -> None:
    """The same knight against another knight: face -3 (S-29)."""
    _fight(table, "rival", KNIGHT)
    assert at_total(table.act("knight", "attack", target="rival", location="face")) == 5 - 3


def test_a_hit_on_a_foreleg_is_booked_to_that_leg_and_cripples_it(table: Table) -> None:
    """AT 5 - 1 (leg) = 4 against the wolf's dodge 5 + 3 - 1 = 7: faces 10 + 10 give R = 17, a hit.
    Knight's long sword: 1d+3 (ST 13) + 1 (Sword and Shield 4) = 6 + 4 = 10 cutting; the wolf has no DR.
    10 >= 40% of HP 10 = 4: the leg is crippled (S-37), counting at most ceil(4) = 4 to the total (R-14)."""
    _fight(table, "wolf", WOLF)
    assert at_total(table.act("knight", "attack", target="wolf", location="left foreleg")) == 4
    out = resolved(table.defend("dodge", (10, 10)))
    assert (out["def_total"], out["r"], out["result"]) == (7, 17, "hit")
    table.roll([(6,)], "damage")
    wolf = table.cond("wolf")
    assert wolf.wounds == {"left foreleg": 10}
    assert "left foreleg" in wolf.crippled
    assert table.refold_matches()


def test_a_centaurs_arm_is_aimed_at_as_a_humanoids(table: Table) -> None:
    """The humanoid portion of a centaur keeps the S-29 values: arm -1, so AT 5 - 1 = 4."""
    _fight(table, "centaur", {**WOLF, "body": "centaur"})
    assert at_total(table.act("knight", "attack", target="centaur", location="right arm")) == 4


def test_aiming_at_a_location_the_body_lacks_is_refused(table: Table) -> None:
    _fight(table, "wolf", WOLF)
    err = _refused(table, "command/bad_field", {"target": "wolf", "location": "left arm"})
    assert "left foreleg" in err.details["known"] and "left arm" not in err.details["known"]


def test_a_humanoid_has_no_foreleg(table: Table) -> None:
    _fight(table, "rival", KNIGHT)
    _refused(table, "command/bad_field", {"target": "rival", "location": "left foreleg"})


def test_a_huge_creatures_head_is_out_of_reach_from_the_ground(table: Table) -> None:
    _fight(table, "giant", GIANT)
    _refused(table, "attack/unreachable", {"target": "giant", "location": "head"})


def test_a_huge_creatures_head_is_reached_from_higher_ground(table: Table) -> None:
    """AT 5 + 1 higher (S-29) - 2 head = 4."""
    _fight(table, "giant", GIANT)
    assert at_total(table.act("knight", "attack", target="giant", location="head", higher=True)) == 4


def test_a_tiny_creatures_eyes_are_out_of_reach(table: Table) -> None:
    _fight(table, "sprite", {**WOLF, "body": "humanoid", "size": "tiny"})
    _refused(table, "attack/unreachable", {"target": "sprite", "location": "left eye"})


def test_the_attack_form_offers_a_quadrupeds_locations_with_its_modifiers(table: Table) -> None:
    _fight(table, "wolf", WOLF)
    described = to_json(ShellRuleset().describe(table.state, GM_ACTOR))
    attack = next(a for a in described["actions"] if a["id"] == "attack" and a["combatant"] == "knight")
    (field,) = [f for f in attack["fields"] if f["name"] == "location"]
    hints = {c["value"]: c["help"] for c in field["choices"]}
    assert hints["face"] == "AT -2 quadruped" and hints["left foreleg"] == "AT -1 quadruped"
    assert "left arm" not in hints
