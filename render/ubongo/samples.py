"""Write sample Ubongo images to docs/images/ from real engine states.

Run with ``python -m render.ubongo.samples [out_dir]``: a fresh task, a workspace in progress (with
a cursor), the table during a countdown with the previous round's solutions, and a final result.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from engine.core import SYSTEM
from engine.games.ubongo import RULES, UbongoState, allowed, need, place_code, task_cells
from engine.games.ubongo_solver import solve
from render.ubongo import render_table, render_task

NAMES = ["Ayla", "Bruno", "Chidi", "Dagny"]
OUT = Path(__file__).resolve().parents[2] / "docs" / "images"


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


def main(out_dir: Path = OUT) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    solving, cursor = solving_state()
    table = table_state()
    images = {
        "ubongo_task.png": render_task(RULES.view(task_state(), 0), 0),
        "ubongo_solving.png": render_task(RULES.view(solving, 0), 0, cursor=cursor),
        "ubongo_table.png": render_table(RULES.view(table, None), NAMES[:4]),
        "ubongo_final.png": render_table(RULES.view(final_state(), None), NAMES[:3]),
    }
    paths = []
    for name, png in images.items():
        path = out_dir / name
        path.write_bytes(png)
        paths.append(path)
        print(f"{path} {len(png)} bytes")
    return paths


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
