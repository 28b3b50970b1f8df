"""The pure half of the terminal client: addresses, typed lines, help, completion and the status block.

The lines are read against what a real server would send the seat: the state view
and the description (``Ruleset.describe``) of a GURPS fight run by a real engine on
a SQLite file, and the command specs. The client knows no GURPS word (#9): every
verb, field and answer below comes from that data.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Iterator

import attrs
import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.core import command_specs
from combat_server.rules.describe import to_json
from combat_server.rules.model import GM_ACTOR, Command, Principal
from combat_server.rules.ruleset import get_ruleset
from combat_server.server.views import full_state, state_view, view_key
from combat_server.store.sql import open_store
from combat_server.tui import (
    InputError, Local, Send, Target, completions, help_text, parse_line, parse_target, summarize,
)

SWORD = {"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}
AXE = {"name": "axe", "skill": 12, "damage": "sw+2", "damage_type": "cut"}
BOW = {"name": "bow", "kind": "ranged", "skill": 12, "damage": "1d+1", "damage_type": "imp", "acc": 2,
       "max_range": 150, "parry": None}
ALICE = {"seat_id": "player-1", "role": "player", "label": "alice", "combatants": ["alice"]}
BOB = {"seat_id": "player-2", "role": "player", "label": "bob", "combatants": ["bob"]}
GM = {"seat_id": "gm", "role": "gm", "label": "GM", "combatants": []}
COMMANDS = [spec.to_json() for spec in command_specs(get_ruleset("gurps"))]


@attrs.frozen
class Seen:
    """What the server sends one seat: its state view and its description."""

    state: dict[str, Any]
    description: dict[str, Any]


class Table:
    """A GURPS fight on a real engine: Alice (broadsword, bow), Bob (broadsword, axe), a hidden orc."""

    def __init__(self, engine: Engine, start: bool = True) -> None:
        self.engine = engine
        self.fid = engine.create_fight("gurps", dice_mode="manual", title="t").fight_id
        self._ids = itertools.count(1)
        for cid, name, side, sheet, hidden in (
                ("alice", "Alice", "pc", {"shield_skill": 12, "weapons": [SWORD, BOW]}, False),
                ("bob", "Bob", "pc", {"weapons": [SWORD, AXE]}, False),
                ("orc", "Orc Raider", "npc", {"weapons": [AXE]}, True)):
            self.run("add_combatant", {"id": cid, "name": name, "side": side, "sheet": sheet, "hidden": hidden})
        if start:
            self.run("start_combat", {"order": ["alice", "bob", "orc"]})

    def run(self, kind: str, args: dict[str, Any], faces: list[list[int]] | None = None) -> None:
        self.engine.execute(self.fid, Command(kind, args, GM_ACTOR, f"cmd-{next(self._ids)}"), faces=faces)

    def seen(self, seat: dict[str, Any]) -> Seen:
        ruleset = get_ruleset("gurps")
        state = self.engine.load(self.fid)
        view = state_view(full_state(ruleset, state), state, view_key(seat["role"], seat["combatants"], state))
        viewer = Principal.of_seat(seat["seat_id"], seat["role"], tuple(seat["combatants"]))
        return Seen(view, to_json(ruleset.describe(state, viewer)))


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path: Path = tmp_path_factory.mktemp("tui") / "tui.sqlite"
    store = open_store(f"sqlite:///{path}", migrate=True)
    yield Engine(store)
    store.dispose()


@pytest.fixture
def alices_turn(engine: Engine) -> Table:
    return Table(engine)


@pytest.fixture
def bob_defends(engine: Engine) -> Table:
    """Alice hit Bob (3+4+5 = 12 vs 13): Bob's defence prompt is open."""
    table = Table(engine)
    table.run("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "bob", "weapon": "broadsword"},
              [[3, 4, 5]])
    return table


def parse(table: Table, seat: dict[str, Any], line: str) -> Send | Local | None:
    seen = table.seen(seat)
    return parse_line(line, seen.state, seat, seen.description, COMMANDS)


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


def test_an_action_of_the_description_is_a_verb_whose_words_fill_its_fields(alices_turn: Table) -> None:
    """#9: the verb is the action's id; bare words fill target then weapon, by id, name or prefix."""
    assert parse(alices_turn, ALICE, "attack orc broad dice=3,4,5") == Send(
        "maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": "broadsword"},
        ((3, 4, 5),))
    assert parse(alices_turn, ALICE, "attack Orc") == Send(
        "maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": "broadsword"})


def test_the_rulesets_aliases_and_an_option_anywhere_on_the_line(alices_turn: Table) -> None:
    """Short forms come from the description (Action.aliases, Choice.aliases), as the ruleset
    declares them; a word that is exactly one of an open field's choices fills that field (G-22, G-24)."""
    assert parse(alices_turn, ALICE, "aoa bob strong range=3") == Send(
        "maneuver", {"combatant": "alice", "maneuver": "all_out_attack", "option": "strong", "target": "bob",
                     "weapon": "broadsword", "range": 3})
    aod = parse(alices_turn, ALICE, "aod parry")
    assert isinstance(aod, Send) and aod.args["option"] == "increased_parry"
    mna = parse(alices_turn, ALICE, "mna bob")
    assert isinstance(mna, Send) and mna.args["maneuver"] == "move_and_attack"


def test_a_choice_only_for_some_values_of_another_field_is_refused_otherwise(alices_turn: Table) -> None:
    """Choice.when: the bow is open for All-Out Attack Determined only (G-23); with Feint the client names the
    closed choice and the open ones instead of sending what the rules would refuse."""
    assert parse(alices_turn, ALICE, "aoa bob bow range=3") == Send(
        "maneuver", {"combatant": "alice", "maneuver": "all_out_attack", "option": "determined", "target": "bob",
                     "weapon": "bow", "range": 3})
    with pytest.raises(InputError, match="weapon bow is not open with option=feint; open: broadsword$"):
        parse(alices_turn, ALICE, "aoa bob feint bow")


def test_a_field_only_for_some_values_is_filled_only_then(alices_turn: Table) -> None:
    """The range field applies only with the bow (Field.when): a number after the bow is the range;
    after the broadsword no field takes it (the next open one is the posture step of G-26)."""
    assert parse(alices_turn, ALICE, "attack orc bow 20") == Send(
        "maneuver", {"combatant": "alice", "maneuver": "attack", "target": "orc", "weapon": "bow", "range": 20})
    with pytest.raises(InputError, match="no posture '20'"):
        parse(alices_turn, ALICE, "attack orc broadsword 20")


def test_a_verb_not_open_to_the_seat_is_refused_locally(alices_turn: Table) -> None:
    """Bob's seat has no action on Alice's turn; the message says to type help."""
    with pytest.raises(InputError, match="unknown command 'attack'; type help"):
        parse(alices_turn, BOB, "attack alice")


def test_the_defender_answers_with_a_ready_made_answer(bob_defends: Table) -> None:
    """Bob's seat answers Bob's prompt without naming it: a word of an answer is a verb (dodge,
    parry); parry takes the first listed weapon unless one is named (prefix allowed)."""
    prompt = bob_defends.seen(BOB).description["prompts"][0]["id"]
    assert parse(bob_defends, BOB, "parry") == Send(
        "defend", {"prompt": prompt, "defense": "parry", "weapon": "broadsword"})
    assert parse(bob_defends, BOB, "defend parry ax dice=6,6,5") == Send(
        "defend", {"prompt": prompt, "defense": "parry", "weapon": "axe"}, ((6, 6, 5),))
    assert parse(bob_defends, BOB, "defend dodge") == Send("defend", {"prompt": prompt, "defense": "dodge"})
    assert parse(bob_defends, BOB, "defend none") == Send("defend", {"prompt": prompt, "defense": "none"})
    with pytest.raises(InputError, match="defend how\\? defend dodge \\| defend parry broadsword"):
        parse(bob_defends, BOB, "defend")
    with pytest.raises(InputError, match="no answer 'fly'"):
        parse(bob_defends, BOB, "defend fly")


def test_a_prompt_that_is_not_open_for_the_seat_is_named(bob_defends: Table, alices_turn: Table) -> None:
    """The command specs say that defend and roll answer prompts, and what defend's words are."""
    with pytest.raises(InputError, match="no defend prompt is waiting for you"):
        parse(bob_defends, ALICE, "dodge")
    with pytest.raises(InputError, match="no roll prompt is waiting for you"):
        parse(alices_turn, ALICE, "roll")


def test_gm_commands(alices_turn: Table) -> None:
    """undo forms, rule, adjust with a free-text reason."""
    assert parse(alices_turn, GM, "undo") == Send("undo", {"to": "last_command"})
    assert parse(alices_turn, GM, "undo turn") == Send("undo", {"to": "turn_start"})
    assert parse(alices_turn, GM, "undo 4") == Send("undo", {"to": "seq", "seq": 4})
    assert parse(alices_turn, GM, "rule 12 uphold fair") == Send(
        "rule", {"dispute": "dispute:12", "verdict": "uphold", "comment": "fair"})
    assert parse(alices_turn, GM, "adjust orc hp=5 healing potion") == Send(
        "adjust", {"combatant": "orc", "changes": {"hp": 5}, "reason": "healing potion"})
    assert parse(alices_turn, GM, "do fright_check combatant=orc modifier=-2") == Send(
        "fright_check", {"combatant": "orc", "modifier": -2})


def test_the_gm_sets_a_sheets_gulliver_block_with_do(alices_turn: Table) -> None:
    """The terminal client edits sheets as JSON through ``do update_combatant``: the GULLIVER
    size-and-scale block (A-27, issue #11) goes in as a nested object, the fraction as text."""
    line = "do update_combatant id=orc sheet='{\"st\": 13, \"gulliver\": {\"linear_scale\": \"1/36\", " \
           "\"non_pc_race\": true}}'"
    assert parse(alices_turn, GM, line) == Send(
        "update_combatant", {"id": "orc", "sheet": {"st": 13, "gulliver": {"linear_scale": "1/36", "non_pc_race": True}}})


def test_the_gm_acts_for_whoever_the_description_offers(alices_turn: Table) -> None:
    """The GM gets the actions of the current combatant; as= naming someone else is refused locally."""
    sent = parse(alices_turn, GM, "attack bob")
    assert isinstance(sent, Send) and sent.args["combatant"] == "alice"
    with pytest.raises(InputError, match="attack is open to Alice now, not to Bob"):
        parse(alices_turn, GM, "attack orc as=bob")


@pytest.mark.parametrize("line, message", [
    ("fly", "unknown command 'fly'; type help \\(open to you now: aim, all_out_attack"),
    ("attack zed", "no target 'zed'; known: orc \\(Orc Raider \\(NPC\\)\\), bob \\(Bob \\(PC\\)\\)"),
    ("attack bob club", "no weapon 'club'"),
    ("move far", "yards must be a whole number, not 'far'"),
    ("move 99", "yards must be from 0 to 5, not 99"),
    ("dispute x y", "dispute SEQ COMMENT"),
    ("attack bob dice=a", "write the faces as numbers"),
    ("attack bob broadsword extra", "no posture 'extra'"),
    ("attack bob broadsword kneeling extra", "too many words"),
    ("concentrate", "concentrate: task is missing"),
])
def test_bad_lines_say_what_to_type(alices_turn: Table, line: str, message: str) -> None:
    """Each unusable line is an InputError whose message names the problem."""
    with pytest.raises(InputError, match=message):
        parse(alices_turn, ALICE, line)


def test_local_commands_and_blank_lines(alices_turn: Table) -> None:
    """help, quit, show, log and a trailing ? stay in the client; a blank line does nothing."""
    assert parse(alices_turn, ALICE, "  ") is None
    assert parse(alices_turn, ALICE, "log 5") == Local("log", "5")
    assert parse(alices_turn, ALICE, "QUIT") == Local("quit")
    assert parse(alices_turn, ALICE, "help aoa") == Local("help", "aoa")
    assert parse(alices_turn, ALICE, "attack orc ?") == Local("complete", "attack orc")


def test_help_lists_the_open_actions_and_one_actions_fields(alices_turn: Table, bob_defends: Table) -> None:
    """#9: help is written from the description (actions, their fields, aliases, prompts' answers)
    and the command specs, never from a table in the client."""
    seen = alices_turn.seen(ALICE)
    text = help_text(seen.description, COMMANDS)
    assert "  attack TARGET WEAPON [range=N] [posture=...]    One attack with a ready weapon" in text
    assert "all_out_attack OPTION TARGET WEAPON" in text and "(aoa)" in text
    assert "fright_check" in text  # a ruleset command without a verb: do TYPE key=value
    one = help_text(seen.description, COMMANDS, "aod")
    assert "increased_parry (parry)" in one and "(G-24)" in one
    answers = help_text(bob_defends.seen(BOB).description, COMMANDS)
    assert "defend parry axe" in answers and "Parry 9 (axe)" in answers
    with pytest.raises(InputError, match="help fly: not an action open to you now"):
        help_text(seen.description, COMMANDS, "fly")


def test_completion_offers_the_next_fields_choices(alices_turn: Table, bob_defends: Table) -> None:
    """A trailing ? lists what may come next: verbs, then each field's choices in turn, or the answers."""
    seen = alices_turn.seen(ALICE)

    def complete(line: str, s: Seen = seen, seat: dict[str, Any] = ALICE) -> list[str]:
        return completions(line, s.state, seat, s.description, COMMANDS)

    assert "attack" in complete("") and "aoa" in complete("") and "note" in complete("")
    assert complete("all") == ["all_out_attack", "all_out_defense"]
    assert complete("attack ") == ["orc", "bob"]  # foes first, as the description lists them
    assert complete("attack orc ") == ["broadsword", "bow"]  # no punch: sword and shield fill the hands (G-41)
    assert complete("attack orc bow ") == ["range=<a whole number from 0 to 100000>"]
    assert complete("attack orc broadsword ") == ["kneeling"]  # the step of G-26; leaving it out stays standing
    bob = bob_defends.seen(BOB)
    assert complete("parry ", bob, BOB) == ["broadsword", "axe"]


def test_status_block_comes_from_the_description(bob_defends: Table) -> None:
    """Rows in turn order with the description's bars and badges; the hidden orc has no bars for
    players; the prompt is Bob's own on Bob's seat with its answers, someone else's on Alice's."""
    bob = bob_defends.seen(BOB)
    status = summarize(bob.state, BOB, bob.description)
    assert [r.id for r in status.rows] == ["alice", "bob", "orc"]
    assert status.columns == ("HP", "FP")
    assert [(m.label, m.value, m.max) for m in status.rows[1].bars] == [("HP", 10, 10), ("FP", 10, 10)]
    assert status.rows[0].conditions == ("Attack",)
    assert [m.value for m in status.rows[2].bars] == [None, None]  # hidden from players
    assert status.turn == "Round 1: Alice's turn (resolving)."
    prompt = status.prompts[0]
    assert prompt.mine and prompt.choices[:2] == ("Dodge 8", "Parry 9 (broadsword)")
    assert prompt.hint.startswith("defend dodge | defend parry broadsword | defend parry axe")
    alice = bob_defends.seen(ALICE)
    assert not summarize(alice.state, ALICE, alice.description).prompts[0].mine


def test_the_roster_before_combat_is_in_id_order_whatever_the_views_key_order(engine: Engine) -> None:
    """A view restored from a snapshot has its combatants in id order, a live one in joining order: the
    status block lists them the same either way (the turn order once combat runs, the others by id)."""
    table = Table(engine, start=False)
    seen = table.seen(GM)
    joined_backwards = {**seen.state, "combatants": dict(reversed(list(seen.state["combatants"].items())))}
    assert list(joined_backwards["combatants"]) == ["orc", "bob", "alice"]
    for state in (seen.state, joined_backwards):
        assert [r.id for r in summarize(state, GM, seen.description).rows] == ["alice", "bob", "orc"]


def test_your_turn_lists_the_actions_and_their_choices(alices_turn: Table) -> None:
    """The seat whose combatant acts sees its actions and the first action's choices; others see none."""
    seen = alices_turn.seen(ALICE)
    line = summarize(seen.state, ALICE, seen.description).your_turn
    assert line.startswith("Your turn: Alice chooses: attack, all_out_attack, move_and_attack")
    assert "Target: orc, bob." in line and "Weapon: broadsword, bow." in line
    assert "Step: stay standing, kneeling." in line  # G-26: kneel as the attack's step
    bob = alices_turn.seen(BOB)
    assert summarize(bob.state, BOB, bob.description).your_turn == ""



def test_the_gm_starts_combat_with_the_rulesets_short_form(engine: Engine) -> None:
    """In setup the GM's description offers start_combat, with the alias start; key=value adds its args."""
    table = Table(engine, start=False)
    assert parse(table, GM, "start order='[\"bob\", \"alice\", \"orc\"]'") == Send(
        "start_combat", {"order": ["bob", "alice", "orc"]})
    with pytest.raises(InputError, match="unknown command 'start'"):
        parse(table, ALICE, "start")


def test_a_wait_prompt_is_answered_with_its_ready_made_answers(engine: Engine) -> None:
    """G-34 (#14 item 6): Bob waits; Alice starts an Attack; Bob's seat answers the wait prompt from
    its answers: "answer_wait false" lets it pass, a weapon's word triggers with it."""
    table = Table(engine, start=False)
    table.run("start_combat", {"order": ["bob", "alice", "orc"]})
    table.run("maneuver", {"combatant": "bob", "maneuver": "wait", "trigger": "Alice swings", "action": "attack"})
    table.run("maneuver", {"combatant": "alice", "maneuver": "attack", "target": "bob", "weapon": "broadsword"})
    prompt_id = engine.load(table.fid).prompts[0].id
    assert parse(table, BOB, "answer_wait false") == Send("answer_wait", {"prompt": prompt_id, "trigger": False})
    assert parse(table, BOB, "answer_wait true axe") == Send(
        "answer_wait", {"prompt": prompt_id, "trigger": True, "weapon": "axe"})


def test_a_players_help_offers_no_gm_verbs_or_commands(alices_turn: Table) -> None:
    """A player's help lists what is open to it: not the GM's undo/adjust block nor GM-only commands
    (add_combatant, apply_tool), each of which would only be refused with auth/gm_only."""
    text = help_text(alices_turn.seen(ALICE).description, COMMANDS, role="player")
    assert "GM:" not in text and "undo [turn|SEQ]" not in text
    assert "add_combatant" not in text and "apply_tool" not in text
    assert "  maneuver " in text and "note TEXT" in text


def test_the_gms_help_gives_redo_and_rule_a_line_each(alices_turn: Table) -> None:
    """Every GM verb is on a line of its own with what it does (redo's line used to hold rule's usage)."""
    text = help_text(alices_turn.seen(ALICE).description, COMMANDS, role="gm")
    assert "  redo                            do again what the last undo took back" in text
    assert "  rule DISPUTE uphold|override [COMBATANT field=value...] [comment]   rule on a dispute" in text
    assert "add_combatant" in text and "apply_tool" in text


def test_a_required_choice_whose_default_is_closed_takes_the_first_open_one() -> None:
    """Choice.when: a weapon field whose default (the bow) is open only for Determined, left out of a line that
    chose Feint, takes the first choice open with Feint instead of a default the rules would refuse (G-22)."""
    from combat_server.tui import _fill

    action = {"id": "aoa", "command": "maneuver", "args": {"combatant": "alice", "maneuver": "all_out_attack"}, "fields": [
        {"name": "option", "type": "choice", "required": True, "default": "determined",
         "choices": [{"value": "determined"}, {"value": "feint"}]},
        {"name": "weapon", "type": "choice", "required": True, "default": "bow",
         "choices": [{"value": "bow", "when": {"option": ["determined"]}}, {"value": "broadsword"}]},
    ]}
    assert _fill(action, ["feint"]).args["weapon"] == "broadsword"
    assert _fill(action, ["determined"]).args["weapon"] == "bow"
