"""Skill ratings per server and game, from openskill's Plackett-Luce model (pure functions).

Each seat of a finished match is one team of one player: a member (keyed by their user id) or, for a
computer seat, a pseudo-player per game and level (``computer:ugah:normal``), so beating the hard
computer moves a rating like beating a person of that strength. Ranks follow the outcome: every
winner shares rank 1 (a draw makes every seat a winner), the others follow by score, and a player who
resigned is last and never a winner (engine.result decides the winners once for every surface). The store writes the new standings in the
same transaction that finishes the match (``Store.commit(..., rated=...)``); cancelled games and
one-seat games (solo modes) are never rated.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from engine.result import Final
from engine.store.rows import MatchRow

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3; ordinal = mu - 3 sigma
COMPUTER = "computer:"


def user_key(user_id: int) -> str:
    return str(user_id)


def computer_key(game: str, level: str) -> str:
    return f"{COMPUTER}{game}:{level}"


def computer_level(player: str) -> str | None:
    """The level of a computer pseudo-player's key, None for a member."""
    return player.rsplit(":", 1)[1] if player.startswith(COMPUTER) else None


@dataclass(frozen=True)
class Standing:
    """A player's record in one game on one server."""

    player: str
    played: int = 0
    wins: int = 0
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative skill estimate leaderboards sort by (openskill's ``ordinal``)."""
        return MODEL.rating(mu=self.mu, sigma=self.sigma).ordinal()


@dataclass(frozen=True)
class Result:
    """What a finished match contributes: per seat, who played it, its rank (1 best) and if it won."""

    guild_id: int
    game: str
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    won: tuple[bool, ...]


def result_of(m: MatchRow, final: Final, level_of: Callable[[int], str]) -> Result | None:
    """The rated result of a finished match (None: not rated, e.g. a solo game), from its one decided
    result (engine.result): its winners, then the others by points, then those who resigned."""
    seats = m.seats
    if len(seats) < 2:
        return None
    players = tuple(
        user_key(s.user_id) if s.user_id is not None else computer_key(m.game, level_of(i))
        for i, s in enumerate(seats)
    )
    won = tuple(i in final.winners for i in range(len(seats)))
    scores = list(final.scores) + [0] * (len(seats) - len(final.scores))
    order = [
        (2, 0) if i in final.resigned and not won[i] else (0, 0) if won[i] else (1, -scores[i])
        for i in range(len(seats))
    ]
    ranks = tuple(1 + sum(other < mine for other in order) for mine in order)
    return Result(m.guild_id or 0, m.game, players, ranks, won)


def rate(result: Result, before: Mapping[str, Standing]) -> list[Standing]:
    """The players' standings after ``result``, from their standings before it (missing: new players).
    A pseudo-player holding several seats (two computers of one level) takes the mean of its seats'
    new ratings and counts one game, won if any of its seats won."""
    teams = [
        [MODEL.rating(mu=s.mu, sigma=s.sigma, name=p)]
        for p in result.players
        for s in [before.get(p) or Standing(p)]
    ]
    rated = MODEL.rate(teams, ranks=list(result.ranks))
    out: dict[str, Standing] = {}
    for player in dict.fromkeys(result.players):
        seats = [i for i, p in enumerate(result.players) if p == player]
        old = before.get(player) or Standing(player)
        out[player] = replace(
            old,
            played=old.played + 1,
            wins=old.wins + any(result.won[i] for i in seats),
            mu=sum(rated[i][0].mu for i in seats) / len(seats),
            sigma=sum(rated[i][0].sigma for i in seats) / len(seats),
        )
    return list(out.values())
