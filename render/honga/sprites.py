"""Honga sprite painters and their caches: painted once, pasted on every board afterwards.

``ASSETS`` holds the sprites without words and the palette (once per process); ``lettered(texts)``
holds the background with the field names (once per language). Disk sprites are cached by what
they show (colour, hand counts, faded quarters, highlight), which repeats a lot between boards.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image, ImageDraw

from engine.games.honga_data import GRID  # the field positions are rules data (R3)
from render import common as c
from render.common import RGB
from render.honga import style as st

Draw = ImageDraw.ImageDraw


# --- small icons (painted at 2x, see common.sprite) -----------------------------------------------------


def fish(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.ellipse((s * 0.08, s * 0.25, s * 0.72, s * 0.75), fill=st.FISH)
        d.polygon([(s * 0.62, s * 0.5), (s * 0.98, s * 0.22), (s * 0.98, s * 0.78)], fill=st.FISH)
        d.ellipse((s * 0.2, s * 0.4, s * 0.3, s * 0.5), fill=c.WHITE)

    return c.sprite(size, size, paint)


def berry(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        for cx, cy in ((0.32, 0.62), (0.68, 0.62), (0.5, 0.36)):
            r = 0.2 * s
            d.ellipse((cx * s - r, cy * s - r, cx * s + r, cy * s + r), fill=st.BERRY)
        d.polygon([(s * 0.5, s * 0.2), (s * 0.8, s * 0.02), (s * 0.66, s * 0.26)], fill=st.LEAF)

    return c.sprite(size, size, paint)


def mushroom(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.rectangle((s * 0.38, s * 0.45, s * 0.62, s * 0.95), fill=st.STEM)
        d.pieslice((s * 0.04, s * 0.08, s * 0.96, s * 0.9), 180, 360, fill=st.CAP)
        for cx in (0.3, 0.62):
            d.ellipse((cx * s, s * 0.24, cx * s + s * 0.1, s * 0.34), fill=c.WHITE)

    return c.sprite(size, size, paint)


def water(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.ellipse((s * 0.2, s * 0.38, s * 0.8, s * 0.98), fill=st.WATER)
        d.polygon([(s * 0.5, s * 0.02), (s * 0.22, s * 0.6), (s * 0.78, s * 0.6)], fill=st.WATER)

    return c.sprite(size, size, paint)


def mammoth(size: int, body: RGB) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        line = max(1, k)
        d.ellipse((s * 0.2, s * 0.22, s * 0.98, s * 0.78), fill=body, outline=c.INK, width=line)
        for x in (0.3, 0.75):
            d.rectangle((s * x, s * 0.6, s * (x + 0.14), s * 0.95), fill=body, outline=c.INK, width=line)
        d.ellipse((s * 0.02, s * 0.18, s * 0.44, s * 0.6), fill=body, outline=c.INK, width=line)
        d.line((s * 0.1, s * 0.5, s * 0.06, s * 0.92), fill=c.INK, width=3 * line)
        d.arc((s * 0.02, s * 0.4, s * 0.3, s * 0.8), 40, 170, fill=st.IVORY, width=3 * line)

    return c.sprite(size, size, paint)


def tusk(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.arc((s * 0.05, -s * 0.35, s * 1.25, s * 0.9), 95, 185, fill=c.INK, width=round(s * 0.24))
        d.arc((s * 0.09, -s * 0.31, s * 1.21, s * 0.86), 95, 185, fill=st.IVORY, width=round(s * 0.16))

    return c.sprite(size, size, paint)


def tiger(size: int) -> Image.Image:
    """HONGA's head: orange with black stripes."""

    def paint(d: Draw, k: int) -> None:
        s = size * k
        w = max(1, k)
        for ex in (0.12, 0.64):
            d.ellipse((s * ex, s * 0.04, s * (ex + 0.26), s * 0.34), fill=st.TIGER, outline=c.INK, width=w)
        d.ellipse((s * 0.08, s * 0.14, s * 0.92, s * 0.96), fill=st.TIGER, outline=c.INK, width=2 * w)
        for x0, x1 in ((0.38, 0.44), (0.56, 0.62)):
            d.polygon([(s * x0, s * 0.16), (s * x1, s * 0.16), (s * 0.5, s * 0.34)], fill=c.INK)
        for ex in (0.3, 0.6):
            d.ellipse((s * ex, s * 0.42, s * (ex + 0.1), s * 0.52), fill=c.INK)
        d.polygon([(s * 0.42, s * 0.62), (s * 0.58, s * 0.62), (s * 0.5, s * 0.7)], fill=c.INK)
        for side in (0.36, 0.64):
            d.polygon([(s * (side - 0.04), s * 0.74), (s * (side + 0.04), s * 0.74), (s * side, s * 0.92)],
                      fill=c.WHITE)  # fmt: skip

    return c.sprite(size, size, paint)


def fire(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.polygon([(s * 0.5, 0), (s * 0.9, s * 0.6), (s * 0.5, s), (s * 0.1, s * 0.6)], fill=c.RED)
        d.polygon([(s * 0.5, s * 0.35), (s * 0.72, s * 0.7), (s * 0.5, s * 0.95), (s * 0.28, s * 0.7)],
                  fill=c.GOLD)  # fmt: skip

    return c.sprite(size, size, paint)


def card_back(w: int, h: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        d.rounded_rectangle(
            (0, 0, w * k - 1, h * k - 1), radius=3 * k, fill=st.CARD_BACK, outline=c.INK, width=k
        )
        d.line((w * k * 0.25, h * k * 0.5, w * k * 0.75, h * k * 0.5), fill=c.CREAM, width=k)

    return c.sprite(w, h, paint)


def pawn(size: int, colour: RGB) -> Image.Image:
    """A caveman on the mountain."""

    def paint(d: Draw, k: int) -> None:
        s = size * k
        d.polygon([(s * 0.2, s * 0.98), (s * 0.8, s * 0.98), (s * 0.62, s * 0.4), (s * 0.38, s * 0.4)],
                  fill=colour, outline=c.INK)  # fmt: skip
        d.ellipse((s * 0.28, s * 0.02, s * 0.72, s * 0.46), fill=colour, outline=c.INK, width=k)

    return c.sprite(size, size, paint)


def crown(size: int) -> Image.Image:
    def paint(d: Draw, k: int) -> None:
        s = size * k
        pts = [(0.05, 0.85), (0.05, 0.3), (0.3, 0.55), (0.5, 0.15), (0.7, 0.55), (0.95, 0.3), (0.95, 0.85)]
        d.polygon([(x * s, y * s) for x, y in pts], fill=c.GOLD, outline=c.INK, width=k)

    return c.sprite(size, size, paint)


# --- disks -----------------------------------------------------------------------------------------------


class DiskKey(NamedTuple):
    colour: str  # "grey" | "red"
    hands: tuple[int, int, int, int]  # per screen quadrant UL, UR, LR, LL
    faded: tuple[bool, bool, bool, bool]  # quadrants whose hands are used up this turn
    hot: bool  # the disk placed this turn


class DiskBase(NamedTuple):
    """What a disk shows apart from its hand counts."""

    colour: str
    faded: tuple[bool, bool, bool, bool]
    hot: bool


def disk_base(key: DiskBase) -> Image.Image:
    """A round action disk seen from above with its cross, without numbers. Kept apart from the
    numbers because painting it (2x supersampled) is the slow part and few disks differ only here."""
    r = st.DISK_R
    size = 2 * r + 8
    fill = st.RED_DISK if key.colour == "red" else st.GREY_DISK

    def paint(d: Draw, k: int) -> None:
        cx = cy = size * k / 2
        rr = r * k
        if key.hot:
            d.ellipse((cx - rr - 4 * k, cy - rr - 4 * k, cx + rr + 4 * k, cy + rr + 4 * k), fill=c.GOLD)
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=st.DISK_LINE, width=2 * k)
        for q, (dx, dy) in enumerate(st.QUARTER_DIR):
            if key.faded[q]:
                start = {(-1, -1): 180, (1, -1): 270, (1, 1): 0, (-1, 1): 90}[(dx, dy)]
                d.pieslice((cx - rr + k, cy - rr + k, cx + rr - k, cy + rr - k), start, start + 90,
                           fill=st.FADED)  # fmt: skip
        d.line((cx - rr, cy, cx + rr, cy), fill=st.DISK_LINE, width=2 * k)
        d.line((cx, cy - rr, cx, cy + rr), fill=st.DISK_LINE, width=2 * k)

    return c.sprite(size, size, paint)


def disk(key: DiskKey, base: Image.Image) -> Image.Image:
    """``base`` (the ``disk_base`` for ``key``) with the hand count in each quarter."""
    r = st.DISK_R
    size = 2 * r + 8
    img = base.copy()
    dr = ImageDraw.Draw(img)
    for q, (dx, dy) in enumerate(st.QUARTER_DIR):
        n = key.hands[q]
        if n:
            ink = c.INK if key.faded[q] else c.WHITE
            xy = (size / 2 + dx * r * 0.45, size / 2 + dy * r * 0.45)
            dr.text(xy, str(n), font=c.font(22, True), fill=ink, anchor="mm")
    return img


def empty_space() -> Image.Image:
    r = st.DISK_R

    def paint(d: Draw, k: int) -> None:
        size = (2 * r + 8) * k
        for a in range(0, 360, 20):
            d.arc((4 * k, 4 * k, size - 4 * k, size - 4 * k), a, a + 10, fill=st.GRID_LINE, width=2 * k)

    return c.sprite(2 * r + 8, 2 * r + 8, paint)


# --- caches ---------------------------------------------------------------------------------------------


class Assets:
    """Sprites without words, and the palette."""

    def __init__(self) -> None:
        self.res = {"f": fish(st.ICON), "b": berry(st.ICON), "m": mushroom(st.ICON), "w": water(st.ICON)}
        self.mini = {"f": fish(st.MINI), "b": berry(st.MINI), "m": mushroom(st.MINI), "w": water(st.MINI)}
        self.big = {"f": fish(44), "b": berry(44), "m": mushroom(44), "w": water(44)}
        self.mammoths = [mammoth(26, col) for col in st.PLAYER]
        self.row_mammoths = [mammoth(st.ICON, col) for col in st.PLAYER]
        self.plain_mammoth = mammoth(st.MINI + 2, st.MAMMOTH)
        self.big_mammoth = mammoth(40, st.MAMMOTH)
        self.tusk, self.big_tusk = tusk(22), tusk(30)
        self.tiger, self.big_tiger = tiger(24), tiger(64)
        self.fire = fire(20)
        self.card = card_back(13, 18)
        self.big_card = card_back(26, 36)
        self.pawns = [pawn(18, col) for col in st.PLAYER]
        self.crown = crown(24)
        self.empty = empty_space()
        self.palette = c.build_palette(st.FLAT, st.BLENDS)
        # at most 2 colours x 16 faded patterns x hot: the Memo never drops a base in practice
        self._disk_bases: c.Memo[DiskBase, Image.Image] = c.Memo(disk_base, limit=64)
        self._disks: c.Memo[DiskKey, Image.Image] = c.Memo(self._disk, limit=512)

    def _disk(self, key: DiskKey) -> Image.Image:
        return disk(key, self._disk_bases.get(DiskBase(key.colour, key.faded, key.hot)))

    def disk(self, key: DiskKey) -> Image.Image:
        return self._disks.get(key)


ASSETS = c.Once(Assets)


class Texts(NamedTuple):
    """The words painted into the cached background: the title and the field names."""

    title: str
    fields: tuple[tuple[str, str], ...]  # (field code, name)


def _field_label(d: Draw, fld: str, name: str, box: tuple[int, int, int, int]) -> None:
    """Field names sit on the tile side away from the disks (see st.SPACE_CORNER)."""
    x0, y0, x1, y1 = box
    bottom = fld in ("forest", "lake", "mammoths")
    y = y1 - 14 if bottom else y0 + 14
    if fld == "berries":
        xy, anchor = (x0 + 10, y), "lm"
    elif fld == "spring":
        xy, anchor = (x1 - 10, y), "rm"
    else:
        xy, anchor = ((x0 + x1) / 2, y), "mm"
    width = 2 * st.TILE - 2 * st.DISK_R - 24 if fld in ("mountain", "lake") else st.TILE - st.DISK_R - 16
    text, size = c.fit_size(name, 15, True, width, 10)
    c.text(d, xy, text, size, c.INK, bold=True, anchor=anchor)


def _mountain_steps(d: Draw, box: tuple[int, int, int, int]) -> None:
    x0, y0, _, _ = box
    for step in range(6):
        sx = x0 + 24 + step * 20
        top = y0 + 118 - step * 14
        d.rectangle((sx, top, sx + 19, y0 + 124), fill=st.STONE, outline=st.GRID_LINE)
        c.text(d, (sx + 10, top + 8), str(step), 11, c.WHITE, bold=True, anchor="mm")


def background(texts: Texts) -> Image.Image:
    """Header and caption bars, the grid with field names and pictures, the panel's paper."""
    a = ASSETS.get()
    img = Image.new("RGB", (st.W, st.H), c.PAPER)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, st.W, st.HEADER_H), fill=c.BAR)
    d.rectangle((0, st.H - st.CAPTION_H, st.W, st.H), fill=c.BAR)
    c.text(d, (14, st.HEADER_H / 2), texts.title, 22, c.GOLD, bold=True, anchor="lm", max_width=220)
    names = dict(texts.fields)
    for row, line in enumerate(GRID):
        for col, fld in enumerate(line):
            box = st.tile_box(col, row)
            d.rectangle(box, fill=st.TILE_COL[fld], outline=st.GRID_LINE, width=2)
            if fld in names:  # HONGA's field is labelled per board (his name moves with him)
                _field_label(d, fld, names[fld], box)
            cx, cy = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
            if fld in ("lake", "spring", "berries", "mushrooms"):
                code = {"lake": "f", "spring": "w", "berries": "b", "mushrooms": "m"}[fld]
                dx = 18 if fld == "spring" else -18 if fld == "berries" else 0
                c.paste(img, a.big[code], (cx + dx, cy + (-12 if fld == "lake" else 0)), center=True)
            elif fld == "forest":
                c.paste(img, a.big_card, (cx - 22, cy + 8), center=True)
                d.polygon([(cx + 10, cy - 24), (cx + 34, cy + 18), (cx - 14, cy + 18)], fill=st.LEAF)
                d.rectangle((cx + 6, cy + 18, cx + 14, cy + 30), fill=st.MAMMOTH)
            elif fld == "trade":
                c.paste(img, a.big_card, (cx - 16, cy - 12), center=True)
                c.paste(img, a.big_card, (cx - 2, cy - 2), center=True)
            elif fld == "mountain":
                _mountain_steps(d, box)
    return img


KEPT = 64  # rows and trade cards kept per language (about 0.1 MB each)


class Lettered:
    """The background carrying the words, and the parts of boards drawn on it that are kept as drawn
    (the trade cards, the players' rows: ``render.honga.board``)."""

    def __init__(self, texts: Texts) -> None:
        self.bg = background(texts)
        self.kept = c.Kept(KEPT)


lettered = c.Memo(Lettered, limit=16).get
