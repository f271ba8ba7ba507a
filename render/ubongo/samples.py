"""Sample Ubongo images (``./run samples`` writes them to docs/images/) from real engine states: a fresh task, a workspace in progress (with
a cursor), the table during a countdown with the previous round's solutions, and a final result.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.core import SYSTEM
from engine.games.ubongo import RULES, UbongoState, allowed, need, place_code, task_cells
from engine.games.ubongo_solver import solve
from render.samples import DOCS_IMAGES, write
from render.ubongo.table import render_table
from render.ubongo.workspace import render_task

NAMES = ["Ayla", "Bruno", "Chidi", "Dagny"]


def _solution(s: UbongoState, seat: int) -> list[str]:
    found = solve(task_cells(s, seat), need(s, seat), allowed(s, seat)) or []
    return [place_code(*p) for p in found]


def _play(s: UbongoState, seat: int, codes: list[str]) -> UbongoState:
    for code in codes:
        s, _ = RULES.apply(s, seat, code)
    return s


def task_state() -> UbongoState:
    return RULES.setup(3, 7, {})


def solving_state() -> tuple[UbongoState, dict[str, Any]]:
    """Seat 0 on side B with two of four pieces down, a third one held over a spot where it fits."""
    s = RULES.setup(2, 5, {"side": "B"})
    codes = _solution(s, 0)
    s = _play(s, 0, codes[:2])
    _, piece, o, x, y = codes[2].split(".")
    return s, {"piece": piece, "o": int(o), "x": int(x), "y": int(y)}


def table_state() -> UbongoState:
    """Round 3 of a four-player game: two rounds played, the countdown of round 3 running."""
    s = RULES.setup(4, 11, {"gems": False})
    for solvers in ([2, 0, 3], [1]):
        for seat in solvers:
            s = _play(s, seat, _solution(s, seat))
        for seat in set(range(4)) - set(solvers):  # the others got part of the way
            s = _play(s, seat, _solution(s, seat)[: seat % 3])
        s, _ = RULES.apply(s, SYSTEM, RULES.legal_actions(s, SYSTEM)[0])
    return _play(s, 3, _solution(s, 3))


def final_state() -> UbongoState:
    """A whole three-player game; the seats take turns being fast."""
    s = RULES.setup(3, 21, {"side": "mixed", "b_seats": "2", "no_yellow": "3"})
    while s.phase != "over":
        r = s.round
        for seat in [(r + i) % 3 for i in range(1 + r % 3)]:  # 1, 2 or 3 solvers a round
            if s.round == r and s.phase != "over":
                s = _play(s, seat, _solution(s, seat))
        if s.round == r and s.phase != "over":  # the countdown (or the round limit) runs out
            s, _ = RULES.apply(s, SYSTEM, RULES.legal_actions(s, SYSTEM)[0])
    return s


def images() -> dict[str, bytes]:
    """The README images, by file stem."""
    solving, cursor = solving_state()
    table = table_state()
    return {
        "ubongo_task": render_task(RULES.view(task_state(), 0), 0),
        "ubongo_solving": render_task(RULES.view(solving, 0), 0, cursor=cursor),
        "ubongo_table": render_table(RULES.view(table, None), NAMES[:4]),
        "ubongo_final": render_table(RULES.view(final_state(), None), NAMES[:3]),
    }


def localized(labels: Mapping[str, str]) -> dict[str, bytes]:
    """The table and a workspace drawn with ``labels`` (the translation tool's pictures)."""
    solving, cursor = solving_state()
    return {
        "ubongo": render_table(RULES.view(table_state(), None), NAMES[:4], labels=labels),
        "ubongo_task": render_task(RULES.view(solving, 0), 0, labels=labels, cursor=cursor),
    }


def main(out_dir: Path = DOCS_IMAGES) -> list[Path]:
    return write(images(), out_dir)
