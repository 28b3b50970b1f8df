"""G-37: when the defender gets no active defence at all (#14 item 8).

Catalogue G-37: after a successful, non-critical attack the defender picks one active
defence, but gets **none** if unconscious, immobilised or otherwise unable to react.
The engine's cases of "unable to react" are: unconscious (G-37), collapsed from fatigue
(G-51), having made an All-Out Attack (G-22), and a critical hit (G-36). In each, the hit
opens no defence prompt: the attack event says why and the damage roll follows.
"""

from __future__ import annotations

from .conftest import Table


def no_defence_given(t: Table) -> str:
    """The hit went straight to damage: no defend prompt open; the stated reason is returned."""
    assert not [p for p in t.state.prompts if p.kind == "defend"]
    assert t.prompt("roll").options["purpose"] == "damage"
    return str(t.last("attack_rolled").payload["no_defense"])


def test_g37_a_defender_able_to_react_is_prompted_for_one_defence(duel: Table) -> None:
    """G-37: a plain hit (knight: broadsword 13, rolls 12) asks the orc to choose a defence."""
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    prompt = duel.prompt("defend")
    assert prompt.options["allowed"] is True and prompt.options["dodge"] is not None
    assert "no_defense" not in duel.last("attack_rolled").payload


def test_g37_no_active_defence_while_unconscious(duel: Table) -> None:
    """G-37: the GM knocks the orc out; the knight's hit on it opens no defence prompt."""
    duel.send("adjust", {"combatant": "orc", "changes": {"unconscious": True}, "reason": "sleep potion"})
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    reason = no_defence_given(duel)
    assert "unconscious" in reason and "G-37" in reason


def test_g37_no_active_defence_after_collapsing(duel: Table) -> None:
    """G-37/G-51: the knight at 0 FP fails its Will roll (18) and collapses; the orc's hit
    (axe 12, rolls 12) then opens no defence prompt for it."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert duel.cond("knight").collapsed is True and duel.current == "orc"
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    assert "collapsed" in no_defence_given(duel)


def test_g37_no_active_defence_after_all_out_attack(duel: Table) -> None:
    """G-37/G-22: the knight's All-Out Attack (missing on 18) leaves it no defence against the
    orc's hit on the next turn."""
    duel.maneuver("knight", "all_out_attack", [[6, 6, 6]], option="determined", target="orc")
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    assert "All-Out Attack" in no_defence_given(duel)


def test_g37_no_active_defence_against_a_critical_hit(duel: Table) -> None:
    """G-37/G-36: the knight's 4 (1+1+2) is a critical hit: the orc, able to react, gets no defence."""
    duel.maneuver("knight", "attack", [[1, 1, 2]], target="orc")
    assert duel.last("attack_rolled").payload["record"]["outcome"] == "critical hit"
    assert "critical hit" in no_defence_given(duel)
