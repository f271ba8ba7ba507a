"""Uonga board look: image size, where everything sits, colours and the colour palette."""

from __future__ import annotations

from render import common as c
from render import lesson
from render.common import RGB

W, H = 720, 520
# zlib-ng level of the bands a move changed (render.png), measured over the bench's 99 boards: level 2
# deflates them in 0.30 ms a board (the system zlib's level 3 took 0.51) and the busiest is 20.7 KiB.
PNG_LEVEL = 2
HEADER_H = 40
CAPTION_H = 40
CELL = 80
BX0, BY0 = 34, HEADER_H + 10  # top-left corner of square a5
BOARD = 5 * CELL
BX1, BY1 = BX0 + BOARD, BY0 + BOARD
PANEL = (BX1 + 18, HEADER_H + 10, W - 10, H - CAPTION_H - 10)
PX0, PX1 = PANEL[0] + 12, PANEL[2] - 12

# pyramid sizes (width, height) in px: the three sizes differ by half a size step at least
PIECE_SIZE: dict[str, tuple[int, int]] = {"M": (66, 64), "H": (48, 50), "Y": (32, 36)}
PIPS = {"Y": 1, "H": 2, "M": 3}  # Icehouse pips = point value (R5)
MINI = 0.42  # captured pieces in the panel: this fraction of the board size

# --- colours -----------------------------------------------------------------------------------------
LIGHT: RGB = (236, 222, 190)  # the board's squares
DARK: RGB = (218, 198, 158)
EDGE: RGB = (120, 88, 58)
MAST: RGB = (112, 70, 40)  # Mastodons: dark brown
MAST_SHADE: RGB = (78, 46, 24)
CAV: RGB = (0, 128, 150)  # Cavemen: teal
CAV_SHADE: RGB = (0, 88, 106)
HERD: RGB = (150, 104, 66)  # the band joining a herd
LAST: RGB = (255, 236, 160)  # the last move's squares
ARROW: RGB = (214, 120, 20)
TARGET: RGB = (70, 150, 60)  # destinations of a selected piece
ROW: RGB = (242, 233, 211)
ORANGE: RGB = (240, 150, 30)

SIDE_COL: dict[str, tuple[RGB, RGB]] = {"M": (MAST, MAST_SHADE), "H": (CAV, CAV_SHADE), "Y": (CAV, CAV_SHADE)}

FLAT = (
    *c.BASE_COLOURS,
    LIGHT,
    DARK,
    EDGE,
    MAST,
    MAST_SHADE,
    CAV,
    CAV_SHADE,
    HERD,
    LAST,
    ARROW,
    TARGET,
    ROW,
    ORANGE,
    *lesson.COLOURS,
)
BLENDS = (  # antialiased edges worth a palette entry; others snap to the nearer flat colour
    (c.INK, c.PAPER),
    (c.INK, ROW),
    (c.INK, c.HILITE),
    (c.INK, LIGHT),
    (c.INK, DARK),
    (c.CREAM, c.BAR),
    (c.INK, c.SAND),
    (MAST, LIGHT),
    (CAV, LIGHT),
    (c.WHITE, c.RED),
    (c.INK, c.GOLD),
)


def cell_box(f: int, r: int) -> tuple[int, int, int, int]:
    """Pixel box of the square at file ``f`` (0-4, a-e) and rank ``r`` (0-4, 1-5; rank 1 at the bottom)."""
    x = BX0 + f * CELL
    y = BY0 + (4 - r) * CELL
    return x, y, x + CELL, y + CELL


def cell_centre(f: int, r: int) -> tuple[float, float]:
    x0, y0, x1, y1 = cell_box(f, r)
    return (x0 + x1) / 2, (y0 + y1) / 2
