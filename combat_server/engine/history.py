"""Undo and redo as events: which seqs a ``reverted`` event takes out, which a
``restored`` event puts back. Decided against the log, folded by rules.core."""

from __future__ import annotations

from typing import Mapping, Sequence

from combat_server.errors import reject
from combat_server.rules.core import CONTROL_EVENTS, undone_after
from combat_server.rules.model import JSON, Event, EventDraft, FightState

UNDO_TARGETS = ("last_command", "turn_start", "seq")


def decide_undo(state: FightState, log: Sequence[Event], args: Mapping[str, JSON]) -> EventDraft:
    """Revert the last command, everything since the turn started, or everything after a seq."""
    target = args.get("to", "last_command")
    if target not in UNDO_TARGETS:
        raise reject("undo/bad_target", f"undo to must be one of {', '.join(UNDO_TARGETS)}", field="to")
    undone = undone_after((), log)
    live = [e for e in log if e.type not in CONTROL_EVENTS and e.seq not in undone and e.type != "fight_created"]
    if target == "last_command":
        if not live:
            raise reject("undo/nothing", "there is nothing to undo")
        last = live[-1]
        seqs = [e.seq for e in live if e.command_id == last.command_id] if last.command_id else [last.seq]
    elif target == "turn_start":
        if not state.turn_start_seq:
            raise reject("undo/no_turn", "no turn has started yet")
        seqs = [e.seq for e in live if e.seq > state.turn_start_seq]
    else:
        seq = args.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 1 <= seq <= state.seq:
            raise reject("undo/bad_seq", f"undo to seq needs a seq between 1 and {state.seq}", field="seq")
        seqs = [e.seq for e in live if e.seq > seq]
    if not seqs:
        raise reject("undo/nothing", "there is nothing to undo there")
    reason = args.get("reason", "")
    return EventDraft("reverted", {"seqs": seqs, "to": target, "reason": reason if isinstance(reason, str) else ""})


def decide_redo(log: Sequence[Event]) -> EventDraft:
    """Restore the newest revert not yet restored, if nothing happened since it."""
    restored = {int(e.payload["revert"]) for e in log if e.type == "restored"}
    pending = [e for e in log if e.type == "reverted" and e.seq not in restored]
    if not pending:
        raise reject("redo/nothing", "there is nothing to redo")
    revert = pending[-1]
    undone = undone_after((), log)
    if any(x.seq > revert.seq and x.type not in CONTROL_EVENTS and x.seq not in undone for x in log):
        raise reject(
            "redo/history_moved_on",
            f"events were added after the undo at seq {revert.seq}; undo them first",
            revert=revert.seq,
        )
    return EventDraft("restored", {"revert": revert.seq, "seqs": list(revert.payload["seqs"])})
