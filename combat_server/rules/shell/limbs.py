"""What a crippled location takes away (S-37 item 1: "the limb or eye is unusable").

The seed says no more than that (seed 002: "in addition to losing the use of that limb or
eye"), so this module holds the product's reading of it (docs/shell.md, "S-37: what a
crippled location stops"):

* an arm is out of use when it or its hand is crippled, a leg when it or its foot is (the
  hand and foot belong to their limb: S-37's table, A-78, R-14);
* with no arm in use: no attack with a weapon or a bare hand, no disarm, Guard, takedown or
  pin, no block or parry, no stop thrust or shield block (an escape from a pin stays open:
  it is the body wriggling free, and refusing it would pin the victim for good);
* with one arm out of use: nothing that needs both hands (a two-handed weapon, an
  either-handed one used two-handed). The sheet does not say which arm holds the shield or
  the weapon, so a one-armed fighter keeps its one-handed weapons and its shield;
* with no leg in use: no movement at all (no step, no move, no step into close combat);
  with a leg out of use: at most a step (the seed says nothing more specific);
* with every eye blinded: no ranged attack and no aim (S-30: a defender one cannot see
  cannot be shot at); melee attacks and defences as by one who cannot see (S-29 AT -4,
  S-31 DEF -4).

A body without arms (a quadruped, S-16) strikes with what its sheet lists; the arm rules
do not apply to it. Pure: reads the condition's ``crippled`` locations and changes nothing,
so it decides what a command may do and never how an event folds.
"""

from __future__ import annotations

import attrs

from combat_server.errors import Rejected, reject
from combat_server.rules.shell import bodies, damage
from combat_server.rules.shell.sheet import Weapon

CODE = "limb/crippled"


@attrs.frozen
class Limbs:
    """A body's arms, legs and eyes, and which crippled locations put them out of use."""

    arms: int
    arms_out: tuple[str, ...]  # the crippled arms and hands (one per arm out of use, or both)
    arms_left: int
    legs: int
    legs_out: tuple[str, ...]
    legs_left: int
    eyes_out: tuple[str, ...]  # the blinded eyes, when every eye is (else empty)


def _limbs(body: str, kind: str, crippled: tuple[str, ...]) -> tuple[int, tuple[str, ...], int]:
    limbs = [row.name for row in bodies.table(body) if row.kind == kind]
    out: list[str] = []
    left = 0
    for limb in limbs:
        parts = [limb] + [part for part, whole in damage.LIMB_OF.items() if whole == limb]
        hurt = [p for p in parts if p in crippled]
        out.extend(hurt)
        left += not hurt
    return len(limbs), tuple(out), left


def of(body: str, crippled: tuple[str, ...]) -> Limbs:
    arms, arms_out, arms_left = _limbs(body, "arm", crippled)
    legs, legs_out, legs_left = _limbs(body, "leg", crippled)
    eyes = [row.name for row in bodies.table(body) if row.kind == "eye"]
    blind = tuple(e for e in eyes if e in crippled) if eyes and all(e in crippled for e in eyes) else ()
    return Limbs(arms, arms_out, arms_left, legs, legs_out, legs_left, blind)


def arms_needed(weapon: Weapon | None, two_handed: bool = False) -> int:
    """A two-handed weapon, or an either-handed one used two-handed, needs both arms (S-48)."""
    if weapon is not None and (weapon.hands == "two" or (two_handed and weapon.hands == "either")):
        return 2
    return 1


def has_arms(limbs: Limbs, need: int) -> bool:
    """``need`` arms in use, or a body without arms (its attacks are not held in hands)."""
    return limbs.arms == 0 or limbs.arms_left >= need


def require_arms(limbs: Limbs, need: int, who: str, what: str, field: str) -> None:
    """Refuse ``what`` when fewer than ``need`` arms are in use."""
    if not has_arms(limbs, need):
        raise reject(CODE, f"{who}'s {' and '.join(limbs.arms_out)} crippled: {what} needs {need} arm(s) in use, "
                     f"it has {limbs.arms_left} (S-37)", field=field, locations=list(limbs.arms_out))


def move_limit(limbs: Limbs) -> int | None:
    """The units the legs allow (None: no limit from them): 0 with no leg in use, a step with one out."""
    if limbs.legs == 0 or not limbs.legs_out:
        return None
    return 0 if limbs.legs_left == 0 else 1


def legs_refusal(limbs: Limbs, who: str, what: str, field: str) -> Rejected:
    most = move_limit(limbs) or 0
    return reject(CODE, f"{who}'s {' and '.join(limbs.legs_out)} crippled: {what}; "
                  + ("no movement at all" if most == 0 else "at most a step") + " (S-37)",
                  field=field, locations=list(limbs.legs_out), most=most)


def refuse_blind(limbs: Limbs, who: str, what: str, field: str) -> None:
    """Refuse ``what`` (aimed at a defender) when every eye is blinded."""
    if limbs.eyes_out:
        raise reject(CODE, f"{who} is blind ({' and '.join(limbs.eyes_out)} crippled): no {what} at a defender "
                     "it cannot see (S-37, S-30)", field=field, locations=list(limbs.eyes_out))
