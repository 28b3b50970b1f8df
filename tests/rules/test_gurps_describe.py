"""describe(state, viewer) for GURPS (#9, describe): what a seat can do now, as data, with
the catalogue's rules and hand-checked numbers.

Sheets: DX 10, HT 10 gives Basic Speed 5, so Dodge 8 (G-39); broadsword skill 12
parries at 3 + 12/2 = 9 (G-41); shield skill 12 blocks at 9 (G-40).
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from combat_server.rules.describe import Action, Description, to_json
from combat_server.rules.model import GM_ACTOR, FightState, Principal
from combat_server.rules.ruleset import get_ruleset
from tests.rules.gurps_helpers import Fight, d3

NewFight = Callable[..., Fight]

SWORD = {"name": "broadsword", "skill": 12, "damage": "sw+1", "damage_type": "cut"}
BOW = {"name": "bow", "kind": "ranged", "skill": 12, "damage": "1d+1", "damage_type": "imp", "acc": 2,
       "max_range": 150, "parry": None}
PLAYER_A = Principal.of_seat("seat-a", "player", ("a",))
PLAYER_B = Principal.of_seat("seat-b", "player", ("b",))
SPECTATOR = Principal.of_seat("seat-s", "spectator")


def _describe(state: FightState, viewer: Any = GM_ACTOR) -> Description:
    return get_ruleset("gurps").describe(state, viewer)


def _action(d: Description, action_id: str) -> Action:
    found = [a for a in d.actions if a.id == action_id]
    assert found, f"no action {action_id}: {[a.id for a in d.actions]}"
    return found[0]


def _choices(action: Action, field: str) -> list[Any]:
    return [c.value for f in action.fields if f.name == field for c in f.choices]


def test_the_seat_whose_combatant_acts_gets_the_maneuvers_others_get_none(new_fight: NewFight) -> None:
    """G-19, G-20: only the current combatant's seat (or the GM) chooses a maneuver."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    state = f.engine.load(f.fid)
    mine = _describe(state, PLAYER_A)
    assert {a.id for a in mine.actions} >= {"attack", "all_out_attack", "move_and_attack", "feint",
                                            "all_out_defense", "evaluate", "move", "change_posture",
                                            "concentrate", "wait", "do_nothing"}
    assert all(a.command == "maneuver" and a.args["combatant"] == "a" for a in mine.actions)
    assert _describe(state, PLAYER_B).actions == ()
    assert _describe(state, SPECTATOR).actions == ()
    assert [a.id for a in _describe(state, GM_ACTOR).actions] == [a.id for a in mine.actions] + ["fright_check"]


def test_aim_needs_a_ready_ranged_or_thrown_weapon(new_fight: NewFight) -> None:
    """G-21: Aim is offered only with a ranged or thrown weapon, and lists only those."""
    melee = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    assert "aim" not in {a.id for a in _describe(melee.engine.load(melee.fid)).actions}
    archer = new_fight({"a": {"weapons": [BOW]}, "b": {}})
    d = _describe(archer.engine.load(archer.fid))
    assert _choices(_action(d, "aim"), "weapon") == ["bow"]


def test_a_feint_offers_only_melee_weapons(new_fight: NewFight) -> None:
    """G-30: a Feint needs a melee weapon: the archer feints with the punch only."""
    f = new_fight({"a": {"weapons": [BOW]}, "b": {}})
    d = _describe(f.engine.load(f.fid))
    assert _choices(_action(d, "feint"), "weapon") == ["punch"]
    assert _choices(_action(d, "attack"), "weapon") == ["bow", "punch"]


def test_a_weapon_that_needs_a_ready_is_not_offered_to_attack_but_to_ready(new_fight: NewFight) -> None:
    """G-33: an unready weapon cannot attack; Ready lists it."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    state = f.engine.load(f.fid).with_condition("a", unready=("broadsword",))
    d = _describe(state)
    assert _choices(_action(d, "attack"), "weapon") == ["punch"]
    assert _choices(_action(d, "ready"), "weapon") == ["broadsword"]


def test_weapon_choices_carry_their_skill_and_damage(new_fight: NewFight) -> None:
    """G-42: ST 10 swings for 1d, so sw+1 is 1d+1 cut (the formula shown with what it comes to, #14 item 4)."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    weapon = next(fl for fl in _action(_describe(f.engine.load(f.fid)), "attack").fields if fl.name == "weapon")
    assert weapon.choices[0].label == "broadsword (skill 12, sw+1 = 1d+1 cut)"


def test_a_ranged_weapon_adds_a_range_field_only_for_it(new_fight: NewFight) -> None:
    f = new_fight({"a": {"weapons": [BOW, SWORD]}, "b": {}})
    attack = _action(_describe(f.engine.load(f.fid)), "attack")
    rng = next(fl for fl in attack.fields if fl.name == "range")
    assert dict(rng.when) == {"weapon": ("bow",)} and rng.type == "integer"


def test_targets_are_the_living_others_foes_first(new_fight: NewFight) -> None:
    f = new_fight({"a": {}, "b": {}, "c": {}, "d": {}})
    f.adjust("c", dead=True)
    state = f.engine.load(f.fid)
    assert _choices(_action(_describe(state), "attack"), "target") == ["b", "d"]


def test_increased_block_needs_a_shield(new_fight: NewFight) -> None:
    """G-24 with G-40: no shield, no Increased Block."""
    plain = new_fight({"a": {}, "b": {}})
    assert "increased_block" not in _choices(_action(_describe(plain.engine.load(plain.fid)), "all_out_defense"), "option")
    shielded = new_fight({"a": {"shield_skill": 12}, "b": {}})
    assert "increased_block" in _choices(_action(_describe(shielded.engine.load(shielded.fid)), "all_out_defense"),
                                         "option")


def test_all_out_attack_options_follow_the_weapons(new_fight: NewFight) -> None:
    """G-22 for melee; G-23: Suppression Fire only with RoF 5+."""
    f = new_fight({"a": {"weapons": [BOW]}, "b": {}})
    opts = _choices(_action(_describe(f.engine.load(f.fid)), "all_out_attack"), "option")
    assert opts == ["determined", "double", "feint", "strong"]  # the punch is melee; the bow has RoF 1
    g = new_fight({"a": {"weapons": [{**BOW, "name": "smg", "rof": 10}]}, "b": {}})
    assert "suppression" in _choices(_action(_describe(g.engine.load(g.fid)), "all_out_attack"), "option")


def test_change_posture_offers_one_step(new_fight: NewFight) -> None:
    """G-26: from lying prone one gets up to crawling, kneeling or sitting, not straight to standing."""
    f = new_fight({"a": {}, "b": {}})
    state = f.engine.load(f.fid).with_condition("a", posture="prone")
    assert _choices(_action(_describe(state), "change_posture"), "posture") == ["crawling", "kneeling", "sitting",
                                                                                "face_up"]


def test_move_and_attack_allows_full_move(new_fight: NewFight) -> None:
    """G-32: full Move; Basic Move 5 for DX 10, HT 10."""
    f = new_fight({"a": {}, "b": {}})
    yards = next(fl for fl in _action(_describe(f.engine.load(f.fid)), "move_and_attack").fields if fl.name == "yards")
    assert (yards.minimum, yards.maximum) == (0, 5)


def test_the_defender_gets_ready_made_defences_with_their_numbers(new_fight: NewFight) -> None:
    """G-38..G-41: Dodge 8, Parry 9 (broadsword), Block 9, or no defence (no punch: sword and shield
    fill both hands, G-41); the attacker's seat gets no prompt."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {"weapons": [SWORD], "shield_skill": 12, "shield_name": "shield"}})
    f.maneuver("a", "attack", [d3(8)], target="b", weapon="broadsword")
    state = f.engine.load(f.fid)
    d = _describe(state, PLAYER_B)
    (prompt,) = d.prompts
    assert prompt.kind == "defend" and prompt.combatant == "b"
    assert [a.label for a in prompt.answers] == ["Dodge 8", "Parry 9 (broadsword)", "Block 9", "No defence"]
    assert [a.number for a in prompt.answers] == [8, 9, 9, None]
    assert dict(prompt.answers[1].args) == {"prompt": prompt.id, "defense": "parry", "weapon": "broadsword"}
    assert prompt.answers[1].rule == "G-41" and prompt.answers[0].dice == "3d6"
    assert _describe(state, PLAYER_A).prompts == ()
    assert d.actions == () and "Waiting for B" in d.waiting_for


def test_a_stunned_defender_sees_the_penalty_in_the_number(new_fight: NewFight) -> None:
    """G-48: stunned, -4 to every active defence: Dodge 8 becomes 4."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    f.adjust("b", stunned=True)
    f.maneuver("a", "attack", [d3(8)], target="b", weapon="broadsword")
    (prompt,) = _describe(f.engine.load(f.fid), PLAYER_B).prompts
    assert prompt.answers[0].label == "Dodge 4"
    assert "-4 stunned (G-48)" in prompt.answers[0].help


def test_the_hp_bar_marks_reeling_unconsciousness_and_death(new_fight: NewFight) -> None:
    """G-43: below a third of 12 HP is 3 or less; G-44 at 0; G-45 at -12 and dead at -60."""
    f = new_fight({"a": {"st": 12}, "b": {}})
    f.adjust("a", hp=7)
    bar = next(b for b in _describe(f.engine.load(f.fid)).bars if b.combatant == "a" and b.name == "hp")
    assert (bar.value, bar.max, bar.rule) == (7, 12, "G-43")
    assert [(t.at_most, t.rule) for t in bar.thresholds] == [(3, "G-43"), (0, "G-44"), (-12, "G-45"), (-60, "G-45")]


def test_badges_show_all_out_attack_and_reeling(new_fight: NewFight) -> None:
    """G-22: after an All-Out Attack, no defence until the next turn; G-43 reeling at 3 of 12 HP."""
    f = new_fight({"a": {"st": 12, "weapons": [SWORD]}, "b": {}})
    f.adjust("a", hp=3)
    f.maneuver("a", "all_out_attack", [d3(17)], target="b", weapon="broadsword", option="determined")
    badges = {(b.label, b.rule) for b in _describe(f.engine.load(f.fid)).badges if b.combatant == "a"}
    assert ("All-Out Attack (Determined): no defence (G-22)", "G-22") in badges
    assert ("reeling", "G-43") in badges


def test_a_hidden_combatants_numbers_reach_only_the_gm_and_its_controller(new_fight: NewFight) -> None:
    f = new_fight({"a": {}, "b": {"st": 14}})
    f.run("update_combatant", {"id": "b", "hidden": True})
    f.adjust("b", hp=3)
    state = f.engine.load(f.fid)
    for viewer, sees in ((PLAYER_A, False), (SPECTATOR, False), (PLAYER_B, True), (GM_ACTOR, True)):
        d = _describe(state, viewer)
        text = str(to_json(d))
        assert ("3/14" in text) is sees  # HP 3 of 14 (the summary)
        assert any(b.combatant == "b" and b.label == "reeling" for b in d.badges) is sees  # G-43: a number in words
        assert any(b.combatant == "b" for b in d.bars) is sees
        assert next(s.text for s in d.summaries if s.combatant == "b").startswith("B (NPC)")


def test_a_waiting_combatants_seat_can_trigger_the_wait_on_anothers_turn(new_fight: NewFight) -> None:
    """G-34: the Wait fires during another's turn, with its action's fields."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    f.maneuver("a", "wait", trigger="b steps in", action="attack")
    state = f.engine.load(f.fid)
    assert state.combat.current == "b"
    d = _describe(state, PLAYER_A)
    (fire,) = d.actions
    assert (fire.id, fire.command, dict(fire.args)) == ("trigger_wait:a", "trigger_wait", {"combatant": "a"})
    assert _choices(fire, "target") == ["b"]


def test_the_gm_may_start_combat_in_setup(rules_engine: Any) -> None:
    fid = rules_engine.create_fight("gurps", dice_mode="manual").fight_id
    f = Fight(rules_engine, fid)
    assert _describe(f.engine.load(fid)).actions == ()
    f.run("add_combatant", {"name": "A", "id": "a", "side": "pc", "sheet": {}})
    state = f.engine.load(fid)
    assert [a.id for a in _describe(state).actions] == ["start_combat"]
    assert _describe(state, PLAYER_A).actions == ()


def test_the_description_is_plain_json(new_fight: NewFight) -> None:
    import json

    f = new_fight({"a": {"weapons": [SWORD, BOW]}, "b": {}})
    data = to_json(_describe(f.engine.load(f.fid)))
    assert json.loads(json.dumps(data)) == data
    assert attrs.has(Description)


def test_a_reeling_fighter_is_offered_half_its_move(new_fight: NewFight) -> None:
    """G-43: below a third of HP, Move is halved rounding up: 5 -> 3 (the description follows at once)."""
    f = new_fight({"a": {}, "b": {}})
    before = _action(_describe(f.engine.load(f.fid)), "move")
    f.adjust("a", hp=3)
    after = _action(_describe(f.engine.load(f.fid)), "move")
    assert (before.fields[0].maximum, after.fields[0].maximum) == (5, 3)


def test_the_encoded_description_is_its_json(new_fight: NewFight) -> None:
    """rules/describe.py: encode (with its per-object text cache) gives the same JSON as to_json."""
    import json

    from combat_server.rules.describe import encode, fields_of

    def dumps(value: Any) -> str:
        return json.dumps(value, default=fields_of)

    f = new_fight({"a": {"weapons": [SWORD, BOW]}, "b": {"weapons": [SWORD]}})
    for viewer in (GM_ACTOR, PLAYER_A, PLAYER_B, SPECTATOR):
        d = _describe(f.engine.load(f.fid), viewer)
        assert json.loads(encode(d, dumps)) == to_json(d)
    f.maneuver("a", "attack", [d3(8)], target="b", weapon="broadsword")
    d = _describe(f.engine.load(f.fid), PLAYER_B)
    assert json.loads(encode(d, dumps)) == to_json(d) and d.prompts


def test_every_maneuver_has_its_words() -> None:
    """Each of the thirteen maneuvers (G-20) is described, none invented."""
    from combat_server.rules.gurps import maneuvers
    from combat_server.rules.gurps.describe import MANEUVER_TEXT

    assert set(MANEUVER_TEXT) == set(maneuvers.MANEUVERS)


def test_the_short_forms_a_terminal_accepts_are_declared_as_aliases(new_fight: NewFight) -> None:
    """#9 Generic clients: GURPS declares its usual short forms (aoa, aod, dodge for Increased Dodge)
    in the description; an action or choice without any sends no aliases key."""
    import json

    from combat_server.rules.describe import encode, fields_of

    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    d = _describe(f.engine.load(f.fid))
    assert _action(d, "all_out_attack").aliases == ("aoa",)
    aod = _action(d, "all_out_defense")
    assert aod.aliases == ("aod",)
    assert {c.value: c.aliases for c in aod.fields[0].choices}["increased_dodge"] == ("dodge",)
    data = to_json(d)
    by_id = {a["id"]: a for a in data["actions"]}
    assert by_id["all_out_defense"]["aliases"] == ["aod"] and "aliases" not in by_id["attack"]
    assert json.loads(encode(d, lambda o: json.dumps(o, default=fields_of, separators=(",", ":")))) == data


def test_a_hidden_feinters_penalty_is_in_the_number_but_not_named_in_the_help(new_fight: NewFight) -> None:
    """G-30 with #15 (hidden sheets): the defender rolls against the true number, but the help of its
    answers neither names the hidden feinter nor gives its margin; the GM's help spells it out."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    f.run("update_combatant", {"id": "a", "hidden": True})
    f.maneuver("a", "feint", [d3(6)], target="b", weapon="broadsword")
    f.roll("feint_resist", [d3(14)])
    f.pass_turn("b")
    f.maneuver("a", "attack", [d3(8)], target="b", weapon="broadsword")
    state = f.engine.load(f.fid)
    (mine,) = _describe(state, PLAYER_B).prompts
    (gms,) = _describe(state, GM_ACTOR).prompts
    assert [a.number for a in mine.answers] == [a.number for a in gms.answers]
    assert mine.answers[0].label == gms.answers[0].label and mine.answers[0].number < 8
    assert "feinted by A (G-30)" in gms.answers[0].help
    assert "feinted" not in mine.answers[0].help and "G-30" not in mine.answers[0].help
    assert f"-{8 - mine.answers[0].number}" not in mine.answers[0].help


def test_the_summary_lists_the_weapons_with_skill_and_damage_to_those_who_see_the_sheet(
        new_fight: NewFight) -> None:
    """The web page's stats line is the summary: ST 12 swings 1d+2, +1 for the broadsword;
    the punch every fighter has is not listed; a hidden sheet's weapons reach only its seats."""
    f = new_fight({"a": {"st": 12, "weapons": [SWORD, BOW]}, "b": {}})
    line = next(s.text for s in _describe(f.engine.load(f.fid), PLAYER_B).summaries if s.combatant == "a")
    assert line.endswith(" · broadsword 12, 1d+3; bow 12, 1d+1")
    assert "punch" not in line
    bare = next(s.text for s in _describe(f.engine.load(f.fid), PLAYER_A).summaries if s.combatant == "b")
    assert "·" not in bare
    f.run("update_combatant", {"id": "a", "hidden": True})
    hidden = next(s.text for s in _describe(f.engine.load(f.fid), PLAYER_B).summaries if s.combatant == "a")
    assert "broadsword" not in hidden


def test_the_gm_may_call_for_a_fright_check_of_anyone_conscious(new_fight: NewFight) -> None:
    """G-18: the GM's description offers the Fright Check (who, a modifier, what happens); a player's
    does not; the unconscious are not offered, and the action's args are a command the rules take."""
    f = new_fight({"a": {}, "b": {}, "c": {}})
    f.adjust("c", unconscious=True)
    state = f.engine.load(f.fid)
    assert "fright_check" not in {a.id for a in _describe(state, PLAYER_A).actions}
    fright = _action(_describe(state, GM_ACTOR), "fright_check")
    assert fright.combatant is None and fright.rules == ("G-18",)
    assert _choices(fright, "combatant") == ["a", "b"]
    assert [(f_.name, f_.type) for f_ in fright.fields] == [("combatant", "choice"), ("modifier", "integer"),
                                                          ("reason", "text")]
    f.run(fright.command, {**fright.args, "combatant": "b", "modifier": -2, "reason": "the troll roars"})
    assert f.prompt("roll", "fright").combatant == "b"


def test_when_nobody_can_act_the_gm_is_told_so_and_offered_to_end_or_undo(rules_engine: Any) -> None:
    """G-19, G-51 (V-53, V-48): the last able fighter collapses from Extra Effort at the end of her turn while
    the other is unconscious; no next turn starts. The GM's description says nobody can act (not that she is
    to choose a maneuver) and offers End fight and Undo, each taken by the rules; a player is offered nothing."""
    fight = rules_engine.create_fight("gurps", dice_mode="manual",
                                      options={"fatigue_on_st": True, "effort_heat_fatigue": True})
    f = Fight(rules_engine, fight.fight_id)
    for cid, side in (("a", "pc"), ("b", "npc")):
        f.run("add_combatant", {"name": cid.upper(), "id": cid, "side": side, "sheet": {"st": 12}})
    f.run("start_combat", {"order": ["a", "b"]})
    f.adjust("b", unconscious=True)
    f.adjust("a", fp=2)
    f.maneuver("a", "move", [d3(18)], extra_effort=True)  # V-48: the fatigue it costs leaves her collapsed
    state = f.engine.load(f.fid)
    assert state.combat is not None and state.combat.phase == "between"
    d = _describe(state, GM_ACTOR)
    assert d.waiting_for.startswith("Nobody can act") and "choose a maneuver" not in d.waiting_for
    assert {a.id for a in d.actions} >= {"end_fight", "undo"}
    assert _describe(state, PLAYER_A).actions == ()
    undo = _action(d, "undo")
    f.run(undo.command, dict(undo.args))
    assert f.engine.load(f.fid).combat.phase == "maneuver"  # back before the Extra Effort
    f.maneuver("a", "move", [d3(18)], extra_effort=True)
    end = _action(_describe(f.engine.load(f.fid), GM_ACTOR), "end_fight")
    f.run(end.command, {**end.args, "reason": "nobody stands"})
    assert f.engine.load(f.fid).status == "ended"


def test_with_nobody_alive_to_strike_no_maneuver_that_needs_a_target_is_offered(new_fight: NewFight) -> None:
    """G-25, G-21, G-29, G-30: with every other combatant dead, Attack, All-Out Attack, Move and Attack, Feint,
    Aim and Evaluate would have an empty Target to fill (the rules refuse them without one): none is offered."""
    f = new_fight({"a": {"weapons": [SWORD, BOW]}, "b": {}})
    state = f.engine.load(f.fid).with_condition("b", dead=True)
    offered = {a.id for a in _describe(state).actions}
    assert offered.isdisjoint({"attack", "all_out_attack", "move_and_attack", "feint", "aim", "evaluate"})
    assert {"move", "all_out_defense", "do_nothing", "wait"} <= offered


def test_a_wait_declared_as_all_out_attack_feint_fires_only_with_a_melee_weapon(new_fight: NewFight) -> None:
    """G-34, G-22, G-23: the option of an All-Out Attack a Wait converts to is declared in advance; a ranged
    All-Out Attack is Determined or Suppression only, so the trigger offers the melee weapons, not the bow."""
    f = new_fight({"a": {"weapons": [SWORD, BOW]}, "b": {}})
    f.maneuver("a", "wait", trigger="b steps in", action="all_out_attack", wait_option="feint")
    fire = _action(_describe(f.engine.load(f.fid), PLAYER_A), "trigger_wait:a")
    assert _choices(fire, "weapon") == ["broadsword", "punch"]


def test_a_step_into_a_posture_hides_the_yards_to_move(new_fight: NewFight) -> None:
    """G-26: kneeling up to standing is the step of the maneuver, which leaves no yards to move (the rules
    refuse both with maneuver/too_far): the yards apply only while the posture stays as it is."""
    f = new_fight({"a": {"weapons": [SWORD]}, "b": {}})
    state = f.engine.load(f.fid).with_condition("a", posture="kneeling")
    fields = [(fl.name, dict(fl.when)) for fl in _action(_describe(state), "concentrate").fields]
    assert fields[-2:] == [("posture", {}), ("yards", {"posture": (None,)})]


def test_all_out_attack_opens_each_weapon_only_for_the_options_it_allows(new_fight: NewFight) -> None:
    """G-22, G-23: a ranged All-Out Attack is Determined (or Suppression) only, so the bow is open only with
    Determined; the punch takes every melee option. Each offered pair is accepted by the rules."""
    f = new_fight({"a": {"weapons": [BOW]}, "b": {}})
    aoa = _action(_describe(f.engine.load(f.fid)), "all_out_attack")
    weapon = next(fl for fl in aoa.fields if fl.name == "weapon")
    assert [(c.value, dict(c.when)) for c in weapon.choices] == [("bow", {"option": ("determined",)}),
                                                                 ("punch", {})]
    wire = next(a for a in to_json(_describe(f.engine.load(f.fid)))["actions"] if a["id"] == "all_out_attack")
    assert [c.get("when") for fl in wire["fields"] if fl["name"] == "weapon" for c in fl["choices"]] == \
        [{"option": ["determined"]}, None]  # sent only when set
    f.maneuver("a", "all_out_attack", [d3(8)], target="b", weapon="bow", option="determined", range=5)


def test_a_wait_that_converts_to_a_feint_asks_only_what_a_feint_takes(rules_engine: Any) -> None:
    """G-34, G-30, A-24: with hit locations on, an attack's form has a location; a Feint takes only the target
    and the weapon (the rules refuse a location with command/unknown_field), so its trigger asks nothing else."""
    f = Fight(rules_engine, rules_engine.create_fight("gurps", dice_mode="manual",
                                                      options={"hit_locations": True}).fight_id)
    for cid, side in (("a", "pc"), ("b", "npc")):
        f.run("add_combatant", {"name": cid.upper(), "id": cid, "side": side, "sheet": {"weapons": [SWORD]}})
    f.run("start_combat", {"order": ["a", "b"]})
    f.maneuver("a", "wait", trigger="b steps in", action="feint")
    fire = _action(_describe(f.engine.load(f.fid), PLAYER_A), "trigger_wait:a")
    assert [fl.name for fl in fire.fields] == ["target", "weapon"]
