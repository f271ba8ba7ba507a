"""tools.solve_times: people's Ubongo solve times from a game's log and commit times."""

from __future__ import annotations

import asyncio
import shutil
import statistics
from pathlib import Path

from engine import replay
from engine.core import SYSTEM
from engine.games.ubongo import RULES
from engine.games.ubongo_ai import COMPUTER, LEVELS, MEASURED_SOLVES
from engine.store import LoggedAction
from tools.solve_times import Timed, collect, computer_times, table, timed_tasks


def _game() -> tuple[list[LoggedAction], list[float]]:
    """Two people race. Round 1: seat 0 solves in 12 s, seat 1 never (the countdown ends the round
    at 40 s). Round 2: seat 1 solves 25 s after it began; seat 0's solve is the computer's, playing
    for them while they were away, and is not a person's time. The log ends as round 3 is dealt."""
    s = RULES.setup(2, 9, {"side": "A"})
    log: list[LoggedAction] = []
    times: list[float] = []

    def act(seat: int, action: str, source: str, at: float) -> None:
        nonlocal s
        s, _ = RULES.apply(s, seat, action)
        log.append(LoggedAction(len(log) + 2, seat, action, source))
        times.append(at)

    def solve(seat: int, source: str, at: float) -> None:
        start = s.round
        while s.round == start and seat in RULES.to_move(s):
            act(seat, COMPUTER.choose(s, seat, "hard"), source, at)

    solve(0, "player", 12.0)
    (timer,) = RULES.timers(s)
    act(SYSTEM, timer.action, "timer", 40.0)
    assert s.round == 2
    solve(1, "player", 65.0)
    solve(0, "computer", 70.0)
    return log, times


def test_a_persons_task_is_timed_from_its_deal_to_their_solving_placement() -> None:
    log, times = _game()
    steps = replay.rebuild(RULES, 2, 9, {"side": "A"}, log)
    tasks = timed_tasks(steps, times, started=0.0, people={0, 1})
    open_at_the_end = [Timed("A", None), Timed("A", None)]
    assert tasks == [Timed("A", 12.0), Timed("A", None), Timed("A", 25.0), *open_at_the_end]
    shown = table(tasks)
    assert "| A | 5 | 2 | 15 / 18 / 22 s | " in shown, shown
    assert "| B | 0 | 0 | - | " in shown, shown


def test_hard_solves_at_the_measured_pace_and_each_level_below_is_slower() -> None:
    """The computer's time from deal to last placement, over seeded deals: hard's quartiles are
    within 2 s of the person measured in the playground; medium's and easy's medians come after."""
    for side, measured in MEASURED_SOLVES.items():
        medians = {}
        for level in LEVELS:
            q = statistics.quantiles(computer_times(level, side), n=4, method="inclusive")
            medians[level] = q[1]
            if level == "hard":
                assert all(abs(a - b) <= 2.0 for a, b in zip(q, measured, strict=True)), (side, q)
        assert medians["easy"] > medians["medium"] > 2 * medians["hard"], (side, medians)


def test_only_the_seats_of_people_are_timed() -> None:
    log, times = _game()
    steps = replay.rebuild(RULES, 2, 9, {"side": "A"}, log)
    assert timed_tasks(steps, times, started=0.0, people={1}) == [
        Timed("A", None),
        Timed("A", 25.0),
        Timed("A", None),
    ]


def test_a_task_still_open_when_the_log_ends_counts_as_not_solved() -> None:
    """A game ended by its host (no action in the log says so) leaves the open tasks unsolved."""
    log, times = _game()
    steps = replay.rebuild(RULES, 2, 9, {"side": "A"}, log[:3])
    assert timed_tasks(steps, times[:3], started=0.0, people={0, 1}) == [Timed("A", 12.0), Timed("A", None)]


def test_the_measured_pace_is_the_playground_database_kept_in_docs(tmp_path) -> None:
    """MEASURED_SOLVES are the quartiles of the solves in docs/data/playground_solves.db (a copy is
    read: opening a store may migrate its file)."""
    db = tmp_path / "solves.db"
    shutil.copy(Path(__file__).parent.parent / "docs" / "data" / "playground_solves.db", db)
    tasks = asyncio.run(collect(str(db)))
    for side, measured in MEASURED_SOLVES.items():
        solved = [t.seconds for t in tasks if t.side == side and t.seconds is not None]
        q = statistics.quantiles(solved, n=4, method="inclusive")
        assert [round(x) for x in q] == [round(x) for x in measured], (side, q)
