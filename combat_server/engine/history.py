"""Undo and redo as events: which seqs a ``reverted`` event takes out, which a
``restored`` event puts back. Decided against the log, folded by rules.core.

The decisions read only the end of the log they need (``read(after)`` returns
the events after a seq): the last command's events, or everything after the
turn start or the chosen seq. Which seqs are undone now is ``state.undone``.
A GM undoing in a 10,000-event fight therefore reads tens of events, not the
whole log (it read all of them before: 160-240 ms per undo or redo).
"""

from __future__ import annotations

from typing import Callable, Mapping, Sequence

from combat_server.errors import reject
from combat_server.rules.core import CONTROL_EVENTS, CORE_SPECS
from combat_server.rules.model import JSON, Event, EventDraft, FightState

#: Where ``undo`` goes back to, and its fields (``seq`` is read only with ``to: seq``), as its spec
#: (core.CORE_SPECS) declares them; ``redo`` has none.
UNDO_TARGETS = tuple(CORE_SPECS["undo"].args["to"]["enum"])
UNDO_FIELDS = tuple(CORE_SPECS["undo"].args)

#: Returns the events with seq > its argument, in order.
ReadAfter = Callable[[int], Sequence[Event]]

_FIRST_CHUNK = 64


def _live(events: Sequence[Event], undone: frozenset[int]) -> list[Event]:
    """Events that count now: not undone, not undo/redo themselves, not the fight's creation."""
    return [e for e in events if e.type not in CONTROL_EVENTS and e.seq not in undone and e.type != "fight_created"]


def _last_command(state: FightState, read: ReadAfter, undone: frozenset[int]) -> list[int]:
    """The live seqs of the newest command that still has live events.

    One command's events are consecutive in the log, so reading back in growing
    chunks until a chunk starts before that command finds all of them.
    """
    size = _FIRST_CHUNK
    while True:
        after = max(0, state.seq - size)
        chunk = read(after)
        live = _live(chunk, undone)
        if live:
            last = live[-1]
            if not last.command_id:
                return [last.seq]
            if after == 0 or chunk[0].command_id != last.command_id:
                return [e.seq for e in live if e.command_id == last.command_id]
        if after == 0:
            raise reject("undo/nothing", "there is nothing to undo")
        size *= 4


def decide_undo(state: FightState, read: ReadAfter, args: Mapping[str, JSON]) -> EventDraft:
    """Revert the last command, everything since the turn started, or everything after a seq."""
    target = args.get("to", "last_command")
    if target not in UNDO_TARGETS:
        raise reject("undo/bad_target", f"undo to must be one of {', '.join(UNDO_TARGETS)}", field="to")
    if target != "seq" and "seq" in args:  # not dropped without a word: the GM may have meant to: seq
        raise reject("undo/bad_seq", f"seq is only for undo to: seq, not to: {target}", field="seq")
    undone = frozenset(state.undone)
    if target == "last_command":
        seqs = _last_command(state, read, undone)
    elif target == "turn_start":
        if not state.turn_start_seq:
            raise reject("undo/no_turn", "no turn has started yet")
        seqs = [e.seq for e in _live(read(state.turn_start_seq), undone)]
    else:
        seq = args.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= state.seq:
            raise reject("undo/bad_seq", f"undo to seq needs a seq between 1 and {state.seq}", field="seq")
        seqs = [e.seq for e in _live(read(seq), undone)]
    if not seqs:
        raise reject("undo/nothing", "there is nothing to undo there")
    reason = args.get("reason", "")
    return EventDraft("reverted", {"seqs": seqs, "to": target, "reason": reason if isinstance(reason, str) else ""})


def decide_redo(state: FightState, controls: Sequence[Event], read: ReadAfter) -> EventDraft:
    """Restore the newest revert not yet restored, if nothing happened since it.

    ``controls``: the fight's ``reverted`` and ``restored`` events, in order.
    """
    restored = {int(e.payload["revert"]) for e in controls if e.type == "restored"}
    pending = [e for e in controls if e.type == "reverted" and e.seq not in restored]
    if not pending:
        raise reject("redo/nothing", "there is nothing to redo")
    revert = pending[-1]
    if _live(read(revert.seq), frozenset(state.undone)):
        raise reject(
            "redo/history_moved_on",
            f"events were added after the undo at seq {revert.seq}; undo them first",
            revert=revert.seq,
        )
    return EventDraft("restored", {"revert": revert.seq, "seqs": list(revert.payload["seqs"])})
