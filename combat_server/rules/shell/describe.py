"""What a seat can do and see in a SHELL fight, as data (rules/describe.py): the
maneuvers the combatant whose turn it is may take with their fields, the defence
prompt's answers with their DEF numbers, bars for HP and END, badges."""

from __future__ import annotations

import attrs

from combat_server.rules.describe import (Action, Answer, Badge, Bar, Choice, Description, Field, PromptChoices,
                                          Summary, Threshold, Viewer)
from combat_server.rules.model import FightState, Prompt
from combat_server.rules.shell import bodies, charts, damage, limbs
from combat_server.rules.shell.attacks import CLOSE_RESPONSE, DEFENCE, defences, responses
from combat_server.rules.shell.batch import can_act, derived_now, now, weapons_in_hand
from combat_server.rules.shell.events import combat_of, cond_of
from combat_server.rules.shell.rolls import ROLL
from combat_server.rules.shell.sheet import derive
from combat_server.rules.shell.state import Combat


def _sees(state: FightState, viewer: Viewer, cid: str) -> bool:
    c = state.combatants[cid]
    return viewer.is_gm or viewer.controls(cid) or not c.hidden


def describe(state: FightState, viewer: Viewer, options: dict[str, object]) -> Description:
    actions: list[Action] = []
    if state.status == "setup" and viewer.is_gm and len(state.combatants) >= 2:
        actions.append(Action("start", "start_combat", "Start combat", rules=("S-17", "A-64", "R-21"),
                              help="round 1 in order of initiative AG - 2 x EL"))
    combat = state.combat if isinstance(state.combat, Combat) else None
    busy = state.prompts or (combat is not None and combat.attack is not None)
    if combat is not None and state.status == "active" and not busy:
        cur = combat.current
        if cur and not combat.acted and (viewer.is_gm or viewer.controls(cur)):
            actions.extend(_maneuvers(state, cur, viewer, options))
        if cur and not combat.acted:
            actions.extend(_preempts(state, cur, viewer))
    tie = next((p for p in state.prompts if p.kind == ROLL and p.options.get("purpose") == "initiative"), None)
    if tie is not None and viewer.is_gm:
        order = _listed_order(state, tie.options["tied"])
        actions.append(Action("set_order", "set_order", "Settle the tie as listed", rules=("R-21",),
                              help="instead of the roll-off: " + ", ".join(state.combatants[c].name for c in order),
                              args={"order": order}))
    prompts = tuple(_prompt(state, p, options, viewer) for p in state.prompts
                    if viewer.is_gm or (p.combatant is not None and viewer.controls(p.combatant)))
    bars: list[Bar] = []
    badges: list[Badge] = []
    summaries: list[Summary] = []
    for c in state.combatants.values():
        cond = cond_of(state, c.id)
        d = derive(c.sheet)
        hp_left = d.hp - damage.total(damage.Wounds(cond.wounds, cond.stun_damage), d.hp)
        if _sees(state, viewer, c.id):
            bars.append(Bar(c.id, "hp", "HP", hp_left, d.hp, "S-32", (
                Threshold(0, "unconscious", "S-32", "bad"), Threshold(-d.hp, "dead", "S-32", "grave"))))
            bars.append(Bar(c.id, "end", "END", cond.end, d.end, "S-13", (
                Threshold(d.end // 3, "tired: ST, AG, MV -1", "S-13", "warn"),
                Threshold(0, "exhausted: ST, AG -2, MV halved", "S-13", "bad"))))
            summaries.append(Summary(c.id, f"{c.name}: HP {hp_left}/{d.hp}, END {cond.end}/{d.end}"))
        else:
            summaries.append(Summary(c.id, c.name))
        badges.extend(_badges(state, c.id))
    return Description(tuple(actions), prompts, tuple(bars), tuple(badges), tuple(summaries), _waiting(state))


def _listed_order(state: FightState, tied: list[list[str]]) -> list[str]:
    """The round's order by initiative and AG (S-17, A-64), the tied in the order they are listed (R-21)."""
    place = {cid: i for group in tied for i, cid in enumerate(group)}
    ids = [c.id for c in state.combatants.values() if can_act(state, c.id)]

    def key(cid: str) -> tuple[int, int, int]:
        sheet = state.combatants[cid].sheet
        return -derived_now(state, cid).initiative, -sheet.ag, place.get(cid, 0)

    return sorted(ids, key=key)


def _badges(state: FightState, cid: str) -> list[Badge]:
    cond = cond_of(state, cid)
    out: list[Badge] = []
    flags = ((cond.dead, "dead", "grave", "S-32", ""), (cond.unconscious and not cond.dead, "unconscious", "bad", "S-32", ""),
             (cond.stunned, "stunned", "bad", "S-32", "loses its next turn, DEF -2"),
             (cond.knocked_down, "knocked down", "warn", "S-28", "dodge only, at -4"),
             (bool(cond.close_with), "close combat", "warn", "S-41", "dodge only; bare hands and close weapons"),
             (bool(cond.pinned_by), "pinned", "bad", "S-43", "escape by a takedown roll"),
             (bool(cond.pinning), "pinning", "info", "S-43, R-16", ""),
             (bool(cond.casting), f"casting {cond.casting}", "info", "S-44", "lost if it moves, defends or is hurt"),
             (bool(cond.aim_target), f"aiming {cond.aim_turns}", "info", "S-23", ""))
    for on, label, tone, rule, lasts in flags:
        if on:
            out.append(Badge(cid, label, tone, rule, lasts))
    if cond.maneuver in charts.MANEUVERS and cond.maneuver != "attack":
        out.append(Badge(cid, cond.maneuver, "info", charts.maneuver_rule(cond.maneuver), "until its next action"))
    for loc in cond.crippled:
        out.append(Badge(cid, f"{loc} crippled" + (" (permanent)" if loc in cond.permanent else ""), "bad", "S-37"))
    for lost in cond.lost:
        out.append(Badge(cid, f"{lost} lost", "warn", "S-22, S-45"))
    return out


def _waiting(state: FightState) -> str:
    if state.prompts:
        p = state.prompts[0]
        who = state.combatants[p.combatant].name if p.combatant is not None and p.combatant in state.combatants \
            else "the GM"
        return f"waiting for {who}: {p.text}"
    combat = state.combat if isinstance(state.combat, Combat) else None
    if combat is not None and state.status == "active" and combat.current and not combat.acted:
        return f"waiting for {state.combatants[combat.current].name} to act"
    return ""


def _targets(state: FightState, cid: str) -> tuple[Choice, ...]:
    return tuple(Choice(c.id, c.name) for c in state.combatants.values() if c.id != cid and not cond_of(state, c.id).dead)


def _locations(state: FightState, targets: tuple[Choice, ...]) -> tuple[Choice, ...]:
    """The hit locations of the targets' body types, each with its AT per body (S-29; S-16, A-63:
    a creature's table replaces the humanoid one). A fight of humanoids lists the S-29 chart alone."""
    kinds = sorted({state.combatants[str(t.value)].sheet.body for t in targets} or {bodies.HUMANOID},
                   key=list(bodies.BODIES).index)
    out: list[Choice] = []
    for loc in damage.LOCATIONS:
        rows = [(body, bodies.location(body, loc)) for body in kinds]
        found = [(body, row.at) for body, row in rows if row is not None]
        if not found:
            continue
        if kinds == [bodies.HUMANOID]:
            out.append(Choice(loc, loc, f"AT {found[0][1]:+d}", "S-29"))
        else:
            hint = ", ".join(f"{at:+d} {body}" for body, at in found)
            out.append(Choice(loc, loc, f"AT {hint}", "S-29, S-16"))
    return tuple(out)


def _maneuvers(state: FightState, cid: str, viewer: Viewer, options: dict[str, object]) -> list[Action]:
    cond = cond_of(state, cid)
    sheet = state.combatants[cid].sheet
    me = now(state, cid, bool(options.get("fatigue_rederives_mv")))
    points = me.mv_points
    reach = points if me.derived.overloaded else max(points, 1)  # S-17: an attack may always take its step
    body = limbs.of(sheet.body, cond.crippled)  # S-37 item 1: what its crippled limbs and eyes leave
    legs = limbs.move_limit(body)
    if legs is not None:
        points, reach = min(points, legs), min(reach, legs)
    if cond.knocked_down:  # S-28: down, it must stand before it moves (a Move crawls)
        reach = 0
    name = state.combatants[cid].name
    targets = _targets(state, cid)
    if cond.close_with:
        targets = tuple(t for t in targets if t.value == cond.close_with)
    side = state.combatants[cid].side
    first = next((t.value for t in targets if state.combatants[str(t.value)].side != side),
                 targets[0].value if targets else None)  # a foe first
    held = weapons_in_hand(state, cid)
    usable = [w for w in held if (not cond.close_with or w.close_combat or w.name == "bare hand")
              and not (cond.close_with and w.ranged)  # S-41: no ranged attacks in close combat
              and not (cond.pinning and cond.pinning == cond.close_with and w.name == "bare hand")  # S-43
              and limbs.has_arms(body, limbs.arms_needed(w)) and not (w.ranged and body.eyes_out)]
    weapon_choices = tuple(Choice(w.name, w.name, f"{'ranged, ' if w.ranged else ''}{'/'.join(w.damage_types)}")
                           for w in usable)
    ranged = tuple(w.name for w in usable if w.ranged)
    target = Field("target", "choice", "Target", required=True, choices=targets, default=first)
    # required: left out, the rules take the first weapon in hand, which may be one the list leaves out
    weapon = Field("weapon", "choice", "Weapon", required=True, choices=weapon_choices,
                   default=weapon_choices[0].value if weapon_choices else None)
    base = {"combatant": cid}
    out: list[Action] = []
    if cond.pinned_by:
        return [Action("escape", "act", f"{name} tries to escape the pin", rules=("S-43",),
                       args={**base, "maneuver": "escape", "target": cond.pinned_by}, combatant=cid)]
    locations = _locations(state, targets)
    attack_fields = [target, weapon,
                     Field("location", "choice", "Hit location", rule="S-29", choices=locations, default="torso"),
                     Field("moved", "integer", "Units moved", rule="S-19", minimum=0, maximum=reach, default=0,
                           help="more than one step: AT -2"),
                     Field("charge", "boolean", "Charge", rule="S-19", default=False, help="+1 damage per 5 units, melee only",
                           when={"weapon": tuple(w.name for w in usable if not w.ranged)} if ranged else {}),]
    if ranged:
        attack_fields.append(_range_field(ranged))
    if targets and usable:
        out.append(Action("attack", "act", f"{name} attacks", rules=("S-19", "S-25"), args={**base, "maneuver": "attack"},
                          fields=tuple(attack_fields), combatant=cid))
        out.append(Action("guard", "act", f"{name} guards", rules=("S-20",), args={**base, "maneuver": "guard"},
                          fields=(weapon,), combatant=cid, help="counterattacks at +1 AT when defended"))
    out.append(Action("defend", "act", f"{name} defends", rules=("S-21",), args={**base, "maneuver": "defend"},
                      combatant=cid, help="DEF +2, no attack"))
    if targets and not cond.close_with:
        disarmers = tuple(c for c in weapon_choices if c.value == "bare hand" or any(
            w.name == c.value and w.can_disarm for w in held))
        armed = _armed(state, targets)
        if disarmers and armed[0]:
            aimed = next((t.value for t in armed[0] if t.value == first), armed[0][0].value)
            out.append(Action("disarm", "act", f"{name} tries to disarm", rules=("S-22",),
                              args={**base, "maneuver": "disarm"}, combatant=cid,
                              fields=(Field("target", "choice", "Target", required=True, choices=armed[0],
                                            default=aimed),
                                      Field("weapon", "choice", "With", required=True, choices=disarmers,
                                            default=disarmers[0].value),
                                      Field("target_weapon", "choice", "Weapon to strike at", rule="S-22",
                                            required=True, choices=armed[1],
                                            default=next(c.value for c in armed[1] if aimed in c.when["target"])))))
        if ranged:
            out.append(Action("aim", "act", f"{name} aims", rules=("S-23", "R-15"), args={**base, "maneuver": "aim"},
                              combatant=cid, fields=(target, Field("weapon", "choice", "Weapon", choices=tuple(
                                  Choice(n, n) for n in ranged), default=ranged[0]))))
    free = tuple(t for t in targets if not cond_of(state, str(t.value)).close_with)  # S-40: one pair at a time
    if free and not cond.close_with and legs != 0:
        out.append(Action("enter_close", "act", f"{name} steps into close combat", rules=("S-40",),
                          args={**base, "maneuver": "enter_close"}, combatant=cid,
                          fields=(attrs.evolve(target, choices=free, default=free[0].value), Field("moved", "integer", "Units moved", minimum=0, maximum=reach,
                                                default=min(1, reach)), Field("charge", "boolean", "Charge", default=False))))
    out.append(Action("move", "act", f"{name} moves", rules=("S-17",), args={**base, "maneuver": "move"},
                      combatant=cid, fields=(Field("moved", "integer", "Units", minimum=0, maximum=points,
                                                   default=points),)))
    if cond.knocked_down and not cond.pinning:
        out.append(Action("stand", "act", f"{name} stands up", rules=("S-28",), args={**base, "maneuver": "stand"},
                          combatant=cid))
    if cond.close_with and targets and limbs.has_arms(body, 1):  # not at a close foe who died
        foe = cond.close_with
        close = {**base, "target": foe}
        out.append(Action("takedown", "act", f"{name} tries a takedown", rules=("S-42",),
                          args={**close, "maneuver": "takedown"}, combatant=cid,
                          fields=(Field("then_pin", "boolean", "Pin at once if it works", rule="A-80",
                                        default=False),)))
        if cond_of(state, foe).knocked_down:
            out.append(Action("pin", "act", f"{name} tries to pin", rules=("S-43",),
                              args={**close, "maneuver": "pin"}, combatant=cid))
    spells = tuple(Choice(s.name, s.name, f"time {s.casting_time}, END {s.end_cost}", "S-12")
                   for a in sheet.arts for s in a.spells if a.level >= s.min_level)
    if cond.casting:
        out.append(Action("cast", "act", f"{name} keeps casting {cond.casting}", rules=("S-44",),
                          args={**base, "maneuver": "cast", "spell": cond.casting}, combatant=cid))
    elif spells:
        out.append(Action("cast", "act", f"{name} casts a spell", rules=("S-12", "S-44"), combatant=cid,
                          args={**base, "maneuver": "cast"},
                          fields=(Field("spell", "choice", "Spell", required=True, choices=spells,
                                        default=spells[0].value),
                                  Field("target", "choice", "Target", choices=_targets(state, cid)))))
    if options.get("cinematic_maneuvers") and viewer.is_gm:
        out.append(Action("other", "act", f"{name}: a GM-defined maneuver", rules=("S-24",),
                          args={**base, "maneuver": "other"}, combatant=cid, fields=(
                              Field("name", "text", "Name", required=True),
                              Field("at_mod", "integer", "AT modifier", minimum=-20, maximum=20, default=0),
                              Field("def_mod", "integer", "DEF modifier", minimum=-20, maximum=20, default=0),
                              Field("target", "choice", "Target (to attack)", choices=targets if usable else ()),
                              # with a target it is an attack (S-24): with a weapon the list offers, as above
                              *((attrs.evolve(weapon, when={"target": tuple(t.value for t in targets)}),)
                                if targets and usable else ()),
                              *((_range_field(ranged),) if targets and ranged else ()))))
    return out


def _preempts(state: FightState, cur: str, viewer: Viewer) -> list[Action]:
    """S-20: a Guard may strike the combatant about to act, before it acts: with its Guard's weapon, which
    must still be in hand, reach it in close combat (S-41) and, if ranged, be given the range (S-30)."""
    out = []
    for c in state.combatants.values():
        cond = cond_of(state, c.id)
        if c.id != cur and cond.maneuver == "guard" and cond.guard_weapon and can_act(state, c.id) \
                and (viewer.is_gm or viewer.controls(c.id)):
            weapon = next((w for w in weapons_in_hand(state, c.id) if w.name == cond.guard_weapon), None)
            if weapon is None or (cond.close_with and (cond.close_with != cur or weapon.ranged or not (
                    weapon.close_combat or weapon.name == "bare hand"))):
                continue
            out.append(Action(f"preempt-{c.id}", "act", f"{c.name} strikes first from Guard", rules=("S-20", "A-65"),
                              args={"combatant": c.id, "maneuver": "preempt", "target": cur},
                              fields=(_range_field(()),) if weapon.ranged else (), combatant=c.id))
    return out


def _range_field(ranged: tuple[str, ...]) -> Field:
    """S-30: the range a ranged attack is made at, required by the rules (only for the ``ranged`` weapons
    of the form; every time when empty)."""
    return Field("range", "integer", "Range (units)", rule="S-30", required=True, minimum=1, maximum=100000,
                 default=10, when={"weapon": ranged} if ranged else {})


def _armed(state: FightState, targets: tuple[Choice, ...]) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
    """S-22: the targets holding a weapon to strike at, and those weapons, each open only for the targets
    that hold it (Choice.when)."""
    held: dict[str, list[str]] = {}
    armed = []
    for t in targets:
        names = [w.name for w in weapons_in_hand(state, str(t.value)) if w.name != "bare hand"]
        if names:
            armed.append(t)
        for n in names:
            held.setdefault(n, []).append(str(t.value))
    return tuple(armed), tuple(Choice(n, n, when={"target": tuple(ids)}) for n, ids in held.items())


def _prompt(state: FightState, p: Prompt, options: dict[str, object], viewer: Viewer) -> PromptChoices:
    answers: list[Answer] = []
    combat = combat_of(state)
    if p.kind == DEFENCE and combat.attack is not None:
        if p.options.get("defenceless"):
            answers.append(Answer("No defence possible", "defend", {"prompt": p.id, "defence": "none"}, rule="S-28",
                                  dice="2d10"))
        else:
            at = sum(m.value for m in combat.attack.at)
            # A hidden attacker's AT is its sheet's: a seat that may not see that sheet chooses by
            # DEF alone, without the AT or the 2d10 target it is a term of (docs/protocol.md).
            shown = _sees(state, viewer, combat.attack.attacker)
            for d in defences(state, combat.attack, {}, bool(options.get("fatigue_rederives_mv"))):
                label = {"dodge": "Dodge", "none": "No defence"}.get(d.defence, f"Block with {d.with_}")
                args = {"prompt": p.id, "defence": d.defence}
                if d.with_:
                    args["with"] = d.with_
                # S-25: the defence holds while R = 2d10 + AT - DEF <= 11, i.e. 2d10 <= 11 + DEF - AT
                against = f" against AT {at}" if shown else ""
                help = f"DEF {d.total}{against}: " + ", ".join(
                    f"{m.value:+d} {m.reason} ({m.rule})" for m in d.mods)
                if d.shield_pr is not None:
                    help += f"; shield band R 12-{11 + d.shield_pr} (S-25, A-68)"
                number = 11 + d.total - at if d.defence != "none" and shown else None
                answers.append(Answer(label, "defend", args, number=number, help=help, rule="S-25", dice="2d10"))
    elif p.kind == CLOSE_RESPONSE and p.combatant is not None:
        charging = combat.attack is not None and combat.attack.charge > 0
        for r in responses(state, p.combatant):
            if r.startswith("stop_thrust:"):
                w = r.split(":", 1)[1]
                answers.append(Answer(f"Stop thrust with {w}", "respond", {"prompt": p.id, "response": "stop_thrust",
                                                                         "weapon": w}, rule="S-40", dice="2d10"))
                if charging and w != "bare hand":
                    answers.append(Answer(f"Set the {w} against the charge", "respond",
                                          {"prompt": p.id, "response": "stop_thrust", "weapon": w, "set": True},
                                          help="damage by the charger's ST, plus its charge bonus", rule="S-40",
                                          dice="2d10"))
            else:
                answers.append(Answer("Shield block", "respond", {"prompt": p.id, "response": "shield_block"},
                                      rule="S-40", dice="2d10"))
        answers.append(Answer("Let it in", "respond", {"prompt": p.id, "response": "none"}, rule="S-40"))
    elif p.kind == ROLL:
        count, sides = int(p.options.get("count", 3)), int(p.options.get("sides", 6))
        answers.append(Answer("Roll", "roll", {"prompt": p.id}, dice=f"{count}d{sides}"))
    return PromptChoices(p.id, p.kind, p.combatant, p.text, tuple(answers))


