"""Typed engine errors. Each carries a message key (and parameters) that the bot turns into
user text in one place (bot/errors.py); nothing here is user-facing prose."""

from __future__ import annotations


class EngineError(Exception):
    key = "error.generic"

    def __init__(self, detail: str = "", **params: object) -> None:
        super().__init__(detail or self.key)
        self.detail = detail
        self.params = params


class BadActionCode(EngineError):
    """The action text could not be parsed (forged or malformed custom_id / select value)."""

    key = "error.bad_action"


class IllegalAction(EngineError):
    """Well-formed, but not allowed in this state."""

    key = "error.illegal"


class NotYourTurn(EngineError):
    key = "error.not_your_turn"


class NotInMatch(EngineError):
    key = "error.not_in_match"


class StaleAction(EngineError):
    """The click carried an older state version than the match is at."""

    key = "error.stale"


class MatchNotFound(EngineError):
    key = "error.no_match"


class MatchOver(EngineError):
    key = "error.match_over"


class LobbyError(EngineError):
    """Lobby problems; ``key`` is set per instance (full, already seated, too few...)."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, **params)
        self.key = key


class ChannelBusy(EngineError):
    key = "error.channel_busy"


class DatabaseBusy(EngineError):
    """The database could not answer in time (another process's lock, a server not answering):
    nothing was changed, try again in a moment."""

    key = "error.db_busy"


class DatabaseUnsure(DatabaseBusy):
    """The database stopped answering after the commit was sent: the move may still be kept. The
    match is read again from the database, and its surfaces show what was kept once it answers."""

    key = "error.db_unsure"


class StillPlaying(EngineError):
    """A user's data is not forgotten while they sit in a live match (their seat and moves are in
    use): ``n`` such matches; nothing was changed."""

    key = "error.forget_live"


class NoLessonsYet(EngineError):
    """A recap that teaches is for a finished game: asked of a live one (or of a game whose computer
    cannot value decisions); nothing is computed."""

    key = "error.lessons_live"
