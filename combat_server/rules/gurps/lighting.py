"""The fight's light level (GULLIVER V-46, A-47): the GM's ``set_light`` command.

Why a command and an event rather than an option: the light changes during a fight (a torch
goes out, a flash goes off), and every roll it changes must be replayable, so the level is
state the log sets (``light_changed``, folded into ``Combat.light``). What it does to the rolls
is the fight's policy (``Policy.light_skill_mod``, ``darkness_mod``, ``vision_mod``), read by
attacks.light_mods for attacks, feints and active defences."""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.errors import reject
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.gulliver.light import NAMES
from combat_server.rules.gurps.state import light_of


def set_light(b: Batch, args: Mapping[str, Any]) -> None:
    """V-46: the GM sets the light level, while setting the fight up or during it; refused when the
    fight was created without light levels (``light/not_in_use``) or the level does not change."""
    if not b.policy.light_levels:
        raise reject("light/not_in_use", "this fight does not use GULLIVER's light levels (V-46): create it "
                     "with the light_levels option, or state darkness as a circumstance modifier (G-35)",
                     field="level")
    level = args.get("level")
    if level not in NAMES:  # the spec's enum refused it already; kept for callers that skip the spec
        raise reject("light/unknown_level", f"unknown light level {level!r}", field="level", known=list(NAMES))
    was = light_of(b.state.combat)
    if level == was:
        raise reject("light/unchanged", f"the light is already {level}", field="level")
    payload: dict[str, Any] = {"level": level, "was": was}
    reason = str(args.get("reason") or "").strip()
    if reason:
        payload["reason"] = reason
    b.emit("light_changed", payload)
