"""SHELL live state: a combatant's condition, the attack waiting for its defence or
damage, and the round's turn order (S-17). Plain JSON-able values, so a refold
gives byte-identical state."""

from __future__ import annotations

from typing import Any

import attrs

from combat_server.rules.kit.rolls import Mod
from combat_server.rules.model import ADJUSTABLE_TO, Combatant, FightState, combatant_or_none, names_or_none


def _maneuver_names() -> Any:
    from combat_server.rules.shell.actions import MANEUVER_NAMES  # it imports this module: read when first adjusted
    return MANEUVER_NAMES


#: S-18, S-24: the maneuvers ``act`` takes (``Condition.maneuver``), or "" (none).
maneuver_names = names_or_none(_maneuver_names)


def weapon_or_none(state: FightState, combatant: Combatant) -> tuple[str, ...]:
    """A weapon of this combatant's sheet, the bare hand (S-32), or "" (none)."""
    return ("", "bare hand", *(w.name for w in combatant.sheet.weapons))


def spell_or_none(state: FightState, combatant: Combatant) -> tuple[str, ...]:
    """A spell of this combatant's sheet (S-44), or "" (none)."""
    return ("", *(spell.name for art in combatant.sheet.arts for spell in art.spells))


@attrs.frozen
class Condition:
    """Everything about a combatant that changes during a fight; a GM may adjust any scalar field."""

    end: int
    wounds: dict[str, int] = attrs.field(factory=dict)  # uncapped damage per location (S-38, A-78)
    stun_damage: int = 0  # non-lethal crushing damage (S-35)
    fatigue: int = 0  # combat-fatigue accumulator in 1/300 END (S-46, A-82)
    active: bool = False  # moved, attacked or defended this round (S-46, R-19)
    stunned: bool = False  # loses its next turn, DEF -2 until then (S-32)
    unconscious: bool = False
    dead: bool = False
    crippled: tuple[str, ...] = ()  # S-37
    permanent: tuple[str, ...] = ()  # S-37: permanently crippled
    #: the last maneuver, in force until the next action (S-18)
    maneuver: str = attrs.field(default="", metadata={ADJUSTABLE_TO: maneuver_names})
    maneuver_at: int = 0  # a GM-defined maneuver's modifiers (S-24)
    maneuver_def: int = 0
    blocks_used: int = 0  # blocks (and stop thrusts) this round (S-28, R-13, S-40)
    knocked_down: bool = False  # S-28, S-42, R-16
    #: the combatant it is in close combat with (S-40)
    close_with: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})
    pinned_by: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})  # S-43
    pinning: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})
    aim_target: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})  # S-23, A-67, R-15
    aim_turns: int = 0
    #: a Guard's counterattack is still open, with this weapon (S-20, A-65)
    guard_weapon: str = attrs.field(default="", metadata={ADJUSTABLE_TO: weapon_or_none})
    #: the spell being concentrated on (S-44)
    casting: str = attrs.field(default="", metadata={ADJUSTABLE_TO: spell_or_none})
    cast_turns: int = 0  # turns of uninterrupted concentration so far
    cast_target: str = attrs.field(default="", metadata={ADJUSTABLE_TO: combatant_or_none})
    lost: tuple[str, ...] = ()  # weapons (and the shield) disarmed or broken (S-22, S-45)
    wp_safe: bool = False  # passed the WP roll at END <= 0; no new roll until END is spent (S-13)
    moved: int = 0  # units moved on its last turn (A-72: a moving target)


@attrs.frozen
class Attack:
    """An attack declared and waiting for its defence, its roll or its damage (S-25)."""

    attacker: str
    target: str
    kind: str  # attack | counter | preempt | disarm | stop_thrust | shield_block | takedown | pin | escape
    weapon: str  # "" for a bare hand
    maneuver: str
    at: tuple[Mod, ...] = ()
    location: str = "torso"
    damage_type: str = "cut"
    non_lethal: bool = False
    two_handed: bool = False
    charge: int = 0  # +damage on a hit (S-19); for a stop thrust the charger's bonus (S-40)
    ranged: bool = False
    speed: int = 1  # S-27, after R-02
    unaware: bool = False  # S-28: no defence
    target_weapon: str = ""  # S-22: the weapon a disarm is aimed at
    then_pin: bool = False  # a free pin roll after a successful takedown
    st_of: str = ""  # S-40: a weapon set against a charge does damage by the charger's ST
    result: str = ""  # the S-25 chart result, once rolled
    blocked_with: str = ""  # the weapon or "shield" that blocked (S-45)


@attrs.frozen
class Combat:
    """The round's order (recomputed every round, S-17, A-64) and where the fight is in it."""

    order: tuple[str, ...] = ()
    round: int = 0
    index: int = -1
    current: str = ""
    acted: bool = False  # the current combatant's action is taken (its turn ends once nothing waits)
    attack: Attack | None = None
    between: bool = False  # a round ended and the next one's order is still to be decided (S-17, A-64)
