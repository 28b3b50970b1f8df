"""When the server lets CPython's cyclic garbage collector walk the heap.

Why: a full collection walks every tracked object. A server with 2,100
connections holds about 185,000 of them (about 88 per connection), and on this
machine one full collection stops the event loop for about 140 ms. CPython
starts one whenever a quarter more objects have survived, which under load is
every 10-20 seconds: each pause delays every command in flight, and alone it
breaks the p99 target of docs/benchmarks.md (2).

The policy, measured there:

* Young collections (generations 0 and 1) stay automatic: they are short.
* Automatic full collections are off. Instead a *sweep* runs every
  ``sweep_interval`` seconds: a full collection over the objects that are not
  frozen (only those that survived since the previous sweep), then
  ``gc.freeze()``. Each long-lived object is walked once, by the first sweep
  after its birth, so a sweep's pause grows with what the server allocated and
  kept in that interval, not with the whole heap.
* Frozen objects are still freed by reference counting; only *cycles* among
  them are not found until the next *full pass*: ``gc.unfreeze()``, a full
  collection of everything, ``gc.freeze()``. A closed websocket leaves such a
  cycle (about 60 objects), so a full pass runs once the connections closed since
  the last one reach ``release_fraction`` of the open ones (CPython's own
  "a quarter more" rule, counted in connections), and at least every
  ``full_interval`` seconds if any closed at all. Garbage therefore stays bounded
  by a fraction of the live heap, as with CPython's default.
"""

from __future__ import annotations

import asyncio
import gc
import time
from typing import Callable, TextIO

import attrs
import structlog

log = structlog.get_logger("combat_server.gc")

#: CPython's default young-generation threshold; measured, larger ones made each young collection 5-20 ms.
YOUNG_THRESHOLD = 700
#: Generation-2 threshold high enough that CPython never starts a full collection by itself.
NEVER = 2**31 - 1


@attrs.frozen
class Sweep:
    """What one sweep did: ``full`` when it was a full pass."""

    full: bool
    collected: int
    ms: float


@attrs.define
class GcPolicy:
    """Installed by ``serve`` (never by an in-process test server: it changes the whole process)."""

    young_threshold: int = YOUNG_THRESHOLD
    sweep_interval: float = 1.0
    full_interval: float = 600.0
    release_fraction: float = 0.25
    #: Closed connections below which no full pass is started early (a small heap is cheap anyway).
    min_release: int = 64
    #: Where to write one line per collection (``COMBAT_GC_LOG``), to see the pauses.
    trace: TextIO | None = None
    _released_at_full: int = attrs.field(default=0, init=False)
    _last_full: float = attrs.field(factory=time.monotonic, init=False)
    _started: float = attrs.field(default=0.0, init=False)

    def install(self) -> None:
        """Freeze what start-up made (modules, metadata, rulesets) and turn automatic full collections off."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(self.young_threshold, 20, NEVER)
        if self.trace is not None and self._trace_collection not in gc.callbacks:
            gc.callbacks.append(self._trace_collection)
        self._last_full = time.monotonic()

    def uninstall(self) -> None:
        """Back to CPython's defaults (tests)."""
        if self._trace_collection in gc.callbacks:
            gc.callbacks.remove(self._trace_collection)
        gc.unfreeze()
        gc.set_threshold(700, 10, 10)

    def due_full(self, released: int, live: int, now: float) -> bool:
        """Whether enough connections closed since the last full pass to look for their cycles."""
        closed = released - self._released_at_full
        if closed <= 0:
            return False
        if closed >= max(self.min_release, self.release_fraction * live):
            return True
        return now - self._last_full >= self.full_interval

    def sweep(self, released: int = 0, live: int = 0) -> Sweep:
        """One sweep (see the module docstring); ``released``: connections closed so far, ``live``: open now."""
        now = time.monotonic()
        full = self.due_full(released, live, now)
        t0 = time.perf_counter()
        if full:
            gc.unfreeze()
        collected = gc.collect()
        gc.freeze()  # O(1); note gc.get_freeze_count() is not: it walks the frozen list (37 ms at 350,000)
        ms = (time.perf_counter() - t0) * 1000
        if full:
            self._released_at_full = released
            self._last_full = now
        done = Sweep(full, collected, ms)
        if full or ms >= 5.0:
            log.info("gc_sweep", full=full, collected=collected, ms=round(ms, 2),
                     closed_since_full=0 if full else released - self._released_at_full, live=live)
        return done

    async def run(self, released: Callable[[], int], live: Callable[[], int]) -> None:
        """Sweep every ``sweep_interval`` seconds until cancelled."""
        while True:
            await asyncio.sleep(self.sweep_interval)
            self.sweep(released(), live())

    def _trace_collection(self, phase: str, info: dict[str, int]) -> None:
        if self.trace is None:
            return
        if phase == "start":
            self._started = time.perf_counter()
            return
        ms = (time.perf_counter() - self._started) * 1000
        self.trace.write(f"{time.time():.3f} gen {info['generation']} {ms:.2f} ms collected {info['collected']}\n")


__all__ = ["GcPolicy", "Sweep", "YOUNG_THRESHOLD"]
