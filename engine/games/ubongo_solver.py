"""Exact cover for Ubongo tasks (spec R7-R12, R20, R21; PERFORMANCE.md "Polyomino exact cover").

Knuth's Algorithm X in the dict-of-sets form (Ali Assaf): columns are the task's cells plus one
column per piece of the set being tried, rows are the placements of those pieces inside the task.
Every search is for one *piece set* at a time, so all piece columns are primary (each chosen piece is
used exactly once); an area pre-check skips sets whose squares cannot add up to the task's cells.

Used at build time by the generator (R11 step 4) and its test (R12), at play time by the rules (a
submission check) and by the computer players (a solution to place). Pure Python and GIL-bound:
the bot runs heavy solving off the event loop; one task takes well under a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from engine.games.ubongo_pieces import AREA, PIECE_IDS, Cell, cells_at, orientations

Cells = frozenset[Cell]
Placement = tuple[str, int, int, int]  # (piece, orientation index, x, y) as in R22


# ---- task text (R6) ------------------------------------------------------------------------------


def parse_rows(rows: Sequence[str]) -> Cells:
    """R6 rows of ``#`` (cell) and ``.`` (no cell) -> the set of (x, y) cells."""
    return frozenset((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#")


def to_rows(cells: Iterable[Cell]) -> list[str]:
    """The R6 rows of ``cells``, shifted to the top-left corner."""
    pts = set(cells)
    mx, my = min(x for x, _ in pts), min(y for _, y in pts)
    w = max(x for x, _ in pts) - mx + 1
    h = max(y for _, y in pts) - my + 1
    return ["".join("#" if (mx + x, my + y) in pts else "." for x in range(w)) for y in range(h)]


# ---- prepared tasks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prepared:
    """A task with every placement of every piece that lies wholly inside it (rows of the matrix)."""

    cells: Cells
    rows: tuple[tuple[Placement, Cells], ...]
    by_piece: dict[str, tuple[int, ...]]  # piece -> indices into rows


@lru_cache(maxsize=256)
def prepare(cells: Cells) -> Prepared:
    rows: list[tuple[Placement, Cells]] = []
    by_piece: dict[str, tuple[int, ...]] = {}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    for piece in PIECE_IDS:
        start = len(rows)
        for o, shape in orientations(piece):
            w = max(x for x, _ in shape)
            h = max(y for _, y in shape)
            for y in range(min(ys), max(ys) - h + 1):
                for x in range(min(xs), max(xs) - w + 1):
                    covered = frozenset(cells_at(piece, o, x, y))
                    if covered <= cells:
                        rows.append(((piece, o, x, y), covered))
        by_piece[piece] = tuple(range(start, len(rows)))
    return Prepared(cells, tuple(rows), by_piece)


def fits(cells: Cells, piece: str, free: Cells | None = None) -> list[Placement]:
    """Every placement of ``piece`` inside the task ``cells`` that also lies in ``free`` (if given)."""
    p = prepare(cells)
    return [p.rows[i][0] for i in p.by_piece[piece] if free is None or p.rows[i][1] <= free]


# ---- Algorithm X -----------------------------------------------------------------------------------


def _search(x: dict[object, set[int]], y: dict[int, list[object]], partial: list[int]) -> Iterator[list[int]]:
    if not x:
        yield list(partial)
        return
    col = min(x, key=lambda c: len(x[c]))  # fewest candidates first (Knuth's S heuristic)
    for r in sorted(x[col]):  # sorted: the same first solution on every run
        partial.append(r)
        removed = _select(x, y, r)
        yield from _search(x, y, partial)
        _deselect(x, y, r, removed)
        partial.pop()


def _select(x: dict[object, set[int]], y: dict[int, list[object]], r: int) -> list[set[int]]:
    removed = []
    for j in y[r]:
        for i in x[j]:
            for k in y[i]:
                if k != j:
                    x[k].remove(i)
        removed.append(x.pop(j))
    return removed


def _deselect(x: dict[object, set[int]], y: dict[int, list[object]], r: int, removed: list[set[int]]) -> None:
    for j in reversed(y[r]):
        x[j] = removed.pop()
        for i in x[j]:
            for k in y[i]:
                if k != j:
                    x[k].add(i)


def _covers(cells: Cells, pieces: Sequence[str]) -> Iterator[list[Placement]]:
    """Every exact cover of ``cells`` by exactly the given distinct pieces, each used once."""
    if sum(AREA[p] for p in pieces) != len(cells):  # area pre-check: nothing to search
        return
    prep = prepare(cells)
    if any(not prep.by_piece[p] for p in pieces):
        return
    y: dict[int, list[object]] = {}
    x: dict[object, set[int]] = {c: set() for c in cells}
    for p in pieces:
        x[p] = set()
        for i in prep.by_piece[p]:
            covered = prep.rows[i][1]
            y[i] = [p, *covered]
            for col in y[i]:
                x[col].add(i)
    if any(not rows for rows in x.values()):  # a cell no piece of this set can reach
        return
    for found in _search(x, y, []):
        yield sorted((prep.rows[i][0] for i in found), key=lambda pl: PIECE_IDS.index(pl[0]))


def cover(cells: Cells, pieces: Sequence[str]) -> list[Placement] | None:
    """One exact cover of ``cells`` using exactly ``pieces`` (the first in a fixed order), or None."""
    return next(_covers(cells, pieces), None)


def count_covers(cells: Cells, pieces: Sequence[str]) -> int:
    """How many distinct placements lists cover ``cells`` with exactly ``pieces``."""
    return sum(1 for _ in _covers(cells, pieces))


def candidate_sets(cells: Cells, k: int, pieces: Sequence[str] = PIECE_IDS) -> list[tuple[str, ...]]:
    """R11 step 4: every k-subset of ``pieces`` whose areas add up to the task's cells."""
    return [c for c in combinations(pieces, k) if sum(AREA[p] for p in c) == len(cells)]


def solving_sets(cells: Cells, k: int, pieces: Sequence[str] = PIECE_IDS) -> list[tuple[str, ...]]:
    """R7: the k-subsets of ``pieces`` that cover ``cells`` exactly (each set counted once)."""
    return [c for c in candidate_sets(cells, k, pieces) if cover(cells, c) is not None]


def coverable(cells: Cells, k: int, pieces: Sequence[str] = PIECE_IDS) -> bool:
    """R9: whether any k distinct pieces cover ``cells`` exactly."""
    return any(cover(cells, c) is not None for c in candidate_sets(cells, k, pieces))


def solve(cells: Cells, k: int, pieces: Sequence[str] = PIECE_IDS) -> list[Placement] | None:
    """A cover of ``cells`` by k distinct pieces taken from ``pieces`` (the computer players)."""
    for c in candidate_sets(cells, k, pieces):
        found = cover(cells, c)
        if found is not None:
            return found
    return None


def is_solution(cells: Cells, placements: Sequence[Placement], k: int) -> bool:
    """R20/R21: the placements use exactly ``k`` distinct pieces, stay inside the task, do not overlap
    and cover every cell. Checking costs a few microseconds (no search)."""
    if len(placements) != k or len({p for p, *_ in placements}) != k:
        return False
    covered: set[Cell] = set()
    for piece, o, x, y in placements:
        if piece not in AREA or not 0 <= o < 8:
            return False
        shape = cells_at(piece, o, x, y)
        if covered.intersection(shape):
            return False
        covered.update(shape)
    return covered == cells
