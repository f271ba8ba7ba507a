"""Scale on one machine (issue 35, item 4), through the engine as bench.load measures it (``Matches`` on
the real store, computer decisions inline; no Discord, no rendering, no delivery).

* **10,000 live matches in one process**: the rows written in bulk as bench.load's start-up scenario
  writes them (nine in ten active Ugah games, one in ten a lobby, every timer 1-60 minutes away). Then,
  as after a restart: start-up (open + recover + the first answered click, the median of 3 restarts);
  a fresh store and ``Matches`` that decode every live match once (memory per live match: tracemalloc
  growth over ``recover`` and the decoding, / N); and on that process, holding them all, 20 clickers
  ~100 ms apart alternating a move and a stale no-op (bench.load's paced clicks). Each move's commit is
  timed apart: the store object's ``commit`` is wrapped (an attribute of that one object over its
  class's method, so the bot's code runs unchanged) and the time spent in it is summed per asyncio
  task. The commit is everything from the engine's call of ``Store.commit`` until it returns: waiting
  for the database's writer and the other moves' group, the transaction, the sync, the thread or the
  round trip back, and the event loop's turn to resume the move. The bot's own part of a move is the move minus its commit: ``get``, the lock, the
  rules, the bookkeeping around the commit, the timer re-armed, and the event loop's turns between.
* **Two to four processes on one PostgreSQL**: as the bot is deployed on several processes
  (docs/operations.md): one database and one schema, every process with its own ``Matches`` owning its
  shards' guilds (``bot.client.owner``, ``SHARD_COUNT`` = N), hearing every other process's commits
  (LISTEN/NOTIFY), a pool of 10 connections each. Each process starts 50 matches of its own guild,
  then, together (a barrier), each moves its matches as fast as it can for a fixed time (bench.load's
  saturation: one task a match, a finished game replaced). Reported: moves a second of all of them
  against one process, the CPU a move took in the bot processes and in the PostgreSQL server (from
  /proc), and how busy the machine's cores were meanwhile, by these and by anyone else's processes
  (/proc/stat). This machine has 2 cores, shared by the bot processes and the server: past two
  processes, more of them only share the same CPU.

SQLite is a temp file (WAL, synchronous=NORMAL); PostgreSQL a throwaway server on loopback with fsync
on (``harness.pgserver``), sharing the CPUs. ``python -m bench.scale [--quick]`` runs this step alone
(about 2 minutes; --quick: 1,000 paced clicks instead of 4,000 and 3 s a process count instead of 10,
under a minute).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import queue
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench import Row, load, ms, pct
from bench.table import run_alone
from engine.compute import run_inline
from engine.match import Matches
from engine.store.base import Store
from engine.store.sqlite import SqliteStore

OWN_AIM = 0.002  # the bot's own part of a paced move, p99 (issue 35)
RESTARTS = 3
SCALES = {
    # live matches, paced clicks (half of them moves), matches a process, seconds a process count
    "quick": {"live": 10_000, "clicks": 1_000, "tasks": 50, "seconds": 3.0, "counts": (1, 2, 3, 4)},
    "full": {"live": 10_000, "clicks": 4_000, "tasks": 50, "seconds": 10.0, "counts": (1, 2, 3, 4)},
}


def _say(text: str) -> None:
    print(f"bench: scale: {text}", file=sys.stderr, flush=True)


class CommitClock:
    """Times each move's commit: wraps ``store.commit`` on the store object (the engine calls it as
    ``self.store.commit``, so it finds the wrapper; nothing else changes) and sums the time spent in it
    per asyncio task, a click being one task from ``get`` to ``act``'s return."""

    def __init__(self, store: Store) -> None:
        self.split: list[tuple[float, float]] = []  # (move, of which its commit), seconds
        self._took: dict[asyncio.Task[Any] | None, float] = {}
        inner = store.commit

        async def commit(*args: Any, **kw: Any) -> None:
            t0 = time.perf_counter()
            try:
                return await inner(*args, **kw)
            finally:
                task = asyncio.current_task()
                self._took[task] = self._took.get(task, 0.0) + time.perf_counter() - t0

        store.commit = commit  # type: ignore[method-assign]

    async def move(self, matches: Matches, mid: int, rng: random.Random) -> tuple[float, bool] | None:
        """bench.load's move, its commit time noted beside it."""
        task = asyncio.current_task()
        self._took.pop(task, None)
        moved = await load._move(matches, mid, rng)
        took = self._took.pop(task, 0.0)
        if moved is not None:
            self.split.append((moved[0], took))
        return moved

    def own(self) -> list[float]:
        """Each move minus its commit."""
        return [move - commit for move, commit in self.split]

    def commits(self) -> list[float]:
        return [commit for _, commit in self.split]


# ---- 10,000 live matches in one process ---------------------------------------------------------


async def one_process(
    new_store: load.NewStore, n_live: int, clicks: int, clickers: int = 20, pause: float = 0.1
) -> dict[str, Any]:
    """``n_live`` live matches: start-up (median of RESTARTS), then one process holding them all,
    its memory, and ``clicks`` paced clicks with every move's commit timed apart."""
    active = await load._fill(new_store, n_live)
    rng = random.Random(21)
    starts = [await load._restart(new_store, active, rng, [0], check=False) for _ in range(RESTARTS)]
    store = new_store("startup")  # bench.load._fill's database
    await store.open()
    matches = load._engine(store)
    try:
        live, held, _ = await load.held_decoded(matches, store)
        timed = CommitClock(store)
        paced = await load._clicks(matches, list(active), clicks, clickers, pause, rng, move=timed.move)
    finally:
        await load._close(matches, store)
    return {
        "live": live,
        "startup": sorted(r["total"] for r in starts)[(len(starts) - 1) // 2],
        "restarts": len(starts),
        "bytes_per_match": held / max(1, live),
        "paced": paced,
        "own": timed.own(),
        "commits": timed.commits(),
    }


# ---- several processes on one PostgreSQL ----------------------------------------------------------


def _guild(shard: int) -> int:
    """A guild id on ``shard`` whatever the shard count above it: Discord's (id >> 22) % count."""
    return (shard << 22) + 1


async def _flat_out(matches: Matches, mids: list[int], seconds: float, shard: int) -> int:
    """bench.load's saturation: a task a match, each moving it as fast as it can; a finished game is
    replaced by a new one (its lobby's commits not counted). The moves made."""
    channels = iter(range(shard * 10**7 + len(mids) + 1, 10**9))
    moves = [0] * len(mids)

    async def player(i: int, stop_at: float) -> None:
        rng, mid = random.Random(shard * 1000 + i), mids[i]
        while time.perf_counter() < stop_at:
            moved = await load._move(matches, mid, rng)
            if moved is not None:
                moves[i] += 1
            if moved is None or not moved[1]:
                mid = await load._start(matches, next(channels), rng.getrandbits(31), _guild(shard))

    t0 = time.perf_counter()
    await asyncio.gather(*(player(i, t0 + seconds) for i in range(len(mids))))
    return sum(moves)


async def _process_moves(
    url: str, schema: str, shard: int, count: int, tasks: int, seconds: float, barrier: Any
) -> dict[str, Any]:
    from bot.client import owner
    from engine.store.postgres import PostgresStore

    store = PostgresStore(url, schema=schema, pool_size=load.PG_POOL)
    await store.open()
    matches = Matches(store, time.time, turn_seconds=3600, run=run_inline, owns=owner(count, (shard,)))
    try:
        await matches.recover()  # listens to the other processes' commits, as the bot does
        channels = range(shard * 10**7 + 1, shard * 10**7 + tasks + 1)
        starts = [load._start(matches, c, seed=c, guild=_guild(shard)) for c in channels]
        mids = await load._gathered(starts, 20)
        await asyncio.to_thread(barrier.wait, 300)  # every process ready: go together
        cpu, t0 = time.process_time(), time.perf_counter()
        moves = await _flat_out(matches, mids, seconds, shard)
        took, cpu = time.perf_counter() - t0, time.process_time() - cpu
        return {"moves": moves, "seconds": took, "cpu": cpu, "locks": len(matches._locks)}
    finally:
        await load._close(matches, store)


def _process(
    url: str, schema: str, shard: int, count: int, tasks: int, seconds: float, barrier: Any, out: Any
) -> None:
    """One bot process of ``count`` (spawned): its figures, or the error that stopped it, on ``out``."""
    try:
        out.put(asyncio.run(_process_moves(url, schema, shard, count, tasks, seconds, barrier)))
    except BaseException as err:
        barrier.abort()
        out.put({"error": repr(err)})
        raise


def _cpu_seconds(pids: list[int]) -> dict[int, float]:
    """user + system CPU of each process (a process gone meanwhile is left out)."""
    out, tick = {}, os.sysconf("SC_CLK_TCK")
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        out[pid] = (int(fields[11]) + int(fields[12])) / tick
    return out


def _error(out: Any) -> str:
    try:
        return str(out.get(timeout=5))
    except queue.Empty:
        return "(no word from it)"


def _machine_busy() -> float:
    """CPU seconds the whole machine has spent busy (every core, every process: /proc/stat)."""
    with open("/proc/stat") as f:
        ticks = [int(x) for x in f.readline().split()[1:9]]
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # (less idle and iowait)


def processes(
    url: str, server_pids: Any, count: int, tasks: int, seconds: float, schema: str = "scale_procs"
) -> dict[str, Any]:
    """``count`` bot processes on one PostgreSQL, each moving ``tasks`` matches flat out for
    ``seconds``; ``server_pids()``: the server's processes (its CPU is measured over the same time)."""
    ctx = multiprocessing.get_context("spawn")
    barrier, out = ctx.Barrier(count + 1), ctx.Queue()
    schema = f"{schema}{count}"  # one schema, shared by the processes of this count
    procs = [
        ctx.Process(target=_process, args=(url, schema, k, count, tasks, seconds, barrier, out))
        for k in range(count)
    ]
    for p in procs:
        p.start()
    try:
        while barrier.n_waiting < count:  # (a process that dies before it is ready never arrives)
            if any(p.exitcode is not None for p in procs):
                raise RuntimeError(f"a bot process failed before it was ready: {_error(out)}")
            time.sleep(0.05)
        barrier.wait(60)
        server0, busy, t0 = _cpu_seconds(server_pids()), _machine_busy(), time.perf_counter()
        time.sleep(seconds)
        server1, busy = _cpu_seconds(server_pids()), _machine_busy() - busy
        busy /= time.perf_counter() - t0
        results = [out.get(timeout=seconds + 300) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=60)
            if p.exitcode is None:  # stuck: this bench's own process, ended by its handle
                p.kill()
    errors = [r["error"] for r in results if "error" in r]
    if errors:
        raise RuntimeError(f"a bot process failed: {errors[0]}")
    moves = sum(r["moves"] for r in results)
    return {
        "processes": count,
        "tasks": tasks,
        "seconds": max(r["seconds"] for r in results),
        "moves": moves,
        "moves_per_s": sum(r["moves"] / r["seconds"] for r in results),
        "bot_cpu_per_move": sum(r["cpu"] for r in results) / max(1, moves),
        "server_cpu_per_move": sum(v - server0.get(pid, 0.0) for pid, v in server1.items()) / max(1, moves),
        "cores_busy": busy,  # the machine's, whoever's (the bench's, the server's, anyone else's)
        "locks": max(r["locks"] for r in results),
    }


# ---- both backends, the rows -----------------------------------------------------------------------


def sqlite_figures(scale: dict[str, Any]) -> dict[str, Any]:
    _say(f"SQLite: {scale['live']:,} live matches in one process, {scale['clicks']:,} paced clicks")
    with tempfile.TemporaryDirectory(prefix="stoneage-scale-") as tmp:
        new_store = lambda name: SqliteStore(str(Path(tmp) / f"{name}.db"))  # noqa: E731
        return asyncio.run(one_process(new_store, scale["live"], scale["clicks"]))


def postgres_figures(scale: dict[str, Any]) -> tuple[dict[str, Any] | str, list[dict[str, Any]] | str]:
    """One process holding the live matches, then 1-4 processes: the figures, or why skipped."""
    from engine.store.postgres import PostgresStore
    from harness import pgserver

    if pgserver.binaries() is None:
        why = "skipped: no PostgreSQL binaries on this machine (Debian's postgresql package)"
        return why, why
    try:
        context = pgserver.controlled(durable=True)
        server = context.__enter__()
    except Exception as err:  # a server that cannot start is reported, not fatal to the bench
        why = f"skipped: the PostgreSQL server did not start ({err})"
        return why, why
    try:
        _say(f"PostgreSQL: {scale['live']:,} live matches in one process, {scale['clicks']:,} paced clicks")
        url = server.url
        new_store = lambda name: PostgresStore(url, schema=f"scale_{name}", pool_size=load.PG_POOL)  # noqa: E731
        held = asyncio.run(one_process(new_store, scale["live"], scale["clicks"]))
        procs = []
        for count in scale["counts"]:
            _say(f"PostgreSQL: {count} process(es), {scale['tasks']} matches each, {scale['seconds']:.0f} s")
            procs.append(processes(url, server.pids, count, scale["tasks"], scale["seconds"]))
        return held, procs
    finally:
        context.__exit__(None, None, None)


def _p50_p99(samples: list[float]) -> str:
    return f"{ms(pct(samples, 0.5))} / {ms(pct(samples, 0.99))}" if samples else "-"


def held_rows(b: str, f: dict[str, Any], quick: bool) -> list[Row]:
    c = f["paced"]
    how = f"{c['clickers']} clickers ~{c['pause'] * 1e3:.0f} ms apart{', quick run' if quick else ''}"
    own = f["own"]
    return [
        Row(
            f"scale {b}: {f['live']:,} live in one process: start-up, open + recover + first click "
            f"(median of {f['restarts']})",
            f"{f['startup']:.3f} s",
        ),
        Row(
            f"scale {b}:   memory per live match, all {f['live']:,} decoded (tracemalloc)",
            load._kib(f["bytes_per_match"]),
        ),
        Row(
            f"scale {b}:   paced move p50 / p99, {how} ({c['per_s']:,.0f} clicks/s; n={len(c['moves'])})",
            _p50_p99(c["moves"]),
        ),
        Row(
            f"scale {b}:     of which the bot's own part (move minus its commit) p50 / p99",
            _p50_p99(own),
            f"p99 ≤ {OWN_AIM * 1e3:.0f} ms",
            bool(own) and pct(own, 0.99) <= OWN_AIM,
        ),
        Row(f"scale {b}:     the commit (Store.commit until it returns) p50 / p99", _p50_p99(f["commits"])),
        Row(f"scale {b}:   event-loop lag p99 meanwhile (5 ms ticker)", ms(c["lag_p99"])),
    ]


def process_rows(procs: list[dict[str, Any]]) -> list[Row]:
    one = next((p["moves_per_s"] for p in procs if p["processes"] == 1), None)
    out = []
    for p in procs:
        ratio = f"{p['moves_per_s'] / one:.2f}x one process" if one else "no one-process run"
        ours = p["moves_per_s"] * (p["bot_cpu_per_move"] + p["server_cpu_per_move"])  # bot + server
        out.append(
            Row(
                f"scale PostgreSQL: {p['processes']} process(es) on one PostgreSQL, {os.cpu_count()} cores in all "
                f"({p['tasks']} matches each flat out, {p['seconds']:.0f} s, n={p['moves']:,}): moves/s",
                f"{p['moves_per_s']:,.0f} /s ({ratio}; CPU a move: bot {ms(p['bot_cpu_per_move'])}, "
                f"PostgreSQL {ms(p['server_cpu_per_move'])}; cores busy: these {ours:.2f}, the machine "
                f"{p['cores_busy']:.2f} of {os.cpu_count()})",
            )
        )
    return out


def rows(
    held: dict[str, dict[str, Any] | str], procs: list[dict[str, Any]] | str, quick: bool = False
) -> list[Row]:
    """The one-process rows of each backend, side by side, then the processes' rows; a skipped part
    is one row saying why."""
    out = [Row(f"scale {b}", f) for b, f in held.items() if isinstance(f, str)]
    shown = [held_rows(b, f, quick) for b, f in held.items() if not isinstance(f, str)]
    for group in zip(*shown, strict=True):
        out.extend(group)
    if isinstance(procs, str):
        out.append(Row("scale PostgreSQL: several processes", procs))
    else:
        out.extend(process_rows(procs))
    return out


def run(quick: bool) -> list[Row]:
    """The bench step: SQLite, then one PostgreSQL server for one process and for 1-4 of them."""
    scale = SCALES["quick" if quick else "full"]
    sqlite = sqlite_figures(scale)
    pg, procs = postgres_figures(scale)
    return rows({"SQLite": sqlite, "PostgreSQL": pg}, procs, quick)


def main() -> None:
    run_alone("scale", __doc__ or "", run, "fewer paced clicks, shorter process runs")


if __name__ == "__main__":
    main()
