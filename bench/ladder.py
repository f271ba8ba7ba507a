"""A ladder per game: every computer level and a uniformly random player in a seeded round robin.

``python -m bench.ladder [GAME ...] [--games N] [--workers N]`` (also ``./run bench --ladder``) prints,
per game, each entrant's openskill rating and the head-to-head win shares with 95% intervals.

How a game is played: only through the public ``Rules`` and ``Computer`` interfaces, on a simulated
clock, so the real-time games (Ubongo) are raced as on Discord. A seat acts when its thinking time
(``Computer.think_seconds``; ``RANDOM_THINK`` for the random player) has passed since it last had
to act, and a rules timer with an action (a countdown, a round limit) fires at its due time. Turn
limits without an action never fire: a computer always answers.

How a pairing is scored: two-player games are one against one; a game for more seats is one of the
higher entrant against two of the lower (the issue's "against two of the lower level"), so the
fair share of an equal entrant is 1/3, not 1/2. Seats rotate game by game and, where a game has
sides (Uonga), so do the sides. A shared first place counts as a share of a win (a draw is 1/2).

Games run in a process pool (one worker per core by default); every game is seeded from its index,
so a run is reproducible whatever the number of workers.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from openskill.models import PlackettLuce

from bench.table import load_average
from engine.core import SYSTEM, Computer, Rules
from engine.registry import SPECS, EngineSpec

RANDOM = "random"
RANDOM_THINK = 1.0  # seconds a random player takes per action (it never gets faster or slower)
MAX_STEPS = 200_000  # a game that is still running after this many actions is a bug in the rules
STRENGTH = {RANDOM: 0, "easy": 1, "medium": 2, "normal": 2, "hard": 3}  # the ladder's order


def players(rules: Rules[Any]) -> int:
    """Seats in a head-to-head game: two where the game allows it, else its minimum."""
    return max(2, rules.min_players) if rules.max_players < 3 else 3


def spec_of(game: str) -> EngineSpec:
    """A registered game's engine part (its sides and openings too: ``engine.registry``)."""
    if game == "toy":  # the test suite's tiny game (tests/test_ladder.py)
        from toy.rules import ENGINE

        return ENGINE
    return SPECS[game]


def resolve(game: str) -> tuple[Rules[Any], Computer[Any]]:
    spec = spec_of(game)
    return spec.rules, spec.computer


def entrants(game: str) -> list[str]:
    """The random player and every computer level, weakest first."""
    _, computer = resolve(game)
    return [RANDOM, *sorted(computer.levels, key=lambda lv: STRENGTH.get(lv, 2))]


# ---- one game on a simulated clock --------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    game: str
    seats: tuple[str, ...]  # the entrant playing each seat
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    opening: int = 0  # this many first actions are random, whoever plays (variety between games)


@dataclass(frozen=True)
class Result:
    game: Game
    scores: tuple[float, ...]
    winners: tuple[int, ...]
    actions: int
    seconds: float  # simulated time the game took
    think: dict[str, list[float]]  # entrant -> wall-clock seconds of each decision (computers only)


def play(g: Game) -> Result:
    """Play one game to its end (see the module's docstring for the clock)."""
    rules, computer = resolve(g.game)
    s = rules.setup(len(g.seats), g.seed, dict(g.options))
    rng = random.Random(g.seed * 7919 + 17)
    now, steps, acted = 0.0, 0, 0
    ready: dict[int, float] = {}  # seat -> when it acts (set when it has to act)
    due: dict[str, float] = {}  # timer key -> when it fires (kept while the state declares it)
    think: dict[str, list[float]] = {}
    turn_limit = float(g.options.get("turn_seconds") or math.inf)
    while (out := rules.outcome(s)) is None:
        steps += 1
        if steps > MAX_STEPS:
            raise RuntimeError(f"{g}: no end after {MAX_STEPS} actions")
        movers = rules.to_move(s)
        for seat in list(ready):
            if seat not in movers:
                del ready[seat]
        for seat in sorted(movers - ready.keys()):
            who = g.seats[seat]
            ready[seat] = now + (RANDOM_THINK if who == RANDOM else computer.think_seconds(s, seat, who))
        timers = {t.key: t for t in rules.timers(s) if t.action is not None}
        due = {k: v for k, v in due.items() if k in timers}
        for key, t in timers.items():
            due.setdefault(key, now + (turn_limit if t.seconds is None else t.seconds))
        # the earliest event; a seat acting at the same instant as a timer beats it (it clicked first)
        events = [(at, 0, seat, "") for seat, at in ready.items()] + [(at, 1, 0, k) for k, at in due.items()]
        if not events:
            raise RuntimeError(f"{g}: nobody to move and no timer")
        now, kind, seat, key = min(events)
        if kind == 1:
            s, _ = rules.apply(s, SYSTEM, timers[key].action or "")
            del due[key]
            continue
        who = g.seats[seat]
        acted += 1
        if who == RANDOM or acted <= g.opening:
            action = rng.choice(rules.legal_actions(s, seat))
        else:
            t0 = time.perf_counter()
            action = computer.choose(s, seat, who)
            think.setdefault(who, []).append(time.perf_counter() - t0)
        s, _ = rules.apply(s, seat, action)
        del ready[seat]
        for key, t in timers.items():  # a per-decision limit restarts when its seat acts
            if t.per_move and t.seat == seat:
                due.pop(key, None)
    return Result(g, tuple(out.scores), tuple(out.winners), steps, now, think)


# ---- the round robin --------------------------------------------------------------------------------


def pairings(game: str, games: int, seed: int = 0) -> list[Game]:
    """Every pair of entrants (higher, lower) gets the same number of games, together at least
    ``games``; seats (and sides) rotate from game to game."""
    rules, _ = resolve(game)
    n, field_ = players(rules), entrants(game)
    pairs = [(hi, lo) for lo, hi in itertools.combinations(field_, 2)]
    sides = spec_of(game).sides
    unit = n * len(sides)  # a whole number of rotations: every seat and side equally often
    per_pair = math.ceil(games / len(pairs) / unit) * unit
    out = []
    for p, (hi, lo) in enumerate(pairs):
        for i in range(per_pair):
            seat = i % n
            seats = tuple(hi if k == seat else lo for k in range(n))
            side = sides[(i // n) % len(sides)]
            out.append(Game(game, seats, seed + p * 100_003 + i, dict(side), spec_of(game).openings))
    return out


def run_games(jobs: Sequence[Game], workers: int | None = None, progress: bool = True) -> list[Result]:
    """Every game, in a process pool (``workers=1`` plays them here); results in the jobs' order."""
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        return [play(g) for g in jobs]
    results = []
    with ProcessPoolExecutor(workers) as pool:
        for k, r in enumerate(pool.map(play, jobs, chunksize=1), 1):
            results.append(r)
            if progress and (k % 25 == 0 or k == len(jobs)):
                print(f"  {jobs[0].game}: {k}/{len(jobs)} games", file=sys.stderr, flush=True)
    return results


def share(r: Result, who: str) -> float:
    """``who``'s share of the win: 1 alone on top, 1/k of a k-way first place, else 0."""
    seats = [k for k, e in enumerate(r.game.seats) if e == who]
    return sum(1 for k in seats if k in r.winners) / len(r.winners) if r.winners else 0.0


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); fractional wins (draws) allowed."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class HeadToHead:
    hi: str
    lo: str
    games: int = 0
    wins: float = 0.0  # the higher entrant's share of wins

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)


def head_to_head(results: Iterable[Result]) -> dict[tuple[str, str], HeadToHead]:
    table: dict[tuple[str, str], HeadToHead] = {}
    for r in results:
        hi, lo = _pair(r.game.seats)
        h = table.setdefault((hi, lo), HeadToHead(hi, lo))
        h.games += 1
        h.wins += share(r, hi)
    return table


def _pair(seats: tuple[str, ...]) -> tuple[str, str]:
    """(the entrant seated once, the other): in a two-seat game, the stronger one first."""
    kinds = sorted(set(seats), key=lambda e: (seats.count(e), -STRENGTH.get(e, 2)))
    return (kinds[0], kinds[-1]) if len(kinds) == 2 else (kinds[0], kinds[0])


def ratings(results: Iterable[Result]) -> dict[str, tuple[float, float]]:
    """Each entrant's openskill (Plackett-Luce) rating as (mu, sigma), updated game by game in the
    jobs' order. Every seat is a team of one; an entrant on two seats gets the mean of both updates."""
    model = PlackettLuce()
    rated: dict[str, Any] = {}
    for r in results:
        seats = r.game.seats
        teams = [[rated.setdefault(e, model.rating(name=e))] for e in seats]
        top = max(r.scores)
        ranks = [0 if k in r.winners else 1 + (top - r.scores[k]) for k in range(len(seats))]
        new = model.rate(teams, ranks=ranks)
        for e in set(seats):
            mine = [new[k][0] for k, x in enumerate(seats) if x == e]
            rated[e] = model.rating(
                mu=sum(m.mu for m in mine) / len(mine), sigma=sum(m.sigma for m in mine) / len(mine), name=e
            )
    return {e: (x.mu, x.sigma) for e, x in rated.items()}


def pct(samples: Sequence[float], q: float) -> float:
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)] if s else float("nan")


def report(game: str, results: Sequence[Result]) -> str:
    """The game's ladder as a Markdown table: ratings, then each pairing's win share."""
    n = len(results[0].game.seats) if results else 2
    fair = 1 / n if n > 2 else 0.5
    lines = [f"**{game}**: {len(results)} games, {n} seats"
             + (" (one of the first entrant against two of the second)" if n > 2 else ""), "",
             "| entrant | rating (mu ± sigma) | ordinal | decision p50 / p99 |", "|---|---|---|---|"]  # fmt: skip
    think: dict[str, list[float]] = {}
    for r in results:
        for who, ts in r.think.items():
            think.setdefault(who, []).extend(ts)
    rated = ratings(results)
    for e in sorted(rated, key=lambda e: -(rated[e][0] - 3 * rated[e][1])):
        mu, sigma = rated[e]
        ts = think.get(e, [])
        timing = f"{pct(ts, 0.5) * 1e3:.1f} / {pct(ts, 0.99) * 1e3:.1f} ms" if ts else "-"
        lines.append(f"| {e} | {mu:.1f} ± {sigma:.1f} | {mu - 3 * sigma:.1f} | {timing} |")
    lines += [
        "",
        "| pairing | games | win share of the first | 95% interval | fair share |",
        "|---|---|---|---|---|",
    ]
    for (hi, lo), h in sorted(head_to_head(results).items(), key=lambda kv: (STRENGTH.get(kv[0][0], 2),
                                                                            STRENGTH.get(kv[0][1], 2))):  # fmt: skip
        low, high = h.interval
        against = f"{hi} vs {'two ' if n > 2 else ''}{lo}"
        lines.append(f"| {against} | {h.games} | {h.rate:.0%} | {low:.0%}-{high:.0%} | {fair:.0%} |")
    return "\n".join(lines)


def ladder(game: str, games: int, workers: int | None = None, seed: int = 0) -> str:
    t0 = time.perf_counter()
    results = run_games(pairings(game, games, seed), workers)
    took = time.perf_counter() - t0
    return (
        f"{report(game, results)}\n\n({took:.0f} s with {workers or os.cpu_count()} workers, "
        f"load {load_average()})"
    )


def main(argv: Sequence[str] | None = None, out: Callable[[str], None] = print) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.ladder", description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(SPECS))
    parser.add_argument("--games", dest="count", type=int, default=300, help="games per ladder (≥ 300)")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    args = parser.parse_args(argv)
    for game in args.games:
        out(ladder(game, args.count, args.workers))
        out("")


if __name__ == "__main__":
    main()
