"""GULLIVER V-01's Load ST for what a combatant carries (issue #11), on the real engine (SQLite file
and PostgreSQL): with ``combat_load_st`` on, Basic Lift for G-02's encumbrance level (so Move and
Dodge) and for V-52's Super-Heavy load comes from the ``gulliver`` block's Load ST (A-27); off, from
the sheet's ST, as before. Each test plays the same sheet with the option on and off; numbers
worked by hand."""

from __future__ import annotations

import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import fight

#: ST 10 (BL 20 lb) with Load ST 20 (BL 80 lb); DX 12, HT 12: Basic Speed 6, Basic Move 6, Dodge 9 unloaded.
HAULER = {"st": 10, "dx": 12, "ht": 12, "gulliver": {"load_st": 20},
          "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
#: 50 lb: Medium by ST 10 (<= 3 x 20), None by Load ST 20 (<= 1 x 80).
PACKED = {**HAULER, "carried": 50}
#: 250 lb: over 10 x BL 20 (Super-Heavy, V-52) by ST 10; Heavy by Load ST 20 (<= 6 x 80 = 480).
LADEN = {**HAULER, "carried": 250}
#: A ST 20 creature with Load ST 10 (a weak lifter): 50 lb is None by ST 20 (BL 80), Medium by Load ST 10.
WEAK_BACK = {**PACKED, "st": 20, "gulliver": {"load_st": 10}}
FOE = {"st": 10, "ht": 10, "hp": 10}


def _view(table: Table, cid: str = "hero") -> dict[str, object]:
    return dict(GurpsRuleset().view_combatant(table.state, cid))


def test_v01_encumbrance_comes_from_load_st(engine: Engine) -> None:
    """V-01, G-02: 50 lb carried. Off: BL 20, Medium (2): Move floor(6 x 3/5) = 3, Dodge 9 - 2 = 7.
    On: Load ST 20, BL 80, None (0): Move 6, Dodge 9; the view names Load ST and V-01."""
    off = _view(fight(engine, PACKED, FOE))
    on = _view(fight(engine, PACKED, FOE, "combat_load_st"))
    assert [off[k] for k in ("basic_lift", "encumbrance", "encumbrance_name", "move", "dodge")] == \
        ["20", 2, "Medium", 3, 7]
    assert [on[k] for k in ("basic_lift", "encumbrance", "encumbrance_name", "move", "dodge")] == \
        ["80", 0, "None", 6, 9]
    assert on["load_st"] == {"st": 20, "rule": "V-01"} and "load_st" not in off


def test_v01_a_lower_load_st_encumbers_more(engine: Engine) -> None:
    """V-01 the other way: ST 20 with Load ST 10 carrying 50 lb. Off: BL 80, None: Move 6. On: BL 20,
    Medium: Move 3, Dodge 7."""
    off = _view(fight(engine, WEAK_BACK, FOE))
    on = _view(fight(engine, WEAK_BACK, FOE, "combat_load_st"))
    assert (off["encumbrance"], off["move"]) == (0, 6)
    assert (on["encumbrance"], on["move"], on["dodge"], on["basic_lift"]) == (2, 3, 7, "20")


def test_v01_a_move_maneuver_allows_the_load_st_move(engine: Engine) -> None:
    """V-01, G-20: a Move of 5 yd under 50 lb: off, Move 3 refuses it (maneuver/too_far, nothing
    recorded); on, Move 6 allows it."""
    off = fight(engine, PACKED, FOE)
    before = len(off.engine.store.events(off.fight_id))
    with pytest.raises(Rejected) as err:
        off.maneuver("hero", "move", yards=5)
    assert err.value.code == "maneuver/too_far" and "allows 3 yd" in err.value.message
    assert len(off.engine.store.events(off.fight_id)) == before
    on = fight(engine, PACKED, FOE, "combat_load_st")
    on.maneuver("hero", "move", yards=5)
    assert on.cond("hero").moved == 5


def test_v01_the_defence_offered_is_the_load_st_dodge(engine: Engine) -> None:
    """V-01, G-39: the foe attacks the loaded hero; the Dodge offered is 9 (no encumbrance by Load ST 20),
    7 with the option off (Medium by ST 10)."""
    dodges = {}
    for name, switches in (("off", ()), ("on", ("combat_load_st",))):
        table = fight(engine, FOE | {"dx": 10, "weapons": [{"name": "fist", "skill": 14, "damage": "1d-2",
                                                             "damage_type": "cr"}]}, PACKED, *switches)
        table.maneuver("hero", "attack", [[3, 4, 4]], target="foe", weapon="fist")
        dodges[name] = table.prompt("defend").options["dodge"]["target"]
    assert dodges == {"off": 7, "on": 9}


def test_v01_the_card_shows_encumbrance_by_load_st(engine: Engine) -> None:
    """V-01 on the card: "Encumbrance 0" citing V-01 "by Load ST 20 (Basic Lift 80 lb)"; off, "2"
    citing G-02 as before."""
    def stat(table: Table) -> tuple[str, str, str]:
        d = GurpsRuleset().describe(table.state, GM_ACTOR)
        s = next(s for s in d.stats if s.combatant == "hero" and s.label == "Encumbrance")
        return s.value, s.rule, s.help
    assert stat(fight(engine, PACKED, FOE)) == ("2", "G-02", "")
    assert stat(fight(engine, PACKED, FOE, "combat_load_st")) == ("0", "V-01", "by Load ST 20 (Basic Lift 80 lb)")


def test_v01_load_st_decides_v52s_super_heavy_load(engine: Engine) -> None:
    """V-01 with V-52: 250 lb standing still. By ST 10 it is over 10 x BL 20: Super-Heavy, 1 fatigue
    for the turn. By Load ST 20 it is Heavy (<= 6 x 80): no standing cost, and 2 points of exertion
    cost 2 x 5/2 = 5 (Move x2/5)."""
    off = fight(engine, LADEN, FOE, "encumbrance_fatigue")
    off.maneuver("hero", "do_nothing")
    assert off.last("fatigue_spent").payload["rule"] == "V-52" and off.cond("hero").fp == 11
    on = fight(engine, LADEN, FOE, "encumbrance_fatigue", "combat_load_st")
    on.maneuver("hero", "do_nothing")
    assert not on.events("fatigue_spent") and on.cond("hero").fp == 12
    on.send("spend_fatigue", {"combatant": "hero", "points": 2})
    p = on.last("fatigue_spent").payload
    assert (p["cost"], p["fp_after"], p["steps"]) == ("5", 7, ["x5/2 for Heavy encumbrance (V-52)"])


def test_v01_a_typed_in_encumbrance_level_stays_as_typed(engine: Engine) -> None:
    """G-02: a sheet that types its level (no weight carried) keeps it with Load ST on: Light (1)."""
    view = _view(fight(engine, {**HAULER, "encumbrance": 1}, FOE, "combat_load_st"))
    assert (view["encumbrance"], view["move"]) == (1, 4)


def test_v01_the_lifting_tool_prefills_load_st(engine: Engine) -> None:
    """V-01, G-08: the lifting tool run for the hauler (the GM names the combatant, types only the weight)
    reads Load ST 20 from the view with the option on, the sheet's ST 10 off."""
    for switches, st in (((), 10), (("combat_load_st",), 20)):
        table = fight(engine, HAULER, FOE, *switches)
        calc = engine.calculate(table.fight_id, GM_ACTOR, "lifting", {"weight": 100}, combatant="hero")
        assert calc["inputs"]["st"] == st


def test_the_falling_tool_prefills_the_size_blocks_typed_mass(engine: Engine) -> None:
    """A-27: a creature whose size block types its mass (300 lb) gets it in the falling tool's form; the
    tool then needs only the height and the surface (its HPmax, 10, is prefilled too)."""
    ox = {**FOE, "gulliver": {"mass_lb": 300}}
    table = fight(engine, HAULER, ox)
    calc = engine.calculate(table.fight_id, GM_ACTOR, "falling", {"height": 3, "surface": "stone"}, combatant="foe")
    assert (calc["inputs"]["mass"], calc["inputs"]["hp_max"]) == (300, 10)
