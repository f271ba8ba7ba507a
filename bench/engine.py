"""Pure rules: random playouts per second, computer move time and its win rate against random play."""

from __future__ import annotations

import random
import time

from bench import Row, ms, pct, random_move
from engine.games.ugah import RULES
from engine.games.ugah_ai import COMPUTER


def playouts(games: int) -> list[Row]:
    """Uniformly random legal actions from setup to the end, 2-4 players in turn."""
    rng, moves = random.Random(1), 0
    t0 = time.perf_counter()
    for g in range(games):
        s = RULES.setup(2 + g % 3, g, {"variant": ("basic", "uncertain")[g % 2]})
        while s.phase != "over":
            s = random_move(s, rng)
            moves += 1
    dt = time.perf_counter() - t0
    return [Row("random playouts / s (2-4 players)", f"{games / dt:,.0f} ({moves / dt:,.0f} moves/s)")]


def ai_vs_random(games: int) -> list[Row]:
    """Two-player games, computer vs uniformly random; the AI alternates seats 0 and 1 (who starts is
    the game's own seeded draw). A shared win counts as half a win; ties are also reported apart.
    Every computer decision is timed: the first one of a turn runs the DP, later ones hit its cache."""
    rng, times, score, ties = random.Random(2), [], 0.0, 0
    for g in range(games):
        ai = g % 2
        s = RULES.setup(2, 10_000 + g, {})
        while s.phase != "over":
            if s.current == ai:
                t0 = time.perf_counter()
                action = COMPUTER.choose(s, ai, "normal")
                times.append(time.perf_counter() - t0)
            else:
                action = rng.choice(RULES.legal_actions(s, s.current))
            s, _ = RULES.apply(s, s.current, action)
        winners = RULES.outcome(s).winners
        if ai in winners:
            score += 1 / len(winners)
            ties += len(winners) > 1
    rate = score / games
    return [
        Row(
            "computer move time p50 / p99 / max",
            f"{ms(pct(times, 0.5))} / {ms(pct(times, 0.99))} / {ms(max(times))} (n={len(times)})",
        ),
        Row(
            f"computer win rate vs random, {games} 2p games",
            f"{rate:.1%} ({ties} ties, counted 1/2)",
            "≥ 65%",
            rate >= 0.65,
        ),
    ]
