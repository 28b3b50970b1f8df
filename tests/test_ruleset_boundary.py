"""#9 "How we know it is done": GURPS words (the maneuver, defence, posture and condition
names of rules/gurps, taken from the gurps package's own declarations) appear nowhere in
engine/, server/, store/, web/ or the terminal client.

KNOWN lists words a file may still carry while a step of #9 is under way; it is empty now:
server/views.py reads what a hidden combatant shows from the ruleset, and the web page and
the terminal client render the ruleset's description. The test fails if any file outside
rules/ names a GURPS word.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import attrs

from combat_server.rules.gurps.commands import COMMANDS
from combat_server.rules.gurps.maneuvers import MANEUVERS
from combat_server.rules.gurps.state import Condition
from combat_server.rules.gurps.tables import POSTURE_STEPS

PACKAGE = Path(__file__).resolve().parents[1] / "combat_server"
SCANNED = ("engine", "server", "store", "web", "tui.py")
WEB_SUFFIXES = (".js", ".html", ".css")


def gurps_words() -> frozenset[str]:
    """Maneuvers and their options (G-20..G-34), defences (G-38), postures (G-26) and the
    on/off conditions of a combatant (stunned, unconscious, ...), as rules/gurps declares them."""
    maneuvers = set(MANEUVERS) | {option for _, options in MANEUVERS.values() for option in options}
    defences = set(COMMANDS["defend"].args["defense"]["enum"]) - {"none"}
    conditions = {f.name for f in attrs.fields(Condition) if f.type in (bool, "bool")}
    return frozenset(maneuvers | defences | set(POSTURE_STEPS) | conditions)


#: Words of a SHELL declaration that are also plain English or a fight status the server must use.
SHELL_GENERIC = frozenset({"active", "other", "none"})


def shell_words() -> frozenset[str]:
    """SHELL's maneuvers (S-18 ... S-24, S-40 ... S-44), defences and close-combat answers (S-25, S-40)
    and the on/off conditions of a combatant, as rules/shell declares them (#10)."""
    from combat_server.rules.shell.actions import MANEUVER_NAMES
    from combat_server.rules.shell.commands import COMMANDS as SHELL_COMMANDS
    from combat_server.rules.shell.state import Condition as ShellCondition

    words = set(MANEUVER_NAMES) | set(SHELL_COMMANDS["defend"].args["defence"]["enum"])
    words |= set(SHELL_COMMANDS["respond"].args["response"]["enum"])
    words |= {f.name for f in attrs.fields(ShellCondition) if f.type in (bool, "bool")}
    return frozenset(words - SHELL_GENERIC)


def python_words(text: str, words: frozenset[str]) -> set[str]:
    """Words a Python module uses as data: a string literal that is exactly the word ("parry"),
    or an attribute read (``cond.stunned``, not a method call such as ``event.wait()``)."""
    tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    found = set()
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.STRING and tok.string.strip("\"'") in words:
            found.add(tok.string.strip("\"'"))
        elif (tok.type == tokenize.NAME and tok.string in words and i and tokens[i - 1].string == "."
              and (i + 1 == len(tokens) or tokens[i + 1].string != "(")):
            found.add(tok.string)
    return found


#: Web-platform vocabulary that happens to spell a GURPS word: CSS ``display: block`` and the
#: ``block`` option of ``scrollIntoView``. Only these exact forms are skipped.
WEB_PLATFORM = re.compile(r"display:\s*block\b|\bblock:\s*\"(?:start|center|end|nearest)\"")


def web_words(text: str, words: frozenset[str]) -> set[str]:
    """Any whole word in a web file (script, page or style), but for web-platform keywords."""
    text = WEB_PLATFORM.sub("", text)
    return set(re.findall(r"(?<![A-Za-z0-9_-])(" + "|".join(sorted(words, key=len, reverse=True))
                          + r")(?![A-Za-z0-9_-])", text))


def scan(root: Path) -> dict[str, set[str]]:
    words = gurps_words() | shell_words()
    found: dict[str, set[str]] = {}
    for part in SCANNED:
        base = root / part
        for path in sorted([base] if base.is_file() else base.rglob("*")):
            if path.suffix == ".py":
                hits = python_words(path.read_text(encoding="utf-8"), words)
            elif path.suffix in WEB_SUFFIXES:
                hits = web_words(path.read_text(encoding="utf-8"), words)
            else:
                continue
            if hits:
                found[path.relative_to(root).as_posix()] = hits
    return found


#: Words a file may still carry while a step of #9 is under way (none now; nothing may be added).
KNOWN: dict[str, frozenset[str]] = {}


def test_gurps_words_are_read_from_the_gurps_declarations() -> None:
    words = gurps_words()
    assert {"all_out_attack", "suppression", "increased_parry", "parry", "dodge", "face_up", "stunned",
            "unconscious"} <= words
    assert "none" not in words and "hp" not in words


def test_shell_words_are_read_from_the_shell_declarations() -> None:
    words = shell_words()
    assert {"enter_close", "takedown", "stop_thrust", "shield_block", "knocked_down", "preempt"} <= words
    assert not words & SHELL_GENERIC


def test_no_new_gurps_word_outside_rules_gurps() -> None:
    """engine/, server/, store/, web/ and the terminal client name no GURPS word beyond KNOWN."""
    new = {path: sorted(words - KNOWN.get(path, frozenset())) for path, words in scan(PACKAGE).items()}
    assert not {path: words for path, words in new.items() if words}, (
        "GURPS words outside rules/gurps (#9): ask the ruleset (specs, describe, view) instead")


def test_engine_store_and_the_clients_are_already_free_of_gurps_words() -> None:
    """The web page and the terminal client render the ruleset's description, sheet schema, option
    specs (and, the page, its demo) (#9)."""
    done = ("engine/", "store/", "web/", "tui.py")
    assert not [path for path in scan(PACKAGE) if path.startswith(done)]
    assert not [path for path in KNOWN if path.startswith(done)]


def test_the_scan_finds_a_word_planted_in_each_kind_of_file(tmp_path: Path) -> None:
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "x.py").write_text('MODE = "all_out_attack"\nok = c.condition.stunned\nawait e.wait()\n')
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "x.js").write_text('const P = { face_up: 1 };\nel.scrollIntoView({ block: "nearest" });\n')
    (tmp_path / "web" / "x.css").write_text(".a { display: block; }\n.chip.stunned { color: red; }\n")
    (tmp_path / "server").mkdir()
    (tmp_path / "store").mkdir()
    (tmp_path / "tui.py").write_text('"""Wait for the dodge."""\nX = "parry"\n')
    assert scan(tmp_path) == {"engine/x.py": {"all_out_attack", "stunned"}, "web/x.js": {"face_up"},
                              "web/x.css": {"stunned"},
                              "tui.py": {"parry"}}
