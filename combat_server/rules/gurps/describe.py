"""describe(state, viewer) for GURPS: what a seat can do now, in the shape of rules/describe.py.

Why here: the legal choices (G-20..G-34), the defences and their numbers
(attacks.defense_options), the thresholds of HP and FP (G-43..G-45, G-51) are
the rules' own; clients render them instead of keeping copies. Pure: no I/O,
nothing random. A hidden combatant's numbers appear only to the GM and to the
seat that controls it.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterable

import attrs

from combat_server.rules.describe import (
    Action, Answer, Badge, Bar, Choice, Description, Field, PromptChoices, Summary, Threshold, Viewer,
)
from combat_server.rules.gurps import derived, fatigue, maneuvers
from combat_server.rules.gurps.attacks import defense_options
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.locations import Location
from combat_server.rules.gurps.explain import light_effect
from combat_server.rules.gurps.gulliver.light import EXAMPLES, NAMES as LIGHT_NAMES, penalties
from combat_server.rules.gurps.gulliver.policy import Policy, fight_policy
from combat_server.rules.gurps.gulliver.size import Scale, combat_st_of, scale_of
from combat_server.rules.gurps.presentation import card
from combat_server.rules.gurps.sheet import Sheet, Weapon, eyes_of
from combat_server.rules.gurps.state import DEFAULT_LIGHT, Combat, Condition, light_of
from combat_server.rules.gurps.tables import POSTURE_STEPS, format_dice
from combat_server.rules.model import Combatant, FightState
from combat_server.rules.ruleset import Ruleset

# maneuver -> (label, help in our words, rule id), in the order they are offered (every one of maneuvers.MANEUVERS)
MANEUVER_TEXT: dict[str, tuple[str, str, str]] = {
    "attack": ("Attack", "One attack with a ready weapon; defend normally.", "G-25"),
    "all_out_attack": ("All-Out Attack", "Attack with a bonus; no defence until your next turn.", "G-22"),
    "move_and_attack": ("Move and Attack", "Move your full Move and attack at a penalty; Dodge or Block only.", "G-32"),
    "feint": ("Feint", "A Quick Contest of skill; your margin comes off the foe's defence next turn.", "G-30"),
    "all_out_defense": ("All-Out Defense", "No attack; a better defence until your next turn.", "G-24"),
    "aim": ("Aim", "Aim a ranged weapon at a foe: its Acc adds to the next attack.", "G-21"),
    "evaluate": ("Evaluate", "Study a foe: +1 to hit it next turn (up to +3).", "G-29"),
    "move": ("Move", "Move up to your full Move.", "G-31"),
    "change_posture": ("Change posture", "Stand up, kneel, crawl, sit or lie down.", "G-26"),
    "ready": ("Ready", "Ready a weapon or an item.", "G-33"),
    "concentrate": ("Concentrate", "Concentrate on a mental task.", "G-27"),
    "wait": ("Wait", "Hold an action until a trigger happens.", "G-34"),
    "do_nothing": ("Do nothing", "Stand there: recover from stun or catch your breath.", "G-28"),
}
# option -> (label, help, rule id)
OPTION_TEXT: dict[str, tuple[str, str, str]] = {
    "determined": ("Determined", "+4 to hit in melee, +1 at range.", "G-22"),
    "double": ("Double", "Two attacks on the same foe.", "G-22"),
    "feint": ("Feint", "A Feint, then an attack on the same foe.", "G-22"),
    "strong": ("Strong", "+2 damage, or +1 per die if better (ST-based melee damage).", "G-22"),
    "suppression": ("Suppression Fire", "Spray an area (RoF 5+); the GM adjudicates.", "G-23"),
    "increased_dodge": ("Increased Dodge", "+2 to Dodge; you may move half your Move.", "G-24"),
    "increased_parry": ("Increased Parry", "+2 to Parry.", "G-24"),
    "increased_block": ("Increased Block", "+2 to Block (needs a shield).", "G-24"),
}
#: Short forms players type in a terminal client (Action.aliases, Choice.aliases): ours, not the book's.
MANEUVER_ALIASES: dict[str, tuple[str, ...]] = {
    "all_out_attack": ("aoa",), "all_out_defense": ("aod",), "move_and_attack": ("mna", "move_attack"),
    "change_posture": ("posture",), "do_nothing": ("nothing",),
}
OPTION_ALIASES: dict[str, tuple[str, ...]] = {
    "increased_dodge": ("dodge",), "increased_parry": ("parry",), "increased_block": ("block",),
}
_SUPPRESSED_DEFENCE = {"all_out_attack": "no defence (G-22)", "move_and_attack": "Dodge or Block only (G-32)"}


def _human(word: str) -> str:
    return word.replace("_", " ")


class _NoDice:
    """Describing rolls nothing: a Batch built for allowance() must never ask for dice."""

    def roll(self, request: Any) -> tuple[int, ...]:
        raise AssertionError("describe rolls no dice")


def describe(ruleset: Ruleset, state: FightState, viewer: Viewer) -> Description:
    def sees(cid: str) -> bool:
        return viewer.is_gm or viewer.controls(cid) or not state.combatants[cid].hidden

    actions: list[Action] = []
    combat = state.combat
    blocking = any(p.kind != "dispute" for p in state.prompts)
    if state.status == "setup" and viewer.is_gm and state.combatants:
        actions.append(Action("start_combat", "start_combat", "Start combat",
                              "Fix the turn order (by Basic Speed) and begin the first turn.", ("G-19",),
                              aliases=("start",)))
    if (state.status == "active" and isinstance(combat, Combat) and combat.phase == "maneuver"
            and not combat.interrupted_by and not blocking):
        if combat.current and viewer.controls(combat.current):
            actions.extend(_memo_actions(ruleset, state, combat.current))
        for cid, c in state.combatants.items():
            if cid != combat.current and c.condition.wait_action and viewer.controls(cid):
                wait = _wait_action(state, cid)
                if wait is not None:
                    actions.append(wait)
    if state.status == "active" and viewer.is_gm and not blocking:
        fright = _fright_action(state)
        if fright is not None:
            actions.append(fright)
        if _stalled(state):
            actions.extend(_STALLED_ACTIONS)
    policy = fight_policy(state.options)
    if policy.light_levels and viewer.is_gm and state.status != "ended":
        actions.append(_light_action(light_of(combat)))
    prompts = tuple(_prompt(state, p, sees) for p in state.prompts
                    if p.kind != "dispute" and (viewer.is_gm if p.combatant is None else viewer.controls(p.combatant)))
    bars: list[Bar] = []
    badges: list[Badge] = []
    summaries: list[Summary] = []
    for cid, c in state.combatants.items():
        c_bars, c_badges, c_summary = _combatant_parts(c, sees(cid), policy)
        bars.extend(c_bars)
        badges.extend(c_badges)
        summaries.append(c_summary)
        if policy.light_levels and sees(cid):
            badges.extend(_light_badges(c, light_of(combat), policy))
    stats = tuple(s for cid, c in state.combatants.items() if sees(cid) for s in card(c, policy))  # #13: the card
    return Description(tuple(actions), prompts, tuple(bars), tuple(badges), tuple(summaries),
                       _waiting_for(ruleset, state, blocking, sees), stats)


# Memos: a description is computed for each kind of seat after every command, and most
# combatants did not change. Keys hold the (immutable) objects they were computed from,
# so a hit is an identity check; the results are the same objects, so an encoder may
# cache their text too (rules/describe.py: encode).
_MEMO_LIMIT = 4096
_PARTS: dict[tuple[int, bool], tuple[Combatant, Policy, tuple[tuple[Bar, ...], tuple[Badge, ...], Summary]]] = {}
_ACTIONS: dict[tuple[Any, ...], tuple[Sheet, tuple[Action, ...]]] = {}
_WEAPON_CHOICES: dict[int, tuple[Sheet, Policy, dict[str, Choice]]] = {}
_UNHURT: dict[int, tuple[Sheet, Policy, int, int]] = {}
_FRIGHT: dict[tuple[Choice, ...], Action] = {}


def _remember(memo: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    memo[key] = value


def _combatant_parts(c: Combatant, seen: bool,
                     policy: Policy) -> tuple[tuple[Bar, ...], tuple[Badge, ...], Summary]:
    hit = _PARTS.get((id(c), seen))
    if hit is not None and hit[0] is c and hit[1] is policy:
        return hit[2]
    parts = (tuple(_bars(c, policy)) if seen else (), tuple(_badges(c, seen, policy)),
             Summary(c.id, _summary(c, seen, policy)))
    _remember(_PARTS, (id(c), seen), (c, policy, parts))
    return parts


# --------------------------------------------------------------------------- actions


def _foes(state: FightState, cid: str) -> tuple[Choice, ...]:
    """Possible targets: everyone else alive, the other side first."""
    side = state.combatants[cid].side
    others = [c for oid, c in state.combatants.items() if oid != cid and not c.condition.dead]
    others.sort(key=lambda c: c.side == side)
    return tuple(Choice(c.id, f"{c.name} ({c.side.upper()})") for c in others)


def _aimable(state: FightState, cid: str, policy: Policy) -> tuple[Location, ...]:
    """The locations the form offers to aim at: every foe's body table (A-63), humanoid first, each
    name once; the server refuses one the chosen target's body lacks (maneuver/bad_location)."""
    if not policy.hit_locations:
        return ()
    bodies = {scale_of(c.sheet).body for oid, c in state.combatants.items()
              if oid != cid and not c.condition.dead and isinstance(c.sheet, Sheet)} or {"humanoid"}
    seen: dict[str, Location] = {}
    for body in sorted(bodies, key=lambda b: (b != "humanoid", b)):
        for loc in policy.aimable(Scale(body=body)):
            seen.setdefault(loc.name, loc)
    return tuple(seen.values())


def _weapon_choice(sheet: Sheet, w: Weapon, policy: Policy, cond: Condition | None = None) -> Choice:
    hit = _WEAPON_CHOICES.get(id(sheet))
    if hit is None or hit[0] is not sheet or hit[1] is not policy:
        choices = {}
        for weapon in sheet.all_weapons():
            choices[weapon.name] = Choice(weapon.name, f"{weapon.name} (skill {weapon.skill}, "
                                                       f"{_damage_text(sheet, weapon, policy)})")
        hit = (sheet, policy, choices)
        _remember(_WEAPON_CHOICES, id(sheet), hit)
    choice = hit[2][w.name]
    left = maneuvers.shots_left(cond, w) if cond is not None else None
    if left is None:
        return choice
    return Choice(choice.value, f"{choice.label[:-1]}, {left}/{w.shots} shots)")


def _damage_text(sheet: Sheet, w: Weapon, policy: Policy) -> str:
    """``sw+1 = 1d+3 cut``: an ST-based weapon's formula with what it comes to at the sheet's ST
    (on the fight's ST table, V-66 / V-67)."""
    dice = derived.weapon_roll(sheet, w, policy).text()
    formula = f"{w.damage} = " if w.damage.startswith(("thr", "sw")) else ""
    return f"{formula}{dice} {derived.damage_kind(w)}"


def _posture_step(cond: Condition) -> list[Field]:
    """G-26: kneeling <-> standing may be the step of a maneuver that allows one."""
    other = {"kneeling": "standing", "standing": "kneeling"}.get(cond.posture)
    if other is None:
        return []
    return [Field("posture", "choice", "Step", "Kneel or stand up as this maneuver's step (no other movement).",
                  "G-26", False, (Choice(None, f"stay {cond.posture}"),
                                  Choice(other, "stand up" if other == "standing" else "kneel")))]


def _attack_fields(state: FightState, cid: str, weapons: Iterable[Weapon], rule: str) -> list[Field]:
    sheet = state.combatants[cid].sheet
    cond = state.combatants[cid].condition
    weapons = tuple(w for w in weapons if maneuvers.loaded(cond, w))  # an empty weapon cannot attack (G-33)
    far = tuple(w.name for w in weapons if w.kind in ("ranged", "thrown"))
    policy = fight_policy(state.options)
    fields = [Field("target", "choice", "Target", "Whom to strike.", rule, True, _foes(state, cid)),
              Field("weapon", "choice", "Weapon", "A ready weapon (G-33).", rule, True,
                    tuple(_weapon_choice(sheet, w, policy, cond) for w in weapons),
                    default=weapons[0].name if weapons else None)]
    if far:
        fields.append(Field("range", "integer", "Range (yards)", "Distance to the target: range penalties (G-35).",
                            "G-35", False, default=1, minimum=0, maximum=100000, when={"weapon": far}))
    aimable = _aimable(state, cid, policy)
    if aimable:  # GULLIVER hit locations: aim at one at its penalty, or let 3d pick it
        fields.append(Field("location", "choice", "Hit location",
                            "Aim at a location at its penalty, or leave it to a 3d roll on the table (A-24).", "A-24",
                            False, (Choice(None, "roll 3d"),) + tuple(
                                Choice(loc.name, f"{loc.name} ({loc.penalty:+d})" if loc.penalty else loc.name)
                                for loc in aimable)))
    return fields


def _yards(ruleset: Ruleset, state: FightState, cid: str, maneuver: str) -> list[Field]:
    allowed = maneuvers.allowance(Batch(ruleset, state, _NoDice()), cid, maneuver, "", False)
    return _yards_field(allowed)


def _yards_field(allowed: int) -> list[Field]:
    if allowed <= 0:
        return []
    return [Field("yards", "integer", "Yards to move", f"Up to {allowed} yd with this maneuver (G-20).", "G-20",
                  default=0, minimum=0, maximum=allowed)]


def _options(maneuver: str, allowed: Iterable[str]) -> Field:
    choices = tuple(Choice(o, *OPTION_TEXT[o], aliases=OPTION_ALIASES.get(o, ())) for o in allowed)
    rule = MANEUVER_TEXT[maneuver][2]
    return Field("option", "choice", "Option", "Chosen now, in force until your next turn.", rule, True, choices,
                 default=choices[0].value if choices else None)


def _memo_actions(ruleset: Ruleset, state: FightState, cid: str) -> tuple[Action, ...]:
    """The maneuvers depend on the sheet, the posture, the weapons not ready and the Move left
    (G-43, G-51 halve it), the others' names, sides, deaths and bodies (targets; A-63: the locations
    to aim at) and the options."""
    c = state.combatants[cid]
    sheet, cond = c.sheet, c.condition
    others = tuple((o.id, o.name, o.side, o.condition.dead, scale_of(o.sheet).body if isinstance(o.sheet, Sheet) else "")
                   for o in state.combatants.values())
    key = (cid, id(sheet), cond.posture, cond.unready, _move_dodge(sheet, cond, fight_policy(state.options))[0], others,
           tuple(sorted(state.options.items())), cond.concentrating, cond.concentrate_left,
           tuple(sorted(cond.ammo_used.items())), tuple(sorted(cond.reload_progress.items())))
    hit = _ACTIONS.get(key)
    if hit is not None and hit[0] is sheet:
        return hit[1]
    actions = tuple(_maneuver_actions(ruleset, state, cid))
    _remember(_ACTIONS, key, (sheet, actions))
    return actions


def _maneuver_actions(ruleset: Ruleset, state: FightState, cid: str) -> list[Action]:
    """The maneuvers open to ``cid`` now, each with its fields (G-20): a weapon must be ready (G-33),
    Aim needs a ranged or thrown one (G-21), a Feint a melee one (G-30)."""
    c = state.combatants[cid]
    sheet, cond = c.sheet, c.condition
    assert isinstance(sheet, Sheet) and isinstance(cond, Condition)
    ready = tuple(w for w in maneuvers.ready_weapons(sheet, cond) if maneuvers.loaded(cond, w))
    out: list[Action] = []
    step = _posture_step(cond)
    effort = fight_policy(state.options).extra_effort_cost()  # V-48: Extra Effort may be asked for

    def add(m: str, fields: Iterable[Field] = (), rolls: bool = False, help_: str = "") -> None:
        label, text, rule = MANEUVER_TEXT[m]
        fields = tuple(fields)
        if step and maneuvers.MANEUVERS[m][0] == "step":  # G-26: a step into a posture leaves no yards to move
            moving = tuple(attrs.evolve(f, when={"posture": (None,)}) for f in fields if f.name == "yards")
            fields = tuple(f for f in fields if f.name != "yards") + tuple(step) + moving
        if effort and "extra_effort" in maneuvers.MANEUVER_FIELDS[m]:
            fields += (Field("extra_effort", "boolean", "Extra Effort",
                             f"Extra Effort of any kind this turn costs {effort} fatigue (V-48).", "V-48",
                             default=False),)
        out.append(Action(m, "maneuver", label, help_ or text, (rule,), {"combatant": cid, "maneuver": m}, fields,
                          rolls, "3d6" if rolls else "", cid, MANEUVER_ALIASES.get(m, ())))

    foes = bool(_foes(state, cid))  # an attack, a Feint, Aim and Evaluate need someone alive to aim at
    for m in MANEUVER_TEXT:  # the order a table offers them in: the usual ones first
        rule = MANEUVER_TEXT[m][2]
        if m in ("attack", "all_out_attack", "move_and_attack", "feint", "aim", "evaluate") and not foes:
            continue
        if m in maneuvers.ATTACKS and ready:
            fields = _attack_fields(state, cid, ready, rule)
            if m == "all_out_attack":
                allowed = tuple(o for o in maneuvers.MANEUVERS[m][1] if any(aoa_allows(o, w) for w in ready))
                fields = [_options(m, allowed)] + [_aoa_weapons(f, ready, allowed) if f.name == "weapon" else f
                                                   for f in fields]
            if m != "attack":
                fields += _yards(ruleset, state, cid, m)
            add(m, fields, rolls=True)
        elif m == "feint" and any(maneuvers.feints_with(w) for w in ready):
            add(m, _attack_fields(state, cid, [w for w in ready if maneuvers.feints_with(w)], rule)[:2], rolls=True)
        elif m == "aim" and any(maneuvers.aims_with(w) for w in ready):
            add(m, _attack_fields(state, cid, [w for w in ready if maneuvers.aims_with(w)], rule)[:2])
        elif m == "all_out_defense":
            add(m, [_options(m, [o for o in maneuvers.MANEUVERS[m][1]
                                 if o != "increased_block" or derived.block(sheet) is not None])])
        elif m == "evaluate":
            add(m, [Field("target", "choice", "Foe", "Whom to study.", rule, True, _foes(state, cid))])
        elif m == "move":
            add(m, _yards(ruleset, state, cid, m))
        elif m == "concentrate":
            left = maneuvers.concentration_left(cond, cond.concentrating)
            help_ = (f"Go on with “{cond.concentrating}” ({left} turn(s) to go), or name another task; any other "
                     "maneuver abandons it." if left else MANEUVER_TEXT[m][1])
            add(m, [Field("task", "text", "Task", "What you concentrate on.", rule, True,
                          default=cond.concentrating if left else None),
                    Field("turns", "integer", "Turns", "Turns the task still needs, this one included; it is "
                          "finished at the end of the last (G-27).", rule, False, default=left or 1, minimum=1,
                          maximum=100),
                    *_yards(ruleset, state, cid, m)], help_=help_)
        elif m == "change_posture":
            add(m, [Field("posture", "choice", "New posture", "One step at a time: lying to standing takes two.", rule,
                          True, tuple(Choice(p, _human(p)) for p in POSTURE_STEPS[cond.posture]))])
        elif m == "ready":
            to_ready = _to_ready(sheet, cond)
            if to_ready:
                add(m, [Field("weapon", "choice", "Weapon to ready", "", rule, True, to_ready)])
            else:
                add(m, [Field("item", "text", "Item to ready", "What to draw or prepare.", rule, True)])
        elif m == "wait":
            aoa = [o for o in maneuvers.MANEUVERS["all_out_attack"][1]
                   if any(o in maneuvers.aoa_options(w) for w in ready)]
            add(m, [Field("trigger", "text", "Trigger", "What you wait for.", rule, True),
                    Field("action", "choice", "Then", "What you do when it happens.", rule, True,
                          tuple(Choice(a, MANEUVER_TEXT[a][0], rule=MANEUVER_TEXT[a][2])
                                for a in maneuvers.WAIT_ACTIONS)),
                    Field("wait_option", "choice", "All-Out Attack option", "Declared now, in advance.", rule, False,
                          tuple(Choice(o, *OPTION_TEXT[o], aliases=OPTION_ALIASES.get(o, ())) for o in aoa),
                          default=aoa[0] if aoa else None, when={"action": ("all_out_attack",)}),
                    Field("range", "integer", "Zone (yards)", "A ranged Wait covers a zone: the range of the shot.",
                          rule, False, minimum=0, maximum=100000, when={"action": ("attack", "all_out_attack")}),
                    Field("item", "text", "Item", "What you will ready.", rule, False, when={"action": ("ready",)})])
        elif m == "do_nothing":
            add(m)
    return out


def _to_ready(sheet: Sheet, cond: Condition) -> tuple[Choice, ...]:
    """G-33: weapons that need a Ready, and weapons with shots spent (a reload of ``reload`` Readies)."""
    out = [Choice(w, w) for w in cond.unready]
    for w in sheet.weapons:
        if w.counts_shots and cond.ammo_used.get(w.name, 0) and w.name not in cond.unready:
            done = cond.reload_progress.get(w.name, 0)
            out.append(Choice(w.name, f"reload {w.name} ({maneuvers.shots_left(cond, w)}/{w.shots} shots; "
                                      f"turn {done + 1} of {w.reload})", rule="G-33"))
    return tuple(out)


def aoa_allows(option: str, w: Weapon) -> bool:
    """G-22, G-23: whether All-Out Attack (``option``) may be made with ``w`` alone (the forms offer no second
    weapon, so Double needs one that is not readied after use)."""
    return option in maneuvers.aoa_options(w) and not (option == "double" and w.needs_ready)


def _aoa_weapons(field: Field, ready: tuple[Weapon, ...], allowed: tuple[str, ...]) -> Field:
    """G-22, G-23: All-Out Attack's weapons, each open only for the options it allows when not every offered
    one (a bow is Determined or Suppression only; Double needs a weapon not readied after use)."""
    by_name = {w.name: w for w in ready}
    choices = []
    for c in field.choices:
        opts = tuple(o for o in allowed if aoa_allows(o, by_name[str(c.value)]))
        choices.append(c if opts == allowed else attrs.evolve(c, when={"option": opts}))
    return attrs.evolve(field, choices=tuple(choices))


def _waited_weapons(c: Combatant) -> list[Weapon]:
    """G-34: the weapons the Wait's attack may fire with: ready and loaded (G-33), melee for a Feint (G-30),
    and for an All-Out Attack those its option, declared in advance, allows (G-22, G-23)."""
    cond = c.condition
    action = cond.wait_action
    option = cond.wait_option or "determined"
    return [w for w in maneuvers.ready_weapons(c.sheet, cond) if maneuvers.loaded(cond, w)
            and (action != "feint" or maneuvers.feints_with(w))
            and (action != "all_out_attack" or aoa_allows(option, w))]


def _wait_action(state: FightState, cid: str) -> Action | None:
    """G-34: a Wait of a combatant this seat runs can fire during another's turn (an attack's only with a
    weapon it may make it with, at someone alive)."""
    c = state.combatants[cid]
    cond = c.condition
    action = cond.wait_action
    sheet = c.sheet
    fields: list[Field] = []
    if action in ("attack", "all_out_attack", "feint"):
        usable = _waited_weapons(c)
        if not usable or not _foes(state, cid):
            return None
        fields = [f for f in _attack_fields(state, cid, usable, "G-34")  # a Feint takes no range or location
                  if f.name in maneuvers.WAIT_ACTION_FIELDS[action]]
    elif action == "ready":
        to_ready = _to_ready(sheet, cond)
        fields = ([Field("weapon", "choice", "Weapon to ready", "", "G-33", True, to_ready)]
                  if to_ready else [Field("item", "text", "Item to ready", "What to draw or prepare.", "G-33", True)])
    return Action(f"trigger_wait:{cid}", "trigger_wait", f"{c.name}: trigger the Wait",
                  f"“{cond.wait_trigger}” happened: {MANEUVER_TEXT[action][0]} now, interrupting the turn.", ("G-34",),
                  {"combatant": cid}, tuple(fields), action != "ready", "3d6" if action != "ready" else "", cid)


def _fright_action(state: FightState) -> Action | None:
    """G-18: the GM calls for a Fright Check of anyone conscious (the seat that runs it rolls Will)."""
    aware = tuple(Choice(c.id, c.name) for c in state.combatants.values()
                  if not c.condition.dead and not c.condition.unconscious)
    if not aware:
        return None
    hit = _FRIGHT.get(aware)
    if hit is None:  # the same object while the same are conscious: its encoded text is reused
        hit = _fright_of(aware)
        _remember(_FRIGHT, aware, hit)
    return hit


_LIGHT_CHOICES = tuple(Choice(name, name, EXAMPLES[name], "V-46") for name in LIGHT_NAMES)


@functools.lru_cache(maxsize=len(LIGHT_NAMES))
def _light_action(level: str) -> Action:
    """V-46: the GM sets the fight's light level: any but the one in force (light/unchanged)."""
    return Action("set_light", "set_light", "Set the light level",
                  "Glare costs Vision, DX and IQ; darkness costs Vision and, by the fight's reading, attacks and "
                  "defences that need sight. Each fighter's eyes and eyewear shift the level it sees.",
                  ("V-46", "A-47"), {},
                  (Field("level", "choice", "Light", f"Now: {level}.", "V-46", True,
                         tuple(c for c in _LIGHT_CHOICES if c.value != level),  # the one in force is no change
                         default=next(c.value for c in _LIGHT_CHOICES if c.value != level)),
                   Field("reason", "text", "What happens", "Shown in the log.", "V-46")),
                  aliases=("light",))


def _light_badges(c: Combatant, level: str, policy: Policy) -> tuple[Badge, ...]:
    """V-46: the light as this combatant sees it (its eyes and eyewear shift the level), with what
    it costs; none in normal light that its eyes leave normal."""
    seen = policy.light(level, eyes_of(c.sheet))
    if level == DEFAULT_LIGHT and seen.name == level:
        return ()
    numbers = penalties(seen)
    worst = min(numbers.vision, numbers.dx_iq, numbers.darkness)
    tone = "bad" if seen.blind else "warn" if worst else "info"
    shown = level if seen.name == level else f"{level}, seen as {seen.name}"
    return (Badge(c.id, f"light: {shown} ({light_effect(seen, policy)})", tone, "V-46",
                  "until the GM changes the light"),)


def _fright_of(aware: tuple[Choice, ...]) -> Action:
    return Action("fright_check", "fright_check", "Fright Check",
                  "Something terrifying happens: the combatant rolls Will, failing is a stun or worse.", ("G-18",),
                  {}, (Field("combatant", "choice", "Who", "The one who must keep their nerve.", "G-18", True, aware,
                             default=aware[0].value),
                       Field("modifier", "integer", "Modifier", "To the Will roll: negative for worse horrors.", "G-18",
                             default=0, minimum=-10, maximum=10),
                       Field("reason", "text", "What happens", "Shown in the log.", "G-18")))


def _stalled(state: FightState) -> bool:
    """G-19, G-51: nobody may choose a maneuver (every combatant dead, unconscious or collapsed):
    settle starts no next turn and the fight stays between turns until the GM acts (turns.py,
    ``_someone_may_choose``)."""
    combat = state.combat
    return (state.status == "active" and isinstance(combat, Combat) and combat.phase == "between"
            and not combat.interrupted_by and not any(p.kind != "dispute" for p in state.prompts))


#: What the GM can do when nobody can act: end the fight, or undo what led here. An ``adjust`` that
#: wakes someone or gives FP back also goes on (its changes are no flat form: the GM's Adjust form).
_STALLED_ACTIONS = (
    Action("end_fight", "end_fight", "End the fight", "Nobody can act: end the fight for everyone.", ("G-19",),
           {}, (Field("reason", "text", "Why", "Shown in the log.", "", False,
                      default="nobody can act"),), aliases=("end",)),
    Action("undo", "undo", "Undo the last command", "Take back the command that left nobody able to act.", (),
           {"to": "last_command"}),
)


# --------------------------------------------------------------------------- prompts


def _mods(entry: dict[str, Any], feinter_hidden: bool = False) -> str:
    """How a defence number is made. A hidden feinter's penalty (its margin, G-30) is part of the
    number but not spelled out: the modifier would name the feinter and give its margin away."""
    parts = [f"{entry['base_reason']} {entry['base']}"]
    shown = [m for m in entry["modifiers"] if not (feinter_hidden and m["rule"] == "G-30")]
    parts += [f"{m['value']:+d} {m['reason']} ({m['rule']})" for m in shown]
    if len(shown) < len(entry["modifiers"]):
        parts.append("and what the attacker's earlier maneuvers did to you")
    return "; ".join(parts)


def _prompt(state: FightState, p: Any, sees: Callable[[str], bool]) -> PromptChoices:
    answers: list[Answer] = []
    o = p.options
    if p.kind == "defend" and isinstance(state.combat, Combat) and state.combat.attack is not None:
        options = defense_options(state, state.combat.attack)
        hidden = not sees(state.combat.attack.attacker)
        if options["dodge"]:
            answers.append(Answer(f"Dodge {options['dodge']['target']}", "defend", {"prompt": p.id, "defense": "dodge"},
                                  options["dodge"]["target"], _mods(options["dodge"], hidden), "G-39", "3d6"))
        for w, entry in options["parry"].items():
            answers.append(Answer(f"Parry {entry['target']} ({w})", "defend",
                                  {"prompt": p.id, "defense": "parry", "weapon": w}, entry["target"], _mods(entry, hidden),
                                  "G-41", "3d6"))
        if options["block"]:
            answers.append(Answer(f"Block {options['block']['target']}", "defend", {"prompt": p.id, "defense": "block"},
                                  options["block"]["target"], _mods(options["block"], hidden), "G-40", "3d6"))
        answers.append(Answer("No defence", "defend", {"prompt": p.id, "defense": "none"}, None,
                              "Take the hit without rolling.", "G-38"))
    elif p.kind == "wait" and p.combatant in state.combatants:
        answers.extend(_wait_answers(state, p))
    elif p.kind == "roll":
        count, sides = int(o.get("count", 3)), int(o.get("sides", 6))
        purpose = str(o.get("purpose", ""))
        if count:
            label = f"Roll {count}d{sides}" + (f" for {_human(purpose)}" if purpose else "")
        else:  # nothing to roll (V-59's maximum damage): the answer applies it
            label = "Apply" + (f" {_human(purpose)}" if purpose else "")
        answers.append(Answer(label, "roll", {"prompt": p.id}, None, "", "", f"{count}d{sides}" if count else ""))
    return PromptChoices(p.id, p.kind, p.combatant, p.text, tuple(answers))


def _wait_answers(state: FightState, p: Any) -> list[Answer]:
    """G-34: trigger the Wait (its declared action against the one who acts, one answer per usable
    weapon) or let the maneuver pass."""
    c = state.combatants[p.combatant]
    cond = c.condition
    actor = state.combatants[str(p.options["actor"])].name if p.options.get("actor") in state.combatants else "them"
    action = cond.wait_action
    base = {"prompt": p.id, "trigger": True}
    out: list[Answer] = []
    if action in ("attack", "all_out_attack", "feint"):
        usable = _waited_weapons(c)
        word = MANEUVER_TEXT[action][0] + (f" ({OPTION_TEXT[cond.wait_option][0]})" if cond.wait_option else "")
        for w in usable:
            out.append(Answer(f"Trigger: {word} {actor} with {w.name}", "answer_wait", {**base, "weapon": w.name},
                              None, f"{w.name} skill {w.skill}; the attack interrupts before {actor}'s maneuver.",
                              "G-34", "3d6"))
    else:
        to_ready = _to_ready(c.sheet, cond)
        for choice in to_ready:
            out.append(Answer(f"Trigger: Ready {choice.label}", "answer_wait", {**base, "weapon": choice.value},
                              None, "", "G-34"))
        if not to_ready:
            out.append(Answer(f"Trigger: Ready {cond.wait_item or 'the item'}", "answer_wait",
                              {**base, "item": cond.wait_item or "the item"}, None, "", "G-34"))
    out.append(Answer("Let it pass", "answer_wait", {"prompt": p.id, "trigger": False}, None,
                      "The Wait holds until your next turn.", "G-34"))
    return out


# --------------------------------------------------------------------------- bars, badges, summaries


def _bars(c: Combatant, policy: Policy) -> list[Bar]:
    sheet, cond = c.sheet, c.condition
    hp = sheet.hp_max
    basis = policy.fatigue_basis()
    if basis == "G-51":
        fp = sheet.fp_max
        fp_bar = Bar(c.id, "fp", "FP", cond.fp, fp, "G-51", _fp_thresholds(fp))
    else:  # V-53 / V-54: Fatigue on ST or HT, its own thresholds (the bar shows the whole part, A-50)
        st = combat_st_of(sheet)  # V-53: Fatigue on Combat ST
        fp_bar = Bar(c.id, "fp", "Fatigue", cond.fp, fatigue.maximum(sheet, policy), basis,
                     _basis_thresholds(basis, st))
    return [Bar(c.id, "hp", "HP", cond.hp, hp, "G-43", _hp_thresholds(hp)), fp_bar]


@functools.lru_cache(maxsize=256)
def _hp_thresholds(hp: int) -> tuple[Threshold, ...]:
    return (
        Threshold((hp - 1) // 3, "reeling: half Move and Dodge", "G-43", "warn"),
        Threshold(0, "an HT roll each turn to stay conscious", "G-44", "bad"),
        Threshold(-hp, "an HT roll or die, again at each further -HP", "G-45", "grave"),
        Threshold(-5 * hp, "dead", "G-45", "grave"),
    )


@functools.lru_cache(maxsize=256)
def _fp_thresholds(fp: int) -> tuple[Threshold, ...]:
    return (
        Threshold((fp - 1) // 3, "tired: half Move, Dodge and ST", "G-51", "warn"),
        Threshold(0, "a Will roll before each maneuver; lost FP costs HP too", "G-51", "bad"),
        Threshold(-fp, "unconscious", "G-51", "grave"),
    )


@functools.lru_cache(maxsize=256)
def _basis_thresholds(basis: str, st: int) -> tuple[Threshold, ...]:
    """V-53: halved at floor(Combat ST/3), collapse at Combat ST/10 (the whole levels at or under it),
    out at 0; V-54 (A-51): 3, 1 and 0."""
    if basis == "V-53":
        return (Threshold(st // 3, "tired: half Move and Dodge", "V-53", "warn"),
                Threshold(st // 10, "collapsed: no maneuver until rested", "V-53", "bad"),
                Threshold(0, "unconscious; further fatigue costs HP", "V-53", "grave"))
    return (Threshold(3, "tired: half Move and Dodge", "V-54", "warn"),
            Threshold(1, "collapsed: no maneuver until rested", "V-54", "bad"),
            Threshold(0, "unconscious; further fatigue costs HP", "V-54", "grave"))


def _tired_badge(cid: str, policy: Policy) -> Badge:
    """G-51's tired, or V-53's / V-54's halving threshold."""
    basis = policy.fatigue_basis()
    if basis == "G-51":
        return Badge(cid, "tired", "warn", "G-51", "while FP is below a third")
    return Badge(cid, "tired", "warn", basis, "while Fatigue is at " + ("Combat ST/3" if basis == "V-53" else "3")
                 + " or less")


def _collapsed_badge(cid: str, policy: Policy) -> Badge:
    """G-51: collapsed by a failed Will roll until FP is above 0; V-53 / V-54: until Fatigue is above
    the collapse threshold again."""
    basis = policy.fatigue_basis()
    if basis == "G-51":
        return Badge(cid, "collapsed", "bad", "G-51", "until FP is above 0")
    return Badge(cid, "collapsed", "bad", basis, "until Fatigue is above " + ("Combat ST/10" if basis == "V-53" else "1"))


def _fatigue_numbers(sheet: Sheet, cond: Condition, policy: Policy) -> str:
    """"FP 7/12" (G-51), or "Fatigue 57/4 of 15 (V-53)" with the exact level (A-50)."""
    if policy.fatigue_basis() == "G-51" and not cond.fp_exact:
        return f"FP {cond.fp}/{sheet.fp_max}"
    label = "FP" if policy.fatigue_basis() == "G-51" else "Fatigue"
    return f"{label} {fatigue.text(fatigue.level(cond))}/{fatigue.maximum(sheet, policy)}"


def _move_dodge(sheet: Sheet, cond: Condition, policy: Policy) -> tuple[int, int]:
    """Move and Dodge now (G-43, G-51 halvings of the sheet's), the sheet's part memoized."""
    hit = _UNHURT.get(id(sheet))
    if hit is None or hit[0] is not sheet or hit[1] is not policy:  # V-01: the encumbrance by Load ST
        hit = (sheet, policy, derived.unhurt_move(sheet, policy), derived.unhurt_dodge(sheet, policy))
        _remember(_UNHURT, id(sheet), hit)
    return derived.halvings(hit[2], sheet, cond, policy), derived.halvings(hit[3], sheet, cond, policy)


def _badges(c: Combatant, seen: bool, policy: Policy) -> list[Badge]:
    """Badges from the condition; ``seen``: the sheet and whole condition may be shown (else only
    what anyone at the table sees: down, dead, stunned, posture, the maneuver taken)."""
    cond: Condition = c.condition
    out: list[Badge] = []
    cid = c.id
    if cond.dead:
        out.append(Badge(cid, "dead", "grave", "G-45", "for good"))
    elif cond.unconscious:
        out.append(Badge(cid, "unconscious", "bad", "G-44", "until woken (G-49)"))
    if cond.collapsed:
        out.append(_collapsed_badge(cid, policy))
    if cond.stunned:
        if cond.stun_kind == "fright" and cond.stun_turns and seen:
            out.append(Badge(cid, "stunned (fright)", "warn", "G-18", f"{cond.stun_turns} more turn(s)"))
        else:
            out.append(Badge(cid, "stunned", "warn", "G-48", "until a recovery roll at the end of its turn succeeds"))
    if seen and cond.shock:
        out.append(Badge(cid, f"shock -{cond.shock}", "warn", "G-47", "during this turn"))
    if seen and not cond.dead:
        if derived.reeling(c.sheet, cond):
            out.append(Badge(cid, "reeling", "warn", "G-43", "while HP is below a third"))
        if derived.tired(c.sheet, cond, policy):
            out.append(_tired_badge(cid, policy))
    for where in cond.severed:  # GULLIVER (visible condition, like a posture)
        out.append(Badge(cid, f"{where} severed", "bad", "V-12", "for good"))
    for where in cond.crippled:
        if where not in cond.severed:
            out.append(Badge(cid, f"{where} crippled", "bad", "V-11", "until healed"))
    for where in cond.stunned_limbs:
        out.append(Badge(cid, f"{where} stunned", "warn", "V-21", "until a HT roll at the end of a turn (V-24)"))
    if cond.posture != "standing":
        out.append(Badge(cid, _human(cond.posture), "info", "G-26", "until it changes posture"))
    if cond.maneuver and not cond.dead and not cond.unconscious:
        label, _, rule = MANEUVER_TEXT.get(cond.maneuver, (_human(cond.maneuver), "", ""))
        if cond.maneuver_option:
            label += f" ({OPTION_TEXT.get(cond.maneuver_option, (_human(cond.maneuver_option),))[0]})"
        extra = _SUPPRESSED_DEFENCE.get(cond.maneuver)
        out.append(Badge(cid, label + (f": {extra}" if extra else ""), "warn" if extra else "info", rule,
                         "until its next turn"))
    if seen and cond.wait_action:
        out.append(Badge(cid, f"waiting: {cond.wait_trigger}", "info", "G-34", "until triggered or its next turn"))
    if seen and cond.aim_turns:
        out.append(Badge(cid, f"aiming {cond.aim_weapon} ({cond.aim_turns} s)", "good", "G-21",
                         "until it attacks, defends or does something else"))
    if seen and cond.evaluate_bonus:
        out.append(Badge(cid, f"evaluating +{cond.evaluate_bonus}", "good", "G-29", "its next turn"))
    if seen and cond.concentrating and not cond.dead:
        to_go = f", {cond.concentrate_left} turn(s) to go" if cond.concentrate_left else ""
        out.append(Badge(cid, f"concentrating: {cond.concentrating}{to_go}", "info", "G-27",
                         "until the task is finished; distracted before then: Will-3"))
    if seen:
        for w in c.sheet.weapons:
            left = maneuvers.shots_left(cond, w)
            if left is not None:
                out.append(Badge(cid, f"{w.name}: {left}/{w.shots} shots", "bad" if left == 0 else "info", "G-33",
                                 "a Ready reloads it" if left == 0 else "each shot fired counts down"))
    return out


def _summary(c: Combatant, seen: bool, policy: Policy) -> str:
    cond: Condition = c.condition
    words = [w for w, on in (("dead", cond.dead), ("unconscious", cond.unconscious and not cond.dead),
                             ("collapsed", cond.collapsed), ("stunned", cond.stunned)) if on]
    if cond.posture != "standing":
        words.append(_human(cond.posture))
    head = f"{c.name} ({c.side.upper()})"
    if not seen:
        return head + (": " + ", ".join(words) if words else "")
    sheet = c.sheet
    move, dodge = _move_dodge(sheet, cond, policy)
    numbers = f"HP {cond.hp}/{sheet.hp_max}, {_fatigue_numbers(sheet, cond, policy)}, Move {move}, Dodge {dodge}"
    weapons = [f"{w.name} {w.skill}, {derived.weapon_roll(sheet, w, policy).text()}"
               + (f", {maneuvers.shots_left(cond, w)}/{w.shots} shots" if w.counts_shots else "")
               for w in sheet.weapons]
    return (f"{head}: {numbers}" + (" · " + "; ".join(weapons) if weapons else "")
            + ("; " + ", ".join(words) if words else ""))


def _waiting_for(ruleset: Ruleset, state: FightState, blocking: bool, sees: Callable[[str], bool]) -> str:
    """What the fight waits on; a prompt about a combatant this seat may not see is named by its neutral
    text (``hidden_prompt_text``, as the redacted prompt is): its own text may give the sheet's numbers
    away (a major wound's injury against HP/2, V-61's death zone of racial IQ/10)."""
    if state.status == "setup":
        return "The GM adds combatants and starts combat."
    if state.status == "ended":
        return ""
    for p in state.prompts:
        if p.kind != "dispute":
            who = state.combatants[p.combatant].name if p.combatant is not None and p.combatant in state.combatants \
                else "the GM"
            text = p.text
            if p.combatant is not None and p.combatant in state.combatants and not sees(p.combatant):
                text = ruleset.hidden_prompt_text.get(p.kind, "{name}: " + _human(p.kind)).format(name=who)
            return f"Waiting for {who}: {text}"
    combat = state.combat
    if _stalled(state):  # G-19, G-51: no next turn starts
        return ("Nobody can act: every combatant is dead, unconscious or collapsed. Waiting for the GM to end "
                "the fight, or to wake someone or give FP back (Adjust), or to undo.")
    if isinstance(combat, Combat) and combat.current in state.combatants and not blocking:
        return f"Waiting for {state.combatants[combat.current].name} to choose a maneuver."
    return ""
