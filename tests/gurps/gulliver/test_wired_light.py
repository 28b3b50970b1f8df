"""GULLIVER's light levels (V-46, A-47) wired through the gurps ruleset (issue #11), on the real
engine (SQLite file and PostgreSQL): the GM sets the fight's light with ``set_light`` (an event
citing V-46); glare costs DX on attack and feint rolls, darkness costs attack and active-defence
rolls (unless ``darkness_penalties`` is vision_only); each fighter's eyes shift the level it sees.
Every test plays the same dice with the option on and off. Numbers worked by hand."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.describe import Viewer, to_json
from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.model import GM_ACTOR, Principal
from combat_server.server.views import DerivedCache

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, explained, fight

#: Club skill 14; DX 12, HT 12: Dodge 3 + Basic Speed 6 = 9.
HERO = {"st": 12, "dx": 12, "ht": 12, "weapons": [{"name": "club", "skill": 14, "damage": "1d", "damage_type": "cr"}]}
FOE = {"st": 10, "dx": 12, "ht": 12, "hp": 10}
PLAYER = Principal.of_seat("p1", "player", ("hero",))


def _lit(engine: Engine, level: str | None, *switches: str, hero: dict[str, Any] = HERO,
         foe: dict[str, Any] = FOE, **readings: Any) -> Table:
    table = fight(engine, hero, foe, *switches, **readings)
    if level is not None:
        table.send("set_light", {"level": level})
    return table


def _light_mods(record: dict[str, Any]) -> list[tuple[int, str, str]]:
    return [(m["value"], m["reason"], m["rule"]) for m in record["modifiers"] if m["rule"].startswith("V-46")]


def _attack(table: Table) -> dict[str, Any]:
    table.maneuver("hero", "attack", [TO_HIT], target="foe", weapon="club")
    return dict(table.last("attack_rolled").payload["record"])


def _dodge(table: Table) -> dict[str, Any]:
    """The hero attacks (3d 6 hits even in the dark) and the foe dodges with 3d 3: the defence roll's record."""
    table.maneuver("hero", "attack", [[2, 2, 2]], target="foe", weapon="club")
    table.defend("dodge", [[1, 1, 1]])
    return dict(table.last("defense_rolled").payload["record"])


# ---------------------------------------------------------------------------------------------- the command


def test_v46_the_gm_sets_the_light_as_an_event(engine: Engine) -> None:
    """V-46: set_light records light_changed {level, was}; the log's sentence says what it costs."""
    table = _lit(engine, None, "light_levels")
    table.send("set_light", {"level": "dark", "reason": "the torches burn out"})
    event = table.last("light_changed")
    assert dict(event.payload) == {"level": "dark", "was": "normal", "reason": "the torches burn out"}
    assert explained(table, "light_changed") == (
        "The GM sets the light to dark, was normal (the torches burn out): darkness -4 on Vision, attacks and "
        "active defences (A-47) (V-46).")
    assert table.state.combat.light == "dark"
    assert table.refold_matches()


def test_v46_the_light_set_before_combat_stays_when_it_starts(engine: Engine) -> None:
    """V-46: the GM may set the light while setting the fight up; start_combat keeps it, and a maneuver
    before the start is still refused as before (combat/not_started)."""
    table = Table(engine, engine.create_fight("gurps", dice_mode="manual", options={"light_levels": True}).fight_id)
    table.add("hero", HERO)
    table.add("foe", FOE, side="npc")
    table.send("set_light", {"level": "very dim"})
    with pytest.raises(Rejected) as err:
        table.maneuver("hero", "do_nothing")
    assert err.value.code == "combat/not_started"
    table.send("start_combat", {"order": ["hero", "foe"]})
    assert table.state.combat.light == "very dim"
    assert _light_mods(_attack(table)) == [(-2, "darkness very dim", "V-46, A-47")]


def test_v46_off_the_light_cannot_be_set(engine: Engine) -> None:
    """Without light_levels the command is refused (light/not_in_use) and nothing is appended."""
    table = _lit(engine, None)
    seq = table.state.seq
    with pytest.raises(Rejected) as err:
        table.send("set_light", {"level": "dark"})
    assert (err.value.code, err.value.details.get("field")) == ("light/not_in_use", "level")
    assert table.state.seq == seq


@pytest.mark.parametrize(("args", "code"), [({"level": "gloomy"}, "light/unknown_level"),
                                            ({"level": "normal"}, "light/unchanged")])
def test_v46_a_bad_level_is_refused(engine: Engine, args: dict[str, Any], code: str) -> None:
    """An unknown level names the known ones; setting the level in force changes nothing."""
    table = _lit(engine, None, "light_levels")
    with pytest.raises(Rejected) as err:
        table.send("set_light", args)
    assert err.value.code == code
    if code == "light/unknown_level":
        assert err.value.details["known"][0] == "blinding" and len(err.value.details["known"]) == 12


def test_v46_only_the_gm_sets_the_light(engine: Engine) -> None:
    table = _lit(engine, None, "light_levels")
    with pytest.raises(Rejected) as err:
        table.send("set_light", {"level": "dark"}, actor=PLAYER)
    assert err.value.code == "auth/gm_only"


# ---------------------------------------------------------------------------------------------- the rolls


@pytest.mark.parametrize(("level", "mods"), [
    ("very bright", [(-1, "light very bright: DX and IQ -1", "V-46")]),
    ("near-blinding", [(-4, "light near-blinding: DX and IQ -4", "V-46")]),
    ("dim", [(-1, "darkness dim", "V-46, A-47")]),
    ("very dark", [(-8, "darkness very dark", "V-46, A-47")]),
    ("slightly dim", []),
])
def test_v46_the_attack_roll_takes_the_light(engine: Engine, level: str, mods: list[tuple[int, str, str]]) -> None:
    """V-46: glare's DX penalty (very bright -1, near-blinding -4) and darkness (dim -1, very dark -8,
    A-47) on the attack: skill 14 plus them is the roll's target; slightly dim costs nothing."""
    record = _attack(_lit(engine, level, "light_levels"))
    assert _light_mods(record) == mods
    assert record["target"] == 14 + sum(m[0] for m in mods)


def test_v46_off_the_same_attack_takes_no_light(engine: Engine) -> None:
    """Off: the same dice, skill 14, no light modifier (the GM states darkness, G-35)."""
    record = _attack(_lit(engine, None))
    assert (_light_mods(record), record["target"]) == ([], 14)


def test_v46_an_active_defence_takes_the_darkness(engine: Engine) -> None:
    """A-47: the foe's Dodge 9 (Basic Speed 6 + 3) in the dark: -4, so 5."""
    record = _dodge(_lit(engine, "dark", "light_levels"))
    assert _light_mods(record) == [(-4, "darkness dark", "V-46, A-47")]
    assert record["target"] == 5


def test_v46_off_the_same_defence_takes_nothing(engine: Engine) -> None:
    record = _dodge(_lit(engine, None))
    assert (_light_mods(record), record["target"]) == ([], 9)


def test_v46_glare_costs_no_defence(engine: Engine) -> None:
    """V-46's DX penalty is on skill rolls (as G-47's shock), not on Dodge: harsh light leaves it at 9."""
    record = _dodge(_lit(engine, "harsh", "light_levels"))
    assert (_light_mods(record), record["target"]) == ([], 9)


def test_a47_vision_only_keeps_darkness_off_the_attack_and_the_defence(engine: Engine) -> None:
    """darkness_penalties vision_only (A-47, cfg): the dark costs neither the attack (14) nor the Dodge (9)."""
    table = _lit(engine, "dark", "light_levels", darkness_penalties="vision_only")
    record = _dodge(table)
    attack = table.last("attack_rolled").payload["record"]
    assert (attack["target"], record["target"]) == (14, 9)


def test_a47_vision_only_still_counts_glare(engine: Engine) -> None:
    """The reading is about darkness: harsh light's DX -2 still counts on the attack (12)."""
    record = _attack(_lit(engine, "harsh", "light_levels", darkness_penalties="vision_only"))
    assert record["target"] == 12


def test_v46_a_feint_takes_glare_not_darkness(engine: Engine) -> None:
    """V-46: a feint is a skill roll, so harsh light's DX -2 counts; darkness counts on attacks and
    defences (A-47), not on the feint."""
    harsh = _lit(engine, "harsh", "light_levels")
    harsh.maneuver("hero", "feint", [[3, 3, 3]], target="foe", weapon="club")
    assert _light_mods(harsh.last("feint_rolled").payload["record"]) == [(-2, "light harsh: DX and IQ -2", "V-46")]
    dark = _lit(engine, "dark", "light_levels")
    dark.maneuver("hero", "feint", [[3, 3, 3]], target="foe", weapon="club")
    assert _light_mods(dark.last("feint_rolled").payload["record"]) == []


def test_v46_total_darkness_is_blind_at_least_very_darks_penalty(engine: Engine) -> None:
    """V-46 prints "blind" and no number: the layer's reading gives at least very dark's -8 (14 -> 6)."""
    record = _attack(_lit(engine, "total darkness", "light_levels"))
    assert _light_mods(record) == [(-8, "darkness total darkness (blind)", "V-46, A-47")]
    assert record["target"] == 6


# ---------------------------------------------------------------------------------------------- eyes


def test_v46_full_night_vision_removes_the_darkness(engine: Engine) -> None:
    """V-46: Night Vision removes darkness penalties short of total darkness: very dark costs nothing."""
    hero = {**HERO, "eyes": {"night_vision": "full"}}
    record = _attack(_lit(engine, "very dark", "light_levels", hero=hero))
    assert (_light_mods(record), record["target"]) == ([], 14)


def test_v46_sunglasses_make_the_dim_darker(engine: Engine) -> None:
    """V-46: sunglasses take one level off: dim (-1) is seen as very dim (-2): 14 -> 12."""
    hero = {**HERO, "eyes": {"eyewear": 1}}
    record = _attack(_lit(engine, "dim", "light_levels", hero=hero))
    assert _light_mods(record) == [(-2, "darkness dim, seen as very dim", "V-46, A-47")]
    assert record["target"] == 12


def test_v46_light_sensitivity_turns_bright_into_harsh(engine: Engine) -> None:
    """V-46: Bad Sight (light sensitivity) makes bright two levels brighter: harsh, DX -2 (14 -> 12)."""
    hero = {**HERO, "eyes": {"light_sensitivity": 2}}
    record = _attack(_lit(engine, "bright", "light_levels", hero=hero))
    assert _light_mods(record) == [(-2, "light bright, seen as harsh: DX and IQ -2", "V-46")]


def test_v46_a_bad_eyes_field_is_refused(engine: Engine) -> None:
    """The eyes block is checked like every sheet field: sheet/bad_field naming eyes.<field>."""
    table = _lit(engine, None, "light_levels")
    with pytest.raises(Rejected) as err:
        table.send("update_combatant", {"id": "hero", "sheet": {**HERO, "eyes": {"eyewear": 3}}})
    assert (err.value.code, err.value.details["field"]) == ("sheet/bad_field", "eyes.eyewear")


# ---------------------------------------------------------------------------------------------- what every seat sees


def _description(table: Table, viewer: Viewer) -> dict[str, Any]:
    return to_json(GurpsRuleset().describe(table.state, viewer))


def test_v46_every_seat_sees_the_light_on_each_fighter(engine: Engine) -> None:
    """V-46: a player sees a badge per fighter with the light it sees and what it costs; only the GM
    gets the set_light action."""
    table = _lit(engine, "dark", "light_levels", hero={**HERO, "eyes": {"night_vision": "partial"}})
    player = _description(table, PLAYER)
    badges = {b["combatant"]: b for b in player["badges"] if b["rule"] == "V-46"}
    assert badges["hero"]["label"] == "light: dark, seen as very dim (darkness -2 on Vision, attacks and active " \
                                      "defences (A-47))"
    assert badges["foe"]["label"] == "light: dark (darkness -4 on Vision, attacks and active defences (A-47))"
    assert badges["foe"]["tone"] == "warn"
    assert "set_light" not in [a["id"] for a in player["actions"]]
    gm = _description(table, GM_ACTOR)
    action = next(a for a in gm["actions"] if a["id"] == "set_light")
    level = action["fields"][0]
    assert level["help"] == "Now: dark." and len(level["choices"]) == 11  # the one in force is no change
    assert "dark" not in [c["value"] for c in level["choices"]] and level["default"] != "dark"


def test_v46_the_light_in_force_is_not_offered_and_every_other_is_taken(engine: Engine) -> None:
    """V-46: setting the light already in force is refused (light/unchanged), so the GM's form leaves it out;
    each level it offers is accepted."""
    table = _lit(engine, "dark", "light_levels")
    for _ in range(3):
        action = next(a for a in _description(table, GM_ACTOR)["actions"] if a["id"] == "set_light")
        offered = [c["value"] for c in action["fields"][0]["choices"]]
        assert table.state.combat.light not in offered
        table.send("set_light", {"level": action["fields"][0]["default"]})


def test_v46_off_no_light_badge_or_action(engine: Engine) -> None:
    table = _lit(engine, None)
    gm = _description(table, GM_ACTOR)
    assert [b for b in gm["badges"] if b["rule"] == "V-46"] == []
    assert "set_light" not in [a["id"] for a in gm["actions"]]


# ---------------------------------------------------------------------------------------------- Vision rolls


def test_v46_a_vision_roll_run_for_a_fighter_takes_the_light_it_sees(engine: Engine) -> None:
    """V-46: the view gives each fighter's Vision penalty; the sense_roll tool run for a combatant
    prefills it: Per 10 near-blinding (-8 Vision) is 2; Night Blindness sees dark as very dark: -8."""
    table = _lit(engine, "near-blinding", "light_levels", foe={**FOE, "eyes": {"night_blindness": True}})
    assert GurpsRuleset().view_combatant(table.state, "hero")["light"] == {
        "level": "near-blinding", "seen": "near-blinding", "blind": False, "vision": -8}
    calc = engine.calculate(table.fight_id, GM_ACTOR, "sense_roll", {"sense": "vision"}, combatant="hero")
    assert calc["result"] == {"target": 2}
    table.send("set_light", {"level": "dark"})
    assert GurpsRuleset().view_combatant(table.state, "foe")["light"]["vision"] == -8


def test_v46_off_the_view_has_no_light_and_vision_is_per(engine: Engine) -> None:
    table = _lit(engine, None)
    assert "light" not in GurpsRuleset().view_combatant(table.state, "hero")
    calc = engine.calculate(table.fight_id, GM_ACTOR, "sense_roll", {"sense": "vision"}, combatant="hero")
    assert calc["result"] == {"target": 10}


def test_v46_the_servers_cached_views_follow_the_light(engine: Engine) -> None:
    """The server caches each combatant's view while the combatant is the same object; a new light
    level changes no combatant, so the ruleset's view_context (the level) makes it recompute:
    dim (Vision -1) then dark (-4) for the same hero."""
    table = _lit(engine, "dim", "light_levels")
    cache, ruleset = DerivedCache(), GurpsRuleset()
    state = table.state
    assert cache.views(ruleset, state)["hero"]["light"]["vision"] == -1
    darker = attrs.evolve(state, combat=attrs.evolve(state.combat, light="dark"))
    assert darker.combatants["hero"] is state.combatants["hero"]
    assert cache.views(ruleset, darker)["hero"]["light"] == {"level": "dark", "seen": "dark", "blind": False,
                                                              "vision": -4}


def _counter_blow(engine: Engine, *switches: str) -> dict[str, Any]:
    """The foe (DX 14) punches the hero (3d 6 hits), the hero parries with the club (3d 3) and strikes
    back (3d 9): the counter-blow's record (G-41)."""
    puncher = {**FOE, "dx": 14}  # punch at DX 14
    table = _lit(engine, "very dim" if switches else None, *switches, foe=puncher)
    table.maneuver("hero", "do_nothing")
    table.maneuver("foe", "attack", [[2, 2, 2]], target="hero", weapon="punch")
    table.defend("parry", [[1, 1, 1]], weapon="club")
    table.roll([3, 3, 3], "counter")
    return dict(table.last("counter_rolled").payload["record"])


def test_v46_the_parry_counter_blow_takes_the_darkness(engine: Engine) -> None:
    """G-41's counter-blow is an attack roll: very dim's -2 (V-46, A-47) on club skill 14: 12."""
    record = _counter_blow(engine, "light_levels")
    assert (_light_mods(record), record["target"]) == ([(-2, "darkness very dim", "V-46, A-47")], 12)


def test_v46_off_the_counter_blow_is_the_bare_skill(engine: Engine) -> None:
    record = _counter_blow(engine)
    assert (_light_mods(record), record["target"]) == ([], 14)
