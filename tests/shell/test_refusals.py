"""Bad SHELL input is refused with a specific error naming the field, and appends nothing."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from combat_server.rules.model import Principal
from tests.shell.table import ARCHER, KNIGHT, MAGE, Table, start

KNIGHT_SEAT = Principal("seat-k", combatants=("knight",), label="Knight's player")


def _fight(table: Table) -> None:
    table.add("knight", KNIGHT)
    table.add("archer", ARCHER, side="npc")
    table.add("mage", MAGE)
    start(table, "knight", "archer", "mage")


def _refused(table: Table, code: str, field: str | None, type_: str, args: dict[str, Any],
             actor: Principal | None = None) -> None:
    before = table.state.seq
    with pytest.raises(Rejected) as err:
        table.send(type_, args, actor=actor) if actor is not None else table.send(type_, args)
    assert err.value.code == code
    if field is not None:
        assert err.value.details.get("field") == field
    assert table.state.seq == before and len(table.engine.store.events(table.fight_id)) == before


@pytest.mark.parametrize("args,code,field", [
    ({"maneuver": "charge"}, "maneuver/unknown", "maneuver"),
    ({"maneuver": "attack", "target": "nobody"}, "attack/bad_target", "target"),
    ({"maneuver": "attack", "target": "archer", "weapon": "halberd"}, "attack/unknown_weapon", "weapon"),
    ({"maneuver": "attack", "target": "archer", "location": "tail"}, "command/bad_field", "location"),
    ({"maneuver": "attack", "target": "archer", "non_lethal": True}, "attack/bad_non_lethal", "non_lethal"),
    ({"maneuver": "attack", "target": "archer", "damage_type": "cr"}, "attack/bad_damage_type", "damage_type"),
    ({"maneuver": "attack", "target": "archer", "moved": 9}, "maneuver/too_far", "moved"),
    ({"maneuver": "cast", "spell": "Firebolt"}, "spell/unknown", "spell"),
    ({"maneuver": "takedown", "target": "archer"}, "attack/not_in_close_combat", "target"),
    ({"maneuver": "escape", "target": "archer"}, "attack/not_pinned", "target"),
    ({"maneuver": "stand"}, "maneuver/not_down", "maneuver"),
    ({"maneuver": "attack", "target": "archer", "weapn": "long sword"}, "command/unknown_field", None),
])
def test_a_bad_act_is_refused_naming_the_field(table: Table, args: dict[str, Any], code: str,
                                                field: str | None) -> None:
    _fight(table)
    _refused(table, code, field, "act", {"combatant": "knight", **args})


def test_only_the_gm_rules_a_target_unaware(table: Table) -> None:
    """S-28: whether a defender is aware is the GM's ruling; a player's seat may not send it."""
    _fight(table)
    _refused(table, "auth/gm_only", None, "act", {"combatant": "knight", "maneuver": "attack",
                                                         "target": "archer", "unaware": True}, KNIGHT_SEAT)


def test_a_player_acts_only_on_its_combatants_turn(table: Table) -> None:
    _fight(table)
    table.act("knight", "defend")
    _refused(table, "turn/not_yours", None, "act", {"combatant": "knight", "maneuver": "defend"}, KNIGHT_SEAT)


def test_a_ranged_attack_needs_a_range_within_reach(table: Table) -> None:
    """S-27 / S-30: the bow reaches ST 10 x 15 = 150 units."""
    _fight(table)
    table.act("knight", "defend")
    _refused(table, "command/missing_field", "range", "act", {"combatant": "archer", "maneuver": "attack",
                                                              "target": "knight", "weapon": "bow"})
    _refused(table, "attack/out_of_range", "range", "act", {"combatant": "archer", "maneuver": "attack",
                                                            "target": "knight", "weapon": "bow", "range": 151})


def test_a_defence_the_defender_does_not_have_is_refused(table: Table) -> None:
    """S-27: an arrow is blocked only with a shield or a weapon that may parry missiles."""
    _fight(table)
    table.act("knight", "defend")
    table.act("archer", "attack", target="knight", weapon="bow", range=10)
    prompt = table.prompt("defence").id
    _refused(table, "defence/not_possible", "defence", "defend",
             {"prompt": prompt, "defence": "block", "with": "long sword"})
