"""Persistence per move: Store.commit (snapshot + one action row, one transaction) on a temp file DB."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench import NAMES, Row, ms, pct
from engine.games.ugah import RULES
from engine.meta import MatchMeta
from engine.store import LoggedAction, MatchRow, SeatInfo
from engine.store.sqlite import SqliteStore as Store


async def _commits(path: str, count: int) -> list[float]:
    store = Store(path)
    await store.open()
    try:
        rng, times, m, s = random.Random(4), [], None, None
        for version in range(1, count + 1):
            if s is None or s.phase == "over":  # a fresh match, like the bot's lobby -> start
                s = RULES.setup(4, version, {"variant": "uncertain"})
                seats = [SeatInfo(1000 + i, n) for i, n in enumerate(NAMES)]
                m = MatchRow(0, "ugah", 1, version, 1000, "active", 0, version, seats, {}, RULES.dump(s))
                await store.create(m, time.time())
            seat = s.current
            action = rng.choice(RULES.legal_actions(s, seat))
            s, events = RULES.apply(s, seat, action)
            read = m.version
            m.version += 1
            m.state = RULES.dump(s)
            m.meta = MatchMeta(events=events)
            m.status = "finished" if s.phase == "over" else "active"
            logged = [LoggedAction(m.version, seat, action, "player")]
            t0 = time.perf_counter()
            await store.commit(m, logged, time.time(), read)
            times.append(time.perf_counter() - t0)
        return times
    finally:
        await store.close()


def commit_time(count: int) -> list[Row]:
    with tempfile.TemporaryDirectory() as tmp:
        times = asyncio.run(_commits(str(Path(tmp) / "bench.db"), count))
    p50 = pct(times, 0.5)
    return [
        Row(f"Store.commit per move p50 (n={count})", ms(p50), "≤ 1 ms", p50 <= 0.001),
        Row("Store.commit p99 / max", f"{ms(pct(times, 0.99))} / {ms(max(times))}"),
    ]
