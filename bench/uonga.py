"""Uonga benchmarks: the computer's strength and move time, the board image, and the balance table.

``run()`` returns (metric, result, aim) rows; ``python -m bench.uonga`` prints them. Everything is
seeded; the game counts are small so the whole run stays near two minutes on one core. Games between
two deterministic computers would repeat one another, so each game opens with a few seeded random
placements (``OPENING`` turns) and the levels alternate seats and sides.
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from bench import ladder
from engine.games.uonga import RULES, UongaState
from engine.games.uonga_ai import COMPUTER
from engine.games.uonga_variants import OFFERED, VARIANTS
from harness.text_table import text_table
from render.uonga import render_uonga

Row = tuple[str, str, str]
OPENING = 2  # turns of seeded random placement before the computers take over (variety)
VS_RANDOM_GAMES = 10
VS_MEDIUM_GAMES = 10
BALANCE_GAMES = 6  # per rule set
KIB = 1024
NAMES = ["alice", "bob"]


def pct(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1)."""
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else float("nan")


def play(
    levels: dict[int, str], seed: int, options: dict[str, Any], timed: list[float], views: list
) -> UongaState:
    """One game; ``levels[seat]`` is a computer level or "random". Hard decisions
    are timed into ``timed`` (placements, moves and takes alike); every tenth state's public view goes to ``views`` (render samples)."""
    rng = random.Random(seed)
    s = RULES.setup(2, seed, options)
    while s.phase != "over":
        (seat,) = RULES.to_move(s)
        level = levels[seat]
        if level == "random" or s.turn <= OPENING:
            action = rng.choice(RULES.legal_actions(s, seat))
        else:
            t0 = time.perf_counter()
            action = COMPUTER.choose(s, seat, level)
            if level == "hard":
                timed.append(time.perf_counter() - t0)
        s, _ = RULES.apply(s, seat, action)
        if len(views) < 200 and s.turn % 10 == 0:
            views.append(RULES.view(s, None))
    views.append(RULES.view(s, None))
    return s


def match(
    level: str, other: str, games: int, timed: list[float], views: list, seed: int
) -> tuple[float, Counter]:
    """``level`` against ``other``, alternating sides: (score, results), a draw counting one half."""
    score, results = 0.0, Counter()
    for g in range(games):
        side = ("cavemen", "mastodons")[g % 2]
        s = play({0: level, 1: other}, seed + g, {"side": side}, timed, views)
        out = RULES.outcome(s)
        assert out is not None
        winners = out.winners
        score += 1.0 if winners == [0] else 0.5 if len(winners) == 2 else 0.0
        results[("win" if winners == [0] else "draw" if len(winners) == 2 else "loss", side)] += 1
    return score / games, results


def _results(results: Counter) -> str:
    plural = {"win": "wins", "draw": "draws", "loss": "losses"}
    return ", ".join(f"{n} {r if n == 1 else plural[r]} as {s}" for (r, s), n in sorted(results.items()))


def strength_rows() -> tuple[list[Row], list]:
    timed: list[float] = []
    views: list = []
    rate_r, res_r = match("hard", "random", VS_RANDOM_GAMES, timed, views, 1000)
    rate_m, res_m = match("hard", "medium", VS_MEDIUM_GAMES, timed, views, 2000)
    rows = [
        (f"hard vs random, {VS_RANDOM_GAMES} games (both sides)", f"{rate_r:.0%} ({_results(res_r)})", "≥ 98%"),
        (f"hard vs medium, {VS_MEDIUM_GAMES} games (both sides, draw = 1/2)", f"{rate_m:.0%} ({_results(res_m)})",
         "≥ 65%"),
        (f"hard decision time p50 / max ({len(timed)} decisions)",
         f"{pct(timed, 0.5):.2f} s / {max(timed, default=0):.2f} s", "≤ 1 s / ≤ 3 s"),
    ]  # fmt: skip
    return rows, views


def render_rows(views: list) -> list[Row]:
    render_uonga(views[0], NAMES)  # builds the cached sprites once per process
    times, sizes = [], []
    for _ in range(3):
        for view in views:
            t0 = time.perf_counter()
            png = render_uonga(view, NAMES)
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
    return [
        (f"render+encode p50 / p99 ({len(views)} game states x 3)",
         f"{pct(times, 0.5) * 1e3:.1f} / {pct(times, 0.99) * 1e3:.1f} ms", "≤ 15 ms"),
        ("render PNG size max / p50", f"{max(sizes) / KIB:.1f} / {pct(sizes, 0.5) / KIB:.1f} KiB", "≤ 25 KiB"),
    ]  # fmt: skip


RULE_SETS = (("default rules", {}), ("V1 (Mastodons need 10)", {"v1": True}),
             ("V2 (Mastodon player picks ties)", {"v2": True}),
             (f"V5 ({OFFERED[1]}, not in the rulebook)", {"variant": OFFERED[1]}))  # fmt: skip


def balance_rows(games: int = BALANCE_GAMES, workers: int | None = 1, level: str = "hard") -> list[Row]:
    """``level`` against itself under each rule set: how often each side wins (the seed's open
    question), with 95% intervals. Each game opens with the ladder's seeded random turns
    (``engine.registry``'s ``openings``), the rest is the computer on both sides; the games run in
    ``workers`` processes."""
    rows = []
    for r, (name, options) in enumerate(RULE_SETS):
        jobs = [ladder.Game("uonga", (level, level), 3000 + 10_000 * r + g, {"side": "cavemen", **options},
                            ladder.spec_of("uonga").openings) for g in range(games)]  # fmt: skip
        tally: Counter = Counter()
        for res in ladder.run_games(jobs, workers, progress=False):
            tally["draw" if len(res.winners) == 2 else "C" if res.winners == (0,) else "M"] += 1
        cells = []
        for side, key in (("Cavemen", "C"), ("Mastodons", "M"), ("draws", "draw")):
            low, high = ladder.wilson(tally[key], games)
            cells.append(f"{side} {tally[key] / games:.0%} ({low:.0%}-{high:.0%})")
        share = (tally["C"] + tally["draw"] / 2) / games
        low, high = ladder.wilson(tally["C"] + tally["draw"] / 2, games)
        cells.append(f"Cavemen share {share:.1%} ({low:.1%}-{high:.1%})")
        rows.append((f"balance {level} vs {level}, {name}, {games} games", " / ".join(cells), "-"))
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    return rows


def _tally(results: Sequence[ladder.Result]) -> Counter:
    """Each game's result for the side seat 0 played: ("C" | "M", "win" | "draw" | "loss")."""
    tally: Counter = Counter()
    for res in results:
        side = "C" if res.game.options["side"] == "cavemen" else "M"
        tally[side, "draw" if len(res.winners) == 2 else "win" if res.winners == (0,) else "loss"] += 1
    return tally


def versus_rows(
    games: int, workers: int | None = 1, first: str = "hard", second: str = "hard_v1"
) -> list[Row]:
    """``first`` against ``second`` (by default the hard level against the one before issue 37), from
    the ladder's seeded openings: ``games`` games with ``first`` as the Cavemen and as many as the
    Mastodons, the same seeds both ways. Draws are listed apart (the Mastodons' aim when behind)."""
    jobs = [ladder.Game("uonga", (first, second), 5000 + g, {"side": side}, ladder.spec_of("uonga").openings)
            for side in ("cavemen", "mastodons") for g in range(games)]  # fmt: skip
    results = ladder.run_games(jobs, workers)
    tally = _tally(results)
    think = [t for r in results for t in r.think.get(first, [])]
    rows = []
    for side, name in (("C", "Cavemen"), ("M", "Mastodons")):
        w, d, lo = (tally[side, k] for k in ("win", "draw", "loss"))
        low, high = ladder.wilson(w + d / 2, games)
        rows.append((f"{first} vs {second}, {first} as the {name}, {games} games",
                     f"{w} won, {d} drawn, {lo} lost: score {(w + d / 2) / games:.0%} ({low:.0%}-{high:.0%})", "-"))  # fmt: skip
    rows.append((f"{first} decision time p50 / p99 / max ({len(think)} decisions)",
                 f"{pct(think, 0.5):.3f} / {pct(think, 0.99):.3f} / {max(think, default=0):.3f} s", "p99 ≤ 1 s"))  # fmt: skip
    return rows


def variant_rows(
    games: int, workers: int | None = 1, level: str = "hard_batch", names: Sequence[str] = ()
) -> list[Row]:
    """Self-play of ``level`` under each rule variant (``engine.games.uonga_variants``; none of them is
    in the rulebook but "rulebook"): who wins, and the Cavemen's share (a draw counts a half) with its
    95% Wilson interval. The issue's aim for a fair variant: a share inside 45-55%."""
    rows = []
    for name in names or VARIANTS:  # the same seeded openings for every variant: paired comparisons
        jobs = [ladder.Game("uonga", (level, level), 7000 + g, {"side": "cavemen", "variant": name},
                            ladder.spec_of("uonga").openings) for g in range(games)]  # fmt: skip
        tally = _tally(ladder.run_games(jobs, workers, progress=False))
        c, d, m = tally["C", "win"], tally["C", "draw"], tally["C", "loss"]
        low, high = ladder.wilson(c + d / 2, games)
        rows.append((f"{name}: {level} self-play, {games} games",
                     f"Cavemen {c}, Mastodons {m}, draws {d}: Cavemen share {(c + d / 2) / games:.1%} "
                     f"({low:.1%}-{high:.1%})", "45-55%"))  # fmt: skip
        print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    return rows


def run() -> list[Row]:
    rows, views = strength_rows()
    return rows + render_rows(views) + balance_rows()


if __name__ == "__main__":
    t0 = time.perf_counter()
    if sys.argv[1:2] == ["--balance"]:  # python -m bench.uonga --balance GAMES [WORKERS] [LEVEL]
        games, workers = (int(a) for a in [*sys.argv[2:4], "200", "0"][:2])
        result = balance_rows(games, workers or None, *sys.argv[4:5])
    elif sys.argv[1:2] == ["--versus"]:  # python -m bench.uonga --versus GAMES [WORKERS] [FIRST SECOND]
        games, workers = (int(a) for a in [*sys.argv[2:4], "40", "0"][:2])
        result = versus_rows(games, workers or None, *sys.argv[4:6])
    elif sys.argv[1:2] == [
        "--variants"
    ]:  # python -m bench.uonga --variants GAMES [WORKERS] [LEVEL] [NAME ...]
        games, workers = (int(a) for a in [*sys.argv[2:4], "200", "0"][:2])
        result = variant_rows(games, workers or None, *sys.argv[4:5], names=sys.argv[5:])
    else:
        result = run()
    print(text_table(result))
    print(f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
