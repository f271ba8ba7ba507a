"""The PostgreSQL backend (asyncpg): several bot processes (Discord shards) share one database.

What PostgreSQL already does, it does here: the one-writer rule across processes is the conditional
UPDATE of engine.store.base (PostgreSQL row-locks the match, and a second writer re-checks ``version``
after the first commits, so it changes nothing and gets WriteConflict); concurrent start-ups migrate
under an advisory lock; and a commit tells the other processes with NOTIFY (delivered only if it
commits), so they drop their cached copy and re-arm the match's timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg
import asyncpg.exceptions as pg

from engine import ratings, records
from engine.store.base import Store
from engine.store.columns import _mutable_values
from engine.store.conn import BUSY_SECONDS, CALL_SECONDS, Body, Listener
from engine.store.errors import StoreBusy, StoreError, StoreUnsure, WriteConflict
from engine.store.migrations import MIGRATIONS, SCHEMA_VERSION
from engine.store.postgres_conn import (
    PgConn,
    _answer,
    _Attempt,
    _Conn,
    _keep_session,
    _lost,
    _unsent,
    redact,
)
from engine.store.rows import LoggedAction, MatchRow

log = logging.getLogger(__name__)
T = TypeVar("T")

# The names several processes of one install must agree on; each can be changed in the environment
# (PG_NOTIFY_CHANNEL, PG_MIGRATION_LOCK: bot.settings reads them and passes them to the constructor).
# Before the rename (issue 18) they were "ugah_matches" and 0x5547_4148 ("UGAH"): processes of the old
# and the new version neither hear each other's commits nor wait for each other's migrations, so stop
# the old ones before starting the new (or set both variables to the old values for a rolling upgrade).
NOTIFY_CHANNEL = "stoneage_matches"  # NOTIFY channel of commits; "_<schema>" appended outside public
MIGRATION_LOCK = 0x5354_4F4E  # pg_advisory_xact_lock key: one process migrates at a time ("STON")
POOL_SIZE = 10  # connections per process (DATABASE_POOL_SIZE)

# Moves committed together (see PostgresStore.commit): one statement, one round trip, for every move
# queued meanwhile. Each row is written only if its match is still at the version its move read; the
# action rows and the notices to other processes go with the rows written, and only with them.
_MOVES_SQL = """
WITH input AS (
    SELECT * FROM unnest(
        $1::bigint[], $2::int[], $3::bigint[], $4::text[], $5::int[], $6::text[], $7::text[],
        $8::text[], $9::text[], $10::text[], $11::int[], $12::float8[], $13::float8[], $14::text[]
    ) AS i(id, read_version, channel_id, status, version, seats, options, state, meta, timers,
           public_version, deadline, updated, notice)
), up AS (
    UPDATE matches m SET channel_id = i.channel_id, status = i.status,
        version = i.version, seats = i.seats, options = i.options, state = i.state, meta = i.meta,
        timers = i.timers, public_version = i.public_version, deadline = i.deadline, updated = i.updated
    FROM input i WHERE m.id = i.id AND m.version = i.read_version
    RETURNING m.id
), logged AS (
    INSERT INTO actions (match_id, version, seat, action, source, at)
    SELECT a.match_id, a.version, a.seat, a.action, a.source, a.at
    FROM unnest($15::bigint[], $16::int[], $17::int[], $18::text[], $19::text[], $20::float8[])
        AS a(match_id, version, seat, action, source, at)
    WHERE a.match_id IN (SELECT id FROM up)
), told AS (
    SELECT pg_notify($21, i.notice) FROM input i WHERE i.id IN (SELECT id FROM up)
)
SELECT (SELECT coalesce(array_agg(id), '{}') FROM up), (SELECT count(*) FROM told)
"""


@dataclass(eq=False)
class _Move:
    """A move queued for the writer: its row's new values, the version it read, its action rows."""

    values: tuple[Any, ...]  # _mutable_values + updated
    match_id: int
    read_version: int
    actions: list[tuple[Any, ...]]  # (match id, version, seat, action, source, at)
    notice: str
    deadline: float
    done: asyncio.Future[None]


def _fail(group: list[_Move], err: Exception) -> None:
    for g in group:
        if not g.done.done():
            g.done.set_exception(err)


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
        super().__init__()
        self.url = url
        self.schema = schema  # tests and benchmarks isolate themselves in a schema of their own
        self.pool_size = pool_size or POOL_SIZE
        self.notify_channel = notify_channel or NOTIFY_CHANNEL
        self.migration_lock = MIGRATION_LOCK if migration_lock is None else migration_lock
        self._pool: asyncpg.Pool | None = None
        self._listen_conn: asyncpg.Connection | None = None
        self._listeners: list[Listener] = []
        self._channel = self.notify_channel
        self._closing = False
        self._tasks: set[asyncio.Task[None]] = set()  # listeners at work, cancelled on close
        self._moves: list[_Move] = []  # moves waiting for the writer (commit)
        self._mover: asyncio.Task[None] | None = None

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
                reset=_keep_session,
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

    async def _migrate(self, conn: PgConn) -> None:
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
        for number, migration in enumerate(MIGRATIONS[current:], start=current + 1):
            await conn.execute(migration.script("postgres"))
            if migration.data is not None:
                await migration.data(_Conn(conn))
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
        return int((await self._fetch("SELECT version FROM schema_version"))[0][0])

    # ---- connections ---------------------------------------------------------------------------

    async def _fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return await self._call(lambda db: db.fetch(sql, *args))

    async def _write(self, body: Body[T]) -> T:
        return await self._call(body, transaction=True)

    async def _execute(self, sql: str, *args: Any) -> int:
        """One statement is its own transaction: no BEGIN and COMMIT round trips. (The statements
        given here write surface addresses and settings: sent again after a lost connection, they
        write the same.)"""
        return int(await self._call(lambda db: db.execute(sql, *args)))

    async def commit(
        self,
        m: MatchRow,
        actions: Iterable[LoggedAction],
        now: float,
        read_version: int,
        *,
        rated: ratings.Result | None = None,
        record: records.Claim | None = None,
    ) -> None:
        """A move (no ratings, no record) goes to the moves' writer: its conditional UPDATE, its action
        rows and the notice to other processes, together or not at all, in one statement with the
        other moves queued meanwhile (group commit). Finishing commits take the general path."""
        if rated is not None or record is not None:
            return await super().commit(m, actions, now, read_version, rated=rated, record=record)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALL_SECONDS
        guild = "" if m.guild_id is None else m.guild_id
        rows = [(m.id, a.version, a.seat, a.action, a.source, now) for a in actions]
        for _ in range(3):
            move = _Move(
                (*_mutable_values(m), now), m.id, read_version, rows, f"{m.id}:{m.version}:{guild}",
                deadline, loop.create_future(),
            )  # fmt: skip
            self._moves.append(move)
            if self._mover is None or self._mover.done():
                self._mover = loop.create_task(self._write_moves())
            try:
                return await move.done
            except StoreUnsure:  # the connection went with the statement: did it land?
                landed = await self._landed(m, read_version, now, deadline)
                if landed is None:  # no answer in time: it may still land
                    raise
                if landed:
                    return
        raise StoreBusy(f"match {m.id}: the database kept losing the connection")

    async def _write_moves(self) -> None:
        """The moves' writer: whatever was queued while the last statement was on its way goes in
        the next, so a burst of clicks needs a few round trips and one pooled connection at a time,
        not one each (every round trip holds a connection for a turn of a busy event loop)."""
        while self._moves:
            group, self._moves = self._moves, []
            await self._send(group)

    async def _send(self, group: list[_Move]) -> None:
        """One statement for ``group``; each move's outcome goes to its caller. A group that another
        process's commits got in the way of as a whole (a deadlock between two groups' row locks, an
        action row it wrote first) is sent again move by move, so only the move concerned fails."""
        columns = zip(*[(g.match_id, g.read_version, *g.values, g.notice) for g in group], strict=True)
        actions = list(zip(*[a for g in group for a in g.actions], strict=True)) or [()] * 6
        args = (*map(list, columns), *map(list, actions), self._channel)
        try:
            rows = await self._call(
                lambda db: db.fetch(_MOVES_SQL, *args), writes=True, deadline=min(g.deadline for g in group)
            )
            written = set(rows[0][0])
        except (pg.UniqueViolationError, StoreBusy) as err:
            if len(group) > 1 and not isinstance(err, StoreUnsure):
                for g in group:
                    await self._send([g])
                return
            if isinstance(err, pg.UniqueViolationError):  # its version was written by another process
                written = set()
            else:
                _fail(group, err)
                return
        except Exception as err:
            _fail(group, err)
            return
        for g in group:
            if g.done.done():
                continue
            if g.match_id in written:
                g.done.set_result(None)
            else:
                g.done.set_exception(
                    WriteConflict(f"match {g.match_id} is no longer at version {g.read_version}")
                )

    async def _landed(self, m: MatchRow, read_version: int, now: float, deadline: float) -> bool | None:
        """After a commit whose answer was lost: True if the row is the one it wrote, False if it is
        still the one it read (nothing was written: it may be sent again), None if the server does
        not answer in time. Another process's write meanwhile: WriteConflict."""
        try:
            rows = await self._call(
                lambda db: db.fetch("SELECT version, updated FROM matches WHERE id=?", m.id),
                deadline=deadline,
            )
        except StoreBusy:
            return None
        version, updated = rows[0] if rows else (None, None)
        if version == m.version and updated == now:
            return True
        if version == read_version:
            return False
        raise WriteConflict(f"match {m.id} is no longer at version {read_version}")

    async def _call(
        self, body: Body[T], *, transaction: bool = False, writes: bool = False, deadline: float | None = None
    ) -> T:
        """``body`` on a pooled connection, ended within CALL_SECONDS whatever the server does.

        A connection the server closed (restart, failover, idle timeout, fast shutdown) or one that
        cannot be had yet is retried on a fresh one, with a short backoff, as long as nothing can have
        been written: before the COMMIT was sent the server rolls the transaction back when the
        connection goes, and a statement asyncpg refused unsent (on a pooled connection the server
        ended while it sat idle) wrote nothing, whatever it was. A server that stops answering
        (frozen, cut off) ends the call at the deadline: StoreBusy if the COMMIT was not sent yet (the
        connection is dropped, so what was sent is rolled back), StoreUnsure if it was (it may still
        land: the caller reads the truth again). A lone writing statement (``writes``) is its own
        commit."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + CALL_SECONDS if deadline is None else deadline
        delay = 0.05
        while True:
            attempt = _Attempt()
            try:
                async with asyncio.timeout_at(deadline):
                    result = await attempt.run(self.pool, body, transaction=transaction, writes=writes)
            except BaseException as err:
                if not _lost(err, attempt.conn):  # an answer from the server: the connection is fine
                    if attempt.conn is not None:
                        await self.pool.release(attempt.conn, timeout=BUSY_SECONDS)
                    mapped = _answer(err)
                    if mapped is None:
                        raise
                    raise mapped from err
                await self._drop(attempt.conn)
                if isinstance(err, asyncio.CancelledError):
                    raise
                if attempt.committing and not _unsent(err):
                    raise StoreUnsure(f"{type(err).__name__} during COMMIT: {err}") from err
                if isinstance(err, TimeoutError) or loop.time() + delay >= deadline:
                    raise StoreBusy(f"{type(err).__name__}: {err}") from err
                if attempt.conn is not None:  # the server closed it: its pooled siblings are likely gone too
                    await self.pool.expire_connections()
                    log.info("database connection lost (%s); retrying on a fresh one", type(err).__name__)
                    continue
                await asyncio.sleep(delay)  # no connection to be had yet (a server restarting)
                delay = min(delay * 2, 0.4)
                continue
            await self.pool.release(attempt.conn, timeout=BUSY_SECONDS)
            return result

    async def _drop(self, conn: PgConn | None) -> None:
        """A connection that died, or is in an unknown state: never handed out again."""
        if conn is not None:
            with contextlib.suppress(asyncpg.InterfaceError):  # (the pool took back a dead one)
                conn.terminate()
            await self.pool.release(conn)

    # ---- other processes ------------------------------------------------------------------------

    async def _notify(self, db: Any, m: MatchRow) -> None:
        guild = "" if m.guild_id is None else m.guild_id
        await db.execute("SELECT pg_notify(?, ?)", self._channel, f"{m.id}:{m.version}:{guild}")

    @property
    def listening(self) -> bool:
        return self._listen_conn is not None and not self._listen_conn.is_closed()

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
