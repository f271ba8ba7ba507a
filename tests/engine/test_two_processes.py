"""Two bot processes on one PostgreSQL database, racing on the same matches (issue: one writer per
match across processes). Each process runs its own match engine with its own cache and timers; both
click on the same matches and both fire the same timers. The database's conditional write decides:
no click is applied twice, none is lost, and every match equals the replay of its log."""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import random
import time

from engine.compute import run_inline
from engine.errors import EngineError
from engine.games.ugah import RULES
from engine.match import Matches
from engine.store.postgres import PostgresStore
from tests.replayed import replayed

ACTIVE, IDLE = 8, 4  # matches both processes click on; matches nobody clicks (their turn limit fires)
CLICK_SECONDS = 4.0


async def _open(url: str, schema: str, now=time.time) -> Matches:
    store = PostgresStore(url, schema=schema, pool_size=4)
    await store.open()
    return Matches(store, now, turn_seconds=10, run=run_inline)


async def _setup(url: str, schema: str) -> tuple[list[int], list[int]]:
    # the idle matches' turn limits (10 s) fall due about a second into the race: opened "9 s ago"
    matches = await _open(url, schema, now=lambda: time.time() - 9.0)
    active, idle = [], []
    try:
        for i in range(ACTIVE + IDLE):
            u = await matches.open_lobby("ugah", 1, 100 + i, 1, "alice", {"variant": "basic"}, seed=i)
            u = await matches.lobby(u.match.id, u.match.version, 2, "bob", "join")
            if i < ACTIVE:  # a computer seat: its moves are timers (due at once) both processes fire
                u = await matches.lobby(u.match.id, u.match.version, 1, "alice", "ai")
            await matches.lobby(u.match.id, u.match.version, 1, "alice", "start")
            (active if i < ACTIVE else idle).append(u.match.id)
    finally:
        await matches.close()
        await matches.store.close()
    return active, idle


async def _race(url: str, schema: str, ids: list[int], seed: int) -> dict:
    matches = await _open(url, schema)
    await matches.recover()  # both processes own every guild here: both arm every timer
    rng = random.Random(seed)
    acked, refused = [], collections.Counter()
    end = time.time() + CLICK_SECONDS
    try:
        while time.time() < end:
            mid = rng.choice(ids)
            m, state = await matches.get(mid)
            humans = [s for s in RULES.to_move(state) if not m.seats[s].ai] if state else []
            if m.status != "active" or not humans:
                await asyncio.sleep(0.005)
                continue
            seat = humans[0]
            action = rng.choice(RULES.legal_actions(state, seat))
            try:
                await matches.act(mid, m.public_version, m.seats[seat].user_id, action)
            except EngineError as err:
                refused[err.key] += 1
                continue
            acked.append((mid, seat, action))
        await asyncio.sleep(1.5)  # the idle matches' timers fall due meanwhile
    finally:
        await matches.close()
        await matches.store.close()
    return {"acked": acked, "refused": dict(refused)}


def _worker(url: str, schema: str, ids: list[int], seed: int, out) -> None:
    out.put(asyncio.run(_race(url, schema, ids, seed)))


async def test_two_processes_racing_on_the_same_matches_lose_nothing_and_double_nothing(
    postgres_url, pg_schema
):
    active, idle = await _setup(postgres_url, pg_schema)
    ctx = multiprocessing.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(postgres_url, pg_schema, active, s, out)) for s in (1, 2)]
    for p in procs:
        p.start()
    results = [await asyncio.get_running_loop().run_in_executor(None, out.get, True, 60) for _ in procs]
    for p in procs:
        p.join(10)
        assert p.exitcode == 0

    print("two processes:", [(len(r["acked"]), r["refused"]) for r in results])
    judge = await _open(postgres_url, pg_schema)
    try:
        acked = collections.Counter(a for r in results for a in r["acked"])
        logged: collections.Counter = collections.Counter()
        timeouts = collections.Counter()
        for mid in active + idle:
            _, state = await judge.get(mid)
            assert await replayed(judge, mid) == state, f"match {mid} equals the replay of its log"
            log = await judge.store.actions(mid)
            versions = [a.version for a in log]
            assert versions == sorted(set(versions)), "each version is written once"
            logged.update((mid, a.seat, a.action) for a in log if a.source == "player")
            timeouts[mid] = sum(a.source == "timeout" for a in log)
        assert all(r["acked"] for r in results), "both processes had clicks applied"
        assert logged == acked, "every acknowledged click is in the log once: none lost, none doubled"
        assert sum(r["refused"].get("error.stale", 0) for r in results) > 0, "the processes did collide"
        assert all(timeouts[mid] >= 1 for mid in idle), "the idle matches' turn limits fired"
        computer_moves = [
            a for mid in active for a in await judge.store.actions(mid) if a.source == "computer"
        ]
        assert computer_moves, "the computers' timers fired (raced by both processes)"
    finally:
        await judge.close()
        await judge.store.close()


async def test_a_process_that_hears_another_s_commits_keeps_no_lock_for_them(postgres_url, pg_schema):
    """A commit heard from another process (LISTEN/NOTIFY) makes no write lock here: one per match any
    process had moved since start-up piled up in every process (bench.scale, several processes)."""
    from tests.engine.conftest import start_match

    writer, listener = await _open(postgres_url, pg_schema), await _open(postgres_url, pg_schema)
    try:
        await listener.recover()  # (as at start-up: it listens from now on)
        ids = [await start_match(writer, channel, seed=channel) for channel in range(1, 6)]
        await asyncio.sleep(1.0)  # the notices of the commits reach the listener
        assert listener.store.listening, "the second process hears the first's commits"
        assert not set(ids) & set(listener._locks), "heard, not written: no lock made"
        assert set(ids) <= set(writer._locks), "the writer's own locks stay"
    finally:
        for matches in (writer, listener):
            await matches.close()
            await matches.store.close()
