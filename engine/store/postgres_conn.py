"""PostgreSQL connections as the store uses them: ``?`` parameters numbered, row counts read from
command tags, and which errors mean the connection went away (retried) and which are the server's
answer (mapped to the store's errors)."""

from __future__ import annotations

import asyncio
import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import asyncpg.exceptions as pg
from asyncpg.pool import PoolConnectionProxy

from engine.store.conn import Body
from engine.store.errors import ChannelTaken, StoreBusy

T = TypeVar("T")
PgConn = asyncpg.Connection | PoolConnectionProxy  # a connection of its own, or one of the pool's

# "Try again in a moment", said at once: another process's row lock held too long, a statement
# timeout, a deadlock or serialization conflict (nothing was written, the connection is fine).
_BUSY = (
    pg.LockNotAvailableError,
    pg.QueryCanceledError,
    pg.DeadlockDetectedError,
    pg.SerializationError,
)
# A connection lost or not to be had (closed by the server, a server starting or shutting down,
# too many clients): retried on a fresh connection while time is left.
_LOST = (
    pg.PostgresConnectionError,  # includes ConnectionDoesNotExistError
    pg.OperatorInterventionError,  # admin shutdown, crash shutdown, cannot connect now
    pg.TooManyConnectionsError,
)


def _lost(err: BaseException, conn: PgConn | None) -> bool:
    """Whether ``err`` means the connection (or the server) went away, or the call ran out of time,
    rather than an answer of the server to what was asked."""
    # InternalClientError: asyncpg's protocol is out of step, as on a connection whose end the server
    # announced while it sat idle in the pool (the next statement finds it "in progress"): not usable.
    if isinstance(err, (TimeoutError, asyncio.CancelledError, pg.InternalClientError, *_LOST)):
        return True
    if isinstance(err, OSError | asyncpg.InterfaceError):  # reset, refused; "another operation is in
        return conn is None or _closed(conn) or _unsent(err)  # progress" as it closes
    return False


def _unsent(err: BaseException) -> bool:
    """asyncpg refused the statement before sending any of it: the connection was still busy with
    something else (the server's goodbye, unread). Nothing of it can have been written, a COMMIT
    or a lone writing statement included, so it may be sent again on a fresh connection."""
    return isinstance(err, asyncpg.InterfaceError | pg.InternalClientError) and "in progress" in str(err)


def _closed(conn: PgConn) -> bool:
    try:
        return conn.is_closed()
    except asyncpg.InterfaceError:  # the pool already took back a connection that died
        return True


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


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A released connection needs no reset query (one more round trip per call): the queries never
    change the session (settings are the connection's start-up parameters, advisory locks are
    transaction-scoped), and a connection left in a transaction or an unknown state is terminated
    by PostgresStore._call instead of returned."""


class _Conn:
    def __init__(self, conn: PgConn) -> None:
        self.conn = conn

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        return [tuple(r) for r in await self.conn.fetch(_numbered(sql), *args)]

    async def execute(self, sql: str, *args: Any) -> int:
        return _rowcount(await self.conn.execute(_numbered(sql), *args))

    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        await self.conn.executemany(_numbered(sql), rows)


def _answer(err: BaseException) -> BaseException | None:
    """The store's error for an answer of the server (None: raise ``err`` as it is)."""
    if isinstance(err, pg.UniqueViolationError) and (
        "channel" in (getattr(err, "constraint_name", None) or "") or "one_live_match" in str(err)
    ):
        return ChannelTaken()
    if isinstance(err, _BUSY):  # another process's lock, a conflict
        return StoreBusy(f"{type(err).__name__}: {err}")
    return None


@dataclass
class _Attempt:
    """One try of a call: the connection it took (None: none yet) and whether its COMMIT was sent."""

    conn: PgConn | None = None
    committing: bool = False

    async def run(self, pool: asyncpg.Pool, body: Body[T], *, transaction: bool, writes: bool) -> T:
        self.conn = conn = await pool.acquire()
        if not transaction:
            self.committing = writes  # a lone writing statement is its own commit
            return await body(_Conn(conn))
        tx = conn.transaction()
        await tx.start()
        try:
            result = await body(_Conn(conn))
        except BaseException:
            await tx.rollback()  # (a dead connection raises here: the caller handles it)
            raise
        self.committing = True
        await tx.commit()
        return result
