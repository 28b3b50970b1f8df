"""Movement feats as GM tools (#12): encumbrance on skills (G-03), climbing (G-05),
jumping (G-07), paced running (G-10) and swimming (G-11)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Callable, Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import feats
from combat_server.rules.gurps.tools.common import choice, flag, whole
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm, Workings, number
from combat_server.rules.model import JSON

_EL = whole("Encumbrance level", 0, 4)


def _int(inputs: Mapping[str, JSON], name: str) -> int:
    value = inputs[name]
    assert isinstance(value, int)
    return value


def _fatigue(w: Workings, tool: str, inputs: Mapping[str, JSON], rolls: int, rule: str) -> Harm | None:
    """The FP that failed rolls cost (1 each), to apply through the FP path; more failures than rolls is refused."""
    failed = _int(inputs, "failed_rolls")
    if failed > rolls:
        raise reject("tool/bad_input", f"{tool}: input 'failed_rolls' must be at most the {rolls} roll(s) made",
                     field="failed_rolls")
    if not failed:
        return None
    w.step(f"{failed} failed roll(s) x 1 FP", failed, rule)
    return Harm(dice=0, adds=failed, kind="fat", rule=rule)


def _tired(w: Workings, inputs: Mapping[str, JSON], rule: str) -> bool:
    """R-04: running and swimming Move halve at FP 1/3 or less of FPmax (as written)."""
    fp, fp_max = _int(inputs, "fp"), _int(inputs, "fp_max")
    return bool(w.step(f"FP {fp} is 1/3 or less of FPmax {fp_max}: Move halved", 3 * fp <= fp_max, f"{rule}, R-04"))


# --------------------------------------------------------------------------- G-03


_SKILL_EL = {"climbing": 1, "stealth": 1, "swimming": 2}


def _encumbrance(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("encumbrance_penalty", inputs)
    el, skill = _int(inputs, "encumbrance"), str(inputs["skill"])
    times = _SKILL_EL[skill]
    penalty = w.step(f"{skill.title()}: -{times} x EL {el}", -times * el, "G-03")
    result: dict[str, JSON] = {"penalty": penalty}
    summary = f"{skill.title()} {penalty:+d} for encumbrance"
    if "level" in inputs:
        level = w.step(f"skill {inputs['level']} {penalty:+d}", _int(inputs, "level") + penalty, "G-03")
        result["effective"] = level
        summary += f": roll against {level}"
    return w.done(result, summary)


ENCUMBRANCE = CalculatorSpec(
    name="encumbrance_penalty", title="Encumbrance on a skill", rules=("G-03",), group="Movement",
    help="Climbing and Stealth lose the encumbrance level, Swimming twice it.",
    inputs={"encumbrance": _EL, "skill": choice("Skill", tuple(_SKILL_EL)),
            "level": whole("Skill level", -10, 40)},
    required=("encumbrance", "skill"), prefill={"encumbrance": "encumbrance"}, run=_encumbrance)


# --------------------------------------------------------------------------- G-05

#: G-05 / A-05: climb -> (modifier or None for no roll, combat speed, regular speed), speeds in ft (rungs) per second.
CLIMBS: Mapping[str, tuple[int | None, Fraction, Fraction]] = {
    "ladder_up": (None, Fraction(3), Fraction(1)),
    "ladder_down": (None, Fraction(2), Fraction(1)),
    "tree": (5, Fraction(1), Fraction(1, 3)),
    "mountain": (0, Fraction(1, 2), Fraction(10, 60)),
    "stone_wall": (-3, Fraction(1, 5), Fraction(4, 60)),
    "modern_building": (-3, Fraction(1, 10), Fraction(2, 60)),
    "rope_up": (-2, Fraction(1), Fraction(20, 60)),
    "rope_down": (-1, Fraction(2), Fraction(30, 60)),
    "rope_down_equipped": (-1, Fraction(12), Fraction(12)),
}
#: G-05: another roll every 5 minutes.
CLIMB_ROLL_EVERY = 300


def _climbing(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("climbing", inputs)
    climb, speed = str(inputs["climb"]), str(inputs["speed"])
    mod, combat_rate, regular_rate = CLIMBS[climb]
    rate = combat_rate if speed == "combat" else regular_rate
    unit = "rungs" if climb.startswith("ladder") else "ft"
    height = _int(inputs, "height")
    seconds = w.step(f"{height} {unit} at {number(rate)} {unit}/s ({speed} speed)", Fraction(height) / rate, "G-05, A-05")
    result: dict[str, JSON] = {"seconds": number(seconds)}
    if mod is None:
        w.step("a ladder needs no roll", 0, "G-05")
        return w.done({**result, "rolls": 0}, f"{height} {unit} in {float(seconds):g} s, no roll")
    if "skill" in inputs:
        skill = w.step("Climbing skill", _int(inputs, "skill"), "G-05")
    else:
        skill = w.step(f"Climbing defaults to DX {inputs['dx']} - 5", _int(inputs, "dx") - 5, "G-05")
    el = _int(inputs, "encumbrance")
    target = w.step(f"{skill} {mod:+d} ({climb.replace('_', ' ')}) - EL {el}", skill + mod - el, "G-05, G-03")
    rolls = w.step(f"one roll to start, another every 5 minutes over {float(seconds):g} s",
                   max(1, math.ceil(seconds / CLIMB_ROLL_EVERY)), "G-05")
    result.update(target=target, rolls=rolls)
    harm = None
    if speed == "combat":
        w.step(f"combat speed: 1 FP per roll, {rolls} FP", rolls, "G-05")
        harm = Harm(dice=0, adds=rolls, kind="fat", rule="G-05")
        result["fp"] = rolls
    summary = (f"{rolls} Climbing roll(s) against {target}; any failure is a fall"
               f"{' (roped: to the end of the rope unless critical)' if inputs['roped'] else ''}; "
               f"{float(seconds):g} s")
    return w.done(result, summary, harm)


CLIMBING = CalculatorSpec(
    name="climbing", title="Climbing", rules=("G-05", "A-05", "G-03"), group="Movement",
    help="The Climbing roll, how long the climb takes and the FP a climb at combat speed costs.",
    inputs={"climb": choice("What is climbed", tuple(CLIMBS)), "height": whole("Height", 1, 100000, "ft"),
            "speed": choice("Speed", ("regular", "combat"), "regular"), "skill": whole("Climbing skill", -10, 40),
            "dx": whole("DX", 1, 40, default=10), "encumbrance": {**_EL, "default": 0},
            "roped": flag("Roped")},
    required=("climb", "height"), prefill={"skill": "skills.Climbing", "dx": "dx", "encumbrance": "encumbrance"},
    run=_climbing)


# --------------------------------------------------------------------------- G-07


def _jump(w: Workings, what: str, unit: str, formula: Callable[[int, int], int], text: str, bm: int,
          run: int) -> int:
    standing = w.step(f"standing {what}: {text.format(bm=f'BM {bm}')}", formula(bm, 0), "G-07")
    jump = standing
    if run:
        jump = w.step(f"{what} with {run} yd run-up: {text.format(bm=f'(BM {bm} + {run})')}, "
                      f"at most 2 x {standing} {unit}", formula(bm, run), "G-07")
    return max(0, jump)


def _jumping(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("jumping", inputs)
    bm, run = _int(inputs, "basic_move"), _int(inputs, "run_up")
    high = _jump(w, "high jump", "in", feats.high_jump_inches, "6 x {bm} - 10", bm, run)
    broad = _jump(w, "broad jump", "ft", feats.broad_jump_feet, "2 x {bm} - 3", bm, run)
    return w.done({"high_in": high, "broad_ft": broad}, f"high jump {high} in, broad jump {broad} ft")


JUMPING = CalculatorSpec(
    name="jumping", title="Jumping", rules=("G-07",), group="Movement", players=True,
    help="High and broad jump from Basic Move; a run-up adds its yards, up to twice the standing jump.",
    inputs={"basic_move": whole("Basic Move", 0, 100, "yd/s"), "run_up": whole("Run-up", 0, 1000, "yd", 0)},
    required=("basic_move",), prefill={"basic_move": "basic_move"}, run=_jumping)


# --------------------------------------------------------------------------- G-10

#: G-09: sprinting is Move x 1.2 (A-06: exact); G-10: paced running is half of it.
SPRINT = Fraction(6, 5)


def _running(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("running", inputs)
    move = Fraction(_int(inputs, "move"))
    if _tired(w, inputs, "G-10"):
        move = w.step(f"Move {move} / 2", move / 2, "G-10")
    sprint = w.step(f"sprint: Move {number(move)} x 1.2", move * SPRINT, "G-09, A-06")
    paced = w.step(f"paced: sprint {number(sprint)} / 2", sprint / 2, "G-10")
    secs, mins = _int(inputs, "sprint_seconds"), _int(inputs, "paced_minutes")
    rolls = w.step(f"HT rolls: {secs} s sprinting / 15 + {mins} min paced", secs // 15 + mins, "G-10")
    harm = _fatigue(w, "running", inputs, rolls, "G-10")
    result: dict[str, JSON] = {"sprint": number(sprint), "paced": number(paced), "ht_rolls": rolls}
    summary = f"sprint {float(sprint):g} yd/s, paced {float(paced):g} yd/s; {rolls} HT roll(s), 1 FP per failure"
    return w.done(result, summary, harm)


RUNNING = CalculatorSpec(
    name="running", title="Paced running", rules=("G-10", "G-09", "R-04"), group="Movement",
    help="Sprint and paced speed, the HT rolls a run takes, and the FP its failures cost.",
    inputs={"move": whole("Move", 0, 100, "yd/s"), "fp": whole("FP", -100, 200), "fp_max": whole("FPmax", 1, 200),
            "sprint_seconds": whole("Seconds sprinting", 0, 86400, "s", 0),
            "paced_minutes": whole("Minutes of paced running", 0, 1440, "min", 0),
            "failed_rolls": whole("Failed HT rolls", 0, 10000, default=0)},
    required=("move", "fp", "fp_max"), prefill={"move": "move", "fp": "fp", "fp_max": "fp_max"}, run=_running)


# --------------------------------------------------------------------------- G-11


def _swimming(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("swimming", inputs)
    skill, el = _int(inputs, "skill"), _int(inputs, "encumbrance")
    bonus = 3 if inputs["intentional"] else 0
    target = w.step(f"Swimming {skill} - 2 x EL {el}" + (" + 3 (entered intentionally)" if bonus else ""),
                    skill - 2 * el + bonus, "G-11, G-03")
    bm = _int(inputs, "basic_move")
    water = Fraction(w.step(f"water Move: floor(Basic Move {bm} / 5), at least 1", max(1, bm // 5), "G-11"))
    if _tired(w, inputs, "G-11"):
        water = w.step(f"water Move {water} / 2", water / 2, "G-11")
    ht = _int(inputs, "ht")
    endurance = w.step(f"each minute at top speed: the higher of HT {ht} and Swimming {skill}", max(ht, skill), "G-11")
    harm = _fatigue(w, "swimming", inputs, 10000, "G-11")
    result: dict[str, JSON] = {"target": target, "water_move": number(water), "endurance": endurance}
    summary = (f"Swimming roll against {target} (again every 5 min; on a failure 1 FP and again in 5 s); "
               f"water Move {float(water):g}; top-speed rolls against {endurance}")
    return w.done(result, summary, harm)


SWIMMING = CalculatorSpec(
    name="swimming", title="Swimming", rules=("G-11", "G-03", "R-04"), group="Movement",
    help="The Swimming roll, water Move, the roll after each minute at top speed, and FP lost to failures.",
    inputs={"skill": whole("Swimming skill", -10, 40), "basic_move": whole("Basic Move", 0, 100, "yd/s"),
            "ht": whole("HT", 1, 40), "encumbrance": {**_EL, "default": 0},
            "intentional": flag("Entered the water intentionally"),
            "fp": whole("FP", -100, 200), "fp_max": whole("FPmax", 1, 200),
            "failed_rolls": whole("Failed rolls", 0, 10000, default=0)},
    required=("skill", "basic_move", "ht", "fp", "fp_max"),
    prefill={"skill": "skills.Swimming", "basic_move": "basic_move", "ht": "ht", "encumbrance": "encumbrance",
             "fp": "fp", "fp_max": "fp_max"},
    run=_swimming)

SPECS: tuple[CalculatorSpec, ...] = (ENCUMBRANCE, CLIMBING, JUMPING, RUNNING, SWIMMING)
