"""A tournament's record, as stored (one JSON object in the ``tournaments`` table) and changed by
engine.tournament.flow: who entered, the rounds' tables (each a match played in its own thread) and
their results. Everything shown (sign-up message, standings, threads) is derived from it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SIGNUP, RUNNING, PAUSED, FINISHED, CANCELLED = "signup", "running", "paused", "finished", "cancelled"
OPEN = (SIGNUP, RUNNING, PAUSED)  # a tournament that still changes (its timers run while it is open)


@dataclass
class Player:
    id: int
    name: str
    rating: float  # the server's rating of the game at sign-up: seeding and pairing order
    order: int  # sign-up order: the last tie-break
    locale: str | None = None
    dropped_after: int | None = None  # plays no round after this one (0: dropped before round 1)


@dataclass
class Game:
    """One table of one round: a match in its own thread, or a bye (no match)."""

    round: int
    table: int  # 1-based within its round; 0 for a bye
    players: list[int]  # entrant ids in seat order
    match_id: int | None = None  # None: not opened yet (the runner opens it, once)
    thread_id: int | None = None
    places: list[int] | None = None  # per seat, 0 first; None while it is played

    @property
    def bye(self) -> bool:
        return self.table == 0


@dataclass
class Tournament:
    id: int
    guild_id: int | None
    channel_id: int
    creator_id: int
    creator_name: str
    title: str
    game: str
    fmt: str  # engine.tournament.pairing: swiss, round_robin, knockout
    table_size: int
    round_seconds: int
    signup_deadline: float
    rounds: int = 0  # Swiss: as chosen (0: by the number of players); others: set at the start
    options: dict[str, Any] = field(default_factory=dict)  # the matches' game options
    locale: str | None = None
    status: str = SIGNUP
    version: int = 1
    players: list[Player] = field(default_factory=list)
    round: int = 0  # the round being played (0: signing up)
    round_deadline: float | None = None
    paused_left: float | None = None  # seconds left of the round when it was paused
    games: list[Game] = field(default_factory=list)
    message_id: int | None = None  # the sign-up message, kept up to date for the whole tournament
    posted: int = 0  # the last round whose standings were posted in the channel
    ended_by: int | None = None

    # ---- reading ----------------------------------------------------------------------------------

    @property
    def deadline(self) -> float | None:
        """When the tournament's timer is next due: the sign-up deadline, or the round's end."""
        if self.status == SIGNUP:
            return self.signup_deadline
        if self.status == RUNNING:
            return self.round_deadline
        return None

    def player(self, user_id: int) -> Player | None:
        return next((p for p in self.players if p.id == user_id), None)

    def active(self, round_no: int) -> list[Player]:
        """The players who take part in round ``round_no`` (not dropped before it)."""
        return [p for p in self.players if p.dropped_after is None or p.dropped_after >= round_no]

    def of_round(self, round_no: int) -> list[Game]:
        return [g for g in self.games if g.round == round_no]

    def game_of(self, match_id: int) -> Game | None:
        return next((g for g in self.games if g.match_id == match_id), None)

    def round_over(self) -> bool:
        return all(g.places is not None for g in self.of_round(self.round))

    def forget(self, user_id: int) -> bool:
        """``/privacy forget-me``: the user is named nowhere. Before the start their entry goes; after,
        it keeps its results under an id of its own (negative: never a Discord user's) and no name,
        and plays no further round. Whether anything changed."""
        changed = False
        for p in list(self.players):
            if p.id == user_id and self.status == SIGNUP:  # not started: the entry goes
                self.players.remove(p)
                changed = True
            elif p.id == user_id:  # they play no further round
                if self.status in OPEN and p.dropped_after is None:
                    p.dropped_after = self.round
                anonymous = -1 - p.order
                for g in self.games:
                    g.players = [anonymous if u == user_id else u for u in g.players]
                p.id, p.name, p.locale, changed = anonymous, "", None, True
        if self.creator_id == user_id:
            self.creator_id, self.creator_name, changed = 0, "", True
        if self.ended_by == user_id:
            self.ended_by, changed = None, True
        return changed

    # ---- stored as JSON ---------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def load(d: dict[str, Any]) -> Tournament:
        d = dict(d)
        players = [Player(**p) for p in d.pop("players", [])]
        games = [Game(**g) for g in d.pop("games", [])]
        return Tournament(**d, players=players, games=games)
