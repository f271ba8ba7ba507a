"""Generate the 64 Ubongo tasks (spec R5-R11) and write ubongo_tasks.json beside this file.

Run once with ``python -m engine.games.ubongo_generate [out.json]``; the output is committed. Deterministic:
a fixed seed and the engine's own SplitMix64 generator (engine.rng), whose output does not depend on
the Python version, so tests/engine/test_ubongo_tasks.py can regenerate and compare byte for byte.

R11: grow a shape from k random distinct pieces, each new piece touching the shape so far; reject
shapes that are too big (R5), have a hole or are congruent to an accepted task (R10); accept when the
exact-cover solver finds at least three solving piece sets (R7), one without the yellow I3 (R8),
and no cover by k-1 or k+1 pieces (R9).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from pathlib import Path

from engine.games.ubongo_pieces import PIECE_IDS, YELLOW, Cell, Shape, normalise, orientations, transform
from engine.games.ubongo_solver import coverable, solving_sets, to_rows
from engine.rng import Rng

SEED = 20261130
N_CARDS = 32
OUT = Path(__file__).with_name("ubongo_tasks.json")

# R2/R5 per side: pieces per task, cell counts, bounding box (either orientation)
SIDES: dict[str, dict[str, object]] = {
    "A": {"k": 3, "cells": (9, 11), "box": (5, 4)},
    "B": {"k": 4, "cells": (13, 15), "box": (6, 4)},
}
MIN_SETS = 3  # R7
_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


# ---- shape geometry (also used by the tests) -------------------------------------------------------


def congruence_key(cells: Iterable[Cell]) -> Shape:
    """R10: one representative of the shape under all 8 rotations and reflections."""
    base = normalise(cells)
    return min(transform(base, o) for o in range(8))


def fits_box(cells: Iterable[Cell], box: tuple[int, int]) -> bool:
    """R5: the bounding box fits ``box`` in either orientation."""
    pts = list(cells)
    w = max(x for x, _ in pts) - min(x for x, _ in pts) + 1
    h = max(y for _, y in pts) - min(y for _, y in pts) + 1
    return (w <= box[0] and h <= box[1]) or (w <= box[1] and h <= box[0])


def is_connected(cells: Iterable[Cell]) -> bool:
    """R5: 4-connected."""
    pts = set(cells)
    start = next(iter(pts))
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in _STEPS:
            n = (x + dx, y + dy)
            if n in pts and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == pts


def has_hole(cells: Iterable[Cell]) -> bool:
    """R5: some non-cell inside the bounding box cannot reach the outside (flood fill from a border
    one cell wider than the box)."""
    pts = set(cells)
    x0, x1 = min(x for x, _ in pts) - 1, max(x for x, _ in pts) + 1
    y0, y1 = min(y for _, y in pts) - 1, max(y for _, y in pts) + 1
    outside, todo = {(x0, y0)}, [(x0, y0)]
    while todo:
        x, y = todo.pop()
        for dx, dy in _STEPS:
            n = (x + dx, y + dy)
            if x0 <= n[0] <= x1 and y0 <= n[1] <= y1 and n not in pts and n not in outside:
                outside.add(n)
                todo.append(n)
    return (x1 - x0 + 1) * (y1 - y0 + 1) != len(outside) + len(pts)


# ---- R11 -------------------------------------------------------------------------------------------


def _spots(shape: set[Cell], piece: Shape) -> list[tuple[int, int]]:
    """Offsets where ``piece`` does not overlap ``shape`` and shares an edge with it (sorted, so the
    random pick below is reproducible)."""
    out = set()
    for x, y in shape:
        for dx, dy in _STEPS:
            n = (x + dx, y + dy)
            if n in shape:
                continue
            for px, py in piece:
                off = (n[0] - px, n[1] - py)
                if not any((px2 + off[0], py2 + off[1]) in shape for px2, py2 in piece):
                    out.add(off)
    return sorted(out)


def grow(rng: Rng, k: int) -> Shape:
    """R11 steps 1-2: k random distinct pieces in random orientations, each touching the shape."""
    pieces = rng.sample(PIECE_IDS, k)
    shape: set[Cell] = set(rng.choice(orientations(pieces[0]))[1])
    for piece in pieces[1:]:
        cells = rng.choice(orientations(piece))[1]
        ox, oy = rng.choice(_spots(shape, cells))
        shape.update((x + ox, y + oy) for x, y in cells)
    return normalise(shape)


def landscape(shape: Shape) -> Shape:
    """The shape turned a quarter if it is taller than wide: a wide grid suits a phone screen (R5
    allows either orientation of the box; turning changes no solution count)."""
    pts = normalise(shape)
    w, h = max(x for x, _ in pts) + 1, max(y for _, y in pts) + 1
    return transform(pts, 1) if h > w else pts


def check(cells: frozenset[Cell], side: str) -> list[tuple[str, ...]] | None:
    """R11 steps 4-5 (and the size half of R5): the solving sets if the task is acceptable."""
    spec = SIDES[side]
    k = int(spec["k"])  # type: ignore[call-overload]
    low, high = spec["cells"]  # type: ignore[misc]
    if not low <= len(cells) <= high:
        return None
    sets = solving_sets(cells, k)
    if len(sets) < MIN_SETS or all(YELLOW in s for s in sets):  # R7, R8
        return None
    if coverable(cells, k - 1) or coverable(cells, k + 1):  # R9
        return None
    return sets


def generate(seed: int = SEED) -> dict[str, object]:
    """All 64 tasks: 32 A-tasks, then 32 B-tasks from one random stream; card i = (A i, B i)."""
    rng = Rng(seed)
    seen: set[Shape] = set()
    tasks: dict[str, list[list[str]]] = {"A": [], "B": []}
    for side, spec in SIDES.items():
        while len(tasks[side]) < N_CARDS:
            shape = grow(rng, int(spec["k"]))  # type: ignore[call-overload]
            key = congruence_key(shape)
            if key in seen or not fits_box(shape, spec["box"]) or has_hole(shape):  # type: ignore[arg-type]
                continue
            if check(frozenset(shape), side) is None:
                continue
            seen.add(key)
            tasks[side].append(to_rows(landscape(shape)))
    cards = [{"A": a, "B": b} for a, b in zip(tasks["A"], tasks["B"], strict=True)]
    return {"seed": seed, "generator": "engine/games/ubongo_generate.py", "cards": cards}


def dumps(data: dict[str, object]) -> str:
    """Stable JSON text: one task row per line, so a diff of the file shows shapes."""
    return json.dumps(data, indent=1) + "\n"


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else OUT
    out.write_text(dumps(generate()), encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
