"""One fight's live side: the lock that serialises its commands, its subscribers,
and the ordered, gapless publication of its events.

Rules of this module (everything that affects delivery order lives here):

1. Every change to the fight's log and every change to its subscriber set happens
   while holding :attr:`FightHub.lock`, so a subscriber is handed the catch-up and
   then the live events without a gap or a repeat.
2. Events are published only after the engine returned, i.e. after they were
   appended to the store (append first, then publish; DESIGN.md flow step 6).
3. Publishing never awaits: each message is put in the subscriber's bounded
   queue. A subscriber whose queue is full is dropped (and disconnected by its
   connection with close code 4008), so one slow client never delays another.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any, Callable, Protocol, Sequence

import attrs
import orjson
import structlog

from combat_server.canonical import GENESIS_HASH
from combat_server.engine.fight import CommandResult, Engine
from combat_server.rules import core
from combat_server.rules.describe import encode as encode_description
from combat_server.rules.describe import fields_of
from combat_server.rules.model import Event, FightState, Principal
from combat_server.rules.ruleset import Ruleset, get_ruleset
from combat_server.server.protocol import dumps
from combat_server.patch import ViewHasher, diff, to_wire
from combat_server.server.views import (
    GM_VIEW, NOTHING_HIDDEN, ViewBuilder, event_view, full_state, hidden_during, hidden_ids, hidden_key, may_hide,
    payload_view, seat_hidden, state_view, view_key, visible_to, with_hidden_as_now,
)

log = structlog.get_logger("combat_server.server.hub")

#: How many recent events (with their explanations) a hub keeps for fast catch-up.
RECENT_EVENTS = 1024
#: Catch-up items per message (and per store read of a catch-up page).
BATCH_ITEMS = 500
#: Most events in one ``replay`` reply; the default page (docs/protocol.md).
MAX_PAGE = 1000


@attrs.frozen
class Seat:
    """A seat as the server holds it (the token itself is never kept, only its hash)."""

    fight_id: str
    seat_id: str
    role: str
    label: str = ""
    combatants: tuple[str, ...] = ()

    def actor(self) -> Principal:
        return Principal.of_seat(self.seat_id, self.role, self.combatants, self.label)

    def to_json(self) -> dict[str, Any]:
        return {"seat_id": self.seat_id, "role": self.role, "label": self.label, "combatants": list(self.combatants)}


class Subscriber(Protocol):
    seat: Seat | None
    #: Whether it asked for what checking the hash chain takes (``subscribe.chain``, protocol 4).
    chain: bool

    def deliver(self, text: str) -> bool:
        """Queue one encoded message; ``False`` if the subscriber fell too far behind."""

    def drop_too_slow(self) -> None:
        """Disconnect: it will catch up when it reconnects."""


@attrs.define
class _Entry:
    """One published event, with its explanation and its item JSON per view (lazily).

    ``before`` is the state right before the event, kept while some combatant is
    hidden: views that may not see a hidden sheet get an explanation computed
    from it without that combatant's numbers (``None``: refolded when needed).
    ``hidden``: the combatants hidden at this event (:func:`hidden_during`;
    ``None``: not known yet, see :meth:`FightHub._fill_hidden`).
    """

    event: Event
    explanation: str
    before: FightState | None = None
    hidden: frozenset[str] | None = None
    fragments: dict[str, str] = attrs.field(factory=dict)


_dumps = dumps


def _dumps_description(value: Any) -> str:
    """Compact JSON of a description's parts (orjson walks them, calling ``fields_of`` per object)."""
    return orjson.dumps(value, default=fields_of).decode("utf-8")


class FightHub:
    def __init__(self, engine: Engine, fight_id: str,
                 on_revoked: Callable[[str, Sequence[Subscriber]], None] | None = None) -> None:
        self.engine = engine
        self.fight_id = fight_id
        #: Called with the fight and the subscribers whose seat a ``links_reissued`` from elsewhere revoked (see
        #: :meth:`_push_from_store`); the server closes them (CLOSE_LINK_REPLACED).
        self.on_revoked = on_revoked
        self.lock = asyncio.Lock()
        self.subscribers: list[Subscriber] = []
        self._recent: deque[_Entry] = deque(maxlen=RECENT_EVENTS)
        self._fid_json = _dumps(fight_id)
        self._builder = ViewBuilder()
        self._derived = self._builder.derived
        #: view_hash of the views built, re-encoding only the combatants that changed (issue 16, server CPU).
        self._hash = ViewHasher()
        #: Views of ``synced_state`` built so far, by what they hide (:func:`seat_hidden` of the hidden ones), with their hash.
        self._views: dict[frozenset[str], tuple[dict[str, Any], str]] = {}
        self._synced = engine.load(fight_id)
        #: :func:`hidden_ids` of ``synced_state`` once a push asked (``None``: not asked since it was set).
        self._synced_hidden: frozenset[str] | None = None
        #: Per subscriber (by id): what the view it holds hides; its next patch starts from that view.
        self._holds: dict[int, frozenset[str]] = {}
        #: Per subscriber (by id): the description text it was last sent; a push sends only a changed one.
        self._described: dict[int, str] = {}

    # ------------------------------------------------------------------ helpers

    def state(self) -> FightState:
        return self.engine.load(self.fight_id)

    def ruleset(self) -> Ruleset:
        s = self.state()
        return get_ruleset(s.ruleset, s.ruleset_version)

    def _item(self, entry: _Entry, hidden: frozenset[str], state: FightState) -> str:
        """The item JSON (without braces) of an event for a seat that may not see ``hidden``; shared when it can be.

        ``hidden``: :func:`seat_hidden` of the entry's own hidden set (and, on
        catch-up and replay, of those hidden now); ``state`` names the combatants
        of redacted prompts.
        """
        e = entry.event
        cache_key = ",".join(sorted(hidden)) if hidden else "*"
        frag = entry.fragments.get(cache_key)
        if frag is None:
            explanation = entry.explanation
            if hidden:
                explanation = self._explain(entry, hidden)
                if explanation == entry.explanation and payload_view(e, state, hidden) is e.payload:
                    frag = self._item(entry, frozenset(), state)  # nothing to hide here: share the full text
                    entry.fragments[cache_key] = frag
                    return frag
            frag = (f'"seq":{e.seq},"event":{_dumps(event_view(e, state, hidden))},'
                    f'"explanation":{_dumps(explanation)}')
            entry.fragments[cache_key] = frag
        return frag

    def _live_item(self, entry: _Entry, hidden: frozenset[str], state: FightState, chain: bool) -> str:
        """The live push's fields (without braces) of an event for a seat that may not see ``hidden``.

        The pushed record leaves out what the client already holds or derives (protocol 3, issue 16):
        ``fight_id`` (its subscription's), ``seq`` (the push's), ``ruleset_version`` (its view's) and
        ``prev_hash`` (the previous event's ``hash``; ``subscribed.last_hash`` for the first live one).
        Protocol 4: only a subscriber that asked for the chain (``subscribe.chain``) gets what checking
        it takes (``command_id``, ``recorded_at``, ``hash``: 140 of a one-HP push's 460 bytes); the
        others get what clients show: what happened (``type``, ``payload``) and who did it (``actor``),
        so a push fits in 300 bytes whatever the fight's size.
        """
        if hidden:
            cache_key = ("chain:" if chain else "live:") + ",".join(sorted(hidden))
        else:  # the usual push: the key written once (issue 16)
            cache_key = "chain:*" if chain else "live:*"
        frag = entry.fragments.get(cache_key)
        if frag is None:
            e = entry.event
            shown = payload_view(e, state, hidden) if hidden else e.payload
            payload = e.payload if shown is e.payload else dict(shown)  # the same redaction as event_view
            if chain:
                data: dict[str, Any] = {"type": e.type, "payload": payload, "actor": e.actor,
                                        "command_id": e.command_id, "recorded_at": e.recorded_at, "hash": e.hash}
            else:
                data = {"type": e.type, "payload": payload, "actor": e.actor}
            explanation = self._explain(entry, hidden) if hidden else entry.explanation
            try:  # the three fields in one encoding (issue 16); _dumps's own fallback for what orjson refuses
                frag = orjson.dumps({"seq": e.seq, "event": data, "explanation": explanation},
                                    option=orjson.OPT_NON_STR_KEYS).decode("utf-8")[1:-1]
            except TypeError:
                frag = f'"seq":{e.seq},"event":{_dumps(data)},"explanation":{_dumps(explanation)}'
            entry.fragments[cache_key] = frag
        return frag

    def last_hash(self) -> str:
        """The ``hash`` of the event at :attr:`synced_seq` (:data:`GENESIS_HASH` before the first): the ``prev_hash``
        of the next live push, which a client rebuilds from it (``subscribed.last_hash``, protocol 3)."""
        seq = self.synced_seq
        if self._recent and self._recent[-1].event.seq == seq:
            return self._recent[-1].event.hash
        if seq == 0:
            return GENESIS_HASH
        return self.engine.store.events(self.fight_id, after=seq - 1, upto=seq)[0].hash

    def _explain(self, entry: _Entry, hidden: frozenset[str]) -> str:
        """The event's explanation without the numbers of the ``hidden`` combatants' sheets."""
        if entry.before is None:
            entry.before = self._state_before(entry.event)
        return core.explain(self.ruleset(), entry.before, entry.event, hidden)

    def _state_before(self, event: Event) -> FightState:
        if event.seq <= 1:
            return core.fold(self.ruleset(), [event])  # as Engine.history explains the first event
        return self.engine.state_at(self.fight_id, event.seq - 1)

    def _fill_hidden(self, entries: Sequence[_Entry], hidden_now: frozenset[str]) -> None:
        """Give every entry its hidden set (and its state before, to explain it redacted), walking forward
        from the first entry that lacks either.

        ``hidden_now``: what the reader may not see now (every entry is then explained
        redacted). Without it, a stretch of the log where nothing was hidden
        (:func:`may_hide`) skips the walk. Touches only ``entries`` (runs in a read
        worker for pages read from the store).
        """
        missing = next((i for i, en in enumerate(entries)
                        if en.hidden is None or ((hidden_now or en.hidden) and en.before is None)), None)
        if missing is None:
            return
        first = entries[missing]
        state = first.before if first.before is not None else self._state_before(first.event)
        if not hidden_now and not may_hide(state, (en.event for en in entries[missing:])):
            for en in entries[missing:]:
                en.hidden = frozenset() if en.hidden is None else en.hidden
            return
        for i in range(missing, len(entries)):
            en = entries[i]
            if en.before is None:
                en.before = state
            following = entries[i + 1].before if i + 1 < len(entries) else None
            state = following if following is not None else self.engine.state_after(en.before, en.event)
            if en.hidden is None:
                en.hidden = hidden_during(en.before, state)

    def _seat_hidden(self, seat: Seat, entry: _Entry, hidden_now: frozenset[str]) -> frozenset[str]:
        """What ``seat`` may not see of ``entry``: hidden at its event or now, but not its own combatants."""
        return seat_hidden(seat.role, seat.combatants, (entry.hidden or frozenset()) | hidden_now)

    def _items(self, seat: Seat, entries: Sequence[_Entry], now: FightState) -> list[str]:
        """The entries' item JSON for ``seat``: each hides what was hidden at its event or is hidden now."""
        if seat.role == "gm":
            return [self._item(e, frozenset(), now) for e in entries]
        hidden_now = hidden_ids(now)
        self._fill_hidden(entries, seat_hidden(seat.role, seat.combatants, hidden_now))
        return [self._item(e, self._seat_hidden(seat, e, hidden_now), now) for e in entries]

    def _groups(self, hidden: frozenset[str]) -> dict[str, list[Subscriber]]:
        """The subscribers by what they see of an event that hides ``hidden`` (and of the state after it)."""
        if not hidden:
            return {GM_VIEW: list(self.subscribers)}  # every seat sees everything: one view
        groups: dict[str, list[Subscriber]] = {}
        for sub in self.subscribers:
            seat = sub.seat
            assert seat is not None
            groups.setdefault(hidden_key(seat.role, seat.combatants, hidden), []).append(sub)
        return groups

    def _view(self, rs: Ruleset, state: FightState, hidden: frozenset[str]) -> tuple[dict[str, Any], str]:
        """The view of ``state`` (the synced one) that hides ``hidden``, and its hash; built once per push."""
        hit = self._views.get(hidden)
        if hit is None:
            view = self._builder.view(rs, state, hidden)
            hit = self._views[hidden] = (view, self._hash(view))
        return hit

    def live_view(self, sub: Subscriber) -> tuple[int, dict[str, Any], str]:
        """The seq the subscribers are at, ``sub``'s view there and its hash (``subscribed`` and ``view``):
        the view its next patch starts from (protocol 2, issue 16)."""
        seat = sub.seat
        assert seat is not None
        state = self.synced_state
        hidden = seat_hidden(seat.role, seat.combatants, hidden_ids(state))
        view, digest = self._view(get_ruleset(state.ruleset, state.ruleset_version), state, hidden)
        self._holds[id(sub)] = hidden
        return state.seq, view, digest

    # ------------------------------------------------------------------ publish (lock held)

    def publish(self, result: CommandResult, before: FightState) -> None:
        """Push each new event with the state right after it to every subscriber, in order.

        If another server process appended to this fight since this hub last
        published (several processes on one PostgreSQL), the engine's append
        retried on the fresh log, so ``result`` starts after events the
        subscribers have not seen: those are pushed first, from the store.
        """
        assert self.lock.locked(), "publish only while holding the fight lock"
        if result.first_seq - 1 > self.synced_seq:
            before = self._push_from_store(result.first_seq - 1)
        self._push(before, result.events, result.explanations, result.states or (result.state,))

    def catch_up(self, state: FightState, events: Sequence[Event] | None = None) -> None:
        """Push what other processes appended up to ``state`` (the engine's fresh state), in order.

        ``events``: the stored events (synced_seq, state.seq] if the caller already
        read them (off the loop).
        """
        assert self.lock.locked(), "catch up only while holding the fight lock"
        if state.seq > self.synced_seq:
            self._push_from_store(state.seq, state, events)

    @property
    def synced_state(self) -> FightState:
        """The last state pushed to the subscribers (each got every event up to its seq)."""
        return self._synced

    @synced_state.setter
    def synced_state(self, state: FightState) -> None:
        self._synced = state
        self._synced_hidden = None
        self._views = {}

    @property
    def synced_seq(self) -> int:
        return self.synced_state.seq

    def _push_from_store(self, upto: int, final: FightState | None = None,
                         events: Sequence[Event] | None = None) -> FightState:
        """Push the stored events (synced_seq, upto]; returns the state after ``upto``.

        ``final``, ``events``: that state and those events, if the caller has them.
        A hub nobody watches just moves on to ``upto`` (the catch-up cache restarts
        there; a later subscriber's catch-up reads the store).
        """
        if not self.subscribers:
            self._recent.clear()
            self.synced_state = final if final is not None else self.engine.state_at(self.fight_id, upto)
            return self.synced_state
        if not events or events[0].seq != self.synced_seq + 1 or events[-1].seq != upto:
            events = self.engine.store.events(self.fight_id, after=self.synced_seq, upto=upto)
        after = self._push(self.synced_state, events, (), [*([None] * (len(events) - 1)), final])
        self._revoke(events)
        return after

    def _revoke(self, events: Sequence[Event]) -> None:
        """Hand on the subscribers whose seat one of ``events`` revoked (``links_reissued``).

        Why only here: these events come from the store, appended elsewhere (another server process, or
        ``combat-server links`` on the same database), where nobody could close this process's connections
        opened with the old links. A link this process replaces (``new_link``) closes its own connections
        once the new token is stored (connection.py)."""
        if self.on_revoked is None:
            return
        seats = {str(s) for e in events if e.type == "links_reissued" for s in e.payload.get("seats") or ()}
        if seats:
            revoked = [sub for sub in self.subscribers if sub.seat is not None and sub.seat.seat_id in seats]
            if revoked:
                self.on_revoked(self.fight_id, revoked)

    def _push(self, before: FightState, events: Sequence[Event], explanations: Sequence[str],
              states: Sequence[FightState | None]) -> FightState:
        """Push ``events`` (consecutive, starting right after ``before``); returns the state after the last.

        ``explanations`` and ``states`` (the state right after each event, as the
        engine folded them: issue 16, fold once) are used as given; a missing one
        (events read back from the store) is explained or folded here.
        """
        if not events:
            return before
        rs = get_ruleset(before.ruleset, before.ruleset_version)
        if self._recent and self._recent[-1].event.seq != events[0].seq - 1:
            self._recent.clear()  # never leave a gap in the catch-up cache
        state = before
        dropped: list[Subscriber] = []
        for i, event in enumerate(events):
            prev = state
            given = states[i] if i < len(states) else None
            state = given if given is not None else self.engine.state_after(state, event)
            explanation = explanations[i] if i < len(explanations) else core.explain(rs, prev, event)
            hidden_now = hidden_ids(state)
            if prev is self._synced and self._synced_hidden is not None and not self._synced_hidden:
                hidden = hidden_now  # nobody hidden before it, so nobody hidden and gone (hidden_during, issue 16)
            else:
                hidden = hidden_during(prev, state, hidden_now)
            entry = _Entry(event, explanation, prev if hidden else None, hidden)
            self._recent.append(entry)
            prev_views = self._views
            self.synced_state = state
            self._synced_hidden = hidden_now
            if not self.subscribers:
                continue
            patches: dict[tuple[frozenset[str], frozenset[str]], str] = {}
            holds = self._holds
            # Nothing hidden now and no seat holding a view that hid anything (the usual fight): every seat
            # holds and is sent the view that hides nothing, so its text depends on its chain alone, told
            # without a lookup of what it holds per seat (issue 16, server CPU).
            plain = not hidden_now and not any(holds.values())
            for key, subs in self._groups(hidden).items():
                shown = hidden - visible_to(key) if key != GM_VIEW else frozenset()
                heads: dict[bool, str] = {}
                #: The whole push per (chain, patch): one string object for every seat that gets the same
                #: text, so a connection can reuse the frame the previous one made of it (issue 16).
                texts: dict[tuple[bool, frozenset[str], frozenset[str]], str] = {}
                if plain:
                    by_chain: dict[bool, str] = {}
                    for sub in subs:
                        if dropped and sub in dropped:
                            continue
                        assert sub.seat is not None
                        text = by_chain.get(sub.chain)
                        if text is None:
                            text = by_chain[sub.chain] = self._text(
                                entry, shown, rs, prev, prev_views, state, sub.chain, NOTHING_HIDDEN, NOTHING_HIDDEN,
                                heads, texts, patches)
                        if not sub.deliver(text):
                            dropped.append(sub)
                    continue
                for sub in subs:
                    if dropped and sub in dropped:
                        continue
                    seat = sub.seat
                    assert seat is not None
                    chain = sub.chain
                    held = holds.get(id(sub), NOTHING_HIDDEN)
                    now = seat_hidden(seat.role, seat.combatants, hidden_now) if hidden_now else NOTHING_HIDDEN
                    text = texts.get((chain, held, now))
                    if text is None:
                        text = self._text(entry, shown, rs, prev, prev_views, state, chain, held, now,
                                          heads, texts, patches)
                    if held is not now:
                        holds[id(sub)] = now
                    if not sub.deliver(text):
                        dropped.append(sub)
        if self.subscribers:
            self._push_descriptions(rs, state, dropped)
        for sub in dropped:
            self.remove(sub)
            sub.drop_too_slow()
        return state

    def _text(self, entry: _Entry, shown: frozenset[str], rs: Ruleset, prev: FightState,
              prev_views: dict[frozenset[str], tuple[dict[str, Any], str]], state: FightState, chain: bool,
              held: frozenset[str], now: frozenset[str], heads: dict[bool, str],
              texts: dict[tuple[bool, frozenset[str], frozenset[str]], str],
              patches: dict[tuple[frozenset[str], frozenset[str]], str]) -> str:
        """The live push of ``entry`` to a seat of a view group that may not see ``shown`` of the event, holds
        the view of ``prev`` that hides ``held`` and is sent the view of ``state`` that hides ``now``; made
        once per (chain, held, now) and kept in ``texts`` (its head per chain in ``heads``, its patch per
        (held, now) in ``patches``)."""
        head = heads.get(chain)
        if head is None:
            head = heads[chain] = f'{{"type":"event",{self._live_item(entry, shown, state, chain)},'
        tail = patches.get((held, now))
        if tail is None:
            old = prev_views.get(held)
            old_view = old[0] if old is not None else self._builder.view(rs, prev, held)
            new_view, new_hash = self._view(rs, state, now)
            # The view's own seq is the push's: the client sets it, the patch leaves it out (protocol 3).
            ops = to_wire([op for op in diff(old_view, new_view) if op["path"] != "/seq"])
            tail = patches[(held, now)] = f'"patch":{_dumps(ops)},"view_hash":"{new_hash}"}}'
        text = texts[(chain, held, now)] = head + tail
        return text

    # ------------------------------------------------------------------ subscribe (lock held)

    def add(self, sub: Subscriber, after: int, live: bool = True) -> tuple[FightState, list[str], bool]:
        """Register ``sub``; returns the state now, the catch-up messages after ``after`` from the
        recent cache, and whether the catch-up must instead be read from the store, page by page
        (:meth:`catch_up_page`, off the loop; the caller holds ``sub``'s live events until then)."""
        assert self.lock.locked(), "subscribe only while holding the fight lock"
        state = self.state()
        if state.seq < self.synced_seq:  # a stale cache: the hub has pushed more than the engine holds
            self.engine.forget(self.fight_id)
            state = self.state()
        self.catch_up(state)  # the others first, so everyone has seen exactly up to state.seq
        seat = sub.seat
        assert seat is not None
        messages: list[str] = []
        from_store = False
        recent = self._recent
        if after < state.seq:
            if recent and recent[-1].event.seq == state.seq and recent[0].event.seq <= after + 1:
                entries = [recent[i] for i in range(after + 1 - recent[0].event.seq, len(recent))]
                items = self._items(seat, entries, state)
                for start in range(0, len(items), BATCH_ITEMS):
                    last = start + BATCH_ITEMS >= len(items)
                    messages.append(self._events_message(items[start:start + BATCH_ITEMS], last))
            else:
                from_store = True
        if live and sub not in self.subscribers:
            self.subscribers.append(sub)
        return state, messages, from_store

    def _events_message(self, items: Sequence[str], last: bool) -> str:
        body = ",".join("{" + item + "}" for item in items)
        return f'{{"type":"events","fight_id":{self._fid_json},"items":[{body}],"last":{"true" if last else "false"}}}'

    def catch_up_page(self, seat: Seat, state: FightState, after: int) -> tuple[str, int]:
        """One catch-up message of the stored events after ``after`` (up to ``state``, the state the
        subscriber was handed), and the seq it ends at. Runs in a read worker thread: it reads
        one page and the state before it from the store (issue 15 item 2), and touches no hub
        state but fresh entries.
        """
        page = self.engine.history_page(self.fight_id, after, state.seq, BATCH_ITEMS)
        entries = [_Entry(le.event, le.explanation, le.before) for le in page]
        items = self._items(seat, entries, state)
        end = entries[-1].event.seq if entries else state.seq
        return self._events_message(items, end >= state.seq), end

    def remove(self, sub: Subscriber) -> None:
        self._described.pop(id(sub), None)
        self._holds.pop(id(sub), None)
        try:
            self.subscribers.remove(sub)
        except ValueError:
            pass

    # ------------------------------------------------------------------ descriptions (#9, describe)

    def describe(self, sub: Subscriber, state: FightState) -> dict[str, Any] | None:
        """What ``sub``'s seat can do and see at ``state`` (for ``subscribed``); remembered, so that
        later pushes send it a description when, and only when, its own changed. ``None`` when the
        ruleset could not describe it (:meth:`_description`): the seat is sent one when it can."""
        seat = sub.seat
        assert seat is not None
        text = self._description(self.ruleset(), state, seat)
        self._described[id(sub)] = text or ""
        if text is None:
            return None
        data: dict[str, Any] = orjson.loads(text)
        return data

    def _description(self, rs: Ruleset, state: FightState, seat: Seat) -> str | None:
        """``seat``'s description of ``state``, encoded; ``None`` (and an error in the log, with the traceback)
        when the ruleset's ``describe`` raised. Why: a description is what a seat's page offers, worked out
        after the command's events are stored and pushed; a bug there must not answer a stored command with
        an error, nor leave a subscribe unanswered, nor stop the fight's next commands (a black-box pass found
        all three). The seat keeps the description it had."""
        try:
            return encode_description(rs.describe(state, seat.actor()), _dumps_description)
        except Exception:
            log.error("description_failed", fight_id=self.fight_id, seq=state.seq, role=seat.role,
                      seat=seat.seat_id, exc_info=True)
            return None

    def forget_description(self, sub: Subscriber) -> None:
        """``sub`` no longer wants descriptions (it subscribed again without ``describe``)."""
        self._described.pop(id(sub), None)

    def _push_descriptions(self, rs: Ruleset, state: FightState, dropped: list[Subscriber]) -> None:
        """Send each subscriber that asked for descriptions its description of ``state`` if it
        differs from the last one it got. Seats with the same role and combatants get the same
        description: computed once per push.
        """
        if not self._described:
            return
        texts: dict[tuple[str, tuple[str, ...]], str | None] = {}
        for sub in self.subscribers:
            seat = sub.seat
            if sub in dropped or seat is None or id(sub) not in self._described:
                continue
            key = (seat.role, seat.combatants)
            if key in texts:
                text = texts[key]
            else:
                text = texts[key] = self._description(rs, state, seat)
            if text is None or self._described.get(id(sub)) == text:
                continue
            self._described[id(sub)] = text
            message = (f'{{"type":"description","fight_id":{self._fid_json},"seq":{state.seq},'
                       f'"description":{text}}}')
            if not sub.deliver(message):
                dropped.append(sub)

    def view(self, seat: Seat, state: FightState) -> dict[str, Any]:
        """``state`` (now or past) as ``seat`` may see it; a past state hides what is hidden now too."""
        now = self.state()
        cache = self._derived if state is now else None
        if state is not now:
            state = with_hidden_as_now(state, now)
        return state_view(full_state(self.ruleset(), state, cache), state, view_key(seat.role, seat.combatants, state))

    def history_items(self, seat: Seat, after: int, upto: int | None) -> list[dict[str, Any]]:
        """The whole log (after, upto] as ``seat`` may see it, read page by page (the stored-fight
        fixtures and tools; the server answers ``replay`` one page at a time)."""
        now = self.state()
        end = now.seq if upto is None else min(upto, now.seq)
        items: list[dict[str, Any]] = []
        while after < end:
            page = self.history_page(seat, now, after, end, MAX_PAGE)
            if not page:
                break
            items.extend(page)
            after = int(page[-1]["seq"])
        return items

    def history_page(self, seat: Seat, now: FightState, after: int, upto: int, limit: int) -> list[dict[str, Any]]:
        """The log (after, upto], at most ``limit`` events, with explanations and undone marks, as
        ``seat`` may see it (``now``: the current state; what is hidden now is hidden in every event).

        Runs in a read worker thread: the engine reads and explains only this page
        (:meth:`Engine.history_page`); nothing of the hub is touched.
        """
        entries = self.engine.history_page(self.fight_id, after, upto, limit)
        if seat.role == "gm":
            return [{"seq": le.event.seq, "event": le.event.to_dict(), "explanation": le.explanation,
                     "undone": le.undone} for le in entries]
        # The same redaction as live and catch-up: per event, explained from the state before it.
        rs = get_ruleset(now.ruleset, now.ruleset_version)
        walked = [_Entry(le.event, le.explanation, le.before) for le in entries]
        hidden_now = hidden_ids(now)
        self._fill_hidden(walked, seat_hidden(seat.role, seat.combatants, hidden_now))
        out: list[dict[str, Any]] = []
        for le, en in zip(entries, walked):
            hidden = self._seat_hidden(seat, en, hidden_now)
            explanation = le.explanation
            if hidden:
                before = en.before if en.before is not None else self._state_before(le.event)
                explanation = core.explain(rs, before, le.event, hidden)
            out.append({"seq": le.event.seq, "event": event_view(le.event, now, hidden), "explanation": explanation,
                        "undone": le.undone})
        return out
