"""What a seat that may not see a hidden SHELL combatant's sheet gets of its events (the event specs'
secrets), and a combatant removed in the middle of an attack."""

from __future__ import annotations

from combat_server.rules.kit.events import redact
from combat_server.rules.shell.events import EVENTS
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import KNIGHT, ORC, Table, start
from tests.shell.test_maneuvers import BRAWLER, SPEARMAN

RULESET = ShellRuleset()


def _orc_attacks(table: Table) -> None:
    table.add("orc", ORC, side="npc")
    table.send("update_combatant", {"id": "orc", "hidden": True})
    table.add("knight", KNIGHT)
    start(table, "orc", "knight")
    table.act("orc", "attack", target="knight")


def test_a_hidden_attackers_modifiers_and_target_are_left_out(table: Table) -> None:
    """S-25 with a hidden attacker: a player's copy keeps the dice and the outcome, not its AT or modifiers,
    and the sentence gives no numbers."""
    _orc_attacks(table)
    before = table.state
    result = table.defend("dodge", (2, 3))
    event = [e for e in result.events if e.type == "attack_resolved"][0]
    seen = redact(EVENTS["attack_resolved"], event.payload, frozenset({"orc"}))
    assert seen["record"]["dice"] == [2, 3] and "modifiers" not in seen["record"] and "target" not in seen["record"]
    assert seen["result"] == "miss"
    assert RULESET.explain(before, event, frozenset({"orc"})) == "Knight dodges; miss (S-25, S-26, S-28)."


def test_a_hidden_defenders_def_is_left_out(table: Table) -> None:
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.send("update_combatant", {"id": "orc", "hidden": True})
    start(table, "knight", "orc")
    table.act("knight", "attack", target="orc")
    result = table.defend("block", (2, 3), **{"with": "axe"})
    event = [e for e in result.events if e.type == "attack_resolved"][0]
    seen = redact(EVENTS["attack_resolved"], event.payload, frozenset({"orc"}))
    assert {"def_mods", "def_total", "r"} & set(seen) == set() and seen["record"]["target"] == 5


def test_removing_the_defender_mid_attack_ends_the_attack_and_the_turn(table: Table) -> None:
    """The GM removes the knight while its defence is awaited: the attack and its prompt go, the turn moves on."""
    _orc_attacks(table)
    table.send("remove_combatant", {"id": "knight", "reason": "fled"})
    state = table.state
    assert state.combat.attack is None and not state.prompts
    assert state.combat.round == 2 and state.combat.current == "orc"


def test_a_hidden_attackers_damage_adds_are_left_out(table: Table) -> None:
    """The adds of a hidden attacker's damage roll reveal its ST and weapon: a player's copy has the dice only."""
    _orc_attacks(table)
    table.defend("none", (10, 10))
    result = table.roll([(3, 3)], "damage")
    event = [e for e in result.events if e.type == "damage_taken"][0]
    seen = redact(EVENTS["damage_taken"], event.payload, frozenset({"orc"}))
    assert seen["dice"] == [3, 3] and "adds" not in seen and "adds" in event.payload


def test_a_hidden_combatants_st_contest_roll_keeps_its_dice_not_its_st(table: Table) -> None:
    """S-40 / S-02: a stop thrust that hits without damage goes to a ST contest; the roll of a hidden side
    reaches a player with its dice and outcome, without the ST it was made against (base, target, margin)."""
    table.add("a", BRAWLER)
    table.add("d", SPEARMAN, side="npc")
    table.send("update_combatant", {"id": "a", "sheet": {**BRAWLER, "armour": [{"material": "plate",
                                                                              "locations": ["torso"]}]}})
    table.send("update_combatant", {"id": "d", "hidden": True})
    start(table, "a", "d")
    table.act("a", "enter_close", target="d", moved=1)
    table.respond("stop_thrust", weapon="spear")
    table.defend("dodge", (10, 10))
    result = table.roll([(1,), (1, 1, 1), (6, 6, 6)], "damage")  # 1 - DR 7 = 0: ST 10 by 7 against ST 14
    event = [e for e in result.events if e.type == "close_entry"][0]
    seen = redact(EVENTS["close_entry"], event.payload, frozenset({"d"}))
    hidden_side, visible_side = seen["contest"]["defender"], seen["contest"]["attacker"]
    assert hidden_side["dice"] == [1, 1, 1] and hidden_side["outcome"]
    assert not {"base", "target", "margin"} & set(hidden_side)
    assert visible_side["target"] == 14 and seen["contest"]["defender_won"] is True
    assert event.payload["contest"]["defender"]["target"] == 10  # the log itself stays complete
