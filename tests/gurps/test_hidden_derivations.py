"""What a seat that may not see a hidden GURPS combatant's sheet gets of an event must not let it work
a sheet number out with the dice it does see: a margin (target = total + margin), a difference of two
margins (a Feint's penalty, G-30), a length that is a margin plus dice (a fright stun, G-18), or what
follows from a hidden attacker's basic damage and a visible DR (G-42). The log itself keeps everything."""

from __future__ import annotations

import re
from typing import Any, Mapping

from combat_server.rules.gurps.events import EVENTS
from combat_server.rules.kit.events import redact
from combat_server.rules.serialize import state_to_json
from combat_server.server.views import _prompts_view, redact_payload

from .conftest import KNIGHT, ORC, Table


def seen(event: Any, hidden: str) -> Mapping[str, Any]:
    """``event``'s payload as a seat that may not see ``hidden``'s sheet gets it."""
    return redact(EVENTS[event.type], event.payload, frozenset({hidden}))


def said(table: Table, event: Any, hidden: str) -> str:
    """``event``'s sentence for a seat that may not see ``hidden``'s sheet."""
    text = EVENTS.explain(table.state, event, frozenset({hidden}))
    assert text is not None
    return text


def numbers(text: str) -> list[str]:
    """The numbers written in a sentence, rule ids left out."""
    return re.findall(r"(?<![\w-])\d+", re.sub(r"\b[GVAR]-\d+", "", text))


GUNNER = {"dx": 12, "weapons": [{"name": "smg", "kind": "ranged", "skill": 14, "damage": "2d", "damage_type": "pi",
                                 "acc": 2, "max_range": 160, "half_damage": 160, "rof": 5, "firearm": True,
                                 "parry": None}]}


def test_g35_a_hidden_gunners_rapid_fire_sentence_gives_no_margin(table: Table) -> None:
    """G-35: hits are 1 plus 1 per point of margin; with the dice shown, the margin written out is the
    hidden gunner's skill (10 + 4 = 14), so its sentence says the rule without the number."""
    table.add("gunner", GUNNER, side="npc")
    table.add("orc", ORC)
    table.send("start_combat", {"order": ["gunner", "orc"]})
    table.maneuver("gunner", "attack", [[3, 3, 4]], target="orc", weapon="smg", shots=3, range=1)  # margin 4
    rolled = table.last("attack_rolled")
    text = said(table, rolled, "gunner")
    assert "1 plus 1 per point of margin, at most the shots fired" in text and "margin 4" not in text


def _knight_feints_the_orc(duel: Table) -> Any:
    """G-30: the knight's Feint (9 vs 13: margin 4) against the orc's 11 vs 12 (margin 1): victory by 3."""
    duel.maneuver("knight", "feint", [[3, 3, 3]], target="orc")
    duel.roll([3, 4, 4], "feint_resist")
    resisted = duel.last("feint_resisted")
    assert resisted.payload["penalty"] == 3
    return resisted


def test_g30_a_hidden_targets_feint_penalty_is_left_out(duel: Table) -> None:
    """G-30: the penalty is the feinter's margin less the target's: with the feinter's margin and the target's
    dice shown, it would give the hidden target's skill away (4 - 3 = 1, 11 + 1 = 12)."""
    resisted = _knight_feints_the_orc(duel)
    assert "penalty" not in seen(resisted, "orc")
    text = said(duel, resisted, "orc")
    assert "defends at a penalty" in text and "by 3" not in text and "at -3" not in text


def test_g30_a_hidden_feinters_feint_penalty_is_left_out(duel: Table) -> None:
    """G-30: with the target's margin shown, the penalty would give the hidden feinter's margin, and with its
    dice its skill, away (1 + 3 = 4, 9 + 4 = 13)."""
    resisted = _knight_feints_the_orc(duel)
    assert "penalty" not in seen(resisted, "knight")
    text = said(duel, resisted, "knight")
    assert "defends at a penalty" in text and "by 3" not in text and "at -3" not in text


def test_g30_the_targets_resist_prompt_leaves_out_a_hidden_feinters_margin(duel: Table) -> None:
    """G-30: the orc's Resist prompt carries the feinter's margin for the Quick Contest; with the knight's
    roll shown (9), a margin of 4 is its skill (13). Seats that may not see the knight get the prompt, in
    the event that opens it and in the state, without it; the GM's keeps it."""
    duel.maneuver("knight", "feint", [[3, 3, 3]], target="orc")
    rolled = duel.last("feint_rolled")
    hidden = frozenset({"knight"})
    opened = redact_payload("feint_rolled", rolled.payload, hidden, duel.state)["opens"][0]
    assert opened["options"]["feinter"] == "knight"
    assert "feinter_margin" not in opened["options"] and "feinter_success" not in opened["options"]
    assert "feinter_margin" not in _prompts_view(state_to_json(duel.state)["prompts"], duel.state, hidden)[0]["options"]
    assert rolled.payload["opens"][0]["options"]["feinter_margin"] == 4  # the GM's, and the log's
    assert redact_payload("feint_rolled", rolled.payload, frozenset(), duel.state) is rolled.payload


def _the_orc_is_frightened(duel: Table) -> Any:
    """G-18: the orc's Fright Check (Will 10 - 2 = 8) rolls 12, failing by 4: 4 + 2d (1 + 1) = 6 turns stunned."""
    duel.send("fright_check", {"combatant": "orc", "modifier": -2, "reason": "the dragon roars"})
    duel.roll([4, 4, 4], "fright")
    duel.roll([1, 1], "fright_duration")
    duration = duel.last("check_rolled")
    assert duration.payload["turns"] == 6
    return duration


def test_g18_a_hidden_combatants_fright_stun_length_is_left_out(duel: Table) -> None:
    """G-18: the stun's length is the margin of failure + the 2d shown: 6 - 2 = 4 = 12 - (Will 10 - 2). A seat that
    may not see the orc gets the dice, not the turns, and a sentence without them."""
    duration = _the_orc_is_frightened(duel)
    shown = seen(duration, "orc")
    assert shown["dice"] == [1, 1] and not {"turns", "margin"} & set(shown) and "turns" not in shown["effect_args"]
    assert numbers(said(duel, duration, "orc")) == []


def test_g18_a_hidden_combatants_fright_stun_countdown_is_left_out(duel: Table) -> None:
    """A-09: the turns left of a fright stun, counted down at the end of each of its turns, are the same
    number: a seat that may not see the orc reads that the stun goes on, not for how long."""
    _the_orc_is_frightened(duel)
    duel.maneuver("knight", "do_nothing")
    ending = duel.last("turn_ending")
    assert ending.payload["combatant"] == "orc" and ending.payload["fright_turns_left"] == 5
    assert "fright_turns_left" not in seen(ending, "orc")
    assert said(duel, ending, "orc").endswith("The fright stun goes on (A-09).")


def test_g42_a_hidden_attackers_damage_through_a_visible_dr_is_left_out(duel: Table) -> None:
    """G-42: penetrating = basic - DR: with the knight's DR shown, the damage that gets through would give
    the hidden orc's basic damage, and with the dice its adds, away: a seat that may not see the orc gets
    the dice and the DR, not what got through nor the injury it makes."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "attack", [[3, 3, 3]], target="knight")
    duel.defend("none")
    damage = duel.roll([3, 3], "damage")
    rolled = [e for e in damage.events if e.type == "damage_rolled"][0]
    assert rolled.payload["penetrating"] > 0
    shown = seen(rolled, "orc")
    assert shown["dice"] == [3, 3] and not {"basic", "adds", "penetrating", "injury"} & set(shown)
    text = said(duel, rolled, "orc")
    assert "penetrating" not in text and numbers(text) == ["3", "3", "0"]  # the dice and the knight's DR 0


def test_g41_a_hidden_parriers_counter_blow_keeps_its_damage_adds(table: Table) -> None:
    """G-41: the counter-blow a hidden knight strikes after parrying a bite is its own attack: the damage dice
    and adds of its broadsword (sw+1) are its ST's, left out like any hidden attacker's."""
    wolf = {"st": 9, "dx": 12, "ht": 12, "weapons": [{"name": "bite", "skill": 13, "damage": "thr+1",
                                                      "damage_type": "cut", "reach": "C", "parry": None}]}
    table.add("wolf", wolf)
    table.add("knight", KNIGHT, side="npc")
    table.send("update_combatant", {"id": "knight", "hidden": True})
    table.send("start_combat", {"order": ["wolf", "knight"]})
    table.maneuver("wolf", "attack", [[3, 4, 4]], target="knight", weapon="bite")
    table.defend("parry", [[1, 3, 3]], weapon="broadsword")
    counter = [e for e in table.roll([1, 1, 1], "counter").events if e.type == "counter_rolled"][0]
    assert counter.payload["attack"]["damage_adds"] != 0
    shown = seen(counter, "knight")["attack"]
    assert shown["weapon"] == "broadsword" and not {"damage_dice", "damage_adds", "effective", "margin"} & set(shown)
