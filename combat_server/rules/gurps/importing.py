"""The ``import_character`` command and its ``character_imported`` event (#13).

Why an event of its own: the log must say where a sheet came from (the file's name and a
sha256 of its bytes) and what the importer left out, and a re-import (after a level-up)
replaces the sheet but keeps the combatant's current HP, FP and conditions.
"""

from __future__ import annotations

import re
from typing import Any, Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.gurps import fatigue
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gcs import read_gcs
from combat_server.rules.gurps.sheet import validate_sheet
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.rules.model import Combatant, FightState, Principal

#: The largest file accepted (the biggest GCS library characters are ~100 kB).
MAX_BYTES = 2_000_000


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:60] or "combatant"


def import_character(b: Batch, args: Mapping[str, Any], actor: Principal) -> None:
    """A GM imports for a new or any combatant; a player only over its own combatant."""
    content = str(args["content"])
    file_name = str(args["file_name"]).strip() or "character.gcs"
    if len(content.encode("utf-8")) > MAX_BYTES:
        raise reject("import/too_large", f"{file_name} is larger than {MAX_BYTES // 1_000_000} MB")
    target = args.get("combatant")
    if target is None and not actor.is_gm:
        raise reject("auth/gm_only", "only the GM adds a combatant; a player imports over its own combatant "
                                     "(give 'combatant')")
    if target is not None:
        c = b.state.combatant(str(target))
        if not actor.controls(c.id):
            raise reject("auth/not_your_combatant", f"you do not control {c.name}")
        for key in ("id", "side", "hidden"):
            if key in args:
                raise reject("command/bad_field", f"import_character: {key!r} is for a new combatant; "
                                                  f"{c.name} keeps its own", field=key)
    imported = read_gcs(content, file_name)
    payload: dict[str, Any] = {"file": file_name, "sha256": imported.sha256, "format": "gcs",
                               "sheet": imported.sheet_json(), "unused": list(imported.unused)}
    if target is not None:
        c = b.state.combatant(str(target))
        payload.update(id=c.id, name=c.name, replaced=True)
        # The current HP and FP stay (#13), but never above the new sheet's maxima (a re-import that
        # lowers HT or HP): the event then carries the capped values.
        new_sheet = validate_sheet(payload["sheet"])
        if c.condition.hp > new_sheet.hp_max:
            payload["hp"] = new_sheet.hp_max
        full = fatigue.maximum(new_sheet, b.policy)  # G-51's FPmax, or V-53's full Fatigue
        if c.condition.fp > full:
            payload["fp"] = full
    else:
        cid = args.get("id")
        if cid is None:
            base = cid = _slug(imported.name)
            n = 1
            while cid in b.state.combatants:
                n += 1
                cid = f"{base}-{n}"
        elif cid in b.state.combatants:
            raise reject("combatant/exists", f"a combatant {cid!r} already exists (to re-import over it, give "
                                             f"'combatant': {cid!r})")
        # V-53: full Fatigue is Combat ST, less what the file says was spent (G-51 and V-54: the file's FP)
        lost = imported.sheet.fp_max - imported.fp
        payload.update(id=cid, name=imported.name, side=args.get("side") or "pc", hidden=bool(args.get("hidden")),
                       replaced=False, hp=imported.hp, fp=fatigue.maximum(imported.sheet, b.policy) - lost)
    b.emit("character_imported", payload)


def character_imported(state: FightState, p: Mapping[str, Any]) -> FightState:
    sheet = validate_sheet(p["sheet"])
    if p["replaced"]:
        c = state.combatants[p["id"]]
        capped = {k: p[k] for k in ("hp", "fp") if k in p}  # only above the new maxima
        condition = attrs.evolve(c.condition, **capped) if capped else c.condition
        return state.with_combatant(attrs.evolve(c, sheet=sheet, condition=condition))
    c = Combatant(id=p["id"], name=p["name"], side=p["side"], sheet=sheet,
                  condition=Condition(hp=p["hp"], fp=p["fp"]), hidden=bool(p["hidden"]))
    state = state.with_combatant(c)
    combat = state.combat
    if isinstance(combat, Combat) and state.status == "active":
        # a late arrival joins at the end of the sequence, as an added combatant does
        state = attrs.evolve(state, combat=attrs.evolve(combat, order=combat.order + (c.id,)))
    return state
