"""Load figures, SQLite and PostgreSQL side by side, measured through the engine (``engine.match.Matches``
on the real store, computer decisions inline): no Discord, no rendering, no delivery, so a click here is
the engine's share of a real click (bench.discord_roundtrip measures the whole round trip).

* **1,000 live matches in one process**: two-human Ugah matches on channels 1..N, built through the
  engine (lobby, join, start). A fresh ``Matches`` (as after a restart) decodes each once, then clickers
  (20 at once, never two on one match) click random matches, alternating a move and a no-op: first flat
  out, then pausing ~100 ms (exponential) between clicks. A move is what the router does for a game
  button: ``get`` then ``act`` with a legal action on the version shown (apply, commit, re-arm the
  timer). The no-op is the same path refused: ``get`` then ``act`` carrying a stale version: it takes the
  match's lock (on PostgreSQL also the ``version_of`` read that checks the cached copy) and raises
  StaleAction before anything is applied or written (on SQLite it touches no database at all). Event-loop
  lag: a ticker's oversleep of ``asyncio.sleep(5 ms)`` meanwhile. Memory per live match: tracemalloc
  growth over the fresh ``recover`` plus decoding every match (cached row and state, timer task) / N.
* **Start-up with 10,000 live matches**: rows written in bulk (one transaction) from 50 matches built
  through the engine (0-12 moves in); nine in ten active games (turn timer), one in ten a lobby (lobby
  timer); every timer is due 1-60 minutes later, so none fires during the measurement. Then, with a fresh
  store and ``Matches`` (as after a restart, in a process that has already imported everything):
  ``store.open()`` + ``recover()`` + the first answered click (``get`` + ``act`` on a random active
  match, which decodes that match only), with ``check_live`` started in the background right after
  ``recover`` as the bot's ``setup_hook`` does: the median of 5 restarts, and the p90. The click comes
  at once, the worst moment (a real one waits at least for the gateway). In the last restart, how long
  ``check_live`` takes, with the loop lag and clicks (one every ~20 ms) measured while it runs.
  Slash-command sync and the gateway are not part of it.
* **Move commits per second at saturation**: 50 matches, one task each moving its own match as fast
  as it can for a fixed time (a finished game is replaced; its lobby commits are not counted); then the
  raw ``Store.commit`` rate (50 tasks re-committing their row with one action row, no rules).

SQLite is a temp file (WAL, synchronous=NORMAL: no fsync per commit). PostgreSQL 15 is a throwaway
server on loopback with fsync and synchronous commits on (``harness.pgserver.running(durable=True)``),
pool of 10 connections, sharing this machine's CPUs with the bench. Every scenario has its own database
(SQLite file or PostgreSQL schema). ``python -m bench.load [--quick]`` runs this step alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench import Row, ms, pct
from bench.table import run_alone
from engine.compute import run_inline
from engine.errors import StaleAction
from engine.games.ugah import RULES
from engine.match import Matches
from engine.meta import MatchMeta
from engine.store import LoggedAction, MatchRow, SeatInfo
from engine.store import columns as store_module
from engine.store.base import Store
from engine.store.sqlite import SqliteStore

NewStore = Callable[[str], Store]  # a database's name -> an unopened store on it
PG_POOL = 10
TICK = 0.005


def _say(text: str) -> None:
    print(f"bench: load: {text}", file=sys.stderr, flush=True)


def _engine(store: Store) -> Matches:
    return Matches(store, time.time, turn_seconds=3600, run=run_inline)


def _users(channel: int) -> tuple[int, int]:
    return 10 * channel + 1, 10 * channel + 2


async def _start(matches: Matches, channel: int, seed: int, guild: int = 1) -> int:
    """A two-human Ugah match through the engine, as the buttons do: lobby, join, start."""
    host, guest = _users(channel)
    variant = ("basic", "uncertain")[seed % 2]
    u = await matches.open_lobby("ugah", guild, channel, host, "alice", {"variant": variant}, seed=seed)
    u = await matches.lobby(u.match.id, u.match.version, guest, "bob", "join")
    u = await matches.lobby(u.match.id, u.match.version, host, "alice", "start")
    return u.match.id


async def _gathered(coros: list[Awaitable[Any]], at_once: int) -> list[Any]:
    gate = asyncio.Semaphore(at_once)

    async def one(coro: Awaitable[Any]) -> Any:
        async with gate:
            return await coro

    return await asyncio.gather(*(one(c) for c in coros))


async def _move(matches: Matches, mid: int, rng: random.Random) -> tuple[float, bool] | None:
    """A player's click on a game button, as the router handles it: ``get`` (decoding the match if it
    is not cached), then ``act`` with a legal action on the version shown (the player's choice of
    action, microseconds, is inside the time). (seconds, still active), or None if the match is over."""
    t0 = time.perf_counter()
    m, state = await matches.get(mid)
    if m.status != "active":
        return None
    seat = state.current
    action = rng.choice(RULES.legal_actions(state, seat))
    update = await matches.act(mid, m.public_version, m.seats[seat].user_id, action)
    return time.perf_counter() - t0, update.match.status == "active"


async def _noop(matches: Matches, mid: int) -> float:
    """The same path refused: ``get``, then ``act`` on a stale version (lock, cache check, StaleAction)."""
    t0 = time.perf_counter()
    m, state = await matches.get(mid)
    with contextlib.suppress(StaleAction):
        await matches.act(mid, m.public_version - 1, m.seats[state.current].user_id, "noop")
        raise AssertionError("a stale click was applied")
    return time.perf_counter() - t0


class _Lag:
    """Oversleep of ``asyncio.sleep(TICK)``, sampled while the block runs."""

    def __init__(self) -> None:
        self.samples: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(TICK)
            self.samples.append(time.perf_counter() - t0 - TICK)

    async def __aenter__(self) -> _Lag:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        await asyncio.sleep(0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def p99(self) -> float:
        return pct(self.samples, 0.99) if self.samples else 0.0


async def _close(matches: Matches, store: Store) -> None:
    """Close as the bot does, letting the reactions to our own last commits' notifications (PostgreSQL:
    ``Matches._heard`` tasks, which may still read) finish first rather than fail on a closed pool."""
    await matches.close()
    await asyncio.sleep(0.1)
    await store.close()


@contextlib.asynccontextmanager
async def _opened(new_store: NewStore, name: str) -> Any:
    store = new_store(name)
    await store.open()
    matches = _engine(store)
    try:
        yield matches
    finally:
        await _close(matches, store)


# ---- 1,000 live matches --------------------------------------------------------------------------


async def _clicks(
    matches: Matches,
    pool: list[int],
    clicks: int,
    clickers: int,
    pause: float,
    rng: random.Random,
    move: Callable[[Matches, int, random.Random], Awaitable[tuple[float, bool] | None]] = _move,
) -> dict[str, Any]:
    """``clicks`` clicks over random matches of ``pool``, alternating move and no-op, by ``clickers`` at
    once, each waiting an exponential ``pause`` (mean; 0: flat out) between clicks; never two clickers on
    one match. Finished matches leave the pool. ``move``: how a move is made (and timed: bench.scale
    also times its commit)."""
    moves, noops, busy, finished, remaining = [], [], set(), 0, clicks

    async def clicker(k: int) -> None:
        nonlocal remaining, finished
        turn = k % 2
        while remaining > 0 and pool:
            if pause:
                await asyncio.sleep(rng.expovariate(1 / pause))
            mid = next((m for m in (rng.choice(pool) for _ in range(20)) if m not in busy), None)
            if mid is None:  # (tiny runs) every match left is being clicked: wait for one
                await asyncio.sleep(0.001)
                continue
            remaining -= 1
            busy.add(mid)
            try:
                if turn % 2:
                    noops.append(await _noop(matches, mid))
                else:
                    moved = await move(matches, mid, rng)
                    if moved is not None:
                        moves.append(moved[0])
                    if moved is None or not moved[1]:
                        pool.remove(mid)
                        finished += 1
            finally:
                busy.discard(mid)
            turn += 1

    async with _Lag() as lag:
        t0 = time.perf_counter()
        await asyncio.gather(*(clicker(k) for k in range(clickers)))
        took = time.perf_counter() - t0
    return {
        "moves": moves,
        "noops": noops,
        "finished": finished,
        "lag_p99": lag.p99(),
        "per_s": (len(moves) + len(noops)) / took,
        "clickers": clickers,
        "pause": pause,
    }


async def held_decoded(matches: Matches, store: Store) -> tuple[int, float, list[int]]:
    """recover + every live match decoded once, as a process holding them all: (live, bytes held,
    the live matches' ids)."""
    gc.collect()
    tracing = tracemalloc.is_tracing()  # (someone else's tracing is left running)
    if not tracing:
        tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    live = await matches.recover()
    ids = [e.id for e in await store.live_entries()]
    for mid in ids:
        await matches.get(mid)
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - base
    if not tracing:
        tracemalloc.stop()
    return live, held, ids


async def live_clicks(
    new_store: NewStore, n_matches: int, clicks: int, clickers: int = 20, pause: float = 0.1
) -> dict[str, Any]:
    """N live matches; then ``clicks`` clicks flat out and ``clicks // 2`` paced (mean ``pause``
    between a clicker's clicks), by ``clickers`` at once."""
    async with _opened(new_store, "live") as building:
        await _gathered([_start(building, c, seed=c) for c in range(1, n_matches + 1)], 20)
    store = new_store("live")  # as after a restart: nothing cached
    await store.open()
    matches = _engine(store)
    try:
        live, held, ids = await held_decoded(matches, store)
        rng, pool, n = random.Random(11), list(ids), min(clickers, n_matches)
        flat = await _clicks(matches, pool, clicks, n, 0.0, rng)
        paced = await _clicks(matches, pool, clicks // 2, n, pause, rng)
    finally:
        await _close(matches, store)
    return {"matches": live, "flat": flat, "paced": paced, "bytes_per_match": held / max(1, live)}


# ---- start-up with 10,000 live matches ------------------------------------------------------------

_INSERT = (
    f"INSERT INTO matches (game, guild_id, host_id, seed, created, {store_module._MUTABLE}, "
    f"updated) VALUES (?,?,?,?,?,{store_module._MUTABLE_SLOTS})"
)  # Store.create's statement, for many rows in one transaction


async def _fill(new_store: NewStore, n_live: int, templates: int = 50) -> list[int]:
    """``n_live`` live rows: ``templates`` matches built through the engine (a few moves in), copied in
    one transaction onto further channels with fresh timers; one in ten a lobby. Returns the ids of the
    active ones (the bench's list to click from, read before the restart)."""
    rng, now = random.Random(12), time.time()
    async with _opened(new_store, "startup") as matches:
        k = min(templates, n_live)
        mids = await _gathered([_start(matches, c, seed=1000 + c) for c in range(1, k + 1)], 20)
        for mid in mids:
            for _ in range(rng.randint(0, 12)):
                if await _move(matches, mid, rng) is None:
                    break
        rows = [await matches.store.get(mid) for mid in mids]
        store = matches.store
        copies = []
        for channel in range(k + 1, n_live + 1):
            m: MatchRow = rows[channel % len(rows)].copy()
            host, guest = _users(channel)
            m.channel_id, m.host_id = channel, host
            if channel % 10 == 0:
                m.status, m.version, m.state, m.meta = "lobby", 2, None, MatchMeta()
                m.seats = [SeatInfo(host, "alice"), SeatInfo(guest, "bob")]
                m.timers = {"lobby:": now + rng.uniform(60, 900)}
            else:
                if m.status != "active":
                    continue
                m.seats[0].user_id, m.seats[1].user_id = host, guest
                m.timers = {key: now + rng.uniform(60, 3600) for key in m.timers}
            copies.append(
                (
                    m.game,
                    m.guild_id,
                    m.host_id,
                    m.seed,
                    now,
                    *store_module._mutable_values(m),
                    now,
                )
            )
        await store._write(lambda db: db.executemany(_INSERT, copies))
        return [e.id for e in await store.live_entries() if e.status == "active"]


async def _restart(
    new_store: NewStore, active: list[int], rng: random.Random, decoded: list[int], *, check: bool
) -> dict[str, Any]:
    """One restart: open + recover + the first click, with check_live started right after recover (as
    ``setup_hook`` does); ``check``: then let check_live finish, clicking and sampling the lag meanwhile
    (else it is cancelled after the first click)."""
    decoded[0] = 0
    t0 = time.perf_counter()
    store = new_store("startup")
    await store.open()
    t1 = time.perf_counter()
    matches = _engine(store)
    checking: asyncio.Task[int] | None = None
    out: dict[str, Any] = {}
    try:
        out["live"] = await matches.recover()
        t2 = time.perf_counter()
        out["decoded_by_recover"] = decoded[0]
        checking = asyncio.get_running_loop().create_task(matches.check_live())
        first = await _move(matches, rng.choice(active), rng)
        t3 = time.perf_counter()
        assert first is not None
        out.update(open=t1 - t0, recover=t2 - t1, click=t3 - t2, total=t3 - t0)
        if check:
            clicks: list[float] = []
            async with _Lag() as lag:  # clicks keep coming while check_live decodes everything
                while not checking.done():
                    moved = await _move(matches, rng.choice(active), rng)
                    if moved is not None:
                        clicks.append(moved[0])
                    await asyncio.sleep(0.02)
                out["checked"] = await checking
            out.update(check_live=time.perf_counter() - t2, check_lag_p99=lag.p99(), check_clicks=clicks)
    finally:
        if checking is not None and not checking.done():
            checking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await checking
        await _close(matches, store)
    return out


async def startup(new_store: NewStore, n_live: int, restarts: int = 5) -> dict[str, Any]:
    """``restarts`` restarts with ``n_live`` live matches (the median is reported, and the p90); the
    last one lets check_live finish."""
    active = await _fill(new_store, n_live)
    gc.collect()
    rng, decoded = random.Random(13), [0]

    def counting_load(d: dict[str, Any]) -> Any:  # how many states start-up decodes (lazily: none)
        decoded[0] += 1
        return type(RULES).load(RULES, d)

    RULES.load = counting_load  # type: ignore[method-assign]
    try:
        runs = [
            await _restart(new_store, active, rng, decoded, check=i == restarts - 1) for i in range(restarts)
        ]
    finally:
        vars(RULES).pop("load", None)
    median = sorted(runs, key=lambda r: r["total"])[(len(runs) - 1) // 2]
    return {
        **runs[-1],
        **{k: median[k] for k in ("open", "recover", "click", "total")},
        "restarts": len(runs),
        "p90": pct([r["total"] for r in runs], 0.9),
        "decoded_by_recover": max(r["decoded_by_recover"] for r in runs),
    }


# ---- saturation ------------------------------------------------------------------------------------


async def saturation(new_store: NewStore, tasks: int, seconds: float) -> dict[str, Any]:
    async with _opened(new_store, "saturation") as matches:
        mids = await _gathered([_start(matches, c, seed=2000 + c) for c in range(1, tasks + 1)], 20)
        channels = iter(range(tasks + 1, 10**9))
        moves = [0] * tasks

        async def player(i: int, stop_at: float) -> None:
            rng, mid = random.Random(i), mids[i]
            while time.perf_counter() < stop_at:
                moved = await _move(matches, mid, rng)
                if moved is not None:
                    moves[i] += 1
                if moved is None or not moved[1]:
                    mid = await _start(matches, next(channels), seed=rng.getrandbits(31))

        async with _Lag() as lag:
            t0 = time.perf_counter()
            await asyncio.gather(*(player(i, t0 + seconds) for i in range(tasks)))
            took = time.perf_counter() - t0

        # the database alone: each task re-commits its own row (one action row each), no rules
        store, rows = matches.store, [await matches.store.get(mid) for mid in mids]
        await matches.close()
        commits = [0] * tasks

        async def committer(i: int, stop_at: float) -> None:
            m = rows[i]
            assert m is not None
            while time.perf_counter() < stop_at:
                read = m.version
                m.version += 1
                await store.commit(m, [LoggedAction(m.version, 0, "raw", "player")], time.time(), read)
                commits[i] += 1

        raw_seconds = seconds / 2
        t0 = time.perf_counter()
        await asyncio.gather(*(committer(i, t0 + raw_seconds) for i in range(tasks)))
        raw_took = time.perf_counter() - t0
    return {
        "tasks": tasks,
        "seconds": took,
        "moves_per_s": sum(moves) / took,
        "moves": sum(moves),
        "lag_p99": lag.p99(),
        "raw_per_s": sum(commits) / raw_took,
    }


# ---- both backends ---------------------------------------------------------------------------------


SCALES = {
    # matches, clicks, start-up rows, saturation tasks and seconds
    "quick": {"matches": 1000, "clicks": 2000, "live": 10_000, "tasks": 50, "seconds": 3.0},
    "full": {"matches": 1000, "clicks": 10_000, "live": 10_000, "tasks": 50, "seconds": 10.0},
}


async def scenarios(new_store: NewStore, scale: dict[str, Any], label: str = "") -> dict[str, Any]:
    _say(f"{label} {scale['matches']} live matches, {scale['clicks']} clicks")
    out = {"clicks": await live_clicks(new_store, scale["matches"], scale["clicks"])}
    _say(f"{label} start-up with {scale['live']} live matches")
    out["startup"] = await startup(new_store, scale["live"])
    _say(f"{label} saturation, {scale['tasks']} tasks for {scale['seconds']:.0f} s")
    out["saturation"] = await saturation(new_store, scale["tasks"], scale["seconds"])
    return out


def sqlite_figures(scale: dict[str, Any]) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="stoneage-load-") as tmp:
        return asyncio.run(
            scenarios(lambda name: SqliteStore(str(Path(tmp) / f"{name}.db")), scale, "SQLite:")
        )


def postgres_figures(scale: dict[str, Any]) -> dict[str, Any] | str:
    """The figures, or why PostgreSQL was skipped."""
    from engine.store.postgres import PostgresStore
    from harness import pgserver

    if pgserver.binaries() is None:
        return "skipped: no PostgreSQL binaries on this machine (Debian's postgresql package)"
    try:
        server = pgserver.running(durable=True)
        url = server.__enter__()
    except Exception as err:  # a server that cannot start is reported, not fatal to the bench
        return f"skipped: the PostgreSQL server did not start ({err})"
    try:
        return asyncio.run(
            scenarios(
                lambda name: PostgresStore(url, schema=f"load_{name}", pool_size=PG_POOL),
                scale,
                "PostgreSQL:",
            )
        )
    finally:
        server.__exit__(None, None, None)


def _kib(n: float) -> str:
    return f"{n / 1024:.1f} KiB"


def _p50_p99(samples: list[float]) -> str:
    return f"{ms(pct(samples, 0.5))} / {ms(pct(samples, 0.99))}" if samples else "-"


def _figure_rows(b: str, f: dict[str, Any]) -> list[list[Row]]:
    """Each figure of one backend, as the rows that show it."""
    out = []
    for series in ("flat", "paced"):
        c = f["clicks"][series]
        how = "flat out" if series == "flat" else f"~{c['pause'] * 1e3:.0f} ms apart"
        out.append(
            [
                Row(
                    f"load {b}: {f['clicks']['matches']:,} live, {c['clickers']} clickers {how} "
                    f"({c['per_s']:,.0f} clicks/s), engine: move p50 / p99 (n={len(c['moves'])})",
                    _p50_p99(c["moves"]),
                    # players click ~100 ms apart at most; flat out measures the ceiling, no aim
                    "p99 ≤ 10 ms" if series == "paced" else "-",
                    pct(c["moves"], 0.99) <= 0.010 if series == "paced" else None,
                ),
                Row(
                    f"load {b}:   no-op p50 / p99 (stale act, refused; n={len(c['noops'])})",
                    _p50_p99(c["noops"]),
                ),
                Row(f"load {b}:   event-loop lag p99 (5 ms ticker)", ms(c["lag_p99"])),
            ]
        )
    out.append(
        [Row(f"load {b}:   memory per live match (tracemalloc)", _kib(f["clicks"]["bytes_per_match"]))]
    )
    st = f["startup"]
    out.append(
        [
            Row(
                f"load {b}: start-up, {st['live']:,} live: open + recover + first click "
                f"(median of {st['restarts']} restarts)",
                f"{st['total']:.3f} s (open {ms(st['open'])}, recover {ms(st['recover'])}, "
                f"{st['decoded_by_recover']} decoded; click {ms(st['click'])})",
            ),
            Row(
                f"load {b}:   start-up p90 of {st['restarts']} restarts",
                f"{st['p90']:.3f} s",
                "≤ 0.3 s",
                st["p90"] <= 0.3,
            ),
            Row(
                f"load {b}:   check_live of {st['checked']:,}: time, lag p99, click p50 / p99 meanwhile "
                f"(n={len(st['check_clicks'])})",
                f"{st['check_live']:.2f} s, {ms(st['check_lag_p99'])}, {_p50_p99(st['check_clicks'])}",
            ),
        ]
    )
    sat = f["saturation"]
    durability = "WAL, synchronous=NORMAL" if b == "SQLite" else f"fsync on, pool {PG_POOL}"
    out.append(
        [
            Row(
                f"load {b}: move commits / s at saturation ({durability}; {sat['tasks']} matches, "
                f"{sat['seconds']:.0f} s, n={sat['moves']:,})",
                f"{sat['moves_per_s']:,.0f} /s (lag p99 {ms(sat['lag_p99'])})",
            ),
            Row(
                f"load {b}:   raw Store.commit / s ({sat['tasks']} tasks, no rules)",
                f"{sat['raw_per_s']:,.0f} /s",
            ),
        ]
    )
    return out


def rows(figures: dict[str, dict[str, Any] | str]) -> list[Row]:
    """Every backend's rows, figure by figure, the backends next to each other; a skipped backend is
    one row saying why."""
    out = [Row(f"load {b}", f) for b, f in figures.items() if isinstance(f, str)]
    shown = [_figure_rows(b, f) for b, f in figures.items() if not isinstance(f, str)]
    for groups in zip(*shown, strict=True):
        for i in range(len(groups[0])):
            out.extend(group[i] for group in groups)
    return out


def run(quick: bool) -> list[Row]:
    """The bench step: every figure for SQLite, then for PostgreSQL."""
    scale = SCALES["quick" if quick else "full"]
    figures: dict[str, dict[str, Any] | str] = {"SQLite": sqlite_figures(scale)}
    figures["PostgreSQL"] = postgres_figures(scale)
    return rows(figures)


def main() -> None:
    run_alone("load", __doc__ or "", run, "fewer clicks, shorter saturation")


if __name__ == "__main__":
    main()
