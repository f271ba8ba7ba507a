"""Who sits at which table in each round of a tournament (pure: no I/O, no clock, no randomness; the
rules for players are in docs/tournaments.md).

- a table of n players scores (players beaten + ½ per player tied) / (n - 1): 1, ½, 0 at two seats;
  a bye scores 1;
- Swiss, two seats: a maximum-weight perfect matching over the players (networkx), whose weights
  put, in this order: fewest repeated pairings, the bye to the lowest-ranked player among those with
  the fewest byes, (with sides: a game whose seats are sides, Uonga) no two players due the same
  side, equal scores, close ranks;
- Swiss, 3-5 seats: tables of equal size (never above the chosen size, never below the game's
  minimum) chunked in rank order, then players swapped between neighbouring tables while that
  lowers the repeated meetings;
- round robin: two seats, the circle method (Berger tables); more, greedy rounds that seat players
  who have not met, until every pair has;
- knockout: seeded by rating; two seats, the standard bracket (1 v 8, 4 v 5, 2 v 7, 3 v 6; top seeds
  get the byes); more, tables in snake seeding, the table's winner advances.

A player's rank while pairing is score, then rating, then sign-up order (then id, for determinism).
Seat 0 of a two-seat table is side A (Uonga's Cavemen) and the start seat: it goes to the player who
had it less often; at bigger tables the one who sat first least often sits first.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import networkx as nx

SWISS, ROUND_ROBIN, KNOCKOUT = "swiss", "round_robin", "knockout"
FORMATS = (SWISS, ROUND_ROBIN, KNOCKOUT)
_BYE = -1  # the bye's node in a Swiss matching (never a Discord user id)


@dataclass(frozen=True)
class Entrant:
    id: int  # a Discord user id
    rating: float  # seeding: the server's rating of this game at sign-up (higher = stronger)
    order: int  # sign-up order (0 first): the last tie-break
    dropped_after: int | None = None  # None: still in; k: plays no round after round k


@dataclass(frozen=True)
class Result:
    """One finished table (match) of one round, or a bye."""

    round: int  # 1-based
    players: tuple[int, ...]  # entrant ids in seat order
    places: tuple[int, ...]  # per seat: 0 = first...; equal numbers = tied (a draw)
    bye: bool = False  # a bye: players == (id,), places == (0,)


@dataclass(frozen=True)
class Table:
    players: tuple[int, ...]  # seat order; at two seats with sides, seat 0 plays side A


@dataclass(frozen=True)
class Round:
    tables: tuple[Table, ...]
    byes: tuple[int, ...]


def points(result: Result, player: int) -> Fraction:
    """The match points ``player`` earns at ``result``'s table (a bye: 1)."""
    if result.bye:
        return Fraction(1)
    mine, n = result.places[result.players.index(player)], len(result.places)
    beaten = sum(p > mine for p in result.places)
    tied = result.places.count(mine) - 1
    return Fraction(2 * beaten + tied, 2 * (n - 1)) if n > 1 else Fraction(0)


def in_play(e: Entrant, round_no: int) -> bool:
    return e.dropped_after is None or e.dropped_after >= round_no


def seed_key(e: Entrant) -> tuple[float, int, int]:
    return (-e.rating, e.order, e.id)


def seeded(entrants: Iterable[Entrant], round_no: int = 1) -> list[int]:
    """The ids of the entrants in play at ``round_no``, strongest seed first."""
    return [e.id for e in sorted((e for e in entrants if in_play(e, round_no)), key=seed_key)]


def winner(result: Result, seed: dict[int, int]) -> int:
    """Who advances from a knockout table: place 0; a tie at the top goes to the better seed."""
    best = min(result.places)
    tied = [p for p, place in zip(result.players, result.places, strict=True) if place == best]
    return min(tied, key=lambda p: seed.get(p, len(seed)))


def scores(results: Iterable[Result]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for r in results:
        for p in r.players:
            out[p] = out.get(p, Fraction(0)) + points(r, p)
    return out


def meetings(results: Iterable[Result]) -> Counter[frozenset[int]]:
    """How often each pair of players sat at the same table."""
    out: Counter[frozenset[int]] = Counter()
    for r in results:
        if not r.bye:
            out.update(frozenset((a, b)) for i, a in enumerate(r.players) for b in r.players[i + 1 :])
    return out


def byes_had(results: Iterable[Result]) -> Counter[int]:
    return Counter(r.players[0] for r in results if r.bye)


def firsts(results: Iterable[Result]) -> Counter[int]:
    """How often each player sat in seat 0 (the start seat; side A at two seats)."""
    return Counter(r.players[0] for r in results if not r.bye and len(r.players) > 1)


def table_sizes(n: int, size: int, least: int) -> list[int]:
    """Tables for ``n`` players: as few as fit ``size`` seats, as equal as possible, bigger first,
    none below ``least``; the players left over (only when that fails) get byes."""
    k = -(-n // size)
    while k and n // k < least:
        k -= 1
    seated = min(n, k * size)
    return [seated // k + (i < seated % k) for i in range(k)]


def rounds_needed(fmt: str, players: int, table_size: int) -> int:
    """Swiss: ceil(log2 n) at two seats; at 3-5 seats one more than a knockout of such tables, and
    at least 3. Round robin: n - 1 (n even) or n (odd) at two seats, else the greedy schedule's
    length. Knockout: rounds until one is left, n -> ceil(n / table_size) each round. A game's minimum
    of players is taken as 2 (every game today); a bigger one can change the round robin's length."""
    if players < 2:
        return 0
    if fmt == KNOCKOUT:
        return _knockout_rounds(players, table_size)
    if fmt == ROUND_ROBIN:
        return players - 1 + players % 2 if table_size == 2 else _greedy_rounds(players, table_size)
    if table_size == 2:
        return (players - 1).bit_length()
    return max(3, _knockout_rounds(players, table_size) + 1)


def _knockout_rounds(players: int, table_size: int) -> int:
    rounds = 0
    while players > 1:
        players, rounds = -(-players // table_size), rounds + 1
    return rounds


@lru_cache(maxsize=256)
def _greedy_rounds(players: int, table_size: int) -> int:
    """The multi-seat round robin's length: its schedule played out (who met whom is all it reads)."""
    entrants = [Entrant(i, 0.0, i) for i in range(players)]
    results: list[Result] = []
    for r in range(1, 4 * players * players):
        rnd = pair(ROUND_ROBIN, entrants, results, r, table_size, 2, False)
        if rnd is None:
            return r - 1
        results += [Result(r, t.players, tuple(range(len(t.players)))) for t in rnd.tables]
        results += [Result(r, (b,), (0,), bye=True) for b in rnd.byes]
    raise AssertionError("the round robin schedule does not end")  # a guard: rounds seat unmet pairs


def pair(
    fmt: str,
    entrants: Sequence[Entrant],
    results: Sequence[Result],
    round_no: int,
    table_size: int,
    min_table: int,
    sides: bool,
) -> Round | None:
    """The pairing of round ``round_no`` given every result of the rounds before (None: nothing left
    to pair: a knockout's champion, a round robin where every pair met, a Swiss with fewer players
    than a table). ``sides``: two seats that are different sides (Uonga), balanced per player."""
    least = max(2, min_table)
    if fmt == SWISS:
        return _swiss(entrants, results, round_no, table_size, least, sides)
    if fmt == ROUND_ROBIN:
        return _round_robin(entrants, results, round_no, table_size, least)
    if fmt == KNOCKOUT:
        return _knockout(entrants, results, round_no, table_size, least)
    raise ValueError(f"unknown tournament format {fmt!r}")


# Seating


def _seat(players: Iterable[int], rank: dict[int, int], first: Counter[int]) -> Table:
    """Start-player fairness: the one who sat first least often sits first, and so on; ties by rank."""
    return Table(tuple(sorted(players, key=lambda p: (first[p], rank[p]))))


def _sides(results: Iterable[Result]) -> dict[int, tuple[int, int]]:
    """Per player at two-seat tables: (times side A - times side B, the side of the last game)."""
    out: dict[int, tuple[int, int]] = {}
    for r in sorted(results, key=lambda r: r.round):
        if not r.bye and len(r.players) == 2:
            a, b = r.players
            out[a] = (out.get(a, (0, 0))[0] + 1, 0)
            out[b] = (out.get(b, (0, 0))[0] - 1, 1)
    return out


def _seat2(hi: int, lo: int, side: dict[int, tuple[int, int]], table_no: int) -> Table:
    """Side A (seat 0) between the higher-ranked ``hi`` and ``lo``: to the one who had it less often;
    equal, to the one whose last game was side B; still equal, ``hi`` gets the side they are due
    (the other one than last time; in their first game, A at even tables, B at odd ones)."""
    (dh, lh), (dl, ll) = side.get(hi, (0, None)), side.get(lo, (0, None))
    if dh != dl:
        hi_first = dh < dl
    elif lh is not None or ll == 1:  # one whose last game was B gets A; else hi alternates
        hi_first = lh == 1
    elif ll is not None:
        hi_first = True  # hi has no due side, lo is due B
    else:
        hi_first = table_no % 2 == 0
    return Table((hi, lo) if hi_first else (lo, hi))


def _byes(ranked: list[int], had: Counter[int], k: int) -> list[int]:
    """The ``k`` byes: the lowest-ranked among those who had the fewest byes."""
    at = {p: i for i, p in enumerate(ranked)}
    return sorted(sorted(ranked, key=lambda p: (had[p], -at[p]))[:k], key=at.__getitem__)


# Swiss


def _swiss(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int, size: int, least: int, sides: bool
) -> Round | None:
    score = scores(results)
    players = sorted(
        (e for e in entrants if in_play(e, round_no)), key=lambda e: (-score.get(e.id, 0), *seed_key(e))
    )
    ranked = [e.id for e in players]
    if len(ranked) < least:
        return None
    if size == 2:
        return _swiss_pairs(ranked, score, results, sides)
    sizes = table_sizes(len(ranked), size, least)
    byes = _byes(ranked, byes_had(results), len(ranked) - sum(sizes))
    seated = [p for p in ranked if p not in byes]
    chunks = [seated[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    rank, first = {p: i for i, p in enumerate(ranked)}, firsts(results)
    tables = _fewer_repeats(chunks, meetings(results))
    return Round(tuple(_seat(t, rank, first) for t in tables), tuple(byes))


def _repeats(table: list[int], met: Counter[frozenset[int]]) -> int:
    return sum(met[frozenset((a, b))] for i, a in enumerate(table) for b in table[i + 1 :])


def _fewer_repeats(tables: list[list[int]], met: Counter[frozenset[int]]) -> list[list[int]]:
    """Swap one player between neighbouring tables while that lowers the repeated meetings: the best
    swap each time, the nearest in rank first among equals (the lowest of a table for the highest of
    the next), so the tables stay as close to rank order as they can."""
    tables = [list(t) for t in tables]
    while True:
        best = (0, 0, 0, 0)  # (change, table, seat above, seat below)
        for i in range(len(tables) - 1):
            up, down = tables[i], tables[i + 1]
            before = _repeats(up, met) + _repeats(down, met)
            for a in reversed(range(len(up))):
                for b in range(len(down)):
                    u, d = [*up[:a], down[b], *up[a + 1 :]], [*down[:b], up[a], *down[b + 1 :]]
                    change = _repeats(u, met) + _repeats(d, met) - before
                    if change < best[0]:
                        best = (change, i, a, b)
        if best[0] == 0:
            return tables
        _, i, a, b = best
        tables[i][a], tables[i + 1][b] = tables[i + 1][b], tables[i][a]


def _swiss_pairs(
    ranked: list[int], score: dict[int, Fraction], results: Sequence[Result], sides: bool
) -> Round:
    """Two seats: the maximum-weight perfect matching (a bye node when the count is odd) whose edge
    costs compare, in order: repeats, the bye's rank from the bottom, side clash, score gap², rank gap.
    Sides come before equal scores: Uonga's side decides most games between equals (the Cavemen win
    nearly all), so a third game on the same side costs a player more than an opponent a point off.
    (Weighing the two together, 8 half-point gaps² a clash, left a side difference of 2 in 5% of 300
    random 9-player 4-round Swisses; this order, in none.)"""
    met, had, side = meetings(results), byes_had(results), _sides(results)
    at = {p: i for i, p in enumerate(ranked)}
    edges: list[tuple[int, int]] = []
    costs: list[tuple[int, ...]] = []
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 :]:
            gap = math.ceil(abs(score.get(a, 0) - score.get(b, 0)) * 2)  # in half points
            clash = _clash(a, b, side) if sides else 0
            edges.append((a, b))
            costs.append((met[frozenset((a, b))], 0, clash, gap * gap, at[b] - i))
    if len(ranked) % 2:
        fewest = min(had[p] for p in ranked)  # never a second bye while someone has had none
        for p in ranked:
            if had[p] == fewest:
                edges.append((p, _BYE))
                costs.append((0, len(ranked) - 1 - at[p], 0, 0, 0))
    weights = _lexicographic(costs, (len(ranked) + 1) // 2)
    graph = nx.Graph()
    top = max(weights) + 1  # every perfect matching has as many edges: a shift keeps their order
    graph.add_weighted_edges_from((a, b, top - w) for (a, b), w in zip(edges, weights, strict=True))
    matched = sorted(
        tuple(sorted(e, key=lambda p: at.get(p, len(at))))
        for e in nx.max_weight_matching(graph, maxcardinality=True)
    )
    tables = sorted((e for e in matched if _BYE not in e), key=lambda e: at[e[0]])
    byes = tuple(e[0] for e in matched if _BYE in e)
    return Round(tuple(_seat2(a, b, side, n) for n, (a, b) in enumerate(tables)), byes)


def _clash(a: int, b: int, side: dict[int, tuple[int, int]]) -> int:
    """How far one of two players due the same side would be pushed from balance."""
    da, db = side.get(a, (0, 0))[0], side.get(b, (0, 0))[0]
    return min(abs(da), abs(db)) if da * db > 0 else 0


def _lexicographic(costs: list[tuple[int, ...]], edges: int) -> list[int]:
    """One number per cost tuple such that sums over ``edges`` chosen edges compare like the tuples'
    sums, first term first (each term's base exceeds every sum of the terms after it)."""
    out, base = [0] * len(costs), 1
    for j in reversed(range(len(costs[0]))):
        for i, c in enumerate(costs):
            out[i] += c[j] * base
        base *= max(c[j] for c in costs) * edges + 1
    return out


# Round robin


def _round_robin(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int, size: int, least: int
) -> Round | None:
    seeds = seeded(entrants)  # the schedule is fixed by the players at the start
    now = set(seeded(entrants, round_no))
    if size == 2:
        if round_no > rounds_needed(ROUND_ROBIN, len(seeds), 2):
            return None
        tables: list[Table] = []
        byes: list[int] = []
        for a, b in _berger(seeds, round_no - 1):
            there = [p for p in (a, b) if p is not None and p in now]
            if len(there) == 2:
                tables.append(Table(tuple(there)))
            else:
                byes.extend(there)  # the odd one out, or the opponent of one who dropped
        return Round(tuple(tables), tuple(byes))
    players = [p for p in seeds if p in now]
    met = meetings(results)
    if len(players) < least or all(
        met[frozenset((a, b))] for i, a in enumerate(players) for b in players[i + 1 :]
    ):
        return None
    return _cover(players, table_sizes(len(players), size, least), met, byes_had(results), firsts(results))


def _berger(seeds: list[int], r: int) -> list[tuple[int | None, int | None]]:
    """Round ``r`` (0-based) of the circle method: the last player stays, the others turn n/2 places a
    round (Berger tables), so sides mostly alternate; the first of each pair plays side A."""
    ring: list[int | None] = [*seeds, None] if len(seeds) % 2 else [*seeds]
    n = len(ring)
    fixed, rest = ring[-1], ring[:-1]
    shift = r * (n // 2) % (n - 1)
    turn = rest[shift:] + rest[:shift]
    first = (turn[0], fixed) if r % 2 == 0 else (fixed, turn[0])
    return [first, *((turn[i], turn[n - 1 - i]) for i in range(1, n // 2))]


def _cover(
    players: list[int], sizes: list[int], met: Counter[frozenset[int]], had: Counter[int], first: Counter[int]
) -> Round:
    """A greedy round robin round at 3-5 seats: those who met everyone sit out first when some must;
    each table starts with the free player with the most unmet free players and adds, one by one,
    whoever meets the most new players there; among equals, the one with the fewest unmet players
    still free (their last chances; this shortens the schedule by about a tenth, measured for 2-16
    players at tables of 3-5)."""
    rank = {p: i for i, p in enumerate(players)}

    def new(p: int, others: Iterable[int]) -> int:
        return sum(met[frozenset((p, q))] == 0 for q in others if q != p)

    unmet = {p: new(p, players) for p in players}
    out = sorted(players, key=lambda p: (unmet[p] > 0, had[p], unmet[p], -rank[p]))[
        : len(players) - sum(sizes)
    ]
    free = [p for p in players if p not in out]
    tables: list[Table] = []
    for size in sizes:
        table = [max((new(p, free), -rank[p], p) for p in free)[-1]]
        free.remove(table[0])
        while len(table) < size:
            table.append(max((new(p, table), -new(p, free), -rank[p], p) for p in free)[-1])
            free.remove(table[-1])
        tables.append(_seat(table, rank, first))
    return Round(tuple(tables), tuple(sorted(out, key=rank.__getitem__)))


# Knockout


def _knockout(
    entrants: Sequence[Entrant], results: Sequence[Result], round_no: int, size: int, least: int
) -> Round | None:
    seeds = seeded(entrants)
    seed = {p: i for i, p in enumerate(seeds)}
    now = set(seeded(entrants, round_no))
    if size == 2:
        return _bracket_round(_bracket(entrants, seeds, results, round_no), now, seed, results)
    alive = seeds
    for r in range(1, round_no):
        done = [x for x in results if x.round == r]
        alive = [p for p in alive if any(p == (x.players[0] if x.bye else winner(x, seed)) for x in done)]
    alive = [p for p in alive if p in now]  # one who dropped while still in is out: a walkover
    if len(alive) < least:  # a champion (a game of 3+ minimum players could end with none)
        return None
    sizes = table_sizes(len(alive), size, least)
    byes = alive[: len(alive) - sum(sizes)]  # the top seeds
    tables = _snake(alive[len(byes) :], sizes)
    first = firsts(results)
    return Round(tuple(_seat(t, seed, first) for t in tables), tuple(byes))


def _positions(size: int) -> list[int]:
    """The standard bracket's seeds (0-based) in bracket order: 8 -> 0 7 3 4 1 6 2 5."""
    order = [0]
    while len(order) < size:
        order = [x for s in order for x in (s, 2 * len(order) - 1 - s)]
    return order


def _bracket(
    entrants: Sequence[Entrant], seeds: list[int], results: Sequence[Result], round_no: int
) -> list[int | None]:
    """Who holds each bracket slot at ``round_no``: the slots of round 1 (empty past the last seed,
    so the top seeds have byes), each later round's slot the advancer of a pair of the one before."""
    slots: list[int | None] = (
        [seeds[s] if s < len(seeds) else None for s in _positions(1 << (len(seeds) - 1).bit_length())]
        if seeds
        else []
    )
    entrant = {e.id: e for e in entrants}
    seed = {p: i for i, p in enumerate(seeds)}
    played = {(x.round, p): x for x in results if not x.bye for p in x.players}
    for r in range(1, round_no):
        if len(slots) < 2:
            break
        nxt: list[int | None] = []
        for a, b in zip(slots[::2], slots[1::2], strict=True):
            there = [p for p in (a, b) if p is not None and in_play(entrant[p], r)]
            if len(there) < 2:
                nxt.append(there[0] if there else None)
            elif (r, there[0]) not in played:
                raise ValueError(f"knockout round {r}: no result for player {there[0]}")
            else:
                nxt.append(winner(played[r, there[0]], seed))
        slots = nxt
    return slots


def _bracket_round(
    slots: list[int | None], now: set[int], seed: dict[int, int], results: Sequence[Result]
) -> Round | None:
    if len(slots) < 2:
        return None  # a champion (or nobody)
    side = _sides(results)
    tables: list[Table] = []
    byes: list[int] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        there = sorted((p for p in (a, b) if p is not None and p in now), key=seed.__getitem__)
        if len(there) == 2:
            tables.append(_seat2(there[0], there[1], side, len(tables)))
        else:
            byes.extend(there)  # a round-1 bye, or a walkover: the other one dropped
    return Round(tuple(tables), tuple(byes)) if tables or byes else None


def _snake(players: list[int], sizes: list[int]) -> list[list[int]]:
    """Seeds dealt to tables 1..k, then k..1, and so on (skipping full tables): seeds spread out."""
    tables: list[list[int]] = [[] for _ in sizes]
    lanes = [*range(len(sizes)), *reversed(range(len(sizes)))]
    turn = 0
    for p in players:
        while len(tables[lanes[turn % len(lanes)]]) >= sizes[lanes[turn % len(lanes)]]:
            turn += 1
        tables[lanes[turn % len(lanes)]].append(p)
        turn += 1
    return tables
