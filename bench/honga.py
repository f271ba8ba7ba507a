"""Honga benchmarks: ``python -m bench.honga`` prints (metric | result | aim), about a minute.

Computer strength is measured on seeded 3-player games (seat rotated): the strongest level against
two random players and against two of the next level. Times come from the same games: one decision
and one whole computer turn (place, every use, end). Render figures use public views of seeded
random games. Samples are small to keep the run short, so win rates move by ±10 points between
seeds; the aims are the issue's.
"""

from __future__ import annotations

import random
import time

from bench import pct
from engine.games.honga import RULES, HongaState
from engine.games.honga_ai import COMPUTER
from engine.rng import Rng
from render.honga import render_honga

NAMES = ["Ada", "Borg the Bold", "Chen", "Dana", "Ewa"]
KIB = 1024


def _game(seed: int, players: list[str], decisions: list[float], turns: list[float]) -> list[int]:
    """One game; records the strongest level's decision and turn times. Returns the winners."""
    s = RULES.setup(len(players), seed, {})
    rng = Rng(seed ^ 0x5EED)
    turn_seat = s.current
    spent = 0.0
    while s.phase != "over":
        seat = s.current
        if seat != turn_seat:
            turn_seat, spent = seat, 0.0
        level = players[seat]
        t0 = time.perf_counter()
        act = (
            rng.choice(RULES.legal_actions(s, seat)) if level == "random" else COMPUTER.choose(s, seat, level)
        )
        took = time.perf_counter() - t0
        if level == COMPUTER.levels[0]:
            decisions.append(took)
            spent += took
            if act == "end" or act.startswith("keep."):
                turns.append(spent)
        s, _ = RULES.apply(s, seat, act)
    out = RULES.outcome(s)
    assert out is not None
    return out.winners


def win_rates(games: int) -> tuple[list[tuple[str, str, str]], list[float], list[float]]:
    best, next_level = COMPUTER.levels[0], COMPUTER.levels[1]
    decisions: list[float] = []
    turns: list[float] = []
    rows = []
    for opponent, aim in (("random", 0.70), (next_level, 0.55)):
        wins = 0
        for g in range(games):
            me = g % 3
            players = [best if x == me else opponent for x in range(3)]
            wins += _game(1000 + g, players, decisions, turns) == [me]
        rate = wins / games
        rows.append((f"{best} vs 2x {opponent}, 3 players ({games} games)", f"{rate:.0%}", f"≥ {aim:.0%}"))
    return rows, decisions, turns


def playouts(seconds: float = 3.0) -> tuple[str, str, str]:
    rng = random.Random(0)
    t0, games, moves = time.perf_counter(), 0, 0
    while time.perf_counter() - t0 < seconds:
        s = RULES.setup(rng.randint(2, 5), rng.getrandbits(32), {})
        while s.phase != "over":
            s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
            moves += 1
        games += 1
    took = time.perf_counter() - t0
    return ("random playouts/s (moves/s)", f"{games / took:.1f} ({moves / took:.0f})", "-")


def _views(count: int) -> list[dict]:
    rng, out = random.Random(3), []
    for k in range(count):
        s: HongaState = RULES.setup(2 + k % 4, k, {})
        for _ in range(rng.randint(0, 900)):
            if s.phase == "over":
                break
            s, _ = RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))
        out.append(RULES.view(s, None))
    return out


def render_rows(count: int = 16, rounds: int = 5) -> list[tuple[str, str, str]]:
    views = _views(count)
    render_honga(views[0], NAMES)  # builds the cached assets once per process
    times, sizes = [], []
    for _ in range(rounds):
        for view in views:
            t0 = time.perf_counter()
            png = render_honga(view, NAMES[: view["n"]])
            times.append(time.perf_counter() - t0)
            sizes.append(len(png))
    return [
        (f"render+encode p50 ({count} states x {rounds})", f"{pct(times, 0.5) * 1e3:.1f} ms", "≤ 15 ms"),
        ("render+encode p99", f"{pct(times, 0.99) * 1e3:.1f} ms", "≤ 30 ms"),
        ("render PNG size max", f"{max(sizes) / KIB:.1f} KiB", "≤ 25 KiB"),
    ]


def run(games: int = 18) -> list[tuple[str, str, str]]:
    rows, decisions, turns = win_rates(games)
    ai = [
        ("AI decision p50 / max", f"{pct(decisions, 0.5) * 1e3:.1f} / {max(decisions) * 1e3:.0f} ms", "-"),
        ("AI full turn p50 / max", f"{pct(turns, 0.5) * 1e3:.0f} / {max(turns) * 1e3:.0f} ms", "p50 ≤ 1 s"),
    ]
    return ai + rows + [playouts()] + render_rows()


if __name__ == "__main__":
    t0 = time.perf_counter()
    table = [("metric", "result", "aim"), *run()]
    widths = [max(len(r[i]) for r in table) for i in range(3)]
    for row in table:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    print(f"({time.perf_counter() - t0:.0f} s)")
