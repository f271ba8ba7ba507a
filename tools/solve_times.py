"""People's Ubongo solve times, read from the bot's database, beside the computer levels' stated ones.

``python -m tools.solve_times [--db FILE]`` (or ``./run solve-times``): every Ubongo game that is over
is replayed from its log, and each person's task is timed from when it was dealt (the game's start,
or the commit that began the round or the solo task) to the commit of their solving placement. A
task a person did not solve before its round ended (or set aside, or the game ended) is counted
apart: those are the slow tail a median of solves alone would hide. Only people's own placements
count (not the computer's moves for a player who was away). The database is the bot's
(``DATABASE_URL``, else ``DATABASE_PATH`` or ``data/stoneage.db``), or ``--db``: the playground's
file, say, after a few rounds there.

The computer's times are uniform per level and side (``engine.games.ubongo_ai.SOLVE_SECONDS``, a
quarter longer for a task with few solving sets, then a short step per further piece); beside
people's quartiles the table gives each level's, timed the same way (deal to last placement) over
seeded deals.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from bot.settings import database_url, resolve_database_path
from engine import replay
from engine.games.ubongo import need
from engine.games.ubongo_ai import COMPUTER, LEVELS, STEP_SECONDS
from engine.registry import rules_for
from engine.store import MatchRow
from engine.store.open import open_store

GAME = "ubongo"
STARTS = ("round_started", "task_started")  # a new task dealt (setup deals the first one)
ENDS = ("round_over", "skipped", "game_over")  # whoever has not solved by then did not


@dataclass(frozen=True)
class Timed:
    side: str  # the task's side, A (3 pieces) or B (4)
    seconds: float | None  # None: not solved in its round


def timed_tasks(
    steps: Sequence[replay.Step], times: Sequence[float], started: float, people: set[int]
) -> list[Timed]:
    """Every task dealt to a seat in ``people``, with its solve time (``times``: when each logged
    action was committed, ``started``: when the game began)."""
    out: list[Timed] = []
    since, sides = started, list(steps[0].state.sides)
    waiting = set(people)
    for step, at in zip(steps[1:], times, strict=True):
        assert step.action is not None
        for e in step.events:
            if e.kind == "solved" and e.data.get("seat") in waiting:
                seat = e.data["seat"]
                waiting.discard(seat)
                own = step.action.source == "player" and step.action.seat == seat
                if own:
                    out.append(Timed(sides[seat], at - since))
            elif e.kind in ENDS:
                out += [Timed(sides[seat], None) for seat in sorted(waiting)]
                waiting = set()
            elif e.kind in STARTS:
                since, sides, waiting = at, list(step.state.sides), set(people)
    return out + [Timed(sides[seat], None) for seat in sorted(waiting)]  # ended by a person, not the rules


def _people(m: MatchRow) -> set[int]:
    return {i for i, s in enumerate(m.seats) if not s.ai and s.user_id is not None}


async def collect(target: str) -> list[Timed]:
    store = open_store(target, exclusive=False)
    await store.open()
    try:
        rules, out = rules_for(GAME), []
        for m in await store.finished_of(GAME):
            people = _people(m)
            if m.meta.started_at is None or not people:
                continue
            actions = await store.actions(m.id)
            steps = replay.rebuild(rules, len(m.seats), m.seed, m.options, actions)
            out += timed_tasks(steps, await store.action_times(m.id), m.meta.started_at, people)
        return out
    finally:
        await store.close()


def computer_times(level: str, side: str, deals: int = 400) -> list[float]:
    """The level's time from a deal to its last placement, for the first task of seeded lone games:
    what a person's solve time is compared with."""
    rules = rules_for(GAME)
    out = []
    for seed in range(deals):
        s = rules.setup(1, seed, {"side": side})
        out.append(COMPUTER.think_seconds(s, 0, level) + STEP_SECONDS * (need(s, 0) - 1))
    return out


def _quartiles(seconds: Sequence[float]) -> str:
    if len(seconds) < 2:
        return f"{seconds[0]:.0f} s" if seconds else "-"
    q = statistics.quantiles(seconds, n=4, method="inclusive")
    return f"{q[0]:.0f} / {q[1]:.0f} / {q[2]:.0f} s"


def table(tasks: Sequence[Timed]) -> str:
    """Per side: people's tasks, solves and solve-time quartiles, then each level's quartiles."""
    lines = [
        "| side | tasks | solved | people p25 / p50 / p75 | " + " | ".join(LEVELS) + " |",
        "|---|---|---|---|" + "---|" * len(LEVELS),
    ]
    for side in ("A", "B"):
        mine = [t for t in tasks if t.side == side]
        solved = sorted(t.seconds for t in mine if t.seconds is not None)
        computer = " | ".join(_quartiles(computer_times(level, side)) for level in LEVELS)
        lines.append(f"| {side} | {len(mine)} | {len(solved)} | {_quartiles(solved)} | {computer} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.solve_times", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--db", help="an SQLite file or a postgresql:// URL (default: the bot's database)")
    args = parser.parse_args(argv)
    target = args.db or database_url() or resolve_database_path(move=False)
    if not target.startswith(("postgresql://", "postgres://")) and not os.path.exists(target):
        print(f"no database at {target}", file=sys.stderr)
        return 1
    tasks = asyncio.run(collect(target))
    print(f"{len(tasks)} tasks dealt to people in finished Ubongo games")
    print(table(tasks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
