"""Tournament pairings (engine.tournament.pairing, docs/tournaments.md): tournaments played out
through ``pair`` with made-up (seeded) results; each test names the rule it holds the code to."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament.pairing import (
    KNOCKOUT,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Result,
    Round,
    pair,
    points,
    rounds_needed,
    table_sizes,
)
from engine.tournament.standings import standings


def entrants(n: int, rng: random.Random | None = None, drops: dict[int, int] | None = None) -> list[Entrant]:
    """n entrants with ids 101.., ratings seeded (or falling with sign-up), some dropped."""
    drops = drops or {}
    return [
        Entrant(
            101 + i, float(rng.choice([1000, 1200, 1500]) if rng else 2000 - 10 * i), i, drops.get(101 + i)
        )
        for i in range(n)
    ]


def made_up(rnd: Round, round_no: int, rng: random.Random) -> list[Result]:
    """Results for a round: random places with ties (a draw now and then); byes as bye results."""
    out = []
    for t in rnd.tables:
        s = [rng.randrange(len(t.players) + 1) for _ in t.players]
        out.append(Result(round_no, t.players, tuple(sum(o > x for o in s) for x in s)))
    return out + [Result(round_no, (b,), (0,), bye=True) for b in rnd.byes]


def play(
    fmt: str, field: Sequence[Entrant], size: int, rng: random.Random, rounds: int | None = None, **kw: object
) -> tuple[list[Round], list[Result]]:
    """Rounds paired and played until ``rounds`` (or until the format has nothing left to pair)."""
    min_table, sides = int(kw.get("min_table", 2)), bool(kw.get("sides", False))
    played: list[Round] = []
    results: list[Result] = []
    for r in range(1, (rounds or 200) + 1):
        rnd = pair(fmt, field, results, r, size, min_table, sides)
        if rnd is None:
            break
        played.append(rnd)
        results += made_up(rnd, r, rng)
    return played, results


def side_gaps(rounds: list[Round]) -> Counter[int]:
    d: Counter[int] = Counter()
    for rnd in rounds:
        for t in rnd.tables:
            d[t.players[0]] += 1
            d[t.players[1]] -= 1
    return d


# Points and table sizes


def test_points_share_of_the_players_beaten():
    """Points: (beaten + ½ tied) / (n - 1): chess scoring at two seats, 1 ⅔ ⅓ 0 at four, a bye 1."""
    from fractions import Fraction as F

    four = Result(1, (1, 2, 3, 4), (2, 0, 3, 1))
    assert [points(four, p) for p in (1, 2, 3, 4)] == [F(1, 3), F(1), F(0), F(2, 3)]
    draw = Result(1, (1, 2), (0, 0))
    assert points(draw, 1) == points(draw, 2) == F(1, 2)
    shared = Result(1, (1, 2, 3), (0, 1, 1))
    assert [points(shared, p) for p in (1, 2, 3)] == [F(1), F(1, 4), F(1, 4)]
    assert points(Result(1, (7,), (0,), bye=True), 7) == 1


def test_table_sizes_as_equal_as_possible():
    """Tables: as few as fit, sizes as equal as possible, never above the size, never below the minimum."""
    assert table_sizes(9, 4, 2) == [3, 3, 3]
    assert table_sizes(8, 4, 2) == [4, 4]
    assert table_sizes(10, 4, 2) == [4, 3, 3]
    assert table_sizes(5, 4, 3) == [4]  # 3 + 2 would be below 3: one bye
    assert table_sizes(1, 4, 2) == []


def test_rounds_needed():
    """Rounds: Swiss ceil(log2 n) at two seats, at least 3 at bigger tables; knockout until one is left."""
    assert rounds_needed(SWISS, 9, 2) == 4
    assert rounds_needed(SWISS, 16, 2) == 4
    assert rounds_needed(SWISS, 9, 4) == 3
    assert rounds_needed(SWISS, 40, 4) == 4  # a knockout of tables of 4 takes 3 (40 -> 10 -> 3 -> 1)
    assert rounds_needed(ROUND_ROBIN, 8, 2) == 7
    assert rounds_needed(ROUND_ROBIN, 9, 2) == 9
    assert rounds_needed(ROUND_ROBIN, 8, 4) == 3  # the greedy schedule (docs/tournaments.md has a table)
    assert rounds_needed(ROUND_ROBIN, 7, 3) == 5
    assert rounds_needed(KNOCKOUT, 8, 2) == 3
    assert rounds_needed(KNOCKOUT, 5, 2) == 3
    assert rounds_needed(KNOCKOUT, 9, 4) == 2


# Swiss


def test_swiss_nine_players_four_rounds():
    """Swiss, 9 players, 4 rounds, Uonga's sides: no pairing repeats, one bye a round and never twice
    for anyone, every side difference at most 1 (sides come before equal scores)."""
    worst: Counter[int] = Counter()
    for seed in range(40):
        rng = random.Random(seed)
        rounds, _ = play(SWISS, entrants(9, rng), 2, rng, rounds=4, sides=True)
        assert len(rounds) == 4
        pairs = Counter(frozenset(t.players) for r in rounds for t in r.tables)
        assert max(pairs.values()) == 1
        assert all(len(r.byes) == 1 for r in rounds)
        assert len({b for r in rounds for b in r.byes}) == 4
        gaps = side_gaps(rounds)
        worst[max(abs(v) for v in gaps.values())] += 1
    assert set(worst) == {1}, worst


def test_swiss_bye_to_lowest_ranked_without_one():
    """Swiss bye: the lowest-ranked player who has not had one."""
    field = entrants(5)
    first = pair(SWISS, field, [], 1, 2, 2, False)
    assert first is not None and first.byes == (105,)  # lowest rated
    results = [Result(1, t.players, (0, 1)) for t in first.tables] + [Result(1, (105,), (0,), bye=True)]
    second = pair(SWISS, field, results, 2, 2, 2, False)
    assert second is not None and second.byes != (105,)
    assert len(second.byes) == 1


def test_swiss_round_one_pairs_neighbours_and_alternates_sides():
    """Swiss round 1: by rating, close ranks (1 v 2, 3 v 4); side A alternates by table."""
    rnd = pair(SWISS, entrants(4), [], 1, 2, 2, True)
    assert rnd is not None and [t.players for t in rnd.tables] == [(101, 102), (104, 103)]


def test_swiss_sides_go_to_who_is_due():
    """Sides: A to the one who had it less often; equal, to the one whose last game was B."""
    field = entrants(4)
    r1 = [Result(1, (101, 102), (0, 1)), Result(1, (104, 103), (0, 1))]
    rnd = pair(SWISS, field, r1, 2, 2, 2, True)
    assert rnd is not None
    for t in rnd.tables:  # each pairs one who had A with one who had B: the B one plays A now
        assert t.players[0] in (102, 103)


def test_swiss_multi_seat_drop_makes_tables_of_four_and_three():
    """Multi-seat Swiss: 8 players at tables of 4, one dropped after round 1 -> round 2 tables 4, 3."""
    rng = random.Random(3)
    field = entrants(8, drops={105: 1})
    r1 = pair(SWISS, field, [], 1, 4, 2, False)
    assert r1 is not None and [len(t.players) for t in r1.tables] == [4, 4] and r1.byes == ()
    r2 = pair(SWISS, field, made_up(r1, 1, rng), 2, 4, 2, False)
    assert r2 is not None and [len(t.players) for t in r2.tables] == [4, 3] and r2.byes == ()
    assert 105 not in {p for t in r2.tables for p in t.players}


def test_swiss_multi_seat_swaps_to_fewer_repeats():
    """Multi-seat Swiss: swaps between neighbouring tables bring the repeats down to the least (8 at
    tables of 4 after one round: each new table holds two of each old one)."""
    rng = random.Random(5)
    field = entrants(8)
    r1 = pair(SWISS, field, [], 1, 4, 2, False)
    assert r1 is not None
    results = made_up(r1, 1, rng)
    r2 = pair(SWISS, field, results, 2, 4, 2, False)
    assert r2 is not None
    old = [set(t.players) for t in r1.tables]
    for t in r2.tables:
        assert sorted(len(set(t.players) & o) for o in old) == [2, 2]


def test_multi_seat_start_player_fairness():
    """Seat order: the one who sat first least often sits first: 8 players, tables of 4, 4 rounds:
    8 start seats, no one has more than 2."""
    rng = random.Random(11)
    rounds, _ = play(SWISS, entrants(8, rng), 4, rng, rounds=4)
    starts = Counter(t.players[0] for r in rounds for t in r.tables)
    assert max(starts.values()) <= 2


def test_swiss_deterministic():
    """Pure: the same entrants and results give the same pairing."""
    rng = random.Random(2)
    field = entrants(11, rng)
    _, results = play(SWISS, field, 2, rng, rounds=3)
    assert pair(SWISS, field, results, 4, 2, 2, True) == pair(SWISS, field, list(results), 4, 2, 2, True)


# Round robin


def test_round_robin_circle_method_odd():
    """Round robin, 2 seats, 7 players: 7 rounds, one bye each (everyone once), every pair once, sides
    within 1 for everyone (Berger tables)."""
    rounds, _ = play(ROUND_ROBIN, entrants(7), 2, random.Random(1))
    assert len(rounds) == 7
    assert sorted(b for r in rounds for b in r.byes) == [101 + i for i in range(7)]
    pairs = Counter(frozenset(t.players) for r in rounds for t in r.tables)
    assert len(pairs) == 21 and max(pairs.values()) == 1
    assert max(abs(v) for v in side_gaps(rounds).values()) <= 1


def test_round_robin_dropped_player_gives_a_bye():
    """Round robin: the opponent of a player who dropped has a bye in their scheduled game."""
    field = entrants(4, drops={104: 1})
    rounds, _ = play(ROUND_ROBIN, field, 2, random.Random(1))
    assert len(rounds) == 3
    assert all(len(r.byes) == 1 and len(r.tables) == 1 for r in rounds[1:])


# Knockout


def test_knockout_of_eight_bracket_and_walkover():
    """Knockout of 8: round 1 is 1 v 8, 4 v 5, 2 v 7, 3 v 6; a winner who drops after round 1 gives
    their round-2 opponent a walkover (a bye)."""
    field = entrants(8, drops={104: 1})  # seed 4
    r1 = pair(KNOCKOUT, field, [], 1, 2, 2, False)
    assert r1 is not None and r1.byes == ()
    assert [set(t.players) for t in r1.tables] == [{101, 108}, {104, 105}, {102, 107}, {103, 106}]
    results = [Result(1, t.players, (0, 1) if min(t.players) == t.players[0] else (1, 0)) for t in r1.tables]
    r2 = pair(KNOCKOUT, field, results, 2, 2, 2, False)
    assert r2 is not None
    assert r2.byes == (101,)  # 101 would have met 104
    assert [set(t.players) for t in r2.tables] == [{102, 103}]


def test_knockout_top_seeds_get_byes():
    """Knockout of 5: a bracket of 8, seeds 1-3 have round-1 byes; 4 v 5 plays."""
    rnd = pair(KNOCKOUT, entrants(5), [], 1, 2, 2, False)
    assert rnd is not None
    assert [set(t.players) for t in rnd.tables] == [{104, 105}]
    assert sorted(rnd.byes) == [101, 102, 103]


def test_knockout_draw_goes_to_better_seed():
    """Knockout: a tie at the top of a table is won by the better seed."""
    field = entrants(2)
    draw = [Result(1, (102, 101), (0, 0))]
    assert pair(KNOCKOUT, field, draw, 2, 2, 2, False) is None
    top = standings(KNOCKOUT, field, draw)
    assert [s.id for s in top] == [101, 102] and top[0].out_in is None and top[1].out_in == 1


def test_knockout_multi_seat_snake_and_winners():
    """Knockout at tables of 4, 9 players: tables of 3 in snake seeding; the 3 winners meet in round 2."""
    field = entrants(9)
    r1 = pair(KNOCKOUT, field, [], 1, 4, 2, False)
    assert r1 is not None
    assert [set(t.players) for t in r1.tables] == [{101, 106, 107}, {102, 105, 108}, {103, 104, 109}]
    results = [Result(1, t.players, tuple(range(len(t.players)))) for t in r1.tables]
    r2 = pair(KNOCKOUT, field, results, 2, 4, 2, False)
    assert r2 is not None and [set(t.players) for t in r2.tables] == [{t.players[0] for t in r1.tables}]
    final = [Result(2, r2.tables[0].players, (1, 0, 2))]
    assert pair(KNOCKOUT, field, results + final, 3, 4, 2, False) is None


# Properties


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[str, int, int, int, int, dict[int, int]]:
    fmt = draw(st.sampled_from([SWISS, ROUND_ROBIN, KNOCKOUT]))
    n = draw(st.integers(2, 24))
    size = draw(st.integers(2, 5))
    least = draw(st.integers(1, 2 if fmt == KNOCKOUT else min(3, size)))
    seed = draw(st.integers(0, 10**6))
    drops = draw(st.dictionaries(st.integers(101, 100 + n), st.integers(0, 4), max_size=n // 3))
    return fmt, n, size, least, seed, drops


@settings(max_examples=60, deadline=None)
@given(tournaments())
def test_every_player_seated_once_per_round(t: tuple[str, int, int, int, int, dict[int, int]]):
    """Every player still in sits at exactly one table or has a bye each round; tables never above
    the size nor below the minimum (a bye only when no table can be formed)."""
    fmt, n, size, least, seed, drops = t
    rng = random.Random(seed)
    field = entrants(n, rng, drops)
    rounds, _ = play(fmt, field, size, rng, rounds=6, min_table=least)
    for r, rnd in enumerate(rounds, 1):
        seated = [p for t in rnd.tables for p in t.players] + list(rnd.byes)
        assert len(seated) == len(set(seated))
        still = {e.id for e in field if e.dropped_after is None or e.dropped_after >= r}
        assert set(seated) <= still
        if fmt != KNOCKOUT:
            assert set(seated) == still
        assert all(max(2, least) <= len(t.players) <= size for t in rnd.tables)
        if fmt == SWISS and size > 2:
            assert len(rnd.byes) == len(still) - sum(table_sizes(len(still), size, max(2, least)))


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 14), st.integers(2, 5), st.integers(0, 10**6))
def test_round_robin_covers_every_pair(n: int, size: int, seed: int):
    """Round robin: every pair meets at a table, in exactly rounds_needed rounds."""
    rng = random.Random(seed)
    rounds, _ = play(ROUND_ROBIN, entrants(n, rng), size, rng)
    met = {
        frozenset((a, b)) for r in rounds for t in r.tables for a in t.players for b in t.players if a != b
    }
    assert len(met) == n * (n - 1) // 2
    assert len(rounds) == rounds_needed(ROUND_ROBIN, n, size)


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 24), st.integers(2, 5), st.integers(0, 10**6))
def test_knockout_ends_with_one_champion(n: int, size: int, seed: int):
    """Knockout: one champion after rounds_needed rounds."""
    rng = random.Random(seed)
    field = entrants(n, rng)
    rounds, results = play(KNOCKOUT, field, size, rng)
    assert len(rounds) == rounds_needed(KNOCKOUT, n, size)
    table = standings(KNOCKOUT, field, results)
    assert [s.out_in for s in table].count(None) == 1 and table[0].out_in is None and table[0].rank == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 24), st.integers(0, 10**6), st.booleans())
def test_swiss_no_repeats_while_possible(n: int, seed: int, sides: bool):
    """Swiss at two seats: no pairing repeats in n/2 rounds (a pairing without repeats exists)."""
    rng = random.Random(seed)
    rounds, _ = play(SWISS, entrants(n, rng), 2, rng, rounds=max(1, n // 2), sides=sides)
    pairs = Counter(frozenset(t.players) for r in rounds for t in r.tables)
    assert max(pairs.values()) == 1
    byes = Counter(b for r in rounds for b in r.byes)
    assert not byes or max(byes.values()) == 1
