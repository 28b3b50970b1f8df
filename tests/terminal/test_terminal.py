"""The terminal client driven through a real pseudo-terminal against a real server.

Dice are manual (the players type the faces), so every number is hand-checked:
Alice (broadsword 13, 1d+3 cut at ST 12) rolls 3+4+5 = 12 and hits; Bob's Dodge
of 8 fails on 6+6+5 = 17; damage 4+3 = 7 cut x1.5 = 10 injury, Bob 12 -> 2 HP;
more than HP/2, so Bob rolls HT 11 against a major wound: 3+3+3 = 9 holds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pexpect

from .conftest import Table, Terminal, make_table, start_server, stop_server


def _join(terminal: Terminal, table: Table, seat: str, how: str = "token") -> pexpect.spawn:
    """Start a client for ``seat`` and wait for its REPL prompt."""
    if how == "token":
        child = terminal(table.server.ws_url, f"--token={table.tokens[seat]}", "--fight", table.fight_id)
    elif how == "query":
        base = table.server.http_url
        child = terminal(f"{base}/?fight={table.fight_id}&token={table.tokens[seat]}")
    else:
        child = terminal(table.links[seat])
    child.expect_exact(f"Connected to fight {table.fight_id}")
    child.expect_exact("GM> " if seat == "gm" else f"{seat}> ")
    return child


def _attack_and_wound_bob(alice: pexpect.spawn, bob: pexpect.spawn) -> None:
    alice.sendline("attack bob broadsword dice=3,4,5")
    alice.expect_exact("Alice attacks Bob with broadsword: 3d [3, 4, 5] = 12 vs 13")
    bob.expect_exact("YOUR PROMPT")
    bob.expect_exact("answer: defend dodge")
    bob.sendline("defend dodge dice=6,6,5")
    bob.expect(r"Bob tries to dodge.*17 vs 8.*\(G-\d+\)")
    alice.expect_exact("answer: roll")
    alice.sendline("roll dice=4")
    alice.expect(r"Bob loses 10 HP from broadsword \(cut\)")
    bob.expect(r"bob\s+Bob\s+PC\s+2/12")


def test_player_sees_roster_turn_and_how_to_act(terminal: Terminal, table: Table) -> None:
    """On joining, a player sees the log, the roster with HP/FP, whose turn it is and what to type."""
    alice = _join(terminal, table, "alice")
    alice.sendline("show")
    alice.expect(r"▶\s+alice\s+Alice\s+PC\s+12/12 █+\s+11/11 █+")
    alice.expect(r"orc\s+Orc\s+NPC\s+\?")  # hidden NPC: no HP for players
    alice.expect_exact("Round 1: Alice's turn (maneuver).")
    alice.expect_exact("Your turn: Alice chooses: attack, all_out_attack")  # the description's actions (#9)
    alice.expect_exact("Weapon: broadsword")


def test_attack_defence_and_damage_with_explanations(terminal: Terminal, table: Table) -> None:
    """Alice attacks, Bob's own seat defends, Alice rolls damage; both logs cite rule ids, both rosters show it."""
    alice = _join(terminal, table, "alice", how="link")
    bob = _join(terminal, table, "bob", how="query")
    alice.sendline("attack bob")  # manual dice: the client says how to give them
    alice.expect_exact("error: roll/faces_needed: manual dice: enter 3d6 for attack with broadsword (type the line "
                       "again with dice=N,N,N")
    _attack_and_wound_bob(alice, bob)
    alice.expect(r"bob\s+Bob\s+PC\s+2/12")
    bob.expect_exact("(Roll 3d6 for major wound)")
    bob.sendline("roll dice=3,3,3")
    bob.expect(r"Bob rolls .*major wound.*9 vs 11.*\(G-46\)")
    alice.expect_exact("Round 1: Bob's turn (maneuver).")
    bob.sendline("log 30")
    bob.expect(r"#\d+\s+player-\d+\s+Alice attacks Bob with broadsword: 3d \[3, 4, 5\] = 12 vs 13 .*\(G-36\)")


def test_gm_undoes_the_turn_and_every_client_sees_it(terminal: Terminal, table: Table) -> None:
    """The GM's undo back to the turn start puts Bob back to full HP for the GM and the players."""
    alice = _join(terminal, table, "alice")
    bob = _join(terminal, table, "bob")
    gm = _join(terminal, table, "gm")
    _attack_and_wound_bob(alice, bob)
    gm.expect(r"bob\s+Bob\s+PC\s+2/12")
    alice.sendline("undo")
    alice.expect_exact("error: auth/gm_only: only the GM may undo")
    gm.sendline("undo turn")
    gm.expect(r"GM undid event\(s\) \d+\.\.\d+")
    gm.expect(r"bob\s+Bob\s+PC\s+12/12")
    bob.expect(r"bob\s+Bob\s+PC\s+12/12")
    alice.expect_exact("Round 1: Alice's turn (maneuver).")
    gm.sendline("log 8")
    gm.expect(r"Alice attacks Bob with broadsword.*\[undone\]")


def test_bad_input_gets_a_clear_error_and_the_session_goes_on(terminal: Terminal, table: Table) -> None:
    """Unknown words, unknown targets, refused commands: one error line each, then the next command works."""
    bob = _join(terminal, table, "bob")
    bob.sendline("fly to the moon")
    bob.expect_exact("error: input: unknown command 'fly'; type help")
    bob.sendline("attack alice")  # not Bob's turn: his description offers no action
    bob.expect_exact("error: input: unknown command 'attack'; type help")
    bob.sendline("do maneuver combatant=bob maneuver=attack target=alice")
    bob.expect_exact("error: command/not_your_turn")
    bob.sendline("defend dodge")
    bob.expect_exact("error: input: no defend prompt is waiting for you")
    bob.sendline('attack "alice')
    bob.expect_exact("error: input: cannot read that line (No closing quotation)")
    bob.sendline("dispute x")
    bob.expect_exact("error: input: dispute SEQ COMMENT")
    bob.sendline("help")
    bob.expect_exact("dispute SEQ COMMENT")
    bob.expect_exact("spend_fatigue")  # the ruleset's commands, from the specs
    bob.sendline("note still here")
    bob.expect_exact("Note by bob: still here")  # the seat's label, not its id
    bob.sendline("quit")
    bob.expect_exact("bye")
    bob.expect(pexpect.EOF)
    bob.close()
    assert bob.exitstatus == 0


def test_dispute_and_ruling(terminal: Terminal, table: Table) -> None:
    """A player disputes an event; the GM sees the prompt and rules on it."""
    bob = _join(terminal, table, "bob")
    gm = _join(terminal, table, "gm")
    bob.sendline("dispute 6 the order looks wrong")
    found = gm.expect(r"YOUR PROMPT \[dispute:(\d+)\] bob disputes event 6: the order looks wrong")
    assert found == 0
    dispute = gm.match.group(1)
    gm.sendline(f"rule {dispute} uphold order by the GM")
    gm.expect("GM ruled on the dispute of event 6: upheld the original ruling. order by the GM")
    bob.expect("GM ruled on the dispute of event 6: upheld")


def test_a_bad_token_or_address_exits_with_an_error(terminal: Terminal, table: Table) -> None:
    """A token no seat has, or an address that is not a server, ends with an error code and exit 2."""
    child = terminal(table.server.ws_url, "--token", "not-a-token")
    child.expect_exact("error: auth/bad_token")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    child = terminal("ftp://nowhere")
    child.expect_exact("error: cli/usage: not a server address")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2


def test_the_client_rides_out_a_server_restart(terminal: Terminal, tmp_path: Path) -> None:
    """The server stops and starts again on the same port: the client says so, catches up and plays on."""
    proc, server = start_server(tmp_path / "restart.sqlite")
    try:
        table = asyncio.run(make_table(server))
        alice = _join(terminal, table, "alice")
        stop_server(proc)
        alice.expect_exact("connection lost; reconnecting...")
        proc, _again = start_server(tmp_path / "restart.sqlite", port=int(server.http_url.rsplit(":", 1)[1]))
        alice.expect(r"reconnected; caught up to seq \d+")
        alice.sendline("attack bob dice=3,4,5")
        alice.expect_exact("Alice attacks Bob with broadsword: 3d [3, 4, 5] = 12 vs 13")
    finally:
        stop_server(proc)


def test_verbs_help_and_completion_come_from_the_description(terminal: Terminal, table: Table) -> None:
    """#9: the ruleset's actions are the verbs (with the short forms it declares), help and a trailing ?
    are written from the seat's description, and a prompt's ready-made answers are typed by their words."""
    alice = _join(terminal, table, "alice")
    bob = _join(terminal, table, "bob")
    alice.sendline("attack nobody")
    alice.expect_exact("error: input: no target 'nobody'; known: orc (Orc (NPC)), bob (Bob (PC))")
    alice.sendline("help aoa")
    alice.expect_exact("all_out_attack OPTION TARGET WEAPON")
    alice.expect_exact("also: aoa")
    alice.sendline("attack ?")
    alice.expect_exact("next: orc | bob")
    alice.sendline("aoa bob determined dice=3,4,5")  # 12 vs 13 + 4 (G-22): a hit
    bob.expect_exact("YOUR PROMPT")
    bob.expect_exact("Parry 9 (broadsword)")
    bob.sendline("parry ?")
    bob.expect_exact("next: broadsword")  # no punch: sword and shield fill both hands (G-41)
    bob.sendline("parry dice=6,6,5")
    bob.expect(r"Bob tries to parry.*17 vs 9")


async def _explanations(table: Table) -> dict[str, str]:
    """The server's replay, as the GM gets it: each event type's last explanation."""
    from combat_server.client import CombatClient

    gm = await CombatClient.connect(table.server.ws_url)
    try:
        await gm.subscribe(table.tokens["gm"])
        return {item["event"]["type"]: item["explanation"] for item in await gm.replay()}
    finally:
        await gm.close()


def test_the_terminal_log_reads_word_for_word_as_the_replay(terminal: Terminal, table: Table) -> None:
    """#13, one wording everywhere: the terminal's log prints the replay's own sentences (one name per
    maneuver and defence, rule ids), and nothing it prints is a Python repr."""
    alice = _join(terminal, table, "alice")
    bob = _join(terminal, table, "bob")
    _attack_and_wound_bob(alice, bob)
    bob.expect_exact("(Roll 3d6 for major wound)")
    said = asyncio.run(_explanations(table))
    bob.expect_exact("bob> ")  # what was pushed live is read; the log and the roster come next
    bob.sendline("log 40")
    bob.sendline("show")
    bob.expect_exact("(Roll 3d6 for major wound)")  # the roster's prompt line, after the log
    printed = " ".join(str(bob.before).split())  # the terminal wraps long lines
    for kind in ("maneuver_chosen", "attack_rolled", "defense_rolled", "injury_applied"):
        assert " ".join(said[kind].split()) in printed, kind
    for repr_mark in ("('", "['", "{'", "None", "True", "False"):
        assert repr_mark not in printed, repr_mark
