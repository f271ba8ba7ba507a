"""Honga board look: image size, where everything sits, colours and the palette.

The board is the 3 x 3 grid of fields on the left (HONGA's field in the centre, the four placement
spaces on the inner grid corners); the right panel holds the three trade cards and one row per
player. Sizes are chosen for a phone: the image is shown about 400 px wide, so the smallest text
that must be read (counts, scores) is 15 px bold or more here.
"""

from __future__ import annotations

from render import common as c
from render import lesson
from render.common import RGB

W, H = 840, 600
# zlib-ng level of the bands a move changed (render.png), measured over the bench's 61 boards: level 2
# deflates them in 0.16 ms a board (the system zlib's level 3 took 0.33) and the busiest is 21.4 KiB.
PNG_LEVEL = 2
HEADER_H = 40
CAPTION_H = 40
TILE = 168
BX, BY = 8, HEADER_H + 8  # board top-left
DISK_R = 46
PX0, PX1 = BX + 3 * TILE + 10, W - 8  # right panel
CARD_Y, CARD_H = HEADER_H + 8, 92
ROWS_Y = CARD_Y + CARD_H + 8
ROWS_END = H - CAPTION_H - 6
ICON = 20  # resource icons in player rows
MINI = 20  # cost icons on trade cards

# the fields' positions in the grid come from engine data (R3), the spaces' corners from R2
SPACE_CORNER: dict[str, tuple[int, int]] = {"nw": (1, 1), "ne": (2, 1), "se": (2, 2), "sw": (1, 2)}
# quarter j of a space's neighbour list points this way (clockwise from upper-left, R4)
QUARTER_DIR: tuple[tuple[int, int], ...] = ((-1, -1), (1, -1), (1, 1), (-1, 1))

# --- colours -----------------------------------------------------------------------------------------
PLAYER: tuple[RGB, ...] = ((200, 50, 44), (36, 100, 196), (40, 136, 60), (226, 172, 16), (134, 66, 168))
TILE_COL: dict[str, RGB] = {
    "trade": (238, 216, 172),
    "mountain": (214, 204, 192),
    "mushrooms": (238, 218, 204),
    "berries": (234, 212, 226),
    "honga": (244, 206, 150),
    "spring": (208, 230, 242),
    "forest": (200, 224, 184),
    "lake": (192, 216, 238),
    "mammoths": (226, 210, 182),
}
GRID_LINE: RGB = (150, 120, 86)
FISH: RGB = (46, 120, 190)
WATER: RGB = (70, 170, 225)
BERRY: RGB = (130, 40, 120)
LEAF: RGB = (60, 130, 50)
CAP: RGB = (200, 50, 40)
STEM: RGB = (246, 232, 200)
MAMMOTH: RGB = (120, 80, 50)
IVORY: RGB = (248, 240, 214)
TIGER: RGB = (236, 136, 34)
STONE: RGB = (168, 152, 136)
GREY_DISK: RGB = (150, 150, 154)
RED_DISK: RGB = (196, 72, 60)
DISK_LINE: RGB = (60, 50, 44)
CARD_BACK: RGB = (56, 100, 70)
ROW: RGB = (242, 233, 211)
FADED: RGB = (200, 196, 190)

FLAT = (
    *c.BASE_COLOURS,
    *PLAYER,
    *TILE_COL.values(),
    GRID_LINE,
    FISH,
    WATER,
    BERRY,
    LEAF,
    CAP,
    STEM,
    MAMMOTH,
    IVORY,
    TIGER,
    STONE,
    GREY_DISK,
    RED_DISK,
    DISK_LINE,
    CARD_BACK,
    ROW,
    FADED,
    *lesson.COLOURS,
)
BLENDS = (
    (c.INK, c.PAPER),
    (c.INK, ROW),
    (c.INK, c.HILITE),
    (c.CREAM, c.BAR),
    (c.WHITE, GREY_DISK),
    (c.WHITE, RED_DISK),
    (c.INK, TILE_COL["mountain"]),
    (c.INK, TILE_COL["honga"]),
)


def tile_box(col: int, row: int) -> tuple[int, int, int, int]:
    x, y = BX + col * TILE, BY + row * TILE
    return x, y, x + TILE, y + TILE


def corner_xy(space: str) -> tuple[int, int]:
    col, row = SPACE_CORNER[space]
    return BX + col * TILE, BY + row * TILE
