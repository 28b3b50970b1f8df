"""#13 the combatant card as labelled numbers (describe's ``stats``), hand-checked.

The knight of conftest: ST 12, DX 12, HT 11 -> Basic Speed 5.75, Basic Move 5; HP 12.
Dodge = floor(5.75 + 3) = 8 (G-39); Parry with the broadsword (skill 13) = 3 + 6 = 9 (G-41);
Block with the medium shield (skill 12) = 3 + 6 = 9 (G-40); no punch: sword and shield fill both hands (G-41).
HP 12: HT rolls from 0 (G-44), death checks at -12, -24, -36, -48 and death at -60 (G-45).
"""

from __future__ import annotations

from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR, Principal

from .conftest import KNIGHT, ORC, Table


def _card(table: Table, cid: str, viewer: Principal = GM_ACTOR) -> dict[str, tuple[str, str, str]]:
    description = GurpsRuleset().describe(table.state, viewer)
    return {s.label: (s.group, s.value, s.rule) for s in description.stats if s.combatant == cid}


def test_the_card_gives_the_defences_scores_and_hp_thresholds(table: Table) -> None:
    table.add("knight", KNIGHT)
    card = _card(table, "knight")
    assert card["Dodge"] == ("Defences", "8", "G-39")
    assert card["Parry (broadsword)"] == ("Defences", "9", "G-41")
    assert "Parry (punch)" not in card
    assert card["Block (medium shield)"] == ("Defences", "9", "G-40")
    assert (card["DR"][1], card["Will"][1], card["Per"][1], card["Move"][1]) == ("0", "10", "10", "5")
    assert [card[k][1] for k in ("HP ≤ 0", "−1×HP", "−2×HP", "−3×HP", "−4×HP", "−5×HP")] == [
        "0", "-12", "-24", "-36", "-48", "-60"]


def test_the_card_follows_the_condition_reeling_halves_dodge_and_move(table: Table) -> None:
    table.add("knight", KNIGHT)
    table.send("adjust", {"combatant": "knight", "changes": {"hp": 3}, "reason": "wounds"})  # 3 < 12/3: G-43
    card = _card(table, "knight")
    assert (card["Dodge"][1], card["Move"][1]) == ("4", "3")  # 8 and 5 halved, rounding up


def test_a_hidden_combatants_card_goes_only_to_the_gm_and_its_controller(table: Table) -> None:
    table.add("knight", KNIGHT)
    table.send("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": ORC, "hidden": True})
    player = Principal(seat_id="player-1", combatants=("knight",))
    assert _card(table, "orc", player) == {}
    assert _card(table, "knight", player)["Dodge"][1] == "8"
    assert _card(table, "orc")["Parry (axe)"][1] == "9"  # 3 + 12/2 for the GM
