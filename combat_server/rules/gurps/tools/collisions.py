"""GULLIVER collisions (V-29 … V-35) as GM tools, and the impact arithmetic falling shares.

Why one module holds both: a fall is a collision with the Earth (V-40 reuses V-31's
mass factor, V-32's hardness and V-33's absorption; V-41's falling object is V-34's
splat), so the damage roll, the materials and the absorption are defined once here
and ``falling.py`` imports them.

Rounding follows the catalogue's readings: fractional dice are rolled as ceil(n)
dice whose total is scaled by n / ceil(n) (R-03); every multiplier (mass, hardness)
scales the rolled total, absorption is subtracted, and the result is floored once at
the very end (R-01, A-42, A-43). Everything is an exact :class:`Fraction`; the only
irrational number, a square root (mass factor, terminal velocity, trampling dice), is
taken exactly when it is rational and otherwise to four significant digits, which
is the precision of the catalogue's own worked examples (E-18: 2.582, 10.95d).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

import attrs

from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm, Step, number
from combat_server.rules.model import JSON

# --- exact numbers ---------------------------------------------------------------------------


def exact(value: JSON) -> Fraction:
    """An input number as an exact fraction (``0.1`` is 1/10, not the float nearest it)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"not a number: {value!r}")
    return Fraction(str(value))


def root(x: Fraction) -> Fraction:
    """√x: exact when x is the square of a fraction, else rounded to four significant digits.

    Pure integer arithmetic (no float), so refolding an applied result is byte-identical.
    """
    if x < 0:
        raise ValueError("square root of a negative number")
    if x == 0:
        return Fraction(0)
    num, den = math.isqrt(x.numerator), math.isqrt(x.denominator)
    if num * num == x.numerator and den * den == x.denominator:
        return Fraction(num, den)
    shift = 0  # scale so that √(x·10^(2·shift)) lies in [1000, 10000)
    while x * Fraction(10) ** (2 * shift) < 10**6:
        shift += 1
    while x * Fraction(10) ** (2 * shift) >= 10**8:
        shift -= 1
    scaled = x * Fraction(10) ** (2 * shift)
    whole = math.isqrt(scaled.numerator // scaled.denominator)
    if Fraction(2 * whole + 1, 2) ** 2 <= scaled:
        whole += 1
    return Fraction(whole) / Fraction(10) ** shift


def show(x: Fraction) -> str:
    """A number for a step's text: whole, or a decimal to three places (three significant digits
    below 0.1, so a mouse's mass factor still reads 0.0144), ``≈`` when that is not exact."""
    if x.denominator == 1:
        return str(x.numerator)
    places = 3
    while abs(x) * 10**places < 100 and places < 12:
        places += 1
    units = round(abs(x) * 10**places)
    sign = "-" if x < 0 and units else ""
    text = f"{sign}{units // 10**places}.{units % 10**places:0{places}d}".rstrip("0").rstrip(".")
    return text if Fraction(text) == x else f"≈{text}"


# --- the damage roll -------------------------------------------------------------------------


@attrs.frozen
class Roll:
    """What to roll: ``dice``d6 plus ``adds``, the total multiplied by ``scale``.

    The scale carries R-03's n / ceil(n) for fractional dice, the falling table's
    divided forms (1d/10) and every V-31/V-32/V-40 multiplier, applied to the rolled
    total as A-42 and R-01 read it.
    """

    dice: int
    adds: int = 0
    scale: Fraction = Fraction(1)

    def times(self, factor: Fraction) -> Roll:
        return attrs.evolve(self, scale=self.scale * factor)

    def base(self) -> str:
        if self.dice == 0:
            return "0"
        return f"{self.dice}d{self.adds:+d}" if self.adds else f"{self.dice}d"

    def text(self) -> str:
        """``3d``, ``(12d+2) × 2``, ``1d/10``: the roll and its multiplier."""
        if self.dice == 0 or self.scale == 1:
            return self.base()
        if self.scale.numerator == 1 and not self.adds:
            return f"{self.base()}/{self.scale.denominator}"
        base = f"({self.base()})" if self.adds else self.base()
        return f"{base} × {number(self.scale)}"

    def count(self) -> str:
        """The roll as a number of dice, ``21.9d``, where it has no adds (E-18's way of writing it)."""
        return f"{show(self.dice * self.scale)}d" if self.dice and not self.adds else self.text()

    def mean(self) -> Fraction:
        return (Fraction(7, 2) * self.dice + self.adds) * self.scale

    def low(self) -> Fraction:
        return Fraction(self.dice + self.adds) * self.scale

    def high(self) -> Fraction:
        return Fraction(6 * self.dice + self.adds) * self.scale


def fractional_dice(count: Fraction) -> Roll:
    """R-03: n dice, n fractional: roll ceil(n) dice and scale the total by n / ceil(n)."""
    if count <= 0:
        return Roll(0)
    whole = math.ceil(count)
    return Roll(whole, 0, count / whole)


@attrs.frozen
class ScaledHarm(Harm):
    """A :class:`Harm` whose rolled total is multiplied, then reduced, then floored (R-01, R-03).

    Points = max(0, floor((sum of the faces + adds) × multiplier − minus)) (the kit's
    ``Harm.total``), then DR and the rest of the normal injury path. ``minus`` is V-33's
    absorption (½ or ¼ HPmax), kept exact (A-43): it cannot be folded into whole
    ``adds`` once the total is multiplied (6d − 5 rolled as 3d × 2 − 5 gives odd
    totals). Only produced when the multiplier is not 1: with 1, a plain Harm with
    ``adds − ceil(minus)`` is the same number for every roll. This class only writes
    the roll the way the collision tables do (``3d × 2 - 5``) and always states both.
    """

    def to_json(self) -> dict[str, JSON]:
        out = super().to_json()
        out["multiplier"] = number(self.multiplier)
        out["minus"] = number(self.minus)
        return out

    def text(self) -> str:
        minus = f" - {number(self.minus)}" if self.minus else ""
        return f"{Roll(self.dice, self.adds, self.multiplier).text()}{minus} {self.kind}"


def harm(roll: Roll, minus: Fraction, kind: str, rule: str) -> Harm | None:
    """The Harm to apply for ``roll`` less ``minus`` (none for no dice)."""
    if roll.dice == 0:
        return None
    if roll.scale == 1:
        return Harm(dice=roll.dice, adds=roll.adds - math.ceil(minus), kind=kind, rule=rule)
    return ScaledHarm(dice=roll.dice, adds=roll.adds, kind=kind, rule=rule, multiplier=roll.scale, minus=minus)


def outcome(roll: Roll, minus: Fraction) -> dict[str, JSON]:
    """Average, least and most injury (before DR), floored once at the end (R-01)."""
    least, most = _least_most(roll, minus)
    return {"average": number(average(roll, minus)), "least": least, "most": most}


def _least_most(roll: Roll, minus: Fraction) -> tuple[int, int]:
    return max(0, math.floor(roll.low() - minus)), max(0, math.floor(roll.high() - minus))


def average(roll: Roll, minus: Fraction) -> Fraction:
    """The average injury as the catalogue states it (E-17: 6d - 5 averages 21 - 5 = 16, 2d - 5 averages
    2 with least 0): the roll's mean less ``minus``, but never outside the injury dealt: no less than
    ``least`` (so never below 0: absorption cannot make a negative injury, V-33) and no more than
    ``most``. No dice (a fall from 0, a collision at 0 mph) averages 0."""
    if roll.dice == 0:
        return Fraction(0)
    least, most = _least_most(roll, minus)
    return min(max(roll.mean() - minus, Fraction(least)), Fraction(most))


# --- materials and absorption (V-32, V-33, V-40) ----------------------------------------------


@attrs.frozen
class Material:
    """A struck surface or object: its V-32 hardness class and damage multiplier."""

    hardness: str
    multiplier: Fraction
    kind: str = "cr"


_VERY_HARD = Material("very hard", Fraction(2))
_HARD = Material("hard", Fraction(3, 2))
_YIELDING = Material("yielding", Fraction(1))
_SOFT = Material("soft", Fraction(2, 3))
_VERY_SOFT = Material("very soft", Fraction(1, 3))

#: V-32 (collisions) and V-40 (falling); a sharp point is very hard and impales (V-32).
MATERIALS: Mapping[str, Material] = {
    "stone": _VERY_HARD, "rock": _VERY_HARD, "concrete": _VERY_HARD, "metal": _VERY_HARD,
    "packed_soil": _HARD, "hard_soil": _HARD,
    "soft_soil": _YIELDING, "character": _YIELDING,
    "mud": _SOFT, "sand": _SOFT,
    "water": Material("liquid (belly flop)", Fraction(1, 2)),
    "water_dive": Material("liquid (proper diving form, V-40)", Fraction(1, 5)),
    "air_bag": _VERY_SOFT, "mattress": _VERY_SOFT, "cushion": _VERY_SOFT,
    "sharp_point": Material("very hard, sharp", Fraction(2), "imp"),
}

#: V-33: the share of HPmax an impact of this spread subtracts.
ABSORPTION: Mapping[str, tuple[Fraction, str]] = {
    "full_body": (Fraction(1, 2), "widely spread, full-body impact: ½ HPmax"),
    "localised": (Fraction(1, 4), "localised impact: ¼ HPmax"),
    "very_localised": (Fraction(0), "very localised impact: nothing"),
}


def material_input(title: str, **extra: JSON) -> dict[str, JSON]:
    return {"type": "string", "enum": list(MATERIALS), "title": title, **extra}


def absorption_input(default: str) -> dict[str, JSON]:
    return {"type": "string", "enum": list(ABSORPTION), "default": default,
            "title": "Impact spread (V-33 absorption)"}


def mph(title: str, maximum: int = 10000, **extra: JSON) -> dict[str, JSON]:
    return {"type": "number", "minimum": 0, "maximum": maximum, "title": title, "x-unit": "mph", **extra}


def pounds(title: str, **extra: JSON) -> dict[str, JSON]:
    return {"type": "number", "minimum": 0.0001, "maximum": 100_000_000, "title": title, "x-unit": "lb",
            **extra}


#: A combatant's mass for the tools: the GULLIVER size block's typed ``mass_lb`` (A-27), else a ``mass``
#: number where a ruleset's sheet has one; nothing found leaves the input to the GM.
MASS_PREFILL: tuple[str, ...] = ("gulliver.mass_lb", "mass")
HP_INPUT: dict[str, JSON] = {"type": "number", "minimum": 0, "maximum": 100_000, "title": "Victim's HPmax",
                             "x-unit": "HP"}


def absorb(steps: list[Step], hp: Fraction, spread: str, rule: str) -> Fraction:
    """V-33: what the victim's body absorbs of the rolled damage."""
    share, why = ABSORPTION[spread]
    minus = hp * share
    steps.append(Step(f"absorption: {why} of {show(hp)} = {show(minus)}", number(minus), rule))
    return minus


def finish(name: str, inputs: Mapping[str, JSON], steps: list[Step], result: dict[str, JSON], roll: Roll,
           minus: Fraction, kind: str, rule: str, lead: str) -> Calculation:
    """The calculation whose outcome is ``roll`` less ``minus`` of ``kind`` injury, floored once (R-01)."""
    result.update(outcome(roll, minus), roll=roll.text(), minus=number(minus), kind=kind)
    if roll.dice:
        less = f" - {show(minus)}" if minus else ""
        mean = average(roll, minus)
        steps.append(Step(f"injury = {roll.text()}{less}, floored once at the end, never below 0: "
                          f"average {show(mean)}", number(mean), "R-01"))
        shown = roll.text() if roll.count() == roll.text() else f"{roll.count()} (roll {roll.text()})"
        summary = (f"{lead} {shown}{less} {kind}: average {show(mean)}, "
                   f"{result['least']}..{result['most']} before DR")
    else:
        summary = f"{lead} no damage"
    return Calculation(tool=name, inputs=inputs, steps=tuple(steps), result=result, summary=summary,
                       harm=harm(roll, minus, kind, rule))


# --- V-29 / V-30: speeds ----------------------------------------------------------------------

GEOMETRIES = ("head_on", "rear_end", "a_broadsides_b", "b_broadsides_a", "right_angle_both")


@attrs.frozen
class Kinematics:
    """V-29/V-30 for objects A and B: combined speed, each one's speed change, new speeds."""

    combined: Fraction
    change_a: Fraction
    change_b: Fraction
    new_a: Fraction | None
    new_b: Fraction | None


def kinematics(steps: list[Step], geometry: str, speed_a: Fraction, speed_b: Fraction, mass_a: Fraction,
               mass_b: Fraction) -> Kinematics:
    """The speeds of an inelastic collision of A and B, with each step noted."""
    if geometry == "head_on":
        combined, how = speed_a + speed_b, f"head-on: {show(speed_a)} + {show(speed_b)}"
    elif geometry == "rear_end":
        combined = abs(speed_a - speed_b)
        how = f"rear-end: {show(max(speed_a, speed_b))} - {show(min(speed_a, speed_b))}"
    elif geometry == "a_broadsides_b":
        combined, how = speed_a, "right angle, A strikes: A's speed only"
    elif geometry == "b_broadsides_a":
        combined, how = speed_b, "right angle, B strikes: B's speed only"
    else:
        combined, how = (speed_a + speed_b) / 2, "right angle, both strike: the average"
    steps.append(Step(f"speed of impact, {how} = {show(combined)} mph", number(combined), "V-29"))
    total = mass_a + mass_b
    change_a, change_b = combined * mass_b / total, combined * mass_a / total
    steps.append(Step(f"A's speed change = {show(combined)} × B's mass {show(mass_b)} / {show(total)} "
                      f"= {show(change_a)} mph", number(change_a), "V-30"))
    steps.append(Step(f"B's speed change = {show(combined)} × A's mass {show(mass_a)} / {show(total)} "
                      f"= {show(change_b)} mph", number(change_b), "V-30"))
    small = min(change_a, change_b)
    if 0 < small <= 1 and change_a != change_b:
        # V-30 "Loss": friction absorbs a residual of about 1 mph; the lighter side takes it all.
        if change_a == small:
            change_a, change_b = Fraction(0), combined
        else:
            change_a, change_b = combined, Fraction(0)
        steps.append(Step(f"friction absorbs the heavier side's {show(small)} mph: A {show(change_a)}, "
                          f"B {show(change_b)} mph", number(small), "V-30"))
    new_a = new_b = None
    if geometry == "head_on":
        new_a, new_b = speed_a - change_a, speed_b - change_b
    elif geometry == "rear_end":
        faster_a = speed_a >= speed_b
        new_a = speed_a - change_a if faster_a else speed_a + change_a
        new_b = speed_b + change_b if faster_a else speed_b - change_b
    if new_a is not None and new_b is not None:
        steps.append(Step(f"new speeds (forward, negative is backward): A {show(new_a)}, B {show(new_b)} mph",
                          number(new_a), "V-30"))
    return Kinematics(combined, change_a, change_b, new_a, new_b)


def own_dice(change: Fraction, mass: Fraction) -> Fraction:
    """V-31: 1d per 10 mph of own speed change × √(own mass / 150), as one square root."""
    return root((change / 10) ** 2 * mass / 150)


def speed_roll(change: Fraction, dice: Fraction) -> Roll:
    """The roll for ``dice`` earned by a speed change: ceil(change/10) d6 scaled (R-03, A-42)."""
    if dice == 0:
        return Roll(0)
    base = fractional_dice(change / 10)
    return Roll(base.dice, 0, dice / base.dice)


_SPEED_INPUTS: dict[str, dict[str, JSON]] = {
    "geometry": {"type": "string", "enum": list(GEOMETRIES), "default": "head_on", "title": "How they meet"},
    "speed_a": mph("A's speed"),
    "mass_a": pounds("A's (effective) mass"),
    "speed_b": mph("B's speed", default=0),
    "mass_b": pounds("B's (effective) mass"),
}


def _run_speeds(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    k = kinematics(steps, str(inputs["geometry"]), exact(inputs["speed_a"]), exact(inputs["speed_b"]),
                   exact(inputs["mass_a"]), exact(inputs["mass_b"]))
    result: dict[str, JSON] = {"combined": number(k.combined), "change_a": number(k.change_a),
                               "change_b": number(k.change_b)}
    summary = f"impact {show(k.combined)} mph; A changes {show(k.change_a)}, B {show(k.change_b)} mph"
    if k.new_a is not None and k.new_b is not None:
        result.update(new_a=number(k.new_a), new_b=number(k.new_b))
        summary += f"; new speeds A {show(k.new_a)}, B {show(k.new_b)} mph"
    return Calculation(tool="collision_speed", inputs=inputs, steps=tuple(steps), result=result, summary=summary)


COLLISION_SPEED = CalculatorSpec(
    name="collision_speed", title="Collision: speeds", group="Collisions", rules=("V-29", "V-30"),
    inputs=_SPEED_INPUTS, required=("speed_a", "mass_a", "mass_b"), run=_run_speeds,
    prefill={"mass_a": MASS_PREFILL},
    help="Speed of impact and each object's speed change in an inelastic collision (no damage).",
)


# --- V-31 … V-33: collision damage ------------------------------------------------------------


def _run_collision(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    mass_a, mass_b = exact(inputs["mass_a"]), exact(inputs["mass_b"])
    k = kinematics(steps, str(inputs["geometry"]), exact(inputs["speed_a"]), exact(inputs["speed_b"]),
                   mass_a, mass_b)
    dice_a, dice_b = own_dice(k.change_a, mass_a), own_dice(k.change_b, mass_b)
    for side, change, mass, dice in (("A", k.change_a, mass_a, dice_a), ("B", k.change_b, mass_b, dice_b)):
        steps.append(Step(f"{side}'s own dice = {show(change)} mph / 10 × √({show(mass)} lb / 150) "
                          f"= {show(dice)}d", number(dice), "V-31"))
    higher, change = (dice_a, k.change_a) if dice_a >= dice_b else (dice_b, k.change_b)
    steps.append(Step(f"the higher, {show(higher)}d, applies to both sides", number(higher), "V-31"))
    roll = speed_roll(change, higher)
    if roll.dice and roll.scale != 1:
        steps.append(Step(f"rolled as {roll.text()} (ceil of {show(change / 10)} speed dice, total scaled)",
                          number(roll.scale), "R-03"))
    struck_by, struck = MATERIALS[str(inputs["material_b"])], MATERIALS[str(inputs["material_a"])]
    steps.append(Step(f"A is struck by {inputs['material_b']} ({struck_by.hardness}) × "
                      f"{number(struck_by.multiplier)}: {show(higher * struck_by.multiplier)}d",
                      number(higher * struck_by.multiplier), "V-32"))
    steps.append(Step(f"B is struck by {inputs['material_a']} ({struck.hardness}) × "
                      f"{number(struck.multiplier)}: {show(higher * struck.multiplier)}d",
                      number(higher * struck.multiplier), "V-32"))
    minus = absorb(steps, exact(inputs["hp_max"]), str(inputs["impact"]), "V-33")
    steps.append(Step("each side rolls separately; B subtracts its own absorption and DR; "
                      "a side knocked about makes a balance roll or falls down", 0, "V-34"))
    result: dict[str, JSON] = {"combined": number(k.combined), "change_a": number(k.change_a),
                               "change_b": number(k.change_b), "dice_a": number(dice_a), "dice_b": number(dice_b),
                               "dice": number(higher), "dice_to_a": number(higher * struck_by.multiplier),
                               "dice_to_b": number(higher * struck.multiplier),
                               "roll_to_b": roll.times(struck.multiplier).text()}
    return finish("collision", inputs, steps, result, roll.times(struck_by.multiplier), minus, struck_by.kind,
                  "V-31", "A takes")


COLLISION = CalculatorSpec(
    name="collision", title="Collision damage", group="Collisions",
    rules=("V-29", "V-30", "V-31", "V-32", "V-33", "V-34", "R-01", "R-03"),
    inputs={**_SPEED_INPUTS,
            "material_a": material_input("What A is (its hardness strikes B)", default="character"),
            "material_b": material_input("What B is (its hardness strikes A)"),
            "hp_max": HP_INPUT | {"title": "A's HPmax"},
            "impact": absorption_input("localised")},
    required=("speed_a", "mass_a", "mass_b", "material_b", "hp_max"), run=_run_collision,
    prefill={"mass_a": MASS_PREFILL, "hp_max": "hp_max"},
    help="Damage to A (the chosen combatant) when A and B collide; use effective masses for a "
         "powered collision (tool powered_mass, V-35). A wall or a tank: give B a huge mass and "
         "friction leaves it unmoved (V-30). The result is A's injury before DR.",
)


# --- V-34: splat and overrun ------------------------------------------------------------------


def splat(steps: list[Step], speed: Fraction, mass: Fraction, material: str, rule: str) -> Roll:
    """V-34: the target has nowhere to go: the striker's whole speed and mass, its hardness."""
    dice = own_dice(speed, mass)
    steps.append(Step(f"striker's dice = {show(speed)} mph / 10 × √({show(mass)} lb / 150) = {show(dice)}d",
                      number(dice), rule))
    roll = speed_roll(speed, dice)
    if roll.dice and roll.scale != 1:
        steps.append(Step(f"rolled as {roll.text()} (ceil of {show(speed / 10)} speed dice, total scaled)",
                          number(roll.scale), "R-03"))
    hardness = MATERIALS[material]
    steps.append(Step(f"striker is {material} ({hardness.hardness}) × {number(hardness.multiplier)}: "
                      f"{show(dice * hardness.multiplier)}d", number(dice * hardness.multiplier), "V-32"))
    return roll.times(hardness.multiplier)


def _run_splat(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    material = str(inputs["material"])
    roll = splat(steps, exact(inputs["speed"]), exact(inputs["mass"]), material, "V-34")
    minus = absorb(steps, exact(inputs["hp_max"]), str(inputs["impact"]), "V-33")
    return finish("splat", inputs, steps, {}, roll, minus, MATERIALS[material].kind, "V-34",
                  "pinned against a wall, the target takes")


SPLAT = CalculatorSpec(
    name="splat", title="Splat: struck against a wall", group="Collisions", rules=("V-34", "V-31", "V-32", "V-33"),
    inputs={"speed": mph("Striker's speed"), "mass": pounds("Striker's (effective) mass"),
            "material": material_input("What the striker is"), "hp_max": HP_INPUT,
            "impact": absorption_input("localised")},
    required=("speed", "mass", "material", "hp_max"), run=_run_splat, prefill={"hp_max": "hp_max"},
    help="Something hits the target while it is against a solid wall: damage from the striker's "
         "speed, mass and hardness (V-34).",
)


def _run_overrun(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    weight = exact(inputs["weight"])
    legged = inputs["propulsion"] == "legged"
    difference = int(str(inputs["size_difference"])) + (1 if inputs["target_knocked_flat"] else 0)
    needed = 0 if legged else 3
    able = difference >= needed
    steps.append(Step(f"Size difference {difference} (a knocked-flat target counts one smaller); "
                      f"{'legged: same Size or larger' if legged else 'wheeled/ground: 3+ Size levels larger'}"
                      f" -> {'can' if able else 'cannot'} overrun", difference, "V-34"))
    dice = root(weight / 400)  # √W / 20 as one root
    steps.append(Step(f"trampling dice = √({show(weight)} lb) / 20 = {show(dice)}d", number(dice), "A-44"))
    if inputs["target_is_vehicle"]:
        dice *= 2
        steps.append(Step(f"a vehicle overrun by a vehicle: doubled, {show(dice)}d", number(dice), "V-34"))
    roll = fractional_dice(dice) if able else Roll(0)
    if roll.dice and roll.scale != 1:
        steps.append(Step(f"rolled as {roll.text()}", number(roll.scale), "R-03"))
    result: dict[str, JSON] = {"can_overrun": able, "dice": number(dice)}
    return finish("overrun", inputs, steps, result, roll, Fraction(0), "cr", "V-34",
                  "overrun, the target takes" if able else "cannot overrun, so")


OVERRUN = CalculatorSpec(
    name="overrun", title="Overrun (trampling)", group="Collisions", rules=("V-34", "A-44", "R-03"),
    inputs={"weight": pounds("Overrunning vehicle's or creature's weight"),
            "propulsion": {"type": "string", "enum": ["legged", "wheeled"], "default": "wheeled",
                           "title": "Propulsion (wheeled: any ground propulsion)"},
            "size_difference": {"type": "integer", "minimum": -30, "maximum": 30,
                                "title": "Overrunner's Size minus the target's"},
            "target_knocked_flat": {"type": "boolean", "default": False, "title": "Target knocked flat"},
            "target_is_vehicle": {"type": "boolean", "default": False, "title": "Target is a vehicle"}},
    required=("weight", "size_difference"), run=_run_overrun,
    help="Whether a collider can run its target over, and the trampling dice if it does (V-34).",
)


# --- V-35: powered collisions -----------------------------------------------------------------

TORQUE: Mapping[str, tuple[Fraction, str]] = {
    "cruising": (Fraction(1), "between ¼ and ½ top speed: × 1"),
    "below_quarter_top_speed": (Fraction(2), "below ¼ top speed: × 2"),
    "above_half_top_speed": (Fraction(1, 2), "above ½ top speed: × ½"),
}


def _run_powered(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    mass = exact(inputs["mass"])
    load_st, kw, thrust = exact(inputs["load_st"]), exact(inputs["engine_kw"]), exact(inputs["thrust"])
    in_water = inputs["medium"] == "water"
    terms = [(load_st * 10, f"Load ST {show(load_st)} × 10"), (kw * 10, f"{show(kw)} kW × 10"),
             (thrust * (1 if in_water else Fraction(1, 10)),
              f"thrust {show(thrust)} × {'1 in water' if in_water else '0.1 in air'}")]
    bonus = sum((amount for amount, _ in terms), Fraction(0))
    how = " + ".join(text for amount, text in terms if amount) or "no motive power"
    steps.append(Step(f"power bonus = {how} = {show(bonus)} lb", number(bonus), "V-35"))
    factor, why = TORQUE[str(inputs["torque"])]
    if factor != 1:
        bonus *= factor
        steps.append(Step(f"torque, {why}: {show(bonus)} lb", number(bonus), "V-35"))
    if inputs["traction"] == "standard":
        cap = mass / 2
        bonus = min(bonus, cap)
        steps.append(Step(f"traction: the lower of that and weight {show(mass)} × ½ = {show(cap)}: "
                          f"{show(bonus)} lb", number(bonus), "A-28"))
        off_road = exact(inputs["off_road"])
        if off_road != 1:
            bonus *= off_road
            steps.append(Step(f"× Off-Road Speed multiplier {show(off_road)}: {show(bonus)} lb", number(bonus),
                              "V-35"))
    effective = mass + bonus
    steps.append(Step(f"effective mass = {show(mass)} + {show(bonus)} = {show(effective)} lb", number(effective),
                      "V-35"))
    return Calculation(tool="powered_mass", inputs=inputs, steps=tuple(steps),
                       result={"bonus": number(bonus), "effective_mass": number(effective)},
                       summary=f"effective mass {show(effective)} lb for speed change and mass damage (V-35)")


POWERED_MASS = CalculatorSpec(
    name="powered_mass", title="Powered collision: effective mass", group="Collisions",
    rules=("V-35", "A-28"),
    inputs={"mass": pounds("Mass (at 1 g, its weight)"),
            "load_st": {"type": "number", "minimum": 0, "maximum": 100_000, "default": 0,
                        "title": "Load ST pushing forward (creature)"},
            "engine_kw": {"type": "number", "minimum": 0, "maximum": 10_000_000, "default": 0,
                          "title": "Engine power, accelerating forward", "x-unit": "kW"},
            "thrust": {"type": "number", "minimum": 0, "maximum": 100_000_000, "default": 0,
                       "title": "Thrust rating", "x-unit": "lb"},
            "medium": {"type": "string", "enum": ["air", "water"], "default": "air", "title": "Thrust in"},
            "torque": {"type": "string", "enum": list(TORQUE), "default": "cruising",
                       "title": "Speed against top speed (torque, advanced)"},
            "traction": {"type": "string", "enum": ["none", "standard"], "default": "none",
                         "title": "Traction cap for ground objects (advanced)"},
            "off_road": {"type": "number", "minimum": 0, "maximum": 100, "default": 1,
                         "title": "Vehicle's Off-Road Speed multiplier (with traction)"}},
    required=("mass",), run=_run_powered, prefill={"mass": MASS_PREFILL, "load_st": ("load_st.st", "st")},
    help="Motive power as extra mass for a collision (V-35); use the result as the mass in collision.",
)

SPECS: tuple[CalculatorSpec, ...] = (COLLISION_SPEED, COLLISION, POWERED_MASS, SPLAT, OVERRUN)
