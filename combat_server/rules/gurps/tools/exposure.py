"""Hazards scaled to body size as GM tools (#12): exposure (V-25), jets (V-26), exposure
without damage (V-27), cold, heat and water (V-28), poison (V-42) and acceleration (V-45).

GULLIVER scales by the Linear Scale (LS, 1 for a human); its square roots stay exact when
they can (sqrt(1/36) = 1/6) and the damage is floored once, after the roll (R-01).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Mapping

from combat_server.rules.gurps.tables import parse_dice
from combat_server.rules.gurps.tools.common import (
    amount, choice, dice_text, exact, flag, ratio, read_ratio, square_root, whole,
)
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm, Workings, number
from combat_server.rules.model import JSON

#: The damage kinds a hazard deals: ``fat`` goes through the FP path, ``injury`` is HP lost
#: as it is (no DR, no wound multiplier); the others through DR and the wound multipliers.
KINDS = ("burn", "cor", "tox", "cr", "cut", "imp", "pi", "fat", "injury")
#: The damage a human would take, as dice and adds (``2d+1``; ``0d+3`` for a fixed 3).
_DAMAGE: dict[str, JSON] = {"type": "string", "pattern": r"^([0-9]|[1-4][0-9]|50)d([+-][0-9]{1,3})?$", "default": "1d",
                            "title": "Damage (as a human takes it)", "description": "dice (0 to 50) and adds, e.g. 2d+1"}
_LS = ratio("Linear Scale (1 = human)")
_AREA_TO_MASS = ratio("Area-to-mass ratio (1 = human)")


def _int(inputs: Mapping[str, JSON], name: str) -> int:
    value = inputs[name]
    assert isinstance(value, int)
    return value


def _root(w: Workings, what: str, value: Fraction, rule: str) -> Fraction:
    root, is_exact = square_root(value)
    return Fraction(w.step(f"sqrt({what} {value})" + ("" if is_exact else " (approximately)"), root, rule))


def _dice(inputs: Mapping[str, JSON]) -> tuple[int, int]:
    return parse_dice(str(inputs["damage"]))


def _harm(w: Workings, inputs: Mapping[str, JSON], kind: str, times: Fraction, rule: str) -> Calculation:
    dice, adds = _dice(inputs)
    harm = Harm(dice=dice, adds=adds, kind=kind, rule=rule, multiplier=times)
    w.step(f"{dice_text(dice, adds)} x {number(times)}, floored once after the roll", harm.text(), f"{rule}, R-01")
    result: dict[str, JSON] = {"multiplier": number(times), "damage": harm.text()}
    return w.done(result, f"{harm.text()} (x {float(times):.3g})", harm)


def _jet_share(w: Workings, tool: str, inputs: Mapping[str, JSON], width: str, rule: str) -> Fraction:
    """V-26: the share of a fixed-size jet (or dose) a target meets, by its size against the jet's, at most all
    of it; cube-square optionally multiplies by sqrt(area-to-mass ratio)."""
    target, jet = exact(inputs["target_width"]), exact(inputs[width])
    share = Fraction(w.step(f"target {float(target):g} in / {width.replace('_', ' ')} {float(jet):g} in, at most 1",
                            min(Fraction(1), target / jet), rule))
    if inputs["cube_square"]:
        root = _root(w, "area-to-mass ratio", read_ratio(tool, inputs, "area_to_mass"), f"{rule}, V-25")
        share = Fraction(w.step(f"{number(share)} x {number(root)}", share * root, rule))
    return share


# --------------------------------------------------------------------------- V-25


def _exposure(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("exposure", inputs)
    ls = read_ratio("exposure", inputs, "ls")
    if inputs["method"] == "detailed":
        times = _root(w, "LS", ls, "V-25")
    else:
        area = read_ratio("exposure", inputs, "area_scale") if "area_scale" in inputs else \
            Fraction(w.step(f"Area Scale = LS^2 = {ls}^2", ls * ls, "V-25"))
        mar = read_ratio("exposure", inputs, "mar") if "mar" in inputs else \
            Fraction(w.step(f"MAR of normal proportions = LS {ls}", ls, "V-25"))
        a, b = _root(w, "Area Scale", area, "V-25"), _root(w, "1/MAR", 1 / mar, "V-25")
        times = Fraction(w.step(f"{number(a)} x {number(b)}", a * b, "V-25"))
    return _harm(w, inputs, str(inputs["kind"]), times, "V-25")


EXPOSURE = CalculatorSpec(
    name="exposure", title="Exposure hazard", rules=("V-25", "R-01"), group="Hazards",
    help="Acid, flame, heat, cold, sunburn, gas or electricity: a human's damage x sqrt(LS) "
         "(advanced: x sqrt(Area Scale) x sqrt(1/MAR)).",
    inputs={"damage": _DAMAGE, "kind": choice("Damage kind", KINDS, "burn"), "ls": _LS,
            "method": choice("Rule", ("detailed", "advanced"), "detailed"),
            "area_scale": ratio("Area Scale (advanced; default LS^2)", None),
            "mar": ratio("MAR, mass-to-area ratio (advanced; default LS)", None)},
    required=(), run=_exposure)


# --------------------------------------------------------------------------- V-26


def _jet(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("jet", inputs)
    return _harm(w, inputs, str(inputs["kind"]), _jet_share(w, "jet", inputs, "jet_width", "V-26"), "V-26")


_WIDTH = amount("Target width", 0.01, 100000, "in")

JET = CalculatorSpec(
    name="jet", title="Jet attack", rules=("V-26", "V-25", "R-01"), group="Hazards",
    help="A fixed-size jet: the damage x target width / jet width (at most all of it), optionally "
         "x sqrt(area-to-mass ratio) for cube-square.",
    inputs={"damage": _DAMAGE, "kind": choice("Damage kind", KINDS, "burn"),
            "jet_width": amount("Jet width", 0.01, 100000, "in"), "target_width": _WIDTH,
            "cube_square": flag("Cube-square effects"), "area_to_mass": _AREA_TO_MASS},
    required=("jet_width", "target_width"), run=_jet)


# --------------------------------------------------------------------------- V-27


def _exposure_effects(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("exposure_effects", inputs)
    size, ht = _int(inputs, "size"), _int(inputs, "ht")
    mod = w.step(f"HT roll modifier: Size {size} / 2, toward zero", int(size / 2), "V-27, A-41")
    target = w.step(f"HT {ht} {mod:+d}", ht + mod, "V-27")
    result: dict[str, JSON] = {"ht_modifier": mod, "ht_target": target}
    summary = f"HT rolls against {target} ({mod:+d} for Size {size})"
    harm = None
    points = _int(inputs, "amount")
    if points:
        root = _root(w, "LS", read_ratio("exposure_effects", inputs, "ls"), "V-27, V-25")
        measure = str(inputs["measure"])
        scaled = w.step(f"{measure} {points} x {number(root)}", points * root, "V-27")
        result[measure] = number(scaled)
        if measure == "fatigue":
            harm = Harm(dice=0, adds=points, kind="fat", rule="V-27", multiplier=root)
            summary += f"; {math.floor(scaled)} FP"
        else:
            summary += f"; {float(scaled):g} rads"
    return w.done(result, summary, harm)


EXPOSURE_EFFECTS = CalculatorSpec(
    name="exposure_effects", title="Exposure without damage", rules=("V-27", "A-41", "V-25"), group="Hazards",
    help="HT rolls against exposure at Size / 2 (toward zero); fatigue and rads scale like damage (x sqrt(LS)).",
    inputs={"size": whole("Size", -30, 30, default=0), "ht": whole("HT", 1, 40),
            "amount": whole("Fatigue or rads a human takes", 0, 100000, default=0),
            "measure": choice("Measured in", ("fatigue", "rads"), "fatigue"), "ls": _LS},
    required=("ht",), prefill={"size": "sm", "ht": "ht"}, run=_exposure_effects)


# --------------------------------------------------------------------------- V-28

#: V-28: the insulation bonus to HT rolls against freezing.
BUILD_BONUS = {"average": 0, "overweight": 1, "fat": 2, "obese": 3}
#: V-28: the normal rule's roll every half hour, in minutes.
HALF_HOUR = 30


def _temperature(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("temperature", inputs)
    temp, optimal = exact(inputs["temperature"]), exact(inputs["optimal"])
    felt = temp
    if inputs["medium"] == "water":
        felt = Fraction(w.step(f"water: {float(optimal):g} + 3 x ({float(temp):g} - {float(optimal):g})",
                               optimal + 3 * (temp - optimal), "V-28"))
    ht = _int(inputs, "ht")
    bonus = BUILD_BONUS[str(inputs["build"])] if felt < optimal else 0
    target = w.step(f"HT {ht} + {bonus} insulation ({inputs['build']}, against cold only)", ht + bonus, "V-28")
    failed = _int(inputs, "failed_by")
    loss = w.step(f"failed by {failed}: 1 point per full or partial 3", math.ceil(failed / 3), "V-28")
    result: dict[str, JSON] = {"felt_as": number(felt), "ht_target": target, "loss": loss}
    pool = "FP" if inputs["loses"] == "fp" else "HP"
    summary = f"feels like {float(felt):g} deg F; HT against {target} every half hour"
    harm = None
    if loss:
        every = w.step(f"{loss} {pool} spread over {HALF_HOUR} min: minutes between losses", Fraction(HALF_HOUR, loss),
                       "V-28")
        result["every_minutes"] = number(every)
        summary += f"; lose {loss} {pool}, one every {float(every):g} min"
        harm = Harm(dice=0, adds=loss, kind="fat" if pool == "FP" else "injury", rule="V-28")
    lost = _int(inputs, "lost_to_cold")
    if lost:
        top = _int(inputs, "fp_max" if pool == "FP" else "hp_max")
        numb = w.step(f"numbness: -1 DX per 1/3 of {pool}max {top} lost to cold ({lost})", -(3 * lost // top),
                      "V-28")
        result["dx_penalty"] = numb
        summary += f"; DX {numb:+d} from numbness"
    return w.done(result, summary, harm)


TEMPERATURE = CalculatorSpec(
    name="temperature", title="Cold, heat and water", rules=("V-28",), group="Hazards",
    help="Water counts three times its difference from the creature's optimal temperature; a failed HT roll "
         "costs 1 FP or HP per full or partial 3 points of failure over the half hour; fat insulates.",
    inputs={"temperature": amount("Temperature", -460, 2000, "deg F"),
            "medium": choice("Surrounded by", ("air", "water"), "air"),
            "optimal": amount("Optimal temperature", -460, 2000, "deg F", 70), "ht": whole("HT", 1, 40),
            "build": choice("Build", tuple(BUILD_BONUS), "average"),
            "failed_by": whole("HT roll failed by", 0, 100, default=0),
            "loses": choice("Loses", ("fp", "hp"), "fp"),
            "lost_to_cold": whole("FP or HP already lost to cold", 0, 1000, default=0),
            "fp_max": whole("FPmax", 1, 1000, default=10), "hp_max": whole("HPmax", 1, 100000, default=10)},
    required=("temperature", "ht"), prefill={"ht": "ht", "fp_max": "fp_max", "hp_max": "hp_max"},
    run=_temperature)


# --------------------------------------------------------------------------- V-42


def _poison(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("poison", inputs)
    route = str(inputs["route"])
    if route == "gas_spray":
        times = _root(w, "LS (gas and spray use the exposure rules)", read_ratio("poison", inputs, "ls"),
                      "V-42, V-25")
    elif route == "contact":
        times = _jet_share(w, "poison", inputs, "dose_width", "V-42, V-26")
    elif inputs["cube_square"]:
        times = _root(w, "area-to-mass ratio (optional for internal poisons)",
                      read_ratio("poison", inputs, "area_to_mass"), "V-42")
    else:
        times = Fraction(w.step("internal poison: HP alone scale it", 1, "V-42"))
    return _harm(w, inputs, str(inputs["kind"]), times, "V-42")


POISON = CalculatorSpec(
    name="poison", title="Poison", rules=("V-42", "V-25", "V-26", "R-01"), group="Hazards",
    help="Gas or spray: the exposure rules (x sqrt(LS)); contact: the jet rules with the dose's size; "
         "internal: as it is, optionally x sqrt(area-to-mass ratio).",
    inputs={"route": choice("Route", ("gas_spray", "contact", "internal")), "damage": _DAMAGE,
            "kind": choice("Damage kind", KINDS, "tox"), "ls": _LS,
            "dose_width": amount("Dose width (contact)", 0.01, 100000, "in", 1),
            "target_width": {**_WIDTH, "default": 12},
            "cube_square": flag("Cube-square effects"), "area_to_mass": _AREA_TO_MASS},
    required=("route",), run=_poison)


# --------------------------------------------------------------------------- V-45


def _acceleration(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("acceleration", inputs)
    ht, mod, half = _int(inputs, "ht"), _int(inputs, "modifier"), _int(inputs, "half_modifier")
    target = w.step(f"HT {ht} {mod:+d} (acceleration) {half:+d} (Half modifier for natural encumbrance)",
                    ht + mod + half, "V-45")
    g, hours = exact(inputs["gravity"]), _int(inputs, "hours")
    rolls = w.step(f"{float(g):g} g for {hours} h: a HT roll each hour above 1 g", hours if g > 1 else 0, "V-45")
    summary = f"HT rolls against {target}" + (f"; {rolls} hourly roll(s) to avoid stunning or worse" if rolls else "")
    return w.done({"ht_target": target, "rolls": rolls}, summary)


ACCELERATION = CalculatorSpec(
    name="acceleration", title="Acceleration and gravity", rules=("V-45",), group="Hazards",
    help="HT rolls against acceleration add the Half modifier for natural encumbrance; high gravity calls "
         "for a HT roll each hour.",
    inputs={"ht": whole("HT", 1, 40), "modifier": whole("Acceleration modifier (GM)", -20, 20, default=0),
            "half_modifier": whole("Half modifier (natural encumbrance)", -20, 20, default=0),
            "gravity": amount("Gravity", 0, 100, "g", 1), "hours": whole("Hours", 0, 10000, "h", 0)},
    required=("ht",), prefill={"ht": "ht"}, run=_acceleration)

SPECS: tuple[CalculatorSpec, ...] = (EXPOSURE, JET, EXPOSURE_EFFECTS, TEMPERATURE, POISON, ACCELERATION)
