"""GULLIVER's two Fatigue bases wired through the gurps ruleset (issue #11), on the real engine
(SQLite file and PostgreSQL): V-53 (A-50) Fatigue = Combat ST, exertion x ST/10 and a HT roll
each time, exact fractions, thresholds floor(ST/3), ST/10 and 0; V-54 (A-51) Fatigue = HT, 1 a
point, thresholds 3, 1 and 0. Each against G-51 (the option off) on the same commands, and
against each other. Numbers worked by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.explain import combatant_view

from tests.gcs_samples import SAMPLES
from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import fight

#: ST 15, HT 12 (FPmax 12): under V-53 Fatigue 15, halved at floor(15/3) = 5, collapse at 15/10.
HERO = {"st": 15, "dx": 12, "ht": 12, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
#: HT 8 (FPmax 8): G-51 halves below 8/3, V-54 at 3 or less.
FRAIL = {"st": 10, "dx": 12, "ht": 8, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "ht": 10, "hp": 10}
HT_BY_1 = [3, 4, 4]  # 11 against HT 12: success by 1, V-53 halves
HT_FAIL_1 = [4, 4, 5]  # 13: failure by 1, V-53 leaves it
HT_FAIL_5 = [6, 6, 5]  # 17: failure by 5, V-53 doubles it


def _spend(table: Table, points: int, faces: list[list[int]] | None = None, **args: object) -> dict[str, object]:
    table.send("spend_fatigue", {"combatant": "hero", "points": points, "reason": "a long sprint", **args}, faces or [])
    return dict(table.last("fatigue_spent").payload)


def _at(table: Table, fp: int) -> Table:
    table.send("adjust", {"combatant": "hero", "changes": {"fp": fp}, "reason": "a long march"})
    return table


# ---------------------------------------------------------------------------------------------- V-53


def test_v53_full_fatigue_is_combat_st(engine: Engine) -> None:
    """V-53: ST 15, HT 12 starts at Fatigue 15 (the card's bar too); G-51: FP 12."""
    assert fight(engine, HERO, FOE).cond("hero").fp == 12
    table = fight(engine, HERO, FOE, "fatigue_on_st")
    assert table.cond("hero").fp == 15
    assert combatant_view(table.state, "hero")["fp_max"] == 15


def test_v53_full_fatigue_is_the_size_blocks_combat_st(engine: Engine) -> None:
    """V-53 with the sheet's size block (A-27): ST 15 with Combat ST 20 typed starts at Fatigue 20 (Combat
    ST, not ST), even with V-01 off; without V-53 the block changes nothing (FP 12)."""
    big = {**HERO, "gulliver": {"combat_st": 20}}
    assert fight(engine, big, FOE).cond("hero").fp == 12
    table = fight(engine, big, FOE, "fatigue_on_st")
    assert table.cond("hero").fp == 20
    assert combatant_view(table.state, "hero")["fp_max"] == 20


def test_v53_an_imported_character_starts_at_combat_st(engine: Engine) -> None:
    """V-53: the GCS knight (ST 15, HT 13, FP 13 of 13) imported into the fight starts at Fatigue 15; G-51: 13."""
    content = (SAMPLES / "fighter-shield_Noble-Knight.gcs").read_text(encoding="utf-8")
    for switches, fp in (((), 13), (("fatigue_on_st",), 15)):
        table = fight(engine, HERO, FOE, *switches)
        table.send("import_character", {"file_name": "knight.gcs", "id": "knight", "content": content})
        assert table.cond("knight").fp == fp


def test_v53_a50_exertion_is_scaled_by_st_and_halved_by_the_ht_roll(engine: Engine) -> None:
    """V-53 / A-50: 2 points x 15/10 = 3, the HT roll succeeds by 1: x1/2 = 3/2, kept exact: Fatigue
    15 -> 27/2 (fp 13, fp_exact "27/2"), the roll recorded. G-51: FP 12 -> 10, no roll."""
    off = fight(engine, HERO, FOE)
    assert (_spend(off, 2)["fp_after"], off.cond("hero").fp_exact) == (10, "")
    table = fight(engine, HERO, FOE, "fatigue_on_st")
    p = _spend(table, 2, [HT_BY_1])
    assert (p["cost"], p["fatigue_after"], p["basis"], p["fp_after"]) == ("3/2", "27/2", "V-53", 13)
    assert p["record"]["rule"] == "V-53" and p["record"]["margin"] == 1  # type: ignore[index]
    assert table.explained(table.last("fatigue_spent").seq) == (
        "Hero takes 2 fatigue (a long sprint): x Combat ST 15/10 (V-53), x1/2: the HT roll succeeded by 1 "
        "(V-53) = 3/2; Fatigue 15 -> 27/2 of 15 (V-53 (in place of G-51), A-50).")
    assert (table.cond("hero").fp, table.cond("hero").fp_exact) == (13, "27/2")
    assert table.refold_matches()


def test_v53_failing_the_ht_roll_by_5_doubles_it(engine: Engine) -> None:
    """V-53: 1 point x 15/10 = 3/2, failure by 5: x2 = 3: Fatigue 15 -> 12."""
    table = fight(engine, HERO, FOE, "fatigue_on_st")
    p = _spend(table, 1, [HT_FAIL_5])
    assert (p["cost"], p["fp_after"], "fatigue_after" in p) == ("3", 12, False)


def test_v53_a_spell_is_not_scaled_by_st(engine: Engine) -> None:
    """V-53: the energy rule is for physical exertion: a spell's 2 points only take the HT roll
    (failure by 1: x1): 2; the log says which steps applied."""
    table = fight(engine, HERO, FOE, "fatigue_on_st")
    p = _spend(table, 2, [HT_FAIL_1], exertion=False)
    assert (p["cost"], p["fp_after"], p["exertion"]) == ("2", 13, False)
    assert p["steps"] == ["x1: the HT roll failed by 1 (V-53)"]


def test_v53_move_and_dodge_halve_at_a_third_of_combat_st(engine: Engine) -> None:
    """V-53: from 6, two points of 3/4 each (x15/10, halved by the roll) leave 21/4 (> 5: Move 6) then
    9/2 (<= floor(15/3) = 5: Move 3, tired). G-51 on the same commands: FP 6 -> 4 of 12 is not below
    a third (12): Move 6."""
    off = _at(fight(engine, HERO, FOE), 6)
    _spend(off, 1)
    _spend(off, 1)
    assert (combatant_view(off.state, "hero")["move"], combatant_view(off.state, "hero")["tired"]) == (6, False)
    table = _at(fight(engine, HERO, FOE, "fatigue_on_st"), 6)
    _spend(table, 1, [HT_BY_1])
    assert combatant_view(table.state, "hero")["move"] == 6
    _spend(table, 1, [HT_BY_1])
    view = combatant_view(table.state, "hero")
    assert (view["move"], view["tired"], view["fatigue"]) == (3, True, "9/2")


def test_v53_collapse_at_a_tenth_of_combat_st_is_outright(engine: Engine) -> None:
    """V-53: from 2, 3/4 leaves 5/4 <= 15/10: collapsed (no Will roll); the hero's turn becomes a forced
    Do Nothing citing V-53. G-51: FP 2 -> 1 is above 0: the hero acts."""
    off = _at(fight(engine, HERO, FOE), 2)
    _spend(off, 1)
    assert off.cond("hero").collapsed is False and off.current == "hero"
    table = _at(fight(engine, HERO, FOE, "fatigue_on_st"), 2)
    p = _spend(table, 1, [HT_BY_1])
    assert p["collapsed"] is True and table.cond("hero").collapsed is True
    assert "collapses (V-53)" in table.explained(table.last("fatigue_spent").seq)
    assert table.last("maneuver_chosen").payload["forced"] == "collapsed (V-53)" and table.current == "foe"


def test_v53_out_at_0_and_the_rest_comes_off_hp(engine: Engine) -> None:
    """V-53 / A-50: from 1, 2 points x 15/10 (failure by 1: x1) = 3: Fatigue 0, unconscious, the 2 past
    0 are HP lost. G-51: FP 1 -> -1 of 12: 1 HP (the point lost at 0, A-26), conscious."""
    off = _at(fight(engine, HERO, FOE), 1)
    p = _spend(off, 2)
    assert (p["fp_after"], p["hp_loss"], p["unconscious"]) == (-1, 1, False)
    table = _at(fight(engine, HERO, FOE, "fatigue_on_st"), 1)
    p = _spend(table, 2, [HT_FAIL_1])
    assert (p["fp_after"], p["hp_loss"], p["unconscious"]) == (0, 2, True)
    assert table.last("injury_applied").payload["source"] == "fatigue spill-over (V-53)"
    assert table.cond("hero").unconscious is True


def test_v53_the_numbers_are_hidden_with_a_hidden_combatant(engine: Engine) -> None:
    """V-53 on a hidden combatant: its exact levels, cost and steps are its secret, like the FP numbers,
    and the HT roll's record loses its margin (docs/protocol.md)."""
    from combat_server.rules.gurps.events import EVENTS
    from combat_server.rules.kit.events import redact

    table = fight(engine, HERO, FOE, "fatigue_on_st")
    p = _spend(table, 2, [HT_BY_1])
    shown = redact(EVENTS["fatigue_spent"], p, frozenset({"hero"}))
    assert not {"cost", "steps", "fatigue_after", "fp_after"} & set(shown) and "margin" not in shown["record"]
    assert shown["basis"] == "V-53" and shown["points"] == 2


def test_v53_the_gm_setting_fp_drops_the_fraction(engine: Engine) -> None:
    """A-50: the GM's adjustment sets a whole level: 27/2 becomes 10 exactly."""
    table = fight(engine, HERO, FOE, "fatigue_on_st")
    _spend(table, 2, [HT_BY_1])
    _at(table, 10)
    assert (table.cond("hero").fp, table.cond("hero").fp_exact) == (10, "")


def test_v50_with_v53_counts_shares_of_combat_st(engine: Engine) -> None:
    """V-50 / A-49 with V-53: 27/2 of 15 is over 2/3 (10): no penalty; 8 of 15 (<= 10, > 15/2): -1."""
    table = fight(engine, HERO, FOE, "fatigue_on_st", "fatigue_skill_penalty")
    _spend(table, 2, [HT_BY_1])
    table.maneuver("hero", "attack", [[3, 4, 4]], target="foe", weapon="club")
    mods = table.last("attack_rolled").payload["record"]["modifiers"]
    assert not [m for m in mods if m["rule"] == "V-50"]
    table.defend("none")
    table.roll([1], "damage")
    table.maneuver("foe", "do_nothing")
    _at(table, 8)
    table.maneuver("hero", "attack", [[3, 4, 4]], target="foe", weapon="club")
    mods = table.last("attack_rolled").payload["record"]["modifiers"]
    assert [(m["value"], m["reason"]) for m in mods if m["rule"] == "V-50"] == [(-1, "fatigue: Fatigue 8 of 15")]


# ---------------------------------------------------------------------------------------------- V-54


def test_v54_one_point_a_point_and_no_roll(engine: Engine) -> None:
    """V-54: Fatigue = HT (12); 2 points cost 2, no HT roll, the log cites V-54."""
    table = fight(engine, HERO, FOE, "fatigue_on_ht")
    p = _spend(table, 2)
    assert (p["fp_after"], p["basis"], "record" in p, "cost" in p) == (10, "V-54", False, False)
    assert "V-54 (in place of G-51)" in table.explained(table.last("fatigue_spent").seq)


def test_V54_spending_fatigue_cites_v54s_reading_a51_not_a50(engine: Engine) -> None:
    """V-54 / A-51: Fatigue 12 -> 6 explains "(V-54 (in place of G-51), A-51)"; A-50 is V-53's reading."""
    table = fight(engine, HERO, FOE, "fatigue_on_ht")
    _spend(table, 6)
    text = table.explained(table.last("fatigue_spent").seq)
    assert "Fatigue 12 -> 6 of 12 (V-54 (in place of G-51), A-51)." in text
    assert "A-50" not in text


def test_v54_move_and_dodge_halve_at_3(engine: Engine) -> None:
    """V-54 / A-51: HT 8, Fatigue 4 -> 3: halved (Move 5 -> 3). G-51: FP 3 of 8 is not below 8/3: Move 5."""
    off = _at(fight(engine, FRAIL, FOE), 4)
    _spend(off, 1)
    assert combatant_view(off.state, "hero")["move"] == 5
    table = _at(fight(engine, FRAIL, FOE, "fatigue_on_ht"), 4)
    _spend(table, 1)
    assert (combatant_view(table.state, "hero")["move"], combatant_view(table.state, "hero")["tired"]) == (3, True)


def test_v54_collapse_at_1_is_outright(engine: Engine) -> None:
    """V-54: Fatigue 2 -> 1: collapsed; the turn becomes a forced Do Nothing citing V-54. G-51: FP 1, no collapse."""
    off = _at(fight(engine, HERO, FOE), 2)
    _spend(off, 1)
    assert off.cond("hero").collapsed is False and off.current == "hero"
    table = _at(fight(engine, HERO, FOE, "fatigue_on_ht"), 2)
    assert _spend(table, 1)["collapsed"] is True
    assert table.last("maneuver_chosen").payload["forced"] == "collapsed (V-54)" and table.current == "foe"


def test_v54_the_gm_setting_fatigue_sets_the_collapse(engine: Engine) -> None:
    """V-54: the collapse follows the level: the GM setting Fatigue 1 collapses the hero at once (its turn
    is a forced Do Nothing); setting 5 later lifts it."""
    table = _at(fight(engine, HERO, FOE, "fatigue_on_ht"), 1)
    assert table.cond("hero").collapsed is True and table.current == "foe"
    _at(table, 5)
    assert table.cond("hero").collapsed is False


def test_v54_a51_unconscious_at_0(engine: Engine) -> None:
    """A-51: out at 0 (G-51: at -FPmax). From 1, 1 point: V-54 unconscious; G-51 FP 0, a Will roll to act."""
    off = _at(fight(engine, HERO, FOE), 1)
    assert _spend(off, 1)["unconscious"] is False
    table = _at(fight(engine, HERO, FOE, "fatigue_on_ht"), 1)
    assert _spend(table, 1)["unconscious"] is True and table.cond("hero").unconscious is True
    assert "At 0: unconscious (V-54, A-51)" in table.explained(table.last("fatigue_spent").seq)


# ---------------------------------------------------------------------------------------------- V-53 against V-54


def test_v53_and_v54_exclude_each_other(engine: Engine) -> None:
    """V-53 and V-54 are two bases of one pool: asking for both is refused, naming the other, and no
    fight is created."""
    before = len(engine.store.fights())
    with pytest.raises(Rejected) as err:
        engine.create_fight("gurps", options={"fatigue_on_st": True, "fatigue_on_ht": True})
    assert err.value.code == "fight/option_conflict" and "fatigue_on_ht" in err.value.message
    assert len(engine.store.fights()) == before


def test_v53_against_v54_on_the_same_exertion(engine: Engine) -> None:
    """The same hero spends 2 then 2: V-53 starts at 15 and takes 3/2 each time (x15/10, halved by the
    roll): 12; V-54 starts at 12 and takes 2 each time: 8."""
    st_based = fight(engine, HERO, FOE, "fatigue_on_st")
    _spend(st_based, 2, [HT_BY_1])
    _spend(st_based, 2, [HT_BY_1])
    ht_based = fight(engine, HERO, FOE, "fatigue_on_ht")
    _spend(ht_based, 2)
    _spend(ht_based, 2)
    assert (st_based.cond("hero").fp, st_based.cond("hero").fp_exact) == (12, "")
    assert Fraction(ht_based.cond("hero").fp) == 8
