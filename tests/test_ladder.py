"""The ladder (bench.ladder, issue 21.1) on the toy game: the simulated clock, the round robin's
rotation, reproducibility across processes, the intervals and the ratings."""

from __future__ import annotations

from collections import Counter

import pytest

from bench import ladder
from bench.ladder import Game, play
from toy.rules import COUNTDOWN, TARGET, THINK


def test_a_game_runs_on_the_simulated_clock_thinking_times_and_timers_included() -> None:
    steady = play(Game("toy", ("steady", "steady"), 1))
    assert steady.seconds == TARGET * THINK, "six adds of one, 40 s apart, together"
    assert steady.scores == (TARGET, TARGET) and steady.winners == (0, 1)
    assert len(steady.think["steady"]) == 2 * TARGET
    fast = play(Game("toy", ("steady", "random", "random"), 7))
    assert fast.scores[0] == 0, "the countdown closed the game before the steady player's first add"
    assert set(fast.winners) <= {1, 2} and fast.seconds < TARGET * ladder.RANDOM_THINK + COUNTDOWN + 1


def test_random_openings_give_deterministic_computers_different_games() -> None:
    plain = {play(Game("uonga", ("easy", "easy"), seed, {"side": "cavemen"})).scores for seed in range(3)}
    opened = {play(Game("uonga", ("easy", "easy"), seed, {"side": "cavemen"}, 3)).scores for seed in range(6)}
    assert len(plain) == 1 and len(opened) > 1


def test_pairings_give_every_pair_the_same_games_with_seats_and_sides_rotated() -> None:
    jobs = ladder.pairings("uonga", 30)
    assert len(jobs) == 48, "30 games: 5 per pair, rounded up to whole rotations (2 seats x 2 sides)"
    assert ladder.entrants("uonga") == ["random", "easy", "medium", "hard"]
    assert ladder.entrants("honga") == ["random", "easy", "medium", "hard"]
    per_pair = Counter(frozenset(g.seats) for g in jobs)
    assert len(per_pair) == 6 and len(set(per_pair.values())) == 1
    hard_vs_easy = [g for g in jobs if set(g.seats) == {"hard", "easy"}]
    assert Counter((g.seats.index("hard"), g.options["side"]) for g in hard_vs_easy) == {
        (0, "cavemen"): 2, (1, "cavemen"): 2, (0, "mastodons"): 2, (1, "mastodons"): 2,
    }  # fmt: skip
    three = ladder.pairings("toy", 9)
    assert all(sorted(Counter(g.seats).values()) == [1, 2] for g in three), "one against two of the other"
    assert Counter(g.seats.index("steady") for g in three) == {0: 3, 1: 3, 2: 3}


def test_a_run_is_the_same_in_one_process_or_a_pool() -> None:
    jobs = ladder.pairings("toy", 6)
    here = [(r.scores, r.winners) for r in ladder.run_games(jobs, workers=1)]
    pooled = [(r.scores, r.winners) for r in ladder.run_games(jobs, workers=2, progress=False)]
    assert here == pooled


def test_wilson_interval() -> None:
    low, high = ladder.wilson(65, 100)
    assert low == pytest.approx(0.5525, abs=1e-3) and high == pytest.approx(0.7364, abs=1e-3)
    assert ladder.wilson(0, 10)[0] == 0.0 and ladder.wilson(10, 10)[1] == 1.0
    assert ladder.wilson(0, 0) == (0.0, 1.0)


def test_the_report_rates_the_winner_higher_and_counts_shares() -> None:
    results = ladder.run_games(ladder.pairings("toy", 12), workers=1)
    h2h = ladder.head_to_head(results)
    ((pair, h),) = h2h.items()
    assert pair == ("steady", "random") and h.games == 12 and h.wins == 0, "steady never beats two randoms"
    rated = ladder.ratings(results)
    assert rated["random"][0] > rated["steady"][0]
    text = ladder.report("toy", results)
    assert "| steady vs two random | 12 | 0% | 0%-24% | 33% |" in text, text


def test_a_shared_first_place_is_a_share_of_a_win() -> None:
    r = play(Game("toy", ("steady", "steady"), 1))
    assert ladder.share(r, "steady") == 1.0  # both seats are the steady entrant: one whole win
    split = ladder.Result(Game("toy", ("a", "b", "b"), 0), (3, 3, 1), (0, 1), 1, 1.0, {})
    assert ladder.share(split, "a") == 0.5 and ladder.share(split, "b") == 0.5
