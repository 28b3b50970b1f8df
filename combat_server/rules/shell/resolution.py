"""SHELL attack resolution (S-25 ... S-31) and the task rolls (S-01, S-02, S-10,
S-12): every AT and DEF is a list of :class:`Mod` with its reason and rule id, so
a roll event can explain itself; the dice are inputs.

Why R = 2d10 + AT - DEF is resolved by one function with the shield PR as a
parameter: the same chart serves melee, ranged, dodges (A-68) and close combat
(no shield band, S-41)."""

from __future__ import annotations

from typing import Sequence

import attrs

from combat_server.rules.kit.rolls import Mod as Mod  # the kit's modifier, re-exported for SHELL's modules
from combat_server.rules.model import JSON
from combat_server.rules.shell import bodies, charts
from combat_server.rules.shell.sheet import DIFFICULTIES, Sheet, Spell, Weapon, st_shortfall


def total(mods: Sequence[Mod]) -> int:
    return sum(m.value for m in mods)


# --- the result chart (S-25) --------------------------------------------------

MISS, DEFENDED, SHIELD_HIT, HIT = "miss", "defended", "shield hit", "hit"


def chart_result(r: int, shield_pr: int | None = None, at_weapon: bool = False, defenceless: bool = False) -> str:
    """S-25: <= 8 miss; 9-11 successful defence (a miss when no defence was possible,
    A-68); 12 .. 11+PR hits the shield (none when aimed at a weapon or without a
    shield); above that the defender (or the weapon) is hit."""
    if r <= 8 or (r <= 11 and defenceless):
        return MISS
    if r <= 11:
        return DEFENDED
    if shield_pr is not None and not at_weapon and r <= 11 + shield_pr:
        return SHIELD_HIT
    return HIT


@attrs.frozen
class AttackRoll:
    """The roll record: dice, both sides' modifiers with reasons, R and the outcome."""

    dice: tuple[int, int]
    at: tuple[Mod, ...]
    defence: tuple[Mod, ...]
    shield_pr: int | None
    outcome: str

    @property
    def r(self) -> int:
        return sum(self.dice) + total(self.at) - total(self.defence)

    def to_json(self) -> dict[str, JSON]:
        return {"dice": list(self.dice), "at": [m.to_json() for m in self.at], "at_total": total(self.at),
                "def": [m.to_json() for m in self.defence], "def_total": total(self.defence),
                "r": self.r, "shield_pr": self.shield_pr, "outcome": self.outcome, "rule": "S-25"}


def resolve(dice: tuple[int, int], at: Sequence[Mod], defence: Sequence[Mod], shield_pr: int | None = None,
            at_weapon: bool = False, defenceless: bool = False) -> AttackRoll:
    """S-25: R = 2d10 + AT - DEF read on the chart. ``dice`` are the two d10 faces."""
    if len(dice) != 2 or not all(1 <= d <= 10 for d in dice):
        raise ValueError(f"2d10 faces must be two numbers 1..10, got {dice!r}")
    r = sum(dice) + total(at) - total(defence)
    return AttackRoll(tuple(dice), tuple(at), tuple(defence), shield_pr,  # type: ignore[arg-type]
                      chart_result(r, shield_pr, at_weapon, defenceless))


# --- AT (S-26, S-29, S-30, S-48) ------------------------------------------------


def base_at(sheet: Sheet, weapon: Weapon, two_handed: bool = False, ag: int | None = None,
            st: int | None = None) -> list[Mod]:
    """S-26: style level + AG AT mod (+ AT Mod, weapon and style bonuses), S-48 ST shortfall.
    ``ag``/``st`` are the current values (S-13 lowers them)."""
    style = sheet.style(weapon.style)
    mods = [Mod(style.level, f"{style.name} level", "S-26"),
            Mod(charts.ag_at_mod(sheet.ag if ag is None else ag), "AG", "S-03")]
    if style.at_bonus:
        mods.append(Mod(style.at_bonus, f"{style.name} attack bonus", "S-47"))
    if weapon.at_mod:
        mods.append(Mod(weapon.at_mod, weapon.name, "S-47"))
    if sheet.at_mod:
        mods.append(Mod(sheet.at_mod, "AT Mod", "S-04"))
    short = st_shortfall(sheet, weapon, two_handed, st)
    if short:
        mods.append(Mod(short, f"ST under {weapon.name}'s minimum", "S-48"))
    return mods


#: The S-29 reason an attacker's higher ground is recorded with (the defence refuses a second claim).
HIGHER_AT = "higher than the defender"


@attrs.frozen
class AttackSituation:
    """The S-29 / S-30 situation of one attack (all default to "not the case")."""

    maneuver: str = "attack"
    maneuver_at: int | None = None  # for a GM-defined maneuver (S-18 "other", S-24)
    location: str = "torso"
    body: str = "humanoid"  # the defender's body type: its table replaces the humanoid one (S-16, A-63)
    far_side: bool = False
    moved_steps: int = 0
    wild_swing: bool = False
    off_hand: bool = False
    higher: bool = False
    cant_see: bool = False
    bare_hand_disarm: bool = False
    # ranged (S-30)
    ranged: bool = False
    aim_turns: int = 0
    range_units: int = 0
    target_moved: int = 0
    obstructions: int = 0
    # close combat (S-42, S-43)
    st_difference: int = 0
    weight_difference: float = 0.0


def situation_at(s: AttackSituation, ambidextrous: bool = False) -> list[Mod]:
    """S-18 maneuver, S-29 chart, S-30 ranged modifiers, S-22 disarm, S-42/S-43."""
    mods: list[Mod] = []
    m_at = s.maneuver_at if s.maneuver_at is not None else charts.MANEUVERS.get(s.maneuver, (0, 0))[0]
    if m_at:
        mods.append(Mod(m_at, s.maneuver, charts.maneuver_rule(s.maneuver)))
    if s.moved_steps > 1:
        mods.append(Mod(-2, "moved more than one step", "S-19"))
    if s.wild_swing:
        mods.append(Mod(-2, "wild swing", "S-29"))
    if s.off_hand and not ambidextrous:
        mods.append(Mod(-3, "off-handed", "S-29"))
    if s.higher:
        mods.append(Mod(1, HIGHER_AT, "S-29"))
    if s.cant_see and not s.ranged:
        mods.append(Mod(-4, "cannot see the defender", "S-29"))
    if s.location == "weapon" or s.body == bodies.HUMANOID:
        loc = charts.LOCATION_AT[s.location]
        if loc:
            mods.append(Mod(loc, f"aimed at the {s.location}", "S-29"))
    else:
        loc = bodies.kind_at(s.body, s.location)
        if loc:
            mods.append(Mod(loc, f"aimed at the {s.body}'s {s.location}", "S-16, A-63"))
    if s.far_side:
        mods.append(Mod(-3, "far side", "S-29"))
    if s.bare_hand_disarm:
        mods.append(Mod(-2, "disarming bare-handed", "S-22"))
    if s.ranged:
        aim = min(3, max(0, s.aim_turns))
        if aim:
            mods.append(Mod(aim, f"aimed {s.aim_turns} turn(s)", "S-30"))
        band = charts.range_penalty(s.range_units)
        if band:
            mods.append(Mod(band, f"range {s.range_units}", "S-30"))
        moving = charts.range_penalty(s.target_moved) if s.target_moved else 0
        if moving:
            mods.append(Mod(moving, f"target moved {s.target_moved}", "A-72"))
        if s.obstructions:
            mods.append(Mod(-3 * s.obstructions, f"cover ({s.obstructions})", "S-30"))
    if s.st_difference:
        mods.append(Mod(s.st_difference, "ST difference", "S-42"))
    weight = pin_weight_mod(s.weight_difference)
    if weight:
        mods.append(Mod(weight, "weight difference", "S-43"))
    return mods


def pin_weight_mod(weight_difference: float) -> int:
    """S-43 / A-80: +-1 per full 20 lb heavier or lighter, truncated toward zero."""
    steps = int(abs(weight_difference) // 20)
    return steps if weight_difference >= 0 else -steps


def charge_bonus(units_moved: int) -> int:
    return charts.charge_bonus(units_moved)


# --- DEF (S-26, S-27, S-28, S-31) -------------------------------------------------


def block_def(sheet: Sheet, style_name: str, weapon: Weapon | None = None, ag: int | None = None) -> list[Mod]:
    """S-26: block or parry DEF = style level + AG DEF mod (+ DEF Mod, weapon, style bonus)."""
    style = sheet.style(style_name)
    mods = [Mod(style.level, f"{style.name} level", "S-26"),
            Mod(charts.ag_def_mod(sheet.ag if ag is None else ag), "AG", "S-03")]
    if style.block_bonus:
        mods.append(Mod(style.block_bonus, f"{style.name} block bonus", "S-47"))
    if weapon is not None and weapon.def_mod:
        mods.append(Mod(weapon.def_mod, weapon.name, "S-47"))
    if sheet.def_mod:
        mods.append(Mod(sheet.def_mod, "DEF Mod", "S-04"))
    return mods


def dodge_def(sheet: Sheet, el: int, ag: int | None = None) -> list[Mod]:
    """S-26: best style level + AG DEF mod - (1 + EL) (+ DEF Mod and the style's dodge bonus)."""
    best = max(sheet.styles, key=lambda s: (s.level, s.dodge_bonus), default=None)
    mods = [Mod(0 if best is None else best.level, f"best style ({'none' if best is None else best.name})", "S-26"),
            Mod(charts.ag_def_mod(sheet.ag if ag is None else ag), "AG", "S-03"),
            Mod(-(1 + el), f"dodging at EL {el}", "S-26")]
    if best is not None and best.dodge_bonus:
        mods.append(Mod(best.dodge_bonus, f"{best.name} dodge bonus", "S-47"))
    if sheet.def_mod:
        mods.append(Mod(sheet.def_mod, "DEF Mod", "S-04"))
    return mods


def effective_speed(speed: int, range_units: float, weapon_max_range: float, low_tech: bool = True) -> int:
    """S-27 / R-02: a low-tech weapon's speed drops to 1 beyond half its max range."""
    return 1 if low_tech and range_units * 2 > weapon_max_range else speed


def ranged_base_def(base: Sequence[Mod], speed: int) -> list[Mod]:
    """S-27 / A-70: the base DEF divided by the speed, floored, minimum 0, as one line."""
    value = max(0, total(base) // speed)
    return [Mod(value, f"base DEF {total(base)} against speed {speed}", "S-27")]


@attrs.frozen
class DefenceSituation:
    """The S-31 situation of the defender."""

    last_maneuver: str = "attack"
    maneuver_def: int | None = None
    wild_block: bool = False
    off_hand_block: bool = False
    higher: bool = False
    stunned: bool = False
    cant_see: bool = False
    knocked_down: bool = False


def situation_def(s: DefenceSituation, ambidextrous: bool = False) -> list[Mod]:
    mods: list[Mod] = []
    m_def = s.maneuver_def if s.maneuver_def is not None else charts.MANEUVERS.get(s.last_maneuver, (0, 0))[1]
    if m_def:
        mods.append(Mod(m_def, f"last maneuver {s.last_maneuver}", charts.maneuver_rule(s.last_maneuver)))
    if s.wild_block:
        mods.append(Mod(-2, "wild block or parry", "S-31"))
    if s.off_hand_block and not ambidextrous:
        mods.append(Mod(-3, "blocking off-handed", "S-31"))
    if s.higher:
        mods.append(Mod(1, "higher than the attacker", "S-31"))
    if s.stunned:
        mods.append(Mod(-2, "stunned", "S-32"))
    if s.cant_see:
        mods.append(Mod(-4, "cannot see the attacker", "S-31"))
    if s.knocked_down:
        mods.append(Mod(-4, "knocked down", "S-28"))
    return mods


def blocks_left(level: int, used: int) -> int:
    """S-28 / R-13: a declared block uses one of the round's blocks, hit or miss."""
    return max(0, charts.blocks_per_round(level) - used)


def can_block(level: int, used: int, knocked_down: bool = False, close_combat: bool = False) -> bool:
    """S-28: blocks per round by level; knocked-down and close-combat defenders only dodge (S-41)."""
    return not knocked_down and not close_combat and blocks_left(level, used) > 0


# --- 3d6 rolls (S-01, S-02, S-10, S-12) -------------------------------------------


@attrs.frozen
class TaskRoll:
    dice: tuple[int, int, int]
    target: int

    @property
    def margin(self) -> int:
        return self.target - sum(self.dice)

    @property
    def success(self) -> bool:
        return self.margin >= 0


def roll_3d6(dice: tuple[int, int, int], target: int) -> TaskRoll:
    """S-01: success on 3d6 <= target."""
    if len(dice) != 3 or not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"3d6 faces must be three numbers 1..6, got {dice!r}")
    return TaskRoll(tuple(dice), target)  # type: ignore[arg-type]


def attribute_target(attribute: int, difficulty: str = "average", other: int = 0) -> int:
    """S-01: easy +2, average 0, hard -3, plus any GM modifier."""
    return attribute + DIFFICULTIES[difficulty] + other


def contest(a: TaskRoll, b: TaskRoll) -> int:
    """S-02: 1 if the first wins, -1 if the second, 0 for a tie (equal margins)."""
    return (a.margin > b.margin) - (a.margin < b.margin)


def task_target(attribute: int, level: int, min_level: int, difficulty: str = "average") -> int | None:
    """S-10: attribute + difficulty + (level - minimum); None when below the minimum (no chance)."""
    if level < min_level:
        return None
    return attribute + DIFFICULTIES[difficulty] + level - min_level


def spell_target(iq: int, art_level: int, spell: Spell) -> int | None:
    """S-12: a task against IQ, hard unless the spell says otherwise."""
    return task_target(iq, art_level, spell.min_level, spell.difficulty)


def spell_end_cost(spell: Spell, success: bool) -> int:
    """S-12: success costs the spell's END; failure 1, unless the spell costs 0."""
    if success:
        return spell.end_cost
    return 1 if spell.end_cost > 0 else 0


def mr_immune(spell: Spell, mr: int) -> bool:
    """S-12 / S-04: immune when the spell's minimum level <= MR."""
    return mr > 0 and spell.min_level <= mr
