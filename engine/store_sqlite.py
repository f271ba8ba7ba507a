"""The embedded backend: one aiosqlite connection serves every match of one bot process.

Every use of the connection is serialised (a transaction of one match must never interleave with
another's), and one bot process owns a database file at a time (a lock file next to it): several
processes need PostgreSQL (engine.store_postgres).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import IO, Any

import aiosqlite

from engine.migrations import SCHEMA_VERSION, SQLITE
from engine.store import BUSY_SECONDS, ChannelTaken, Store, StoreBusy, StoreError

log = logging.getLogger(__name__)


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
    """One statement whose cursor is closed in the connection's thread (see _Conn.execute)."""
    await (await db.execute(sql)).close()


class _Conn:
    """The shared connection as the queries use it (already serialised by SqliteStore._using)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        try:
            return [tuple(r) for r in await self.db.execute_fetchall(sql, args)]
        except sqlite3.OperationalError as err:
            if "decode" in str(err).lower():  # bad bytes in a row: that row cannot be read
                raise ValueError(str(err)) from err
            raise

    async def execute(self, sql: str, *args: Any) -> int:
        # every cursor is closed in the connection's own thread: one left to the garbage collector
        # would be finalised in whichever thread collects it, possibly while the connection's thread
        # runs another statement ("bad parameter or other API misuse")
        cur = await self.db.execute(sql, args)
        try:
            return cur.rowcount
        finally:
            await cur.close()

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await (await self.db.executemany(sql, rows)).close()


class SqliteStore(Store):
    kind = "sqlite"

    def __init__(self, path: str, *, exclusive: bool = True) -> None:
        self.path = path
        self.exclusive = exclusive  # one bot process per file; backups open it alongside
        self._db: aiosqlite.Connection | None = None
        self._lock_file: IO[str] | None = None
        self._use = asyncio.Lock()
        self._busy_ms = int(BUSY_SECONDS * 1000)  # SQLite's busy timeout as last set

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
        for number, script in enumerate(SQLITE[current:], start=current + 1):
            await self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")
        # a write probe: a read-only or locked file must stop the bot now, not fail every move later
        await _statement(self.db, "BEGIN IMMEDIATE")
        await _statement(self.db, f"PRAGMA user_version={SCHEMA_VERSION}")
        await _statement(self.db, "COMMIT")

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
        async with self._using():
            return int(await self._scalar("PRAGMA user_version"))

    # ---- every use of the connection goes through here ------------------------------------------

    @contextlib.asynccontextmanager
    async def _using(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, within BUSY_SECONDS in all: the time spent queued behind other matches'
        operations (each waiting for another process's lock) counts, so no caller waits twice and
        a click is always answered within Discord's 3 s. Measured with perf_counter: SQLite waits
        in real time, whatever clock the loop or a test harness (SimCord patches monotonic) runs on."""
        started = time.perf_counter()
        await self._use.acquire()
        try:
            left = BUSY_SECONDS - (time.perf_counter() - started)
            if left < 0.01:
                raise StoreBusy("the database stayed busy (operations queued behind its lock)")
            await self._busy_timeout(left)
            yield self.db
        except sqlite3.OperationalError as err:
            if _is_busy(err):
                raise StoreBusy(str(err)) from err
            raise
        finally:
            self._use.release()

    async def _busy_timeout(self, seconds: float) -> None:
        """SQLite's own wait for another process's lock; changed only after a wait in the queue."""
        ms = int(seconds * 1000)
        if abs(ms - self._busy_ms) > 50:
            await _statement(self.db, f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[_Conn]:
        async with self._using() as db:
            yield _Conn(db)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Conn]:
        async with self._using() as db:
            if db.in_transaction:  # left open by a cancelled caller: never build on it
                log.warning("a transaction was left open; rolling it back")
                await _statement(db, "ROLLBACK")
            await _statement(db, "BEGIN IMMEDIATE")
            try:
                yield _Conn(db)
                await _statement(db, "COMMIT")
            except BaseException as err:
                try:
                    await _statement(db, "ROLLBACK")
                except sqlite3.Error as rollback_err:  # e.g. "cannot rollback": keep the real cause
                    log.warning("rollback after %r failed: %s", err, rollback_err)
                if isinstance(err, sqlite3.IntegrityError) and "channel_id" in str(err):
                    raise ChannelTaken() from err
                raise

    async def backup(self, target: str) -> None:
        """Copy the database safely while the bot runs (SQLite online backup API)."""
        dest = await aiosqlite.connect(target)
        try:
            async with self._using() as db:
                await db.backup(dest)
        finally:
            await dest.close()
