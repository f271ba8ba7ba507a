"""Typed engine errors. Each carries a message key (and parameters) that the bot turns into
user text in one place (bot/errors.py); nothing here is user-facing prose.

A class names its key where it is declared: ``class NotYourTurn(EngineError, key="...")``."""

from __future__ import annotations


class EngineError(Exception):
    key = "error.generic"

    def __init__(self, detail: str = "", **params: object) -> None:
        super().__init__(detail or self.key)
        self.detail = detail
        self.params = params

    def __init_subclass__(cls, key: str = "", **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if key:
            cls.key = key


class BadActionCode(EngineError, key="error.bad_action"):
    """The action text could not be parsed (forged or malformed custom_id / select value)."""


class IllegalAction(EngineError, key="error.illegal"):
    """Well-formed, but not allowed in this state."""


class NotYourTurn(EngineError, key="error.not_your_turn"):
    """The action came from a seat that is not to move."""


class NotInMatch(EngineError, key="error.not_in_match"):
    """The user has no seat in this match."""


class StaleAction(EngineError, key="error.stale"):
    """The click carried an older state version than the match is at."""


class MatchNotFound(EngineError, key="error.no_match"):
    """No such match, or none running in this channel."""


class MatchOver(EngineError, key="error.match_over"):
    """The match has ended: no more moves."""


class LobbyError(EngineError):
    """Lobby problems; ``key`` is set per instance (full, already seated, too few...)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, **params)
        self.key = key


class ChannelBusy(EngineError, key="error.channel_busy"):
    """A match is already running in this channel."""


class DatabaseBusy(EngineError, key="error.db_busy"):
    """The database could not answer in time (another process's lock, a server not answering):
    nothing was changed, try again in a moment."""


class DatabaseUnsure(DatabaseBusy, key="error.db_unsure"):
    """The database stopped answering after the commit was sent: the move may still be kept. The
    match is read again from the database, and its surfaces show what was kept once it answers."""


class StillPlaying(EngineError, key="error.forget_live"):
    """A user's data is not forgotten while they sit in a live match (their seat and moves are in
    use): ``n`` such matches; nothing was changed."""


class StillResigned(StillPlaying, key="error.forget_resigned"):
    """As StillPlaying, where every such match is one the user resigned (the computer plays their
    seat until it ends): there is nothing left for them to leave."""


class NoLessonsYet(EngineError, key="error.lessons_live"):
    """A recap that teaches is for a finished game: asked of a live one (or of a game whose computer
    cannot value decisions); nothing is computed."""
