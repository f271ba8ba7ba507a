"""What the queries ask of a backend: a connection (``?`` parameters) and transactions given as
functions of it, each ended within a time Discord can wait for."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

BUSY_SECONDS = 1.5  # wait this long for another process's lock, then say "busy" (Discord allows 3 s)
CALL_SECONDS = 2.5  # every database call ends within this, answered or busy: a click is answered in 3 s


class Conn(Protocol):
    """A backend's connection, as the queries use it (``?`` parameters)."""

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]: ...
    async def execute(self, sql: str, *args: Any) -> int: ...  # rows changed
    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None: ...


T = TypeVar("T")
Body = Callable[[Conn], Awaitable[T]]  # a transaction: every statement goes through its Conn
Listener = Callable[[int, int, int | None], Awaitable[None] | None]  # (match id, version, guild id)
