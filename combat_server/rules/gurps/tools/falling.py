"""GULLIVER falling (V-36 … V-41) as GM tools: the 1 g table, terminal velocity, falls, trips,
falling objects and catching.

Why these rules chain the way they do: the impact speed comes first (the table, or
V-41's formula past it or in other gravity), then terminal velocity caps it (V-38),
then skills, leg power and a catcher take mph off (V-37, V-41); only then is the
speed turned into dice (1d per 10 mph with the table's own small forms, A-45), and
the dice are scaled for mass and surface and reduced by absorption exactly as a
collision's are (V-40 reuses V-31 … V-33: collisions.py), floored once at the end (R-01).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.gurps.tools.collisions import (
    HP_INPUT, MASS_PREFILL, MATERIALS, Roll, absorb, absorption_input, exact, finish, fractional_dice,
    material_input, mph, pounds, root, show, splat,
)
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Step, number
from combat_server.rules.model import JSON


@attrs.frozen
class Row:
    """One row of V-36's falling table (1 g): yd/s is mph / 2 and the time mph / 20 s."""

    mph: int
    yards: Fraction
    damage: Roll

    @property
    def yards_per_second(self) -> Fraction:
        return Fraction(self.mph, 2)

    @property
    def seconds(self) -> Fraction:
        return Fraction(self.mph, 20)


def _rows() -> tuple[Row, ...]:
    small = [(1, "0.01", Roll(1, 0, Fraction(1, 10))), (2, "0.05", Roll(1, 0, Fraction(1, 5))),
             (3, "0.1", Roll(1, 0, Fraction(1, 3))), (4, "0.2", Roll(1, 0, Fraction(1, 2))),
             (5, "0.3", Roll(1, 0, Fraction(1, 2))), (6, "0.5", Roll(1, -1)), (7, "0.6", Roll(1, -1)),
             (8, "0.8", Roll(1)), (9, "1", Roll(1)), (10, "1.25", Roll(1)), (12, "2", Roll(1, 1)),
             (15, "3", Roll(1, 2))]
    rows = [Row(speed, Fraction(yards), roll) for speed, yards, roll in small]
    # From 20 mph on, the table's base damage is 1d per 10 mph with ½ die written +2.
    for speed, yards in ((20, 5), (25, 7), (30, 10), (35, 15), (40, 20), (45, 25), (50, 30), (55, 35), (60, 45),
                         (65, 50), (70, 60), (75, 70), (80, 80), (85, 90), (90, 100), (100, 125), (110, 150),
                         (120, 180), (130, 210), (140, 245), (150, 280)):
        rows.append(Row(speed, Fraction(yards), Roll(speed // 10, 2 if speed % 10 else 0)))
    return tuple(rows)


#: V-36: the falling table for 1 g.
TABLE: tuple[Row, ...] = _rows()
TOP = TABLE[-1]


def _by_height(height: Fraction) -> Row:
    """A-45: the first row whose yards fallen reach ``height``."""
    return next(row for row in TABLE if row.yards >= height)


def _by_speed(speed: Fraction) -> Row:
    return next(row for row in TABLE if row.mph >= speed)


# --- speed of impact (V-36, V-37, V-38, V-41) --------------------------------------------------


def fall_speed(steps: list[Step], height: Fraction | None, time: Fraction | None, gravity: Fraction) -> Fraction:
    """Impact speed in mph of a fall from ``height`` yd or lasting ``time`` s, before any cap."""
    if time is not None:
        speed = 20 * gravity * time
        steps.append(Step(f"speed after {show(time)} s = 10 yd/s² × {show(gravity)} g × {show(time)} s "
                          f"= {show(speed / 2)} yd/s = {show(speed)} mph", number(speed), "V-37"))
        return speed
    assert height is not None
    if height == 0:
        steps.append(Step("no height, no fall", 0, "V-36"))
        return Fraction(0)
    if gravity == 1 and height <= TOP.yards:
        row = _by_height(height)
        steps.append(Step(f"table row for {show(height)} yd: {show(row.yards)} yd, {show(row.yards_per_second)} "
                          f"yd/s = {row.mph} mph after {show(row.seconds)} s", row.mph, "V-36"))
        return Fraction(row.mph)
    speed = root(80 * gravity * height)  # 2 × √(2 · 10g · h) mph
    why = "past the 1 g table" if gravity == 1 else f"at {show(gravity)} g"
    steps.append(Step(f"{why}: speed = √(2 × 10 yd/s² × {show(gravity)} g × {show(height)} yd) "
                      f"= {show(speed / 2)} yd/s = {show(speed)} mph", number(speed), "V-41"))
    return speed


POSES: Mapping[str, tuple[Fraction, str]] = {
    "spread_eagle": (Fraction(1), "spread-eagle"),
    "limp": (Fraction(5, 4), "limp or unconscious × 1.25"),
    "diving": (Fraction(3, 2), "diving × 1.5"),
}


def terminal_velocity(steps: list[Step], linear_scale: Fraction, gravity: Fraction, density: Fraction,
                      pose: str) -> Fraction:
    """V-38: 100 mph × √LS × √g / √(air density), times the pose's factor."""
    flat = root(10000 * linear_scale * gravity / density)
    steps.append(Step(f"terminal velocity = 100 mph × √{show(linear_scale)} LS × √{show(gravity)} g / "
                      f"√{show(density)} air = {show(flat)} mph", number(flat), "V-38"))
    factor, why = POSES[pose]
    if factor == 1:
        return flat
    tv = flat * factor
    steps.append(Step(f"{why}: {show(tv)} mph", number(tv), "V-38"))
    return tv


SKILLS: Mapping[str, tuple[int, str]] = {
    "none": (0, ""),
    "acrobatics": (20, "Catfall or a successful Acrobatics roll"),
    "dx_roll": (10, "a successful DX, Judo, Wrestling or Breakfall-maneuver roll"),
    "breakfall": (20, "a successful Breakfall skill roll"),
}


def slow_down(steps: list[Step], speed: Fraction, inputs: Mapping[str, JSON]) -> Fraction:
    """V-37 skills and leg power, V-41 a catcher's throwing speed: mph off the impact, not below 0."""
    cut, why = SKILLS[str(inputs["skill"])]
    if inputs["skill"] == "breakfall":
        margin = int(str(inputs["breakfall_margin"]))
        cut, why = cut + 2 * margin, f"{why} by {margin}: 20 + 2 × {margin}"
    off: list[tuple[Fraction, str, str]] = []
    if cut:
        off.append((Fraction(cut), why, "V-37"))
    legs = exact(inputs["leg_power"])
    if legs:
        off.append((2 * legs, f"leg power, a neat landing: {show(legs)} yd/s × 2", "V-37"))
    catch = exact(inputs["catcher_ts"])
    if catch:
        off.append((2 * catch, f"caught: the catcher's throwing speed {show(catch)} yd/s × 2", "V-41"))
    for mph_off, text, rule in off:
        speed = max(Fraction(0), speed - mph_off)
        steps.append(Step(f"{text}: -{show(mph_off)} mph, {show(speed)} mph", number(speed), rule))
    return speed


def speed_dice(steps: list[Step], speed: Fraction) -> Roll:
    """V-40 step 1: 1d per 10 mph, in the table's own forms where it has them (A-45)."""
    if speed == 0:
        return Roll(0)
    row = next((r for r in TABLE if r.mph == speed), None)
    if row is None and speed < 10:
        row = _by_speed(speed)
    if row is not None:
        steps.append(Step(f"{show(speed)} mph: the table's base damage {row.damage.text()}", row.mph, "V-36"))
        return row.damage
    count = speed / 10
    if (2 * count).denominator == 1:
        roll = Roll(math.floor(count), 2 if count.denominator == 2 else 0)
        steps.append(Step(f"1d per 10 mph: {show(count)}d = {roll.text()} (½ die is +2)", number(count), "A-45"))
        return roll
    roll = fractional_dice(count)
    steps.append(Step(f"1d per 10 mph: {show(count)}d, rolled as {roll.text()}", number(count), "R-03"))
    return roll


def impact(steps: list[Step], speed: Fraction, inputs: Mapping[str, JSON]) -> tuple[Roll, Fraction, str]:
    """V-40: the roll, the absorption and the damage type of a body landing at ``speed`` mph."""
    roll = speed_dice(steps, speed)
    mass = exact(inputs["mass"])
    factor = root(mass / 150)
    roll = roll.times(factor)
    steps.append(Step(f"mass: × √({show(mass)} lb / 150) = × {show(factor)}: {roll.text()}", number(factor),
                      "V-40"))
    surface = MATERIALS[str(inputs["surface"])]
    if surface.multiplier != 1:
        roll = roll.times(surface.multiplier)
        steps.append(Step(f"onto {inputs['surface']} ({surface.hardness}) × {number(surface.multiplier)}: "
                          f"{roll.text()}", number(surface.multiplier), "V-40"))
    minus = absorb(steps, exact(inputs["hp_max"]), str(inputs["landing"]), "V-40")
    return roll, minus, surface.kind


def _height_or_time(inputs: Mapping[str, JSON], tool: str) -> tuple[Fraction | None, Fraction | None]:
    height, time = inputs.get("height"), inputs.get("time")
    if (height is None) == (time is None):
        raise reject("tool/bad_input", f"{tool}: give exactly one of 'height' and 'time'", field="height")
    return (None if height is None else exact(height)), (None if time is None else exact(time))


# --- the inputs the tools share ---------------------------------------------------------------

_HEIGHT: dict[str, JSON] = {"type": "number", "minimum": 0, "maximum": 1_000_000, "title": "Height fallen",
                            "x-unit": "yd"}
_TIME: dict[str, JSON] = {"type": "number", "minimum": 0, "maximum": 3600,
                          "title": "Or: time falling (instead of height)", "x-unit": "s"}
_GRAVITY: dict[str, JSON] = {"type": "number", "minimum": 0, "maximum": 1000, "default": 1,
                             "title": "Local gravity", "x-unit": "g"}
_TV_INPUTS: dict[str, dict[str, JSON]] = {
    "linear_scale": {"type": "number", "minimum": 0.0001, "maximum": 10000, "default": 1,
                     "title": "Linear Scale (1 for a human)", "x-unit": "LS"},
    "gravity": _GRAVITY,
    "air_density": {"type": "number", "minimum": 0.0001, "maximum": 10000, "default": 1,
                    "title": "Air density (1 at sea level)"},
    "pose": {"type": "string", "enum": list(POSES), "default": "spread_eagle", "title": "Pose while falling"},
}
_BODY_INPUTS: dict[str, dict[str, JSON]] = {
    "mass": pounds("Faller's mass"),
    "hp_max": HP_INPUT | {"title": "Faller's HPmax"},
    "surface": material_input("Landing on"),
    "landing": absorption_input("full_body") | {
        "title": "Landing (full_body: spread; localised: head first, spiky rocks; very_localised: a pole top)"},
}
_SLOWING_INPUTS: dict[str, dict[str, JSON]] = {
    "skill": {"type": "string", "enum": list(SKILLS), "default": "none", "title": "Successful roll to soften it"},
    "breakfall_margin": {"type": "integer", "minimum": 0, "maximum": 30, "default": 0,
                         "title": "Breakfall skill: margin of success"},
    "leg_power": {"type": "number", "minimum": 0, "maximum": 1000, "default": 0,
                  "title": "Leg power, neat landing: jump-up speed (≈3 for a human)", "x-unit": "yd/s"},
    "catcher_ts": {"type": "number", "minimum": 0, "maximum": 1000, "default": 0,
                   "title": "Caught: the catcher's throwing speed Ts (land on 'character')", "x-unit": "yd/s"},
}


# --- V-36: the table --------------------------------------------------------------------------


def _run_table(inputs: Mapping[str, JSON]) -> Calculation:
    height, speed = inputs.get("height"), inputs.get("speed")
    if (height is None) == (speed is None):
        raise reject("tool/bad_input", "fall_table: give exactly one of 'height' and 'speed'", field="height")
    if height is not None:
        row, asked = _by_height(exact(height)), f"{show(exact(height))} yd"
    else:
        row, asked = _by_speed(exact(speed)), f"{show(exact(speed))} mph"
    step = Step(f"first row at or beyond {asked}: {show(row.yards)} yd, {show(row.yards_per_second)} yd/s, "
                f"{row.mph} mph, {show(row.seconds)} s, base damage {row.damage.text()}", row.mph, "A-45")
    return Calculation(tool="fall_table", inputs=inputs, steps=(step,),
                       result={"yards": number(row.yards), "yards_per_second": number(row.yards_per_second),
                               "mph": row.mph, "seconds": number(row.seconds), "damage": row.damage.text()},
                       summary=f"{show(row.yards)} yd: {row.mph} mph after {show(row.seconds)} s, "
                               f"base damage {row.damage.text()} (V-36)")


FALL_TABLE = CalculatorSpec(
    name="fall_table", title="Falling table (1 g)", group="Falling", rules=("V-36", "A-45"),
    inputs={"height": _HEIGHT | {"maximum": 280, "title": "Height fallen (up to the table's 280)"},
            "speed": mph("Or: impact speed (up to the table's 150)", maximum=150)},
    run=_run_table,
    help="Look up V-36's 1 g table by height or by speed: the first row at or beyond it (A-45).",
)


# --- V-38: terminal velocity ------------------------------------------------------------------


def _run_tv(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    tv = terminal_velocity(steps, exact(inputs["linear_scale"]), exact(inputs["gravity"]),
                           exact(inputs["air_density"]), str(inputs["pose"]))
    return Calculation(tool="terminal_velocity", inputs=inputs, steps=tuple(steps), result={"mph": number(tv)},
                       summary=f"terminal velocity {show(tv)} mph ({POSES[str(inputs['pose'])][1]}, V-38)")


TERMINAL_VELOCITY = CalculatorSpec(
    name="terminal_velocity", title="Terminal velocity", group="Falling", rules=("V-38",),
    inputs=_TV_INPUTS, run=_run_tv,
    help="The fastest a body falls (V-38); a human reaches it after about 5 s.",
)


# --- V-40: a fall -----------------------------------------------------------------------------


def _run_falling(inputs: Mapping[str, JSON]) -> Calculation:
    height, time = _height_or_time(inputs, "falling")
    steps: list[Step] = []
    speed = fall_speed(steps, height, time, exact(inputs["gravity"]))
    pose = str(inputs["pose"])
    if inputs["surface"] == "water_dive" and pose != "diving":
        pose = "diving"
        steps.append(Step("proper diving form also means diving terminal velocity", 0, "V-40"))
    tv = terminal_velocity(steps, exact(inputs["linear_scale"]), exact(inputs["gravity"]),
                           exact(inputs["air_density"]), pose)
    if speed > tv:
        speed = tv
        steps.append(Step(f"capped at terminal velocity: {show(speed)} mph", number(speed), "V-38"))
    speed = slow_down(steps, speed, inputs)
    roll, minus, kind = impact(steps, speed, inputs)
    return finish("falling", inputs, steps, {"mph": number(speed), "tv": number(tv)}, roll, minus, kind, "V-40",
                  f"landing at {show(speed)} mph, the faller takes")


FALLING = CalculatorSpec(
    name="falling", title="Falling", group="Falling",
    rules=("V-36", "V-37", "V-38", "V-40", "V-41", "A-45", "R-01", "R-03"),
    inputs={"height": _HEIGHT, "time": _TIME, **_TV_INPUTS, **_SLOWING_INPUTS, **_BODY_INPUTS},
    required=("mass", "hp_max", "surface"), run=_run_falling, prefill={"mass": MASS_PREFILL, "hp_max": "hp_max"},
    help="Damage from a fall of a height (or a time): speed, terminal velocity, softening rolls, "
         "mass, surface and absorption (V-36 … V-40). The result is injury before DR.",
)


# --- V-39: tripping ---------------------------------------------------------------------------

_ROLLS: Mapping[str, tuple[Fraction, str]] = {
    "failed": (Fraction(1), "no balance roll made: the full linear dimension"),
    "succeeded": (Fraction(1, 2), "a successful balance or Breakfall roll: half"),
    "critical_failure": (Fraction(1), "a critical failure: the full height, landing on one hit location"),
}
_POSTURES: Mapping[str, Fraction] = {"upright": Fraction(1), "semi_upright": Fraction(2, 3),
                                     "horizontal": Fraction(1, 2)}
_STANCES: Mapping[str, Fraction] = {"normal": Fraction(1), "low": Fraction(2, 3), "very_low": Fraction(1, 2)}


def _run_trip(inputs: Mapping[str, JSON]) -> Calculation:
    steps: list[Step] = []
    height = exact(inputs["linear_size"])
    steps.append(Step(f"a trip is a fall from the creature's linear dimension, {show(height)} yd", number(height),
                      "V-39"))
    share, why = _ROLLS[str(inputs["balance_roll"])]
    posture, stance = _POSTURES[str(inputs["posture"])], _STANCES[str(inputs["stance"])]
    for factor, text in ((share, why), (posture, f"{inputs['posture']} posture"), (stance, f"{inputs['stance']} stance")):
        if factor != 1:
            height *= factor
            steps.append(Step(f"{text}: × {number(factor)}, {show(height)} yd", number(height), "V-39"))
    speed = fall_speed(steps, height, None, exact(inputs["gravity"]))
    critical = inputs["balance_roll"] == "critical_failure"
    body = dict(inputs)
    if critical and inputs["landing"] == "full_body":
        body["landing"] = "localised"
        steps.append(Step("a localised impact on a random hit location (roll it; its multiplier applies)", 0,
                          "V-39"))
    roll, minus, kind = impact(steps, speed, body)
    return finish("trip", inputs, steps, {"height": number(height), "mph": number(speed), "hit_location": critical},
                  roll, minus, kind, "V-39", f"tripping ({show(height)} yd, {show(speed)} mph), the creature takes")


TRIP = CalculatorSpec(
    name="trip", title="Tripping", group="Falling", rules=("V-39", "V-36", "V-40", "R-01"),
    inputs={"linear_size": {"type": "number", "minimum": 0, "maximum": 10000, "default": 2,
                            "title": "Linear dimension (height or length, ≈2 for a human)", "x-unit": "yd"},
            "balance_roll": {"type": "string", "enum": list(_ROLLS), "default": "failed",
                             "title": "Balance or Breakfall roll (Half encumbrance modifier)"},
            "posture": {"type": "string", "enum": list(_POSTURES), "default": "upright", "title": "Posture"},
            "stance": {"type": "string", "enum": list(_STANCES), "default": "normal", "title": "Stance"},
            "gravity": _GRAVITY, **_BODY_INPUTS},
    required=("mass", "hp_max", "surface"), run=_run_trip, prefill={"mass": MASS_PREFILL, "hp_max": "hp_max"},
    help="A trip as a fall from the creature's own linear dimension (V-39).",
)


# --- V-41: falling objects and catching -------------------------------------------------------


def _run_object(inputs: Mapping[str, JSON]) -> Calculation:
    height, time = _height_or_time(inputs, "falling_object")
    steps: list[Step] = []
    speed = fall_speed(steps, height, time, exact(inputs["gravity"]))
    tv = exact(inputs["terminal_velocity"])
    if tv and speed > tv:
        speed = tv
        steps.append(Step(f"capped at the object's terminal velocity: {show(speed)} mph", number(speed), "V-38"))
    catch = exact(inputs["catcher_ts"])
    if catch:
        speed = max(Fraction(0), speed - 2 * catch)
        steps.append(Step(f"caught: -{show(catch)} yd/s × 2 = -{show(2 * catch)} mph, the rest hits the catcher: "
                          f"{show(speed)} mph", number(speed), "V-41"))
    else:
        steps.append(Step("crunch: the target lies on a solid surface, nowhere to go (splat)", 0, "V-41"))
    material = str(inputs["material"])
    roll = splat(steps, speed, exact(inputs["mass"]), material, "V-41")
    minus = absorb(steps, exact(inputs["hp_max"]), str(inputs["impact"]), "V-33")
    who = "the catcher takes" if catch else "the one beneath takes"
    return finish("falling_object", inputs, steps, {"mph": number(speed)}, roll, minus, MATERIALS[material].kind,
                  "V-41", f"struck at {show(speed)} mph, {who}")


FALLING_OBJECT = CalculatorSpec(
    name="falling_object", title="Falling object, catching", group="Falling",
    rules=("V-41", "V-34", "V-36", "V-31", "V-32", "V-33", "R-01", "R-03"),
    inputs={"height": _HEIGHT, "time": _TIME, "gravity": _GRAVITY,
            "mass": pounds("Falling object's mass"), "material": material_input("What the object is"),
            "terminal_velocity": mph("Object's terminal velocity (0: none)", default=0),
            "catcher_ts": _SLOWING_INPUTS["catcher_ts"] | {
                "title": "Catching it: the catcher's throwing speed Ts (0: it lands on the target)"},
            "hp_max": HP_INPUT | {"title": "HPmax of the one struck (or catching)"},
            "impact": absorption_input("localised")},
    required=("mass", "material", "hp_max"), run=_run_object, prefill={"hp_max": "hp_max"},
    help="Something falls on the chosen combatant (crunch), or the combatant catches it: the "
         "object's speed and mass strike the combatant (V-41, V-34). For the caught faller's own "
         "damage, use falling with catcher_ts and surface 'character'.",
)

SPECS: tuple[CalculatorSpec, ...] = (FALL_TABLE, TERMINAL_VELOCITY, FALLING, TRIP, FALLING_OBJECT)
