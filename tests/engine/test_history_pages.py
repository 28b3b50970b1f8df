"""The engine's reads of one page of a log (issue 15 item 2), run by the server in
worker threads while the loop keeps appending."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from tests.conftest import SHEET


def _fight(engine: Engine, notes: int) -> str:
    fid = engine.create_fight("gurps", title="pages").fight_id
    engine.execute(fid, Command("add_combatant", {"id": "a", "name": "A", "sheet": SHEET}, GM_ACTOR, "gm:add"))
    for i in range(notes):
        engine.execute(fid, Command("note", {"text": f"n{i}"}, GM_ACTOR, f"gm:n{i}"))
    return fid


@pytest.mark.parametrize(("after", "upto", "limit"), [(0, 40, 1000), (0, 40, 7), (12, 40, 9), (17, 23, 100),
                                                       (39, 40, 5), (40, 40, 5)])
def test_a_history_page_is_that_slice_of_the_whole_log_replay(engine: Engine, after: int, upto: int,
                                                             limit: int) -> None:
    """``history_page(after, upto, limit)`` gives exactly what ``history(upto)`` gives for those seqs:
    same events, explanations and undone marks (as of ``upto``), across snapshots and undos."""
    fid = _fight(engine, 30)
    engine.execute(fid, Command("undo", {"to": "seq", "seq": 20}, GM_ACTOR, "gm:u1"))  # seq 33
    for i in range(6):
        engine.execute(fid, Command("note", {"text": f"m{i}"}, GM_ACTOR, f"gm:m{i}"))
    engine.execute(fid, Command("undo", {}, GM_ACTOR, "gm:u2"))
    engine.execute(fid, Command("redo", {}, GM_ACTOR, "gm:r2"))  # seq 41
    whole = [le for le in engine.history(fid, upto) if le.event.seq > after][:limit]
    page = engine.history_page(fid, after, upto, limit)
    assert [(le.event, le.explanation, le.undone) for le in page] == [
        (le.event, le.explanation, le.undone) for le in whole]
    assert all(le.before is not None and le.before.seq == le.event.seq - 1 for le in page if le.event.seq > 1)


def test_a_load_in_a_worker_thread_never_caches_an_older_state(engine: Engine,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A read worker that loads a fight (cache miss) while the loop appends to it must not put its
    older state in the cache over the newer one the loop cached meanwhile."""
    fid = _fight(engine, 3)
    engine.forget(fid)
    entered, release = threading.Event(), threading.Event()
    read = engine.store.events
    main = threading.current_thread()

    def held(*args: Any, **kwargs: Any) -> Any:
        out = read(*args, **kwargs)
        if threading.current_thread() is not main:
            entered.set()
            release.wait(5)
        return out

    monkeypatch.setattr(engine.store, "events", held)
    worker = threading.Thread(target=engine.load, args=(fid,))
    worker.start()
    assert entered.wait(5)
    result = engine.execute(fid, Command("note", {"text": "meanwhile"}, GM_ACTOR, "gm:meanwhile"))
    release.set()
    worker.join(5)
    assert engine.load(fid).seq == result.last_seq
