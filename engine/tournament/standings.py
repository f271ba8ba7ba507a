"""A tournament's standings from its results (pure; the rules for players are in docs/tournaments.md).

- points: engine.tournament.pairing.points per table, a bye 1; a win is first place alone (a bye
  counts as one, and as a bye), a draw is first place shared, anything else a loss;
- Swiss and round robin order by points, then Buchholz (per table the mean final points of the
  player's table-mates, summed; a bye adds 0), then Sonneborn-Berger (per table each table-mate's
  final points times the share of them the player beat, 1 beaten, ½ tied, 0 lost, over n - 1), then
  wins;
- knockout orders by the round a player went out in (still in, the champion, first), then points;
- players equal on all of these share a rank; rating, then sign-up order, only order their lines.

Players who dropped stay, flagged; their results still count in everyone's tie-breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from engine.tournament.pairing import (
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Result,
    points,
    seed_key,
    seeded,
    winner,
)

TIEBREAKS: dict[str, tuple[str, ...]] = {
    SWISS: ("buchholz", "sonneborn", "wins"),
    ROUND_ROBIN: ("buchholz", "sonneborn", "wins"),
    KNOCKOUT: ("out_in", "points"),
}


@dataclass(frozen=True)
class Standing:
    rank: int  # 1-based; equal on every tie-break -> equal rank
    id: int
    points: Fraction
    buchholz: Fraction
    sonneborn: Fraction  # Sonneborn-Berger
    wins: int
    draws: int
    losses: int
    byes: int
    played: int  # tables played, byes not counted
    dropped: bool
    out_in: int | None = None  # knockout: the round the player went out in (None: still in / champion)


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    tables: list[Result] = field(default_factory=list)


def _tally(results: Sequence[Result]) -> dict[int, _Tally]:
    out: dict[int, _Tally] = {}
    for r in results:
        top = min(r.places)
        for p, place in zip(r.players, r.places, strict=True):
            t = out.setdefault(p, _Tally())
            t.points += points(r, p)
            if r.bye:
                t.byes += 1
                t.wins += 1
                continue
            t.tables.append(r)
            if place != top:
                t.losses += 1
            elif r.places.count(top) == 1:
                t.wins += 1
            else:
                t.draws += 1
    return out


def _mates(r: Result, player: int) -> list[tuple[int, Fraction]]:
    """Each table-mate of ``player`` with the share of them the player beat (1, ½ tied, 0)."""
    mine = r.places[r.players.index(player)]
    return [
        (q, Fraction(1) if place > mine else Fraction(1, 2) if place == mine else Fraction(0))
        for q, place in zip(r.players, r.places, strict=True)
        if q != player
    ]


def buchholz(player: int, tables: Sequence[Result], final: dict[int, Fraction]) -> Fraction:
    total = Fraction(0)
    for r in tables:
        mates = _mates(r, player)
        total += sum((final[q] for q, _ in mates), Fraction(0)) / len(mates)
    return total


def sonneborn(player: int, tables: Sequence[Result], final: dict[int, Fraction]) -> Fraction:
    total = Fraction(0)
    for r in tables:
        mates = _mates(r, player)
        total += sum((final[q] * share for q, share in mates), Fraction(0)) / len(mates)
    return total


def out_in(entrants: Sequence[Entrant], results: Sequence[Result]) -> dict[int, int]:
    """Knockout: the round each player who is out went out in: the round of the table they did not
    win, or, for one who dropped while still in, the first round played without them."""
    seed = {p: i for i, p in enumerate(seeded(entrants))}
    out: dict[int, int] = {}
    for r in sorted(results, key=lambda r: r.round):
        if not r.bye:
            w = winner(r, seed)
            for p in r.players:
                if p != w:
                    out.setdefault(p, r.round)
    last = max((r.round for r in results), default=0)
    for e in entrants:
        if e.id not in out and e.dropped_after is not None and e.dropped_after < last:
            out[e.id] = e.dropped_after + 1
    return out


def standings(fmt: str, entrants: Sequence[Entrant], results: Sequence[Result]) -> list[Standing]:
    """Every entrant's standing, best first."""
    tally = _tally(results)
    final = {p: t.points for p, t in tally.items()}
    gone = out_in(entrants, results) if fmt == KNOCKOUT else {}
    rows: list[tuple[tuple[object, ...], Standing]] = []
    for e in sorted(entrants, key=seed_key):
        t = tally.get(e.id, _Tally())
        s = Standing(
            rank=0,
            id=e.id,
            points=t.points,
            buchholz=buchholz(e.id, t.tables, final),
            sonneborn=sonneborn(e.id, t.tables, final),
            wins=t.wins,
            draws=t.draws,
            losses=t.losses,
            byes=t.byes,
            played=len(t.tables),
            dropped=e.dropped_after is not None,
            out_in=gone.get(e.id),
        )
        rows.append((_key(fmt, s), s))
    rows.sort(key=lambda row: row[0])  # stable: equal keys keep the seed order (rating, sign-up)
    out: list[Standing] = []
    for i, (key, s) in enumerate(rows):
        shared = i > 0 and key == rows[i - 1][0]
        out.append(replace(s, rank=out[-1].rank if shared else i + 1))
    return out


def _key(fmt: str, s: Standing) -> tuple[object, ...]:
    """What a rank is decided by (smaller is better); players equal on it share the rank."""
    if fmt == KNOCKOUT:
        return (s.out_in is not None, -(s.out_in or 0), -s.points)
    return (-s.points, -s.buchholz, -s.sonneborn, -s.wins)
