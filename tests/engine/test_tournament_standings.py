"""Tournament standings (engine.tournament.standings, docs/tournaments.md): points and tie-breaks
computed by hand for small tournaments; each test names the rule."""

from __future__ import annotations

from fractions import Fraction as F

from engine.tournament.pairing import KNOCKOUT, ROUND_ROBIN, SWISS, Entrant, Result, pair
from engine.tournament.standings import TIEBREAKS, Standing, standings


def field(n: int, drops: dict[int, int] | None = None) -> list[Entrant]:
    """Players 1..n, rated 1600, 1500...: 1 is the top seed."""
    return [Entrant(i, 1700.0 - 100 * i, i - 1, (drops or {}).get(i)) for i in range(1, n + 1)]


def by_id(rows: list[Standing]) -> dict[int, Standing]:
    return {s.id: s for s in rows}


def test_swiss_four_players_two_rounds_by_hand():
    """Points, Buchholz (sum of opponents' final points), Sonneborn-Berger (final points of those
    beaten, half of those drawn), worked out by hand:
    round 1: 1 beats 3, 2 draws 4; round 2: 2 beats 1, 3 beats 4.
    points 1: 1, 2: 1½, 3: 1, 4: ½;
    Buchholz 1: 3's 1 + 2's 1½ = 2½; 2: ½ + 1 = 1½; 3: 1 + ½ = 1½; 4: 1½ + 1 = 2½;
    SB 1: 3's 1 = 1; 2: ½ × 4's ½ + 1's 1 = 1¼; 3: 4's ½ = ½; 4: ½ × 2's 1½ = ¾.
    Order: 2, then 1 before 3 on Buchholz, then 4."""
    results = [
        Result(1, (1, 3), (0, 1)),
        Result(1, (2, 4), (0, 0)),
        Result(2, (2, 1), (0, 1)),
        Result(2, (3, 4), (0, 1)),
    ]
    rows = standings(SWISS, field(4), results)
    assert [(s.rank, s.id) for s in rows] == [(1, 2), (2, 1), (3, 3), (4, 4)]
    s = by_id(rows)
    assert [s[i].points for i in (1, 2, 3, 4)] == [F(1), F(3, 2), F(1), F(1, 2)]
    assert [s[i].buchholz for i in (1, 2, 3, 4)] == [F(5, 2), F(3, 2), F(3, 2), F(5, 2)]
    assert [s[i].sonneborn for i in (1, 2, 3, 4)] == [F(1), F(5, 4), F(1, 2), F(3, 4)]
    assert (s[2].wins, s[2].draws, s[2].losses, s[2].played) == (1, 1, 0, 2)
    assert (s[4].wins, s[4].draws, s[4].losses) == (0, 1, 1)


def test_multi_seat_table_by_hand():
    """A table of 3 (places 0, 1, 2): points 1, ½, 0; Buchholz is the mean of the table-mates' points
    (1: ¼, 2: ½, 3: ¾); Sonneborn-Berger over n - 1 (1: (½ + 0) / 2 = ¼, 2: 0 / 2 = 0, 3: 0)."""
    rows = by_id(standings(SWISS, field(3), [Result(1, (3, 1, 2), (2, 0, 1))]))
    assert [rows[i].points for i in (1, 2, 3)] == [F(1), F(1, 2), F(0)]
    assert [rows[i].buchholz for i in (1, 2, 3)] == [F(1, 4), F(1, 2), F(3, 4)]
    assert [rows[i].sonneborn for i in (1, 2, 3)] == [F(1, 4), F(0), F(0)]
    assert (rows[1].wins, rows[2].losses, rows[3].losses) == (1, 1, 1)


def test_bye_is_a_win_and_adds_nothing_to_buchholz():
    """A bye: 1 point, a win and a bye in the record, not a table played, 0 to Buchholz and SB."""
    results = [Result(1, (1, 2), (0, 1)), Result(1, (3,), (0,), bye=True)]
    s = by_id(standings(SWISS, field(3), results))[3]
    assert (s.points, s.wins, s.byes, s.played, s.buchholz, s.sonneborn) == (1, 1, 1, 0, 0, 0)


def test_equal_on_every_tiebreak_shares_the_rank():
    """Ranks: equal on points, Buchholz, Sonneborn-Berger and wins -> equal rank; rating orders them."""
    results = [Result(1, (2, 1), (0, 0)), Result(1, (3, 4), (0, 1))]
    rows = standings(ROUND_ROBIN, field(4), results)
    assert [(s.rank, s.id) for s in rows] == [(1, 3), (2, 1), (2, 2), (4, 4)]
    everyone = standings(SWISS, field(4), [Result(1, (1, 2), (0, 0)), Result(1, (3, 4), (0, 0))])
    assert [(s.rank, s.id) for s in everyone] == [(1, 1), (1, 2), (1, 3), (1, 4)]


def test_dropped_players_stay_and_count_for_others():
    """A player who dropped stays in the standings, flagged; their points still count in the
    Buchholz of those who met them."""
    results = [Result(1, (1, 2), (1, 0)), Result(1, (3, 4), (0, 1)), Result(2, (1, 3), (0, 1))]
    s = by_id(standings(SWISS, field(4, {2: 1}), results))
    assert s[2].dropped and s[2].points == 1 and not s[1].dropped
    assert s[1].buchholz == 1 + 1  # 2 beat 1, 1 beat 3, who beat 4: one point each
    assert s[1].sonneborn == 1  # 3, beaten, has 1


def test_knockout_order_round_reached_then_points():
    """Knockout: the champion, the final's loser, then the semi-final losers sharing third (by rating),
    then the quarter-final losers; out_in says the round each went out in."""
    players = field(8)
    results: list[Result] = []
    for r in (1, 2, 3):
        rnd = pair(KNOCKOUT, players, results, r, 2, 2, False)
        assert rnd is not None
        # the better seed (the smaller id) wins every table
        results += [
            Result(r, t.players, tuple(int(p != min(t.players)) for p in t.players)) for t in rnd.tables
        ]
    assert pair(KNOCKOUT, players, results, 4, 2, 2, False) is None
    rows = standings(KNOCKOUT, players, results)
    assert [(s.rank, s.id, s.out_in) for s in rows] == [
        (1, 1, None),
        (2, 2, 3),
        (3, 3, 2),
        (3, 4, 2),
        (5, 5, 1),
        (5, 6, 1),
        (5, 7, 1),
        (5, 8, 1),
    ]
    assert rows[0].points == 3 and rows[2].points == 1


def test_knockout_walkover_counts_the_dropped_player_out():
    """Knockout: a player who dropped while still in is out in the first round played without them."""
    players = field(4, {1: 1})
    results = [Result(1, (1, 4), (0, 1)), Result(1, (2, 3), (0, 1))]
    rnd = pair(KNOCKOUT, players, results, 2, 2, 2, False)
    assert rnd is not None and rnd.byes == (2,) and rnd.tables == ()
    results.append(Result(2, (2,), (0,), bye=True))
    rows = by_id(standings(KNOCKOUT, players, results))
    assert rows[2].out_in is None and rows[1].out_in == 2 and rows[1].dropped


def test_tiebreak_columns():
    """TIEBREAKS names Standing fields, in order, per format."""
    for fmt in (SWISS, ROUND_ROBIN, KNOCKOUT):
        assert all(name in Standing.__dataclass_fields__ for name in TIEBREAKS[fmt])
    assert TIEBREAKS[SWISS][:2] == ("buchholz", "sonneborn")
