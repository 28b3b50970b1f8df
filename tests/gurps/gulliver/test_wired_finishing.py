"""GULLIVER's finishing blow (V-59) wired through the gurps ruleset (issue #11), on the real engine
(SQLite file and PostgreSQL): a blow on a helpless foe (unconscious, or collapsed from fatigue) does
maximum damage, and once a finishing blow is past the skull's DR the same attacker's further ones
there with that weapon are twists that ignore DR. Each test plays the same blows on the same dice
with `finishing_blow` on and off; numbers worked by hand."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.model import JSON

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import TO_HIT, explained, fight

#: ST 12: the axe (sw) rolls 1d+2 cutting.
HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [
    {"name": "axe", "skill": 14, "damage": "sw", "damage_type": "cut"},
    {"name": "knife", "skill": 14, "damage": "thr", "damage_type": "cut"}]}
#: A big foe (60 HP, so no blow here kills it) with DR 4 on the skull (+2 natural: 6).
DRAGON = {"st": 20, "ht": 12, "hp": 60, "dr_locations": {"skull": 4}}
SKULL_ROLL = [1, 2, 3]  # 6: hits at skill 14 - 7 for the skull


def _knocked_out(engine: Engine, *switches: str, **state: JSON) -> Table:
    table = fight(engine, HERO, DRAGON, *switches)
    table.send("adjust", {"combatant": "foe", "changes": state or {"unconscious": True}, "reason": "knocked out"})
    return table


def _attack(table: Table, weapon: str = "axe", **args: Any) -> str:
    """The hero hits with ``weapon`` (a defend prompt, if the foe can defend, is declined): the text of
    the damage prompt."""
    table.maneuver("hero", "attack", [args.pop("to_hit", TO_HIT)], target="foe", weapon=weapon, **args)
    if any(p.kind == "defend" for p in table.state.prompts):
        table.defend("none")
    return table.prompt("roll").text


def _strike(table: Table, faces: list[int] | None, weapon: str = "axe", **args: Any) -> dict[str, Any]:
    """The hero hits with ``weapon`` and rolls ``faces`` for damage (None: a blow of maximum damage, no
    dice to roll); the (helpless) foe's turn passes so the hero acts again."""
    _attack(table, weapon, **args)
    if faces is None:
        table.send("roll", {"prompt": table.prompt("roll").id})
    else:
        table.roll(faces, "damage")
    payload = dict(table.last("damage_rolled").payload)
    if table.current == "foe" and not table.state.prompts:
        table.maneuver("foe", "do_nothing")
    return payload


@pytest.mark.parametrize("state", [{"unconscious": True}, {"collapsed": True}])
def test_v59_a_helpless_foe_takes_maximum_damage(engine: Engine, state: dict[str, JSON]) -> None:
    """V-59: the axe (1d+2) on an unconscious (or collapsed, G-51) foe: off, the face 1 gives 3 basic,
    x1.5 cut = 4; on, maximum damage 6 + 2 = 8, x1.5 = 12, with no die rolled (as G-36's)."""
    off = _strike(_knocked_out(engine, **state), [1])
    table = _knocked_out(engine, "finishing_blow", **state)
    on = _strike(table, None)
    assert (off["dice"], off["basic"], off["injury"]) == ([1], 3, 4) and "finishing_blow" not in off
    assert (on["dice"], on["basic"], on["injury"], on["finishing_blow"]) == ([6], 8, 12, {"rule": "V-59"})
    assert table.last("injury_applied").payload["hp_after"] == 48
    assert "axe damage maximum damage [6] +2 on a helpless foe (V-59) = 8 basic" in explained(table, "damage_rolled")


def test_v59_the_damage_prompt_says_no_dice_are_needed(engine: Engine) -> None:
    """V-59: the attacker is told the blow does maximum damage (as G-36's roll of 3, nothing to roll)."""
    text = _attack(_knocked_out(engine, "finishing_blow"))
    assert text == "Hero rolls 1d+2 cut damage against Foe: maximum damage on a helpless foe (V-59)"


def test_v59_the_damage_prompt_asks_for_no_dice(engine: Engine) -> None:
    """V-59: no die is rolled for a finishing blow, so its damage prompt asks for none (count 0) and the
    seat's answer rolls nothing: a manual-dice page then sends no faces (faces would be refused as
    unused). Off, the same prompt asks for the axe's 1d."""
    from combat_server.rules.gurps.ruleset import GurpsRuleset
    from combat_server.rules.model import GM_ACTOR

    def asked(table: Table) -> tuple[object, str]:
        _attack(table)
        prompt = table.prompt("roll")
        (choices,) = [c for c in GurpsRuleset().describe(table.state, GM_ACTOR).prompts if c.id == prompt.id]
        return prompt.options["count"], choices.answers[0].dice

    assert asked(_knocked_out(engine)) == (1, "1d6")
    assert asked(_knocked_out(engine, "finishing_blow")) == (0, "")


def test_v59_a_stunned_foe_is_not_helpless(engine: Engine) -> None:
    """V-59: a stunned foe still defends (G-48): no finishing blow; the face 1 gives 3 basic."""
    table = _knocked_out(engine, "finishing_blow", stunned=True, stun_kind="physical")
    dmg = _strike(table, [1])
    assert (dmg["basic"], "finishing_blow" in dmg) == (3, False)


def test_v59_twists_past_the_skull_ignore_dr(engine: Engine) -> None:
    """V-59: the first finishing blow at the skull does 8, less DR 6 = 2, x4 = 8 and opens the skull;
    the next one with the axe is a twist: no DR, 8 x 4 = 32. Off, both blows roll 6 + 2 = 8 and do 8."""
    off = _knocked_out(engine, "hit_locations")
    off_blows = [_strike(off, [6], location="skull", to_hit=SKULL_ROLL) for _ in range(2)]
    table = _knocked_out(engine, "hit_locations", "finishing_blow")
    first = _strike(table, None, location="skull", to_hit=SKULL_ROLL)
    assert table.cond("foe").skull_breached == {"hero": "axe"}
    second = _strike(table, None, location="skull", to_hit=SKULL_ROLL)
    assert [(b["dr"], b["injury"]) for b in off_blows] == [(6, 8), (6, 8)]
    assert (first["dr"], first["injury"], first["finishing_blow"]) == (6, 8, {"rule": "V-59", "skull_breached": True})
    assert (second["dr"], second["penetrating"], second["injury"]) == (0, 8, 32)
    assert second["finishing_blow"] == {"rule": "V-59", "twist": True, "skull_breached": True}
    assert "DR ignored: a twist past the skull (V-59) -> 8 penetrating" in explained(table, "damage_rolled")
    assert table.refold_matches()


def test_v59_another_weapon_does_not_twist(engine: Engine) -> None:
    """V-59: the twist is of the weapon already past the skull: the knife (thr 1d-1, max 5) after the axe
    meets the skull's DR 6 (nothing gets through)."""
    table = _knocked_out(engine, "hit_locations", "finishing_blow")
    _strike(table, None, location="skull", to_hit=SKULL_ROLL)
    knife = _strike(table, None, "knife", location="skull", to_hit=SKULL_ROLL)
    assert (knife["basic"], knife["dr"], knife["injury"]) == (5, 6, 0) and "twist" not in knife["finishing_blow"]


def test_v59_whether_the_skull_was_breached_is_hidden_with_a_hidden_victim(engine: Engine) -> None:
    """V-59: a breached skull tells that damage got past the victim's DR: redacted with its DR."""
    from combat_server.rules.gurps.events import EVENTS
    from combat_server.rules.kit.events import redact

    table = _knocked_out(engine, "hit_locations", "finishing_blow")
    payload = _strike(table, None, location="skull", to_hit=SKULL_ROLL)
    assert payload["finishing_blow"]["skull_breached"]
    assert "finishing_blow" not in redact(EVENTS["damage_rolled"], payload, frozenset({"foe"}))
