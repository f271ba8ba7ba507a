"""Uonga sprite painters and their caches: pyramids, badges' backgrounds and the static background.

Pieces carry no words (size, colour and pips tell them apart), so ``ASSETS`` is built once per
process; the background carries the title and coordinates and is built once per title text
(``background``), i.e. once per language. Everything is read-only once built.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import common as c
from render.uonga.style import (
    BLENDS,
    BX0,
    BX1,
    BY0,
    BY1,
    CAPTION_H,
    CELL,
    DARK,
    EDGE,
    FLAT,
    HEADER_H,
    LIGHT,
    MINI,
    PANEL,
    PIECE_SIZE,
    PIPS,
    SIDE_COL,
    TARGET,
    H,
    W,
    cell_box,
)


def pyramid(kind: str, scale: float = 1.0) -> Image.Image:
    """An Icehouse pyramid seen from the side: two facets (lit and shaded) and the pips of its size."""
    pw, ph = PIECE_SIZE[kind]
    w, h = max(8, round(pw * scale)), max(8, round(ph * scale))
    fill, shade = SIDE_COL[kind]

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        line = max(1, round(2 * s * max(scale, 0.6)))
        apex, left, right = (w * s / 2, line), (line, h * s - line), (w * s - line, h * s - line)
        mid = (w * s * 0.58, h * s - line)
        d.polygon([apex, left, mid], fill=fill)
        d.polygon([apex, mid, right], fill=shade)
        d.polygon([apex, left, right], outline=c.INK, width=line)
        n = PIPS[kind]
        r = max(1.5 * s, w * s * 0.055)
        y = h * s - line - r * 2.4
        gap = r * 2.7
        x0 = w * s / 2 - gap * (n - 1) / 2
        for k in range(n):
            x = x0 + k * gap
            d.ellipse((x - r, y - r, x + r, y + r), fill=c.CREAM)

    return c.sprite(w, h, paint, scale=3)


def ring(colour: tuple[int, int, int], width: int, size: int = CELL) -> Image.Image:
    """A square outline the size of a cell (selection, tie candidates, capture marks)."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.rounded_rectangle((0, 0, size * s - 1, size * s - 1), 6 * s, outline=colour, width=width * s)

    return c.sprite(size, size, paint)


def dot(colour: tuple[int, int, int], r: int) -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        d.ellipse((0, 0, 2 * r * s - 1, 2 * r * s - 1), fill=colour)

    return c.sprite(2 * r, 2 * r, paint)


def cross(r: int) -> Image.Image:
    """A red cross: where a piece was just captured."""

    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        k = 2 * r * s
        d.line((s * 3, s * 3, k - s * 3, k - s * 3), fill=c.RED, width=5 * s)
        d.line((s * 3, k - s * 3, k - s * 3, s * 3), fill=c.RED, width=5 * s)

    return c.sprite(2 * r, 2 * r, paint)


def crown() -> Image.Image:
    def paint(d: ImageDraw.ImageDraw, s: int) -> None:
        pts = [(2, 18), (2, 6), (8, 12), (13, 3), (18, 12), (24, 6), (24, 18)]
        d.polygon([(x * s, y * s) for x, y in pts], fill=c.GOLD, outline=c.INK, width=s)

    return c.sprite(26, 21, paint)


class Assets:
    """The sprites without words and the palette."""

    def __init__(self) -> None:
        self.pieces = {k: pyramid(k) for k in PIECE_SIZE}
        self.minis = {k: pyramid(k, MINI + (0.12 if k == "Y" else 0.0)) for k in PIECE_SIZE}
        self.icons = {k: pyramid(k, 0.62) for k in PIECE_SIZE}
        self.select = ring(c.GOLD, 5)
        self.tie = ring(c.RED, 4)
        self.target = dot(TARGET, 10)
        self.capture_target = ring(TARGET, 5)
        self.cross = cross(13)
        self.crown = crown()
        self.palette = c.build_palette(FLAT, BLENDS)


ASSETS = c.Once(Assets)


def background(title: str) -> Image.Image:
    """Bars, title, the empty board with its coordinates and the panel: drawn once per title text."""
    img = Image.new("RGB", (W, H), c.SAND)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, W, HEADER_H), fill=c.BAR)
    d.rectangle((0, H - CAPTION_H, W, H), fill=c.BAR)
    d.rectangle((BX0 - 4, BY0 - 4, BX1 + 3, BY1 + 3), fill=EDGE)
    for r in range(5):
        for f in range(5):
            d.rectangle(cell_box(f, r), fill=LIGHT if (f + r) % 2 else DARK)
    for k in range(5):  # coordinates: files under the board, ranks on its left (rank 1 at the bottom)
        x0, y0, x1, y1 = cell_box(k, k)
        c.text(d, ((x0 + x1) / 2, BY1 + 16), "abcde"[k], 18, c.INK, bold=True, anchor="mm")
        c.text(d, (BX0 - 17, (y0 + y1) / 2), str(k + 1), 18, c.INK, bold=True, anchor="mm")
    d.rounded_rectangle(PANEL, 12, fill=c.PAPER, outline=c.SAND_DARK, width=2)
    c.text(d, (14, HEADER_H / 2), title, 22, c.CREAM, bold=True, anchor="lm", max_width=260)
    return img


backgrounds = c.Memo(background, limit=16)
# the panel's parts kept as drawn on each background (render.uonga.board), by the same title
kept = c.Memo(lambda title: c.Kept(32), limit=16)
