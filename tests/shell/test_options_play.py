"""One test per SHELL option, played through the ruleset: the default reading and the other one."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import SWORD, Table, at_total, sheet, start

FIGHTER = sheet(st=12, ag=12, styles=(("Sword", 3),), weapon=SWORD)
FOE = sheet(styles=(("Sword", 2),), weapon=SWORD)


def _table(engine: Engine, **options: Any) -> Table:
    return Table(engine, engine.create_fight("shell", options=options, dice_mode="manual").fight_id)


def _duel(table: Table, a: dict[str, Any] = FIGHTER, d: dict[str, Any] = FOE) -> None:
    table.add("a", a)
    table.add("d", d, side="npc")
    start(table, "a", "d")


#: ST 10 carries at most 200 lb; 250 lb is over it (A-61).
OVERLOADED = sheet(ag=12, styles=(("Sword", 3),), weapon=SWORD, gear_weight=250)


def test_a61_overload_reject_refuses_to_start_the_fight(engine: Engine) -> None:
    """A-61 default "reject": an overloaded combatant cannot fight; the error names it and the field."""
    table = _table(engine)
    table.add("a", OVERLOADED)
    table.add("d", FOE, side="npc")
    with pytest.raises(Rejected) as err:
        start(table, "a", "d")
    assert err.value.code == "sheet/overloaded" and err.value.details["combatant"] == "a"


def test_a61_overload_immobile_fights_without_moving(engine: Engine) -> None:
    """A-61 "immobile": EL 4 and no MV points: not even a step."""
    table = _table(engine, overload="immobile")
    _duel(table, OVERLOADED)
    assert ShellRuleset().view_combatant(table.state, "a")["mv_points"] == 0
    with pytest.raises(Rejected) as err:
        table.act("a", "attack", target="d", moved=1)
    assert err.value.code == "maneuver/too_far"


@pytest.mark.parametrize("rederive,points", [(False, 5), (True, 5)])
def test_a62_fatigue_rederives_mv(engine: Engine, rederive: bool, points: int) -> None:
    """A-62: at END <= 1/3, MV 6 - 1 = 5 directly; re-derived, (11 + 11) / 4 = 5 from the tired ST and AG."""
    table = _table(engine, fatigue_rederives_mv=rederive)
    _duel(table)
    table.send("adjust", {"combatant": "a", "changes": {"end": 4}, "reason": "tired"})
    assert ShellRuleset().view_combatant(table.state, "a")["mv_points"] == points


def test_a62_rederived_mv_differs_when_the_attributes_round_differently(engine: Engine) -> None:
    """A-62 (cfg): ST 13, AG 13 (MV 6): at END 0 MV is halved to 3; re-derived it is (11 + 11) / 4 = 5."""
    strong = sheet(st=13, ag=13, styles=(("Sword", 3),), weapon=SWORD)
    for rederive, points in ((False, 3), (True, 5)):
        table = _table(engine, fatigue_rederives_mv=rederive)
        _duel(table, strong)
        table.send("adjust", {"combatant": "a", "changes": {"end": 0}, "reason": "spent"})
        assert ShellRuleset().view_combatant(table.state, "a")["mv_points"] == points


@pytest.mark.parametrize("bonus,at", [(False, 4), (True, 5)])
def test_a65_guard_preemptive_bonus(engine: Engine, bonus: bool, at: int) -> None:
    """A-65 (cfg): a Guard's pre-emptive strike is a plain attack (AT 4), or keeps the Guard's +1 (AT 5)."""
    table = _table(engine, guard_preemptive_bonus=bonus)
    _duel(table)
    table.act("a", "guard", weapon="sword")
    assert at_total(table.act("a", "preempt", target="d")) == at


MACE = {"name": "mace", "damage": 1, "damage_types": ["cr", "cut"], "hp": 12}


@pytest.mark.parametrize("any_type,wp", [(False, False), (True, True)])
def test_a76_wp_roll_for_a_stunning_cutting_blow_to_the_head(engine: Engine, any_type: bool, wp: bool) -> None:
    """A-76 (cfg): a stunning cutting blow to the head calls the WP roll only with wp_roll_any_damage_type.
    ST 12 mace 1d+3 cut rolls 3: 6 - skull 2 = 4, x4 = 16 >= HP 30 / 2: stunned, still conscious."""
    table = _table(engine, wp_roll_any_damage_type=any_type)
    _duel(table, sheet(st=12, ag=12, styles=(("Mace", 1),), weapon=MACE), sheet(st=10, hp_bonus=20, npc=True,
                                                                              styles=(("Sword", 1),)))
    table.act("a", "attack", target="d", location="head", damage_type="cut")
    table.defend("none", (10, 10))
    result = table.roll([(3,)], "damage")
    assert [e for e in result.events if e.type == "damage_taken"][0].payload["stunned"]
    assert bool([p for p in table.state.prompts if p.options.get("purpose") == "wp_conscious"]) is wp


MAGE = sheet(iq=14, ag=11, wp_bonus=0, styles=(("Staff", 1),), arts=[{"name": "Magic", "level": 6, "spells": [
    {"name": "Ward", "min_level": 3, "end_cost": 2, "casting_time": 1}]}])


@pytest.mark.parametrize("faces,kept", [((3, 3, 3), True), ((6, 6, 6), False)])
def test_s44_cinematic_casting_rolls_wp_to_keep_the_spell_after_a_dodge(engine: Engine, faces: tuple[int, ...],
                                                                        kept: bool) -> None:
    """S-44 cinematic option: a dodging caster rolls WP (10) to keep concentrating instead of losing the spell."""
    table = _table(engine, cinematic_casting=True)
    _duel(table, MAGE, FIGHTER)
    table.act("a", "cast", spell="Ward")
    table.act("d", "attack", target="a")
    table.send("defend", {"prompt": table.prompt("defence").id, "defence": "dodge"}, [(1, 1), faces])
    assert (table.cond("a").casting == "Ward") is kept


def test_s24_cinematic_maneuvers_let_the_gm_define_one(engine: Engine) -> None:
    """S-24: with cinematic_maneuvers the GM declares a lunge: AT +2 on the attack, DEF -3 until its next action."""
    table = _table(engine, cinematic_maneuvers=True)
    _duel(table)
    assert at_total(table.act("a", "other", name="lunge", at_mod=2, def_mod=-3, target="d")) == 4 + 2
    table.defend("dodge", (1, 1))
    table.act("d", "attack", target="a")
    state = table.state
    from combat_server.rules.shell.attacks import defences

    dodge = next(x for x in defences(state, state.combat.attack) if x.defence == "dodge")
    assert dodge.total == 3 + 1 - 1 - 3  # level 3, AG 12, -(1 + EL 0), the lunge's -3
