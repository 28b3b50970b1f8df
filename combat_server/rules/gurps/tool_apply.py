"""Applying a GM tool's result to combatants (#12): the ``apply_tool`` command, decided here.

Why an event and the normal injury path: the GM's "X takes 2d x 1/6 burn" must be
undone, disputed and replayed like any blow, and hurt exactly as a blow does. So
the dice are rolled from the fight's source (manual faces allowed), a
``tool_applied`` event records the tool, its inputs and steps (the audit of how the
number came about), and the injury goes through ``attacks.apply_injury`` (shock,
major wound and its knockdown, death checks, reeling) after DR and the wound
multiplier of G-42; fatigue goes through the FP path of G-51.
"""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.errors import reject
from combat_server.rules.gurps import attacks, checks, injury as inj
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.kit.calculators import Harm
from combat_server.rules.model import JSON
from combat_server.rules.tools import find_tool

#: Harm kinds that are not damage against DR: fatigue (the FP path) and HP lost as it is.
FATIGUE = "fat"
#: Fatigue from exposure (V-27, V-28: cold, heat, radiation) is not physical exertion, so GULLIVER's V-52
#: load factor and V-53 energy rule do not scale it (V-27 scales it for size already); climbing,
#: running, swimming and carrying (G-05, G-08, G-10, G-11) are exertion.
NOT_EXERTION = frozenset({"V-27", "V-28"})
DIRECT = "injury"


def apply_tool(b: Batch, args: Mapping[str, Any]) -> None:
    """Run the tool on the inputs, then roll and apply its harm to each target in turn."""
    spec = find_tool(b.ruleset, str(args["tool"]))
    calc = spec.calculate(args.get("inputs") or {})
    if calc.harm is None:
        raise reject("tool/nothing_to_apply", f"{spec.name} gives no damage or fatigue to apply: {calc.summary}",
                     field="tool")
    targets = [str(t) for t in args["targets"]]
    if not targets or len(set(targets)) < len(targets):
        raise reject("command/bad_field", "apply_tool: targets must name at least one combatant, each once",
                     field="targets")
    for cid in targets:
        b.state.combatant(cid)  # combatant/unknown, before anything is rolled
    base: dict[str, JSON] = {"tool": spec.name, "title": spec.title, "inputs": dict(calc.inputs),
                             "steps": [s.to_json() for s in calc.steps], "summary": calc.summary,
                             "harm": calc.harm.to_json()}
    for cid in targets:
        _apply_one(b, spec.title, calc.harm, cid, base)


def _apply_one(b: Batch, title: str, harm: Harm, cid: str, base: Mapping[str, JSON]) -> None:
    faces = b.roll(harm.dice, 6, f"{title} for {b.name(cid)}") if harm.dice else ()
    points = harm.total(faces)
    payload: dict[str, JSON] = {**base, "target": cid, "dice": list(faces), "points": points}
    source = f"{title} ({harm.kind}, {harm.rule})"
    if harm.kind == FATIGUE:
        b.emit("tool_applied", payload)
        if points:
            checks.lose_fatigue(b, cid, points, source, exertion=harm.rule not in NOT_EXERTION)
        return
    if harm.kind == DIRECT:
        dr, pen, multiplier, hurt = 0, points, "1", points
    else:
        basic_set = bool(b.option("basic_set_wound_multipliers"))
        dr = b.sheet(cid).dr
        pen = inj.penetrating(points, dr)
        multiplier = str(inj.wound_multiplier(harm.kind, basic_set))
        hurt = inj.injury(pen, harm.kind, basic_set)
    payload.update(dr=dr, penetrating=pen, multiplier=multiplier, injury=hurt)
    b.emit("tool_applied", payload)
    if hurt > 0:
        attacks.apply_injury(b, cid, hurt, source)
