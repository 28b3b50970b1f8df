"""Feats of strength as GM tools (#12): unlisted feats (G-04), lifting and moving things
(G-08) and throwing distance (G-13, with the damage of G-14)."""

from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import throwing
from combat_server.rules.gurps.derived import basic_lift
from combat_server.rules.gurps.tools.common import amount, choice, dice_text, exact, flag, whole
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Harm, Workings, number
from combat_server.rules.model import JSON

_ST = whole("ST", 1, 1000)
_WEIGHT = amount("Weight", 0.001, 1000000, "lb")


def _int(inputs: Mapping[str, JSON], name: str) -> int:
    value = inputs[name]
    assert isinstance(value, int)
    return value


def _bl(w: Workings, st: int) -> Fraction:
    return Fraction(w.step(f"Basic Lift: ST {st}^2 / 5 (whole when 10 or more)", basic_lift(st), "G-08"))


# --------------------------------------------------------------------------- G-04

#: G-04 (not in seed): the yardsticks an "average" feat is stated for: ST 10 (BL 20 lb), Basic Move 5.
REFERENCE_BL = Fraction(20)
REFERENCE_MOVE = 5


def _feat(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("unlisted_feat", inputs)
    kind, mod = str(inputs["kind"]), _int(inputs, "modifier")
    if kind in ("precision", "endurance"):
        stat = "DX" if kind == "precision" else "HT"
        base = _int(inputs, stat.lower())
        target = w.step(f"{kind}: {stat} {base} {mod:+d}", base + mod, "G-04")
        return w.done({"target": target}, f"roll {stat} against {target}")
    ref = exact(inputs["reference"])
    if kind == "work":
        bl = _bl(w, _int(inputs, "st"))
        scaled = w.step(f"work scales with BL: {number(ref)} x BL {number(bl)} / {REFERENCE_BL}",
                        ref * bl / REFERENCE_BL, "G-04")
    else:
        bm = _int(inputs, "basic_move")
        scaled = w.step(f"speed scales with Basic Move: {number(ref)} x {bm} / {REFERENCE_MOVE}",
                        ref * bm / REFERENCE_MOVE, "G-04")
    return w.done({"scaled": number(scaled)}, f"{float(scaled):g} (an average person: {float(ref):g})")


UNLISTED_FEAT = CalculatorSpec(
    name="unlisted_feat", title="Unlisted physical feat", rules=("G-04",), group="Strength",
    help="Precision: a DX roll; endurance: a HT roll; work scales with Basic Lift, speed with Basic Move "
         "(the reference is what an average person, ST 10 and Basic Move 5, manages).",
    inputs={"kind": choice("Kind of feat", ("precision", "endurance", "work", "speed")),
            "modifier": whole("Modifier", -20, 20, default=0), "dx": whole("DX", 1, 40, default=10),
            "ht": whole("HT", 1, 40, default=10), "st": {**_ST, "default": 10},
            "basic_move": whole("Basic Move", 0, 100, "yd/s", 5),
            "reference": amount("Average person's result", 0, 1000000, default=1)},
    required=("kind",), prefill={"dx": "dx", "ht": "ht", "st": "st", "basic_move": "basic_move"}, run=_feat)


# --------------------------------------------------------------------------- G-08

#: G-08: what a character can do with a weight: (what, multiple of BL, seconds it takes or "").
LIFTS: tuple[tuple[str, int, str], ...] = (
    ("one-handed lift", 2, "2 s"), ("two-handed lift", 8, "4 s"), ("shove or knock over", 12, ""),
    ("carry on back", 15, ""), ("shift slightly", 50, ""),
)
#: G-08 / G-02: above this multiple of BL (Extra-Heavy) carrying costs 1 FP per second.
CARRY_FREE = 10


def _lifting(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("lifting", inputs)
    bl = _bl(w, _int(inputs, "st"))
    helpers = exact(inputs["helpers_bl"])
    if helpers:
        bl = w.step(f"with helpers' BL {number(helpers)} (BL adds, not ST)", bl + helpers, "G-08")
    weight = exact(inputs["weight"])
    running = bool(inputs["running_start"])
    can: list[JSON] = []
    limits: dict[str, JSON] = {}
    for what, times, takes in LIFTS:
        limit = times * bl * (2 if running and what.startswith("shove") else 1)
        limits[what] = number(limit)
        ok = weight <= limit
        text = f"{what}: {times} x BL" + (" x 2 (running start)" if running and what.startswith("shove") else "")
        w.step(f"{text} = {float(limit):g} lb" + (f", takes {takes}" if takes and ok else ""), ok, "G-08")
        if ok:
            can.append(what)
    harm = None
    seconds = _int(inputs, "seconds_carried")
    if seconds and CARRY_FREE * bl < weight <= 15 * bl:
        w.step(f"carried on the back above {CARRY_FREE} x BL: 1 FP per second, {seconds} s", seconds, "G-08")
        harm = Harm(dice=0, adds=seconds, kind="fat", rule="G-08")
    summary = f"{float(weight):g} lb: " + (", ".join(str(c) for c in can) if can else "too heavy to move")
    return w.done({"basic_lift": number(bl), "can": can, "limits": limits}, summary, harm)


LIFTING = CalculatorSpec(
    name="lifting", title="Lifting and moving things", rules=("G-08",), group="Strength",
    help="What can be done with a weight, from Basic Lift (several characters add their BL); "
         "carrying more than 10 x BL costs 1 FP per second.",
    inputs={"st": _ST, "weight": _WEIGHT, "helpers_bl": amount("Helpers' Basic Lift", 0, 1000000, "lb", 0),
            "running_start": flag("Running start (shove)"),
            "seconds_carried": whole("Seconds carried", 0, 86400, "s", 0)},
    # V-01: lifting is Load ST's where the view gives one (combat_load_st on and the block's Load ST differs)
    required=("st", "weight"), prefill={"st": ("load_st.st", "st")}, run=_lifting)


# --------------------------------------------------------------------------- G-13


def _throwing(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("throwing", inputs)
    st = _int(inputs, "st")
    bl = _bl(w, st)
    weight = exact(inputs["weight"])
    ratio = w.step(f"weight ratio {float(weight):g} lb / BL {number(bl)}", weight / bl, "G-13")
    if ratio > throwing.MAX_THROW_RATIO:
        raise reject("tool/bad_input", f"throwing: input 'weight' must be at most 8 x BL ({float(8 * bl):g} lb): "
                     f"{float(weight):g} lb cannot be thrown (G-12, A-07)", field="weight")
    mod = throwing.distance_modifier(ratio)
    w.step(f"the first table row at or above ratio {float(ratio):g}: x {float(mod):g}", mod, "G-13, A-07")
    distance = w.step(f"distance: ST {st} x {float(mod):g}", st * mod, "G-13")
    hands = w.step("one hand throws up to 2 x BL, heavier needs two", 1 if weight <= 2 * bl else 2, "G-12")
    dice, adds = throwing.thrown_damage(st, weight, bl)
    damage = w.step(f"damage: thrust for ST {st}, modified for {float(weight):g} lb", f"{dice_text(dice, adds)} cr",
                    "G-14, A-08")
    result: dict[str, JSON] = {"distance_yd": number(distance), "hands": hands, "damage": damage}
    return w.done(result, f"{float(distance):g} yd, {hands}-handed, {damage}")


THROWING = CalculatorSpec(
    name="throwing", title="Throwing distance", rules=("G-13", "G-12", "G-14", "A-07", "A-08"), group="Strength",
    players=True, help="How far an object flies (ST x the table's modifier for weight / BL) and the damage it does.",
    inputs={"st": _ST, "weight": _WEIGHT}, required=("st", "weight"), prefill={"st": "st"}, run=_throwing)

SPECS: tuple[CalculatorSpec, ...] = (UNLISTED_FEAT, LIFTING, THROWING)
