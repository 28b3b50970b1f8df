"""What a seat that may not see a hidden SHELL combatant's sheet gets of its events (the event specs'
secrets), and a combatant removed in the middle of an attack."""

from __future__ import annotations

import re
from typing import Any

from combat_server.rules.kit.events import redact
from combat_server.rules.model import Event, FightState
from combat_server.rules.shell.events import EVENTS
from combat_server.rules.shell.ruleset import ShellRuleset
from tests.shell.table import KNIGHT, MAGE, ORC, Table, start
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


def _knight_hits_the_hidden_orc(table: Table) -> tuple[FightState, Event]:
    """Knight's long sword hits the hidden orc in the torso (its leather takes some): the damage event and
    the state before it."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.send("update_combatant", {"id": "orc", "hidden": True})
    start(table, "knight", "orc")
    table.act("knight", "attack", target="orc")
    table.defend("dodge", (10, 10))
    before = table.state
    result = table.roll([(1,)], "damage")
    return before, [e for e in result.events if e.type == "damage_taken"][0]


def test_a_hidden_defenders_damage_after_dr_is_left_out(table: Table) -> None:
    """A-75 / S-33: with the dice and the attacker's adds shown, the damage after DR would give a hidden
    defender's DR away (raw - damage): a player's copy and sentence have neither the damage nor the steps."""
    before, event = _knight_hits_the_hidden_orc(table)
    assert event.payload["raw"] > event.payload["damage"] > 0  # the log keeps it all
    seen = redact(EVENTS["damage_taken"], event.payload, frozenset({"orc"}))
    assert not {"damage", "steps", "counted", "wounds"} & set(seen)
    assert seen["dice"] == [1] and seen["raw"] == event.payload["raw"]  # the visible attacker's dice + adds
    text = RULESET.explain(before, event, frozenset({"orc"}))
    assert text == "Orc takes cut damage to the torso (S-32, S-33, A-75)."


def test_a_hidden_attackers_raw_and_damage_are_left_out(table: Table) -> None:
    """S-32: raw = the dice + the adds, and the damage follows from raw and a visible defender's DR: a hidden
    attacker's damage reaches a player with its dice only, and a sentence without numbers."""
    _orc_attacks(table)
    table.defend("none", (10, 10))
    before = table.state
    result = table.roll([(3, 3)], "damage")
    event = [e for e in result.events if e.type == "damage_taken"][0]
    seen = redact(EVENTS["damage_taken"], event.payload, frozenset({"orc"}))
    assert seen["dice"] == [3, 3] and not {"adds", "raw", "damage", "steps"} & set(seen)
    text = RULESET.explain(before, event, frozenset({"orc"}))
    assert not re.search(r"\d", text.split("(")[0]), text


def test_a_hidden_attackers_blow_on_an_object_keeps_its_dice_only(table: Table) -> None:
    """S-45: the damage to a blocking shield is raw (the dice + the adds): a hidden attacker's reaches a
    player without raw, damage or adds, and the sentence names only the shield's own HP."""
    _orc_attacks(table)
    table.defend("block", (7, 7), **{"with": "shield"})
    before = table.state
    result = table.roll([(1, 1)], "damage")
    event = [e for e in result.events if e.type == "object_damaged"][0]
    seen = redact(EVENTS["object_damaged"], event.payload, frozenset({"orc"}))
    assert seen["dice"] == [1, 1] and not {"adds", "raw", "damage"} & set(seen) and seen["hp"] == 13
    assert RULESET.explain(before, event, frozenset({"orc"})) == \
        "Knight's medium shield takes the blow against its 13 HP and holds (S-45, R-12, A-81)."


def test_a_hidden_defenders_shield_band_is_left_out(table: Table) -> None:
    """S-25 / A-68: the shield band a defence rolled against is the hidden defender's shield's PR."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.send("update_combatant", {"id": "orc", "hidden": True})
    start(table, "knight", "orc")
    table.act("knight", "attack", target="orc")
    event = [e for e in table.defend("dodge", (2, 3)).events if e.type == "attack_resolved"][0]
    assert event.payload["shield_pr"] is not None
    assert "shield_pr" not in redact(EVENTS["attack_resolved"], event.payload, frozenset({"orc"}))


def test_a_hidden_combatants_combat_fatigue_is_left_out(table: Table) -> None:
    """S-46 / A-82: END is lost every N(EL) active rounds, so the rounds a hidden combatant loses it in give its
    EL away: a player's copy of the round's end and its sentence leave its END loss out."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    state = table.state
    payload = {"round": 5, "fatigue": [{"combatant": "orc", "end_lost": 1, "fatigue": 0, "end": 11},
                                        {"combatant": "knight", "end_lost": 1, "fatigue": 0, "end": 11}]}
    seen = redact(EVENTS["round_ended"], payload, frozenset({"orc"}))
    assert seen["fatigue"][0] == {"combatant": "orc"} and seen["fatigue"][1]["end_lost"] == 1
    explain = EVENTS["round_ended"].explain
    assert explain is not None
    text = explain(state, payload, frozenset({"orc"}))
    assert text == "Round 5 ends; combat fatigue: Knight loses 1 END (S-46, A-82)."


def test_a_hidden_casters_spell_cost_is_left_out(table: Table) -> None:
    """S-12: a spell's END cost is written on its caster's sheet: a hidden caster's is left out."""
    table.add("mage", MAGE, side="npc")
    table.add("knight", KNIGHT)
    table.send("update_combatant", {"id": "mage", "hidden": True})
    start(table, "mage", "knight")
    table.act("mage", "cast", spell="Firebolt", target="knight")
    before = table.state
    result = table.roll([(2, 3, 4)])
    event = [e for e in result.events if e.type == "spell_cast"][0]
    assert event.payload["end_cost"] == 2
    assert "end_cost" not in redact(EVENTS["spell_cast"], event.payload, frozenset({"mage"}))
    assert "END" not in RULESET.explain(before, event, frozenset({"mage"}))
