"""The bot's SQLite store checkpoints its write-ahead log itself, beside its writer, instead of inside
whichever commit crossed SQLite's automatic mark (that click waited for the copy)."""

from __future__ import annotations

import os
import random
import sqlite3
import time

import pytest

from engine.compute import run_inline
from engine.match import Matches
from engine.store import BUSY_SECONDS
from engine.store import sqlite as store_sqlite
from engine.store.sqlite import SqliteStore
from tests.engine.conftest import Clock, start_match
from tests.engine.test_match import move


class Moves:
    """Committed moves of two-human Ugah matches, one after another (a new match when one ends)."""

    def __init__(self, matches: Matches) -> None:
        self.matches, self.rng, self.mid, self.channel = matches, random.Random(5), None, 0

    async def play(self, count: int) -> None:
        for _ in range(count):
            m = (await self.matches.get(self.mid))[0] if self.mid is not None else None
            if m is None or m.status != "active":
                self.channel += 1
                self.mid = await start_match(self.matches, self.channel, seed=self.channel)
            await move(self.matches, self.mid, self.rng)


def _wal_size(path: str) -> int:
    return os.path.getsize(f"{path}-wal")


@pytest.fixture
async def short_log(tmp_path, monkeypatch):
    """The bot's store on a file, checkpointing every 20 transactions and starting its log over past
    200 frames (closed after the test, if the test did not)."""
    monkeypatch.setattr(store_sqlite, "CHECKPOINT_EVERY", 20)
    monkeypatch.setattr(store_sqlite, "LOG_FRAMES_MAX", 200)
    store = SqliteStore(str(tmp_path / "bot.db"))
    await store.open()
    yield store
    await store.close()


async def test_the_bots_store_keeps_its_log_short_by_checkpointing_beside_the_writer(short_log):
    """Moves back to back, so every checkpoint beside the writer meets new writes and the log never
    starts over by itself: past LOG_FRAMES_MAX the writer starts it over."""
    store, path = short_log, short_log.path
    assert await store._scalar("PRAGMA wal_autocheckpoint") == 0, "no checkpoint inside a commit"
    moves = Moves(Matches(store, Clock(), turn_seconds=3600, run=run_inline))
    await moves.play(60)
    early = _wal_size(path)
    await moves.play(300)
    assert store._checkpointer is not None, "checkpoints ran on a connection of their own"
    # the log starts over once copied: without the checkpoints it grows with every move
    assert _wal_size(path) < 2 * early, (early, _wal_size(path))
    await store.close()
    with sqlite3.connect(path) as db:  # every move is in the file
        assert db.execute("SELECT count(*) FROM actions").fetchone()[0] >= 360


async def test_without_the_checkpoints_the_log_would_grow(tmp_path, monkeypatch):
    """The control for the test above: the same moves with the store's checkpoints held back."""
    monkeypatch.setattr(store_sqlite, "CHECKPOINT_EVERY", 10**9)
    path = str(tmp_path / "bot.db")
    store = SqliteStore(path)
    await store.open()
    try:
        moves = Moves(Matches(store, Clock(), turn_seconds=3600, run=run_inline))
        await moves.play(60)
        early = _wal_size(path)
        await moves.play(300)
        assert _wal_size(path) > 3 * early
    finally:
        await store.close()


async def test_a_store_opened_alongside_the_bots_leaves_checkpoints_to_sqlite(tmp_path):
    """A backup (or a tool) opening the bot's file beside it: SQLite's own checkpoints, as before."""
    store = SqliteStore(str(tmp_path / "bot.db"), exclusive=False)
    await store.open()
    try:
        assert await store._scalar("PRAGMA wal_autocheckpoint") == 1000
        assert not store._checkpoints
    finally:
        await store.close()


async def test_a_reader_holding_the_log_never_stalls_the_writer(short_log):
    """Another connection holds a snapshot (a backup, a second program reading) while moves go on:
    starting the log over is then impossible, and the writer must not wait out its busy timeout for
    it with every click queued behind (it did: a move waited 5 s). Once the reader lets go, the log
    starts over again."""
    path = short_log.path
    moves = Moves(Matches(short_log, Clock(), turn_seconds=3600, run=run_inline))
    await moves.play(30)
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM actions").fetchone()  # a snapshot: the log is held
    before, worst = _wal_size(path), 0.0
    for _ in range(200):
        started = time.perf_counter()
        await moves.play(1)
        worst = max(worst, time.perf_counter() - started)
    held = _wal_size(path)
    reader.execute("COMMIT")
    reader.close()
    assert worst < BUSY_SECONDS / 2, f"a move waited {worst:.2f} s for the reader"
    await moves.play(200)
    # started over (the file keeps its size, and is written again from its start), it grows no more
    # than the move or two written before the writer's next try (200 moves held it: held - before)
    grown = _wal_size(path) - held
    assert grown < (held - before) / 10, f"the log did not start over once the reader was gone: {grown}"
