"""Ubongo Fun-Size pieces as data (rules: docs/rules/ubongo.md, R3, R4, R22, E4).

Cells are ``(x, y)`` with x to the right and y downwards (screen coordinates). A piece's
*orientation index* ``o`` (0-7) follows R22: for ``o >= 4`` mirror the base cells first
(``x -> -x``), then turn ``o % 4`` quarter turns clockwise (``(x, y) -> (-y, x)``), then shift so the
smallest x and y are 0. Several indices can give the same shape (a square looks the same every way);
the *canonical* index of a shape is the smallest index that produces it, and only canonical indices
are offered as choices, although R22 lets a player type any index 0-7.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

Cell = tuple[int, int]
Shape = tuple[Cell, ...]  # sorted, normalised to the top-left corner

# R4: id -> (colour name, base cells). The order is the reading order used everywhere (menus, images,
# the solver's deterministic search), smallest piece first.
PIECES: dict[str, tuple[str, Shape]] = {
    "I2": ("light blue", ((0, 0), (1, 0))),
    "I3": ("yellow", ((0, 0), (1, 0), (2, 0))),
    "V3": ("red", ((0, 0), (1, 0), (0, 1))),
    "O4": ("blue", ((0, 0), (1, 0), (0, 1), (1, 1))),
    "L4": ("green", ((0, 0), (0, 1), (0, 2), (1, 2))),
    "T4": ("orange", ((0, 0), (1, 0), (2, 0), (1, 1))),
    "S4": ("purple", ((1, 0), (2, 0), (0, 1), (1, 1))),
    "P5": ("pink", ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))),
}
PIECE_IDS: tuple[str, ...] = tuple(PIECES)
YELLOW = "I3"  # R3: the yellow three-long straight piece, left out under V1
AREA: dict[str, int] = {p: len(cells) for p, (_, cells) in PIECES.items()}
N_ORIENTATIONS = 8  # R22: indices 0-7


def normalise(cells: Iterable[Cell]) -> Shape:
    """Shift ``cells`` so the smallest x and y are 0; sorted (row by row would also do: any fixed
    order makes equal shapes equal tuples)."""
    pts = list(cells)
    mx = min(x for x, _ in pts)
    my = min(y for _, y in pts)
    return tuple(sorted((x - mx, y - my) for x, y in pts))


def transform(cells: Shape, o: int) -> Shape:
    """R22: mirror if ``o >= 4``, then ``o % 4`` quarter turns clockwise, then normalise."""
    pts = [(-x, y) for x, y in cells] if o >= 4 else list(cells)
    for _ in range(o % 4):
        pts = [(-y, x) for x, y in pts]  # clockwise on screen, where y points down
    return normalise(pts)


@cache
def orient(piece: str, o: int) -> Shape:
    """The cells of ``piece`` in orientation ``o`` (0-7), top-left corner at (0, 0)."""
    return transform(PIECES[piece][1], o)


@cache
def orientations(piece: str) -> tuple[tuple[int, Shape], ...]:
    """E4: the distinct orientations of ``piece`` as (canonical index, cells), deduplicated after
    normalising; counts 2, 2, 4, 1, 8, 4, 4, 8 for the R4 table."""
    seen: dict[Shape, int] = {}
    for o in range(N_ORIENTATIONS):
        seen.setdefault(orient(piece, o), o)
    return tuple((o, shape) for shape, o in seen.items())


@cache
def canonical(piece: str, o: int) -> int:
    """The smallest orientation index giving the same shape as ``o`` (e.g. O4: always 0)."""
    shape = orient(piece, o)
    return next(i for i, cells in orientations(piece) if cells == shape)


def cells_at(piece: str, o: int, x: int, y: int) -> Shape:
    """The grid cells covered by ``piece`` in orientation ``o`` with its top-left corner at (x, y)."""
    return tuple((x + cx, y + cy) for cx, cy in orient(piece, o))


def size(shape: Shape) -> tuple[int, int]:
    """(width, height) of a normalised shape's bounding box."""
    return max(x for x, _ in shape) + 1, max(y for _, y in shape) + 1
