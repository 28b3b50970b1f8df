"""Benchmarks of the live server (issue 4): real server process, real websocket
clients, loopback only. Not timed tests: run them by hand, read the table.

    python bench/bench_server.py all            # every measurement, a few minutes
    python bench/bench_server.py latency load   # some of them
    python bench/bench_server.py throughput --pg postgresql+psycopg://postgres@127.0.0.1/test

Measurements and targets (2-core machine):
  latency     command -> last of 8 clients, 1 fight, p50/p99          target p99 <= 5 ms
  load        300 fights x 7 clients at 150 commands/s, p50/p99/errors target p99 <= 25 ms, 0 errors
  throughput  max sustained commands/s, SQLite and PostgreSQL          target >= 1000 / >= 500
  cold_load   10,000-event fight, with and without snapshots           target <= 30 ms with snapshots
  catchup     reconnect catch-up of 1,000 events                       target <= 30 ms
  memory      per connection and per loaded fight                      target <= 40 KiB per connection
  replay      one page of 1,000 events of a 100,000-event fight;       target page <= 200 ms,
              another fight's commands while 10 such pages are read    p99 <= 50 ms
  append      one-event append: the store, the pooled path, bare sqlite3 (issue 16)
  fanout      command -> last of 1/8/32/128 subscribers, alternating with the bare-broadcast
              floor (bench/floor_server.py: the same payload to the same clients)
  bytes       bytes per subscriber of a one-HP push with 4 and 500 combatants (in process)
  publish     CPU of execute + publish per command to 8 in-process seats, 4 and 500 combatants,
              and of one view's hash, whole (view_hash) and cached (ViewHasher) (issue 16)
  peer        the same workload on a Colyseus 0.16 room (bench/peers/colyseus, needs node and
              `npm install` there; skipped otherwise), alternating blocks, ratios printed

Prints a table and writes bench/results.json. The command sent is a GM's
``adjust`` (a constant-size state); the fights have the four demo combatants.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, Awaitable, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from combat_server.client import CombatClient, PushedEvent  # noqa: E402

SHEET: dict[str, Any] = {
    "st": 12, "dx": 12, "ht": 11, "shield_skill": 12,
    "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}],
}
RESULTS: dict[str, Any] = {}


# --------------------------------------------------------------------------- harness


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process ``pid`` used so far."""
    user, system = proc_cpu_split_s(pid)
    return user + system


def proc_cpu_split_s(pid: int) -> tuple[float, float]:
    """CPU seconds process ``pid`` used so far in user mode and in the kernel (its system calls):
    which of the two a change moves says whether it cut Python work or socket work."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


class ServerProcess:
    """``python -m combat_server.server`` on a fresh database, on loopback."""

    def __init__(self, db_url: str | None = None, *extra: str) -> None:
        self.tmp = tempfile.mkdtemp(prefix="combat-bench-")
        self.db_url = db_url or f"sqlite:///{self.tmp}/bench.sqlite"
        self.port = free_port()
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> "ServerProcess":
        profile = os.environ.get("BENCH_PROFILE")  # a path: run the server under cProfile, stats written there
        prefix = ["-m", "cProfile", "-o", profile] if profile else []
        log_path = os.environ.get("BENCH_SERVER_LOG")  # a path: the server logs one JSON line per command there
        self.proc = subprocess.Popen(
            [sys.executable, *prefix, "-m", "combat_server.server", "--port", str(self.port), "--database-url", self.db_url,
             "--log-level", "info" if log_path else "warning", "--rate", "100000", "--burst", "100000",
             "--queue-size", "4096", *self.extra, *os.environ.get("BENCH_SERVER_ARGS", "").split()],
            stdout=subprocess.PIPE, stderr=open(log_path, "ab") if log_path else subprocess.DEVNULL, cwd=ROOT,
        )
        assert self.proc.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), 60)
        if b"listening" not in line:
            raise RuntimeError(f"server did not start: {line!r}")
        return self

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the server process used so far."""
        assert self.proc is not None
        return proc_cpu_s(self.proc.pid)

    def rss_kib(self) -> int:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def new_fight(url: str, players: int, spectators: int = 0, dice_mode: str = "server"
                    ) -> tuple[CombatClient, list[str], str]:
    """A fight with the four demo combatants; returns the subscribed GM, seat tokens, fight id."""
    gm = await CombatClient.connect(url)
    created = await gm.create_fight("gurps", dice_mode=dice_mode, title="bench")
    await gm.subscribe(created["token"])
    for cid, side in (("a", "pc"), ("b", "pc"), ("c", "npc"), ("d", "npc")):
        await gm.command("add_combatant", {"id": cid, "name": cid.upper(), "side": side, "sheet": SHEET})
    tokens = []
    for i in range(players):
        tokens.append((await gm.add_seat("player", ["a" if i % 2 == 0 else "b"]))["token"])
    for _ in range(spectators):
        tokens.append((await gm.add_seat("spectator"))["token"])
    return gm, tokens, created["fight_id"]


def adjust(i: int) -> tuple[str, dict[str, Any]]:
    return "adjust", {"combatant": "c", "changes": {"hp": 5 + i % 7}, "reason": "bench"}


class Arrivals:
    """Records when each seq reached each client, to time 'command -> last subscriber'."""

    def __init__(self, clients: int) -> None:
        self.clients = clients
        self.seen: dict[int, list[float]] = {}
        self.done: dict[int, asyncio.Event] = {}

    def hook(self, pushed: PushedEvent) -> None:
        times = self.seen.setdefault(pushed.seq, [])
        times.append(pushed.received_at)
        if len(times) == self.clients:
            ev = self.done.get(pushed.seq)
            if ev is not None:
                ev.set()

    def event(self, seq: int) -> asyncio.Event:
        ev = self.done.setdefault(seq, asyncio.Event())
        if len(self.seen.get(seq, [])) == self.clients:
            ev.set()
        return ev


def own_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class CpuMeter:
    """CPU ms per command of the server and of this (client) process, and the machine's load."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        assert server.proc is not None
        self.u0, self.k0 = proc_cpu_split_s(server.proc.pid)
        self.c0, self.t0 = own_cpu_s(), time.perf_counter()

    def done(self, commands: int) -> dict[str, float]:
        wall = time.perf_counter() - self.t0
        assert self.server.proc is not None
        user, system = proc_cpu_split_s(self.server.proc.pid)
        u, k = user - self.u0, system - self.k0
        s, c = u + k, own_cpu_s() - self.c0
        return {"server_cpu_ms_per_cmd": s * 1000 / commands, "client_cpu_ms_per_cmd": c * 1000 / commands,
                "server_user_ms_per_cmd": u * 1000 / commands, "server_system_ms_per_cmd": k * 1000 / commands,
                "server_cpu_share": s / wall, "client_cpu_share": c / wall, "loadavg_1m": os.getloadavg()[0]}


def cpu_note(cpu: dict[str, float]) -> str:
    return (f"    cpu per command: server {cpu['server_cpu_ms_per_cmd']:.2f} ms (user "
            f"{cpu['server_user_ms_per_cmd']:.2f}, system {cpu['server_system_ms_per_cmd']:.2f}), client "
            f"{cpu['client_cpu_ms_per_cmd']:.2f} ms (busy {cpu['server_cpu_share']:.0%} / {cpu['client_cpu_share']:.0%} of a core; load avg "
            f"{cpu['loadavg_1m']:.2f})")


def row(name: str, figures: str, target: str, ok: bool | None) -> None:
    mark = "" if ok is None else ("PASS" if ok else "MISS")
    print(f"{name:<34} {figures:<58} {target:<28} {mark}", flush=True)


# --------------------------------------------------------------------------- (1) latency


async def bench_latency(args: argparse.Namespace) -> None:
    server = await ServerProcess().start()
    try:
        arrivals = Arrivals(8)
        gm, tokens, _ = await new_fight(server.url, players=4, spectators=3)
        gm.on_event = arrivals.hook
        clients = [gm]
        for t in tokens:
            c = await CombatClient.connect(server.url, on_event=arrivals.hook)
            await c.subscribe(t)
            clients.append(c)
        latencies = []
        meter: CpuMeter | None = None
        for i in range(args.n + 50):
            if i == 50:
                meter = CpuMeter(server)
            kind, a = adjust(i)
            t0 = time.perf_counter()
            r = await gm.command(kind, a)
            await asyncio.wait_for(arrivals.event(r["last_seq"]).wait(), 5)
            if i >= 50:  # warm-up
                latencies.append((max(arrivals.seen[r["last_seq"]]) - t0) * 1000)
        assert meter is not None
        cpu = meter.done(len(latencies))
        p50, p99 = pct(latencies, 50), pct(latencies, 99)
        RESULTS["latency"] = {"commands": len(latencies), "clients": 8, "p50_ms": p50, "p99_ms": p99,
                              "p90_ms": pct(latencies, 90), "max_ms": max(latencies), "cpu": cpu}
        row("(1) command -> last of 8 clients", f"p50 {p50:.2f} ms  p99 {p99:.2f} ms  ({len(latencies)} commands)",
            "p99 <= 5 ms", p99 <= 5)
        print(cpu_note(cpu), flush=True)
        for c in clients:
            await c.close()
    finally:
        server.stop()


# --------------------------------------------------------------------------- (2) load


async def bench_load(args: argparse.Namespace) -> None:
    server = await ServerProcess().start()
    fights, per_fight, rate, seconds = args.fights, 7, args.rate, args.seconds
    try:
        sem = asyncio.Semaphore(20)
        setups: list[tuple[CombatClient, Arrivals, list[CombatClient]]] = []

        async def setup() -> None:
            async with sem:
                arrivals = Arrivals(per_fight)
                gm, tokens, _ = await new_fight(server.url, players=4, spectators=per_fight - 5)
                gm.on_event = arrivals.hook
                others = []
                for t in tokens:
                    c = await CombatClient.connect(server.url, on_event=arrivals.hook)
                    await c.subscribe(t)
                    others.append(c)
                setups.append((gm, arrivals, others))

        t_setup = time.perf_counter()
        await asyncio.gather(*(setup() for _ in range(fights)))
        connections = sum(1 + len(o) for _, _, o in setups)
        setup_s = time.perf_counter() - t_setup
        latencies: list[float] = []
        when: list[tuple[float, float]] = []  # (seconds into the window, ms): where the slow ones cluster
        errors: list[str] = []
        interval = 1.0 / rate
        total = int(rate * seconds)

        async def one(i: int) -> None:
            gm, arrivals, _ = setups[i % len(setups)]
            kind, a = adjust(i)
            t0 = time.perf_counter()
            try:
                r = await gm.command(kind, a, timeout=10)
                await asyncio.wait_for(arrivals.event(r["last_seq"]).wait(), 10)
                latencies.append((max(arrivals.seen[r["last_seq"]]) - t0) * 1000)
                when.append((t0 - start, latencies[-1]))
            except Exception as exc:  # counted, reported
                errors.append(type(exc).__name__ + ": " + str(exc))

        tasks = []
        meter = CpuMeter(server)
        wall_start = time.time()
        start = time.perf_counter()
        for i in range(total):
            delay = start + i * interval - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.get_running_loop().create_task(one(i)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
        cpu = meter.done(total)
        p50, p99 = pct(latencies, 50), pct(latencies, 99)
        RESULTS["load"] = {"cpu": cpu, "fights": fights, "connections": connections, "commands": total,
                           "offered_rate": rate, "achieved_rate": total / elapsed, "p50_ms": p50, "p99_ms": p99,
                           "errors": len(errors), "error_samples": errors[:5], "setup_s": setup_s,
                           "window": [wall_start, time.time()], "p90_ms": pct(latencies, 90),
                           "max_ms": max(latencies, default=float("nan")),
                           "slowest": sorted(when, key=lambda w: -w[1])[:30]}
        row(f"(2) {fights} fights x {per_fight} clients",
            f"{connections} conns, {total / elapsed:.0f} cmd/s: p50 {p50:.2f} p99 {p99:.2f} ms, {len(errors)} err",
            "p99 <= 25 ms, 0 errors", p99 <= 25 and not errors)
        print(cpu_note(cpu), flush=True)
        for gm, _, others in setups:
            for c in [gm, *others]:
                await c.close()
    finally:
        server.stop()


# --------------------------------------------------------------------------- (3) throughput


async def _throughput(db_url: str | None, label: str, args: argparse.Namespace, target: float) -> None:
    server = await ServerProcess(db_url).start()
    try:
        gms = []
        for _ in range(args.tp_fights):
            gm, _tokens, _ = await new_fight(server.url, players=0)
            gms.append(gm)
        done = 0
        stop_at = 0.0

        async def pump(gm: CombatClient) -> None:
            nonlocal done
            i = 0
            while time.perf_counter() < stop_at:
                kind, a = adjust(i)
                await gm.command(kind, a)
                i += 1
                done += 1

        # warm-up, then measure
        stop_at = time.perf_counter() + 1.0
        await asyncio.gather(*(pump(g) for g in gms))
        done = 0
        meter = CpuMeter(server)
        start = time.perf_counter()
        stop_at = start + args.seconds
        await asyncio.gather(*(pump(g) for g in gms))
        rate = done / (time.perf_counter() - start)
        cpu = meter.done(done)
        RESULTS.setdefault("throughput", {})[label] = {"commands_per_s": rate, "fights": len(gms),
                                                       "seconds": args.seconds, "cpu": cpu}
        row(f"(3) max commands/s, {label}", f"{rate:.0f} commands/s ({len(gms)} fights, 1 subscriber each)",
            f">= {target:.0f}/s", rate >= target)
        print(cpu_note(cpu), flush=True)
        for g in gms:
            await g.close()
    finally:
        server.stop()


async def bench_throughput(args: argparse.Namespace) -> None:
    await _throughput(None, "SQLite", args, 1000)
    if args.pg:
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        import sqlalchemy as sa

        admin = sa.create_engine(args.pg, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        try:
            await _throughput(f"{args.pg}?options=-csearch_path%3D{schema}", "PostgreSQL", args, 500)
        finally:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()


# --------------------------------------------------------------------------- (4) cold load


def bench_cold_load_sync(args: argparse.Namespace) -> None:
    from combat_server.engine.fight import Engine
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.store.sql import open_store

    tmp = tempfile.mkdtemp(prefix="combat-bench-")
    out: dict[str, Any] = {}
    for label, every in (("with snapshots", 100), ("without snapshots", 0)):
        url = f"sqlite:///{tmp}/{every}.sqlite"
        store = open_store(url, migrate=True)
        engine = Engine(store, snapshot_every=every)
        fid = engine.create_fight("gurps", title="cold").fight_id
        for cid in ("a", "b", "c", "d"):
            engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid, "sheet": SHEET}, GM_ACTOR))
        while engine.load(fid).seq < args.events:
            i = engine.load(fid).seq
            engine.execute(fid, Command("adjust", {"combatant": "c", "changes": {"hp": 5 + i % 7}, "reason": "b"},
                                        GM_ACTOR, f"c{i}"))
        times = []
        for _ in range(7):
            cold = Engine(open_store(url), snapshot_every=every)  # empty cache: a cold load
            t0 = time.perf_counter()
            state = cold.load(fid)
            times.append((time.perf_counter() - t0) * 1000)
            cold.store.dispose()
        assert state.seq == args.events
        out[label] = {"events": args.events, "median_ms": statistics.median(times), "min_ms": min(times)}
        if every:  # a GM's undo and redo of the last command in the same long fight
            steps: dict[str, list[float]] = {"undo": [], "redo": []}
            for i in range(10):
                kind = "undo" if i % 2 == 0 else "redo"
                t0 = time.perf_counter()
                engine.execute(fid, Command(kind, {}, GM_ACTOR, f"{kind}{i}"))
                steps[kind].append((time.perf_counter() - t0) * 1000)
            out["undo_redo"] = {k: statistics.median(v) for k, v in steps.items()}
        store.dispose()
    RESULTS["cold_load"] = out
    w, wo = out["with snapshots"]["median_ms"], out["without snapshots"]["median_ms"]
    row(f"(4) cold load {args.events} events", f"with snapshots {w:.1f} ms, without {wo:.1f} ms (median of 7)",
        "<= 30 ms with snapshots", w <= 30)
    ur = out["undo_redo"]
    print(f"    undo / redo of the last command in that fight: {ur['undo']:.1f} / {ur['redo']:.1f} ms (median of 5)",
          flush=True)


async def bench_cold_load(args: argparse.Namespace) -> None:
    await asyncio.to_thread(bench_cold_load_sync, args)


# --------------------------------------------------------------------------- (5) catch-up


async def bench_catchup(args: argparse.Namespace) -> None:
    server = await ServerProcess().start()
    try:
        gm, tokens, _ = await new_fight(server.url, players=0, spectators=1)
        figures: dict[str, Any] = {}
        for attempt in range(6):
            watcher = await CombatClient.connect(server.url)
            await watcher.subscribe(tokens[0])
            await watcher.wait_for_seq(gm.last_seq)
            seen = watcher.last_seq
            await watcher.close()
            for i in range(1000):
                kind, a = adjust(i)
                await gm.command(kind, a)
            target = gm.last_seq
            again = await CombatClient.connect(server.url)
            t0 = time.perf_counter()
            await again.subscribe(tokens[0], after=seen)
            await again.wait_for_seq(target, 10)
            ms = (time.perf_counter() - t0) * 1000
            assert [e.seq for e in again.events] == list(range(seen + 1, target + 1))
            figures.setdefault("ms", []).append(ms)
            await again.close()
        ms_list = figures["ms"][1:]  # the first includes warm-up
        RESULTS["catchup"] = {"events": 1000, "median_ms": statistics.median(ms_list), "max_ms": max(ms_list)}
        med = statistics.median(ms_list)
        row("(5) reconnect catch-up 1,000 events", f"median {med:.1f} ms, max {max(ms_list):.1f} ms "
            "(subscribe -> last event decoded)", "<= 30 ms", med <= 30)
        await gm.close()
    finally:
        server.stop()


# --------------------------------------------------------------------------- (6) memory


async def bench_memory(args: argparse.Namespace) -> None:
    server = await ServerProcess().start()
    try:
        gm, tokens, _ = await new_fight(server.url, players=0, spectators=1)
        # Warm the code paths, then measure the growth per idle subscribed connection.
        warm = [await CombatClient.connect(server.url) for _ in range(20)]
        for c in warm:
            await c.subscribe(tokens[0])
        await asyncio.sleep(0.5)
        before = server.rss_kib()
        n = args.connections
        clients = []
        for i in range(n):
            c = await CombatClient.connect(server.url)
            await c.subscribe(tokens[0])
            clients.append(c)
        await asyncio.sleep(1.0)
        per_conn = (server.rss_kib() - before) / n
        # Loaded fights: each created, filled and subscribed once, then idle.
        before = server.rss_kib()
        fights = []
        for _ in range(args.mem_fights):
            g, _t, _f = await new_fight(server.url, players=0)
            for i in range(20):
                kind, a = adjust(i)
                await g.command(kind, a)
            await g.close()
            fights.append(_f)
        await asyncio.sleep(1.0)
        per_fight = (server.rss_kib() - before) / args.mem_fights
        RESULTS["memory"] = {"per_connection_kib": per_conn, "connections": n, "per_fight_kib": per_fight,
                             "fights": args.mem_fights}
        row("(6) memory", f"{per_conn:.1f} KiB per connection ({n}), {per_fight:.0f} KiB per loaded fight",
            "<= 40 KiB per connection", per_conn <= 40)
        for c in clients + warm + [gm]:
            await c.close()
    finally:
        server.stop()


# --------------------------------------------------------------------------- (7) long log


def _build_long_fight(db_url: str, events: int) -> tuple[str, str]:
    from bench.bulkfight import long_fight
    from combat_server.engine.fight import Engine
    from combat_server.store.sql import open_store

    store = open_store(db_url, migrate=True)
    try:
        return long_fight(Engine(store), events, title="long bench")
    finally:
        store.dispose()


async def _timed_page(client: CombatClient, after: int) -> float:
    t0 = time.perf_counter()
    reply = await client.request({"type": "replay", "after": after}, timeout=600)
    assert reply["items"] and reply["items"][0]["seq"] == after + 1
    return (time.perf_counter() - t0) * 1000


async def bench_replay(args: argparse.Namespace) -> None:
    """Issue 15 item 2: reading a long log must cost the page and never stall the other fights."""
    import random

    n = args.replay_events
    tmp = tempfile.mkdtemp(prefix="combat-bench-")
    db_url = f"sqlite:///{tmp}/long.sqlite"
    t0 = time.perf_counter()
    _fid, token = await asyncio.to_thread(_build_long_fight, db_url, n)
    print(f"    built a {n:,}-event fight in bulk in {time.perf_counter() - t0:.1f} s", flush=True)
    server = await ServerProcess(db_url).start()
    rnd = random.Random(15)
    try:
        readers = []
        for _ in range(10):
            c = await CombatClient.connect(server.url)
            await c.subscribe(token, after=n)  # joined, nothing to catch up
            readers.append(c)
        pages = [await _timed_page(readers[0], rnd.randrange(0, n - 1000)) for _ in range(args.replay_pages)]
        one_t0 = time.perf_counter()
        one = await readers[0].request({"type": "replay", "after": n - 1}, timeout=600)
        one_ms = (time.perf_counter() - one_t0) * 1000
        assert [i["seq"] for i in one["items"]] == [n]
        med = statistics.median(pages)
        row(f"(7) replay page of 1,000 of {n:,}", f"median {med:.0f} ms, max {max(pages):.0f} ms; one event "
            f"{one_ms:.0f} ms", "page <= 200 ms", med <= 200)
        gm, _tokens, _ = await new_fight(server.url, players=0)
        errors: list[str] = []

        async def commands(seconds: float) -> list[float]:
            """Latencies of one GM's commands, one every 10 ms; a failed command counts with the
            time until it failed (the server stalled so long that the connection dropped)."""
            out: list[float] = []
            end = time.perf_counter() + seconds
            i = 0
            while time.perf_counter() < end:
                kind, a = adjust(i)
                c0 = time.perf_counter()
                try:
                    await gm.command(kind, a, timeout=600)
                except Exception as exc:  # a stalled server: the connection dropped
                    errors.append(f"{type(exc).__name__}: {exc}")
                    out.append((time.perf_counter() - c0) * 1000)
                    return out
                out.append((time.perf_counter() - c0) * 1000)
                i += 1
                await asyncio.sleep(0.01)
            return out

        quiet = await commands(args.replay_seconds / 2)
        stop = asyncio.Event()
        read_ms: list[float] = []

        async def read_pages(c: CombatClient) -> None:
            while not stop.is_set():
                try:
                    read_ms.append(await _timed_page(c, rnd.randrange(0, n - 1000)))
                except Exception as exc:
                    errors.append(f"reader {type(exc).__name__}: {exc}")
                    return

        tasks = [asyncio.ensure_future(read_pages(c)) for c in readers]
        await asyncio.sleep(0.2)  # all ten pages in flight
        busy = await commands(args.replay_seconds)
        stop.set()
        await asyncio.gather(*tasks)
        figures = {
            "events": n, "page_events": 1000,
            "page_ms": {"median": statistics.median(pages), "max": max(pages), "count": len(pages)},
            "one_event_ms": one_ms,
            "commands_quiet": {"p50_ms": pct(quiet, 50), "p99_ms": pct(quiet, 99), "count": len(quiet)},
            "commands_while_reading": {"p50_ms": pct(busy, 50), "p99_ms": pct(busy, 99), "max_ms": max(busy),
                                       "count": len(busy)},
            "pages_read_meanwhile": {"count": len(read_ms), "median_ms": statistics.median(read_ms) if read_ms else None},
            "errors": errors,
        }
        RESULTS["replay"] = figures
        p99 = figures["commands_while_reading"]["p99_ms"]
        row("    other fight, 10 pages read", f"p50 {pct(busy, 50):.1f} ms  p99 {p99:.1f} ms ({len(busy)} commands,"
            f" {len(read_ms)} pages); quiet p99 {pct(quiet, 99):.1f} ms", "p99 <= 50 ms", p99 <= 50 and not errors)
        if errors:
            print(f"    {len(errors)} errors, first: {errors[0]}", flush=True)
        for c in readers + [gm]:
            await c.close()
    finally:
        server.stop()


# --------------------------------------------------------------------------- (9) fan-out and the floor


async def _ours(n: int, commands: int, url: str, server: ServerProcess) -> dict[str, Any]:
    """Command -> last of ``n`` subscribers (the GM and n - 1 spectators) on our server."""
    import orjson

    arrivals = Arrivals(n)
    gm, tokens, _ = await new_fight(url, players=0, spectators=n - 1)
    gm.on_event = arrivals.hook
    clients = [gm]
    for t in tokens:
        c = await CombatClient.connect(url, on_event=arrivals.hook)
        await c.subscribe(t)
        clients.append(c)
    latencies: list[float] = []
    meter: CpuMeter | None = None
    gm.received = []
    warm = min(50, commands // 5)
    for i in range(commands + warm):
        if i == warm:
            meter = CpuMeter(server)
        kind, a = adjust(i)
        t0 = time.perf_counter()
        r = await gm.command(kind, a)
        await asyncio.wait_for(arrivals.event(r["last_seq"]).wait(), 30)
        if i >= warm:
            latencies.append((max(arrivals.seen[r["last_seq"]]) - t0) * 1000)
        if len(gm.received) > 100:
            del gm.received[:-10]
    assert meter is not None
    cpu = meter.done(len(latencies))
    push = next(m for m in reversed(gm.received) if m.get("type") == "event")
    for c in clients:
        await c.close()
    return {"p50_ms": pct(latencies, 50), "p99_ms": pct(latencies, 99), "server_cpu_ms": cpu["server_cpu_ms_per_cmd"],
            "bytes_per_push": len(orjson.dumps(push)), "payload": orjson.dumps(push).decode("utf-8")}


async def _floor(n: int, broadcasts: int, payload: str) -> dict[str, Any]:
    """The same payload from a bare ``websockets`` broadcast to ``n`` clients that decode it (bench/floor_server.py)."""
    import orjson
    from websockets.asyncio.client import connect

    tmp = Path(tempfile.mkdtemp(prefix="combat-floor-")) / "payload.json"
    tmp.write_text(payload, "utf-8")
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(ROOT / "bench" / "floor_server.py"), str(port), str(tmp)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        await asyncio.wait_for(asyncio.to_thread(proc.stdout.readline), 30)
        socks = [await connect(f"ws://127.0.0.1:{port}", compression=None, max_size=None) for _ in range(n)]
        got: list[float] = []
        done = asyncio.Event()

        async def reader(ws: Any) -> None:
            async for raw in ws:
                orjson.loads(raw)
                got.append(time.perf_counter())
                if len(got) == n:
                    done.set()

        tasks = [asyncio.ensure_future(reader(ws)) for ws in socks]
        latencies: list[float] = []
        c0, s0 = own_cpu_s(), proc_cpu_s(proc.pid)
        warm = min(50, broadcasts // 5)
        for i in range(broadcasts + warm):
            if i == warm:
                s0 = proc_cpu_s(proc.pid)
            got.clear()
            done.clear()
            t0 = time.perf_counter()
            await socks[0].send("go")
            await asyncio.wait_for(done.wait(), 30)
            if i >= warm:
                latencies.append((max(got) - t0) * 1000)
        server_ms = (proc_cpu_s(proc.pid) - s0) * 1000 / broadcasts
        del c0
        for task in tasks:
            task.cancel()
        for ws in socks:
            await ws.close()
        return {"p50_ms": pct(latencies, 50), "p99_ms": pct(latencies, 99), "server_cpu_ms": server_ms}
    finally:
        proc.kill()
        proc.wait()


async def bench_fanout(args: argparse.Namespace) -> None:
    """Issue 16: one command to 1, 8, 32 and 128 subscribers, each size in alternating blocks with the
    bare-broadcast floor of the same payload to the same number of clients."""
    server = await ServerProcess().start()
    out: dict[str, Any] = {}
    try:
        for n in args.watchers:
            commands = args.fanout_commands if n <= 32 else max(100, args.fanout_commands // 3)
            blocks: dict[str, list[dict[str, Any]]] = {"ours": [], "floor": []}
            for _ in range(args.blocks):
                ours = await _ours(n, commands, server.url, server)
                blocks["ours"].append(ours)
                blocks["floor"].append(await _floor(n, commands, ours["payload"]))
            fig = {side: {k: statistics.median(b[k] for b in runs) for k in ("p50_ms", "p99_ms", "server_cpu_ms")}
                   for side, runs in blocks.items()}
            fig["ours"]["bytes_per_push"] = blocks["ours"][-1]["bytes_per_push"]
            out[str(n)] = fig
            o, f = fig["ours"], fig["floor"]
            row(f"(9) fan-out, {n} subscribers", f"p50 {o['p50_ms']:.2f} p99 {o['p99_ms']:.2f} ms, cpu {o['server_cpu_ms']:.2f} ms,"
                f" {o['bytes_per_push']} B/push", "", None)
            row("    bare broadcast, same payload", f"p50 {f['p50_ms']:.2f} p99 {f['p99_ms']:.2f} ms, cpu {f['server_cpu_ms']:.2f} ms",
                f"ratio p50 {o['p50_ms'] / f['p50_ms']:.1f}x, cpu {o['server_cpu_ms'] / max(f['server_cpu_ms'], 1e-9):.1f}x",
                None)
    finally:
        server.stop()
    RESULTS["fanout"] = out


# --------------------------------------------------------------------------- (11) bytes per push by fight size


class _Counting:
    """A subscriber that only counts what it is sent (in-process: the bytes do not depend on sockets)."""

    def __init__(self, seat: Any, chain: bool = False) -> None:
        self.seat = seat
        self.chain = chain  # subscribe.chain (protocol 4): the record whole, for clients checking the chain
        self.sent: list[str] = []

    def deliver(self, text: str) -> bool:
        self.sent.append(text)
        return True

    def drop_too_slow(self) -> None:
        pass


def _in_process_fight(combatants: int) -> tuple[Any, Any, str]:
    """An engine on a fresh SQLite file, a fight with ``combatants`` combatants, and its hub."""
    from combat_server.engine.fight import Engine
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.server.hub import FightHub
    from combat_server.store.sql import open_store

    store = open_store(f"sqlite:///{tempfile.mkdtemp(prefix='combat-bench-')}/bytes.sqlite", migrate=True)
    engine = Engine(store)
    fid = engine.create_fight("gurps", title="bytes").fight_id
    for i in range(combatants):
        cid = "abcd"[i] if i < 4 else f"x{i}"  # the bench's adjust names "c"
        engine.execute(fid, Command("add_combatant", {"id": cid, "name": cid.upper(), "side": "npc", "sheet": SHEET},
                                    GM_ACTOR, f"gm:add-{i}"))
    return engine, FightHub(engine, fid), fid


def _bytes_for(combatants: int, commands: int) -> dict[str, float]:
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.server.hub import Seat

    engine, hub, fid = _in_process_fight(combatants)
    store = engine.store
    watcher = _Counting(Seat(fid, "spectator-1", "spectator"))

    async def run() -> float:
        async with hub.lock:
            hub.add(watcher, hub.synced_seq)
            t0 = time.perf_counter()
            for i in range(commands):
                before = hub.state()
                kind, a = adjust(i)
                result = engine.execute(fid, Command(kind, a, GM_ACTOR, f"gm:adjust-{i}"))
                hub.publish(result, before)
            return (time.perf_counter() - t0) * 1000 / commands

    ms = asyncio.run(run())
    store.dispose()
    pushes = [len(t.encode("utf-8")) for t in watcher.sent]
    return {"bytes_per_push": statistics.median(pushes), "execute_and_publish_ms": ms}


async def bench_bytes(args: argparse.Namespace) -> None:
    """Issue 16: what a one-HP change costs on the wire, per subscriber, as the fight grows."""
    out = {}
    for n in (4, 500):
        out[str(n)] = fig = await asyncio.to_thread(_bytes_for, n, 200)
        row(f"(11) one-HP push, {n} combatants", f"{fig['bytes_per_push']:.0f} B per subscriber; execute + publish "
            f"{fig['execute_and_publish_ms']:.2f} ms (1 watcher, in process)", "<= 300 B", fig["bytes_per_push"] <= 300)
    RESULTS["bytes"] = out


# --------------------------------------------------------------------------- (12) server CPU of execute + publish


def _publish_cpu(combatants: int, commands: int) -> dict[str, float]:
    """CPU (process time, load-independent enough to compare) of ``Engine.execute`` + ``FightHub.publish``
    per command, to the latency scenario's 8 seats as in-process subscribers (no sockets), and of the
    hash of one view: ``view_hash`` whole against the hub's ``ViewHasher``."""
    from combat_server.rules.model import GM_ACTOR, Command
    from combat_server.server.hub import Seat

    engine, hub, fid = _in_process_fight(combatants)
    seats = ([Seat(fid, "gm", "gm")] + [Seat(fid, f"player-{i}", "player", combatants=("ab"[i % 2],)) for i in range(4)]
             + [Seat(fid, f"spectator-{i}", "spectator") for i in range(3)])
    subs = [_Counting(seat) for seat in seats]

    hashes: dict[str, list[float]] = {"view_hash": [], "ViewHasher": []}
    try:
        from combat_server.patch import ViewHasher, view_hash
        hasher: Any = ViewHasher()
    except ImportError:  # a tree from before ViewHasher: only the whole hash
        from combat_server.patch import view_hash
        hasher = None

    def command(i: int, prefix: str) -> None:
        before = hub.state()
        kind, a = adjust(i)
        hub.publish(engine.execute(fid, Command(kind, a, GM_ACTOR, f"gm:{prefix}-{i}")), before)

    async def run() -> list[float]:
        async with hub.lock:
            for sub in subs:
                hub.add(sub, hub.synced_seq)
                hub.live_view(sub)
            out = []
            for i in range(commands + 20):
                t0 = time.process_time()
                command(i, "adjust")
                if i >= 20:  # warm-up
                    out.append((time.process_time() - t0) * 1000)
            for i in range(40):  # one view's hash, whole and cached, of views that change one HP each
                command(i, "hash")
                state = hub.synced_state
                view = hub._builder.view(get_ruleset_of(state), state, frozenset())
                t0 = time.perf_counter()
                whole = view_hash(view)
                t1 = time.perf_counter()
                if hasher is not None:
                    assert hasher(view) == whole
                    hashes["ViewHasher"].append((time.perf_counter() - t1) * 1000)
                hashes["view_hash"].append((t1 - t0) * 1000)
            return out

    per_command = asyncio.run(run())
    engine.store.dispose()
    return {"cpu_ms": statistics.mean(per_command), "view_hash_ms": statistics.median(hashes["view_hash"][5:]),
            "view_hasher_ms": statistics.median(hashes["ViewHasher"][5:]) if hashes["ViewHasher"] else float("nan")}


def get_ruleset_of(state: Any) -> Any:
    from combat_server.rules.ruleset import get_ruleset
    return get_ruleset(state.ruleset, state.ruleset_version)


async def bench_publish(args: argparse.Namespace) -> None:
    """Issue 16 item 3: the server's own CPU per command without sockets, as the fight grows."""
    out = {}
    for n, commands in ((4, 1000), (500, 200)):
        out[str(n)] = fig = await asyncio.to_thread(_publish_cpu, n, commands)
        row(f"(12) execute + publish, {n} comb.", f"{fig['cpu_ms']:.3f} ms CPU per command (8 seats, in process); "
            f"one view's hash {fig['view_hash_ms']:.3f} ms whole, {fig['view_hasher_ms']:.3f} ms cached", "", None)
    RESULTS["publish"] = out


# --------------------------------------------------------------------------- (10) the peer: Colyseus

PEER_DIR = ROOT / "bench" / "peers" / "colyseus"


async def _colyseus(url: str, n: int, moves: int, pid: int) -> dict[str, Any]:
    s0 = proc_cpu_s(pid)
    proc = await asyncio.create_subprocess_exec("node", "client.mjs", url, str(n), str(moves), cwd=PEER_DIR,
                                                stdout=asyncio.subprocess.PIPE)
    out, _ = await asyncio.wait_for(proc.communicate(), 600)
    warm = min(50, moves // 5)
    figures: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    figures["server_cpu_ms"] = (proc_cpu_s(pid) - s0) * 1000 / (moves + warm)  # joins included: a small overcount
    return figures


async def bench_peer(args: argparse.Namespace) -> None:
    """Issue 16: the same workload (one command changes one HP value and appends to the log) on a
    Colyseus 0.16 room, in alternating blocks with ours, same client counts; prints the ratios.
    Skipped with a message where node or the peer's packages are missing (not part of CI)."""
    import shutil

    if shutil.which("node") is None or not (PEER_DIR / "node_modules").is_dir():
        print(f"(10) peer scenario skipped: needs node and `npm install` in {PEER_DIR.relative_to(ROOT)}", flush=True)
        return
    ours_server = await ServerProcess().start()
    port = free_port()
    peer = subprocess.Popen(["node", "server.mjs", str(port)], cwd=PEER_DIR, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    out: dict[str, Any] = {}
    try:
        assert peer.stdout is not None
        while b"listening" not in await asyncio.wait_for(asyncio.to_thread(peer.stdout.readline), 30):
            pass
        for n in args.watchers:
            commands = args.fanout_commands if n <= 32 else max(100, args.fanout_commands // 3)
            runs: dict[str, list[dict[str, Any]]] = {"ours": [], "colyseus": []}
            for _ in range(args.blocks):
                runs["ours"].append(await _ours(n, commands, ours_server.url, ours_server))
                runs["colyseus"].append(await _colyseus(f"ws://127.0.0.1:{port}", n, commands, peer.pid))
            fig = {side: {k: statistics.median(b[k] for b in r) for k in ("p50_ms", "p99_ms", "server_cpu_ms")}
                   for side, r in runs.items()}
            fig["ours"]["bytes_per_push"] = runs["ours"][-1]["bytes_per_push"]
            fig["colyseus"]["bytes_per_push"] = runs["colyseus"][-1]["bytes_per_update"]
            fig["ratio"] = {k: fig["ours"][k] / max(fig["colyseus"][k], 1e-9) for k in ("p50_ms", "p99_ms", "server_cpu_ms")}
            out[str(n)] = fig
            o, c, r = fig["ours"], fig["colyseus"], fig["ratio"]
            row(f"(10) {n} clients: ours", f"p50 {o['p50_ms']:.2f} p99 {o['p99_ms']:.2f} ms, cpu {o['server_cpu_ms']:.2f} ms, "
                f"{o['bytes_per_push']:.0f} B", "", None)
            row("     Colyseus 0.16", f"p50 {c['p50_ms']:.2f} p99 {c['p99_ms']:.2f} ms, cpu {c['server_cpu_ms']:.2f} ms, "
                f"{c['bytes_per_push']:.0f} B", f"ours/peer p50 {r['p50_ms']:.1f}x p99 {r['p99_ms']:.1f}x cpu {r['server_cpu_ms']:.2f}x",
                None)
    finally:
        ours_server.stop()
        peer.kill()
        peer.wait()
    RESULTS["peer"] = out


# --------------------------------------------------------------------------- (8) append


def _append_figures(n: int) -> dict[str, float]:
    """Microseconds per one-event append with its command row, in one process, on one SQLite file: the
    store's path, the pooled ``engine.begin()`` path it replaced and the bare ``sqlite3`` driver, each with
    the ordered ids ``CombatClient`` makes (``CommandIds``), and the store's path with random ids (uuid4, what
    ``CombatClient`` sent before session 14)."""
    import sqlite3

    from combat_server.client import CommandIds
    from combat_server.rules.model import Event
    from combat_server.store.sql import _SQLITE_COMMAND, _SQLITE_EVENT, open_store

    tmp = tempfile.mkdtemp(prefix="combat-bench-")
    store = open_store(f"sqlite:///{tmp}/append.sqlite", migrate=True)
    with store.engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO fights (fight_id, ruleset, ruleset_version, title, created_at) "
                             "VALUES ('f', 'gurps', '1', 'bench', 'now')")
    payload = {"before": {"hp": 5}, "changes": {"hp": 6}, "combatant": "c", "reason": "bench"}
    seq = 0
    ordered = CommandIds()

    def event(i: int, command_id: str) -> Event:
        return Event("f", i, "condition_adjusted", payload, "gm", command_id, "now", "1", "p" * 64, "h" * 64)

    def store_path(i: int, command_id: str) -> None:
        store.append("f", i - 1, [event(i, command_id)], command_id, "gm", "d" * 64)

    def pooled(i: int, command_id: str) -> None:
        with store.engine.begin() as conn:
            conn.exec_driver_sql(_SQLITE_COMMAND, ("f", command_id, i, i, "gm", "d" * 64))
            conn.exec_driver_sql(_SQLITE_EVENT, store._event_row(event(i, command_id)))

    bare = sqlite3.connect(f"{tmp}/append.sqlite", isolation_level=None)
    bare.execute("PRAGMA synchronous=NORMAL")

    def bare_driver(i: int, command_id: str) -> None:
        bare.execute("BEGIN")
        bare.execute(_SQLITE_COMMAND, ("f", command_id, i, i, "gm", "d" * 64))
        bare.execute(_SQLITE_EVENT, store._event_row(event(i, command_id)))
        bare.execute("COMMIT")

    paths = (("store", store_path, ordered), ("pooled_begin", pooled, ordered), ("bare_sqlite3", bare_driver, ordered),
             ("store_random_ids", store_path, lambda: uuid.uuid4().hex))
    out: dict[str, list[float]] = {name: [] for name, _, _ in paths}
    for _ in range(5):  # alternating blocks: the machine's noise falls on all of them alike
        for name, fn, new_id in paths:
            ids = [f"gm:{new_id()}" for _ in range(n)]
            t0 = time.perf_counter()
            for command_id in ids:
                seq += 1
                fn(seq, command_id)
            out[name].append((time.perf_counter() - t0) / n * 1e6)
    bare.close()
    store.dispose()
    return {name: statistics.median(v) for name, v in out.items()}


async def bench_append(args: argparse.Namespace) -> None:
    figures = await asyncio.to_thread(_append_figures, 1000)
    RESULTS["append"] = {f"{k}_us": v for k, v in figures.items()}
    row("(8) one-event append, SQLite", f"store {figures['store']:.0f} us, pooled begin {figures['pooled_begin']:.0f}"
        f" us, bare sqlite3 {figures['bare_sqlite3']:.0f} us; store, random ids {figures['store_random_ids']:.0f} us",
        f"ratio to bare {figures['store'] / figures['bare_sqlite3']:.2f}",
        None)


def _append_cpu_by_ids(kind: str, before: int, n: int) -> float:
    """CPU microseconds (this process, user + system) per one-event append through the store, on a fresh
    SQLite file whose fight already holds ``before`` commands, every id of ``kind``: ``ordered``
    (``CommandIds``, what ``CombatClient`` sends) or ``random`` (uuid4 hex, what it sent before session 14)."""
    from combat_server.client import CommandIds
    from combat_server.rules.model import Event
    from combat_server.store.sql import open_store

    tmp = tempfile.mkdtemp(prefix="combat-bench-")
    store = open_store(f"sqlite:///{tmp}/ids.sqlite", migrate=True)
    fight, seat = "f" * 16, "s" * 32
    with store.engine.begin() as conn:
        conn.exec_driver_sql("INSERT INTO fights (fight_id, ruleset, ruleset_version, title, created_at) "
                             f"VALUES ('{fight}', 'gurps', '1', 'bench', 'now')")
    new_id: Callable[[], str] = CommandIds() if kind == "ordered" else (lambda: uuid.uuid4().hex)
    payload = {"before": {"hp": 5}, "changes": {"hp": 6}, "combatant": "c", "reason": "bench"}

    def append(i: int) -> None:
        command_id = f"{seat}:{new_id()}"
        store.append(fight, i - 1, [Event(fight, i, "condition_adjusted", payload, seat, command_id,
                                          "2026-11-27T00:00:00.000000Z", "1", "p" * 64, "h" * 64)],
                     command_id, seat, "d" * 64)

    for i in range(1, before + 1):
        append(i)
    c0 = own_cpu_s()
    for i in range(before + 1, before + n + 1):
        append(i)
    spent = own_cpu_s() - c0
    store.dispose()
    return spent / n * 1e6


async def bench_append_ids(args: argparse.Namespace) -> None:
    """Session 14: what a command id's order costs the append (the commands row's page), alternating."""
    runs: dict[str, list[float]] = {"ordered": [], "random": []}
    for _ in range(3):
        for kind, figures in runs.items():
            figures.append(await asyncio.to_thread(_append_cpu_by_ids, kind, 5000, 5000))
    med = {kind: statistics.median(v) for kind, v in runs.items()}
    RESULTS["append_ids"] = {f"{kind}_cpu_us": v for kind, v in med.items()}
    row("(8b) append by command ids", f"ordered {med['ordered']:.1f} us, random {med['random']:.1f} us CPU",
        f"ratio {med['ordered'] / med['random']:.2f}", None)


# --------------------------------------------------------------------------- main

BENCHES: dict[str, Callable[[argparse.Namespace], Awaitable[None]]] = {
    "latency": bench_latency, "load": bench_load, "throughput": bench_throughput, "cold_load": bench_cold_load,
    "catchup": bench_catchup, "memory": bench_memory, "replay": bench_replay, "append": bench_append,
    "append_ids": bench_append_ids,
    "fanout": bench_fanout, "peer": bench_peer, "bytes": bench_bytes, "publish": bench_publish,
}


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("which", nargs="*", default=["all"], help="all, or some of: " + ", ".join(BENCHES))
    p.add_argument("--n", type=int, default=1000, help="(1) commands measured")
    p.add_argument("--fights", type=int, default=300, help="(2) fights")
    p.add_argument("--rate", type=float, default=150, help="(2) commands per second in total")
    p.add_argument("--seconds", type=float, default=20, help="(2), (3) measuring time")
    p.add_argument("--tp-fights", type=int, default=16, help="(3) fights sending commands in parallel")
    p.add_argument("--pg", default=os.environ.get("COMBAT_BENCH_PG_URL", "postgresql+psycopg://postgres@127.0.0.1/test"),
                   help="(3) PostgreSQL base URL ('' to skip)")
    p.add_argument("--events", type=int, default=10_000, help="(4) events in the fight")
    p.add_argument("--connections", type=int, default=1000, help="(6) idle connections")
    p.add_argument("--mem-fights", type=int, default=200, help="(6) fights loaded")
    p.add_argument("--replay-events", type=int, default=100_000, help="(7) events in the long fight")
    p.add_argument("--replay-pages", type=int, default=10, help="(7) pages timed one at a time")
    p.add_argument("--replay-seconds", type=float, default=20, help="(7) seconds of commands while pages are read")
    p.add_argument("--watchers", type=int, nargs="+", default=[1, 8, 32, 128], help="(9) subscriber counts")
    p.add_argument("--fanout-commands", type=int, default=300, help="(9) commands per block (a third past 32)")
    p.add_argument("--blocks", type=int, default=3, help="(9), (10) alternating blocks per size; medians reported")
    p.add_argument("--client-gc", action="store_true", help="keep the clients' cyclic GC on while measuring")
    p.add_argument("--json", default=str(ROOT / "bench" / "results.json"), help="where to write the results")
    args = p.parse_args()
    which = list(BENCHES) if "all" in args.which else args.which
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    print(f"{'measurement':<34} {'figures':<58} {'target':<28}", flush=True)
    # The clients keep every event they received, with its state (CombatClient.events): millions of
    # objects after a few thousand events. Their cyclic GC would pause this process for 100-300 ms at a
    # time and show up as server latency, so it is off while measuring (reference counting frees
    # almost all of it); --client-gc keeps it on to see that effect.
    if not args.client_gc:
        gc.disable()
    for name in which:
        await BENCHES[name](args)
        gc.collect()
    RESULTS["machine"] = {"cpus": os.cpu_count(), "python": sys.version.split()[0]}
    Path(args.json).write_text(json.dumps(RESULTS, indent=2) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
