"""Ugah Ugah! board look: image size, where everything sits, colours and the colour palette.

The ring: 31 chip places and a large gap three chips wide at 12 o'clock. Slot -1 (left of the gap's
middle) is where the Mammoth Masher starts, slot 31 (right of it) the Bone Breaker.
"""

from __future__ import annotations

import math

from render import common as c
from render import lesson
from render.common import RGB

W, H = 800, 544
# zlib-ng level of the bands a move changed (render.png), measured over the bench's 62 boards: level 3
# deflates them in 0.39 ms a board (the system zlib's level 4 took 0.86) and the busiest is 23.6 KiB;
# level 2 reaches 24.5 KiB, where a board is saved a second time as one stream (common.PNG_BUDGET).
PNG_LEVEL = 3
HEADER_H = 40
TITLE_W = 300  # the header's title; the rest of the header gets what is left
CAPTION_H = 40
CX, CY = 240, 272  # ring centre: middle of the area between header and caption banner
RING_R = 174
CHIP_R = 14.5
N_CHIPS = 31
GAP_SLOTS = 3  # the large gap is as wide as three chips; MM starts on slot -1, BB on slot 31
SLOT = 2 * math.pi / (N_CHIPS + GAP_SLOTS)
RIM = 20  # the camp disc reaches this far beyond the chip centres
GAP_BITE = 44  # radius of the bite the large gap takes out of the disc

PANEL = (480, HEADER_H + 8, 792, H - CAPTION_H - 8)
PX0, PX1 = PANEL[0] + 8, PANEL[2] - 8  # inner panel width 296
CARD_Y, CARD_H = 72, 72
CARD_W = (PX1 - PX0 - 16) // 3
ROWS_Y = 166
ROW_H = 60
MINI_PITCH = 23

RING_CHIP, MINI_CHIP, BIG_CHIP = 29, 20, 42
DIE, DIE_SMALL = 42, 38
TOKEN = 24
DICE_GAP, GROUP_GAP, TRAY_PAD = 5, 7, 5
MAX_TRAYS_W = 284  # wider trays would touch the ring chips at the sides
TRAY_LABEL_W = 52  # a tray label may make its tray this wide even if it holds fewer dice

# --- colours -----------------------------------------------------------------------------------------
TRACK: RGB = (216, 196, 156)  # the camp disc the ring lies on
TAKEN: RGB = (168, 142, 104)
TRAY: RGB = (224, 207, 170)
ROW: RGB = (242, 233, 211)
MM_COL: RGB = (0, 124, 146)
BB_COL: RGB = (142, 48, 160)
DINO_COL: RGB = (62, 140, 58)
MAMM_COL: RGB = (132, 86, 52)
BIRD_COL: RGB = (226, 170, 24)
BONE_FACE: RGB = (250, 248, 240)
BONE_COL: RGB = (222, 208, 176)
BACK: RGB = (92, 64, 44)
BACK_LINE: RGB = (146, 108, 74)
WORM: RGB = (86, 156, 46)
WORM_DARK: RGB = (40, 96, 30)
CHIP_FILL: dict[int, RGB] = {
    1: (214, 238, 184),
    2: (255, 243, 178),
    3: (255, 212, 104),
    4: (246, 158, 58),
    5: (220, 92, 42),
    6: (166, 32, 38),
}
CHIP_INK: dict[int, RGB] = {1: c.INK, 2: c.INK, 3: c.INK, 4: c.INK, 5: c.WHITE, 6: c.WHITE}

HUNTERS = ("mm", "bb")
HUNTER: dict[str, tuple[RGB, int, int]] = {
    "mm": (MM_COL, 14, 11),  # colour, head radius (MM is the small figure), letter size
    "bb": (BB_COL, 18, 14),
}
ANIMALS = ("dinosaur", "mammoth", "bird")
FACES: dict[str, tuple[RGB, RGB]] = {  # die face -> fill, ink (hunter faces carry the hunter's letters)
    "dinosaur": (DINO_COL, c.WHITE),
    "mammoth": (MAMM_COL, c.WHITE),
    "bird": (BIRD_COL, c.INK),
    "mm": (MM_COL, c.WHITE),
    "bb": (BB_COL, c.WHITE),
    "bone": (BONE_FACE, c.INK),
    "": (c.PAPER, c.INK),  # an empty slot before the first throw
}
SPOILS: dict[str, tuple[RGB, RGB]] = {  # spoils card -> fill, text colour
    "dinosaur": (DINO_COL, c.WHITE),
    "mammoth": (MAMM_COL, c.WHITE),
    "bird": (BIRD_COL, c.INK),
}

FLAT = (
    *c.BASE_COLOURS,
    TRACK,
    TAKEN,
    TRAY,
    ROW,
    MM_COL,
    BB_COL,
    DINO_COL,
    MAMM_COL,
    BIRD_COL,
    BONE_FACE,
    BONE_COL,
    BACK,
    BACK_LINE,
    WORM,
    WORM_DARK,
    *CHIP_FILL.values(),
    *lesson.COLOURS,
)
BLENDS = (  # antialiased text edges; other edges snap to the nearer flat colour (fewer PNG bytes)
    (c.INK, c.SAND),
    (c.INK, c.PAPER),
    (c.INK, ROW),
    (c.INK, c.HILITE),
    (c.INK, TRACK),
    (c.CREAM, c.BAR),
)


# --- geometry ----------------------------------------------------------------------------------------


def slot_angle(pos: float) -> float:
    """Screen angle of ring slot ``pos`` (y points down, so growing angles run clockwise); the gap's
    middle slot (-2) sits at 12 o'clock, index 0 is the first chip clockwise after the gap."""
    return -math.pi / 2 + (pos + 2) * SLOT


def ring_xy(pos: float, radius: float = RING_R) -> tuple[float, float]:
    a = slot_angle(pos)
    return CX + radius * math.cos(a), CY + radius * math.sin(a)
