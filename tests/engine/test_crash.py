"""Crash consistency with real process kills: a child process applies random legal moves to many
matches on one database file and is SIGKILLed at random moments; after every kill the database must
load, every state must equal the replay of its seed + action log, and every move whose commit had
returned before the kill must be there."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import random
import signal
import sqlite3
import time

from engine.registry import GAMES, rules_for
from engine.store.sqlite import SqliteStore as Store

KILLS = 200
TIME_BUDGET = 60.0  # seconds; the test stops early (but after at least 50 kills) if the machine is slow


def _child(db_path: str, seed: int, wfd: int) -> None:
    from engine.compute import run_inline
    from engine.match import PRIVATE, Matches

    async def main() -> None:
        store = Store(db_path)
        await store.open()
        matches = Matches(store, time.time, turn_seconds=3600, run=run_inline)
        rng = random.Random(seed)
        live = [m.id for m in await store.live_matches() if m.status == "active"]
        games = sorted(GAMES)
        while True:
            if len(live) < 6:  # every registered game takes part: the guarantee is the engine's
                channel = rng.getrandbits(40)
                made = (await store.db.execute_fetchall("SELECT count(*) FROM matches"))[0][0]
                game = games[made % len(games)]  # round robin over every match ever made
                u = await matches.open_lobby(game, 1, channel, 1, "a", {})
                u = await matches.lobby(u.match.id, u.match.version, 2, "b", "join")
                u = await matches.lobby(u.match.id, u.match.version, 1, "a", "start")
                live.append(u.match.id)
                continue
            mid = rng.choice(live)
            m, state = await matches.get(mid)
            rules = rules_for(m.game)
            seat = rng.choice(sorted(rules.to_move(state)))
            u = await matches.act(  # as from the seat's private surface: staleness per seat
                mid,
                m.seats[seat].version,
                m.seats[seat].user_id,
                rng.choice(rules.legal_actions(state, seat)),
                surface=PRIVATE,
            )
            os.write(wfd, f"{mid} {u.match.version}\n".encode())  # the commit has returned
            if u.match.status != "active":
                live.remove(mid)

    asyncio.run(main())


def _verify(db_path: str, acked: set[tuple[int, int]], since: float = 0.0) -> int:
    """Check every match written since ``since`` (all of them by default)."""
    db = sqlite3.connect(db_path)
    try:
        assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
        rows = db.execute(
            "SELECT id, game, seats, options, seed, state FROM matches WHERE updated >= ?", (since,)
        ).fetchall()
        for mid, game, seats, options, seed, state in rows:
            if state is None:
                continue
            rules = rules_for(game)
            replay = rules.setup(len(json.loads(seats)), seed, json.loads(options))
            for seat, action in db.execute(
                "SELECT seat, action FROM actions WHERE match_id=? ORDER BY version", (mid,)
            ):
                replay, _ = rules.apply(replay, seat, action)
            assert rules.load(json.loads(state)["state"]) == replay, f"match {mid} differs from its replay"
        logged = set(db.execute("SELECT match_id, version FROM actions"))
        missing = {a for a in acked if a not in logged}
        assert not missing, f"acknowledged moves lost: {sorted(missing)[:5]}"
        return db.execute("SELECT count(*) FROM matches").fetchone()[0]
    finally:
        db.close()


def test_sigkill_at_random_moments_loses_no_committed_move(tmp_path):
    db_path = str(tmp_path / "crash.db")
    asyncio.run(_create(db_path))
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(2024)
    acked: set[tuple[int, int]] = set()
    kills, started = 0, time.monotonic()
    while kills < KILLS and (kills < 50 or time.monotonic() - started < TIME_BUDGET):
        round_start = time.time() - 1
        rfd, wfd = os.pipe()
        proc = ctx.Process(target=_child, args=(db_path, rng.getrandbits(32), wfd))
        proc.start()
        os.close(wfd)
        time.sleep(rng.uniform(0.01, 0.1))
        os.kill(proc.pid, signal.SIGKILL)
        proc.join()
        kills += 1
        with os.fdopen(rfd, "rb") as pipe:
            for line in pipe.read().decode().splitlines():
                mid, version = line.split()
                acked.add((int(mid), int(version)))
        _verify(db_path, acked, since=round_start)
    matches = _verify(db_path, acked)
    games = _games(db_path)
    print(
        f"\ncrash test: {kills} kills, {len(acked)} acknowledged moves, {matches} matches of {games}, all consistent"
    )
    assert kills >= 50 and len(acked) > 100 and matches > 5
    assert games == sorted(GAMES), "every registered game was played and killed"


def _games(db_path: str) -> list[str]:
    db = sqlite3.connect(db_path)
    try:
        return [
            g
            for (g,) in db.execute("SELECT DISTINCT game FROM matches WHERE state IS NOT NULL ORDER BY game")
        ]
    finally:
        db.close()


async def _create(db_path: str) -> None:
    store = Store(db_path)
    await store.open()
    await store.close()
