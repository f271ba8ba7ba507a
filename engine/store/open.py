"""The store for a target: a PostgreSQL URL (several processes) or a SQLite file path."""

from __future__ import annotations

from engine.store.base import Store
from engine.store.postgres import PostgresStore
from engine.store.sqlite import SqliteStore


def open_store(target: str, *, exclusive: bool = True, notify_channel: str | None = None) -> Store:
    """The store for ``target``: a postgresql:// URL (several processes), or a SQLite file path.
    ``notify_channel``: PostgreSQL's NOTIFY channel (None: PG_NOTIFY_CHANNEL, else stoneage_matches)."""
    if target.startswith(("postgresql://", "postgres://")):
        return PostgresStore(target, notify_channel=notify_channel)
    return SqliteStore(target, exclusive=exclusive)


__all__ = ["open_store"]
