"""What the store reads and writes, as plain values: a match's row and its seats, a logged action, a
surface's address, a personal record, what forgetting a user changed.

Everything else in the engine may import these (the rules of rating and of records read a match's
row), so this module imports nothing of the engine but ``engine.meta``, itself a leaf (it imports only
``engine.core``, which imports nothing): no import can run from here back into the store.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.meta import MatchMeta

LIVE = ("lobby", "active")


@dataclass
class SeatInfo:
    user_id: int | None  # None for a computer seat
    name: str
    ai: bool = False
    away: bool = False  # a human whose turn timer ran out: the computer plays until they click again
    idle: bool = False  # a human whose turn began and who has not acted since (Matches._gone_away)
    level: str | None = None  # a computer seat's difficulty (the game's Computer.levels)
    version: int = 0  # the match version at which what this seat can do last changed (private staleness)
    locale: str | None = None  # the player's Discord language when seated: their DMs speak it

    def dump(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v is not None or k == "user_id"}


@dataclass
class MatchRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    host_id: int
    status: str
    version: int
    seed: int
    seats: list[SeatInfo]
    options: dict[str, Any]
    state: dict[str, Any] | None  # the game's dump(), wrapped on disk in {schema, game, state}
    meta: MatchMeta = field(default_factory=MatchMeta)  # typed and versioned (engine.meta)
    timers: dict[str, float] = field(default_factory=dict)  # timer key -> absolute due time
    public_version: int = 0  # the version at which the public view last changed

    @property
    def deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None

    def copy(self) -> MatchRow:
        """A private copy to change; the cached row is replaced only after its commit. The state's
        dump is shared, not copied (most of a row's bytes): a commit replaces it whole, never edits it.
        Field by field rather than ``copy.deepcopy``, which took about a tenth of the bot's own CPU in
        a move (tests/engine/test_store_copy.py checks no mutable part is shared)."""
        return dataclasses.replace(
            self,
            seats=[dataclasses.replace(s) for s in self.seats],
            options=copy.deepcopy(self.options),
            meta=self.meta.copy(),
            timers=dict(self.timers),
        )


@dataclass(frozen=True)
class LiveEntry:
    """What start-up needs of a live match without decoding its state (decoded on first use)."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    timers: dict[str, float]

    @property
    def deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None


@dataclass(frozen=True)
class LoggedAction:
    version: int
    seat: int
    action: str
    source: str  # "player", "computer" (AI seat), "timeout" (turn limit) or "timer" (a rules timer)


@dataclass(frozen=True)
class SurfaceRow:
    """Where one surface of a match lives (bot.surfaces): a message in a channel, and for a surface
    reached through an interaction (an ephemeral panel) the token Discord lets a bot use for 15
    minutes after ``at``. ``seat`` is -1 for a surface of the whole match; ``version`` is the last one
    claimed (a ping's turn, a recap sent once). ``shown`` says what that message shows, in the bot's
    own short words (a version and digests, bot.surfaces.content): opaque here, kept so that a
    restarted bot does not send a message what it shows already."""

    match_id: int
    kind: str
    seat: int = -1
    channel_id: int | None = None
    message_id: int | None = None
    token: str | None = None
    version: int = 0
    at: float = 0.0
    shown: str | None = None


@dataclass(frozen=True)
class Record:
    """A player's best result in one game and mode, and the match that set it."""

    best: float
    previous: float | None  # the best before this one (None: the first result)
    match_id: int


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a user changed: matches that name them no more, rows of stats, records and
    settings gone."""

    matches: int
    ratings: int
    records: int
    settings: int = 0  # their own settings (a DM when their turn comes)
    tournaments: tuple[int, ...] = ()  # the tournaments whose record named them (their messages follow)


__all__ = ["LIVE", "Forgotten", "LiveEntry", "LoggedAction", "MatchRow", "Record", "SeatInfo", "SurfaceRow"]
