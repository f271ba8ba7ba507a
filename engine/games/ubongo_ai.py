"""Ubongo computer players: the exact-cover solver finds a solution, the level sets the solve time.

A computer "thinks" for its solve time before its first placement (``think_seconds``), then lays the
remaining pieces of the same solution in quick succession (``STEP_SECONDS`` apart), so a person can
race it: the levels differ only in speed, never in whether a task gets solved. Every draw comes from
a coin seeded by what the seat knows (the round, its card, the seat, the public table), so a replayed
match makes the same decisions at the same delays, and nothing the seat cannot see sways them. The
object is stateless (module-level caches only), so it pickles into a worker process.
"""

from __future__ import annotations

from functools import lru_cache

from engine.core import Seat
from engine.errors import MatchOver, NotYourTurn
from engine.games.ubongo import RULES, UbongoState, allowed, covered, need, place_code, task_cells
from engine.games.ubongo_solver import Cells, Placement, cover, solve, solving_sets
from engine.rng import Rng, coin

LEVELS = ("easy", "medium", "hard")
# Seconds to the first placement, per level and side: drawn uniformly in [low, high]. "hard" is a
# measured person's pace: 36 solves in the playground (2026-12-02) took 10 / 13 / 17 s (side A) and
# 14 / 19 / 22 s (side B) at p25 / p50 / p75, and hard's time to its last placement has about those
# quartiles (`./run solve-times` prints both). "medium" and "easy" take about 3x and 5x as long
# (their medians past the 20/30 s countdown that such a person starts), for people still learning the
# pieces; no slower person's solves have been timed yet.
MEASURED_SOLVES = {"A": (10.0, 13.0, 17.0), "B": (14.0, 19.0, 22.0)}  # that person's p25 / p50 / p75
SOLVE_SECONDS: dict[str, dict[str, tuple[float, float]]] = {
    "easy": {"A": (45.0, 110.0), "B": (80.0, 200.0)},
    "medium": {"A": (20.0, 55.0), "B": (35.0, 95.0)},
    "hard": {"A": (6.0, 18.0), "B": (11.0, 26.0)},
}
FEW_SETS = 4  # a task with at most this many solving sets takes a quarter longer
STEP_SECONDS = 0.4  # between the placements of a solution already found


@lru_cache(maxsize=512)
def _sets(cells: Cells, k: int, pieces: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(solving_sets(cells, k, pieces))


def _rng(s: UbongoState, seat: Seat, level: str, salt: int) -> Rng:
    """A coin fixed by what the seat knows: the round, its own card, the seat, the level and the
    public table (starter, cards won); never the match's Rng, which orders the cards still to come."""
    return coin(s.round, s.cards[seat], seat, level, s.starter, tuple(map(len, s.won)), salt)


def _plan(s: UbongoState, seat: Seat, level: str) -> list[Placement]:
    """The solution this computer aims for: one of the task's solving sets, picked at random."""
    cells, k = task_cells(s, seat), need(s, seat)
    sets = _sets(cells, k, allowed(s, seat))
    found = cover(cells, _rng(s, seat, level, 1).choice(sets)) if sets else None
    return found or []


def next_placement(s: UbongoState, seat: Seat, level: str) -> str:
    """The next piece of a solution that extends what lies in the workspace, or ``clear`` if none does
    (the computer only lays its own solutions, so that happens only after a hand-made state)."""
    placed = s.placed[seat]
    plan = _plan(s, seat, level)
    on_plan = {p: [o, x, y] for p, o, x, y in plan}
    if all(on_plan.get(p) == spot for p, spot in placed.items()):
        todo = [p for p in plan if p[0] not in placed]
    else:  # a workspace it did not lay itself: extend it if any solution does
        free = frozenset(task_cells(s, seat) - covered(s, seat))
        rest = [p for p in allowed(s, seat) if p not in placed]
        missing = need(s, seat) - len(placed)
        todo = (solve(free, missing, rest) or []) if free and missing > 0 else []
    return place_code(*todo[0]) if todo else "clear"


class UbongoComputer:
    """Levels are solve speeds (``LEVELS``); every level solves with the exact-cover solver."""

    levels = LEVELS

    def choose(self, s: UbongoState, seat: Seat, level: str = LEVELS[0]) -> str:
        if s.phase == "over":
            raise MatchOver()
        if seat not in RULES.to_move(s):
            raise NotYourTurn(seat=seat)
        return next_placement(s, seat, level if level in LEVELS else LEVELS[0])

    def think_seconds(self, s: UbongoState, seat: Seat, level: str) -> float:
        """The solve time before the first placement of the seat's current task, then STEP_SECONDS."""
        if s.phase == "over" or seat not in RULES.to_move(s):
            return 0.0
        if s.placed[seat]:
            return STEP_SECONDS
        level = level if level in LEVELS else LEVELS[0]
        low, high = SOLVE_SECONDS[level][s.sides[seat]]
        draw = _rng(s, seat, level, 2).below(1_000_001) / 1_000_000
        seconds = low + (high - low) * draw
        if len(_sets(task_cells(s, seat), need(s, seat), allowed(s, seat))) <= FEW_SETS:
            seconds *= 1.25
        return round(seconds, 3)


COMPUTER = UbongoComputer()
