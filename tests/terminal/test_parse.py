"""The pure half of the terminal client: addresses, typed lines and the status block."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.tui import InputError, Local, Send, Target, parse_line, parse_target, summarize

STATE: dict[str, Any] = {
    "title": "t", "status": "active", "seq": 9,
    "combat": {"order": ["alice", "bob", "orc"], "round": 2, "current": "alice", "phase": "maneuver"},
    "combatants": {
        "alice": {"name": "Alice", "side": "pc", "condition": {"hp": 5, "fp": 10, "posture": "prone", "shock": 2}},
        "bob": {"name": "Bob", "side": "pc", "condition": {"hp": 12, "fp": 11, "stunned": True}},
        "orc": {"name": "Orc Raider", "side": "npc", "hidden": True, "condition": {"posture": "standing"}},
    },
    "derived": {"alice": {"hp_max": 12, "fp_max": 10, "reeling": True,
                          "weapons": [{"name": "broadsword"}, {"name": "punch"}]},
                "bob": {"hp_max": 12, "fp_max": 11}},
    "prompts": [{"id": "p8-1", "kind": "defend", "combatant": "bob", "text": "Alice hits Bob",
                 "options": {"allowed": True, "dodge": {"target": 8},
                             "parry": {"axe": {"target": 9}, "punch": {"target": 8}}}}],
}
ALICE = {"seat_id": "player-1", "role": "player", "label": "alice", "combatants": ["alice"]}
BOB = {"seat_id": "player-2", "role": "player", "label": "bob", "combatants": ["bob"]}
GM = {"seat_id": "gm", "role": "gm", "label": "GM", "combatants": []}


@pytest.mark.parametrize("url, token, fight, expected", [
    ("ws://h:1", "T", None, Target("ws://h:1/ws", "T")),
    ("ws://h:1/ws", "T", "F", Target("ws://h:1/ws", "T", "F")),
    ("http://h:1/#token=T", None, None, Target("ws://h:1/ws", "T")),
    ("https://h/?fight=F&token=T", None, None, Target("wss://h/ws", "T", "F")),
    ("http://h:1/?fight=F&token=T", "U", None, Target("ws://h:1/ws", "U", "F")),
])
def test_addresses_and_invite_links(url: str, token: str | None, fight: str | None, expected: Target) -> None:
    """A ws:// URL with a token, or either form of invite link, gives the websocket URL and token."""
    assert parse_target(url, token, fight) == expected


@pytest.mark.parametrize("url", ["ftp://h/", "h:1", "http://h:1/"])
def test_unusable_addresses_are_refused(url: str) -> None:
    """No scheme, a foreign scheme or no token at all is an input error, not a crash."""
    with pytest.raises(InputError):
        parse_target(url)


def test_attack_fills_target_and_weapon_by_prefix() -> None:
    """Bare words after a maneuver fill target then weapon; names and id prefixes both resolve."""
    assert parse_line("attack orc broad dice=3,4,5", STATE, ALICE) == Send(
        "maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": "broadsword"},
        ((3, 4, 5),))


def test_all_out_options_and_key_values() -> None:
    """AOA options are recognised anywhere; key=value values are JSON when they parse."""
    assert parse_line("aoa bob strong range=3", STATE, ALICE) == Send(
        "maneuver", {"combatant": "alice", "maneuver": "all_out_attack", "option": "strong", "target": "bob",
                     "range": 3})
    aod = parse_line("aod parry", STATE, ALICE)
    assert isinstance(aod, Send) and aod.args["option"] == "increased_parry"


def test_defend_picks_the_seats_own_prompt_and_first_parry() -> None:
    """Bob's seat answers Bob's prompt without naming it; parry defaults to the first listed weapon."""
    assert parse_line("parry", STATE, BOB) == Send("defend", {"prompt": "p8-1", "defense": "parry", "weapon": "axe"})
    with pytest.raises(InputError, match="no defend prompt is waiting for you"):
        parse_line("dodge", STATE, ALICE)


def test_gm_commands() -> None:
    """undo forms, rule, adjust with a free-text reason."""
    assert parse_line("undo", STATE, GM) == Send("undo", {"to": "last_command"})
    assert parse_line("undo turn", STATE, GM) == Send("undo", {"to": "turn_start"})
    assert parse_line("undo 4", STATE, GM) == Send("undo", {"to": "seq", "seq": 4})
    assert parse_line("rule 12 uphold fair", STATE, GM) == Send(
        "rule", {"dispute": "dispute:12", "verdict": "uphold", "comment": "fair"})
    assert parse_line("adjust orc hp=5 healing potion", STATE, GM) == Send(
        "adjust", {"combatant": "orc", "changes": {"hp": 5}, "reason": "healing potion"})


@pytest.mark.parametrize("line, message", [
    ("fly", "unknown command 'fly'"),
    ("attack zed", "no combatant 'zed'"),
    ("attack bob axe", "no weapon of alice 'axe'"),
    ("move far", "yards must be a whole number"),
    ("dispute x y", "dispute SEQ COMMENT"),
    ("roll dice=a", "write the faces as numbers"),
    ("attack bob broadsword extra", "too many words"),
])
def test_bad_lines_say_what_to_type(line: str, message: str) -> None:
    """Each unusable line is an InputError whose message names the problem."""
    with pytest.raises(InputError, match=message):
        parse_line(line, STATE, ALICE)


def test_local_commands_and_blank_lines() -> None:
    """help, quit, show and log stay in the client; a blank line does nothing."""
    assert parse_line("  ", STATE, ALICE) is None
    assert parse_line("log 5", STATE, ALICE) == Local("log", "5")
    assert parse_line("QUIT", STATE, ALICE) == Local("quit")


def test_status_block() -> None:
    """Rows in turn order with conditions; the prompt is Bob's own on Bob's seat, someone else's on Alice's."""
    status = summarize(STATE, BOB)
    assert [r.id for r in status.rows] == ["alice", "bob", "orc"]
    assert status.rows[0].conditions == ("shock -2", "reeling", "prone")
    assert status.rows[1].conditions == ("stunned",)
    assert status.rows[2].hp is None  # hidden from players
    assert status.turn == "Round 2: Alice's turn (maneuver)."
    assert status.prompts[0].mine and status.prompts[0].choices == ("dodge 8", "parry axe 9", "parry punch 8")
    assert not summarize(STATE, ALICE).prompts[0].mine
    assert summarize(STATE, ALICE).your_turn.startswith("Your turn: Alice")
    assert summarize(STATE, BOB).your_turn == ""
