"""The terminal client: ``combat-server client URL`` for a player, the GM or a spectator.

A line-oriented REPL over :class:`combat_server.client.CombatClient`. The module
is split the way the server is: the parts that decide what to show and what to
send are pure functions of the state and of one typed line (:func:`parse_target`,
:func:`parse_line`, :func:`summarize`, :func:`format_event`); :class:`TerminalClient`
is the thin asyncio loop around them that reads stdin, talks to the server and
prints with ``rich``.

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
    "Target", "InputError", "Send", "Local", "Status", "Row", "PromptLine",
    "parse_target", "parse_line", "summarize", "format_event", "TerminalClient", "add_client_command", "main",
    "HELP",
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


#: Maneuver -> the fields its bare words fill, in order (GURPS maneuvers G-20..G-34).
MANEUVER_SLOTS: Mapping[str, tuple[str, ...]] = {
    "aim": ("target", "weapon"),
    "all_out_attack": ("target", "weapon"),
    "all_out_defense": ("option",),
    "attack": ("target", "weapon"),
    "change_posture": ("posture",),
    "concentrate": ("task",),
    "do_nothing": (),
    "evaluate": ("target",),
    "feint": ("target", "weapon"),
    "move": ("yards",),
    "move_and_attack": ("target", "weapon"),
    "ready": ("weapon",),
    "wait": ("action", "target", "weapon"),
}
#: Bare words that are an option of these maneuvers wherever they appear.
MANEUVER_OPTIONS: Mapping[str, Mapping[str, str]] = {
    "all_out_attack": {w: w for w in ("determined", "double", "feint", "strong", "suppression")},
    "all_out_defense": {"dodge": "increased_dodge", "parry": "increased_parry", "block": "increased_block",
                        "double": "double", "increased_dodge": "increased_dodge",
                        "increased_parry": "increased_parry", "increased_block": "increased_block"},
}
MANEUVER_ALIASES: Mapping[str, str] = {
    "aoa": "all_out_attack", "aod": "all_out_defense", "mna": "move_and_attack", "move_attack": "move_and_attack",
    "posture": "change_posture", "nothing": "do_nothing",
}
DEFENSES = ("dodge", "parry", "block", "none")

HELP = """\
Your turn (maneuvers; bare words fill the fields in order, key=value sets any field):
  attack TARGET [WEAPON]          all_out_attack|aoa TARGET [WEAPON] [determined|double|strong|feint]
  move_and_attack|mna TARGET [WEAPON]   feint TARGET [WEAPON]   aim TARGET [WEAPON]   evaluate TARGET
  all_out_defense|aod [dodge|parry|block|double]   move [YARDS]   change_posture|posture POSTURE
  ready WEAPON   concentrate TASK   wait ACTION [TARGET] [WEAPON] trigger=...   do_nothing
  e.g.  attack orc broadsword      aoa orc strong      move yards=3      attack orc as=brenna
When a prompt is open for you:
  defend dodge | defend parry [WEAPON] | defend block | defend none   (or just: dodge, parry, block)
  roll [PROMPT]                   add dice=3,4,5 (groups split by /) in manual dice mode
Anyone:
  note TEXT                       dispute SEQ COMMENT
  log [N]                         the last N log lines with explanations (default 20)
  show                            roster, turn and prompts again      whoami   your seat
  help                            this text                           quit     leave (also Ctrl-D)
GM:
  start                           start combat (key=value for options, e.g. order=["a","b"])
  undo [turn|SEQ]                 undo the last command, back to the turn start, or everything after SEQ
  redo                            rule DISPUTE uphold|override [COMBATANT field=value...] [comment]
  adjust COMBATANT field=value... REASON      e.g. adjust orc hp=5 healing potion
Anything else:
  do TYPE key=value...            any command, e.g. do fright_check combatant=orc modifier=-2
Values are JSON when they parse as JSON (5, true, ["a","b"]), else text; prompt=ID picks a prompt."""


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
    return {cid: str(c.get("name") or cid) for cid, c in (state.get("combatants") or {}).items()}


def _weapons(state: Mapping[str, Any], cid: str) -> list[str]:
    """The weapons the rules list for ``cid`` (derived, with unarmed ones), else those on its sheet."""
    derived = (state.get("derived") or {}).get(cid) or {}
    names = [str(w["name"]) for w in derived.get("weapons") or [] if "name" in w]
    if not names:
        sheet = ((state.get("combatants") or {}).get(cid) or {}).get("sheet") or {}
        names = [str(w["name"]) for w in sheet.get("weapons") or [] if "name" in w]
    return names


def _controls(seat: Mapping[str, Any], cid: str | None) -> bool:
    return seat.get("role") == "gm" or (cid is not None and cid in (seat.get("combatants") or ()))


def _actor(state: Mapping[str, Any], seat: Mapping[str, Any], given: Any) -> str:
    """Who acts: ``as=``/``combatant=``, else whoever's turn it is if this seat controls them."""
    names = _combatants(state)
    if isinstance(given, str) and given:
        return _resolve(given, names, "combatant")
    current = (state.get("combat") or {}).get("current")
    if current and _controls(seat, current):
        return str(current)
    mine = list(seat.get("combatants") or ())
    if len(mine) == 1:
        return str(mine[0])
    if seat.get("role") == "spectator":
        raise InputError("spectators only watch")
    who = f"it is {names.get(current, current)}'s turn" if current else "combat has not started"
    raise InputError(f"{who}; say who acts with as=COMBATANT")


def open_prompts(state: Mapping[str, Any], seat: Mapping[str, Any], kind: str | None = None) -> list[dict[str, Any]]:
    """The prompts this seat may answer (the GM answers any, a player those of its combatants)."""
    return [dict(p) for p in state.get("prompts") or []
            if (kind is None or p.get("kind") == kind)
            and (seat.get("role") == "gm" or p.get("combatant") in (seat.get("combatants") or ()))]


def _pick_prompt(state: Mapping[str, Any], seat: Mapping[str, Any], kind: str, given: Any) -> dict[str, Any]:
    prompts = open_prompts(state, seat, kind)
    if isinstance(given, str) and given:
        for p in prompts:
            if p["id"] == given:
                return p
        raise InputError(f"no open {kind} prompt {given!r} for you"
                         + (f"; open: {', '.join(p['id'] for p in prompts)}" if prompts else ""))
    if not prompts:
        raise InputError(f"no {kind} prompt is waiting for you")
    if len(prompts) > 1:
        raise InputError(f"several {kind} prompts are open ({', '.join(p['id'] for p in prompts)}): add prompt=ID")
    return prompts[0]


def _maneuver(name: str, words: Sequence[str], state: Mapping[str, Any], seat: Mapping[str, Any]) -> Send:
    bare, keys, faces = _split_keys(words)
    cid = _actor(state, seat, keys.pop("combatant", None))
    args: dict[str, Any] = {"combatant": cid, "maneuver": name}
    options = MANEUVER_OPTIONS.get(name, {})
    slots = [s for s in MANEUVER_SLOTS[name] if s not in keys]
    for word in bare:
        if word.lower() in options and "option" not in keys and "option" not in args:
            args["option"] = options[word.lower()]
            continue
        slots = [s for s in slots if s not in args]
        if not slots:
            raise InputError(f"{name}: too many words at {word!r} (use key=value for other fields; see help)")
        slot = slots.pop(0)
        if slot == "target":
            args[slot] = _resolve(word, _combatants(state), "combatant")
        elif slot == "weapon":
            weapons = _weapons(state, cid)
            args[slot] = _resolve(word, {w: w for w in weapons}, f"weapon of {cid}") if weapons else word
        elif slot == "yards":
            if not word.isdigit():
                raise InputError(f"move: yards must be a whole number, not {word!r}")
            args[slot] = int(word)
        else:
            args[slot] = word
    args.update(keys)
    return Send("maneuver", args, faces)


def _defend(words: Sequence[str], state: Mapping[str, Any], seat: Mapping[str, Any]) -> Send:
    bare, keys, faces = _split_keys(words)
    if not bare and "defense" not in keys:
        raise InputError("defend how? defend dodge | defend parry [WEAPON] | defend block | defend none")
    prompt = _pick_prompt(state, seat, "defend", keys.pop("prompt", None))
    args: dict[str, Any] = {"prompt": prompt["id"]}
    if bare:
        defense = bare[0].lower()
        if defense not in DEFENSES:
            raise InputError(f"no defence {bare[0]!r}: dodge, parry, block or none")
        args["defense"] = defense
        rest = bare[1:]
        if defense == "parry":
            parries = list(((prompt.get("options") or {}).get("parry") or {}).keys())
            if rest:
                args["weapon"] = _resolve(rest.pop(0), {w: w for w in parries}, "parrying weapon") \
                    if parries else rest.pop(0)
            elif parries and "weapon" not in keys:
                args["weapon"] = parries[0]
        if rest:
            raise InputError(f"defend: too many words at {rest[0]!r}")
    args.update(keys)
    return Send("defend", args, faces)


def _roll(words: Sequence[str], state: Mapping[str, Any], seat: Mapping[str, Any]) -> Send:
    bare, keys, faces = _split_keys(words)
    if len(bare) > 1:
        raise InputError(f"roll: too many words at {bare[1]!r} (roll [PROMPT] [dice=...])")
    given = keys.pop("prompt", None) or (bare[0] if bare else None)
    prompt = _pick_prompt(state, seat, "roll", given)
    return Send("roll", {"prompt": prompt["id"], **keys}, faces)


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
        raise InputError("rule DISPUTE uphold [comment] | rule DISPUTE override COMBATANT field=value... [comment]")
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


def parse_line(line: str, state: Mapping[str, Any], seat: Mapping[str, Any]) -> Send | Local | None:
    """What one typed line asks for; ``None`` for a blank line. Raises :class:`InputError`."""
    text = line.strip()
    if not text:
        return None
    verb, _sep, rest = text.partition(" ")
    verb = verb.lower().replace("-", "_")
    rest = rest.strip()
    if verb in ("help", "?", "h"):
        return Local("help")
    if verb in ("quit", "exit", "q"):
        return Local("quit")
    if verb in ("show", "roster", "status", "s"):
        return Local("show")
    if verb in ("whoami", "seat"):
        return Local("whoami")
    if verb == "log":
        if rest and not rest.isdigit():
            raise InputError("log [N]: N is how many lines, e.g. log 50")
        return Local("log", rest)
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
    if verb == "maneuver":
        if not words:
            raise InputError(f"maneuver NAME ...; names: {', '.join(MANEUVER_SLOTS)}")
        verb, words = words[0].lower().replace("-", "_"), words[1:]
    verb = MANEUVER_ALIASES.get(verb, verb)
    if verb in MANEUVER_SLOTS:
        return _maneuver(verb, words, state, seat)
    if verb == "defend":
        return _defend(words, state, seat)
    if verb in ("dodge", "parry", "block"):
        return _defend([verb, *words], state, seat)
    if verb == "roll":
        return _roll(words, state, seat)
    if verb == "undo":
        return _undo(words)
    if verb == "redo":
        return Send("redo", {})
    if verb == "rule":
        return _rule(words, state)
    if verb == "adjust":
        return _adjust(words, state)
    if verb in ("start", "start_combat"):
        _bare, keys, faces = _split_keys(words)
        return Send("start_combat", keys, faces)
    if verb == "do":
        if not words:
            raise InputError("do TYPE key=value..., e.g. do fright_check combatant=orc")
        bare, keys, faces = _split_keys(words[1:])
        if bare:
            raise InputError(f"do: write fields as key=value, not {bare[0]!r}")
        return Send(words[0], keys, faces)
    raise InputError(f"unknown command {verb!r}; type help")


# --------------------------------------------------------------------------- what to show


@attrs.frozen
class Row:
    """One line of the roster."""

    id: str
    name: str
    side: str
    hp: int | None
    hp_max: int | None
    fp: int | None
    fp_max: int | None
    conditions: tuple[str, ...]
    maneuver: str
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


def _int(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _conditions(condition: Mapping[str, Any], derived: Mapping[str, Any]) -> tuple[str, ...]:
    out = []
    if condition.get("dead"):
        out.append("dead")
    if condition.get("unconscious"):
        out.append("unconscious")
    if condition.get("collapsed"):
        out.append("collapsed")
    if condition.get("stunned"):
        out.append("stunned")
    shock = _int(condition.get("shock")) or 0
    if shock:
        out.append(f"shock -{shock}")
    if derived.get("reeling"):
        out.append("reeling")
    if derived.get("tired"):
        out.append("tired")
    posture = condition.get("posture")
    if posture and posture != "standing":
        out.append(str(posture))
    if condition.get("wait_action"):
        out.append(f"waiting ({condition['wait_action']})")
    return tuple(out)


def _prompt_choices(prompt: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    """The numbers a defender picks from, and what to type."""
    options = prompt.get("options") or {}
    kind = prompt.get("kind")
    if kind == "defend":
        if options.get("allowed") is False:
            return (f"no defence allowed: {options.get('reason', '')}",), "defend none"
        choices, hints = [], []
        dodge = options.get("dodge")
        if isinstance(dodge, dict) and "target" in dodge:
            choices.append(f"dodge {dodge['target']}")
            hints.append("defend dodge")
        for weapon, p in (options.get("parry") or {}).items():
            if isinstance(p, dict) and "target" in p:
                choices.append(f"parry {weapon} {p['target']}")
        if options.get("parry"):
            hints.append("defend parry [WEAPON]")
        block = options.get("block")
        if isinstance(block, dict) and "target" in block:
            choices.append(f"block {block['target']}")
            hints.append("defend block")
        hints.append("defend none")
        return tuple(choices), " | ".join(hints)
    if kind == "roll":
        purpose = options.get("purpose")
        return ((f"roll for {purpose}",) if purpose else ()), f"roll {prompt.get('id', '')}".strip()
    if kind == "dispute":
        return (), f"rule {prompt.get('id', '')} uphold | rule {prompt.get('id', '')} override COMBATANT field=value"
    return (), ""


def summarize(state: Mapping[str, Any], seat: Mapping[str, Any]) -> Status:
    """The status block for this seat: roster, turn and round, the prompts (this seat's marked)."""
    combat = state.get("combat") or {}
    names = _combatants(state)
    current = combat.get("current") or ""
    order = list(combat.get("order") or [])
    ids = order + [cid for cid in names if cid not in order]
    derived_all = state.get("derived") or {}
    rows = []
    for cid in ids:
        c = (state.get("combatants") or {}).get(cid)
        if c is None:
            continue
        cond = c.get("condition") or {}
        derived = derived_all.get(cid) or {}
        maneuver = str(cond.get("maneuver") or "")
        if cond.get("maneuver_option"):
            maneuver += f" ({cond['maneuver_option']})"
        rows.append(Row(cid, names[cid], str(c.get("side", "")).upper(), _int(cond.get("hp")),
                        _int(derived.get("hp_max")), _int(cond.get("fp")), _int(derived.get("fp_max")),
                        _conditions(cond, derived), maneuver, cid == current, cid in (seat.get("combatants") or ())))
    status = str(state.get("status", ""))
    if status == "ended":
        turn = f"The fight has ended{': ' + str(state['ended_reason']) if state.get('ended_reason') else ''}."
    elif not current:
        turn = "Setting up: combat has not started" + (" (GM: type start)" if seat.get("role") == "gm" else "") + "."
    else:
        turn = (f"Round {combat.get('round', '?')}: {names.get(current, current)}'s turn"
                f" ({str(combat.get('phase', '')).replace('_', ' ') or 'maneuver'}).")
    mine = set(seat.get("combatants") or ())
    prompts = []
    for p in state.get("prompts") or []:
        who = p.get("combatant")
        is_mine = (who in mine) or (seat.get("role") == "gm" and (who is None or who not in _pc_ids(state)))
        choices, hint = _prompt_choices(p)
        prompts.append(PromptLine(str(p.get("id", "")), str(p.get("kind", "")),
                                  names.get(who, "GM") if who else "GM", str(p.get("text", "")), is_mine,
                                  choices, hint))
    your_turn = ""
    if current and combat.get("phase") == "maneuver" and status != "ended" and (
            current in mine or (seat.get("role") == "gm" and current not in _pc_ids(state))):
        derived_weapons = (derived_all.get(current) or {}).get("weapons") or []
        weapons = ", ".join(f"{w['name']} (skill {w['skill']}, {w.get('damage', '?')})" if "skill" in w
                            else str(w.get("name")) for w in derived_weapons) or ", ".join(_weapons(state, current)) \
            or "-"
        foes = ", ".join(cid for cid in ids if cid != current) or "-"
        your_turn = (f"Your turn: {names.get(current, current)} chooses a maneuver "
                     f"(e.g. attack TARGET WEAPON). Targets: {foes}. Weapons: {weapons}.")
    return Status(str(state.get("title") or state.get("fight_id") or ""), turn, tuple(rows), tuple(prompts),
                  your_turn)


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
    """``rich`` renderables for the status block (HP/FP bars only on terminals ``width`` >= 100)."""
    bar = 6 if width >= 100 else 0
    table = Table(title=status.title or None, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                  header_style="bold", expand=False)
    for name in ("", "id", "name", "side", "HP", "FP", "conditions", "maneuver"):
        table.add_column(name, no_wrap=name in ("", "id", "HP", "FP", "side"))
    for r in status.rows:
        style = "bold" if r.mine else ""
        table.add_row("▶" if r.current else "", Text(r.id, style=style), Text(r.name, style=style), r.side,
                      _bar(r.hp, r.hp_max, bar), _bar(r.fp, r.fp_max, bar),
                      Text(", ".join(r.conditions) or "-", style="red" if r.conditions else "dim"), r.maneuver or "-")
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
        status = summarize(self.state, self.seat)
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
            reply = await self.client.subscribe(self.target.token, after=0)
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
            action = parse_line(line, self.state, self.seat)
        except InputError as exc:
            self.error("input", str(exc))
            return True
        if action is None:
            return True
        if isinstance(action, Local):
            return self._local(action)
        assert self.client is not None
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

    def _local(self, action: Local) -> bool:
        if action.name == "quit":
            return False
        if action.name == "help":
            self.say(Text(HELP))
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

    async def _watch_connection(self) -> None:
        """Tell the user about drops and reconnects (the client library does the reconnecting)."""
        client = self.client
        assert client is not None
        seen_drops, seen_reconnects = 0, 0
        lost_at: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(0.2)
            if len(client.close_codes) > seen_drops:
                seen_drops = len(client.close_codes)
                if not self._quitting and lost_at is None:
                    lost_at = loop.time()
                    self.say(Text("connection lost; reconnecting...", style="bold yellow"))
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


_DESCRIPTION = ("Interactive terminal client: roster, turn, prompts, maneuvers, defences, rolls and the log with "
                "explanations. Type help once connected.")


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
