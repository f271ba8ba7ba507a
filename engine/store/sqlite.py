"""The embedded backend: one aiosqlite connection serves every match of one bot process.

The connection's thread runs one call at a time, and whole transactions are one call: one writer
task takes every transaction queued meanwhile and commits them together (group commit), each in a
savepoint of its own. The statements of one match's move never interleave with another's, cross into
that thread once, and a burst of clicks on many matches costs a few calls, not a lock held across
many event-loop turns. One bot process owns a database file at a time (a lock file next to
it): several processes need PostgreSQL (engine.store.postgres).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import functools
import logging
import os
import sqlite3
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TypeVar

import aiosqlite

from engine.store.base import Store
from engine.store.conn import BUSY_SECONDS, CALL_SECONDS, Body
from engine.store.errors import ChannelTaken, StoreBusy, StoreError
from engine.store.migrations import MIGRATIONS, SCHEMA_VERSION

log = logging.getLogger(__name__)
T = TypeVar("T")
# Transactions between checkpoints of the write-ahead log (SQLite's own came every 1,000 pages, about
# 200 moves). The bot's store checkpoints beside its writer, on a connection of its own: SQLite's
# automatic checkpoint ran inside whichever commit crossed the mark, and that click waited for it
# (bench.load, 1,000 live matches and paced clicks: move p99 8.0-11.1 ms before, 3.7-7.6 ms after).
CHECKPOINT_EVERY = 100
# Writes that keep coming while a checkpoint copies keep the log from starting over (only a fully
# copied log does). Past this many frames (4 KiB pages; SQLite's own mark is 1,000) the writer itself
# copies the rest and starts the log over (RESTART) between two groups: the clicks queued meanwhile
# wait for it, as every checkpoint made them wait before.
LOG_FRAMES_MAX = 4000


def _is_busy(err: sqlite3.Error) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED (by code: a decode error quoting the text "locked" is not busy)."""
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (5, 6)
    low = str(err).lower()
    return "database is locked" in low or "busy" in low


def _cause(err: BaseException) -> str:
    """One line of advice for a database that cannot be opened or written."""
    text = str(err)
    low = text.lower()
    if "readonly" in low or "read-only" in low or isinstance(err, PermissionError):
        return f"{text}: the bot needs write access to the file and its folder (check owner and permissions)"
    if "locked" in low:
        return f"{text}: another program holds the database; stop it (or use another DATABASE_PATH)"
    if "full" in low or getattr(err, "errno", None) == errno.ENOSPC:
        return f"{text}: free some disk space"
    if "unable to open" in low or isinstance(
        err, IsADirectoryError | NotADirectoryError | FileNotFoundError | FileExistsError
    ):
        return f"{text}: DATABASE_PATH must name a file in a folder the bot can create and write"
    return f"{text}: restore a backup (./run backup makes one) or point DATABASE_PATH elsewhere"


async def _statement(db: aiosqlite.Connection, sql: str) -> None:
    """One statement whose cursor is closed in the connection's thread (one left to the garbage
    collector could be finalised in another thread mid-statement: "bad parameter or other API misuse")."""
    await (await db.execute(sql)).close()


def _in_thread(db: aiosqlite.Connection, fn: Callable[[sqlite3.Connection], T]) -> Awaitable[T]:
    """``fn(connection)`` in the connection's own thread, in one hop. aiosqlite has no public call for
    this; its ``_execute`` (queue a function for the thread) underlies every public method since 0.1."""
    return db._execute(lambda: fn(db._conn))


class _InThread:
    """The connection as a transaction body sees it, inside the connection's thread. Its coroutines
    never suspend, so ``_drive`` runs a whole body there at once: one hop per transaction, and no
    other statement can come between those of one transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        cur = self.conn.execute(sql, args)
        try:
            return [tuple(r) for r in cur.fetchall()]
        finally:
            cur.close()

    async def execute(self, sql: str, *args: Any) -> int:
        cur = self.conn.execute(sql, args)
        try:
            return cur.rowcount
        finally:
            cur.close()

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        self.conn.executemany(sql, rows).close()


def _statements(script: str) -> Iterator[str]:
    """A script's statements one by one: sqlite3 runs one a call (its executescript commits first)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement
            statement = ""
    if statement.strip():
        yield statement


def _migrate(conn: sqlite3.Connection, *, current: int) -> None:
    """In the connection's thread: the migrations after ``current``, each in a transaction of its own
    that also records its number (a failed one leaves the database at the one before)."""
    for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _statements(migration.script("sqlite")):
                conn.execute(statement).close()
            if migration.data is not None:
                _drive(migration.data(_InThread(conn)))
            conn.execute(f"PRAGMA user_version={number}").close()
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        log.info("database migrated to schema %s", number)


def _start_log_over(conn: sqlite3.Connection) -> bool:
    """Copy the rest of the log and start it over; False when SQLite could not (a reader or the
    checkpoint beside the writer held it: its answer says busy, it raises nothing). It does not wait
    for them: RESTART waits out the busy timeout for every reader, with the writer and every click
    queued behind it (a reader holding a snapshot stalled moves 5 s), and it is tried again after the
    next group anyway."""
    (ms,) = conn.execute("PRAGMA busy_timeout").fetchone()
    conn.execute("PRAGMA busy_timeout=0")
    try:
        busy, _, _ = conn.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
    finally:
        conn.execute(f"PRAGMA busy_timeout={ms}")
    return not busy


def _drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends to its end, synchronously."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("a transaction body awaited something other than its connection")


@dataclass(eq=False)
class _Job:
    """A transaction queued for the writer: its body, when it was queued, and its outcome."""

    body: Body[Any]
    queued: float
    done: asyncio.Future[Any]
    left: float = 0.0  # its time left to wait for another program's lock
    value: Any = None
    error: BaseException | None = None

    def fail(self, err: BaseException) -> None:
        if self.error is None:  # the first cause is the one to tell
            self.error = err

    def deliver(self) -> None:
        if self.done.done():  # its caller went away (cancelled); the outcome stands all the same
            return
        if self.error is not None:
            self.done.set_exception(self.error)
        else:
            self.done.set_result(self.value)


class SqliteStore(Store):
    kind = "sqlite"

    def __init__(self, path: str, *, exclusive: bool = True) -> None:
        super().__init__()
        self.path = path
        self.exclusive = exclusive  # one bot process per file; backups open it alongside
        self._db: aiosqlite.Connection | None = None
        self._lock_file: IO[str] | None = None
        self._busy_ms = int(BUSY_SECONDS * 1000)  # SQLite's busy timeout as last set
        self._held_at = 0.0  # when a transaction last found the database held by another program
        self._queue: list[_Job] = []  # transactions waiting for the writer
        self._writer: asyncio.Task[None] | None = None
        self._checkpoints = False  # this store copies the log into the file itself (see CHECKPOINT_EVERY)
        self._since_checkpoint = 0  # transactions written since the last checkpoint began
        self._checkpoint: asyncio.Task[None] | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._restart_log = False  # the log kept growing: the writer starts it over (LOG_FRAMES_MAX)

    @property
    def description(self) -> str:
        return self.path

    # ---- opening -------------------------------------------------------------------------------

    async def open(self) -> None:
        try:
            await self._open()
        except StoreError:
            await self.close()
            raise
        except (sqlite3.Error, OSError) as err:
            await self.close()
            raise StoreError(f"{self.path}: {_cause(err)}") from err

    async def _open(self) -> None:
        if self.path != ":memory:":
            path = Path(self.path)
            if path.is_dir():
                raise StoreError(f"{self.path} is a folder: DATABASE_PATH must name a file")
            path.parent.mkdir(parents=True, exist_ok=True)
            if self.exclusive:
                self._take_instance_lock()
        self._db = await aiosqlite.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        await self._scalar("PRAGMA journal_mode=WAL")
        await self._scalar("PRAGMA synchronous=NORMAL")
        await self._scalar("PRAGMA foreign_keys=ON")
        check = await self._scalar("PRAGMA quick_check")
        if check != "ok":
            raise StoreError(f"{self.path}: integrity check failed ({check}); restore a backup")
        current = int(await self._scalar("PRAGMA user_version"))
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path}: database schema {current} is newer than this bot's ({SCHEMA_VERSION}): "
                "update the bot, or restore a backup made for this version"
            )
        if current < SCHEMA_VERSION:
            await _in_thread(self.db, functools.partial(_migrate, current=current))
        # a write probe: a read-only or locked file must stop the bot now, not fail every move later
        await _statement(self.db, "BEGIN IMMEDIATE")
        await _statement(self.db, f"PRAGMA user_version={SCHEMA_VERSION}")
        await _statement(self.db, "COMMIT")
        # the file's owner checkpoints (others opening it alongside, such as a backup, leave it be)
        self._checkpoints = self.exclusive and self.path != ":memory:"
        if self._checkpoints:
            await self._scalar("PRAGMA wal_autocheckpoint=0")

    def _take_instance_lock(self) -> None:
        handle = open(f"{self.path}.lock", "a+")  # noqa: SIM115 (held open for the store's lifetime)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise StoreError(
                f"{self.path} is already in use by another bot instance: stop that one first "
                "(two bots on one database would overwrite each other's moves; several processes "
                "need DATABASE_URL=postgresql://...)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._lock_file = handle

    async def close(self) -> None:
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
            self._checkpoint = None
        if self._checkpointer is not None:
            with contextlib.suppress(Exception):
                await self._checkpointer.close()
            self._checkpointer = None
        if self._db is not None:
            with contextlib.suppress(Exception):
                await self._db.close()
            self._db = None
        if self._lock_file is not None:
            self._lock_file.close()  # releases the flock
            self._lock_file = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def _scalar(self, sql: str) -> Any:
        rows = list(await self.db.execute_fetchall(sql))
        return rows[0][0] if rows else None

    async def schema_version(self) -> int:
        return int(await self._scalar("PRAGMA user_version"))

    # ---- queries and transactions ---------------------------------------------------------------

    async def _fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in await self.db.execute_fetchall(sql, args)]
        except sqlite3.OperationalError as err:
            if "decode" in str(err).lower():  # bad bytes in a row: that row cannot be read
                raise ValueError(str(err)) from err
            if _is_busy(err):
                raise StoreBusy(str(err)) from err
            raise

    async def _write(self, body: Body[T]) -> T:
        """Queue the transaction for the writer, which commits every queued one together."""
        job = _Job(body, time.perf_counter(), asyncio.get_running_loop().create_future())
        self._queue.append(job)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.get_running_loop().create_task(self._write_queued())
        return await job.done

    async def _write_queued(self) -> None:
        """The one writer: whatever was queued meanwhile goes to the connection's thread as one group."""
        while self._queue:
            group, self._queue = self._queue, []
            try:
                await _in_thread(self.db, functools.partial(self._commit_group, group=group))
            except BaseException as err:  # (the thread itself failed: the connection is closed)
                for job in group:
                    job.fail(err if isinstance(err, Exception) else StoreError("the store closed"))
                if not isinstance(err, Exception):
                    raise
            for job in group:
                job.deliver()
            self._since_checkpoint += len(group)
            if self._checkpointing and self._since_checkpoint >= CHECKPOINT_EVERY:
                # the log outruns the checkpoint beside the writer (a slow disk, a busy machine): wait
                # for it (then start the log over), so the log stays bounded however the threads run
                assert self._checkpoint is not None
                await asyncio.shield(self._checkpoint)
            if self._restart_log:
                try:  # busy (a reader held it): tried again after the next group
                    self._restart_log = not await _in_thread(self.db, _start_log_over)
                except sqlite3.Error as err:
                    self._restart_log = False
                    log.warning("%s: checkpoint failed (tried again after more moves): %s", self.path, err)
            if self._checkpoints and self._since_checkpoint >= CHECKPOINT_EVERY and not self._checkpointing:
                self._since_checkpoint = 0
                self._checkpoint = asyncio.get_running_loop().create_task(self._checkpoint_log())

    @property
    def _checkpointing(self) -> bool:
        return self._checkpoint is not None and not self._checkpoint.done()

    async def _checkpoint_log(self) -> None:
        """Copy the write-ahead log into the database file, beside the writer: PASSIVE waits for no
        reader or writer, and the writer goes on meanwhile (its own connection and thread)."""
        try:
            if self._checkpointer is None:
                self._checkpointer = await aiosqlite.connect(self.path, isolation_level=None)
            rows = await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
            self._restart_log = next(iter(rows))[1] >= LOG_FRAMES_MAX
        except (sqlite3.Error, OSError) as err:  # the log grows meanwhile; tried again later
            log.warning("%s: checkpoint failed (tried again after more moves): %s", self.path, err)

    def _commit_group(self, conn: sqlite3.Connection, *, group: list[_Job]) -> None:
        """In the connection's thread: one transaction for the whole group (group commit), each
        body in a savepoint of its own, so one that raises (a stale write, a taken channel) is undone
        alone while the others are kept. A failure of the database itself (a full disk, an I/O
        error, the COMMIT) fails every body of the group: none of them was written.

        Time is measured with perf_counter (SQLite waits in real time, whatever clock the loop or a
        test harness runs on). Waiting behind this process's own transactions (a burst of clicks) is
        not "busy": it may take CALL_SECONDS. Waiting for another program's lock is: at most
        BUSY_SECONDS, counted from the moment a body was queued if it was queued while the database
        was found held, so no click waits for that lock twice."""
        now = time.perf_counter()
        waiting = []
        for job in group:
            budget = BUSY_SECONDS if job.queued <= self._held_at else CALL_SECONDS
            job.left = min(BUSY_SECONDS, job.queued + budget - now)
            if job.left < 0.01:
                job.fail(StoreBusy("the database stayed busy (held by another program)"))
            else:
                waiting.append(job)
        if not waiting:
            return
        ms = int(min(job.left for job in waiting) * 1000)
        if abs(ms - self._busy_ms) > 50:  # SQLite's own wait for another program's lock
            conn.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms
        if conn.in_transaction:  # never build on a transaction someone left open
            log.warning("a transaction was left open; rolling it back")
            conn.execute("ROLLBACK")
        try:
            conn.execute("BEGIN IMMEDIATE")
            for job in waiting:
                conn.execute("SAVEPOINT body")
                try:
                    job.value = _drive(job.body(_InThread(conn)))
                except Exception as err:
                    if isinstance(err, sqlite3.Error) and not isinstance(err, sqlite3.IntegrityError):
                        raise  # the database itself failed (a full disk, I/O): the whole group goes
                    conn.execute("ROLLBACK TO body")  # the body's own refusal: undone alone
                    job.fail(
                        ChannelTaken() if "channel_id" in str(err) and isinstance(err, sqlite3.Error) else err
                    )
                conn.execute("RELEASE body")
            conn.execute("COMMIT")
        except Exception as err:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error as rollback_err:  # e.g. "cannot rollback": keep the real cause
                    log.warning("rollback after %r failed: %s", err, rollback_err)
            held = isinstance(err, sqlite3.OperationalError) and _is_busy(err)
            if held:
                self._held_at = time.perf_counter()
            for job in waiting:  # nothing of the group was written
                job.fail(StoreBusy(str(err)) if held else err)

    async def backup(self, target: str) -> None:
        """Copy the database safely while the bot runs (SQLite online backup API)."""
        dest = await aiosqlite.connect(target)
        try:
            await self.db.backup(dest)
        finally:
            await dest.close()
