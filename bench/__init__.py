"""Benchmarks for the bot: ``python -m bench [--quick]`` prints one table (metric | value | aim | ok?).

These machines are noisy (a median can move ±35% between runs), so trust the ratios measured in one run
(move vs no-op click, render in a thread vs on the loop) more than the absolute figures. Everything is
seeded and timed with ``time.perf_counter``; percentiles are nearest-rank on the sorted samples.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.games.ugah import RULES, UgahState

NAMES = ["alice", "bob", "carol", "dave"]


@dataclass
class Row:
    metric: str
    value: str
    aim: str = "-"
    ok: bool | None = None  # None: no aim, reported for information


def pct(samples: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of the sorted samples."""
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def random_move(s: UgahState, rng: random.Random) -> UgahState:
    return RULES.apply(s, s.current, rng.choice(RULES.legal_actions(s, s.current)))[0]


def midgame_states(count: int, seed: int = 0) -> list[UgahState]:
    """Seeded states 5-60 random moves into 2-4 player games of both variants (never finished)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        s = RULES.setup(
            rng.randint(2, 4), rng.getrandbits(32), {"variant": rng.choice(["basic", "uncertain"])}
        )
        for _ in range(rng.randint(5, 60)):
            t = random_move(s, rng)
            if t.phase == "over":
                break
            s = t
        out.append(s)
    return out


def names_for(view: dict[str, Any]) -> list[str]:
    return NAMES[: view["n"]]
