"""A tournament's changes, pure: signing up, starting, each round's pairing (engine.tournament.pairing),
results coming in, players leaving or dropped, pausing and ending. Each function changes the record
it is given (the runner's private copy, committed as a new version) or raises TournamentError, with
nothing changed, for the bot to say."""

from __future__ import annotations

from engine.errors import EngineError
from engine.tournament import pairing
from engine.tournament.model import (
    CANCELLED,
    FINISHED,
    OPEN,
    PAUSED,
    RUNNING,
    SIGNUP,
    Game,
    Player,
    Tournament,
)

MAX_PLAYERS = 64  # a sign-up message lists them all (and Discord's thread limits stay far away)


class TournamentError(EngineError):
    """A refused tournament operation; ``key`` is set per instance."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key, **params)
        self.key = key


def join(t: Tournament, user_id: int, name: str, rating: float, locale: str | None) -> None:
    if t.status != SIGNUP:
        raise TournamentError("tournament.signup_closed")
    if t.player(user_id) is not None:
        raise TournamentError("tournament.already_in")
    if len(t.players) >= MAX_PLAYERS:
        raise TournamentError("tournament.full", max=MAX_PLAYERS)
    order = max((p.order for p in t.players), default=-1) + 1
    t.players.append(Player(user_id, name, rating, order, locale))


def leave(t: Tournament, user_id: int) -> None:
    """Before the start a player's entry is taken back; later they are dropped from the rounds after
    the current one (a match of theirs still running goes on: its time-out rule applies)."""
    p = t.player(user_id)
    if p is None:
        raise TournamentError("tournament.not_in")
    if t.status == SIGNUP:
        t.players.remove(p)
        return
    if t.status not in OPEN:
        raise TournamentError("tournament.over")
    if p.dropped_after is not None:
        raise TournamentError("tournament.already_left")
    p.dropped_after = t.round


def minimum(t: Tournament, min_players: int) -> int:
    """How many players a start needs: one full table (two seats at least)."""
    return max(2, min_players) if t.table_size > 2 else 2


def start(t: Tournament, now: float, min_players: int, sides: bool = False) -> None:
    if t.status != SIGNUP:
        raise TournamentError("tournament.started")
    need = minimum(t, min_players)
    if len(t.players) < need:
        raise TournamentError("tournament.too_few", min=need)
    t.status = RUNNING
    needed = pairing.rounds_needed(t.fmt, len(t.players), t.table_size)
    t.rounds = t.rounds if t.fmt == pairing.SWISS and t.rounds else needed
    next_round(t, now, min_players, sides)


def cancel(t: Tournament, user_id: int) -> None:
    if t.status != SIGNUP:
        raise TournamentError("tournament.started")
    t.status, t.ended_by = CANCELLED, user_id


def entrants(t: Tournament) -> list[pairing.Entrant]:
    return [pairing.Entrant(p.id, p.rating, p.order, p.dropped_after) for p in t.players]


def results(t: Tournament) -> list[pairing.Result]:
    return [
        pairing.Result(g.round, tuple(g.players), tuple(g.places), g.bye)
        for g in t.games
        if g.places is not None
    ]


def next_round(t: Tournament, now: float, min_players: int, sides: bool = False) -> bool:
    """Pair the next round (its tables, to be opened by the runner, and its byes); False when the
    tournament is over instead: every round played, the format done, or too few players left.
    ``sides``: the game's two seats are sides (Uonga), balanced before equal scores."""
    number = t.round + 1
    paired = None
    if number <= t.rounds and len(t.active(number)) >= 2:
        sides = t.table_size == 2  # (Uonga's sides; in any game seat 0 moves first: balanced too)
        paired = pairing.pair(t.fmt, entrants(t), results(t), number, t.table_size, min_players, sides)
    if paired is None or not paired.tables:
        t.status, t.round_deadline = FINISHED, None
        return False
    t.round = number
    for i, table in enumerate(paired.tables, 1):
        t.games.append(Game(number, i, list(table.players)))
    for user_id in paired.byes:
        t.games.append(Game(number, 0, [user_id], places=[0]))
    t.round_deadline = now + t.round_seconds
    return True


def record(t: Tournament, match_id: int, places: list[int]) -> bool:
    """A table's result, once (a second report of the same match changes nothing)."""
    g = t.game_of(match_id)
    if g is None or g.places is not None:
        return False
    g.places = list(places)
    return True


def drop(t: Tournament, user_id: int) -> None:
    """A manager drops a player: as if they left."""
    leave(t, user_id)


def pause(t: Tournament, now: float) -> None:
    if t.status != RUNNING:
        raise TournamentError("tournament.not_running")
    t.status = PAUSED
    t.paused_left = max(0.0, (t.round_deadline or now) - now)
    t.round_deadline = None


def resume(t: Tournament, now: float) -> None:
    if t.status != PAUSED:
        raise TournamentError("tournament.not_paused")
    t.status = RUNNING
    t.round_deadline = now + (t.paused_left or 0.0)
    t.paused_left = None


def end(t: Tournament, user_id: int) -> None:
    """A manager ends it: the standings as they are are final (a sign-up just closes)."""
    if t.status not in OPEN:
        raise TournamentError("tournament.over")
    t.status = CANCELLED if t.status == SIGNUP else FINISHED
    t.round_deadline, t.ended_by = None, user_id
