"""GULLIVER's shock points (V-17, A-28) wired through the gurps ruleset (issue #11), on the real
engine (SQLite file and PostgreSQL): a weapon's shock multiplier (the seed's Type II nerve pistol
x4; the missing tables stay x1, A-28) and stunners, whose roll is shock dealt directly. Each test
plays the same blow on the same dice with `shock_points` on and off; numbers worked by hand."""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.gurps.sheet import sheet_to_json, validate_sheet

from tests.gurps.gulliver.wired import TO_HIT, blow, explained, fight

HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "nerve pistol", "skill": 14, "damage": "1d", "damage_type": "cr", "shock_multiplier": 4},
    {"name": "stunner", "skill": 14, "damage": "2d", "damage_type": "cr", "shock_only": True},
]}
#: E-16's human: 10 HP, HT 10; DR 3 (which a stunner's shock ignores).
HUMAN = {"st": 10, "ht": 10, "hp": 10, "dr": 3}
SYSTEM = ("damage_shock", "shock_stun")


def test_v17_a_weapon_multiplies_the_shock_of_its_injury(engine: Engine) -> None:
    """V-17: the nerve pistol rolls 5, less DR 3 = 2 crushing injury. Without shock points the shock is
    those 2 (not over 10/2: no stun, V-19); with them 2 x 4 = 8 shock, over 5: stunned."""
    off = fight(engine, HERO, HUMAN, *SYSTEM)
    blow(off, "nerve pistol", [5])
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_points")
    blow(table, "nerve pistol", [5])
    assert off.last("injury_applied").payload["injury"] == 2 and not off.events("shock_effect")
    assert "shock" not in off.last("injury_applied").payload
    injury = table.last("injury_applied").payload
    assert injury["injury"] == 2 and injury["shock"] == {
        "points": "8", "basis": "2", "of": "injury",
        "factors": [{"value": "4", "reason": "nerve pistol shock x4", "rule": "V-17"}]}
    assert table.last("shock_effect").payload["points"] == "8" and table.cond("foe").stunned
    assert "Shock 8 points: 2 from the injury (V-17) x4 nerve pistol shock x4 (V-17 (in place of G-47))." in \
        explained(table, "injury_applied")


def test_v17_a_stunner_deals_its_roll_as_shock_and_no_damage(engine: Engine) -> None:
    """V-17: the stunner rolls 2d: 3 + 4 = 7 shock, dealt directly (DR 3 does not stop it, no HP lost);
    7 > 10/2 stuns (V-19)."""
    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_points")
    dmg = blow(table, "stunner", [3, 4])
    assert (dmg["basic"], dmg["injury"], dmg["shock_only"]) == (7, 0, True)
    injury = table.last("injury_applied").payload
    assert (injury["injury"], injury["hp_after"]) == (0, 10)
    assert injury["shock"] == {"points": "7", "basis": "0", "of": "injury", "direct": "7"}
    assert table.cond("foe").stunned and table.cond("foe").hp == 10
    assert explained(table, "damage_rolled") == ("stunner shock [3, 4] = 7: shock dealt directly, no damage "
                                                 "(V-17 (in place of G-47)).")


def test_v17_a_stunner_shows_shock_dice_in_the_view(engine: Engine) -> None:
    """V-17: the combatant's view shows a stunner's roll as shock (2d shock), other weapons by damage type."""
    shown = {w["name"]: w["damage"] for w in GurpsRuleset().view_combatant(
        fight(engine, HERO, HUMAN, *SYSTEM, "shock_points").state, "hero")["weapons"]}
    assert (shown["stunner"], shown["nerve pistol"]) == ("2d shock", "1d cr")


def test_v17_a_stunner_needs_the_option(engine: Engine) -> None:
    """Without shock points (G-47 has no stunners) attacking with one is refused, naming the option, and
    nothing is recorded."""
    table = fight(engine, HERO, HUMAN, *SYSTEM)
    before = len(engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="stunner")
    assert err.value.code == "maneuver/needs_option" and "shock_points" in err.value.message
    assert len(engine.store.events(table.fight_id)) == before


def test_v17_a_stunner_as_the_second_weapon_is_refused_when_chosen(engine: Engine) -> None:
    """Without shock points, All-Out Attack (Double) naming a stunner second is refused at once (field
    weapon2), not at the second attack's roll, and nothing is recorded."""
    table = fight(engine, HERO, HUMAN, *SYSTEM)
    before = len(engine.store.events(table.fight_id))
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "all_out_attack", [TO_HIT], option="double", target="foe", weapon="nerve pistol",
                       weapon2="stunner")
    assert (err.value.code, err.value.details["field"]) == ("maneuver/needs_option", "weapon2")
    assert len(engine.store.events(table.fight_id)) == before


def test_v17_a_stunner_does_not_spoil_aim(engine: Engine) -> None:
    """V-17: a stunner wounds no one, so a victim who was aiming gets no Will roll (G-21 is for injury),
    where the nerve pistol's 2 HP (5 - DR 3) call for one."""
    rolls = {}
    for weapon, faces in (("stunner", [1, 1]), ("nerve pistol", [5])):
        table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_points")
        table.send("adjust", {"combatant": "foe", "changes": {"aim_turns": 1}, "reason": "aiming"})
        blow(table, weapon, faces)
        rolls[weapon] = [p.options["purpose"] for p in table.state.prompts if p.options.get("purpose") == "aim_will"]
    assert rolls == {"stunner": [], "nerve pistol": ["aim_will"]}


def test_v17_the_weapon_fields_stay_out_of_the_sheet_json_at_their_defaults() -> None:
    """Stored fights keep their bytes: x1 and not a stunner are left out; set values are kept."""
    sheet = validate_sheet({"weapons": [{"name": "club"}, {"name": "baton", "shock_multiplier": 4},
                                        {"name": "stunner", "damage": "2d", "shock_only": True}]})
    club, baton, stunner = sheet_to_json(sheet)["weapons"]  # type: ignore[misc]
    assert not {"shock_multiplier", "shock_only"} & set(club)
    assert baton["shock_multiplier"] == 4 and stunner["shock_only"] is True


@pytest.mark.parametrize("value", [0, 101, 1.5, True])
def test_v17_a_bad_shock_multiplier_is_refused(value: object) -> None:
    with pytest.raises(Rejected) as err:
        validate_sheet({"weapons": [{"name": "baton", "shock_multiplier": value}]})
    assert err.value.code == "sheet/bad_field" and err.value.details["field"] == "weapons[0].shock_multiplier"


def test_v17_how_the_shock_was_counted_is_hidden_with_a_hidden_victim(engine: Engine) -> None:
    """V-17: the shock's points and basis tell the victim's injury: redacted with its HP (docs/protocol.md)."""
    from combat_server.rules.gurps.events import EVENTS
    from combat_server.rules.kit.events import redact

    table = fight(engine, HERO, HUMAN, *SYSTEM, "shock_points")
    blow(table, "nerve pistol", [5])
    payload = table.last("injury_applied").payload
    assert "shock" in payload and "shock" not in redact(EVENTS["injury_applied"], payload, frozenset({"foe"}))
