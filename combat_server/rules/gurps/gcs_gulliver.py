"""What a GCS file says about GULLIVER's numbers (issue #11): the sheet's ``gulliver`` block (A-27,
catalogue 2.0) and ``eyes`` block (V-46), read from the fields GCS has for them.

Why a module of its own: the GCS importer (gcs.py) reads GCS's computed values; this part maps
them onto GULLIVER's per-creature quantities, and says in the import's ``unused`` list what the
file cannot give (Linear Scale, base HP, racial IQ: GULLIVER Books 1-4, not GCS data). Pure.

The mapping (each a reading, docs/gulliver.md):

* ``profile.SM`` -> ``gulliver.size``: GURPS's Size Modifier is GULLIVER's Size level (0 for a
  human, +6 for each x10 of length); the sheet's ``sm`` keeps it for G-35 as before.
* ``calc.striking_st_bonus`` -> ``gulliver.combat_st`` (ST + the bonus) and
  ``calc.lifting_st_bonus`` -> ``gulliver.load_st``: GCS's striking and lifting ST are V-01's
  Combat ST and Load ST.
* ``profile.weight`` -> ``gulliver.mass_lb``.
* ``settings.body_type.name`` "Quadruped..." -> ``gulliver.body`` "quadruped" (A-63); locations
  the table lacks (a winged quadruped's wings) are listed.
* Traits -> ``eyes`` (V-46): Night Vision 8 or more levels is the full version (no darkness
  penalty short of total darkness: the largest, very dark's, is -8), fewer levels the partial
  one (one level brighter); Night Blindness; Light Sensitivity (its mild form 1 level, else 2),
  also when GCS files it as a Bad Sight specialisation naming light.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterable, Mapping

import attrs

from combat_server.rules.gurps.gulliver.locations import BODIES, HUMANOID
from combat_server.rules.model import JSON

#: V-46: Night Vision levels from which GCS's leveled trait is GULLIVER's full Night Vision.
FULL_NIGHT_VISION = 8


@attrs.frozen
class GulliverRead:
    """The blocks for the sheet (only fields the file gives), the trait names they used, and what
    the GM must still type."""

    gulliver: dict[str, JSON]
    eyes: dict[str, JSON]
    traits_used: frozenset[str]
    unused: tuple[str, ...]


def read(data: Mapping[str, Any], traits: Iterable[Mapping[str, Any]], st: int,
         weight_lb: Callable[[Any], float]) -> GulliverRead:
    """GULLIVER's numbers from a GCS character: ``data`` the file, ``traits`` its enabled trait rows,
    ``st`` the imported ST, ``weight_lb`` the importer's weight parser (text with units -> lb)."""
    block: dict[str, JSON] = {}
    eyes: dict[str, JSON] = {}
    used: set[str] = set()
    unused: list[str] = []
    profile = data.get("profile") or {}
    calc = data.get("calc") or {}

    sm = int(profile.get("SM", 0) or 0)
    if sm:
        block["size"] = sm  # GULLIVER Size = GURPS SM
        unused.append(f"Size Modifier {sm:+d} taken as GULLIVER Size {sm}; Linear Scale, base HP and racial IQ "
                      f"are not in the file (type them in the sheet's GULLIVER block)")
    for key, field, trait in (("striking_st_bonus", "combat_st", "Striking ST"),
                              ("lifting_st_bonus", "load_st", "Lifting ST")):
        bonus = int(calc.get(key, 0) or 0)
        if bonus:
            block[field] = max(1, st + bonus)  # V-01
            used.add(trait)
    weight = str(profile.get("weight") or "").strip()
    if weight:
        try:
            mass = weight_lb(weight)
        except ValueError:
            mass = 0.0
        if 0 < mass <= 10 ** 12:
            block["mass_lb"] = _number_text(mass)
        else:
            unused.append(f"weight {weight!r}: not a mass in lb the rules can read")

    body = (data.get("settings") or {}).get("body_type") or (data.get("settings") or {}).get("hit_locations") or {}
    name = str(body.get("name") or "").strip()
    table = HUMANOID
    if name.lower().startswith("quadruped"):
        block["body"] = "quadruped"
        table = BODIES["quadruped"]
    elif name and name.lower() != "humanoid":
        unused.append(f"body type {name!r}: no hit-location table of its own; the humanoid table is used (A-63)")
    keys = {loc.dr_key for loc in table.values()}
    missing = sorted({str(loc.get("id")) for loc in body.get("locations") or () if isinstance(loc, Mapping)}
                     - keys - {"None", ""})
    if missing:
        unused.append(f"hit locations the {block.get('body', 'humanoid')} table lacks: {', '.join(missing)} "
                      f"(blows land on the table's own locations, A-63)")

    for row in traits:
        trait = str(row.get("name", ""))
        levels = row.get("levels")
        if trait == "Night Vision":
            level = int(levels) if isinstance(levels, (int, float)) and not isinstance(levels, bool) else 1
            eyes["night_vision"] = "full" if level >= FULL_NIGHT_VISION else "partial"  # V-46
            used.add(trait)
        elif trait == "Night Blindness":
            eyes["night_blindness"] = True
            used.add(trait)
        elif re.match(r"(Light Sensitivity|Bad Sight \(.*light)", trait, re.IGNORECASE):
            eyes["light_sensitivity"] = 1 if "mild" in trait.lower() else 2
            used.add(trait)
    return GulliverRead(block, eyes, frozenset(used), tuple(unused))


def _number_text(value: float) -> JSON:
    """A mass as the block stores it: a whole number, or exact decimal text ("170.5")."""
    if value == int(value):
        return int(value)
    return f"{value:.3f}".rstrip("0")
