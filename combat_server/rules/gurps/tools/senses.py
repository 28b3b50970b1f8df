"""Rolls against Per and Will as GM tools (#12): sense rolls (G-15), Will rolls (G-17)
and continuous pain (V-23, which sends the GM to the Fright Check of G-18)."""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.gurps.tools.common import choice, flag, whole
from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Workings
from combat_server.rules.model import JSON

_MOD = whole("Modifier", -20, 20, default=0)


def _int(inputs: Mapping[str, JSON], name: str) -> int:
    value = inputs[name]
    assert isinstance(value, int)
    return value


def _sense(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("sense_roll", inputs)
    sense, mod = str(inputs["sense"]).replace("_", "/"), _int(inputs, "modifier")
    if "skill" in inputs:
        base = w.step(f"{sense}: Observation or Search {inputs['skill']} replaces Per", _int(inputs, "skill"), "G-15")
    else:
        base = w.step(f"{sense}: against Per", _int(inputs, "per"), "G-15")
    target = w.step(f"{base} {mod:+d}", base + mod, "G-15")
    light = _int(inputs, "light")
    if sense == "vision" and light:  # V-46: glare and darkness penalties count on Vision rolls
        target = w.step(f"{target} {light:+d}: the light level's Vision penalty", target + light, "V-46, A-47")
    result: dict[str, JSON] = {"target": target}
    summary = f"{sense.title()} roll against {target}"
    if "against" in inputs:
        w.step(f"a Quick Contest against concealment or Stealth {inputs['against']}", _int(inputs, "against"),
               "G-15, G-01")
        result["contest_against"] = _int(inputs, "against")
        summary = f"Quick Contest: {target} against {inputs['against']} (G-01)"
    if inputs["danger_sense"]:
        danger = w.step("Danger Sense: if the roll fails, the GM secretly rolls Per", _int(inputs, "per"), "G-15")
        result["danger_sense"] = danger
        summary += f"; on a failure the GM rolls Per {danger} in secret"
    return w.done(result, summary)


SENSE_ROLL = CalculatorSpec(
    name="sense_roll", title="Sense roll", rules=("G-15", "G-01", "V-46"), group="Checks",
    help="Vision, Hearing or Taste/Smell against Per (Observation or Search may replace it), "
         "or a Quick Contest against a concealment skill or Stealth; with GULLIVER's light levels, "
         "the light's Vision penalty as the combatant sees it.",
    inputs={"sense": choice("Sense", ("vision", "hearing", "taste_smell")), "per": whole("Per", 1, 40),
            "modifier": _MOD, "skill": whole("Observation or Search (replaces Per)", 1, 40),
            "against": whole("Concealment or Stealth skill (Quick Contest)", 1, 40),
            "danger_sense": flag("Danger Sense"),
            "light": whole("Light: Vision penalty (GULLIVER V-46)", -8, 0, default=0)},
    required=("sense", "per"), prefill={"per": "per", "light": "light.vision"}, run=_sense)


def _will(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("will_roll", inputs)
    will, mod = _int(inputs, "will"), _int(inputs, "modifier")
    target = w.step(f"stress or distraction: Will {will} {mod:+d}", will + mod, "G-17")
    return w.done({"target": target}, f"Will roll against {target}: success acts normally, failure gives in")


WILL_ROLL = CalculatorSpec(
    name="will_roll", title="Will roll", rules=("G-17",), group="Checks",
    help="Stress or distraction: success acts normally, failure gives in or is distracted.",
    inputs={"will": whole("Will", 1, 40), "modifier": _MOD}, required=("will",), prefill={"will": "will"},
    run=_will)


def _pain(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("continuous_pain", inputs)
    pain, hp_max = _int(inputs, "pain"), _int(inputs, "hp_max")
    beyond = bool(w.step(f"constant pain {pain} above HPmax {hp_max}", pain > hp_max, "V-23"))
    will, mod = _int(inputs, "will"), _int(inputs, "modifier")
    target = w.step(f"Fright Check for the psychological effects: Will {will} {mod:+d}", will + mod, "V-23, G-18")
    if beyond:
        summary = (f"pain {pain} > HPmax {hp_max}: only an incredible Will resists breaking down; "
                   f"Fright Check against {target} (G-18)")
    else:
        summary = f"pain {pain} is within HPmax {hp_max}; a Fright Check against {target} if the GM calls for one"
    return w.done({"beyond_hp": beyond, "fright_target": target}, summary)


CONTINUOUS_PAIN = CalculatorSpec(
    name="continuous_pain", title="Continuous pain", rules=("V-23", "G-18"), group="Checks",
    help="Constant pain above HPmax takes an incredible Will to resist; its effects use the Fright Check.",
    inputs={"pain": whole("Constant pain", 0, 100000, "HP"), "hp_max": whole("HPmax", 1, 100000),
            "will": whole("Will", 1, 40), "modifier": _MOD},
    required=("pain", "hp_max", "will"), prefill={"hp_max": "hp_max", "will": "will"}, run=_pain)

SPECS: tuple[CalculatorSpec, ...] = (SENSE_ROLL, WILL_ROLL, CONTINUOUS_PAIN)
