"""Drawing a task grid with pieces on it (the workspace and the table's mini solutions share it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import ImageDraw

from engine.games.ubongo_pieces import PIECES, cells_at, orient
from render import common as c
from render.ubongo.style import BOARD, DARK_TEXT, GRID, PIECE_RGB, TASK, edge, faded

Cell = tuple[int, int]


def task_cells(rows: Any) -> tuple[set[Cell], int, int]:
    """The cells of R6 rows and the grid's (width, height); empty for anything that is not rows."""
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows) or not rows:
        return set(), 0, 0
    cells = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "#"}
    return cells, max(len(r) for r in rows), len(rows)


def piece_cells(placed: Any) -> dict[str, tuple[Cell, ...]]:
    """piece -> covered cells, from a view's ``placed`` ({piece: [o, x, y]}); odd entries are skipped."""
    out: dict[str, tuple[Cell, ...]] = {}
    if not isinstance(placed, Mapping):
        return out
    for piece, spot in placed.items():
        if (
            piece in PIECES
            and isinstance(spot, list)
            and len(spot) == 3
            and all(isinstance(v, int) for v in spot)
        ):
            o, x, y = spot
            if 0 <= o < 8:
                out[piece] = cells_at(piece, o, x, y)
    return out


def draw_grid(
    d: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    cell: int,
    rows: list[str],
    placed: Any,
    *,
    ids: bool = True,
) -> None:
    """The card (dark), its light task cells, and the placed pieces with outlines around each piece."""
    cells, w, h = task_cells(rows)
    ox, oy = origin
    d.rectangle((ox - 3, oy - 3, ox + w * cell + 2, oy + h * cell + 2), fill=BOARD)
    line = max(1, cell // 24)
    for x, y in cells:
        d.rectangle(
            (ox + x * cell, oy + y * cell, ox + (x + 1) * cell - 1, oy + (y + 1) * cell - 1), fill=TASK
        )
    for x, y in cells:  # grid lines inside the task area
        d.rectangle(
            (ox + x * cell, oy + y * cell, ox + (x + 1) * cell - 1, oy + (y + 1) * cell - 1),
            outline=GRID,
            width=line,
        )
    for piece, pcs in piece_cells(placed).items():
        fill_cells(d, origin, cell, pcs, PIECE_RGB[piece], edge(PIECE_RGB[piece]))
        if ids and cell >= 28:
            x, y = min(pcs, key=lambda p: (p[1], p[0]))
            ink = c.INK if piece in DARK_TEXT else c.WHITE
            c.text(
                d,
                (ox + x * cell + cell / 2, oy + y * cell + cell / 2),
                piece,
                cell // 3,
                ink,
                bold=True,
                anchor="mm",
            )


def fill_cells(
    d: ImageDraw.ImageDraw,
    origin: tuple[int, int],
    cell: int,
    pcs: tuple[Cell, ...] | list[Cell],
    fill: c.RGB | None,
    outline: c.RGB,
    width: int | None = None,
) -> None:
    """Fill ``pcs`` and draw the outline only along the piece's border (not between its own cells)."""
    ox, oy = origin
    own = set(pcs)
    width = width or max(2, cell // 16)
    for x, y in pcs:
        x0, y0, x1, y1 = ox + x * cell, oy + y * cell, ox + (x + 1) * cell - 1, oy + (y + 1) * cell - 1
        if fill is not None:
            d.rectangle((x0, y0, x1, y1), fill=fill)
        if (x, y - 1) not in own:
            d.rectangle((x0, y0, x1, y0 + width - 1), fill=outline)
        if (x, y + 1) not in own:
            d.rectangle((x0, y1 - width + 1, x1, y1), fill=outline)
        if (x - 1, y) not in own:
            d.rectangle((x0, y0, x0 + width - 1, y1), fill=outline)
        if (x + 1, y) not in own:
            d.rectangle((x1 - width + 1, y0, x1, y1), fill=outline)


def draw_piece(
    d: ImageDraw.ImageDraw, xy: tuple[int, int], cell: int, piece: str, used: bool, o: int = 0
) -> tuple[int, int]:
    """A piece in the tray (orientation ``o``), faded once placed; returns its (width, height) in px."""
    shape = orient(piece, o)
    rgb = PIECE_RGB[piece]
    fill_cells(d, xy, cell, shape, faded(rgb) if used else rgb, faded(edge(rgb)) if used else edge(rgb), 2)
    return (max(x for x, _ in shape) + 1) * cell, (max(y for _, y in shape) + 1) * cell
