"""SHELL's GM tool (#12): S-16 animals and aliens as the ``creature`` calculator.

Why a calculator and not only a sheet: S-16 gives the GM suggestions, not a chart,
so the GM needs to see what a body type and a size mean before writing a creature's
sheet (``body``, ``size``, a ``predator`` style): the hit-location table that replaces
the humanoid one (A-63) with what is out of reach, and the predator style's AT and
dodge DEF worked out as for any style (S-26, S-03). It is informational: it hurts no
one, so it has no harm and nothing to apply.
"""

from __future__ import annotations

from typing import Mapping

from combat_server.rules.kit.calculators import Calculation, CalculatorSpec, Workings, registry
from combat_server.rules.model import JSON
from combat_server.rules.shell import bodies, charts, resolution
from combat_server.rules.shell.sheet import Sheet, Style, bare_hand, dodge_def

PREDATOR = "predator"
_FROM = {"front": "the front", "behind": "behind"}


def _int(inputs: Mapping[str, JSON], name: str) -> int:
    value = inputs[name]
    assert isinstance(value, int)
    return value


def _table(w: Workings, body: str, size: str, higher: bool, facing: str) -> list[JSON]:
    """Each location of the body's table with its AT modifier, whether the size leaves it in reach,
    and whether the shape puts it on the far side seen from ``facing``."""
    out_of_reach = bodies.unreachable(size, higher)
    far = bodies.far_side(body, facing)
    rule = "S-29" if body == bodies.HUMANOID else "S-16, A-63"
    rows: list[JSON] = []
    for row in bodies.table(body):
        reachable = row.kind not in out_of_reach
        if not reachable:
            w.step(f"{body} {row.name}: out of reach of a man-sized attacker ({size})", False, "S-16")
        elif row.name in far:
            w.step(f"{body} {row.name}: AT {row.at:+d}, and -3 on the far side seen from {_FROM[facing]}",
                   row.at - 3, "S-16, S-29")
        else:
            w.step(f"{body} {row.name}: AT {row.at:+d}", row.at, rule)
        rows.append({"location": row.name, "kind": row.kind, "at": row.at, "reachable": reachable,
                     "far_side": row.name in far})
    return rows


def _creature(inputs: Mapping[str, JSON]) -> Calculation:
    w = Workings("creature", inputs)
    body, size, higher = str(inputs["body"]), str(inputs["size"]), bool(inputs["higher"])
    level, ag, el = _int(inputs, "predator"), _int(inputs, "ag"), _int(inputs, "el")
    facing = str(inputs["facing"])
    rows = _table(w, body, size, higher, facing)
    if higher and size in bodies.REACHED_FROM_ABOVE:
        w.step(f"attacking from higher ground brings a {size} creature's head within reach", True, "S-16, S-29")
    # The predator skill is the creature's fighting style (S-16, S-11): the same AT and dodge as any style.
    creature = Sheet(ag=ag, styles=(Style(PREDATOR, level),))
    at = 0
    for mod in resolution.base_at(creature, bare_hand(PREDATOR), ag=ag):
        at += w.step(f"AT: {mod.reason} {mod.value:+d}" if mod.reason != "AG" else f"AT: AG {ag} {mod.value:+d}",
                     mod.value, "S-16, S-26" if mod.reason.startswith(PREDATOR) else mod.rule)
    at = w.step(f"predator AT = {level} {charts.ag_at_mod(ag):+d}", at, "S-26")
    w.step(f"dodge: best style, predator {level}", level, "S-16, S-26")
    w.step(f"dodge: AG {ag} DEF {charts.ag_def_mod(ag):+d}", charts.ag_def_mod(ag), "S-03")
    w.step(f"dodge: -(1 + EL {el})", -(1 + el), "S-26")
    dodge = w.step("predator dodge DEF", dodge_def(creature, ag, el), "S-26")
    bonus = w.step(f"damage bonus: +1 per 3 levels above the first, floor(({level} - 1) / 3)",
                   charts.style_damage_bonus(level), "S-11, R-20")
    unreachable = [str(r["location"]) for r in rows if isinstance(r, dict) and not r["reachable"]]
    far = [str(r["location"]) for r in rows if isinstance(r, dict) and r["far_side"]]
    result: dict[str, JSON] = {"body": body, "size": size, "locations": rows, "unreachable": list(unreachable),
                               "far_side": list(far),
                               "at": at, "dodge_def": dodge, "damage_bonus": bonus}
    out = f"; out of reach: {', '.join(unreachable)}" if unreachable else ""
    if far:
        out += f"; far side from {_FROM[facing]} (-3): {', '.join(far)}"
    summary = (f"{size} {body}: its own hit-location table (A-63){out}; predator {level} with AG {ag}: "
               f"AT {at:+d}, dodge DEF {dodge:+d}, damage {bonus:+d}")
    return w.done(result, summary)


CREATURE = CalculatorSpec(
    name="creature", title="Animal or alien", rules=("S-16", "A-63", "S-29", "S-26", "S-03", "S-11", "R-20"),
    group="Creatures",
    help="A body type's hit-location table (it replaces the humanoid one), what the creature's size puts out "
         "of reach, where its shape puts the far side, and its predator skill's AT and dodge DEF, modified by AG "
         "like any style.",
    inputs={
        "body": {"enum": list(bodies.BODIES), "default": bodies.HUMANOID, "title": "Body type"},
        "size": {"enum": list(bodies.SIZES), "default": bodies.NORMAL, "title": "Size beside a man"},
        "predator": {"type": "integer", "minimum": 0, "maximum": 40, "default": 5,
                     "title": "Predator skill level (tigers, giant owls: 5-6)"},
        "ag": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10,
               "title": "AG (lions, tigers: 16-18)"},
        "el": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0, "title": "Encumbrance level (EL)"},
        "higher": {"type": "boolean", "default": False, "title": "Attacker stands higher"},
        "facing": {"enum": list(bodies.FACINGS), "default": "front", "title": "Attacked from the"},
    },
    prefill={"ag": "ag_now", "el": "el"}, run=_creature)

CALCULATORS: Mapping[str, CalculatorSpec] = registry(CREATURE)
