"""S-37 item 1: a crippled limb or eye is unusable; the product's reading (docs/shell.md, "S-37: what
a crippled location stops"; A-78, R-14) played through the engine. Each refusal is `limb/crippled`,
names the crippled locations and appends nothing."""

from __future__ import annotations

from typing import Any

from combat_server.rules.shell.attacks import defences
from tests.shell.table import Table, refused, sheet, start

#: ST 10 (1d), club +0 cut, Club 1 (no style damage bonus): the damage is the die's face. AG 12: acts first.
ATTACKER = sheet(ag=12, styles=(("Club", 1),), weapon={"name": "club", "damage_types": ["cut"], "hp": 10}, npc=True)
#: HP 10: an arm or leg is crippled at 4 (40%), an eye at 1 (10%). A one-handed thrusting sword, a
#: two-handed great sword, a bow (both hands), a medium shield. AG 9: acts after the attacker.
VICTIM: dict[str, Any] = {
    "st": 10, "ag": 9, "iq": 10, "ht": 10,
    "styles": [{"name": "Sword", "level": 3}, {"name": "Bow", "level": 3, "kind": "ranged"}],
    "weapons": [{"name": "sword", "style": "Sword", "damage_types": ["cut", "imp"], "hp": 10, "thrusting": True},
                {"name": "great sword", "style": "Sword", "damage": 2, "damage_types": ["cut"], "hands": "two",
                 "hp": 12},
                {"name": "bow", "style": "Bow", "damage_types": ["imp"], "ranged": True, "range_st": 15, "speed": 2,
                 "hands": "two", "hp": 6}],
    "shield": {"size": "medium"},
}
#: The die face that does exactly the threshold: 4 to an arm or leg (40% of 10), 1 to an eye (10%).
FACE = {"arm": 4, "leg": 4, "eye": 1}


def _crippled(table: Table, *locations: str) -> None:
    """The attacker cripples each location with one blow, a round apart (each stuns the victim, who
    loses that round's turn, S-32); the HT+2 rolls keep it temporary. Then it is the victim's turn."""
    table.add("a", ATTACKER, side="npc")
    table.add("d", VICTIM)
    start(table, "a", "d")
    for loc in locations:
        table.act("a", "attack", target="d", location=loc)
        table.defend("none", (10, 10))
        table.roll([(FACE[loc.split()[-1]],)], "damage")
        table.roll([(4, 4, 4)], "cripple_ht")  # 12 <= HT 10 + 2: temporary
    table.act("a", "defend")
    assert table.cond("d").crippled == locations and table.current == "d"


def _arms_refused(table: Table, **args: Any) -> None:
    err = refused(table, "limb/crippled", lambda: table.act("d", "attack", target="a", **args))
    assert err.details["locations"] == ["left arm", "right arm"] and err.details["field"] == "weapon"


def test_S37_both_arms_crippled_cannot_attack_with_a_weapon(table: Table) -> None:
    _crippled(table, "left arm", "right arm")
    _arms_refused(table, weapon="sword")


def test_S37_both_arms_crippled_cannot_strike_with_a_bare_hand(table: Table) -> None:
    _crippled(table, "left arm", "right arm")
    _arms_refused(table, weapon="bare hand")


def test_S37_both_arms_crippled_cannot_block_but_may_dodge(table: Table) -> None:
    """No block or parry is offered, a block with the sword or the shield is refused, the dodge is taken."""
    _crippled(table, "left arm", "right arm")
    table.act("d", "defend")
    table.act("a", "attack", target="d")
    assert [d.defence for d in defences(table.state, table.state.combat.attack)] == ["dodge", "none"]
    for with_ in ("sword", "shield"):
        err = refused(table, "limb/crippled", lambda: table.defend("block", (5, 5), **{"with": with_}))
        assert err.details["locations"] == ["left arm", "right arm"]
    table.defend("dodge", (5, 5))


def test_S37_both_arms_crippled_cannot_stop_thrust(table: Table) -> None:
    """S-40: a step into close combat can only be let in; a stop thrust is refused."""
    _crippled(table, "left arm", "right arm")
    table.act("d", "defend")
    table.act("a", "enter_close", target="d")
    assert table.last("close_entry").payload["entered"]  # nothing to answer with: let in at once


def test_S37_one_crippled_arm_cannot_wield_a_two_handed_weapon(table: Table) -> None:
    """S-48: the great sword and the bow need both arms; the one-handed sword still strikes."""
    _crippled(table, "left arm")
    for weapon, extra in (("great sword", {}), ("bow", {"range": 5})):
        err = refused(table, "limb/crippled", lambda: table.act("d", "attack", target="a", weapon=weapon, **extra))
        assert err.details["locations"] == ["left arm"]
    table.act("d", "attack", target="a", weapon="sword")
    assert table.prompt("defence").combatant == "a"


def test_S37_one_crippled_arm_keeps_the_shield_and_a_one_handed_block(table: Table) -> None:
    """The sheet does not say which arm holds the shield: a one-armed defender may block with it or
    with the sword, but not with the two-handed great sword."""
    _crippled(table, "left arm")
    table.act("d", "defend")
    table.act("a", "attack", target="d")
    blocks = [d.with_ for d in defences(table.state, table.state.combat.attack) if d.defence == "block"]
    assert blocks == ["sword", "bare hand", "shield"]


def test_S37_a_crippled_hand_puts_its_arm_out_of_use(table: Table) -> None:
    """R-14: the hand belongs to its arm: a crippled hand (20% = 2) leaves one arm, no two-handed weapon."""
    table.add("a", ATTACKER, side="npc")
    table.add("d", VICTIM)
    start(table, "a", "d")
    table.act("a", "attack", target="d", location="right hand")
    table.defend("none", (10, 10))
    table.roll([(2,)], "damage")
    table.roll([(4, 4, 4)], "cripple_ht")
    table.act("a", "defend")
    err = refused(table, "limb/crippled", lambda: table.act("d", "attack", target="a", weapon="great sword"))
    assert err.details["locations"] == ["right hand"]


def test_S37_both_legs_crippled_cannot_move(table: Table) -> None:
    """No move, no step with a maneuver, no step into close combat; standing fast is allowed."""
    _crippled(table, "left leg", "right leg")
    err = refused(table, "limb/crippled", lambda: table.act("d", "move", moved=3))
    assert (err.details["locations"], err.details["field"], err.details["most"]) == (["left leg", "right leg"],
                                                                                    "moved", 0)
    refused(table, "limb/crippled", lambda: table.act("d", "defend", moved=1))
    refused(table, "limb/crippled", lambda: table.act("d", "enter_close", target="a"))
    table.act("d", "defend")


def test_S37_one_crippled_leg_allows_at_most_a_step(table: Table) -> None:
    """MV (10 + 9) / 4 = 4 points, but with one leg out of use a move of 2 is refused; a step is taken."""
    _crippled(table, "left leg")
    err = refused(table, "limb/crippled", lambda: table.act("d", "move", moved=2))
    assert (err.details["locations"], err.details["most"]) == (["left leg"], 1)
    table.act("d", "move", moved=1)
    assert table.cond("d").moved == 1


def test_S37_both_eyes_blinded_cannot_shoot(table: Table) -> None:
    """S-30: no ranged attack at a defender one cannot see; nor aiming at it."""
    _crippled(table, "left eye", "right eye")
    err = refused(table, "limb/crippled", lambda: table.act("d", "attack", target="a", weapon="bow", range=5))
    assert (err.details["locations"], err.details["field"]) == (["left eye", "right eye"], "weapon")
    refused(table, "limb/crippled", lambda: table.act("d", "aim", target="a", weapon="bow"))


def test_S37_one_blinded_eye_can_still_shoot(table: Table) -> None:
    _crippled(table, "left eye")
    table.act("d", "attack", target="a", weapon="bow", range=5)
    assert table.prompt("defence").combatant == "a"


def _offered(table: Table) -> dict[str, Any]:
    from combat_server.rules.describe import to_json
    from combat_server.rules.model import GM_ACTOR
    from combat_server.rules.shell.ruleset import ShellRuleset

    return {a["id"]: a for a in to_json(ShellRuleset().describe(table.state, GM_ACTOR))["actions"]}


def test_S37_both_arms_crippled_are_offered_no_attack_guard_or_disarm(table: Table) -> None:
    _crippled(table, "left arm", "right arm")
    assert list(_offered(table)) == ["defend", "enter_close", "move"]


def test_S37_both_legs_crippled_are_offered_no_step_and_no_movement(table: Table) -> None:
    _crippled(table, "left leg", "right leg")
    offered = _offered(table)
    assert "enter_close" not in offered
    assert [f["maximum"] for f in offered["move"]["fields"] if f["name"] == "moved"] == [0]


def test_S37_a_blind_fighter_strikes_at_minus_4_unasked(table: Table) -> None:
    """S-29: both eyes blinded, a melee attack is made as by one who cannot see the defender: AT -4."""
    _crippled(table, "left eye", "right eye")
    result = table.act("d", "attack", target="a", weapon="sword")
    at = [e for e in result.events if e.type == "attack_declared"][0].payload["attack"]["at"]
    assert [m["value"] for m in at if m["reason"] == "cannot see the defender"] == [-4]


def test_S37_a_blind_defender_defends_at_minus_4_unasked(table: Table) -> None:
    """S-31: both eyes blinded, every defence is made as by one who cannot see the attacker: DEF -4."""
    _crippled(table, "left eye", "right eye")
    table.act("d", "defend")
    table.act("a", "attack", target="d")
    for d in defences(table.state, table.state.combat.attack):
        assert d.defence == "none" or [m.value for m in d.mods if m.reason == "cannot see the attacker"] == [-4]


def test_S37_both_arms_crippled_cannot_guard(table: Table) -> None:
    """S-20: a Guard waits to strike back; with no arm in use there is nothing to strike with."""
    _crippled(table, "left arm", "right arm")
    err = refused(table, "limb/crippled", lambda: table.act("d", "guard", weapon="sword"))
    assert err.details["locations"] == ["left arm", "right arm"]
