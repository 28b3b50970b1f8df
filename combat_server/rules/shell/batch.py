"""The kit's event accumulator with typed readers of SHELL state and the numbers a
combatant has *now*: its sheet's derived values lowered by fatigue (S-13, A-62)."""

from __future__ import annotations

import attrs

from combat_server.errors import reject
from combat_server.rules.kit import batch
from combat_server.rules.kit.prompts import roll_prompt
from combat_server.rules.kit.rolls import Mod, record
from combat_server.rules.model import JSON, FightState
from combat_server.rules.shell import endurance
from combat_server.rules.shell.limbs import Limbs, of as limbs_of
from combat_server.rules.shell.sheet import Derived, Sheet, Style, Weapon, bare_hand, derive
from combat_server.rules.shell.state import Combat, Condition


@attrs.frozen
class Now:
    """A combatant's current ST, AG and MV points (S-13 fatigue, A-62; S-17 MV - EL)."""

    st: int
    ag: int
    mv_points: int
    derived: Derived
    sheet: Sheet


def sheet_of(state: FightState, cid: str) -> Sheet:
    sheet = state.combatant(cid).sheet
    assert isinstance(sheet, Sheet)
    return sheet


def carrying(state: FightState, cid: str) -> Sheet:
    """The sheet as carried now: weapons and a shield disarmed or broken weigh nothing any more
    (S-07), which is why EL, and so initiative, is recomputed every round (A-64)."""
    sheet = sheet_of(state, cid)
    lost = state.combatants[cid].condition.lost
    if not lost:
        return sheet
    shield = None if sheet.shield is not None and sheet.shield.name in lost else sheet.shield
    return attrs.evolve(sheet, weapons=tuple(w for w in sheet.weapons if w.name not in lost), shield=shield)


def derived_now(state: FightState, cid: str) -> Derived:
    """:func:`sheet.derive` of what the combatant carries now."""
    return derive(carrying(state, cid))


def now(state: FightState, cid: str, rederive: bool = False) -> Now:
    """S-13 / A-62: END at or under a third of ENDmax lowers ST, AG and MV by 1, at 0 or less by 2
    (MV halved); ``rederive`` is the ``fatigue_rederives_mv`` option. A-61: an overloaded sheet
    under the "immobile" reading has no MV points."""
    sheet = sheet_of(state, cid)
    d = derived_now(state, cid)
    cond = state.combatants[cid].condition
    assert isinstance(cond, Condition)
    f = endurance.fatigue(cond.end, d.end, d.mv, d.wp, (sheet.st, sheet.ag, sheet.mv_bonus) if rederive else None)
    return Now(sheet.st + f.st, sheet.ag + f.ag, 0 if d.overloaded else max(0, f.mv - d.el), d, sheet)


def can_act(state: FightState, cid: str) -> bool:
    c = state.combatants.get(cid)
    return c is not None and isinstance(c.condition, Condition) and not (c.condition.dead or c.condition.unconscious)


def best_hand_style(sheet: Sheet) -> Style | None:
    """The hand-to-hand style a bare hand, a shield block or a grapple uses: the highest (our reading)."""
    styles = [s for s in sheet.styles if s.kind == "hand-to-hand"] or list(sheet.styles)
    return max(styles, key=lambda s: s.level, default=None)


def weapons_in_hand(state: FightState, cid: str) -> list[Weapon]:
    """The sheet's weapons not disarmed or broken, then the bare hand (S-32) if it has a style."""
    sheet = sheet_of(state, cid)
    cond = state.combatants[cid].condition
    out = [w for w in sheet.weapons if w.name not in cond.lost]
    style = best_hand_style(sheet)
    if style is not None:
        out.append(bare_hand(style.name))
    return out


def has_shield(state: FightState, cid: str) -> bool:
    sheet = sheet_of(state, cid)
    return sheet.shield is not None and sheet.shield.name not in state.combatants[cid].condition.lost


def judge_3d6(total: int, target: int) -> str:
    return "success" if total <= target else "failure"  # S-01


class Batch(batch.Batch):
    @property
    def combat(self) -> Combat:
        combat = self.state.combat
        if not isinstance(combat, Combat):
            raise reject("combat/not_started", "combat has not started: the GM sends start_combat first")
        return combat

    def cond(self, cid: str) -> Condition:
        cond = self.state.combatant(cid).condition
        assert isinstance(cond, Condition)
        return cond

    def sheet(self, cid: str) -> Sheet:
        return sheet_of(self.state, cid)

    def now(self, cid: str) -> Now:
        return now(self.state, cid, bool(self.option("fatigue_rederives_mv")))

    def limbs(self, cid: str) -> Limbs:
        """S-37 item 1: the arms, legs and eyes its crippled locations leave in use."""
        return limbs_of(self.sheet(cid).body, self.cond(cid).crippled)

    def weapon(self, cid: str, name: str, field: str = "weapon") -> Weapon:
        """A weapon the combatant still holds, by name; "": its first (the bare hand when it holds none)."""
        held = weapons_in_hand(self.state, cid)
        wanted = name or (held[0].name if held else "bare hand")
        for w in held:
            if w.name == wanted:
                return w
        raise reject("attack/unknown_weapon", f"{self.name(cid)} holds no weapon {wanted!r}", field=field,
                     known=[w.name for w in weapons_in_hand(self.state, cid)])

    def check(self, cid: str, purpose: str, base: int, base_reason: str, mods: tuple[Mod, ...],
              rule: str) -> dict[str, JSON]:
        """A 3d6 roll under a target (S-01, S-10), as a roll record."""
        return record(purpose=purpose, roller=cid, dice=self.roll(3, 6, purpose), base=base,
                      base_reason=base_reason, mods=mods, judge=judge_3d6, rule=rule)

    def ask_roll(self, cid: str | None, purpose: str, text: str, count: int = 3, sides: int = 6,
                 **options: JSON) -> dict[str, JSON]:
        return roll_prompt(cid, purpose, text, count=count, sides=sides, **options)
