"""The fight aggregate: load a fight, decide a command, append, fold, publish.

Dice are drawn here (the edge), handed to the pure ``decide``, and end up inside
the events. Automatic follow-ups run in the same batch: while the new state holds
prompts the ruleset answers by itself (``Ruleset.auto_answer``; GURPS: ``roll``
prompts) and the fight does not use manual dice, the engine sends those answers
(DESIGN.md, flow step 7), with a bound against loops.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import random
import secrets
import threading
import time
import uuid
from collections import OrderedDict
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import attrs
import structlog

from combat_server.canonical import (
    GENESIS_HASH, canonical_json, canonical_plain_bytes, chain_hash, event_hash, plain_json,
)
from combat_server.engine.dice import ManualDice, SeededDice, ServerDice
from combat_server.engine.history import decide_redo, decide_undo
from combat_server.engine.snapshots import StateText
from combat_server.errors import CombatError, Conflict, Corrupt, IntegrityFailure, InvariantBroken, Rejected, reject
from combat_server.rules import core, tools
from combat_server.rules.model import (
    JSON, SYSTEM_ACTOR, Command, DiceSource, Event, EventDraft, FightState, Principal, make_builder,
)
from combat_server.rules.commands import check_command
from combat_server.rules.ruleset import Ruleset, get_ruleset
from combat_server.rules.serialize import state_bytes, state_from_json, state_to_json
from combat_server.store.recorder import SeatRow, Store

log = structlog.get_logger("combat_server.engine")

MAX_AUTO_STEPS = 200
EXPORT_FORMAT = "combat-server/fight-log"


#: Events a page walk explains between two voluntary releases of the GIL: the server runs it in a
#: worker thread, and the event loop would otherwise wait up to CPython's 5 ms switch interval for
#: the GIL each time it wakes (issue 15 item 2; bench/bench_server.py replay).
YIELD_EVERY = 16
#: Tries of one command when other writers keep winning the append (several server processes).
CONFLICT_ATTEMPTS = 10
#: The longest pause between two tries, in seconds (:func:`conflict_pause`).
CONFLICT_PAUSE_CAP = 0.1


def conflict_pause(attempt: int, draw: float) -> float:
    """How long a writer that lost the append ``attempt`` times in a row (1 = the first loss) waits before
    it decides again, given a ``draw`` uniform in [0, 1): none after the first loss, then a random pause
    whose bound doubles with each loss, 4 ms, 8 ms, ... up to :data:`CONFLICT_PAUSE_CAP`.

    Why doubling (CI failure, 2026-11-26): a bound growing by 2 ms per loss let a process whose
    deciding was slow (a loaded machine) lose all ten tries to another process appending a stream
    of commands, each retry deciding again inside the other's stride; with the bound doubling, the
    ten tries span up to about half a second, and the random pause falls out of step with the
    other writer's stride."""
    if attempt <= 1:
        return 0.0
    return draw * min(CONFLICT_PAUSE_CAP, 0.002 * (1 << (attempt - 1)))


#: The server's dice: they keep no state (each roll asks ``secrets``), so one serves every command (issue 16).
_SERVER_DICE = ServerDice()


def command_digest(command: Command) -> str:
    """What a command asks for (type and args), hashed: a retry must ask for the same thing."""
    body = canonical_plain_bytes({"type": command.type, "args": command.args})  # = canonical_bytes(plain_json(..))
    return hashlib.sha256(body).hexdigest()


def iso_utc(ns: int | None = None) -> str:
    """``ns`` nanoseconds since the epoch (default: now, ``time.time_ns()``) as
    ``datetime.isoformat(timespec="microseconds")`` writes a UTC time (``2026-11-26T04:13:52.123456+00:00``),
    microseconds truncated as ``datetime.now`` does. The engine's clock (:data:`utc_now`).

    Why so: ``datetime.now().isoformat()`` was 2% of a command's server CPU (issue 16), so the date and time
    of day are formatted once per second; the microseconds are two looked-up groups of three digits, and
    the clock reads the time itself, one call less per event than a clock calling this (issue 16, server
    CPU, session 13: 5.9 k -> 5.3 k instructions per reading)."""
    global _SECOND
    if ns is None:
        ns = time.time_ns()
    millis, micros = divmod(ns // 1000, 1000)
    seconds, millis = divmod(millis, 1000)
    cached = _SECOND
    if cached[0] != seconds:
        cached = (seconds, dt.datetime.fromtimestamp(seconds, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S."))
        _SECOND = cached
    return cached[1] + _DIGITS[millis] + _DIGITS[micros] + "+00:00"


#: The last second :func:`iso_utc` formatted, and its text (one tuple: threads read it whole).
_SECOND: tuple[int, str] = (-1, "")
#: 0 to 999 written with three digits.
_DIGITS = tuple(["%03d" % n for n in range(1000)])

#: The engine's default clock: the time now, as :func:`iso_utc` writes it.
utc_now: Callable[[], str] = iso_utc


@attrs.frozen
class CommandResult:
    """What a command appended. ``explanations`` and ``states`` (the state right after each event),
    when given, run parallel to ``events``: the server publishes them as they are and never folds
    or explains an event again (issue 16, fold once); a duplicate carries neither."""

    fight_id: str
    first_seq: int
    last_seq: int
    events: tuple[Event, ...]
    state: FightState
    duplicate: bool = False
    explanations: tuple[str, ...] = ()
    states: tuple[FightState, ...] = ()


def _slow_result(**fields: Any) -> CommandResult:
    return CommandResult(**fields)


#: Every command's result, built with every field by name without attrs' frozen ``__init__`` (a bound
#: ``object.__setattr__`` call per field; issue 16, session 11: ``model.make_builder``, as ``Event.made``).
_RESULT: Callable[..., CommandResult] = make_builder(CommandResult) or _slow_result


@attrs.frozen
class LogEntry:
    """One event of a replay, with its explanation and whether it is undone now."""

    event: Event
    explanation: str
    undone: bool
    #: The state right before the event (set by :meth:`Engine.history_page`, for redacted explanations).
    before: FightState | None = attrs.field(default=None, eq=False, repr=False)


@attrs.frozen
class VerifyReport:
    fight_id: str
    events: int
    ok: bool
    bad_seq: int | None = None
    problem: str = ""


class Engine:
    """Owns fight states in memory (an LRU cache) and the path command -> store."""

    def __init__(
        self,
        store: Store,
        *,
        snapshot_every: int = 100,
        cache_size: int = 1024,
        clock: Callable[[], str] = utc_now,
    ) -> None:
        self.store = store
        self.snapshot_every = snapshot_every
        self.cache_size = cache_size
        self.clock = clock
        self._states: OrderedDict[str, tuple[FightState, str]] = OrderedDict()  # state, last hash
        #: fight id -> the texts of the parts of its last snapshot (as many fights as states are cached)
        self._snapshot_texts: OrderedDict[str, StateText] = OrderedDict()
        self._seeds: dict[str, str] = {}
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ create

    def create_fight(
        self,
        ruleset: str,
        *,
        options: Mapping[str, JSON] | None = None,
        dice_mode: str = "server",
        title: str = "",
        seed: str | None = None,
        fight_id: str | None = None,
        actor: Principal = SYSTEM_ACTOR,
        version: str | None = None,
        seats: Sequence[SeatRow] = (),
    ) -> CommandResult:
        rs = get_ruleset(ruleset, version)
        if dice_mode not in core.DICE_MODES:
            raise reject("fight/bad_dice_mode", f"dice mode must be one of {', '.join(core.DICE_MODES)}")
        if not isinstance(title, str) or len(title) > 200:
            raise reject("command/bad_field", "title must be a string of at most 200 characters", field="title")
        opts = rs.validate_options(options or {})
        payload: dict[str, JSON] = {
            "ruleset": rs.name, "ruleset_version": rs.version, "options": opts,
            "dice_mode": dice_mode, "title": title,
        }
        if dice_mode == "seeded":
            payload["seed"] = seed if seed is not None else secrets.token_hex(8)
        fid = fight_id or uuid.uuid4().hex[:16]
        first = self._make_event(fid, 1, GENESIS_HASH, EventDraft("fight_created", payload), actor.seat_id,
                                 "", rs.version)
        self.store.create_fight(first, rs.name, title, seats)
        state = core.fold(rs, [first])
        self._remember(state, first.hash)
        return CommandResult(fid, 1, 1, (first,), state)

    # ------------------------------------------------------------------ load

    def ruleset_of(self, fight_id: str) -> Ruleset:
        with self._lock:
            state = self._states.get(fight_id)
        if state is not None:
            return get_ruleset(state[0].ruleset, state[0].ruleset_version)
        row = self.store.fight(fight_id)
        return get_ruleset(row.ruleset, row.ruleset_version)

    def load(self, fight_id: str) -> FightState:
        return self._load(fight_id)[0]

    def _load(self, fight_id: str) -> tuple[FightState, str]:
        """The cached (state, last hash), loading it on a miss. Safe to call from several
        threads (commands of different fights may run in worker threads); commands of
        one fight are serialised by the caller."""
        with self._lock:
            cached = self._states.get(fight_id)
            if cached is not None:
                self._states.move_to_end(fight_id)
                return cached
        try:
            state, last_hash = self._load_from_store(fight_id)
        except Corrupt as exc:
            log.error("store_corrupt", fight_id=fight_id, seq=exc.details.get("seq"), problem=exc.message)
            raise
        with self._lock:
            cached = self._states.get(fight_id)
            if cached is not None and cached[0].seq >= state.seq:
                # Another thread cached it meanwhile (a read worker loads while the loop appends):
                # never replace a state with an older read of the log.
                return cached
            self._remember_locked(state, last_hash)
        return state, last_hash

    def cached_fights(self) -> list[str]:
        """The fights whose state is cached now."""
        with self._lock:
            return list(self._states)

    def cached_seq(self, fight_id: str) -> int | None:
        """The seq of the cached state of the fight (``None``: not cached); no store access."""
        with self._lock:
            cached = self._states.get(fight_id)
            return None if cached is None else cached[0].seq

    def refresh(self, fight_id: str) -> FightState:
        """The fight with whatever another process appended since it was cached.

        Folds only the new tail onto the cached state (one query) when it is a
        plain continuation; after an undo or redo, or a chain that does not
        continue the cached hash, it reloads from the store.
        """
        return self._refreshed(fight_id)[0]

    def _refreshed(self, fight_id: str) -> tuple[FightState, Sequence[Event] | None]:
        """:meth:`refresh`, and the events it read past the cached state (``None``: nothing was cached, so it
        loaded the fight whole): what another writer appended, which a command's retry checks (its seat's link)."""
        with self._lock:
            cached = self._states.get(fight_id)
        if cached is None:
            return self.load(fight_id), None
        state, last_hash = cached
        tail = self.store.events(fight_id, after=state.seq)
        if not tail:
            return state, tail
        if tail[0].prev_hash != last_hash or any(e.type in core.CONTROL_EVENTS for e in tail):
            self.forget(fight_id)
            return self.load(fight_id), tail
        check_chain(fight_id, tail, last_hash, state.seq)
        fresh = core.fold(get_ruleset(state.ruleset, state.ruleset_version), tail, start=state)
        self._remember(fresh, tail[-1].hash)
        return fresh, tail

    def forget(self, fight_id: str) -> None:
        with self._lock:
            self._states.pop(fight_id, None)
            self._snapshot_texts.pop(fight_id, None)

    def _remember(self, state: FightState, last_hash: str) -> None:
        with self._lock:
            self._remember_locked(state, last_hash)

    def _remember_locked(self, state: FightState, last_hash: str) -> None:
        self._states[state.fight_id] = (state, last_hash)
        self._states.move_to_end(state.fight_id)
        while len(self._states) > self.cache_size:
            gone, _ = self._states.popitem(last=False)
            self._snapshot_texts.pop(gone, None)  # its last snapshot's parts go with its state (a review)

    def _load_from_store(self, fight_id: str, upto: int | None = None, use_snapshots: bool = True) -> tuple[FightState, str]:
        state, last_hash = self._fold_from_store(fight_id, upto, use_snapshots)
        if upto is None:
            self._check_log_end(fight_id, state.seq)
        return state, last_hash

    def _check_log_end(self, fight_id: str, seq: int) -> None:
        """Raise :class:`Corrupt` if the log lost its end: the hash chain of what is left still holds,
        but a command (or the snapshot loaded from) claims events past the log's last seq. Appending
        there would write over the gap and hide it from ``verify`` (#15 item 6, black-box pass)."""
        log_last, commands_last = self.store.log_ends(fight_id)
        if commands_last > log_last or seq > log_last:
            claimed = max(commands_last, seq)
            raise Corrupt(None, f"fight {fight_id} is corrupt at seq {log_last + 1}: events up to seq {claimed} "
                                f"were recorded, the log ends at {log_last}", fight_id=fight_id, seq=log_last + 1)

    def _fold_from_store(self, fight_id: str, upto: int | None, use_snapshots: bool) -> tuple[FightState, str]:
        row = self.store.fight(fight_id)
        rs = get_ruleset(row.ruleset, row.ruleset_version)
        if use_snapshots:
            controls = self.store.control_events(fight_id)
            if upto is not None:
                controls = [c for c in controls if c.seq <= upto]
            usable = [seq for seq, version in reversed(self.store.snapshot_seqs(fight_id))
                      if version == rs.version and (upto is None or seq <= upto)]
            for snap_seq in usable:
                later = [c for c in controls if c.seq > snap_seq]
                if core.touches_before(later, snap_seq):
                    continue
                snapshot = self.store.checked_snapshot(fight_id, snap_seq)  # Corrupt if edited
                if snapshot is None:
                    continue  # none, or written before it carried its hash: refold instead
                data, snap_hash = snapshot
                tail = self.store.events(fight_id, after=snap_seq, upto=upto)
                check_chain(fight_id, tail, snap_hash, snap_seq)
                state = core.fold(rs, tail, start=state_from_json(rs, data))
                return state, tail[-1].hash if tail else snap_hash
        events = self.store.events(fight_id, upto=upto)
        if not events:
            raise reject("fight/unknown", f"fight {fight_id} has no events")
        check_chain(fight_id, events, GENESIS_HASH, 0)
        return core.fold(rs, events), events[-1].hash

    def state_at(self, fight_id: str, seq: int) -> FightState:
        """The fight as it was right after event ``seq`` (undos up to then applied)."""
        if seq < 1:
            raise reject("replay/bad_seq", "seq starts at 1")
        current = self.load(fight_id)
        if seq >= current.seq:
            if seq > current.seq:
                raise reject("replay/bad_seq", f"fight {fight_id} has only {current.seq} events")
            return current
        return self._load_from_store(fight_id, upto=seq)[0]

    # ------------------------------------------------------------------ execute

    def execute(self, fight_id: str, command: Command, faces: Sequence[Sequence[int]] | None = None,
                expect_seq: int | None = None) -> CommandResult:
        """Decide, append and fold one command; retried command ids are answered, not re-applied.

        The commands table's unique (fight, command id) key catches a retry at append
        time, so the common path costs no extra lookup; a retry whose decision is now
        refused (e.g. no longer your turn) is looked up before the refusal is raised.

        ``expect_seq`` is checked on every attempt: after an append conflict the fight
        has moved on (another process won), and deciding again on the refreshed state
        must refuse the command as stale rather than apply it there (#15 item 5).
        """
        for attempt in range(CONFLICT_ATTEMPTS):
            state, last_hash = self._load(fight_id)
            try:
                if expect_seq is not None and expect_seq != state.seq:
                    raise reject("command/stale_seq", f"the fight is at seq {state.seq}, not {expect_seq}",
                                 expected=expect_seq, actual=state.seq)
                events, explanations, states, new_state = self._decide_batch(state, last_hash, command, faces)
                self.store.append(fight_id, state.seq, events, command.command_id, command.actor.seat_id,
                                  command_digest(command))
            except Rejected:
                done = self.store.command_record(fight_id, command.command_id) if command.command_id else None
                if done is not None:
                    return self._duplicate(fight_id, command, done)
                raise
            except Conflict:
                if command.command_id:
                    done = self.store.command_record(fight_id, command.command_id)
                    if done is not None:
                        return self._duplicate(fight_id, command, done)
                if attempt == CONFLICT_ATTEMPTS - 1:
                    self.forget(fight_id)
                    raise
                if attempt and self.store.dialect == "postgresql":
                    # Writers (processes) that keep colliding: a random pause breaks the lockstep. Only on
                    # PostgreSQL, where the server runs the engine in worker threads; on SQLite it runs on
                    # the event loop, which must not sleep.
                    time.sleep(conflict_pause(attempt + 1, random.random()))
                # Another writer (process) got there first: decide again on its result, unless what it wrote
                # replaced this command's seat's link.
                fresh, moved = self._refreshed(fight_id)
                read_after = None if moved is None else moved[0].seq - 1 if moved else fresh.seq
                if read_after != state.seq:  # the cache was not where this attempt began: read what moved
                    moved = self.store.events(fight_id, after=state.seq)
                assert moved is not None
                _refuse_if_link_replaced(moved, command)
                continue
            # A loop, not a generator: a generator costs about 1.5 k instructions to make and run, more than
            # these one-event lists (issue 16, session 12).
            last = events[-1]
            for e in events:
                if e.type in core.CONTROL_EVENTS:
                    self.forget(fight_id)
                    new_state = self.load(fight_id)
                    states[-1] = new_state  # an undo/redo is a batch of one: its state is the refold's
                    break
            else:
                self._remember(new_state, last.hash)
            self._maybe_snapshot(state.seq, new_state, last.hash)
            return _RESULT(fight_id=fight_id, first_seq=events[0].seq, last_seq=last.seq, events=tuple(events),
                           state=new_state, duplicate=False, explanations=tuple(explanations),
                           states=tuple(states))
        raise InvariantBroken(None, "unreachable")

    def _duplicate(self, fight_id: str, command: Command, done: tuple[int, int, str | None]) -> CommandResult:
        """A retry is answered with the original result; the same id for another command is refused."""
        stored = done[2]
        if stored is not None and stored != command_digest(command):
            raise reject("command/id_reused",
                         f"command id {command.command_id.split(':', 1)[-1]!r} was already used for another command "
                         f"(seqs {done[0]}-{done[1]}); send a new id", first_seq=done[0], last_seq=done[1])
        events = self.store.events(fight_id, after=done[0] - 1, upto=done[1])
        return CommandResult(fight_id, done[0], done[1], tuple(events), self.load(fight_id), duplicate=True)

    def dice_for(self, state: FightState, faces: Sequence[Sequence[int]] | None) -> DiceSource:
        if state.dice_mode == "manual":
            return ManualDice(faces or [])
        if faces:
            raise reject("roll/faces_not_allowed", f"this fight rolls its own dice ({state.dice_mode} mode)")
        if state.dice_mode == "seeded":
            seed = str(self._seed(state))
            return SeededDice(seed, state.fight_id, state.seq)
        return _SERVER_DICE

    def _seed(self, state: FightState) -> str:
        seed = self._seeds.get(state.fight_id)
        if seed is None:
            first = self.store.events(state.fight_id, upto=1)[0]
            seed = self._seeds[state.fight_id] = str(first.payload.get("seed", ""))
        return seed

    def _decide_batch(
        self, state: FightState, last_hash: str, command: Command, faces: Sequence[Sequence[int]] | None
    ) -> tuple[list[Event], list[str], list[FightState], FightState]:
        """The command's events, their explanations and the state right after each (three parallel lists:
        the result's own fields, without a list of triples to take apart; issue 16, server CPU, session 13),
        and the state after them all (for an undo/redo: the state before it; the caller reloads)."""
        rs = get_ruleset(state.ruleset, state.ruleset_version)
        dice = self.dice_for(state, faces)
        if command.type in ("undo", "redo"):
            check_command(core.CORE_SPECS[command.type], state, command)
            fid = state.fight_id

            def read(after: int) -> list[Event]:
                return self.store.events(fid, after=after)

            draft = (decide_undo(state, read, command.args) if command.type == "undo"
                     else decide_redo(state, self.store.control_events(fid), read))
            event = self._make_event(state.fight_id, state.seq + 1, last_hash, draft, command.actor.seat_id,
                                     command.command_id, state.ruleset_version)
            return [event], [core.explain(rs, state, event)], [state], state
        drafts = core.decide(rs, state, command, dice)
        batch: tuple[list[Event], list[str], list[FightState]] = ([], [], [])
        state, last_hash = self._fold_drafts(rs, state, last_hash, drafts, command, batch)
        if command.type in core.CORE_COMMANDS:  # the ruleset settles what a core command changed (G-19)
            settled = rs.follow_up(state, dice)
            if settled:  # mostly nothing to fold (issue 16, server CPU, session 13: a call less per adjust)
                state, last_hash = self._fold_drafts(rs, state, last_hash, settled, command, batch)
        steps = 0
        while state.dice_mode != "manual" and state.prompts:  # manual dice: people roll, so people answer
            answer = next((a for a in (rs.auto_answer(state, p) for p in state.prompts) if a is not None), None)
            if answer is None:
                break
            steps += 1
            if steps > MAX_AUTO_STEPS:
                raise InvariantBroken(None, f"automatic rolls did not settle after {MAX_AUTO_STEPS} steps")
            auto = attrs.evolve(answer, actor=SYSTEM_ACTOR, command_id=command.command_id)
            drafts = core.decide(rs, state, auto, dice)
            state, last_hash = self._fold_drafts(rs, state, last_hash, drafts, command, batch)
        if isinstance(dice, ManualDice) and dice.unused():
            raise reject("roll/unused_faces", f"{dice.unused()} group(s) of dice faces were not needed")
        if not batch[0]:
            raise InvariantBroken(None, f"command {command.type} produced no events")
        return batch[0], batch[1], batch[2], state

    def _fold_drafts(
        self, rs: Ruleset, state: FightState, last_hash: str, drafts: Iterable[EventDraft], command: Command,
        out: tuple[list[Event], list[str], list[FightState]],
    ) -> tuple[FightState, str]:
        events, explanations, states = out
        for draft in drafts:
            event = self._make_event(state.fight_id, state.seq + 1, last_hash, draft, command.actor.seat_id,
                                     command.command_id, state.ruleset_version)
            explanation = core.explain(rs, state, event)
            # Folded once: a draft the kit's Batch folded from this very state carries the state after it.
            state = draft.after if draft.after is not None and draft.before is state else core.apply(rs, state, event)
            events.append(event)
            explanations.append(explanation)
            states.append(state)
            last_hash = event.hash
        return state, last_hash

    def _make_event(
        self, fight_id: str, seq: int, prev_hash: str, draft: EventDraft, actor: str, command_id: str, version: str
    ) -> Event:
        # Plain already: the kit's Batch made it so, or its decider says so (core's adjust; issue 16).
        payload = draft.payload if draft.plain or draft.after is not None else plain_json(draft.payload)
        recorded_at = self.clock()
        # Event.canonical()'s dict, built directly: one Event per draft, not two (issue 16, server CPU).
        body = {"fight_id": fight_id, "seq": seq, "type": draft.type, "payload": payload, "actor": actor,
                "command_id": command_id, "recorded_at": recorded_at, "ruleset_version": version}
        digest, payload_text = event_hash(prev_hash, body)  # the payload written once, for the hash and the row
        return Event.made(fight_id, seq, draft.type, payload, actor, command_id, recorded_at, version, prev_hash,
                          digest, payload_text)

    def _maybe_snapshot(self, before: int, state: FightState, last_hash: str) -> None:
        n = self.snapshot_every
        if n > 0 and state.seq // n > before // n:
            # The text of the state's parts that are the same objects as at the fight's last snapshot is
            # written again only for the others (issue 16, session 14: :class:`StateText`).
            self.store.save_snapshot_text(state.fight_id, state.seq, state.ruleset_version,
                                          self._snapshot_text(state.fight_id).of(state), last_hash)

    def _snapshot_text(self, fight_id: str) -> StateText:
        """The fight's :class:`StateText`, kept for as many fights as states are cached (commands of one fight
        are serialised by the caller, so one writer is never used by two threads at once)."""
        with self._lock:
            texts = self._snapshot_texts
            writer = texts.get(fight_id)
            if writer is None:
                writer = texts[fight_id] = StateText()
                while len(texts) > self.cache_size:
                    texts.popitem(last=False)
            else:
                texts.move_to_end(fight_id)
            return writer

    # ------------------------------------------------------------------ preview

    def preview(self, fight_id: str, command: Command) -> dict[str, JSON]:
        """What a command would roll against, before anyone rolls: the effective number
        with every modifier, its reason and rule id, exactly as the rules would record it
        (``Ruleset.preview``). Nothing is appended; an illegal command is refused with the
        same error it would get for real.
        """
        state = self.load(fight_id)
        rs = get_ruleset(state.ruleset, state.ruleset_version)
        core.check(rs, state, command)
        found = rs.preview(state, command)
        if found is None:
            raise reject("preview/nothing_to_roll", f"{command.type} makes no roll to preview")
        return dict(found)

    # ------------------------------------------------------------------ GM tools

    def calculate(self, fight_id: str, principal: Principal, tool: str, inputs: Mapping[str, JSON],
                  combatant: str | None = None) -> dict[str, JSON]:
        """Run one of the fight's ruleset's tools read-only (#12): the inputs, the steps with
        their rule ids, the result and a summary. Nothing is rolled or appended; applying
        the result is the ruleset's own command (an event like any other).
        """
        state = self.load(fight_id)
        rs = get_ruleset(state.ruleset, state.ruleset_version)
        calc = tools.calculate(rs, state, principal, tool, inputs, combatant)
        out = calc.to_json()
        if combatant is not None:
            out["combatant"] = combatant
        if calc.harm is not None and rs.tool_apply_command:
            out["apply"] = rs.tool_apply_command
        return out

    # ------------------------------------------------------------------ replay

    def history(self, fight_id: str, upto: int | None = None) -> list[LogEntry]:
        """The whole log with one explanation per event; undone events are marked, not hidden."""
        events = self.store.events(fight_id, upto=upto)
        rs = self.ruleset_of(fight_id)
        undone = core.undone_after((), events)
        return [LogEntry(e, core.explain(rs, before, e), e.seq in undone) for e, before, _ in core.walk(rs, events)]

    def history_page(self, fight_id: str, after: int, upto: int, limit: int) -> list[LogEntry]:
        """At most ``limit`` events of (after, upto], each with its explanation, the state right
        before it, and whether it is undone as of ``upto``.

        Why not :meth:`history`: that folds and explains the whole log, so one
        event of a 73,000-event fight cost seconds (issue 15 item 2). A page
        costs the page: the state before it and the state at ``upto`` come from
        the nearest snapshots (:meth:`state_at`), then the page is read by seq
        range and walked, the same walk :func:`core.walk` makes over a whole log.
        """
        events = self.store.events_page(fight_id, after, upto, limit)
        if not events:
            return []
        rs = self.ruleset_of(fight_id)
        undone = frozenset(self.state_at(fight_id, upto).undone)
        first = events[0]
        before = core.fold(rs, [first]) if first.seq <= 1 else self.state_at(fight_id, first.seq - 1)
        out: list[LogEntry] = []
        for i, e in enumerate(events, start=1):
            out.append(LogEntry(e, core.explain(rs, before, e), e.seq in undone, before))
            if i % YIELD_EVERY == 0:
                time.sleep(0)  # let the server's event loop have the GIL (this runs in a read worker)
            before = self.state_after(before, e)
        return out

    def state_after(self, before: FightState, event: Event) -> FightState:
        """The state right after a stored ``event``, from the state right before it: applied
        in memory, except where an undo or redo rewrote history (then read back from the store)."""
        rs = get_ruleset(before.ruleset, before.ruleset_version)
        if event.seq <= 1:
            return core.fold(rs, [event])
        if event.type in core.CONTROL_EVENTS:
            return self.state_at(event.fight_id, event.seq)
        return core.apply(rs, before, event)

    # ------------------------------------------------------------------ fork / export / import

    def fork(self, fight_id: str, seq: int, new_fight_id: str | None = None) -> CommandResult:
        """A new fight whose log is this one's up to ``seq``: 'what if' from any point."""
        source = self.store.events(fight_id, upto=seq)
        if not source or source[-1].seq != seq:
            raise reject("fork/bad_seq", f"fight {fight_id} has no event {seq}")
        fid = new_fight_id or uuid.uuid4().hex[:16]
        prev = GENESIS_HASH
        out: list[Event] = []
        for e in source:
            payload = dict(e.payload)
            if e.seq == 1:
                payload["forked_from"] = {"fight_id": fight_id, "seq": seq, "hash": source[-1].hash}
            body = Event(fid, e.seq, e.type, payload, e.actor, e.command_id, e.recorded_at, e.ruleset_version, prev, "")
            body = attrs.evolve(body, hash=chain_hash(prev, body.canonical()))
            out.append(body)
            prev = body.hash
        row = self.store.fight(fight_id)
        self.store.import_events(out, row.ruleset, f"{row.title} (fork at {seq})".strip())
        state = self.load(fid)
        return CommandResult(fid, 1, seq, tuple(out), state)

    def export_lines(self, fight_id: str) -> Iterator[str]:
        row = self.store.fight(fight_id)
        yield canonical_json({"format": EXPORT_FORMAT, "version": 1, "fight_id": fight_id, "ruleset": row.ruleset,
                              "ruleset_version": row.ruleset_version, "title": row.title, "events": row.last_seq})
        # Up to the seq the header counts: events recorded while the export runs belong to a later export.
        for e in self.store.iter_events(fight_id, upto=row.last_seq):
            yield canonical_json(e.to_dict())

    def import_lines(self, lines: Iterable[str]) -> str:
        """Import an exported log; all-or-nothing, hashes and states reproduced exactly.

        All or nothing also means the whole log: a file cut short at a line boundary still verifies (each
        event's hash covers only what came before it), so its header's event count is what tells it is not
        the whole fight (``import/truncated``).
        """
        header: dict[str, Any] | None = None
        events: list[Event] = []
        for lineno, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError as exc:
                raise reject("import/bad_json", f"line {lineno}: not valid JSON ({exc})", line=lineno) from None
            except RecursionError:
                raise reject("import/bad_json", f"line {lineno}: nested too deeply to be a fight log",
                             line=lineno) from None
            if header is None:
                header = _export_header(data, lineno)
                continue
            try:
                events.append(Event.from_dict(data))
            except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
                raise reject("import/bad_event", f"line {lineno}: not an event ({_why(exc)})", line=lineno) from None
        if header is None:
            raise reject("import/empty", "the file holds no fight log")
        expected = int(header["events"])
        if len(events) < expected:  # more is an export read while the fight went on (before they stopped at the count)
            raise reject("import/truncated", f"the header says {expected} events, the file holds {len(events)}: "
                         "it was cut short", expected=expected, found=len(events))
        fight_id = str(header["fight_id"])
        try:
            report = verify_events(events, fight_id)
        except RecursionError:  # a payload nested deeper than any event the rules write
            raise reject("import/bad_event", "an event's payload is nested too deeply to be a fight log") from None
        if not report.ok:
            raise reject("import/corrupt", f"event {report.bad_seq}: {report.problem}", seq=report.bad_seq)
        # The ruleset and title the fight is stored under are the chained log's own (its fight_created), not the
        # header's, which nothing checks: a header edited to another ruleset left a fight nothing could load.
        created = events[0].payload
        ruleset, title = str(created.get("ruleset", "")), str(created.get("title", ""))
        if events[0].type != "fight_created" or not ruleset:
            raise reject("import/corrupt", "event 1: the log does not start with the fight's creation", seq=1)
        if header["ruleset"] != ruleset:
            raise reject("import/bad_header", f"the header says ruleset {json.dumps(header['ruleset'])}, the log "
                         f"was written by {json.dumps(ruleset)}", field="ruleset")
        self.store.import_events(events, ruleset, title)
        return fight_id

    # ------------------------------------------------------------------ verify

    def verify(self, fight_id: str) -> VerifyReport:
        """The chain, the fold, the commands table and every snapshot of the fight, as stored."""
        try:
            events = self.store.events(fight_id)
        except Corrupt as exc:
            return VerifyReport(fight_id, 0, False, exc.details.get("seq"), exc.message)
        report = verify_events(events, fight_id)
        if not report.ok:
            return report
        last = events[-1].seq
        claimed = self.store.commands_last_seq(fight_id)
        if claimed > last:  # the log lost its end: a command says it produced events that are not there
            return VerifyReport(fight_id, len(events), False, last + 1,
                                f"the commands table records events up to seq {claimed}, the log ends at {last}")
        for snap_seq, _ in self.store.snapshot_seqs(fight_id):
            if snap_seq > last:
                return VerifyReport(fight_id, len(events), False, snap_seq, "a snapshot past the end of the log")
            try:
                checked = self.store.checked_snapshot(fight_id, snap_seq)
            except Corrupt as exc:
                return VerifyReport(fight_id, len(events), False, snap_seq, exc.message)
            if checked is not None and checked[1] != events[snap_seq - 1].hash:
                return VerifyReport(fight_id, len(events), False, snap_seq,
                                    "the snapshot's hash is not the hash of its event")
        rs = self.ruleset_of(fight_id)
        snapshots = dict(self.store.snapshots(fight_id, rs.version))
        if snapshots:  # one refold of the log, checked at every snapshot in seq order
            for event, _, after in core.walk(rs, events):
                data = snapshots.get(event.seq)
                if data is not None and state_bytes(state_from_json(rs, data)) != state_bytes(after):
                    return VerifyReport(fight_id, len(events), False, event.seq,
                                        "stored snapshot differs from the refold")
        return report


def check_chain(fight_id: str, events: Sequence[Event], prev_hash: str, prev_seq: int) -> None:
    """Raise :class:`Corrupt` naming the first of ``events`` (read from the store, following
    seq ``prev_seq`` whose hash is ``prev_hash``) that does not continue the hash chain: a log
    edited in the database is refused on load instead of served and appended to (#15 item 6)."""
    for e in events:
        problem = ""
        if e.seq != prev_seq + 1:
            problem = f"seq {e.seq} where {prev_seq + 1} was expected"
        elif e.prev_hash != prev_hash:
            problem = "prev_hash does not match the previous event"
        elif chain_hash(prev_hash, e.canonical()) != e.hash:
            problem = "hash does not match the event's content"
        if problem:
            raise Corrupt(None, f"fight {fight_id} is corrupt at seq {prev_seq + 1}: {problem}",
                          fight_id=fight_id, seq=prev_seq + 1)
        prev_hash, prev_seq = e.hash, e.seq


def verify_events(events: Sequence[Event], fight_id: str) -> VerifyReport:
    """Recompute the chain and the fold; report the first seq that does not hold."""
    prev = GENESIS_HASH
    if not events:
        return VerifyReport(fight_id, 0, False, 1, "no events")
    try:
        rs = get_ruleset(str(events[0].payload.get("ruleset")), str(events[0].payload.get("ruleset_version")))
    except (Rejected, AttributeError):
        return VerifyReport(fight_id, len(events), False, 1, "fight_created names no known ruleset")
    walker = core.walk(rs, events)
    for i, e in enumerate(events, start=1):
        if e.fight_id != fight_id:
            return VerifyReport(fight_id, len(events), False, e.seq, f"belongs to fight {e.fight_id}")
        if e.seq != i:
            return VerifyReport(fight_id, len(events), False, i, f"seq {e.seq} where {i} was expected (gap)")
        if e.prev_hash != prev:
            return VerifyReport(fight_id, len(events), False, e.seq, "prev_hash does not match the previous event")
        if chain_hash(prev, e.canonical()) != e.hash:
            return VerifyReport(fight_id, len(events), False, e.seq, "hash does not match the event's content")
        prev = e.hash
        if i == 1 and e.type != "fight_created":
            return VerifyReport(fight_id, len(events), False, 1, "the log does not start with fight_created")
        try:
            next(walker)  # folds this event (in seq order, so the first bad seq is the one reported)
        except (CombatError, KeyError, TypeError, ValueError, AttributeError, AssertionError) as exc:
            return VerifyReport(fight_id, len(events), False, e.seq, f"does not fold: {exc!r}")
    return VerifyReport(fight_id, len(events), True)


#: The export format's versions this engine reads (``export_lines`` writes the last).
EXPORT_VERSIONS = (1,)


def _export_header(data: Any, lineno: int) -> dict[str, Any]:
    """The first line of an exported log, checked: each field the import reads, of the type it needs, named
    when it is missing or wrong, never a ``KeyError``."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise reject("import/bad_header", f"line {lineno}: not a combat-server fight log", line=lineno)
    version = data.get("version")
    if type(version) is not int or version not in EXPORT_VERSIONS:
        raise reject("import/bad_version", f"line {lineno}: fight log version {json.dumps(version)}; this server "
                     f"reads version {', '.join(map(str, EXPORT_VERSIONS))}", line=lineno, version=version)
    wanted = {"fight_id": str, "ruleset": str, "events": int}
    for field, kind in wanted.items():
        value = data.get(field)
        if type(value) is not kind or not value or (isinstance(value, int) and value < 1):
            what = "a non-empty text" if kind is str else "a whole number of events, at least 1"
            raise reject("import/bad_header", f"line {lineno}: the header's {field} must be {what}, not "
                         f"{json.dumps(value)}", line=lineno, field=field)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise reject("import/bad_header", f"line {lineno}: the header's title must be a text", line=lineno,
                     field="title")
    return {**data, "title": title}


def _why(exc: BaseException) -> str:
    """An import refusal's reason in plain words, not a Python exception's repr."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if isinstance(exc, KeyError):
        return f"it has no {exc.args[0]!s}" if exc.args else "a field is missing"
    return str(exc)


def _refuse_if_link_replaced(moved: Sequence[Event], command: Command) -> None:
    """``auth/link_replaced`` when what another writer appended meanwhile replaced the link of the seat that
    sent ``command`` (``links_reissued``: ``combat-server links``, or another process's ``new_link``).

    Why here: the command was read before this process could know (a SQLite server learns of the command
    line's writes within half a second, a peer's within a notification), and its append is where the move
    shows first; deciding again would let a revoked link act once more."""
    seat = command.actor.seat_id
    for e in moved:
        if e.type == "links_reissued" and seat in (e.payload.get("seats") or ()):
            raise reject("auth/link_replaced", "this seat's link was replaced while the command was on its way "
                         "(ask the GM for the new link)", seat=seat)
