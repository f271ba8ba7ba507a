"""The store for a target: a PostgreSQL URL (several processes) or a SQLite file path."""

from __future__ import annotations

from engine.store.base import Store
from engine.store.postgres import PostgresStore
from engine.store.sqlite import SqliteStore


def open_store(
    target: str,
    *,
    exclusive: bool = True,
    pool_size: int | None = None,
    notify_channel: str | None = None,
    migration_lock: int | None = None,
) -> Store:
    """The store for ``target``: a postgresql:// URL (several processes), or a SQLite file path.
    ``pool_size``, ``notify_channel``, ``migration_lock``: PostgreSQL's (None: PostgresStore's defaults)."""
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(
            target, pool_size=pool_size, notify_channel=notify_channel, migration_lock=migration_lock
        )
    return SqliteStore(target, exclusive=exclusive)


__all__ = ["open_store"]
