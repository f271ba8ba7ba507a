"""What the store raises: the database cannot be used, cannot answer now, or refused a write."""

from __future__ import annotations


class StoreError(Exception):
    """The database cannot be used; the message is one line with advice that fits the cause."""


class StoreBusy(Exception):
    """The database cannot answer in time right now (another process's lock, a lost connection):
    nothing was written; retry later."""


class StoreUnsure(StoreBusy):
    """The database stopped answering after a commit was sent: it may or may not have been written
    (PostgreSQL frozen or cut off mid-commit). The caller forgets what it cached and reads the truth."""


class ChannelTaken(Exception):
    """The channel already has a live match (the database's unique index said so)."""


class WriteConflict(Exception):
    """The row changed since it was read (another process wrote it): reload and try again."""


class SeatedInLiveMatch(Exception):
    """A user's data cannot be forgotten while they sit in these live matches."""

    def __init__(self, match_ids: list[int]) -> None:
        super().__init__(f"seated in live matches {match_ids}")
        self.match_ids = match_ids


__all__ = ["ChannelTaken", "SeatedInLiveMatch", "StoreBusy", "StoreError", "StoreUnsure", "WriteConflict"]
