"""The terminal client: ``combat-server client URL`` for a player, the GM or a spectator.

A line-oriented REPL over :class:`combat_server.client.CombatClient`. The module
is split the way the server is: the parts that decide what to show and what to
send are pure functions of the state and of one typed line (:func:`parse_target`,
:func:`parse_line`, :func:`summarize`, :func:`format_event`); :class:`TerminalClient`
is the thin asyncio loop around them that reads stdin, talks to the server and
prints with ``rich``.

The client knows no ruleset (#9): its verbs, their arguments, completion (a
trailing ``?``), the answers of prompts, the roster's bars and conditions and
``help`` all come from the seat's description (``subscribe {describe: true}``,
docs/protocol.md *Descriptions*) and the command specs (``subscribed.commands``).
Only the fight's core commands (note, dispute, undo, redo, rule, adjust) have
verbs of their own.

The client never re-checks the rules: a command the rules refuse comes back as
``error: <code>: <message>`` from the server and the session goes on. Only what
cannot even be sent (an unknown word, a missing target, a prompt that is not
open) is refused locally, as ``error: input: ...``.

Output is line by line, never a full-screen redraw: new log lines are printed as
events arrive, and the status (roster, turn, open prompts) is printed again
whenever it changed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shlex
import sys
import threading
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import parse_qs, urlsplit, urlunsplit

import attrs
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from combat_server.client import CombatClient, PushedEvent, ServerError

__all__ = [
    "Target", "InputError", "Send", "Local", "Status", "Row", "Meter", "PromptLine",
    "parse_target", "parse_line", "summarize", "format_event", "TerminalClient", "add_client_command", "main",
    "HELP", "help_text", "completions", "answer_line", "action_usage", "find_action",
    "Calc", "parse_tool", "tool_help", "tool_completions", "calculation_lines",
    "rule_texts_of", "rule_text", "rule_help",
]

EXIT_OK, EXIT_ERROR, EXIT_DISCONNECTED = 0, 2, 3
WS_PATH = "/ws"


class InputError(ValueError):
    """A line that cannot become a command; the message says what to type instead."""


# --------------------------------------------------------------------------- where to connect


@attrs.frozen
class Target:
    """Where to connect and with which seat token (``fight`` is checked when given)."""

    ws_url: str
    token: str
    fight: str | None = None


def parse_target(url: str, token: str | None = None, fight: str | None = None) -> Target:
    """A websocket URL plus ``--token``, or an invite link that carries the token.

    Accepted: ``ws://host:port`` (``/ws`` added), ``ws://host:port/ws``,
    ``http://host:port/#token=T`` (the links the server hands out) and
    ``http://host:port/?fight=F&token=T``. An explicit ``token``/``fight`` wins
    over the one in the link.
    """
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in ("ws", "wss", "http", "https") or not parts.netloc:
        raise InputError(f"not a server address: {url!r} (expected ws://host:port or an http:// invite link)")
    found: dict[str, list[str]] = {}
    for blob in (parts.query, parts.fragment):
        for key, values in parse_qs(blob).items():
            found.setdefault(key, []).extend(values)
    token = token or next(iter(found.get("token", [])), None)
    fight = fight or next(iter(found.get("fight", [])), None)
    if not token:
        raise InputError("no seat token: give --token TOKEN or an invite link with token=...")
    ws_scheme = {"http": "ws", "https": "wss"}.get(scheme, scheme)
    path = parts.path if scheme in ("ws", "wss") and parts.path not in ("", "/") else WS_PATH
    return Target(urlunsplit((ws_scheme, parts.netloc, path, "", "")), token, fight)


# --------------------------------------------------------------------------- what a line means


@attrs.frozen
class Send:
    """A command for the server; ``faces`` are physical dice for manual dice mode."""

    type: str
    args: Mapping[str, Any]
    faces: tuple[tuple[int, ...], ...] | None = None


@attrs.frozen
class Local:
    """Something the client does itself: help, quit, show, log, whoami."""

    name: str
    arg: str = ""


@attrs.frozen
class Calc:
    """A GM tool to run (``calculate``, read-only, its steps printed); with ``targets``, then applied
    with the command the reply names, ``faces`` being the manual dice for it."""

    tool: str
    inputs: Mapping[str, Any]
    combatant: str | None = None
    targets: tuple[str, ...] = ()
    faces: tuple[tuple[int, ...], ...] | None = None


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise InputError(f"cannot read that line ({exc}); close the quote or leave it out") from None


def _value(raw: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _faces(raw: str) -> tuple[tuple[int, ...], ...]:
    try:
        groups = tuple(tuple(int(f) for f in g.split(",") if f.strip()) for g in raw.split("/"))
    except ValueError:
        raise InputError(f"dice={raw}: write the faces as numbers, e.g. dice=3,4,5 or dice=3,4,5/4") from None
    if not groups or not all(groups):
        raise InputError(f"dice={raw}: write the faces as numbers, e.g. dice=3,4,5 or dice=3,4,5/4")
    return groups


def _split_keys(words: Sequence[str]) -> tuple[list[str], dict[str, Any], tuple[tuple[int, ...], ...] | None]:
    """Bare words, key=value fields, and the ``dice=`` faces."""
    bare: list[str] = []
    keys: dict[str, Any] = {}
    faces = None
    for w in words:
        key, eq, raw = w.partition("=")
        if not eq or not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
            bare.append(w)
        elif key == "dice":
            faces = _faces(raw)
        else:
            keys["combatant" if key == "as" else key] = _value(raw)
    return bare, keys, faces


def _resolve(word: str, choices: Mapping[str, str], what: str) -> str:
    """An id from an id, a name, or a unique prefix of either (case-insensitive)."""
    w = word.lower()
    for cid, name in choices.items():
        if w in (cid.lower(), name.lower()):
            return cid
    hits = {cid for cid, name in choices.items() if cid.lower().startswith(w) or name.lower().startswith(w)}
    if len(hits) == 1:
        return hits.pop()
    known = ", ".join(f"{c} ({n})" if n != c else c for c, n in choices.items()) or "none"
    if hits:
        raise InputError(f"{what} {word!r} is ambiguous: {', '.join(sorted(hits))}")
    raise InputError(f"no {what} {word!r}; known: {known}")


def _combatants(state: Mapping[str, Any]) -> dict[str, str]:
    """Each combatant's name by id, in id order: a view restored from a snapshot has its keys sorted, a
    live one in joining order, and what is listed must not depend on which process built it."""
    return {cid: str(c.get("name") or cid) for cid, c in sorted((state.get("combatants") or {}).items())}


def _undo(words: Sequence[str]) -> Send:
    bare, keys, _faces = _split_keys(words)
    if not bare:
        return Send("undo", {"to": "last_command", **keys})
    if len(bare) > 1:
        raise InputError("undo takes one of: (nothing) | turn | SEQ")
    word = bare[0].lower()
    if word in ("last", "last_command"):
        return Send("undo", {"to": "last_command", **keys})
    if word in ("turn", "turn_start"):
        return Send("undo", {"to": "turn_start", **keys})
    if word.isdigit():
        return Send("undo", {"to": "seq", "seq": int(word), **keys})
    raise InputError(f"undo {bare[0]!r}? undo | undo turn | undo SEQ")


def _with_free_text(words: Sequence[str]) -> tuple[dict[str, Any], str]:
    fields: dict[str, Any] = {}
    text = []
    for w in words:
        key, eq, raw = w.partition("=")
        if eq and re.fullmatch(r"[a-z_][a-z0-9_]*", key):
            fields[key] = _value(raw)
        else:
            text.append(w)
    return fields, " ".join(text)


def _rule(words: Sequence[str], state: Mapping[str, Any]) -> Send:
    if len(words) < 2 or words[1] not in ("uphold", "override"):
        raise InputError("rule ID (what rule G-36 means) | rule DISPUTE uphold [comment] | "
                         "rule DISPUTE override COMBATANT field=value... [comment]")
    dispute, verdict, rest = words[0], words[1], list(words[2:])
    if dispute.isdigit():
        dispute = f"dispute:{dispute}"
    if verdict == "uphold":
        return Send("rule", {"dispute": dispute, "verdict": verdict, "comment": " ".join(rest)})
    if not rest:
        raise InputError("an override names the combatant and the fields to set, e.g. rule 17 override orc hp=5")
    cid = _resolve(rest.pop(0), _combatants(state), "combatant")
    changes, comment = _with_free_text(rest)
    if not changes:
        raise InputError("an override needs at least one field=value to set, e.g. hp=5")
    return Send("rule", {"dispute": dispute, "verdict": verdict, "comment": comment,
                         "adjustments": [{"combatant": cid, "changes": changes}]})


def _adjust(words: Sequence[str], state: Mapping[str, Any]) -> Send:
    if not words:
        raise InputError("adjust COMBATANT field=value... REASON, e.g. adjust orc hp=5 healing potion")
    cid = _resolve(words[0], _combatants(state), "combatant")
    changes, reason = _with_free_text(words[1:])
    if not changes:
        raise InputError("adjust: name at least one field=value, e.g. hp=5")
    return Send("adjust", {"combatant": cid, "changes": changes, "reason": reason})


#: The client's own words (they never reach the server). Besides these and the fight's core commands
#: (note, dispute, undo, redo, rule, adjust), every verb comes from the seat's description (its actions
#: and their aliases, its prompts' answers) and the command specs.
LOCAL_VERBS: Mapping[str, str] = {"help": "help", "?": "help", "h": "help", "quit": "quit", "exit": "quit",
                                  "q": "quit", "show": "show", "roster": "show", "status": "show", "s": "show",
                                  "whoami": "whoami", "seat": "whoami", "log": "log"}

HELP = """\
Anyone:
  note TEXT                       dispute SEQ COMMENT
  log [N]                         the last N log lines with explanations (default 20)
  show                            roster, turn and prompts again      whoami   your seat
  help [ACTION]                   this text, or one action's fields and choices
  rule ID                         what a rule id in the log means, e.g. rule G-36 (help rule: every id)
  quit                            leave (also Ctrl-D)
  ACTION ... ?                    what may come next on the line (a trailing ?)
  tool [NAME key=value... [as=COMBATANT]]   the GM tools (help tool NAME: its inputs); as= prefills
GM:
  undo [turn|SEQ]                 undo the last command, back to the turn start, or everything after SEQ
  redo                            do again what the last undo took back
  rule DISPUTE uphold|override [COMBATANT field=value...] [comment]   rule on a dispute
  adjust COMBATANT field=value... REASON      e.g. adjust orc hp=5 healing potion
  tool NAME key=value... apply=COMBATANT[,COMBATANT]   run a tool and apply its damage or fatigue
Anything else:
  do TYPE key=value...            any command of the ruleset (listed below)
Bare words fill an action's fields in order (a name, an id or a unique prefix of a choice);
key=value sets any field (values are JSON when they parse: 5, true, '["a","b"]'); as=COMBATANT says who acts;
dice=3,4,5 gives the faces in manual dice mode (groups split by /); prompt=ID picks a prompt."""

Description = Mapping[str, Any]
CommandSpecs = Sequence[Mapping[str, Any]]


def _actions(description: Description | None) -> list[Mapping[str, Any]]:
    return list((description or {}).get("actions") or [])


def _prompts(description: Description | None) -> list[Mapping[str, Any]]:
    return list((description or {}).get("prompts") or [])


def _word(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _choice_word(choice: Mapping[str, Any]) -> str:
    """A choice as listed: its value, or its label when the value is null (a "leave it as it is" choice)."""
    return _word(choice["value"]) if choice["value"] is not None else str(choice.get("label") or "none")


def _verb_of(action: Mapping[str, Any]) -> str:
    """The word that names an action: its id up to any ``:`` (``trigger_wait:tam`` -> ``trigger_wait``)."""
    return str(action["id"]).split(":", 1)[0].lower()


def find_action(verb: str, description: Description | None, who: str | None = None) -> Mapping[str, Any] | None:
    """The action a verb names: its id, one of its aliases, or its id up to ``:``; ``who`` picks
    among several (one Wait per combatant). ``InputError`` when the verb names several."""
    hits = [a for a in _actions(description)
            if verb in (str(a["id"]).lower(), _verb_of(a), *(str(x).lower() for x in a.get("aliases") or ()))]
    if who is not None and len(hits) > 1:
        hits = [a for a in hits if a.get("combatant") == who] or hits
    if len(hits) > 1:
        raise InputError(f"{verb}: several are open ({', '.join(str(a['id']) for a in hits)}); "
                         f"type the one you mean, or add as=COMBATANT")
    return hits[0] if hits else None


def _applies(f: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    return all(values.get(k) in allowed for k, allowed in (f.get("when") or {}).items())


def _choice_map(f: Mapping[str, Any]) -> dict[str, str]:
    return {_word(c["value"]): str(c.get("label") or _word(c["value"])) for c in f.get("choices") or []}


def _exact_choice(f: Mapping[str, Any], word: str) -> Any:
    """The value of the choice ``word`` names exactly (its value, label or an alias), else ``_NONE``."""
    w = word.lower()
    for c in f.get("choices") or []:
        names = (_word(c["value"]), str(c.get("label", "")), *(str(a) for a in c.get("aliases") or ()))
        if w in (n.lower() for n in names):
            return c["value"]
    return _NONE


_NONE = object()


def _field_value(f: Mapping[str, Any], word: str) -> Any:
    """A typed word as the value of field ``f``; ``InputError`` says what the field takes."""
    name, kind = str(f["name"]), f.get("type")
    if kind == "choice":
        exact = _exact_choice(f, word)
        if exact is not _NONE:
            return exact
        picked = _resolve(word, _choice_map(f), name)
        return next(c["value"] for c in f["choices"] if _word(c["value"]) == picked)
    if kind == "integer":
        try:
            number = int(word)
        except ValueError:
            raise InputError(f"{name} must be a whole number, not {word!r}") from None
        lo, hi = f.get("minimum"), f.get("maximum")
        if (lo is not None and number < lo) or (hi is not None and number > hi):
            raise InputError(f"{name} must be from {lo if lo is not None else '...'} to "
                             f"{hi if hi is not None else '...'}, not {number}")
        return number
    if kind == "boolean":
        if word.lower() in ("true", "yes", "on", name.lower()):
            return True
        if word.lower() in ("false", "no", "off"):
            return False
        raise InputError(f"{name} is true or false, not {word!r}")
    return word


def _open_fields(action: Mapping[str, Any], values: Mapping[str, Any], given: Mapping[str, Any]) -> list[Any]:
    return [f for f in action.get("fields") or []
            if f["name"] not in values and f["name"] not in given and _applies(f, {**values, **given})]


def _fill(action: Mapping[str, Any], words: Sequence[str]) -> Send:
    """An action's command with its fields filled from the bare words and key=value pairs.

    A word that is exactly one of the choices of a field not filled yet goes there
    (an option anywhere on the line); any other word goes to the first open field
    it fits, in the action's order. Required fields left empty take their default.
    """
    bare, keys, faces = _split_keys(words)
    keys.pop("combatant", None)  # the action already names who acts
    verb = _verb_of(action)
    values = _assign(action, bare, keys)
    for f in action.get("fields") or []:
        if f.get("required") and f["name"] not in values and f["name"] not in keys and _applies(f, {**values, **keys}):
            if f.get("default") is None:
                raise InputError(f"{verb}: {f['name']} is missing ({_field_usage(f)}); see help {verb}")
            values[f["name"]] = _open_default(f, {**values, **keys})
    given = {**values, **keys}
    for f in action.get("fields") or []:
        if f.get("type") == "choice" and f["name"] in given and not _choice_open(f, given[f["name"]], given):
            open_ = [_choice_word(c) for c in f.get("choices") or () if _applies(c, given)]
            raise InputError(f"{verb}: {f['name']} {_word(given[f['name']])} is not open with "
                             + ", ".join(f"{k}={_word(given.get(k))}" for c in f["choices"]
                                         if c["value"] == given[f["name"]] for k in (c.get("when") or {}))
                             + f"; open: {', '.join(open_) or 'none'}")
    return Send(str(action["command"]), {**dict(action.get("args") or {}), **values, **keys}, faces)


def _choice_open(f: Mapping[str, Any], value: Any, values: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a choice of ``f`` open with ``values`` (a choice's own ``when``); a value
    that is no choice is the server's to judge."""
    matching = [c for c in f.get("choices") or () if c["value"] == value]
    return not matching or any(_applies(c, values) for c in matching)


def _open_default(f: Mapping[str, Any], values: Mapping[str, Any]) -> Any:
    """The field's default, or the first open choice when the default is closed by the others' values."""
    if _choice_open(f, f["default"], values):
        return f["default"]
    return next((c["value"] for c in f.get("choices") or () if _applies(c, values)), f["default"])


def _assign(action: Mapping[str, Any], bare: Sequence[str], keys: Mapping[str, Any]) -> dict[str, Any]:
    """The fields the bare words fill (see :func:`_fill`)."""
    verb = _verb_of(action)
    values: dict[str, Any] = {}
    for word in bare:
        open_ = _open_fields(action, values, keys)
        if not open_:
            raise InputError(f"{verb}: too many words at {word!r} (use key=value for other fields; "
                             f"see help {verb})")
        exact = next(((f, v) for f in open_ if f.get("type") == "choice"
                      for v in [_exact_choice(f, word)] if v is not _NONE), None)
        if exact is not None:
            values[exact[0]["name"]] = exact[1]
            continue
        first_error: InputError | None = None
        for f in open_:
            try:
                values[f["name"]] = _field_value(f, word)
                break
            except InputError as exc:
                first_error = first_error or exc
        else:
            assert first_error is not None
            raise first_error
    return values


def _answer_words(prompt: Mapping[str, Any], answer: Mapping[str, Any]) -> list[str]:
    return [_word(v) for v in (answer.get("args") or {}).values() if v != prompt.get("id")]


def answer_line(prompt: Mapping[str, Any], answer: Mapping[str, Any]) -> str:
    """What to type for a ready-made answer: its command, then its args' values but the prompt's id."""
    return " ".join([str(answer["command"]), *_answer_words(prompt, answer)])


def _spec(name: str, commands: CommandSpecs | None) -> Mapping[str, Any] | None:
    return next((s for s in commands or () if s.get("name") == name), None)


def _answer(command: str, words: Sequence[str], description: Description | None, commands: CommandSpecs | None,
            ) -> Send:
    """One of the ready-made answers of this seat's open prompts: each bare word narrows them
    down by one of its values (exactly, else as a prefix); the first left is sent."""
    bare, keys, faces = _split_keys(words)
    prompts = [p for p in _prompts(description) if any(a["command"] == command for a in p.get("answers") or ())]
    spec = _spec(command, commands) or {}
    kind = str(spec.get("prompt_kind") or (prompts[0]["kind"] if prompts else command))
    given = keys.pop("prompt", None)
    if given is None and bare and any(p["id"] == bare[0] for p in prompts):
        given = bare.pop(0)
    if given is not None:
        found = [p for p in prompts if p["id"] == given]
        if not found:
            raise InputError(f"no open {kind} prompt {given!r} for you"
                             + (f"; open: {', '.join(p['id'] for p in prompts)}" if prompts else ""))
        prompts = found
    if not prompts:
        raise InputError(f"no {kind} prompt is waiting for you")
    answers = [(p, a) for p in prompts for a in p["answers"] if a["command"] == command]
    for word in bare:
        w = word.lower()
        exact = [(p, a) for p, a in answers if w in (x.lower() for x in _answer_words(p, a))]
        narrowed = exact or [(p, a) for p, a in answers if any(x.lower().startswith(w) for x in _answer_words(p, a))]
        if not narrowed:
            raise InputError(f"{command}: no answer {word!r}; answers: "
                             + " | ".join(answer_line(p, a) for p, a in answers))
        answers = narrowed
    if len({p["id"] for p, _a in answers}) > 1:
        raise InputError(f"several {kind} prompts are open ({', '.join(sorted({p['id'] for p, _a in answers}))}): "
                         f"add prompt=ID")
    if not bare and len(answers) > 1:
        raise InputError(f"{command} how? " + " | ".join(answer_line(p, a) for p, a in answers))
    prompt, answer = answers[0]
    return Send(command, {**dict(answer.get("args") or {}), **keys}, faces)


def _answer_verbs(description: Description | None, commands: CommandSpecs | None) -> dict[str, str]:
    """Words that start an answer: the answers' commands, and each value of their args (or of an
    enumerated field of a prompt-answering command spec) -> that command."""
    verbs: dict[str, str] = {}
    for spec in commands or ():
        if spec.get("prompt_kind"):
            verbs.setdefault(str(spec["name"]), str(spec["name"]))
    for p in _prompts(description):
        for a in p.get("answers") or ():
            verbs.setdefault(str(a["command"]), str(a["command"]))
            for w in _answer_words(p, a):
                verbs.setdefault(w.lower(), str(a["command"]))
    for spec in commands or ():
        if spec.get("prompt_kind"):
            for schema in ((spec.get("args") or {}).get("properties") or {}).values():
                for v in schema.get("enum") or ():
                    verbs.setdefault(str(v).lower(), str(spec["name"]))
    return verbs


def parse_line(line: str, state: Mapping[str, Any], seat: Mapping[str, Any], description: Description | None = None,
               commands: CommandSpecs | None = None, tools: ToolSpecs | None = None) -> Send | Local | Calc | None:
    """What one typed line asks for; ``None`` for a blank line. Raises :class:`InputError`.

    ``description`` (the seat's, ``subscribed.description``) supplies the actions and the
    prompts' answers, ``commands`` (``subscribed.commands``) the other commands' names,
    ``tools`` (``subscribed.tools``) the GM tools.
    """
    text = line.strip()
    if not text:
        return None
    verb, _sep, rest = text.partition(" ")
    verb = verb.lower().replace("-", "_")
    rest = rest.strip()
    if verb in LOCAL_VERBS:
        name = LOCAL_VERBS[verb]
        if name == "log" and rest and not rest.isdigit():
            raise InputError("log [N]: N is how many lines, e.g. log 50")
        return Local(name, rest if name in ("log", "help") else "")
    if verb == "note":
        if not rest:
            raise InputError("note TEXT: say what to note")
        return Send("note", {"text": rest})
    if verb == "dispute":
        seq, _sep, comment = rest.partition(" ")
        if not seq.isdigit() or not comment.strip():
            raise InputError("dispute SEQ COMMENT, e.g. dispute 12 the orc had DR 2")
        return Send("dispute", {"seq": int(seq), "comment": comment.strip()})
    words = _tokens(rest)
    if words and words[-1] == "?":
        return Local("complete", " ".join([verb, *words[:-1]]))
    if verb == "tool":
        return parse_tool(words, state, seat, tools)
    if verb == "undo":
        return _undo(words)
    if verb == "redo":
        return Send("redo", {})
    if verb == "rule" and len(words) == 1 and _RULE_WORD.fullmatch(words[0].upper()):
        return Local("rule", words[0].upper())
    if verb == "rule":
        return _rule(words, state)
    if verb == "adjust":
        return _adjust(words, state)
    if verb == "do":
        if not words:
            raise InputError("do TYPE key=value..., e.g. do note text=hello")
        bare, keys, faces = _split_keys(words[1:])
        if bare:
            raise InputError(f"do: write fields as key=value, not {bare[0]!r}")
        return Send(words[0], keys, faces)
    who = _as(words, state)
    action = find_action(verb, description, who)
    if action is None and words and _spec(verb, commands) is not None:
        # "COMMAND ACTION TARGET": a command's name, then one of the actions it carries
        inner = find_action(words[0].lower().replace("-", "_"), description, who)
        if inner is not None and inner.get("command") == verb:
            action, words = inner, words[1:]
    if action is not None:
        if who is not None and action.get("combatant") not in (None, who):
            names = _combatants(state)
            raise InputError(f"{verb} is open to {names.get(str(action['combatant']), action['combatant'])} now, "
                             f"not to {names.get(who, who)}")
        return _fill(action, words)
    answering = _answer_verbs(description, commands)
    if verb in answering:
        command = answering[verb]
        return _answer(command, words if verb == command else [verb, *words], description, commands)
    if _spec(verb, commands) is not None:
        bare, keys, faces = _split_keys(words)
        if bare:
            raise InputError(f"{verb} is not open to you now; to send it anyway: do {verb} key=value...")
        return Send(verb, keys, faces)
    open_now = sorted({_verb_of(a) for a in _actions(description)})
    raise InputError(f"unknown command {verb!r}; type help"
                     + (f" (open to you now: {', '.join(open_now)})" if open_now else ""))


def _as(words: Sequence[str], state: Mapping[str, Any]) -> str | None:
    """The combatant named by ``as=``/``combatant=`` on the line, if any."""
    for w in words:
        key, eq, raw = w.partition("=")
        if eq and key in ("as", "combatant") and raw:
            return _resolve(raw, _combatants(state), "combatant")
    return None


# --------------------------------------------------------------------------- help and completion


def _field_usage(f: Mapping[str, Any]) -> str:
    kind = f.get("type")
    if kind == "choice":
        return "one of: " + ", ".join(_word(c["value"]) + (f" ({'/'.join(c['aliases'])})" if c.get("aliases") else "")
                                      for c in f.get("choices") or ())
    if kind == "integer":
        lo, hi = f.get("minimum"), f.get("maximum")
        return "a whole number" + (f" from {lo} to {hi}" if lo is not None and hi is not None else "")
    return "true or false" if kind == "boolean" else "text"


def action_usage(action: Mapping[str, Any]) -> str:
    """``attack TARGET WEAPON [range=N]``: required fields as bare words, the others as key=value."""
    parts = [_verb_of(action)]
    for f in action.get("fields") or ():
        name = str(f["name"])
        parts.append(name.upper() if f.get("required") else f"[{name}={'N' if f.get('type') == 'integer' else '...'}]")
    return " ".join(parts)


def help_text(description: Description | None, commands: CommandSpecs | None, topic: str = "",
              tools: ToolSpecs | None = None, role: str = "gm") -> str:
    """``help``: the fixed part, then what this seat can do now (its actions, its prompts' answers)
    and the ruleset's commands; ``help ACTION``: that action's fields and their choices;
    ``help tool [NAME]``: the tools, or one tool's inputs. A seat other than the GM's is not
    offered the GM's verbs and commands (each would only be refused with ``auth/gm_only``)."""
    verb, _sep, rest = topic.strip().partition(" ")
    if verb.lower() == "tool":
        return tool_help(tools, rest.strip())
    if topic:
        action = find_action(topic.lower().replace("-", "_"), description)
        if action is None:
            spec = _spec(topic, commands)
            if spec is None:
                raise InputError(f"help {topic}: not an action open to you now; type help")
            props = (spec.get("args") or {}).get("properties") or {}
            return f"{spec['name']}: {spec.get('help', '')}\n  do {spec['name']} " + " ".join(f"{k}=..." for k in props)
        lines = [f"{action_usage(action)}    {action.get('label', '')}: {action.get('help', '')}"
                 + (f" ({', '.join(action.get('rules') or ())})" if action.get("rules") else "")]
        if action.get("aliases"):
            lines.append(f"  also: {', '.join(action['aliases'])}")
        for f in action.get("fields") or ():
            when = "; ".join(f"only when {k} is {'/'.join(map(_word, v))}" for k, v in (f.get("when") or {}).items())
            lines.append(f"  {f['name']}: {f.get('label', '')}{' - ' + f['help'] if f.get('help') else ''} "
                         f"[{_field_usage(f)}{'; default ' + _word(f['default']) if f.get('default') is not None else ''}"
                         f"{'; ' + when if when else ''}]")
        return "\n".join(lines)
    gm = role == "gm"
    lines = [HELP if gm else HELP[:HELP.index("GM:\n")] + HELP[HELP.index("Anything else:"):]]
    actions = _actions(description)
    if actions:
        lines.append("You can now (help ACTION for its fields and choices):")
        for a in actions:
            also = f" ({'|'.join(a['aliases'])})" if a.get("aliases") else ""
            lines.append(f"  {action_usage(a)}{also}    {a.get('help') or a.get('label', '')}")
    for p in _prompts(description):
        lines.append(f"Prompt {p['id']} ({p.get('text', '')}), answer with:")
        for a in p.get("answers") or ():
            lines.append(f"  {answer_line(p, a):<32}{a.get('label', '')}")
    specs = [s for s in commands or () if s.get("name") not in _CORE_TYPED and (gm or s.get("capability") != "gm")]
    if specs:
        lines.append("Commands (do TYPE key=value...):")
        lines.extend(f"  {s['name']:<18}{s.get('help', '')}" for s in specs)
    return "\n".join(lines)


# --------------------------------------------------------------------------- rule texts (#13)
# ``rule G-36`` prints the fight's ruleset's own short explanation of a rule id, from
# ``welcome.rulesets[].rule_texts`` (docs/protocol.md); the client knows no rule itself.

_RULE_WORD = re.compile(r"[A-Z]{1,2}-\d{2,3}")


def rule_texts_of(welcome: Mapping[str, Any], ruleset: str | None) -> Mapping[str, Any]:
    """The rule texts of the fight's ruleset (never another ruleset's: its ids may mean something else)."""
    for entry in welcome.get("rulesets") or ():
        if entry.get("name") == ruleset:
            texts: Mapping[str, Any] = entry.get("rule_texts") or {}
            return texts
    return {}


def rule_text(texts: Mapping[str, Any], rule_id: str) -> str:
    """``rule ID``: the rule's title, then its one or two sentences; an id without a text is an input error."""
    key = rule_id.upper()
    told = texts.get(key)
    if told is None:
        raise InputError(f"rule {key}: this fight's rules have no text for it; help rule lists the ids that have one")
    return f"{key} · {told['title']}\n  {told['text']}"


def rule_help(texts: Mapping[str, Any], topic: str = "") -> str:
    """``help rule`` (how to ask, and every id with a text) or ``help rule ID`` (that rule's text)."""
    words = topic.split()[1:]
    if words:
        return rule_text(texts, words[0])
    ids = ", ".join(sorted(texts)) or "(none: this fight's rules ship no texts)"
    return ("rule ID    what a rule id cited in the log means, in the rules' own short words (e.g. rule G-36)\n"
            f"Ids with a text: {ids}")


#: Core commands the client has its own verbs for (see HELP).
_CORE_TYPED = frozenset({"note", "dispute", "undo", "redo", "rule", "adjust"})


def completions(line: str, state: Mapping[str, Any], seat: Mapping[str, Any], description: Description | None,
                commands: CommandSpecs | None, tools: ToolSpecs | None = None) -> list[str]:
    """What may come next after ``line`` (the words typed so far): verbs for an empty line or a
    verb's prefix, then the choices of the action's next open field or the answers left."""
    words = _tokens(line)
    verbs = sorted({_verb_of(a) for a in _actions(description)}
                   | {str(x) for a in _actions(description) for x in a.get("aliases") or ()}
                   | set(_answer_verbs(description, None)) | set(LOCAL_VERBS) | _CORE_TYPED | {"do"}
                   | ({"tool"} if _usable_tools(tools, seat) else set()))
    if not words:
        return verbs
    verb = words[0].lower().replace("-", "_")
    if verb == "tool" and "tool" in verbs:
        return tool_completions(words[1:], line.endswith(" "), seat, tools)
    if len(words) == 1 and not line.endswith(" ") and verb not in verbs:
        return [v for v in verbs if v.startswith(verb)]
    try:
        action = find_action(verb, description, _as(words[1:], state))
    except InputError:
        return []
    if action is not None:
        bare, keys, _faces = _split_keys(words[1:])
        try:
            typed = _assign(action, bare, keys)
        except InputError:
            return []
        open_ = _open_fields(action, typed, keys)
        if not open_:
            return []
        f = open_[0]
        if f.get("type") == "choice":
            return [_word(c["value"]) for c in f.get("choices") or () if c["value"] is not None]
        return [f"{f['name']}=<{_field_usage(f)}>"]
    answering = _answer_verbs(description, commands)
    if verb in answering:
        command = answering[verb]
        out = []
        for p in _prompts(description):
            for a in p.get("answers") or ():
                if a["command"] == command:
                    rest = _answer_words(p, a)
                    if verb != command:  # "VERB ": the answers that start with that word, less the word
                        if not rest or rest[0].lower() != verb:
                            continue
                        rest = rest[1:]
                    out.append(" ".join(rest) or "(nothing: just Enter)")
        return out
    return []


# --------------------------------------------------------------------------- GM tools (#12)
# The ``tool`` verb, its help and completion, built from ``subscribed.tools`` alone: each tool's
# inputs are a JSON Schema (titles, units, ranges, choices). The server runs the tool; applying
# its result is the command the ``calculation`` reply names.

ToolSpecs = Sequence[Mapping[str, Any]]


def _usable_tools(tools: ToolSpecs | None, seat: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The GM's tools, or a player's players' tools; a spectator none."""
    role = seat.get("role")
    return [t for t in tools or () if role == "gm" or (role == "player" and t.get("players"))]


def _find_tool(word: str, tools: ToolSpecs | None, seat: Mapping[str, Any]) -> Mapping[str, Any]:
    usable = _usable_tools(tools, seat)
    if not usable:
        raise InputError("this fight has no tools you may run")
    name = _resolve(word.replace("-", "_"), {str(t["name"]): str(t["name"]) for t in usable}, "tool")
    return next(t for t in usable if t["name"] == name)


def _tool_value(tool: Mapping[str, Any], key: str, raw: str) -> Any:
    """A typed ``key=value`` as the input's schema wants it: text stays text (``ls=4`` is ``"4"``)."""
    props = tool["inputs"].get("properties") or {}
    if key not in props:
        raise InputError(f"tool {tool['name']} has no input {key!r}; its inputs: {', '.join(props)}")
    schema = props[key]
    if schema.get("type") == "string" or ("enum" in schema and all(isinstance(v, str) for v in schema["enum"])):
        return raw
    return _value(raw)


def parse_tool(words: Sequence[str], state: Mapping[str, Any], seat: Mapping[str, Any],
               tools: ToolSpecs | None) -> Local | Calc:
    """``tool`` (list them) or ``tool NAME key=value... [as=COMBATANT] [apply=A,B] [dice=...]``."""
    if not words:
        return Local("tools")
    tool = _find_tool(words[0], tools, seat)
    inputs: dict[str, Any] = {}
    combatant: str | None = None
    targets: tuple[str, ...] = ()
    faces = None
    names = _combatants(state)
    for word in words[1:]:
        key, eq, raw = word.partition("=")
        if not eq or not re.fullmatch(r"[a-z_][a-z0-9_]*", key):
            raise InputError(f"tool {tool['name']}: write inputs as key=value, not {word!r} (help tool {tool['name']})")
        if key == "dice":
            faces = _faces(raw)
        elif key in ("as", "combatant"):
            combatant = _resolve(raw, names, "combatant")
        elif key == "apply":
            targets = tuple(_resolve(t, names, "combatant") for t in raw.split(",") if t.strip())
        else:
            inputs[key] = _tool_value(tool, key, raw)
    if combatant is None and seat.get("role") == "player" and len(seat.get("combatants") or ()) == 1:
        combatant = str(seat["combatants"][0])  # a player's tools are for its own combatant
    return Calc(str(tool["name"]), inputs, combatant, targets, faces)


def _input_usage(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return "one of: " + ", ".join(_word(v) for v in schema["enum"])
    kind = schema.get("type")
    lo, hi = schema.get("minimum"), schema.get("maximum")
    words = {"integer": "a whole number", "number": "a number", "boolean": "true or false"}.get(str(kind), "text")
    if schema.get("description") and kind == "string":
        words = str(schema["description"])
    return words + (f" from {_word(lo)} to {_word(hi)}" if lo is not None and hi is not None else "")


def tool_help(tools: ToolSpecs | None, name: str = "", seat: Mapping[str, Any] | None = None) -> str:
    """``help tool``: every tool with its rule ids; ``help tool NAME``: its inputs, units, ranges, defaults
    and the combatant numbers ``as=`` fills them from."""
    if not name:
        if not tools:
            return "This fight has no tools."
        lines = ["Tools (tool NAME key=value... [as=COMBATANT]; help tool NAME for its inputs):"]
        lines.extend(f"  {t['name']:<20}{t['title']} ({', '.join(t.get('rules') or ())})"
                     + ("  [players too]" if t.get("players") else "") for t in tools)
        return "\n".join(lines)
    tool = _find_tool(name, tools, seat or {"role": "gm"})
    schema = tool["inputs"]
    required = set(schema.get("required") or ())
    prefill = tool.get("prefill") or {}
    lines = [f"tool {tool['name']}: {tool['title']} ({', '.join(tool.get('rules') or ())})"]
    if tool.get("help"):
        lines.append(f"  {tool['help']}")
    for key, prop in (schema.get("properties") or {}).items():
        unit = f" ({prop['x-unit']})" if prop.get("x-unit") else ""
        notes = ["required" if key in required else None,
                 f"default {_word(prop['default'])}" if "default" in prop else None,
                 f"as= fills it from {_paths(prefill[key])}" if key in prefill else None]
        lines.append(f"  {key}=  {prop.get('title', key)}{unit}: {_input_usage(prop)}"
                     + "".join(f"; {n}" for n in notes if n))
    return "\n".join(lines)


def _paths(paths: str | Sequence[str]) -> str:
    """A tool input's prefill paths as the help says them: "load_st.st or st"."""
    return paths if isinstance(paths, str) else " or ".join(paths)


def tool_completions(words: Sequence[str], after_space: bool, seat: Mapping[str, Any],
                     tools: ToolSpecs | None) -> list[str]:
    """After ``tool``: the tool names (or those a prefix starts); after ``tool NAME``: its inputs not given yet."""
    usable = [str(t["name"]) for t in _usable_tools(tools, seat)]
    if not words or (len(words) == 1 and not after_space and words[0] not in usable):
        prefix = words[0] if words else ""
        return [n for n in usable if n.startswith(prefix)]
    try:
        tool = _find_tool(words[0], tools, seat)
    except InputError:
        return []
    given = {w.partition("=")[0] for w in words[1:]}
    props = tool["inputs"].get("properties") or {}
    out = [f"{k}=<{_input_usage(p)}>" for k, p in props.items() if k not in given]
    extra = ["as=<combatant>"] + (["apply=<combatant,...>"] if seat.get("role") == "gm" else [])
    return out + [e for e in extra if e.partition("=")[0] not in given]


def calculation_lines(reply: Mapping[str, Any]) -> list[str]:
    """A ``calculation`` as lines: the summary, then each step with its rule id."""
    lines = [f"{reply['tool']}: {reply['summary']}"]
    for step in reply.get("steps") or ():
        value = step["value"]
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        lines.append(f"  {step['text']} → {shown}  ({step['rule']})")
    return lines


# --------------------------------------------------------------------------- what to show


@attrs.frozen
class Meter:
    """One bar of a combatant as the description gives it (``None``: this seat may not see it)."""

    label: str
    value: int | None
    max: int | None


@attrs.frozen
class Row:
    """One line of the roster: the combatant, its bars and badges from the seat's description."""

    id: str
    name: str
    side: str
    bars: tuple[Meter, ...]
    conditions: tuple[str, ...]
    current: bool
    mine: bool


@attrs.frozen
class PromptLine:
    id: str
    kind: str
    combatant: str
    text: str
    mine: bool
    choices: tuple[str, ...]
    hint: str


@attrs.frozen
class Status:
    """Everything the status block shows; printed again only when it changes."""

    title: str
    turn: str
    rows: tuple[Row, ...]
    prompts: tuple[PromptLine, ...]
    your_turn: str
    columns: tuple[str, ...] = ()


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _your_turn(state: Mapping[str, Any], description: Description | None) -> str:
    """What this seat can do now, in one line: the actions, and the choices of the first one's fields."""
    actions = _actions(description)
    if not actions:
        return ""
    names = _combatants(state)
    who = next((str(a["combatant"]) for a in actions if a.get("combatant")), "")
    verbs = ", ".join(dict.fromkeys(_verb_of(a) for a in actions))
    head = f"Your turn: {names.get(who, who)} chooses: {verbs}." if who else f"You can: {verbs}."
    # the choices of the first (the ruleset's usual) action; help ACTION shows any other's
    details = " ".join(f"{f.get('label') or f['name']}: {', '.join(_choice_word(c) for c in f['choices'])}."
                       for f in actions[0].get("fields") or () if f.get("type") == "choice" and f.get("choices"))
    return f"{head} {details} (help ACTION for more)".replace("  ", " ")


def summarize(state: Mapping[str, Any], seat: Mapping[str, Any], description: Description | None = None) -> Status:
    """The status block for this seat: roster with its description's bars and badges, turn and
    round, the prompts (this seat's marked, with their ready-made answers)."""
    combat = state.get("combat") or {}
    names = _combatants(state)
    current = combat.get("current") or ""
    # the roster: the turn order while combat runs, then the others by id (_combatants), whatever the view's key order
    order = list(dict.fromkeys(cid for cid in combat.get("order") or [] if isinstance(cid, str)))
    ids = order + [cid for cid in names if cid not in order]
    bars: dict[str, dict[str, Mapping[str, Any]]] = {}
    columns: dict[str, str] = {}
    for b in (description or {}).get("bars") or ():
        bars.setdefault(str(b["combatant"]), {})[str(b["name"])] = b
        columns.setdefault(str(b["name"]), str(b.get("label") or b["name"]))
    badges: dict[str, list[str]] = {}
    for badge in (description or {}).get("badges") or ():
        badges.setdefault(str(badge["combatant"]), []).append(str(badge["label"]))
    rows = []
    for cid in ids:
        c = (state.get("combatants") or {}).get(cid)
        if c is None:
            continue
        mine_bars = bars.get(cid, {})
        meters = tuple(Meter(label, _int(mine_bars[n]["value"]), _int(mine_bars[n]["max"])) if n in mine_bars
                       else Meter(label, None, None) for n, label in columns.items())
        rows.append(Row(cid, names[cid], str(c.get("side", "")).upper(), meters, tuple(badges.get(cid, ())),
                        cid == current, cid in (seat.get("combatants") or ())))
    status = str(state.get("status", ""))
    if status == "ended":
        turn = f"The fight has ended{': ' + str(state['ended_reason']) if state.get('ended_reason') else ''}."
    elif not current:
        turn = "Setting up: combat has not started" + (" (GM: type start)" if seat.get("role") == "gm" else "") + "."
    else:
        phase = str(combat.get("phase", "")).replace("_", " ")
        turn = f"Round {combat.get('round', '?')}: {names.get(current, current)}'s turn" + (f" ({phase})." if phase else ".")
    described = {str(p["id"]): p for p in _prompts(description)}
    prompts = []
    for p in state.get("prompts") or []:
        who = p.get("combatant")
        pid = str(p.get("id", ""))
        mine = described.get(pid)
        if mine is not None:
            answers = mine.get("answers") or ()
            choices = tuple(str(a.get("label", "")) for a in answers)
            hint = " | ".join(answer_line(mine, a) for a in answers)
        elif p.get("kind") == "dispute" and seat.get("role") == "gm":
            choices, hint = (), f"rule {pid} uphold | rule {pid} override COMBATANT field=value"
        else:
            choices, hint = (), ""
        # the GM may answer a player's prompt, but it is the player's to answer
        is_mine = bool(hint) and (seat.get("role") != "gm" or who is None or who not in _pc_ids(state))
        prompts.append(PromptLine(pid, str(p.get("kind", "")), names.get(who, "GM") if who else "GM",
                                  str(p.get("text", "")), is_mine, choices, hint))
    return Status(str(state.get("title") or state.get("fight_id") or ""), turn, tuple(rows), tuple(prompts),
                  _your_turn(state, description), tuple(columns.values()))


def _pc_ids(state: Mapping[str, Any]) -> set[str]:
    return {cid for cid, c in (state.get("combatants") or {}).items() if c.get("side") == "pc"}


def format_event(seq: int, explanation: str, event: Mapping[str, Any], undone: bool = False) -> str:
    """One log line: seq, who did it, the explanation (with its rule ids)."""
    actor = str(event.get("actor") or "")
    mark = "  [undone]" if undone else ""
    return f"#{seq:<4} {actor:<10} {explanation or event.get('type', '')}{mark}"


_RULE_ID = r"\b[A-Z]{1,2}-\d{2,3}\b"


def _bar(value: int | None, top: int | None, width: int) -> Text:
    """``9/13`` and, when there is room, a bar coloured by how much is left."""
    if value is None:
        return Text("?", style="dim")
    label = f"{value}/{top}" if top else str(value)
    if not top or width <= 0:
        return Text(label)
    filled = max(0, min(width, round(width * value / top))) if top > 0 else 0
    colour = "green" if value * 3 > top * 2 else "yellow" if value * 3 > top else "red"
    return Text.assemble((label.rjust(5) + " ", "bold"), ("█" * filled, colour), ("░" * (width - filled), "dim"))


def render_status(status: Status, width: int = 100) -> list[Any]:
    """``rich`` renderables for the status block (bars drawn only on terminals ``width`` >= 100)."""
    bar = 6 if width >= 100 else 0
    table = Table(title=status.title or None, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  header_style="bold", expand=False)
    for name in ("", "id", "name", "side"):
        table.add_column(name, no_wrap=True)
    for label in status.columns:
        table.add_column(label, no_wrap=True)
    table.add_column("conditions")
    for r in status.rows:
        style = "bold" if r.mine else ""
        table.add_row("▶" if r.current else "", Text(r.id, style=style), Text(r.name, style=style), r.side,
                      *(_bar(m.value, m.max, bar) for m in r.bars),
                      Text(", ".join(r.conditions) or "-", style="red" if r.conditions else "dim"))
    out: list[Any] = [table, Text(status.turn, style="bold")]
    if status.your_turn:
        out.append(Text(status.your_turn, style="bold green"))
    for p in status.prompts:
        head = "YOUR PROMPT" if p.mine else f"waiting for {p.combatant}"
        line = Text.assemble((f"{head} [{p.id}] ", "bold yellow" if p.mine else "dim"), p.text)
        if p.choices:
            line.append("  (" + "; ".join(p.choices) + ")")
        out.append(line)
        if p.mine and p.hint:
            out.append(Text(f"  answer: {p.hint}", style="yellow"))
    return out


# --------------------------------------------------------------------------- the loop


class TerminalClient:
    """Connect, subscribe, then read lines and print events until quit or end of input."""

    def __init__(self, target: Target, console: Console | None = None, history: int = 10,
                 reconnect_timeout: float = 60.0) -> None:
        self.target = target
        self.console = console or Console(highlight=False)
        self.history = history
        self.reconnect_timeout = reconnect_timeout
        self.client: CombatClient | None = None
        self.seat: dict[str, Any] = {}
        self.commands: list[dict[str, Any]] = []  # subscribed.commands: the command specs
        self.joined_seq = 0
        self._last_status: Status | None = None
        self._redraw: asyncio.TimerHandle | None = None
        self._prompt_shown = False
        self._quitting = False
        self._joining = True  # catch-up events are shown as one block once the join is done

    # ------------------------------------------------------------------ output

    @property
    def state(self) -> dict[str, Any]:
        return (self.client.state if self.client is not None else None) or {}

    @property
    def description(self) -> dict[str, Any] | None:
        return self.client.description if self.client is not None else None

    @property
    def prompt(self) -> str:
        label = self.seat.get("label") or self.seat.get("seat_id") or "?"
        return f"{label}> "

    def _clear_prompt(self) -> None:
        if self._prompt_shown:
            self.console.file.write("\n")  # never erase: the user may be half-way through a line
            self._prompt_shown = False

    def show_prompt(self) -> None:
        if not self._prompt_shown and not self._quitting:
            self.console.file.write(self.prompt)
            self.console.file.flush()
            self._prompt_shown = True

    def say(self, *renderables: Any, style: str | None = None) -> None:
        self._clear_prompt()
        for r in renderables:
            self.console.print(r, style=style, markup=False)

    def error(self, code: str, message: str) -> None:
        self.say(Text(f"error: {code}: {message}", style="bold red"))

    def _log_line(self, pushed: PushedEvent, undone: bool = False) -> Text:
        text = Text(format_event(pushed.seq, pushed.explanation, pushed.event, undone))
        text.highlight_regex(_RULE_ID, "cyan")
        if undone:
            text.stylize("strike dim")
        elif pushed.type in ("reverted", "restored"):
            text.stylize("yellow")
        return text

    def show_status(self, force: bool = False) -> None:
        if not self.state:
            return
        status = summarize(self.state, self.seat, self.description)
        if force or status != self._last_status:
            self._last_status = status
            self.say(Text(""), *render_status(status, self.console.width))

    def show_log(self, count: int) -> None:
        if self.client is None:
            return
        undone = set(self.state.get("undone") or [])
        items = self.client.events[-count:] if count > 0 else []
        if not items:
            self.say(Text("(no events yet)", style="dim"))
        for pushed in items:
            self.say(self._log_line(pushed, pushed.seq in undone))

    def _on_event(self, pushed: PushedEvent) -> None:
        """Called by the client for each event in order; catch-up events are shown once complete."""
        try:
            if self._joining:
                return
            self.say(self._log_line(pushed))
            self._schedule_redraw()
        except Exception as exc:  # never break the client's read loop over a display problem
            self.say(Text(f"(could not show event {pushed.seq}: {exc})", style="dim"))

    def _schedule_redraw(self) -> None:
        if self._redraw is not None:
            self._redraw.cancel()
        self._redraw = asyncio.get_running_loop().call_later(0.05, self._redrawn)

    def _redrawn(self) -> None:
        self._redraw = None
        self.show_status()
        self.show_prompt()

    # ------------------------------------------------------------------ session

    async def connect(self) -> int:
        """Open the connection and take the seat; an exit code other than 0 means give up."""
        try:
            self.client = await CombatClient.connect(self.target.ws_url, on_event=self._on_event,
                                                     reconnect_timeout=self.reconnect_timeout)
        except Exception as exc:  # OSError, InvalidHandshake, InvalidURI, timeouts: all "cannot reach"
            self.error("client/unreachable", f"cannot connect to {self.target.ws_url}: {exc}")
            return EXIT_ERROR
        try:
            reply = await self.client.subscribe(self.target.token, after=0, describe=True)
        except ServerError as exc:
            self.error(exc.code, exc.message)
            return EXIT_ERROR
        except asyncio.TimeoutError:
            self.error("client/timeout", "the server did not answer the subscribe")
            return EXIT_ERROR
        if self.target.fight and reply["fight_id"] != self.target.fight:
            self.error("client/wrong_fight", f"this token is for fight {reply['fight_id']}, not {self.target.fight}")
            return EXIT_ERROR
        self.seat = dict(reply["seat"])
        self.commands = [dict(c) for c in reply.get("commands") or []]
        try:
            await self.client.wait_for_seq(int(reply["last_seq"]), timeout=30)
        except asyncio.TimeoutError:
            self.error("client/timeout", "the fight's history did not arrive")
            return EXIT_ERROR
        self.joined_seq = self.client.last_seq
        self._joining = False
        role = self.seat.get("role", "?")
        controls = ", ".join(self.seat.get("combatants") or []) or ("everyone" if role == "gm" else "nobody")
        self.say(Text.assemble(("Connected ", "bold"), f"to fight {reply['fight_id']} as {self.prompt[:-2]} "
                               f"({role}; controls {controls}). Type help for commands."))
        if self.joined_seq and self.history:
            self.say(Text(f"Last {min(self.history, self.joined_seq)} of {self.joined_seq} log lines:", style="dim"))
            self.show_log(self.history)
        self.show_status(force=True)
        return EXIT_OK

    async def handle(self, line: str) -> bool:
        """Act on one typed line; False to quit."""
        self._prompt_shown = False  # the user's Enter moved to a new line
        try:
            action = parse_line(line, self.state, self.seat, self.description, self.commands, self.tools)
        except InputError as exc:
            self.error("input", str(exc))
            return True
        if action is None:
            return True
        if isinstance(action, Local):
            return self._local(action)
        assert self.client is not None
        if isinstance(action, Calc):
            await self._tool(action)
            return True
        try:
            result = await self.client.command(action.type, action.args, faces=action.faces)
        except ServerError as exc:
            hint = " (type the line again with dice=N,N,N: one face per die)" if exc.code == "roll/faces_needed" else ""
            self.error(exc.code, exc.message + hint)
            return True
        except asyncio.TimeoutError:
            self.error("client/timeout", "no answer from the server; it will be re-sent after a reconnect")
            return True
        if result.get("duplicate"):
            self.say(Text("(already done: the server had this command)", style="dim"))
        return True

    @property
    def tools(self) -> list[dict[str, Any]]:
        return self.client.tools if self.client is not None else []

    async def _tool(self, calc: Calc) -> None:
        """Run the tool on the server and print its steps; with targets, then send the command that applies it."""
        assert self.client is not None
        try:
            reply = await self.client.calculate(calc.tool, calc.inputs, calc.combatant)
        except ServerError as exc:
            self.error(exc.code, exc.message)
            return
        except asyncio.TimeoutError:
            self.error("client/timeout", "no answer from the server")
            return
        for line in calculation_lines(reply):
            text = Text(line)
            text.highlight_regex(_RULE_ID, "cyan")
            self.say(text)
        if not calc.targets:
            return
        if not reply.get("apply"):
            self.error("input", f"tool {calc.tool}: nothing to apply (no damage or fatigue)")
            return
        args = {"tool": calc.tool, "inputs": reply["inputs"], "targets": list(calc.targets)}
        try:
            await self.client.command(str(reply["apply"]), args, faces=calc.faces)
        except ServerError as exc:
            hint = (" (type the line again with dice=N,N/N: one group of faces per target)"
                    if exc.code == "roll/faces_needed" else "")
            self.error(exc.code, exc.message + hint)

    def _local(self, action: Local) -> bool:
        if action.name == "quit":
            return False
        if action.name == "rule" or (action.name == "help" and action.arg.split()[:1] == ["rule"]):
            self._show_rule(action)
            return True
        if action.name == "help":
            try:
                self.say(Text(help_text(self.description, self.commands, action.arg,
                                        _usable_tools(self.tools, self.seat), str(self.seat.get("role", "")))))
            except InputError as exc:
                self.error("input", str(exc))
        elif action.name == "complete":
            try:
                found = completions(action.arg, self.state, self.seat, self.description, self.commands, self.tools)
            except InputError as exc:
                self.error("input", str(exc))
            else:
                self.say(Text("next: " + (" | ".join(found) if found else "(nothing more: press Enter)"),
                              style="cyan"))
        elif action.name == "tools":
            self.say(Text(tool_help(_usable_tools(self.tools, self.seat))))
        elif action.name == "show":
            self.show_status(force=True)
        elif action.name == "log":
            self.show_log(int(action.arg) if action.arg else 20)
        elif action.name == "whoami":
            self.say(Text(f"seat {self.seat.get('seat_id')} ({self.seat.get('role')}), label "
                          f"{self.seat.get('label') or '-'}, controls {', '.join(self.seat.get('combatants') or []) or '-'}"
                          f"; fight {self.client.fight_id if self.client else '?'} at seq "
                          f"{self.client.last_seq if self.client else 0}"))
        return True

    def _show_rule(self, action: Local) -> None:
        texts = rule_texts_of(self.client.welcome if self.client else {}, self.state.get("ruleset"))
        try:
            shown = rule_text(texts, action.arg) if action.name == "rule" else rule_help(texts, action.arg)
        except InputError as exc:
            self.error("input", str(exc))
            return
        text = Text(shown)
        text.highlight_regex(_RULE_ID, "cyan")
        self.say(text)

    async def _watch_connection(self) -> None:
        """Tell the user about drops and reconnects (the client library does the reconnecting)."""
        client = self.client
        assert client is not None
        seen_drops, seen_reconnects = 0, 0
        described = client.description
        lost_at: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(0.2)
            if len(client.close_codes) > seen_drops:
                seen_drops = len(client.close_codes)
                if not self._quitting and lost_at is None:
                    lost_at = loop.time()
                    self.say(Text("connection lost; reconnecting...", style="bold yellow"))
            if client.description is not described:  # pushed after a command's events: show what changed
                described = client.description
                self._schedule_redraw()
            if client.reconnects > seen_reconnects:
                seen_reconnects = client.reconnects
                lost_at = None
                self.say(Text(f"reconnected; caught up to seq {client.last_seq}", style="bold green"))
                self._schedule_redraw()
            if lost_at is not None and loop.time() - lost_at > self.reconnect_timeout + 2:
                self.error("client/disconnected", "gave up reconnecting to the server")
                raise _Disconnected()

    async def run(self, lines: "asyncio.Queue[str | None]") -> int:
        code = await self.connect()
        if code != EXIT_OK:
            if self.client is not None:
                await self.client.close()
            return code
        watcher = asyncio.get_running_loop().create_task(self._watch_connection())
        self.show_prompt()
        try:
            while True:
                get = asyncio.get_running_loop().create_task(lines.get())
                done, _ = await asyncio.wait({get, watcher}, return_when=asyncio.FIRST_COMPLETED)
                if watcher in done:
                    get.cancel()
                    watcher.exception()  # retrieved: it is the _Disconnected raised above
                    return EXIT_DISCONNECTED
                line = get.result()
                if line is None or not await self.handle(line):
                    break
                self.show_prompt()
        finally:
            self._quitting = True
            watcher.cancel()
            if self._redraw is not None:
                self._redraw.cancel()
            if self.client is not None:
                await self.client.close()
        self._clear_prompt()
        self.console.print("bye", markup=False)
        return EXIT_OK


class _Disconnected(Exception):
    pass


class _LineSplitter:
    """Bytes read from stdin in, whole decoded lines out (None once at end of input)."""

    def __init__(self, put: Callable[[str | None], None]) -> None:
        self.put = put
        self.buffer = b""

    def feed(self, data: bytes) -> None:
        if not data:
            if self.buffer:
                self.put(self.buffer.decode("utf-8", errors="replace").rstrip("\r"))
                self.buffer = b""
            self.put(None)
            return
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        for raw in lines:
            self.put(raw.decode("utf-8", errors="replace").rstrip("\r"))


def _stdin_lines(loop: asyncio.AbstractEventLoop, fd: int = 0) -> "asyncio.Queue[str | None]":
    """Lines typed on stdin; None at end of input.

    A terminal or a pipe is watched by the event loop itself (``add_reader``); a
    regular file, which cannot be watched, is read by a daemon thread. Both read
    the file descriptor with ``os.read`` so no buffered-reader lock is held at exit.
    """
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def read_ready() -> None:
        try:
            data = os.read(fd, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
        splitter.feed(data)

    try:
        splitter = _LineSplitter(queue.put_nowait)
        loop.add_reader(fd, read_ready)
        return queue
    except (OSError, ValueError, NotImplementedError):
        pass

    def put(item: str | None) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, item)
        except RuntimeError:
            pass  # the loop is already closed: we are leaving

    def pump() -> None:
        threaded = _LineSplitter(put)
        while True:
            try:
                data = os.read(fd, 4096)
            except OSError:
                data = b""
            threaded.feed(data)
            if not data:
                return

    threading.Thread(target=pump, name="combat-client-stdin", daemon=True).start()
    return queue


async def _main_async(target: Target, history: int) -> int:
    client = TerminalClient(target, history=history)
    return await client.run(_stdin_lines(asyncio.get_running_loop()))


def run_client(args: argparse.Namespace) -> int:
    """``combat-server client``: parse the address, run the REPL, return the exit code."""
    try:
        target = parse_target(args.url, token=args.token, fight=args.fight)
    except InputError as exc:
        print(f"error: cli/usage: {exc}", file=sys.stderr)
        return EXIT_ERROR
    try:
        return asyncio.run(_main_async(target, args.history))
    except KeyboardInterrupt:
        print("\nbye")
        return EXIT_OK


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("url", metavar="URL",
                   help="ws://host:port with --token, or an invite link (http://host:port/#token=... or "
                        "http://host:port/?fight=...&token=...)")
    p.add_argument("--token", help="seat token (default: the one in the invite link)")
    p.add_argument("--fight", help="fight id, checked against the token's fight")
    p.add_argument("--history", type=int, default=10, metavar="N", help="log lines shown on joining (default 10)")
    p.set_defaults(func=run_client)


_DESCRIPTION = ("Interactive terminal client: roster, turn, prompts, the actions the ruleset offers, rolls and the "
                "log with explanations. Type help once connected.")


def add_client_command(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``client`` to an argparse subparsers object; ``args.func(args)`` runs it."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "client", help="play or run a fight from the terminal (connects to a running server)",
        description=_DESCRIPTION)
    _add_arguments(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m combat_server.tui URL ...`` (or clients/terminal.py): the client without the main CLI."""
    parser = argparse.ArgumentParser(prog="combat-server client", description=_DESCRIPTION)
    _add_arguments(parser)
    return run_client(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
