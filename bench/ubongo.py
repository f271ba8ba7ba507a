"""Ubongo benchmarks: ``python -m bench.ubongo`` prints one table (metric | result | aim).

Solver figures of issue 10 (generate all 64 tasks, check a submission, count the solving piece sets
of the hardest B task), the rules' own costs on the click path, and the two images (render + PNG
encode time, bytes). Solver caches are cleared before each timed count, so every count pays for
building its placements, as the first click on a fresh task would.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from engine.games.ubongo import RULES, UbongoState, allowed, card_tasks, need, place_code, task_cells
from engine.games.ubongo_ai import COMPUTER
from engine.games.ubongo_solver import Cells, is_solution, parse_rows, prepare, solve, solving_sets
from render.ubongo import render_table, render_task, samples
from tools.ubongo_generate import generate

KIB = 1024
NAMES = ["alice", "bob", "carol", "dave"]


def pct(samples: Sequence[float], q: float) -> float:
    s = sorted(samples)
    return s[max(0, round(q * len(s) + 0.5) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def _generate_cold() -> None:
    prepare.cache_clear()  # every candidate shape pays for its placements, as on a first run
    generate()


def _count_cold(cells: Cells) -> float:
    prepare.cache_clear()
    t0 = time.perf_counter()
    solving_sets(cells, 4)
    return time.perf_counter() - t0


def solver_rows() -> list[tuple[str, str, str]]:
    gen = min(timed(_generate_cold, 3))
    b_tasks = [parse_rows(card["B"]) for card in card_tasks()]
    counts = {cells: min(_count_cold(cells) for _ in range(3)) for cells in b_tasks}
    hardest = max(counts, key=counts.__getitem__)
    t = min(timed(lambda: _count_cold(hardest), 5))
    sol = solve(hardest, 4)
    assert sol is not None
    checks = timed(lambda: is_solution(hardest, sol, 4), 2000)
    return [
        ("generate all 64 tasks (R11, best of 3)", f"{gen:.2f} s", "≤ 2 s"),
        (
            "check a submission (is_solution) p50 / p99",
            f"{ms(pct(checks, 0.5))} / {ms(pct(checks, 0.99))}",
            "≤ 1 ms",
        ),
        ("count solving sets, hardest B task (cold)", ms(t), "≤ 15 ms"),
        ("count solving sets, B tasks p50 (cold)", ms(pct(list(counts.values()), 0.5)), "-"),
    ]


def _midround(n: int, seed: int, placed: int) -> UbongoState:
    """A race state in round 1 with ``placed`` pieces of a solution down for every seat."""
    s = RULES.setup(n, seed, {"side": "B" if seed % 2 else "A"})
    for seat in range(n):
        found = solve(task_cells(s, seat), need(s, seat), allowed(s, seat)) or []
        for p in found[: min(placed, need(s, seat) - 1)]:
            s, _ = RULES.apply(s, seat, place_code(*p))
    return s


def rules_rows() -> list[tuple[str, str, str]]:
    states = [_midround(4, seed, seed % 3) for seed in range(12)]
    legal = [x for s in states for x in timed(lambda s=s: RULES.legal_actions(s, 0), 20)]
    apply = []
    for s in states:
        code = RULES.legal_actions(s, 1)[0]
        apply += timed(lambda s=s, code=code: RULES.apply(s, 1, code), 50)
    think = [x for s in states for x in timed(lambda s=s: COMPUTER.choose(s, 2, "hard"), 5)]
    return [
        ("rules: legal_actions p50 / p99", f"{ms(pct(legal, 0.5))} / {ms(pct(legal, 0.99))}", "-"),
        ("rules: apply a placement p50 / p99", f"{ms(pct(apply, 0.5))} / {ms(pct(apply, 0.99))}", "-"),
        ("computer: choose a placement p50 / p99", f"{ms(pct(think, 0.5))} / {ms(pct(think, 0.99))}", "-"),
    ]


def render_rows(rounds: int = 5) -> list[tuple[str, str, str]]:
    states = [_midround(4, seed, seed % 4) for seed in range(8)]
    task_views = [RULES.view(s, seat) for s in states for seat in range(4)]
    table_views = [RULES.view(s, None) for s in (*states, samples.table_state(), samples.final_state())]
    render_task(task_views[0], 0)  # palette and fonts, once per process
    rows = []
    for what, views, draw in (
        ("workspace", task_views, lambda v: render_task(v, v["seat"])),
        ("table", table_views, lambda v: render_table(v, NAMES)),
    ):
        times, sizes = [], []
        for _ in range(rounds):
            for view in views:
                t0 = time.perf_counter()
                sizes.append(len(draw(view)))
                times.append(time.perf_counter() - t0)
        rows += [
            (f"render {what} p50 / p99", f"{ms(pct(times, 0.5))} / {ms(pct(times, 0.99))}", "≤ 15 ms"),
            (f"render {what} PNG max", f"{max(sizes) / KIB:.1f} KiB", "≤ 25 KiB"),
        ]
    return rows


def run() -> list[tuple[str, str, str]]:
    return solver_rows() + rules_rows() + render_rows()


def table(rows: list[tuple[str, str, str]]) -> str:
    cells = [("metric", "result", "aim"), *rows]
    widths = [max(len(c[i]) for c in cells) for i in range(3)]
    lines = [" | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(run()))
