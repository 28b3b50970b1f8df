"""Turn flow, injury consequences and audit text (G-19, G-36..G-51, R-05, R-06, R-21)."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected
from combat_server.rules.model import GM_ACTOR, Principal, Command

from .conftest import ARCHER, KNIGHT, ORC, Table


def test_turn_order_by_basic_speed(table: Table) -> None:
    """G-19: the faster combatant acts first (Basic Speed (DX+HT)/4)."""
    table.add("slow", {"dx": 10, "ht": 10})
    table.add("fast", {"dx": 12, "ht": 12})
    table.send("start_combat")
    assert table.state.combat.order == ("fast", "slow")


def test_pc_tie_broken_by_dx(table: Table) -> None:
    """G-19/A-10: tied Basic Speed with a PC involved: higher DX first."""
    table.add("a", {"dx": 10, "ht": 12})
    table.add("b", {"dx": 12, "ht": 10})
    table.send("start_combat")
    assert table.state.combat.order == ("b", "a")


def test_remaining_tie_is_rolled_off_higher_first(table: Table) -> None:
    """R-21: still tied: each rolls 3d, higher goes first; the rolls are in the event."""
    table.add("a", {"dx": 11, "ht": 11}, side="npc")
    table.add("b", {"dx": 11, "ht": 11}, side="npc")
    table.send("start_combat", faces=[[1, 2, 3], [6, 6, 6]])
    assert table.state.combat.order == ("b", "a")
    assert table.last("combat_started").payload["roll_offs"][0]["rule"] == "R-21"


def test_tied_roll_off_rerolls(table: Table) -> None:
    """R-21: a tied roll-off is rolled again among those still tied."""
    table.add("a", {"dx": 11, "ht": 11}, side="npc")
    table.add("b", {"dx": 11, "ht": 11}, side="npc")
    table.send("start_combat", faces=[[3, 3, 3], [3, 3, 3], [6, 6, 6], [1, 1, 1]])
    assert table.state.combat.order == ("a", "b")


def test_gm_may_set_the_order(table: Table) -> None:
    """A-10: the GM's explicit order is recorded as it was given."""
    table.add("a", {"dx": 14})
    table.add("b", {"dx": 8})
    table.send("start_combat", {"order": ["b", "a"]})
    assert table.state.combat.order == ("b", "a")
    assert table.last("combat_started").payload["explicit"] is True


def test_players_cannot_start_combat(table: Table) -> None:
    """G-19: only the GM starts combat time."""
    table.add("a", {})
    table.add("b", {})
    with pytest.raises(Rejected) as err:
        table.send("start_combat", actor=Principal.of_seat("p1", "player", ("a",)))
    assert err.value.code == "auth/gm_only"


def test_player_acts_only_for_own_combatant(duel: Table) -> None:
    """Seats: a player commands only the combatants bound to its seat."""
    orc_player = Principal.of_seat("p2", "player", ("orc",))
    with pytest.raises(Rejected) as err:
        duel.send("maneuver", {"combatant": "knight", "maneuver": "do_nothing"}, actor=orc_player)
    assert err.value.code == "auth/not_your_combatant"


def test_only_the_defender_answers_the_defence_prompt(duel: Table) -> None:
    """Prompts name who must answer: the knight's player cannot defend for the orc."""
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    knight_player = Principal.of_seat("p1", "player", ("knight",))
    with pytest.raises(Rejected) as err:
        duel.send("defend", {"prompt": duel.prompt("defend").id, "defense": "dodge"}, [[3, 3, 3]], actor=knight_player)
    assert err.value.code == "auth/not_your_prompt"


def test_shock_applies_on_the_victims_next_turn_only(duel: Table) -> None:
    """G-47: shock is in force during the victim's next turn, then gone."""
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    duel.defend("none")
    duel.roll([1], "damage")  # 1 + 3 = 4 cut -> 6 injury -> shock 4 (capped)
    assert duel.cond("orc").shock == 4
    duel.maneuver("orc", "attack", [[6, 6, 6]], target="knight")
    assert duel.last("attack_rolled").payload["record"]["target"] == 12 - 4
    assert duel.cond("orc").shock == 0


def test_shock_from_several_injuries_sums_capped_at_four(table: Table) -> None:
    """A-25: each injury's shock is added, and the sum is capped at 4."""
    table.add("archer", ARCHER)
    table.add("ogre", {"st": 25, "ht": 12, "weapons": [{"name": "fist", "skill": 10, "damage": "thr", "damage_type": "cr"}]},
              side="npc")
    table.send("start_combat", {"order": ["archer", "ogre"]})
    table.maneuver("archer", "attack", [[3, 4, 4]], target="ogre", weapon="bow", range=1)
    table.defend("none")
    table.roll([6], "damage")  # 1d-1 = 5 imp -> 10 injury; HP 25: floor(10 x 10 / 25) = 4
    assert table.cond("ogre").shock == 4


def test_shock_from_injury_in_own_turn_waits_for_the_next_turn(duel: Table) -> None:
    """R-05: injury during the victim's own turn (here FP spill-over) counts for its next turn."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "exhausted"})
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "do_nothing")
    duel.send("spend_fatigue", {"combatant": "knight", "points": 2, "reason": "sprint"})
    assert duel.cond("knight").shock == 0 and duel.cond("knight").shock_pending == 2


def test_fatigue_spill_over_is_injury_but_never_a_major_wound(duel: Table) -> None:
    """R-06/A-26: HP lost to FP spent at 0 or below causes shock but no major-wound roll."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0, "hp": 2}, "reason": "worn down"})
    duel.send("spend_fatigue", {"combatant": "knight", "points": 2})
    inj = duel.last("injury_applied").payload
    assert (inj["injury"], inj["major_wound"], inj["hp_after"]) == (2, False, 0)


def test_unconscious_at_minus_fp_max(duel: Table) -> None:
    """G-51: FP <= -FPmax: unconscious; FP never drops below -FPmax, the rest costs HP."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": -10}, "reason": "spent"})
    duel.send("spend_fatigue", {"combatant": "knight", "points": 3})
    p = duel.last("fatigue_spent").payload
    assert (p["fp_after"], p["hp_loss"], p["unconscious"]) == (-11, 3, True)


def test_will_roll_before_maneuver_at_zero_fp_can_collapse(duel: Table) -> None:
    """G-51: at FP <= 0 a Will roll precedes any maneuver but Do Nothing; failure collapses."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert duel.cond("knight").collapsed is True
    assert duel.current == "orc"
    assert not duel.events("attack_rolled")


def test_critical_three_does_maximum_damage(duel: Table) -> None:
    """G-36: a roll of 3 hits without defence and does maximum damage without rolling."""
    duel.maneuver("knight", "attack", [[1, 1, 1]], target="orc")
    duel.send("roll", {"prompt": duel.prompt("roll").id})  # no faces needed
    assert duel.last("damage_rolled").payload["basic"] == 6 + 3


def test_miss_on_seventeen_even_at_high_skill(table: Table) -> None:
    """G-36: 17 or 18 always misses."""
    master = {"dx": 14, "weapons": [{"name": "sword", "skill": 20, "damage": "sw", "damage_type": "cut"}]}
    table.add("master", master)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["master", "orc"]})
    table.maneuver("master", "attack", [[6, 6, 5]], target="orc")
    assert table.last("attack_rolled").payload["record"]["outcome"] == "miss"


def _gunner_facing_orc(table: Table) -> None:
    """A gunner with a 5-shot SMG (skill 14) and an orc, combat started, the gunner's turn."""
    gunner = {"dx": 12, "weapons": [{"name": "smg", "kind": "ranged", "skill": 14, "damage": "2d", "damage_type": "pi",
                                    "acc": 2, "max_range": 160, "half_damage": 160, "rof": 5, "firearm": True,
                                    "parry": None}]}
    table.add("gunner", gunner)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["gunner", "orc"]})


def test_rapid_fire_dodge_avoids_one_plus_margin(table: Table) -> None:
    """G-39: against rapid fire a Dodge avoids 1 hit plus 1 per point of margin."""
    _gunner_facing_orc(table)
    table.maneuver("gunner", "attack", [[1, 2, 3]], target="orc", weapon="smg", shots=5, range=1)  # 6 vs 14: 5 hits
    assert table.state.combat.attack.hits == 5
    opts = table.prompt("defend").options
    assert opts["parry"] == {} and opts["block"] is None  # firearms: dodge only (G-39..G-41)
    table.defend("dodge", [[2, 2, 2]])  # 6 vs 8: margin 2 -> avoids 3
    assert table.last("defense_rolled").payload["hits_left"] == 2


def test_rapid_fire_hits_are_explained_with_their_rule_and_margin(table: Table) -> None:
    """G-35 (the product's reading of rapid fire, recoil 1): the log says why the attack landed that many hits."""
    _gunner_facing_orc(table)
    table.maneuver("gunner", "attack", [[3, 3, 4]], target="orc", weapon="smg", shots=5, range=1)  # 10 vs 14: margin 4
    rolled = table.last("attack_rolled")
    assert rolled.payload["attack"]["hits"] == 5  # 1 + 4 = 5, at most the 5 shots
    assert "5 hits (rapid fire, G-35: 1 plus 1 per point of margin 4, at most the shots fired; recoil 1)." \
        in table.explained(rolled.seq)


def test_half_damage_range_halves_basic_damage(table: Table) -> None:
    """A-17: at or beyond 1/2D, basic damage is halved."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "all_out_attack", [[1, 1, 2]], option="determined", target="orc", weapon="bow", range=150)
    table.roll([5], "damage")  # a critical hit: no defence  # 1d-1 -> 4, halved -> 2, imp x2 -> 4
    p = table.last("damage_rolled").payload
    assert (p["basic"], p["injury"]) == (2, 4)


def test_parrying_unarmed_attack_with_weapon_counter_hits(duel: Table) -> None:
    """G-41: parrying a punch with a weapon lets the defender hit the attacker's limb, no defence."""
    duel.maneuver("knight", "do_nothing")
    duel.maneuver("orc", "attack", [[3, 3, 4]], target="knight", weapon="punch")  # the axe leaves a hand empty
    duel.defend("parry", [[3, 3, 3]], weapon="broadsword")
    duel.roll([3, 3, 3], "counter")
    duel.roll([4], "damage")  # sw+1 at ST 12: 1d+2+1
    inj = duel.last("injury_applied").payload
    assert inj["combatant"] == "orc" and inj["source"].startswith("broadsword")


def test_thrown_weapon_parry_penalty(table: Table) -> None:
    """G-41: thrown weapons are parried at -1 (-2 if 1 lb or less)."""
    thrower = {"dx": 12, "weapons": [{"name": "knife", "kind": "thrown", "skill": 13, "damage": "thr",
                                      "damage_type": "imp", "weight": 1, "max_range": 15, "parry": None}]}
    table.add("thrower", thrower)
    table.add("knight", KNIGHT, side="npc")
    table.send("start_combat", {"order": ["thrower", "knight"]})
    table.maneuver("thrower", "attack", [[3, 3, 3]], target="knight", weapon="knife", range=3)
    assert table.prompt("defend").options["parry"]["broadsword"]["target"] == 9 - 2


def test_all_out_attack_gives_no_defence_explained(duel: Table) -> None:
    """G-22: the audit text says why there was no defence."""
    duel.maneuver("knight", "all_out_attack", [[6, 6, 6]], option="determined", target="orc")
    r = duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    text = " ".join(r.explanations)
    assert "no active defence" in text.lower() or "No defence" in text
    assert "G-22" in text


def test_roll_explanation_lists_modifiers_with_rule_ids(duel: Table) -> None:
    """Audit: the roll record names each modifier with its reason and rule id."""
    duel.send("adjust", {"combatant": "orc", "changes": {"stunned": True, "stun_kind": "physical"}, "reason": "x"})
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc")
    r = duel.defend("dodge", [[5, 5, 5]])
    text = r.explanations[0]
    assert "-4 stunned G-48" in text and "G-38" in text


def test_manual_faces_must_match_the_dice(duel: Table) -> None:
    """Dice: manual faces are validated (three values 1..6 for 3d); a bad roll appends nothing."""
    before = duel.state.seq
    for bad in ([3, 4, 5, 6], [0, 3, 3], [7, 1, 1]):
        with pytest.raises(Rejected) as err:
            duel.maneuver("knight", "attack", [bad], target="orc")
        assert err.value.code == "roll/bad_faces"
    assert duel.state.seq == before


def test_seeded_fight_rolls_prompts_automatically(engine) -> None:  # type: ignore[no-untyped-def]
    """Flow step 7: in seeded/server dice mode the engine answers roll prompts itself."""
    fid = engine.create_fight("gurps", dice_mode="seeded", seed="auto").fight_id
    t = Table(engine, fid)
    t.add("knight", KNIGHT)
    t.add("orc", ORC, side="npc")
    t.send("start_combat", {"order": ["knight", "orc"]})
    t.maneuver("knight", "all_out_attack", option="determined", target="orc")
    assert all(p.kind != "roll" for p in t.state.prompts)


def test_undo_to_start_of_turn_restores_the_turn(duel: Table) -> None:
    """GM undo 'start of this turn' takes back everything since the turn began."""
    duel.maneuver("knight", "do_nothing")
    before = duel.state
    duel.maneuver("orc", "attack", [[3, 4, 5]], target="knight")
    duel.defend("none")
    duel.send("undo", {"to": "turn_start"})
    after = duel.state
    assert after.combat.current == "orc" and after.combat.phase == "maneuver"
    assert after.combatants == before.combatants


def test_removed_combatant_leaves_the_sequence(duel: Table) -> None:
    """G-19: a combatant removed mid-fight no longer takes turns."""
    duel.send("remove_combatant", {"id": "orc"})
    duel.maneuver("knight", "do_nothing")
    assert duel.current == "knight" and duel.state.combat.round == 2


def test_every_gurps_event_type_has_a_fold_and_an_explanation() -> None:
    """Audit (#9 events): each event the ruleset registers is folded and has its one-sentence explanation."""
    from combat_server.rules.gurps.events import EVENTS

    assert all(spec.fold is not None and spec.explain is not None for spec in EVENTS.values())


def test_basic_set_wound_multipliers_option(engine) -> None:  # type: ignore[no-untyped-def]
    """A-20 (cfg): with the option on, pi+ wounds x1.5; by default every unlisted type is x1."""
    gun = {"dx": 12, "weapons": [{"name": "rifle", "kind": "ranged", "skill": 20, "damage": "2d", "damage_type": "pi+",
                                  "acc": 4, "max_range": 1000, "half_damage": 500, "firearm": True, "parry": None}]}
    results = {}
    for on in (False, True):
        fid = engine.create_fight("gurps", dice_mode="manual", options={"basic_set_wound_multipliers": on}).fight_id
        t = Table(engine, fid)
        t.add("gunner", gun)
        t.add("orc", ORC, side="npc")
        t.send("start_combat", {"order": ["gunner", "orc"]})
        t.maneuver("gunner", "attack", [[1, 1, 2]], target="orc", weapon="rifle", range=1)  # critical: no defence
        t.roll([3, 3], "damage")
        results[on] = t.last("damage_rolled").payload["injury"]
    assert results == {False: 6, True: 9}


def test_generic_criticals_option_off_makes_checks_plain(engine) -> None:  # type: ignore[no-untyped-def]
    """A-03 (cfg): with generic criticals off, an 18 on a check is a plain failure."""
    fid = engine.create_fight("gurps", dice_mode="manual", options={"generic_criticals": False}).fight_id
    t = Table(engine, fid)
    t.add("knight", KNIGHT)
    t.add("orc", ORC, side="npc")
    t.send("start_combat", {"order": ["knight", "orc"]})
    t.send("fright_check", {"combatant": "orc"})
    t.roll([6, 6, 6], "fright")
    assert t.last("check_rolled").payload["record"]["outcome"] == "failure"
    assert t.prompt("roll").options["purpose"] == "fright_duration"


@pytest.mark.parametrize("maneuver, args", [
    ("attack", {}),
    ("all_out_attack", {"option": "determined"}),
    ("move_and_attack", {}),
    ("feint", {}),
])
def test_preview_shows_the_number_the_roll_will_use(duel: Table, maneuver: str, args: dict) -> None:
    """The preview (no dice, nothing appended) gives the same target and modifiers the real roll records."""
    duel.send("adjust", {"combatant": "knight", "changes": {"shock": 2}, "reason": "hurt"})
    command = {"combatant": "knight", "maneuver": maneuver, "target": "orc", **args}
    seq = duel.state.seq
    preview = duel.engine.preview(duel.fight_id, Command("maneuver", command, GM_ACTOR, "p"))
    assert duel.state.seq == seq
    r = duel.send("maneuver", command, [[6, 6, 6]])
    rec = next(e.payload["record"] for e in r.events if e.type in ("attack_rolled", "feint_rolled"))
    assert (preview["target"], preview["modifiers"], preview["base"]) == (rec["target"], rec["modifiers"], rec["base"])


def test_preview_refuses_an_illegal_maneuver_like_the_real_one(duel: Table) -> None:
    """A preview out of turn is refused with the same code as the command itself."""
    with pytest.raises(Rejected) as err:
        duel.engine.preview(duel.fight_id, Command("maneuver", {"combatant": "orc", "maneuver": "attack",
                                                               "target": "knight"}, GM_ACTOR, "p"))
    assert err.value.code == "command/not_your_turn"


# --------------------------------------------------------------------------- core commands mid-turn (G-19)


def test_removing_the_combatant_whose_turn_it_is_starts_the_next_turn(duel: Table) -> None:
    """G-19: the GM removes the knight on its turn; the orc's turn starts at once, nobody waits for ''."""
    duel.add("archer", ARCHER)
    duel.send("remove_combatant", {"id": "knight"})
    assert duel.current == "orc" and duel.state.combat.phase == "maneuver"
    duel.maneuver("orc", "do_nothing")
    assert duel.current == "archer"
    assert duel.refold_matches()


def test_removing_the_target_of_a_pending_attack_ends_the_attackers_turn(duel: Table) -> None:
    """G-19: the orc, about to choose its defence, is removed: the knight's attack has nothing left to
    resolve, the knight's turn ends and the sequence goes on (nobody left to wait for a defence)."""
    duel.add("archer", ARCHER)
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapon="broadsword")
    assert duel.prompt("defend").combatant == "orc"
    duel.send("remove_combatant", {"id": "orc"})
    assert duel.state.combat.attack is None
    assert duel.current == "archer" and duel.state.combat.phase == "maneuver"
    assert duel.refold_matches()


def test_knocked_out_by_the_gm_on_its_own_turn_the_combatant_is_skipped(duel: Table) -> None:
    """G-19: dead and unconscious combatants are skipped; an adjustment on the knight's own turn
    skips the rest of it, so its player cannot attack while unconscious."""
    duel.send("adjust", {"combatant": "knight", "changes": {"unconscious": True}, "reason": "poison"})
    assert duel.last("turn_skipped").payload["combatant"] == "knight"
    assert duel.current == "orc"
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapon="broadsword")
    assert err.value.code == "command/not_your_turn"


def test_core_command_that_changes_nothing_in_the_turn_adds_no_turn_events(duel: Table) -> None:
    """A note or an HP adjustment on someone able to act leaves the turn where it was."""
    before = duel.state.combat
    first = duel.send("note", {"text": "the bridge creaks"})
    second = duel.send("adjust", {"combatant": "orc", "changes": {"hp": 9}, "reason": "arrow"})
    assert [e.type for e in first.events + second.events] == ["note_added", "condition_adjusted"]
    assert duel.state.combat == before


# --------------------------------------------------------------------------- fields a command does not use


def test_misspelt_field_is_refused_not_ignored(duel: Table) -> None:
    """'weapn' would otherwise attack with the default weapon: refused, nothing appended."""
    before = duel.engine.store.fight(duel.fight_id).last_seq
    with pytest.raises(Rejected) as err:
        duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", weapn="punch")
    assert err.value.code == "command/unknown_field" and err.value.details["fields"] == ["weapn"]
    assert duel.engine.store.fight(duel.fight_id).last_seq == before


def test_misspelt_field_of_a_core_command_is_refused(duel: Table) -> None:
    with pytest.raises(Rejected) as err:
        duel.send("adjust", {"combatant": "orc", "changes": {"hp": 3}, "reason": "arrow", "silent": True})
    assert err.value.code == "command/unknown_field" and "silent" in err.value.message


def test_upheld_ruling_with_adjustments_is_refused(duel: Table) -> None:
    """An upheld ruling changes nothing, so adjustments sent with it would be silently lost."""
    player = Principal.of_seat("p1", "player", ("knight",), "kim")
    seq = duel.engine.load(duel.fight_id).seq
    duel.send("dispute", {"seq": seq, "comment": "that was a hit"}, actor=player)
    prompt = duel.prompt("dispute")
    with pytest.raises(Rejected) as err:
        duel.send("rule", {"dispute": prompt.id, "verdict": "uphold",
                           "adjustments": [{"combatant": "orc", "changes": {"hp": 3}}]})
    assert err.value.code == "command/bad_field" and err.value.details["field"] == "adjustments"


def test_documented_field_a_short_cut_decision_never_read_is_accepted(duel: Table) -> None:
    """G-51: a collapse at 0 FP ends the attack before its target is looked at; target is still valid."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert duel.cond("knight").collapsed is True


def test_circumstance_modifiers_are_the_gms(duel: Table) -> None:
    """G-35: a player cannot add '+50 I say so' to its own roll; the GM can state a modifier."""
    player = Principal.of_seat("p1", "player", ("knight",), "kim")
    with pytest.raises(Rejected) as err:
        duel.send("maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc",
                               "modifiers": [{"value": 50, "reason": "I say so"}]}, [[3, 4, 5]], actor=player)
    assert err.value.code == "auth/gm_only"
    duel.maneuver("knight", "attack", [[3, 4, 5]], target="orc", modifiers=[{"value": -2, "reason": "darkness"}])
    assert {"value": -2, "reason": "darkness", "rule": "G-35"} in duel.last("attack_rolled").payload["record"]["modifiers"]


def test_misspelt_field_of_aim_is_refused(table: Table) -> None:
    """Aim copies its args to record the weapon; a misspelt field must still be refused."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    with pytest.raises(Rejected) as err:
        table.maneuver("archer", "aim", target="orc", weapn="knife")
    assert err.value.code == "command/unknown_field"
    table.maneuver("archer", "aim", target="orc", weapon="bow")
    assert table.cond("archer").aim_weapon == "bow"


def test_misspelt_field_of_undo_is_refused_not_read_as_last_command(duel: Table) -> None:
    """'too' instead of 'to' would undo only the last command: refused, nothing appended."""
    duel.send("note", {"text": "a"})
    before = duel.engine.store.fight(duel.fight_id).last_seq
    with pytest.raises(Rejected) as err:
        duel.send("undo", {"too": "seq", "seq": 2})
    assert err.value.code == "command/unknown_field" and err.value.details["fields"] == ["too"]
    assert duel.engine.store.fight(duel.fight_id).last_seq == before
    duel.send("undo", {})
    with pytest.raises(Rejected) as err:
        duel.send("redo", {"bogus": 1})
    assert err.value.code == "command/unknown_field"
    assert duel.engine.store.fight(duel.fight_id).last_seq == before + 1


def test_a_misspelt_field_is_named_even_when_the_command_fails_for_another_reason(duel: Table) -> None:
    """update_combatant {id, hiden} would otherwise say 'nothing to change'; the typo is the cause."""
    with pytest.raises(Rejected) as err:
        duel.send("update_combatant", {"id": "orc", "hiden": True})
    assert err.value.code == "command/unknown_field" and err.value.details["fields"] == ["hiden"]
    with pytest.raises(Rejected) as err:
        duel.send("start_combat", {"ordr": ["orc", "knight"]})  # combat has started: still the typo first
    assert err.value.code == "command/unknown_field"


def test_a_misspelt_field_of_redo_is_named_before_nothing_to_redo(duel: Table) -> None:
    with pytest.raises(Rejected) as err:
        duel.send("redo", {"all": True})
    assert err.value.code == "command/unknown_field"


def test_a_wrong_type_is_named_in_json_words(duel: Table) -> None:
    """Users write JSON: 'changes must be an object', not Python's 'must be dict'."""
    with pytest.raises(Rejected) as err:
        duel.send("adjust", {"combatant": "orc", "changes": [1], "reason": "r"})
    assert err.value.code == "command/bad_field" and "must be an object" in err.value.message


def test_a_wait_that_turns_into_a_ranged_attack_takes_its_range(table: Table) -> None:
    """G-34: trigger_wait takes the waited maneuver's fields (here range); a player's modifiers are the GM's."""
    table.add("archer", ARCHER)
    table.add("orc", ORC, side="npc")
    table.send("start_combat", {"order": ["archer", "orc"]})
    table.maneuver("archer", "wait", trigger="the orc charges", action="attack")
    player = Principal.of_seat("p1", "player", ("archer",), "robin")
    with pytest.raises(Rejected) as err:
        table.send("trigger_wait", {"combatant": "archer", "target": "orc", "weapon": "bow", "range": 10,
                                    "modifiers": [{"value": 4, "reason": "I say so"}]}, [[3, 4, 5]], actor=player)
    assert err.value.code == "auth/gm_only"
    table.send("trigger_wait", {"combatant": "archer", "target": "orc", "weapon": "bow", "range": 10},
               [[3, 4, 5]], actor=player)
    assert table.last("attack_rolled").payload["attack"]["range_yards"] == 10


def test_every_command_declares_its_fields() -> None:
    """command/unknown_field needs each command's fields: every core and gurps command has a spec
    (a command without one is refused as unknown)."""
    from combat_server.engine.history import UNDO_FIELDS
    from combat_server.rules import core
    from combat_server.rules.ruleset import get_ruleset

    assert set(core.CORE_COMMANDS) == set(core._CORE_DECIDERS)
    assert set(core.CORE_SPECS) == set(core._CORE_DECIDERS) | {"undo", "redo"}
    gurps = get_ruleset("gurps", None)
    assert set(gurps.commands) == {"start_combat", "maneuver", "defend", "roll", "fright_check", "trigger_wait",
                                   "answer_wait", "spend_fatigue", "import_character", "apply_tool",
                                   "set_light"}  # GULLIVER V-46
    assert set(UNDO_FIELDS) == {"to", "seq", "reason"}

def test_when_everyone_who_can_act_has_collapsed_the_fight_waits_for_the_gm(duel: Table) -> None:
    """G-51: a collapsed combatant's turns are Do Nothing until FP is above 0, and nothing in a turn gives FP
    back. Both duellists collapse (failed Will rolls at 0 FP): the orc's collapse is accepted, no turn starts
    after it (their turns would pass as Do Nothing for ever), and the log refolds to the same state."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.send("adjust", {"combatant": "orc", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert duel.cond("knight").collapsed is True and duel.current == "orc"
    duel.maneuver("orc", "attack", [[6, 6, 6]], target="knight")
    assert duel.cond("orc").collapsed is True
    assert duel.state.combat.phase == "between" and not duel.state.prompts
    ended = [e.payload["combatant"] for e in duel.events("turn_ended")]
    assert ended[-1] == "orc"
    assert duel.refold_matches()


def test_a_collapsed_fight_goes_on_when_the_gm_gives_fp_back(duel: Table) -> None:
    """G-51: collapsed until FP is above 0: once the GM sets the knight's FP back, its turn starts; the orc's
    collapsed turn passes as Do Nothing on the way."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.send("adjust", {"combatant": "orc", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    duel.maneuver("orc", "attack", [[6, 6, 6]], target="knight")
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 5}, "reason": "second wind"})
    assert duel.current == "knight" and duel.state.combat.phase == "maneuver"


def test_a_note_does_not_move_a_collapsed_fight_on(duel: Table) -> None:
    """G-51: both duellists collapsed, nobody is able to choose a maneuver: a command that gives nobody FP
    back passes no turns."""
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": 0}, "reason": "spent"})
    duel.send("adjust", {"combatant": "orc", "changes": {"fp": 0}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    duel.maneuver("orc", "attack", [[6, 6, 6]], target="knight")
    before = duel.state.combat
    duel.send("note", {"text": "the table takes a break"})
    assert duel.state.combat == before


def test_the_last_one_standing_collapsing_stops_the_turns_for_the_gm(duel: Table) -> None:
    """G-51 with the orc knocked out: the knight, the only one who could act, collapses; no turn starts after
    (before: Do Nothing turns for ever, an internal error; found by the adjust probe)."""
    duel.send("adjust", {"combatant": "orc", "changes": {"unconscious": True}, "reason": "sleep potion"})
    duel.send("adjust", {"combatant": "knight", "changes": {"fp": -5}, "reason": "spent"})
    duel.maneuver("knight", "attack", [[6, 6, 6]], target="orc")
    assert duel.cond("knight").collapsed is True
    assert duel.state.combat.phase == "between" and not duel.state.prompts
    assert duel.refold_matches()
