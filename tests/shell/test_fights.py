"""Three scripted SHELL fights through a real Engine on SQLite and PostgreSQL, every die typed in,
the state checked after every step: melee with shields, ranged, close combat and spells."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.errors import Rejected
from tests.shell.table import ARCHER, BRAWLER, KNIGHT, MAGE, ORC, Table, at_total, resolved, start

#: The orc's small shield is worn: HP 8.
ORC_WORN: dict[str, Any] = {**ORC, "shield": {"size": "small", "hp": 8, "weight": 8}}


def _where(table: Table) -> tuple[int, str]:
    return table.state.combat.round, table.current


def test_melee_with_shields(table: Table) -> None:
    """Knight (Sword and Shield 4, AG 12: AT 5, block 5, medium shield PR 2) against an orc (Axe and
    Shield 3, AG 10: AT 3, block 3, a worn small shield of HP 8)."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC_WORN, side="npc")
    table.send("start_combat")  # initiative 12 - 2 x EL 1 = 10 and 10 - 0 = 10: the higher AG first
    assert _where(table) == (1, "knight") and [b["initiative"] for b in table.last("round_started").payload["basis"]] \
        == [10, 10]

    assert at_total(table.act("knight", "attack", target="orc")) == 5
    assert table.prompt("defence").combatant == "orc" and table.cond("knight").maneuver == "attack"

    out = resolved(table.defend("block", (3, 4), **{"with": "shield"}))  # R = 7 + 5 - 3 = 9
    assert (out["r"], out["result"]) == (9, "defended") and table.cond("orc").blocks_used == 1
    assert table.prompt("roll").options == {"purpose": "damage", "count": 1, "sides": 6, "hit": "object",
                                            "object": "shield"}

    table.roll([(6,)], "damage")  # 1d+4 = 10 > HP 8: the shield breaks (S-45, R-12)
    assert table.cond("orc").lost == ("small shield",) and _where(table) == (1, "orc")

    assert at_total(table.act("orc", "attack", target="knight", location="left arm")) == 2
    out = resolved(table.defend("block", (5, 6), **{"with": "long sword"}))  # R = 11 + 2 - 5 = 8
    assert out["result"] == "miss" and not table.state.prompts
    assert _where(table) == (2, "knight")  # round 2: fatigue counted, blocks reset
    assert table.cond("knight").blocks_used == 0 and table.cond("knight").fatigue == 15  # EL 1: 300 / 20
    assert table.cond("orc").fatigue == 12  # EL 0: 300 / 25

    table.act("knight", "attack", target="orc")
    out = resolved(table.defend("block", (4, 4), **{"with": "axe"}))  # R = 8 + 5 - 3 = 10: the axe blocks
    assert out["result"] == "defended" and table.prompt("roll").options["object"] == "axe"
    table.roll([(5,)], "damage")  # 9 against the axe's HP 12: it holds
    assert table.cond("orc").lost == ("small shield",) and _where(table) == (2, "orc")

    table.act("orc", "defend")
    assert table.cond("orc").maneuver == "defend" and _where(table) == (3, "knight")

    table.act("knight", "attack", target="orc")
    out = resolved(table.defend("dodge", (9, 9)))  # dodge 3 + 0 - 1 + 2 = 4; R = 18 + 5 - 4 = 19
    assert (out["def_total"], out["result"]) == (4, "hit")
    result = table.roll([(5,)], "damage")  # 9 - leather 2 = 7 >= HP 14 / 2: stunned (S-32)
    assert table.cond("orc").wounds == {"torso": 7}
    assert [e.type for e in result.events if e.type in ("turn_lost", "round_started")] == ["turn_lost", "round_started"]
    assert _where(table) == (4, "knight") and not table.cond("orc").stunned
    assert table.refold_matches()


def test_ranged(table: Table) -> None:
    """An archer (Bow 4, AG 15) aims twice at a knight walking in, then shoots: AT 4 + 2 + 2 (aim) - 3
    (12 units) - 1 (the target moved 3, A-72) = 4 against the shield block 5 / speed 2 = 2."""
    table.add("archer", ARCHER, side="npc")
    table.add("knight", KNIGHT)
    table.send("start_combat")
    assert _where(table) == (1, "archer")

    table.act("archer", "aim", target="knight", weapon="bow")
    assert (table.cond("archer").aim_target, table.cond("archer").aim_turns) == ("knight", 1)
    table.act("knight", "move", moved=5)
    assert table.cond("knight").moved == 5 and _where(table) == (2, "archer")
    assert table.cond("archer").fatigue == 0 and table.cond("knight").fatigue == 15  # aiming is not active

    table.act("archer", "aim", target="knight", weapon="bow")
    assert table.cond("archer").aim_turns == 2
    table.act("knight", "move", moved=3)
    assert _where(table) == (3, "archer")

    assert at_total(table.act("archer", "attack", target="knight", weapon="bow", range=12)) == 4
    out = resolved(table.defend("block", (5, 5), **{"with": "shield"}))  # R = 10 + 4 - 2 = 12: the shield band
    assert (out["def_total"], out["result"]) == (2, "shield hit")
    table.roll([(6,)], "damage")  # 6 impaling: half, 3, to the shield of HP 13 (S-36, S-45)
    hit = table.last("object_damaged").payload
    assert (hit["damage"], hit["breaks"]) == (3, False) and _where(table) == (3, "knight")

    table.act("knight", "defend")
    assert _where(table) == (4, "archer") and table.cond("archer").aim_turns == 0

    assert at_total(table.act("archer", "attack", target="knight", weapon="bow", range=12)) == 3
    out = resolved(table.defend("dodge", (10, 9)))  # (4 + 1 - 2) / 2 = 1, + 2 Defend = 3; R = 19
    assert (out["def_total"], out["result"]) == (3, "hit")
    table.roll([(5,)], "damage")  # 5 - chain 4 = 1
    assert table.cond("knight").wounds == {"torso": 1} and _where(table) == (4, "knight")
    assert table.refold_matches()


def test_close_combat_and_spells(table: Table) -> None:
    """A brawler (Brawling 3, ST 14, AG 12, 180 lb) steps into close combat with a mage (Staff 2, ST 10,
    AG 11, IQ 14, Elementalism 7, 130 lb), takes it down and pins it; the mage casts, then escapes."""
    table.add("brawler", BRAWLER, side="npc")
    table.add("mage", MAGE)
    table.send("start_combat")
    assert _where(table) == (1, "brawler")

    table.act("brawler", "enter_close", target="mage", moved=3)
    assert table.prompt("close_response").options["responses"] == ["stop_thrust:bare hand"]
    table.respond("none")
    assert table.cond("brawler").close_with == "mage" and _where(table) == (1, "mage")

    table.act("mage", "cast", spell="Firebolt", target="brawler")
    table.roll([(3, 3, 3)], "spell")  # 9 against IQ 14 - 3 + (7 - 4) = 14
    cast = table.last("spell_cast").payload
    assert cast["success"] and cast["record"]["target"] == 14 and table.cond("mage").end == 10 - 2
    assert _where(table) == (2, "brawler")

    assert at_total(table.act("brawler", "takedown", target="mage", then_pin=True)) == 3 + 1 + 4
    out = resolved(table.defend("dodge", (3, 3)))  # dodge 2 + 1 - 1 = 2: R = 6 + 8 - 2 = 12
    assert out["result"] == "hit" and table.cond("mage").knocked_down
    pin = table.last("attack_declared").payload["attack"]
    assert pin["kind"] == "pin" and sum(m["value"] for m in pin["at"]) == 3 + 1 + 4 + 2  # 50 lb heavier: +2
    out = resolved(table.defend("dodge", (1, 1)))  # down: 2 - 4 = -2; R = 2 + 10 + 2 = 14
    assert out["def_total"] == -2 and table.cond("mage").pinned_by == "brawler"
    assert table.cond("brawler").knocked_down and table.cond("brawler").pinning == "mage"
    assert _where(table) == (2, "mage")

    with pytest.raises(Rejected) as err:
        table.act("mage", "attack", target="brawler")
    assert err.value.code == "maneuver/pinned"
    table.act("mage", "cast", spell="Stone Skin")
    assert (table.cond("mage").casting, table.cond("mage").cast_turns) == ("Stone Skin", 1)
    assert _where(table) == (3, "brawler")

    with pytest.raises(Rejected) as err:
        table.act("brawler", "attack", target="mage", weapon="bare hand")
    assert err.value.code == "attack/pinner_bare_hand"  # S-43
    table.act("brawler", "defend")
    table.act("mage", "cast")
    table.roll([(6, 6, 6)], "spell")  # 18 fails: 1 END (S-12)
    assert table.cond("mage").end == 8 - 1 and table.cond("mage").casting == "" and _where(table) == (4, "brawler")

    table.act("brawler", "defend")
    assert at_total(table.act("mage", "escape", target="brawler")) == 2 + 0 - 4
    out = resolved(table.defend("dodge", (10, 10)))  # pinner down: 3 + 1 - 1 - 4 + 2 (Defend) = 1
    assert (out["def_total"], out["result"]) == (1, "hit")
    assert table.cond("mage").pinned_by == "" and table.cond("brawler").pinning == ""
    assert _where(table) == (5, "brawler")
    assert table.refold_matches()
