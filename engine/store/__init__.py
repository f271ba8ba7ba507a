"""Persistence: the rows and the errors, which import no database code, so that anything may import
them (engine.ratings and engine.records among them, which ``engine.store.base`` uses in turn).

``engine.store.base.Store`` is what every backend implements; ``engine.store.open`` chooses a backend (``engine.store.sqlite``, ``engine.store.postgres``) for a
target; it is not imported here, so that importing the rows never imports a database driver, and the
backends, which import this package, never import themselves back. The schema is
``engine.store.migrations``; how a row maps to columns, ``engine.store.columns``.
"""

from __future__ import annotations

from engine.store.conn import BUSY_SECONDS, CALL_SECONDS
from engine.store.errors import (
    ChannelTaken,
    SeatedInLiveMatch,
    StoreBusy,
    StoreError,
    StoreUnsure,
    WriteConflict,
)
from engine.store.rows import (
    LIVE,
    Forgotten,
    LiveEntry,
    LoggedAction,
    MatchRow,
    Record,
    SeatInfo,
    SurfaceRow,
)

__all__ = [
    "BUSY_SECONDS",
    "CALL_SECONDS",
    "LIVE",
    "ChannelTaken",
    "Forgotten",
    "LiveEntry",
    "LoggedAction",
    "MatchRow",
    "Record",
    "SeatInfo",
    "SeatedInLiveMatch",
    "StoreBusy",
    "StoreError",
    "StoreUnsure",
    "SurfaceRow",
    "WriteConflict",
]
