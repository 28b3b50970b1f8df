"""Property tests for the SHELL fold: random legal play read from the ruleset's own description
(any action, any answer, seeded dice), then refold, undo to any seq, and undo/redo."""

from __future__ import annotations

import contextlib
import tempfile
from typing import Any, Iterator

import attrs
from hypothesis import HealthCheck, given, settings, strategies as st

from combat_server.engine.fight import Engine
from combat_server.errors import Rejected
from combat_server.rules.model import GM_ACTOR, Command, FightState
from combat_server.rules.serialize import state_bytes
from combat_server.store.sql import open_store
from tests.shell.table import ARCHER, BRAWLER, KNIGHT, MAGE, ORC


@contextlib.contextmanager
def fresh_engine() -> Iterator[Engine]:
    """A real SQLite file per example, snapshots every 5 events."""
    with tempfile.TemporaryDirectory() as d:
        store = open_store(f"sqlite:///{d}/p.sqlite", migrate=True)
        try:
            yield Engine(store, snapshot_every=5)
        finally:
            store.dispose()


def _args(action: Any, choice: int) -> dict[str, Any]:
    args = dict(action.args)
    for f in action.fields:
        if f.when and any(args.get(k) not in v for k, v in f.when.items()):
            continue
        if f.choices:
            args[f.name] = f.choices[choice % len(f.choices)].value
        elif f.type == "integer":
            lo, hi = f.minimum or 0, f.maximum if f.maximum is not None else 3
            args[f.name] = lo + choice % (max(hi, lo) - lo + 1)
        elif f.type == "boolean":
            args[f.name] = bool(choice % 2)
        elif f.default is not None:
            args[f.name] = f.default
        elif f.type == "text":
            args[f.name] = "feint"
    return args


def play(engine: Engine, seed: str, choices: list[int]) -> str:
    """Add four fighters, start, then for each choice send one thing the GM's description offers."""
    fid = engine.create_fight("shell", dice_mode="seeded", seed=seed, options={"cinematic_maneuvers": True}).fight_id
    ruleset = engine.ruleset_of(fid)
    n = 0

    def send(t: str, args: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        engine.execute(fid, Command(t, args, GM_ACTOR, f"c{n}"))

    for cid, sheet in (("knight", KNIGHT), ("orc", ORC), ("archer", ARCHER), ("mage", MAGE), ("brawler", BRAWLER)):
        send("add_combatant", {"id": cid, "name": cid.title(), "side": "pc" if cid != "orc" else "npc", "sheet": sheet})
    send("start_combat", {})
    for choice in choices:
        state: FightState = engine.load(fid)
        if state.status != "active":
            break
        d = ruleset.describe(state, GM_ACTOR)
        try:
            if choice % 17 == 16:
                send("undo", {"to": "last_command"})
            elif d.prompts:
                answers = d.prompts[0].answers
                a = answers[choice % len(answers)]
                send(a.command, dict(a.args))
            elif d.actions:
                action = d.actions[choice % len(d.actions)]
                send(action.command, _args(action, choice // 7))
            else:
                break
        except Rejected:
            pass  # an illegal random choice: refused, nothing appended
    return fid


SETTINGS = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.text(alphabet="abcdef0123456789", min_size=4, max_size=8)


@SETTINGS
@given(seed=SEEDS, choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=5, max_size=40))
def test_refolding_the_stored_log_equals_the_live_state(seed: str, choices: list[int]) -> None:
    """Replaying the log (full refold, or snapshot + tail) gives byte-identical state."""
    with fresh_engine() as engine:
        fid = play(engine, seed, choices)
        live = engine.load(fid)
        full, _ = engine._load_from_store(fid, use_snapshots=False)
        snap, _ = engine._load_from_store(fid, use_snapshots=True)
        assert state_bytes(full) == state_bytes(live) == state_bytes(snap)
        assert engine.verify(fid).ok


def _strip(state: FightState) -> bytes:
    return state_bytes(attrs.evolve(state, seq=0, undone=(), turn_start_seq=0))


@SETTINGS
@given(seed=SEEDS, choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=5, max_size=30),
       at=st.integers(min_value=0, max_value=1000))
def test_undo_to_any_seq_gives_the_state_of_that_prefix(seed: str, choices: list[int], at: int) -> None:
    """GM undo back to seq k: the fight's state is the fold of its first k events."""
    with fresh_engine() as engine:
        fid = play(engine, seed, choices)
        live = engine.load(fid)
        events = engine.store.events(fid)
        last_control = max((e.seq for e in events if e.type in ("reverted", "restored")), default=0)
        # after the last undo or redo, so the prefix's fold knows every undo that concerns it
        effective = [e.seq for e in events if e.seq > max(last_control, 7) and e.seq not in live.undone]
        if len(effective) < 2:
            return
        k = effective[at % (len(effective) - 1)]
        prefix, _ = engine._load_from_store(fid, upto=k, use_snapshots=False)
        engine.execute(fid, Command("undo", {"to": "seq", "seq": k}, GM_ACTOR, "u"))
        assert _strip(engine.load(fid)) == _strip(prefix)


@SETTINGS
@given(seed=SEEDS, choices=st.lists(st.integers(min_value=0, max_value=1000), min_size=3, max_size=25))
def test_undo_then_redo_equals_never_undoing(seed: str, choices: list[int]) -> None:
    """GM undo of the last command followed by redo restores exactly the same state."""
    with fresh_engine() as engine:
        fid = play(engine, seed, choices)
        before = engine.load(fid)
        engine.execute(fid, Command("undo", {"to": "last_command"}, GM_ACTOR, "u"))
        engine.execute(fid, Command("redo", {}, GM_ACTOR, "r"))
        assert state_bytes(attrs.evolve(engine.load(fid), seq=0, undone=())) == \
            state_bytes(attrs.evolve(before, seq=0, undone=()))
