"""Roll prompts: what the dice alone answer (the server rolls them unless the fight uses
manual dice): damage (S-32, S-45), the spell's task roll (S-12, S-44), HT+2 against a
permanent crippling (S-37) and the WP rolls against unconsciousness (S-13, S-35, S-37)."""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.rules.kit.prompts import answered
from combat_server.rules.kit.rolls import Mod
from combat_server.rules.model import JSON
from combat_server.rules.shell import resolution
from combat_server.rules.shell.attacks import roll_damage
from combat_server.rules.shell.batch import Batch
from combat_server.rules.shell.sheet import DIFFICULTIES, derive
from combat_server.rules.shell.turns import roll_off, wp_end_prompt

ROLL = "roll"


def answer_roll(b: Batch, args: Mapping[str, Any]) -> None:
    prompt = answered(b.state, args["prompt"], ROLL)
    purpose = str(prompt.options["purpose"])
    cid = str(prompt.combatant)
    if purpose == "initiative":
        roll_off(b, prompt.id, prompt.options)
    elif purpose == "damage":
        roll_damage(b, prompt.id, str(prompt.options["hit"]), str(prompt.options.get("object") or ""))
    elif purpose == "spell":
        _spell(b, cid, prompt.id, prompt.options)
    else:
        _check(b, cid, purpose, prompt.id, prompt.options)


def _check(b: Batch, cid: str, purpose: str, prompt_id: str, options: Mapping[str, JSON]) -> None:
    sheet, cond = b.sheet(cid), b.cond(cid)
    if purpose == "cripple_ht":
        rec = b.check(cid, purpose, sheet.ht, "HT", (Mod(2, "crippled by one blow", "S-37"),), "S-37")
    elif purpose == "wp_end":
        rec = b.check(cid, purpose, derive(sheet).wp, "WP", (Mod(cond.end, "current END", "S-13"),), "S-13")
    else:
        # the prompt says why it was asked (S-35 and/or S-37 item 4); prompts opened before it did: S-35
        why = str(options.get("rule") or "S-35") if purpose == "wp_conscious" else "S-44"
        rec = b.check(cid, purpose, derive(sheet).wp, "WP", (), why)
    success = rec["outcome"] == "success"
    opens = []
    if purpose == "cripple_ht" and not success:  # S-37: permanent, then a WP roll to stay conscious
        opens.append(b.ask_roll(cid, "wp_conscious", f"{b.name(cid)}'s injury is permanent: WP roll to stay "
                                "conscious (S-37)", rule="S-37"))
    b.emit("check_rolled", {"combatant": cid, "purpose": purpose, "record": rec, "success": success,
                            "location": str(options.get("location") or "")}, answers=prompt_id, opens=opens)


def _spell(b: Batch, cid: str, prompt_id: str, options: Mapping[str, JSON]) -> None:
    """S-12 / S-10: IQ + difficulty + (art level - minimum); success costs the spell's END, failure 1
    unless it costs 0 (R-17). A target whose MR reaches the minimum level is immune (S-04)."""
    sheet, cond = b.sheet(cid), b.cond(cid)
    art = next(a for a in sheet.arts if a.name == options["art"])
    spell = next(s for s in art.spells if s.name == options["spell"])
    target = str(options.get("target") or "")
    payload: dict[str, JSON] = {"combatant": cid, "spell": spell.name, "target": target}
    if target and target in b.state.combatants and resolution.mr_immune(spell, b.sheet(target).mr):
        b.emit("spell_cast", {**payload, "record": None, "success": False, "end_cost": 0, "end": cond.end,
                              "immune": True}, answers=prompt_id)
        return
    mods = (Mod(DIFFICULTIES[spell.difficulty], f"{spell.difficulty} spell", "S-12"),
            Mod(art.level - spell.min_level, f"{art.name} {art.level} over minimum {spell.min_level}", "S-10"))
    rec = b.check(cid, "spell", sheet.iq, "IQ", mods, "S-12")
    success = rec["outcome"] == "success"
    cost = resolution.spell_end_cost(spell, success)
    end = cond.end - cost
    opens = [wp_end_prompt(b, cid, end)] if cost and end <= 0 else []  # S-13, R-18
    b.emit("spell_cast", {**payload, "record": rec, "success": success, "end_cost": cost, "end": end},
           answers=prompt_id, opens=opens)
