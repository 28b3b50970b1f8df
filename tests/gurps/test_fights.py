"""Three complete scripted fights with typed-in dice, asserting the state after every turn.

Each expected number was worked out by hand from the catalogue; the comments show the
arithmetic with the rule ids."""

from __future__ import annotations

from typing import Any

from .conftest import ARCHER, KNIGHT, ORC, Table


def snap(table: Table) -> dict[str, Any]:
    s = table.state
    out: dict[str, Any] = {"round": s.combat.round, "turn": s.combat.current}
    for cid, c in s.combatants.items():
        k = c.condition
        flags = [f for f in ("stunned", "unconscious", "dead") if getattr(k, f)]
        out[cid] = (k.hp, k.fp, k.shock_pending, k.posture, tuple(flags))
    return out


def test_duel_knight_against_orc(duel: Table) -> None:
    """A melee duel: major wound and knockdown, stun recovery, a critical hit, unconsciousness at HP <= 0."""
    t = duel
    # R1 knight: 9 vs broadsword 13 hits; orc parries with the axe: 15 vs 9 fails (G-41, G-38).
    t.maneuver("knight", "attack", [[2, 3, 4]], target="orc", weapon="broadsword")
    t.defend("parry", [[4, 5, 6]], weapon="axe")
    # sw at ST 12 = 1d+2, +1 -> 5+3 = 8 cut -> floor(8 x 1.5) = 12 injury (G-42); HP 13 -> 1.
    t.roll([5], "damage")
    # 12 > 13/2: major wound; HT 12 vs 15 fails by 3 -> stunned and knocked down (G-46, A-24).
    t.roll([6, 5, 4], "major_wound")
    assert snap(t) == {"round": 1, "turn": "orc", "knight": (12, 11, 0, "standing", ()),
                       "orc": (1, 12, 0, "prone", ("stunned",))}
    assert t.cond("orc").shock == 4  # 12 HP of shock capped at 4, in force this turn only (G-47)
    # R1 orc: forced Do Nothing (G-48); HT 9 vs 12 at the end of the turn recovers.
    assert t.last("maneuver_chosen").payload["forced"] == "stunned (G-48)"
    t.roll([2, 3, 4], "stun_recovery")
    assert snap(t) == {"round": 2, "turn": "knight", "knight": (12, 11, 0, "standing", ()),
                       "orc": (1, 12, 0, "prone", ())}
    # R2 knight hits again; the prone, reeling orc: Dodge ceil(8/2) - 3 = 1, Parry 9 - 3 = 6 (G-43, G-26).
    t.maneuver("knight", "attack", [[3, 3, 4]], target="orc")
    opts = t.prompt("defend").options
    assert opts["dodge"]["target"] == 1 and opts["parry"]["axe"]["target"] == 6
    t.defend("parry", [[1, 2, 2]], weapon="axe")
    assert snap(t)["turn"] == "orc"
    # R2 orc kneels (G-26).
    t.maneuver("orc", "change_posture", posture="kneeling")
    assert snap(t) == {"round": 3, "turn": "knight", "knight": (12, 11, 0, "standing", ()),
                       "orc": (1, 12, 0, "kneeling", ())}
    # R3 knight evaluates (G-29).
    t.maneuver("knight", "evaluate", target="orc")
    # R3 orc attacks from kneeling: 12 - 2 = 10, rolls 9; the knight's block 9 rolls 12 and fails.
    t.maneuver("orc", "attack", [[3, 3, 3]], target="knight")
    assert t.last("attack_rolled").payload["record"]["target"] == 10
    t.defend("block", [[4, 4, 4]])
    # sw at ST 13 = 2d-1, +2 -> 3+1 = 4 cut -> 6 injury; not major (6 is not > 12/2).
    t.roll([1, 2], "damage")
    assert snap(t) == {"round": 4, "turn": "knight", "knight": (6, 11, 0, "standing", ()),
                       "orc": (1, 12, 0, "kneeling", ())}
    assert t.cond("knight").shock == 4
    # R4 knight: 13 + 1 Evaluate - 4 shock = 10; a 4 is a critical hit: no defence (G-36).
    t.maneuver("knight", "attack", [[1, 1, 2]], target="orc")
    assert t.last("attack_rolled").payload["record"]["target"] == 10
    t.roll([6], "damage")  # 9 cut -> 13 injury: HP 1 -> -12
    t.roll([1, 1, 1], "major_wound")  # 3 always succeeds
    # R4 orc at -12 HP: HT roll to stay conscious at the start of its turn (G-44, A-22): 18 fails.
    t.roll([6, 6, 6], "consciousness")
    assert snap(t) == {"round": 5, "turn": "knight", "knight": (6, 11, 0, "standing", ()),
                       "orc": (-12, 12, 0, "kneeling", ("unconscious",))}
    # The unconscious orc is skipped from now on (G-19).
    t.maneuver("knight", "do_nothing")
    assert snap(t)["round"] == 6 and snap(t)["turn"] == "knight"
    assert t.refold_matches()


def test_archer_against_goblin_at_range(table: Table) -> None:
    """Ranged combat: Aim and Acc, SM, range, a prone target, a critical, 3-4 always defends, HT rolls at 0 HP."""
    t = table
    goblin = {"st": 8, "dx": 12, "ht": 10, "sm": -1, "dr": 1,
              "weapons": [{"name": "knife", "skill": 12, "damage": "thr", "damage_type": "imp", "reach": "C"}]}
    t.add("archer", ARCHER)
    t.add("goblin", goblin, side="npc")
    t.send("start_combat", {"order": ["archer", "goblin"]})
    t.maneuver("archer", "aim", target="goblin", weapon="bow")
    t.maneuver("goblin", "move", yards=5)  # Basic Move floor(22/4) = 5
    assert snap(t) == {"round": 2, "turn": "archer", "archer": (10, 10, 0, "standing", ()),
                       "goblin": (8, 10, 0, "standing", ())}
    t.maneuver("archer", "aim", target="goblin", weapon="bow")
    t.maneuver("goblin", "do_nothing")
    # R3: 14 + Acc 2 + 1 (2 s of aim) - 1 SM - 6 (20 yd) = 10 (G-21, G-35).
    t.maneuver("archer", "attack", [[2, 3, 3]], target="goblin", weapon="bow", range=20)
    assert t.last("attack_rolled").payload["record"]["target"] == 10
    t.defend("dodge", [[5, 5, 5]])
    # thr at ST 10 = 1d-2, +1 -> 6-1 = 5; DR 1 -> 4 penetrating; imp x2 -> 8: HP 8 -> 0 (G-42).
    t.roll([6], "damage")
    # 8 > 8/2 major wound: HT 10 vs 12 fails by 2 -> stunned, prone (G-46).
    t.roll([3, 4, 5], "major_wound")
    # R3 goblin: at 0 HP a HT roll to stay conscious (G-44): 9 vs 10 succeeds; then forced Do Nothing.
    t.roll([3, 3, 3], "consciousness")
    t.roll([6, 6, 6], "stun_recovery")  # fails: still stunned
    assert snap(t) == {"round": 4, "turn": "archer", "archer": (10, 10, 0, "standing", ()),
                       "goblin": (0, 10, 0, "prone", ("stunned",))}
    # R4: 14 - 1 SM - 6 range - 2 prone target = 5 (G-26); a 4 is a critical hit (G-36).
    t.maneuver("archer", "attack", [[1, 1, 2]], target="goblin", weapon="bow", range=20)
    assert t.last("attack_rolled").payload["record"]["target"] == 5
    t.roll([4], "damage")  # 3 - DR 1 = 2, x2 = 4: HP 0 -> -4; not major (4 is not > 4)
    t.roll([2, 2, 2], "consciousness")
    t.roll([1, 2, 3], "stun_recovery")
    assert snap(t) == {"round": 5, "turn": "archer", "archer": (10, 10, 0, "standing", ()),
                       "goblin": (-4, 10, 0, "prone", ())}
    # R5: 5 rolled against 5 hits; the reeling, prone goblin dodges ceil(8/2) - 3 = 1 but rolls 3 (G-38).
    t.maneuver("archer", "attack", [[1, 2, 2]], target="goblin", weapon="bow", range=20)
    assert t.prompt("defend").options["dodge"]["target"] == 1
    t.defend("dodge", [[1, 1, 1]])
    assert t.last("defense_rolled").payload["success"] is True
    t.roll([6, 6, 5], "consciousness")  # 17 fails
    assert snap(t) == {"round": 6, "turn": "archer", "archer": (10, 10, 0, "standing", ()),
                       "goblin": (-4, 10, 0, "prone", ("unconscious",))}
    t.send("end_fight", {"reason": "the goblin is down"})
    assert t.state.status == "ended"
    assert t.refold_matches()


def test_wizard_against_troll(table: Table) -> None:
    """Fatigue, a Fright Check stun with a fixed duration, lost concentration, AOA (Strong) and death checks."""
    t = table
    wizard = {"st": 9, "dx": 10, "iq": 13, "ht": 10, "fp": 10,
              "weapons": [{"name": "staff", "skill": 11, "damage": "sw+2", "damage_type": "cr", "parry": 2}]}
    troll = {"st": 20, "dx": 11, "ht": 13, "dr": 2,
             "weapons": [{"name": "club", "skill": 13, "damage": "sw+3", "damage_type": "cr"}]}
    t.add("wizard", wizard)
    t.add("troll", troll, side="npc")
    t.send("start_combat", {"order": ["wizard", "troll"]})
    t.send("spend_fatigue", {"combatant": "wizard", "points": 3, "reason": "casting"})
    t.maneuver("wizard", "concentrate", task="fireball", turns=2)  # a two-second spell: unfinished after R1
    assert snap(t) == {"round": 1, "turn": "troll", "wizard": (9, 7, 0, "standing", ()),
                       "troll": (20, 13, 0, "standing", ())}
    # The GM calls a Fright Check at -2: Will 13 - 2 = 11 vs 12 fails by 1; 1 + 2d (1+1) = 3 turns (G-18, A-09).
    t.send("fright_check", {"combatant": "wizard", "modifier": -2, "reason": "the troll roars"})
    t.roll([4, 4, 4], "fright")
    t.roll([1, 1], "fright_duration")
    assert t.cond("wizard").stun_turns == 3
    # The troll hits (11 vs 13); the stunned wizard dodges 8 - 4 = 4 and fails.
    t.maneuver("troll", "attack", [[3, 4, 4]], target="wizard")
    assert t.prompt("defend").options["dodge"]["target"] == 4
    t.defend("dodge", [[5, 5, 5]])
    # Defending while concentrating: Will-3 = 10 vs 18 fails, the spell is lost (G-27).
    t.roll([6, 6, 6], "concentrate_will")
    # sw at ST 20 = 3d+2, +3 -> 3+5 = 8 crushing: HP 9 -> 1; major wound (8 > 4.5), HT 3 succeeds.
    t.roll([1, 1, 1], "damage")
    t.roll([1, 1, 1], "major_wound")
    # R2 wizard: shock -4 this turn (G-47); the fright stun forces Do Nothing and counts down with no roll.
    assert t.last("turn_started").payload == {"combatant": "troll", "round": 2, "index": 1, "shock": 0}
    assert [e.payload["shock"] for e in t.events("turn_started") if e.payload["combatant"] == "wizard"] == [0, 4]
    assert snap(t) == {"round": 2, "turn": "troll", "wizard": (1, 7, 0, "standing", ("stunned",)),
                       "troll": (20, 13, 0, "standing", ())}
    assert t.cond("wizard").concentrating == ""
    assert t.cond("wizard").stun_turns == 2
    t.maneuver("troll", "attack", [[3, 3, 3]], target="wizard")
    # Reeling (1 < 9/3) halves Dodge: ceil(8/2) = 4, stunned -4 -> 0; a 4 still succeeds (G-38).
    assert t.prompt("defend").options["dodge"]["target"] == 0
    t.defend("dodge", [[1, 1, 2]])
    assert snap(t) == {"round": 3, "turn": "troll", "wizard": (1, 7, 0, "standing", ("stunned",)),
                       "troll": (20, 13, 0, "standing", ())}
    assert t.cond("wizard").stun_turns == 1
    # R3 troll: AOA (Strong): 6 vs 13 hits; damage 18 + 5 + 3 (+1 per die beats +2) = 26 (G-22).
    t.maneuver("troll", "all_out_attack", [[2, 2, 2]], option="strong", target="wizard")
    t.defend("dodge", [[6, 6, 6]])
    t.roll([6, 6, 6], "damage")
    assert t.last("damage_rolled").payload["basic"] == 26
    # HP 1 -> -25 crosses -9 and -18: two HT rolls (G-45, A-23); the second (12 vs 10) fails.
    injury = t.last("injury_applied").payload
    assert injury["death_thresholds"] == [1, 2] and injury["hp_after"] == -25
    t.roll([3, 3, 3], "death_check")
    t.roll([4, 4, 4], "death_check")
    assert snap(t) == {"round": 4, "turn": "troll", "wizard": (-25, 7, 4, "standing", ("stunned", "unconscious", "dead")),
                       "troll": (20, 13, 0, "standing", ())}
    assert not t.state.prompts  # death drops the wizard's pending major-wound roll
    assert t.refold_matches()


def test_gm_and_two_players_run_a_fight_with_their_own_seats(table: Table) -> None:
    """Done-when of the gurps issue: the GM and two players, each acting only for its own combatant."""
    from combat_server.rules.model import Principal

    p1, p2 = Principal.of_seat("seat-1", "player", ("knight",)), Principal.of_seat("seat-2", "player", ("archer",))
    t = table
    t.add("knight", KNIGHT)
    t.add("archer", {**ARCHER, "weapons": ARCHER["weapons"][1:]})
    t.add("orc", ORC, side="npc")
    t.send("start_combat", {"order": ["knight", "archer", "orc"]})
    t.send("maneuver", {"combatant": "knight", "maneuver": "attack", "target": "orc"}, [[3, 4, 5]], actor=p1)
    t.send("defend", {"prompt": t.prompt("defend").id, "defense": "dodge"}, [[6, 6, 6]])  # the GM for the orc
    t.send("roll", {"prompt": t.prompt("roll").id}, [[3]], actor=p1)  # 3 + 3 = 6 cut -> 9
    t.send("roll", {"prompt": t.prompt("roll").id}, [[2, 2, 2]])  # major wound: 6 vs 12, fine
    t.send("maneuver", {"combatant": "archer", "maneuver": "attack", "target": "orc", "weapon": "knife"},
           [[3, 3, 4]], actor=p2)
    t.send("defend", {"prompt": t.prompt("defend").id, "defense": "parry", "weapon": "axe"}, [[1, 2, 3]])
    # the orc is at shock -4 this turn (G-47): axe 12 - 4 = 8; a 7 hits
    t.send("maneuver", {"combatant": "orc", "maneuver": "attack", "target": "archer"}, [[2, 2, 3]])
    t.send("defend", {"prompt": t.prompt("defend").id, "defense": "dodge"}, [[2, 2, 2]], actor=p2)
    assert snap(t) == {"round": 2, "turn": "knight", "knight": (12, 11, 0, "standing", ()),
                       "archer": (10, 10, 0, "standing", ()), "orc": (4, 12, 0, "standing", ())}
    t.send("dispute", {"seq": t.last("damage_rolled").seq, "comment": "the orc had DR"}, actor=p2)
    t.send("rule", {"dispute": t.prompt("dispute").id, "verdict": "uphold", "comment": "no armour on the sheet"})
    assert not t.state.prompts
