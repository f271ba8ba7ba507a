"""The PostgreSQL backend (asyncpg): several bot processes (Discord shards) share one database.

What PostgreSQL already does, it does here: the one-writer rule across processes is the conditional
UPDATE of engine.store (PostgreSQL row-locks the match, and a second writer re-checks ``version``
after the first commits, so it changes nothing and gets WriteConflict); concurrent start-ups migrate
under an advisory lock; and a commit tells the other processes with NOTIFY (delivered only if it
commits), so they drop their cached copy and re-arm the match's timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import os
import re
from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import asyncpg.exceptions as pg

from engine.migrations import POSTGRES, SCHEMA_VERSION
from engine.store import BUSY_SECONDS, ChannelTaken, Listener, MatchRow, Store, StoreBusy, StoreError

log = logging.getLogger(__name__)

# The names several processes of one install must agree on; each can be changed in the environment
# (PG_NOTIFY_CHANNEL, PG_MIGRATION_LOCK; bot.settings checks them), the constructor's arguments win.
# Before the rename (issue 18) they were "ugah_matches" and 0x5547_4148 ("UGAH"): processes of the old
# and the new version neither hear each other's commits nor wait for each other's migrations, so stop
# the old ones before starting the new (or set both variables to the old values for a rolling upgrade).
NOTIFY_CHANNEL = "stoneage_matches"  # NOTIFY channel of commits; "_<schema>" appended outside public
MIGRATION_LOCK = 0x5354_4F4E  # pg_advisory_xact_lock key: one process migrates at a time ("STON")
# What "try again in a moment" covers: another process's row lock held too long, a statement timeout,
# a lost or refused connection, a pool with no free connection in time.
_BUSY = (
    pg.LockNotAvailableError,
    pg.QueryCanceledError,
    pg.TooManyConnectionsError,
    pg.CannotConnectNowError,
    pg.PostgresConnectionError,
    pg.DeadlockDetectedError,
    pg.SerializationError,
    ConnectionError,  # reset, refused, aborted: the network between us and the server
    TimeoutError,
)
_PARAM = re.compile(r"\?")


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


@functools.lru_cache(maxsize=512)  # the queries are few and fixed (IN lists vary by length only)
def _numbered(sql: str) -> str:
    """engine.store's ``?`` parameters as PostgreSQL's ``$1, $2, ...``."""
    counter = itertools.count(1)
    return _PARAM.sub(lambda _: f"${next(counter)}", sql)


def _rowcount(status: str) -> int:
    """asyncpg returns the command tag ('UPDATE 1'); its last word is the row count."""
    tail = status.rsplit(" ", 1)[-1]
    return int(tail) if tail.isdigit() else 0


class _Conn:
    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.fetch(_numbered(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> int:
        return _rowcount(await self.conn.execute(_numbered(sql), *args))

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await self.conn.executemany(_numbered(sql), rows)


class PostgresStore(Store):
    kind = "postgresql"
    shared = True

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        pool_size: int | None = None,
        notify_channel: str | None = None,
        migration_lock: int | None = None,
    ) -> None:
        self.url = url
        self.schema = schema  # tests and benchmarks isolate themselves in a schema of their own
        self.pool_size = pool_size or int(os.environ.get("DATABASE_POOL_SIZE", "10"))
        self.notify_channel = (
            notify_channel or os.environ.get("PG_NOTIFY_CHANNEL", "").strip() or NOTIFY_CHANNEL
        )
        if migration_lock is None:
            lock = os.environ.get("PG_MIGRATION_LOCK", "").strip()
            migration_lock = int(lock, 0) if lock else MIGRATION_LOCK
        self.migration_lock = migration_lock
        self._pool: asyncpg.Pool | None = None
        self._listen_conn: asyncpg.Connection | None = None
        self._listeners: list[Listener] = []
        self._channel = self.notify_channel
        self._closing = False
        self._tasks: set[asyncio.Task[None]] = set()  # listeners at work, cancelled on close

    @property
    def description(self) -> str:
        return redact(self.url) + (f" (schema {self.schema})" if self.schema else "")

    def _settings(self) -> dict[str, str]:
        ms = str(int(BUSY_SECONDS * 1000))
        # another process's row lock is waited for BUSY_SECONDS at most, then "busy" (Discord allows 3 s)
        settings = {"lock_timeout": ms, "statement_timeout": str(int(BUSY_SECONDS * 2000))}
        if self.schema:
            settings["search_path"] = self.schema
        return settings

    async def open(self) -> None:
        try:
            if self.schema:
                conn = await asyncpg.connect(self.url, timeout=10)
                try:  # IF NOT EXISTS is no lock: a process starting at the same moment may create it first
                    with contextlib.suppress(pg.UniqueViolationError):
                        await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
                finally:
                    await conn.close()
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                server_settings=self._settings(),
                timeout=10,
            )
            async with self._pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", self.migration_lock)
                await self._migrate(conn)
                schema = await conn.fetchval("SELECT current_schema()")
            self._channel = self.notify_channel if schema == "public" else f"{self.notify_channel}_{schema}"
        except StoreError:
            await self.close()
            raise
        except (pg.PostgresError, OSError, TimeoutError, asyncpg.InterfaceError) as err:
            await self.close()
            raise StoreError(
                f"{self.description}: {err}: check DATABASE_URL and that the server runs"
            ) from err

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        current = await conn.fetchval("SELECT version FROM schema_version")
        if current is None:
            await conn.execute("INSERT INTO schema_version VALUES (0)")
            current = 0
        if current > SCHEMA_VERSION:
            raise StoreError(
                f"{self.description}: database schema {current} is newer than this bot's "
                f"({SCHEMA_VERSION}): update the bot, or restore a backup made for this version"
            )
        for number, script in enumerate(POSTGRES[current:], start=current + 1):
            await conn.execute(script)
            await conn.execute("UPDATE schema_version SET version=$1", number)
            log.info("database migrated to schema %s", number)

    async def close(self) -> None:
        self._closing = True
        for task in list(self._tasks):
            task.cancel()
        if self._listen_conn is not None:
            with contextlib.suppress(Exception):
                await self._listen_conn.close()
            self._listen_conn = None
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pool.close(), 5)
            self._pool = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    async def schema_version(self) -> int:
        async with self._read() as db:
            return int((await db.fetch("SELECT version FROM schema_version"))[0][0])

    # ---- connections ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        try:
            async with self.pool.acquire(timeout=BUSY_SECONDS) as conn:
                yield conn
        except pg.UniqueViolationError as err:
            if "channel" in (err.constraint_name or "") or "one_live_match" in str(err):
                raise ChannelTaken() from err
            raise
        except _BUSY as err:
            raise StoreBusy(f"{type(err).__name__}: {err}") from err

    @contextlib.asynccontextmanager
    async def _read(self) -> AsyncIterator[_Conn]:
        async with self._connection() as conn:
            yield _Conn(conn)

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[_Conn]:
        async with self._connection() as conn, conn.transaction():
            yield _Conn(conn)

    # ---- other processes ------------------------------------------------------------------------

    async def _notify(self, db: Any, m: MatchRow) -> None:
        guild = "" if m.guild_id is None else m.guild_id
        await db.execute("SELECT pg_notify(?, ?)", self._channel, f"{m.id}:{m.version}:{guild}")

    async def listen(self, listener: Listener) -> None:
        """Hear other processes' commits on a connection of its own; if it is lost, reconnect and
        tell the listener to re-read everything (match id -1), as notifications may have been missed."""
        self._listeners.append(listener)
        if self._listen_conn is None:
            await self._connect_listener()

    async def _connect_listener(self) -> None:
        conn = await asyncpg.connect(self.url, timeout=10, server_settings=self._settings())
        await conn.add_listener(self._channel, self._heard)
        conn.add_termination_listener(lambda _: asyncio.get_running_loop().create_task(self._relisten()))
        self._listen_conn = conn

    def _heard(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        mid, version, guild = [*payload.split(":"), "", ""][:3]
        self._tell(int(mid), int(version or 0), int(guild) if guild else None)

    def _tell(self, mid: int, version: int, guild: int | None) -> None:
        for listener in self._listeners:
            result = listener(mid, version, guild)
            if asyncio.iscoroutine(result):
                task = asyncio.get_running_loop().create_task(result)
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _relisten(self) -> None:
        self._listen_conn = None
        delay = 0.5
        while not self._closing:
            try:
                await self._connect_listener()
            except (pg.PostgresError, OSError, TimeoutError) as err:
                log.warning("lost the notification connection (%s); retrying in %.1fs", err, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30)
                continue
            self._tell(-1, 0, None)
            return
