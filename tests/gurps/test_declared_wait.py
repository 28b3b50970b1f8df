"""#14 item 6: a declared Wait (G-34). The knight waits for the orc; when the orc starts a
maneuver, the knight's seat is asked before it resolves, instead of racing to press Trigger."""

from __future__ import annotations

from typing import Sequence

import pytest

from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR, Command, Principal

from .conftest import ARCHER, KNIGHT, ORC, Table

KNIGHTS_SEAT = Principal.of_seat("p1", "player", ("knight",), "kay")
ORCS_SEAT = Principal.of_seat("p2", "player", ("orc",), "grom")


@pytest.fixture
def waiting(duel: Table) -> Table:
    """The knight Waits to attack when the orc comes; the orc, its turn, starts an Attack on the knight."""
    duel.maneuver("knight", "wait", trigger="the orc comes at me", action="attack")
    duel.maneuver("orc", "attack", target="knight", weapon="axe")
    return duel


def _answer(t: Table, trigger: bool, faces: Sequence[Sequence[int]] = (), actor: Principal = GM_ACTOR,
            **fields: object) -> None:
    t.send("answer_wait", {"prompt": t.prompt("wait").id, "trigger": trigger, **fields}, faces, actor=actor)


def test_g34_the_waiting_seat_is_asked_before_the_maneuver_resolves(waiting: Table) -> None:
    """G-34: the orc's Attack is declared, not rolled; the knight's seat gets the question."""
    p = waiting.prompt("wait")
    assert p.combatant == "knight"
    assert p.text.startswith("Orc starts an Attack: trigger Knight's Wait (“the orc comes at me”: attack)?")
    assert waiting.events("attack_rolled") == []
    assert waiting.state.combat.declared_by == "orc"


def test_g34_letting_it_pass_resolves_the_maneuver_and_the_wait_holds(waiting: Table) -> None:
    """G-34: the knight lets it pass: the orc's Attack resolves as chosen; the knight still waits."""
    _answer(waiting, False, [[3, 4, 5]], actor=KNIGHTS_SEAT)
    attack = waiting.last("attack_rolled").payload["attack"]
    assert (attack["attacker"], attack["target"], attack["weapon"]) == ("orc", "knight", "axe")
    assert waiting.cond("knight").wait_action == "attack"
    assert waiting.state.combat.declared_by == ""


def test_g34_triggering_interrupts_before_the_declared_maneuver(waiting: Table) -> None:
    """G-34: the knight triggers: its attack on the orc (the one who acts) comes first; the orc's
    Attack resolves after the interrupt, when the orc's defence has been rolled."""
    _answer(waiting, True, [[3, 4, 5]], actor=KNIGHTS_SEAT, weapon="broadsword")
    first = waiting.last("attack_rolled").payload["attack"]
    assert (first["attacker"], first["target"]) == ("knight", "orc")
    assert waiting.state.combat.interrupted_by == "knight"
    waiting.defend("dodge", [[1, 2, 3], [6, 6, 6]])  # the orc dodges; then its own Attack (18: a miss)
    attacks = [e.payload["attack"]["attacker"] for e in waiting.events("attack_rolled")]
    assert attacks == ["knight", "orc"]
    assert waiting.last("interrupt_ended").payload["combatant"] == "knight"
    assert waiting.cond("knight").wait_action == ""  # the Wait is spent
    assert waiting.refold_matches()


def test_g34_the_gm_answers_for_an_absent_player_and_no_one_else_can(waiting: Table) -> None:
    """G-34: the orc's seat cannot answer the knight's question; the GM can."""
    with pytest.raises(Rejected) as err:
        _answer(waiting, False, [[3, 4, 5]], actor=ORCS_SEAT)
    assert err.value.code == "auth/not_your_prompt"
    _answer(waiting, False, [[3, 4, 5]])
    passed = waiting.last("wait_passed").payload
    assert (passed["combatant"], passed["actor"]) == ("knight", "orc")


def test_g34_the_prompt_has_ready_made_answers(waiting: Table) -> None:
    """The describe offers one trigger per usable weapon and "Let it pass" (clients render these)."""
    d = GurpsRuleset().describe(waiting.state, KNIGHTS_SEAT)
    (prompt,) = d.prompts
    assert [a.label for a in prompt.answers] == ["Trigger: Attack Orc with broadsword", "Let it pass"]
    assert dict(prompt.answers[0].args) == {"prompt": prompt.id, "trigger": True, "weapon": "broadsword"}


def test_g34_an_invalid_maneuver_is_refused_before_anyone_is_asked(duel: Table) -> None:
    """A maneuver that could not be made is refused at once, not after the question."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="attack")
    with pytest.raises(Rejected) as err:
        duel.maneuver("orc", "attack", target="orc")
    assert err.value.code == "maneuver/bad_target"
    assert [p for p in duel.state.prompts if p.kind == "wait"] == []


def test_g34_a_maneuver_that_can_no_longer_be_made_lapses(table: Table) -> None:
    """G-34: the knight's Wait fells the goblin the orc meant to attack: the orc's Attack lapses and
    the orc chooses again."""
    table.add("knight", KNIGHT)
    table.add("orc", ORC, side="npc")
    table.add("goblin", {"st": 1, "dx": 10, "ht": 10}, side="npc")
    table.send("start_combat", {"order": ["knight", "orc", "goblin"]})
    table.maneuver("knight", "wait", trigger="someone moves", action="attack")
    table.maneuver("orc", "attack", target="goblin", weapon="axe")
    # A critical 3 does maximum damage (G-36): 6+2+1 = 9 cut -> 13 HP: far past -5 x 1 HP, dead (G-45).
    _answer(table, True, [[1, 1, 1]], target="goblin", weapon="broadsword")
    table.send("roll", {"prompt": table.prompt("roll").id})  # maximum damage: no dice
    assert table.cond("goblin").dead
    lapsed = table.last("declared_action_lapsed").payload
    assert (lapsed["combatant"], lapsed["maneuver"]) == ("orc", "attack") and "dead" in lapsed["reason"]
    assert table.current == "orc" and table.state.combat.phase == "maneuver"
    table.maneuver("orc", "attack", [[6, 6, 6]], target="knight")  # chooses again


def test_g34_a_wait_declares_the_all_out_attack_option_in_advance(duel: Table) -> None:
    """G-34: "declare the AOA option in advance": the triggered attack is an AOA (Strong) without naming it again."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="all_out_attack", wait_option="strong")
    duel.maneuver("orc", "move", yards=1)
    _answer(duel, True, [[3, 4, 5]], weapon="broadsword")
    chosen = duel.last("maneuver_chosen").payload
    assert (chosen["combatant"], chosen["maneuver"], chosen["option"]) == ("knight", "all_out_attack", "strong")


def test_g34_the_declared_all_out_attack_option_cannot_be_swapped_when_the_wait_fires(duel: Table) -> None:
    """G-34: the option was declared in advance (Determined); answering the Wait with Strong is refused
    and appends nothing; naming Determined again is accepted."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="all_out_attack", wait_option="determined")
    duel.maneuver("orc", "attack", target="knight", weapon="axe")
    before = duel.state.seq
    with pytest.raises(Rejected) as err:
        _answer(duel, True, [[3, 4, 5]], option="strong", weapon="broadsword")
    assert err.value.code == "wait/option_declared" and err.value.details["declared"] == "determined"
    assert "G-34" in err.value.message and duel.state.seq == before
    _answer(duel, True, [[3, 4, 5]], option="determined", weapon="broadsword")
    chosen = duel.last("maneuver_chosen").payload
    assert (chosen["maneuver"], chosen["option"]) == ("all_out_attack", "determined")


def test_g34_trigger_wait_keeps_the_declared_option_too(duel: Table) -> None:
    """G-34: the GM's Trigger button (trigger_wait) refuses another option than the one declared."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="all_out_attack", wait_option="strong")
    before = duel.state.seq
    with pytest.raises(Rejected) as err:
        duel.send("trigger_wait", {"combatant": "knight", "option": "determined", "target": "orc",
                                   "weapon": "broadsword"}, [[3, 4, 5]])
    assert err.value.code == "wait/option_declared" and duel.state.seq == before


def test_g34_a_ranged_wait_covers_a_zone_at_its_range(table: Table) -> None:
    """G-34: a ranged Wait names the zone: the triggered shot is at the declared range."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "wait", trigger="the orc enters the doorway", action="attack", range=12)
    table.maneuver("orc", "move", yards=5)
    _answer(table, True, [[3, 4, 5]], weapon="bow")
    assert table.last("attack_rolled").payload["attack"]["range_yards"] == 12


def test_g34_doing_nothing_asks_no_one(duel: Table) -> None:
    """G-34: Do Nothing is no action to react to: the turn passes without a question."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="attack")
    duel.maneuver("orc", "do_nothing")
    assert duel.current == "knight" and [p for p in duel.state.prompts if p.kind == "wait"] == []


def test_g34_a_preview_shows_the_roll_a_declared_maneuver_will_make(duel: Table) -> None:
    """The preview of the orc's Attack while the knight waits: the number it will roll against (axe 12)."""
    duel.maneuver("knight", "wait", trigger="the orc comes", action="attack")
    found = duel.engine.preview(duel.fight_id, Command("maneuver", {"combatant": "orc", "maneuver": "attack",
                                                                    "target": "knight", "weapon": "axe"},
                                                       GM_ACTOR, "preview-1"))
    assert (found["purpose"], found["target"]) == ("attack", 12)
    assert [p for p in duel.state.prompts if p.kind == "wait"] == []  # nothing was declared


def test_g34_the_wait_form_declares_option_zone_and_item_when_they_apply(duel: Table) -> None:
    """The Wait action's fields: the All-Out Attack option only with that action, the zone with an
    attack, the item with a Ready (Field.when)."""
    d = GurpsRuleset().describe(duel.state, GM_ACTOR)
    wait = next(a for a in d.actions if a.id == "wait")
    when = {f.name: dict(f.when) for f in wait.fields}
    assert when["wait_option"] == {"action": ("all_out_attack",)}
    assert when["range"] == {"action": ("attack", "all_out_attack")}
    assert when["item"] == {"action": ("ready",)}


def _three(table: Table) -> Table:
    """Knight and archer both Wait; then the orc acts."""
    table.add("knight", KNIGHT)
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["knight", "archer", "orc"]})
    table.maneuver("knight", "wait", trigger="the orc comes", action="attack")
    table.maneuver("archer", "wait", trigger="the orc shows itself", action="attack", range=10)
    return table


def test_g34_each_waiting_seat_is_asked_in_turn_order_one_at_a_time(table: Table) -> None:
    """G-34: the knight is asked first, then the archer; when both let it pass, the Move resolves."""
    t = _three(table)
    t.maneuver("orc", "move", yards=3)
    assert [p.combatant for p in t.state.prompts] == ["knight"]
    _answer(t, False)
    assert [p.combatant for p in t.state.prompts] == ["archer"]
    _answer(t, False)
    assert t.state.prompts == () and t.last("maneuver_chosen").payload["maneuver"] == "move"


def test_g34_a_stunned_waiter_is_not_asked(table: Table) -> None:
    """G-34/G-28: a stunned combatant cannot act on its Wait: only the archer is asked."""
    t = _three(table)
    t.send("adjust", {"combatant": "knight", "changes": {"stunned": True, "stun_kind": "physical"},
                      "reason": "rang his bell"})
    t.maneuver("orc", "move", yards=3)
    assert [p.combatant for p in t.state.prompts] == ["archer"]
