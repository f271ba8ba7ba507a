"""A database that misbehaves (issue 7, points 3, 4, 5, 6 and 9 at the engine level): a second
instance, files that cannot be used, one undecodable match, a full disk, another process holding the
lock, and options sent raw. Each refusal is one clear line; nothing else stops."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time

import aiosqlite
import pytest

from engine.compute import run_inline
from engine.errors import DatabaseBusy, LobbyError, StaleAction
from engine.match import Matches
from engine.signals import SetAside
from engine.store import BUSY_SECONDS, StoreBusy, StoreError
from engine.store.migrations import MIGRATIONS
from engine.store.sqlite import SqliteStore as Store
from engine.store.sqlite import _InThread
from tests.engine.conftest import Clock
from tests.replayed import replayed


@pytest.fixture
def backend():
    """These are SQLite's own faults (its file, its lock, its full disk): SQLite only."""
    return "sqlite"


@pytest.fixture
async def engine(open_engine, tmp_path):
    matches, _ = await open_engine("f.db", 3600)
    return matches, str(tmp_path / "f.db")


async def start_two(matches: Matches, channel: int = 10) -> int:
    u = await matches.open_lobby("ugah", 1, channel, 100, "alice", {"variant": "basic"}, seed=channel)
    u = await matches.lobby(u.match.id, u.match.version, 200, "bob", "join")
    await matches.lobby(u.match.id, u.match.version, 100, "alice", "start")
    return u.match.id


async def move(matches: Matches, mid: int):
    m, state = await matches.get(mid)
    seat = state.current
    action = sorted(matches_rules(m).legal_actions(state, seat))[0]
    return await matches.act(mid, m.public_version, m.seats[seat].user_id, action)


def matches_rules(m):
    from engine.registry import rules_for

    return rules_for(m.game)


async def opened(path: str, **kwargs) -> Store:
    store = Store(path, **kwargs)
    await store.open()
    return store


def one_line(err: BaseException) -> str:
    text = str(err)
    assert "\n" not in text and "Traceback" not in text, text
    return text


# ---- 3: a second instance, and writes conditional on what they read ---------------------------


async def test_a_second_instance_on_the_same_file_is_refused_until_the_first_stops(tmp_path):
    path = str(tmp_path / "one.db")
    first = await opened(path)
    second = Store(path)
    with pytest.raises(StoreError, match="already in use by another bot instance") as err:
        await second.open()
    one_line(err.value)
    await first.close()
    await second.open()  # the file is free again once the first instance stopped
    await second.close()


async def test_a_stale_copy_cannot_overwrite_a_newer_lobby(engine):
    """Two engines on one file (an older copy of the row in the second): a Join from the first must
    survive whatever the second writes from its old copy, lobby clicks and message ids alike."""
    matches, path = engine
    other = Matches(await opened(path, exclusive=False), Clock(), turn_seconds=3600, run=run_inline)
    try:
        u = await matches.open_lobby("ugah", 1, 10, 100, "alice", {"variant": "basic"})
        mid = u.match.id
        stale_writes = [
            lambda v: other.lobby(mid, v, 300, "carol", "join"),
            lambda v: other.move(mid, 4242),  # writes that are not moves are conditional too
            lambda v: other.move(mid, 4343),  # (an odd count: bob ends seated)
            lambda v: other.lobby(mid, v, 100, "alice", "ai"),
            lambda v: other.end(mid, 100, moderator=True),
        ]
        for i, stale_write in enumerate(stale_writes):
            old, _ = await other.get(mid)  # the second instance holds a copy...
            op = "join" if i % 2 == 0 else "leave"
            await matches.lobby(mid, old.version, 200, "bob", op)  # ...that the first makes stale
            truth = await matches.store.get(mid)
            with pytest.raises(StaleAction):
                await stale_write(old.version)
            assert await matches.store.get(mid) == truth, f"stale write {i} overwrote the row"
        row = await matches.store.get(mid)
        assert [s.name for s in row.seats] == ["alice", "bob"] and row.status == "lobby"
        # the stale copy was dropped: the second instance now reads and writes the truth
        await other.lobby(mid, row.version, 300, "carol", "join")
        assert [s.name for s in (await matches.store.get(mid)).seats] == ["alice", "bob", "carol"]
    finally:
        await other.close()
        await other.store.close()


# ---- 4: files that cannot be used ---------------------------------------------------------------


async def test_a_folder_as_the_path_is_refused_in_one_line(tmp_path):
    with pytest.raises(StoreError, match="is a folder") as err:
        await opened(str(tmp_path))
    one_line(err.value)


async def test_an_uncreatable_folder_is_refused_with_advice_about_the_path(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for path in (blocker / "db.sqlite", blocker / "sub" / "db.sqlite"):
        with pytest.raises(StoreError, match="DATABASE_PATH must name a file") as err:
            await opened(str(path))
        assert "restore a backup" not in one_line(err.value)


def read_only(path: str, monkeypatch) -> None:
    """Make the database file read-only for the bot. Root ignores file modes, so there the
    connection is opened read-only instead (what SQLite does with a file it cannot write)."""
    os.chmod(path, 0o444)
    if os.geteuid() == 0:
        real = aiosqlite.connect
        monkeypatch.setattr(
            "engine.store.sqlite.aiosqlite.connect",
            lambda p, **kw: real(f"file:{p}?mode=ro", uri=True, **kw),
        )


async def test_a_read_only_file_stops_the_start_not_every_later_write(tmp_path, monkeypatch):
    path = str(tmp_path / "ro.db")
    await (await opened(path)).close()
    read_only(path, monkeypatch)
    with pytest.raises(StoreError, match="needs write access") as err:
        await opened(path)
    assert "restore a backup" not in one_line(err.value)


async def test_a_file_locked_by_another_program_stops_the_start(tmp_path):
    path = str(tmp_path / "locked.db")
    await (await opened(path)).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreError, match="another program holds the database") as err:
            await opened(path)
        one_line(err.value)
        assert time.monotonic() - started < BUSY_SECONDS + 2
    finally:
        holder.rollback()
        holder.close()


async def test_a_newer_schema_is_refused(tmp_path):
    path = str(tmp_path / "new.db")
    await (await opened(path)).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={len(MIGRATIONS) + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer than this bot") as err:
        await opened(path)
    one_line(err.value)


async def test_bad_bytes_in_one_match_set_it_aside_and_the_others_go_on(tmp_path):
    path = str(tmp_path / "bad.db")
    store = await opened(path)
    matches = Matches(store, Clock(), turn_seconds=3600, run=run_inline)
    good, bytes_bad, json_bad = [await start_two(matches, c) for c in (10, 11, 12)]
    await matches.close()
    await store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE matches SET state = CAST(x'7b22ff8022fe' AS TEXT) WHERE id=?", (bytes_bad,))
    db.execute('UPDATE matches SET seats = \'[{"user_id": 1, "nme": 2}]\' WHERE id=?', (json_bad,))
    db.commit()
    db.close()

    store = await opened(path)  # bad bytes in a row do not stop the start
    fresh = Matches(store, Clock(), turn_seconds=3600, run=run_inline)
    told: list[tuple[int, int | None]] = []

    fresh.signals.subscribe(
        lambda s: told.append((s.match_id, s.channel_id)) if isinstance(s, SetAside) else None
    )
    try:
        assert await fresh.recover() == 3, "start-up decodes nothing: every live match is armed"
        assert await fresh.check_live() == 1, "then each is decoded once; the broken ones are set aside"
        assert sorted(told) == [(bytes_bad, 11), (json_bad, 12)]
        assert await store.live_ids() == [good]
        assert [m.id for m in await store.live_matches()] == [good]
        await move(fresh, good)  # the others go on
        assert await replayed(fresh, good) == (await fresh.get(good))[1]
        await fresh.open_lobby("ugah", 1, 11, 100, "alice", {})  # its channel is not blocked
    finally:
        await fresh.close()
        await store.close()


# ---- 5: a full disk ------------------------------------------------------------------------------


def fill_disk(store: Store, monkeypatch) -> list[bool]:
    """From now on every write fails as SQLite fails on a full disk: SQLITE_FULL, and the
    transaction is rolled back by SQLite itself (so a ROLLBACK then says "cannot rollback").
    Writes run in the connection's thread through engine.store.sqlite._InThread: patched there."""
    full = [True]
    real_execute, real_many = _InThread.execute, _InThread.executemany

    def refuse(conn: sqlite3.Connection, sql: str) -> None:
        if full[0] and sql.lstrip().upper().startswith(("INSERT", "UPDATE")):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise sqlite3.OperationalError("database or disk is full")

    async def execute(self, sql, *args):
        refuse(self.conn, sql)
        return await real_execute(self, sql, *args)

    async def executemany(self, sql, rows):
        refuse(self.conn, sql)
        return await real_many(self, sql, rows)

    monkeypatch.setattr(_InThread, "execute", execute)
    monkeypatch.setattr(_InThread, "executemany", executemany)
    return full


async def test_disk_full_raises_the_real_cause_and_the_next_move_works(engine, monkeypatch, caplog):
    matches, _ = engine
    mid = await start_two(matches)
    m, state = await matches.get(mid)
    before = (m.version, state)
    full = fill_disk(matches.store, monkeypatch)
    for _ in range(3):
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
            await move(matches, mid)
    assert "cannot start a transaction" not in caplog.text
    m, state = await matches.get(mid)
    assert (m.version, state) == before, "nothing half-written is cached"
    full[0] = False  # space is back
    await move(matches, mid)
    await move(matches, mid)
    assert await replayed(matches, mid) == (await matches.get(mid))[1]
    assert (await matches.store.get(mid)).version >= before[0] + 2


# ---- 6: another process holding the database lock ---------------------------------------------


async def test_another_process_holding_the_lock_answers_busy_in_time_and_reads_go_on(engine):
    matches, path = engine
    mids = [await start_two(matches, channel) for channel in (10, 11, 12, 13)]
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        started = time.monotonic()
        # four channels click at once: none waits behind the others' waits
        results = await asyncio.gather(*[move(matches, mid) for mid in mids], return_exceptions=True)
        took = time.monotonic() - started
        assert all(isinstance(r, DatabaseBusy) for r in results), results
        assert took < BUSY_SECONDS + 0.8, f"answers took {took:.2f}s (Discord allows 3 s)"
        started = time.monotonic()
        assert (await matches.store.get(mids[0])).status == "active"  # reading is not blocked
        assert time.monotonic() - started < 0.5
        with pytest.raises(StoreBusy):
            await matches.store.set_aside(mids[0], "test", 0)
    finally:
        holder.rollback()
        holder.close()
    for mid in mids:  # the lock is gone: every channel moves again
        await move(matches, mid)
        assert await replayed(matches, mid) == (await matches.get(mid))[1]


# ---- 9: options sent raw are checked by the engine --------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"turn_seconds": -5},
        {"turn_seconds": 0},
        {"turn_seconds": 2**62},
        {"turn_seconds": True},
        {"turn_seconds": "60"},
        {"turn_seconds": 9.5},
        {"variant": "hard"},
        {"variant": 3},
        {"rolling": ""},
    ],
)
async def test_options_out_of_bounds_are_refused_by_the_engine(engine, options):
    matches, _ = engine
    with pytest.raises(LobbyError) as err:
        await matches.open_lobby("ugah", 1, 77, 100, "alice", options)
    assert err.value.key.startswith("lobby.")
    assert await matches.live_in_channel(77) is None


async def test_options_in_bounds_are_stored_as_given(engine):
    matches, _ = engine
    u = await matches.open_lobby("ugah", 1, 78, 100, "alice", {"turn_seconds": 10, "variant": "uncertain"})
    assert (await matches.store.get(u.match.id)).options["turn_seconds"] == 10


async def test_a_turn_limit_retried_while_the_disk_is_full_decides_only_once(open_engine, monkeypatch):
    """Issue 22.6: a firing retried every second while the disk is full does not make the computer
    search the absent player's turn again each time (its decisions are kept for that version)."""
    matches, clock = await open_engine("d.db", 60)
    mid = await start_two(matches)
    searched, real_run = [], matches.run

    async def counting(fn, *args):
        searched.append(fn.__name__)
        return await real_run(fn, *args)

    matches.run = counting
    full = fill_disk(matches.store, monkeypatch)
    clock.t += 61  # the turn limit is due
    for _ in range(3):
        with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
            await matches.firing.tick(mid)
    full[0] = False
    update = await matches.firing.tick(mid)
    assert update is not None and any(s.away for s in update.match.seats), "the turn was played"
    assert searched == ["play_turn"]
    assert await replayed(matches, mid) == (await matches.get(mid))[1]


async def test_a_move_crosses_into_the_database_thread_once(engine):
    """Issue 19: the statements of one move's commit go to SQLite's thread in one call (group commit),
    and nothing else of the move (reads come from the engine's cache) crosses over."""
    matches, _ = engine
    mid = await start_two(matches)
    await move(matches, mid)  # (warm: the first read of a match is a crossing of its own)
    db = matches.store._db
    plain, calls = db._execute, []

    def counting(fn, *args, **kwargs):
        calls.append(fn)
        return plain(fn, *args, **kwargs)

    db._execute = counting
    try:
        for _ in range(3):
            before = len(calls)
            update = await move(matches, mid)
            assert update.match.version > 0
            assert len(calls) - before == 1, f"{len(calls) - before} crossings for one move"
    finally:
        db._execute = plain
