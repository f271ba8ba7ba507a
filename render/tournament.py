"""Tournament pictures: the standings table posted after each round and the final podium.

Drawn from plain frozen dataclasses (no ``engine`` or ``bot`` import: these are drawn in the bot's
drawing processes too). Every word comes in already translated and formatted by the bot: titles,
column headers, ranks ("=3"), points ("3½"), tie-breaks and records; the renderer only lays them
out, fits them (long names are cut with "…" between grapheme clusters) and drops characters the
bundled font cannot draw (emoji), as every board does. Same input, same PNG bytes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render import common as c
from render import png
from render.common import RGB
from render.graphemes import fit_names

# --- input ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """One player's row, every field as shown."""

    rank: str  # "1", "2", "=3" ...
    name: str  # display name (any Unicode: clipped with "…", undrawable characters dropped)
    points: str  # "3½" or "2.67"
    tiebreaks: tuple[str, ...]  # one per tie-break column, e.g. ("7½", "5¼")
    record: str  # "3-1-0" or "W W L"
    dropped: bool = False  # greyed out, struck through, with a small ✗ marker
    highlight: bool = False  # e.g. the round's leaders: a golden row


@dataclass(frozen=True)
class StandingsPicture:
    title: str  # "Spring Uonga Swiss — after round 2 of 4"
    subtitle: str  # "Uonga · Swiss · 9 players"
    headers: tuple[str, ...]  # ("#", "Player", "Pts", *tie-break headers, "W-D-L")
    lines: tuple[Line, ...]  # any number; from 33 rows on they are drawn denser
    footer: str = ""  # e.g. "Next: round 3 starts now"


@dataclass(frozen=True)
class PodiumPicture:
    title: str  # "Spring Uonga Swiss — final standings"
    places: tuple[tuple[str, str], ...]  # (name, points) of 1st, 2nd, 3rd (1-3 entries)
    rest: tuple[Line, ...] = ()  # the following ranks, drawn as a compact table under the podium
    headers: tuple[str, ...] = ()  # headers of that table (none: no header row)


# --- look ----------------------------------------------------------------------------------------------

W = 960  # Discord shows it about 400 px wide on a phone: 20 px text stays readable
PAD = 24
PNG_LEVEL = 3  # mostly flat: level 3 deflates 2x faster than 6 for a few % more bytes
TITLE_SIZE, SUBTITLE_SIZE, HEAD_SIZE, FOOTER_SIZE = 28, 20, 20, 20
TITLE_H = 62  # the bar with the title alone
HEADER_H = 92  # the bar with title and subtitle
HEAD_ROW_H = 42  # the table's column headers
FOOTER_H = 50
RADIUS = 10
DENSE_FROM = 33  # this many rows or more: smaller rows (64 rows stay about 2.4k px tall)
MIN_NAME_W = 300  # the name column keeps at least this much; other columns shrink before it

ROW: RGB = (242, 233, 211)  # every other row (the honga/uonga panel's row shade)
HILITE_EDGE: RGB = (214, 160, 40)
DROPPED_FILL: RGB = (236, 228, 212)
# the podium: three stone blocks tinted gold (amber sandstone), silver (flint) and bronze (red ochre)
STONES: dict[int, tuple[RGB, RGB, RGB, RGB]] = {  # front, top face, edge, medal disc
    1: ((226, 188, 104), (240, 212, 146), (150, 110, 44), c.GOLD),
    2: ((190, 188, 178), (214, 212, 204), (110, 108, 100), (176, 180, 186)),
    3: ((204, 142, 96), (224, 176, 136), (128, 76, 42), (190, 112, 52)),
}
IVORY: RGB = (242, 228, 194)  # the winner's mammoth tusks
IVORY_EDGE: RGB = (150, 120, 82)
GROUND: RGB = (168, 140, 104)

FLAT = (*c.BASE_COLOURS, ROW, HILITE_EDGE, DROPPED_FILL, *(x for st in STONES.values() for x in st))
FLAT += (IVORY, IVORY_EDGE, GROUND)
BLENDS: tuple[tuple[RGB, RGB], ...] = (  # antialiased text edges, most visible first
    (c.INK, c.PAPER),
    (c.INK, ROW),
    (c.CREAM, c.BAR),
    (c.INK, c.SAND),
    (c.INK, c.HILITE),
    (c.MUTED, c.PAPER),
    (c.MUTED, ROW),
    (c.MUTED, DROPPED_FILL),
    (c.SAND, c.BAR),
    *((c.INK, STONES[p][0]) for p in STONES),
    *((STONES[p][2], STONES[p][0]) for p in STONES),
    *((c.INK, STONES[p][3]) for p in STONES),
    (IVORY_EDGE, c.PAPER),
    (IVORY, c.PAPER),
    (c.SAND_DARK, c.PAPER),
)
PALETTE = c.Once(lambda: c.build_palette(FLAT, BLENDS))


def encode(img: Image.Image) -> bytes:
    """``common.encode_png`` without the boards' 25 KiB budget: a table of 32 rows is 70-90 KiB at
    any level, and deflating it again as one stream at level 6 doubled the time of a render."""
    return png.write(img.quantize(palette=PALETTE.get(), dither=Image.Dither.NONE), PNG_LEVEL)


@dataclass(frozen=True)
class Size:
    """Row height and text sizes of a table."""

    row: int
    name: int
    points: int
    small: int


NORMAL = Size(row=46, name=23, points=25, small=21)
DENSE = Size(row=35, name=20, points=21, small=20)


@lru_cache(maxsize=4096)
def _clean(s: str) -> str:
    return c.displayable(s)


@lru_cache(maxsize=4096)
def _name(s: str) -> str:
    """A name as the font can draw it; "?" when nothing of it can be drawn (an emoji-only name)."""
    return c.displayable(s) or ("?" if c.clean_text(s) else "")


# --- the table -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """Where a table's columns sit: (x0, x1) of the rank, name, points, tie-break and record cells
    (the record's is None when there is no record column), and its rows' size."""

    rank: tuple[int, int]
    name: tuple[int, int]
    points: tuple[int, int]
    tiebreaks: tuple[tuple[int, int], ...]
    record: tuple[int, int] | None
    size: Size

    def cells(self) -> list[tuple[int, int]]:
        return [self.rank, self.name, self.points, *self.tiebreaks, *([self.record] if self.record else [])]


def _header(headers: Sequence[str], i: int) -> str:
    return _clean(headers[i]) if i < len(headers) else ""


def layout(headers: Sequence[str], lines: Sequence[Line], x0: int = PAD, x1: int = W - PAD) -> Layout:
    """Column widths from what they hold (the widest header or value plus margins), the name column
    taking the rest; when that leaves it under ``MIN_NAME_W`` the tie-break and record columns
    shrink (their texts are then cut with "…")."""
    size = DENSE if len(lines) >= DENSE_FROM else NORMAL
    n_tb = max([len(line.tiebreaks) for line in lines] + [len(headers) - 4, 0])
    has_record = any(line.record for line in lines) or len(headers) >= 4 + n_tb

    def need(i: int, values: list[str], text_size: int, bold: bool, lo: int, hi: int) -> int:
        widths = [c.text_width(_header(headers, i), HEAD_SIZE, True)]
        widths += [c.text_width(_clean(v), text_size, bold) for v in values]
        return int(min(hi, max(lo, max(widths) + 28)))

    rank_w = need(0, [line.rank for line in lines], size.small, True, 56, 90)
    points_w = need(2, [line.points for line in lines], size.points, True, 76, 140)
    tb_w = [
        need(
            3 + k,
            [line.tiebreaks[k] if k < len(line.tiebreaks) else "" for line in lines],
            size.small,
            False,
            76,
            150,
        )
        for k in range(n_tb)
    ]
    record_w = (
        need(3 + n_tb, [line.record for line in lines], size.small, False, 90, 180) if has_record else 0
    )
    room = x1 - x0 - rank_w - points_w
    flexible = sum(tb_w) + record_w
    if flexible and room - flexible < MIN_NAME_W:
        scale = max(0.0, room - MIN_NAME_W) / flexible
        tb_w = [max(36, int(w * scale)) for w in tb_w]
        record_w = max(36, int(record_w * scale)) if has_record else 0
    name_w = max(60, room - sum(tb_w) - record_w)

    x = x0
    cells: list[tuple[int, int]] = []
    for w in (rank_w, name_w, points_w, *tb_w, *([record_w] if has_record else [])):
        cells.append((x, x + w))
        x += w
    return Layout(
        rank=cells[0],
        name=cells[1],
        points=cells[2],
        tiebreaks=tuple(cells[3 : 3 + n_tb]),
        record=cells[3 + n_tb] if has_record else None,
        size=size,
    )


def table_height(lines: Sequence[Line], headers: Sequence[str], lay: Layout) -> int:
    return (HEAD_ROW_H if headers else 0) + len(lines) * lay.size.row


NAME_PAD = 12  # the name's margin inside its column
MARK_W = 30  # room kept after a dropped player's name for the ✗ marker


def _draw_table(
    d: ImageDraw.ImageDraw, y: int, headers: Sequence[str], lines: Sequence[Line], lay: Layout
) -> int:
    """The table (a rounded frame, column headers if any, rows shaded alternately) from ``y``;
    returns the y under it."""
    x0, x1 = lay.rank[0], lay.cells()[-1][1]
    size = lay.size
    bottom = y + table_height(lines, headers, lay)
    if bottom == y:
        return y
    c.rounded_box(d, (x0, y, x1, bottom), RADIUS, fill=c.PAPER)
    top = y
    if headers:
        d.rounded_rectangle(
            (x0, y, x1, y + HEAD_ROW_H), RADIUS, fill=c.SAND, corners=(True, True, False, False)
        )
        for i, (a, b) in enumerate(lay.cells()):
            head = _header(headers, i)
            if not head:
                continue
            fitted, fs = c.fit_size(head, HEAD_SIZE, True, b - a - 12, 15)
            if i == 1:
                c.text(d, (a + NAME_PAD, y + HEAD_ROW_H / 2), fitted, fs, c.INK, bold=True, anchor="lm")
            else:
                c.text(d, ((a + b) / 2, y + HEAD_ROW_H / 2), fitted, fs, c.INK, bold=True, anchor="mm")
        y += HEAD_ROW_H
        d.line((x0, y - 1, x1, y - 1), fill=c.SAND_DARK, width=2)
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        fill = c.HILITE if line.highlight else DROPPED_FILL if line.dropped else ROW if i % 2 else c.PAPER
        if fill != c.PAPER:
            if last:
                d.rounded_rectangle(
                    (x0, y, x1, y + size.row), RADIUS, fill=fill, corners=(False, False, True, True)
                )
            else:
                d.rectangle((x0, y, x1, y + size.row - 1), fill=fill)
        if line.highlight:
            d.rectangle((x0 + 3, y + 4, x0 + 8, y + size.row - 5), fill=HILITE_EDGE)
        _draw_row(d, y, line, lay)
        y += size.row
    c.rounded_box(d, (x0, top, x1, bottom), RADIUS, outline=c.SAND_DARK, width=2)
    return bottom


def _draw_row(d: ImageDraw.ImageDraw, y: int, line: Line, lay: Layout) -> None:
    size = lay.size
    mid = y + size.row / 2
    ink = c.MUTED if line.dropped else c.INK

    def centred(cell: tuple[int, int], s: str, text_size: int, bold: bool) -> None:
        a, b = cell
        c.text(d, ((a + b) / 2, mid), _clean(s), text_size, ink, bold=bold, anchor="mm", max_width=b - a - 10)

    centred(lay.rank, line.rank, size.small, True)
    a, b = lay.name
    room = b - a - 2 * NAME_PAD - (MARK_W if line.dropped else 0)
    name = c.fit_text(_name(line.name), size.name, False, room)
    w = c.text(d, (a + NAME_PAD, mid), name, size.name, ink, anchor="lm")
    if line.dropped:
        d.line((a + NAME_PAD - 2, round(mid), a + NAME_PAD + w + 2, round(mid)), fill=c.MUTED, width=2)
        mx = a + NAME_PAD + w + MARK_W / 2 + 2
        r = size.small * 0.42
        d.ellipse((mx - r, mid - r, mx + r, mid + r), outline=c.MUTED, width=2)
        k = r * 0.45
        d.line((mx - k, mid - k, mx + k, mid + k), fill=c.MUTED, width=2)
        d.line((mx - k, mid + k, mx + k, mid - k), fill=c.MUTED, width=2)
    centred(lay.points, line.points, size.points, True)
    for k, cell in enumerate(lay.tiebreaks):
        centred(cell, line.tiebreaks[k] if k < len(line.tiebreaks) else "", size.small, False)
    if lay.record:
        centred(lay.record, line.record, size.small, False)


def _title_bar(d: ImageDraw.ImageDraw, title: str, subtitle: str = "") -> int:
    h = HEADER_H if subtitle else TITLE_H
    d.rectangle((0, 0, W, h), fill=c.BAR)
    title_y = 34 if subtitle else h / 2
    fitted, fs = c.fit_size(_clean(title), TITLE_SIZE, True, W - 2 * PAD, 20)
    c.text(d, (PAD, title_y), fitted, fs, c.CREAM, bold=True, anchor="lm")
    if subtitle:
        c.text(d, (PAD, 70), _clean(subtitle), SUBTITLE_SIZE, c.SAND, anchor="lm", max_width=W - 2 * PAD)
    return h


def _footer(d: ImageDraw.ImageDraw, y: int, footer: str) -> None:
    d.rectangle((0, y, W, y + FOOTER_H), fill=c.BAR)
    c.text(
        d,
        (PAD, y + FOOTER_H / 2),
        _clean(footer),
        FOOTER_SIZE,
        c.CREAM,
        bold=True,
        anchor="lm",
        max_width=W - 2 * PAD,
    )


def standings_layout(picture: StandingsPicture) -> tuple[Layout, int]:
    """The table's columns and the y of its first row (tests check that text stays in its cell)."""
    lay = layout(picture.headers, picture.lines)
    top = (HEADER_H if picture.subtitle else TITLE_H) + 20
    return lay, top + (HEAD_ROW_H if picture.headers else 0)


def standings_png(picture: StandingsPicture) -> bytes:
    """The standings table: a title bar, a row per player (rank, name, points in bold, tie-breaks,
    record), alternate rows shaded, highlighted rows golden, dropped players greyed and struck
    through; the footer in a bar under it. 960 px wide; the height grows with the rows."""
    lay = layout(picture.headers, picture.lines)
    head = HEADER_H if picture.subtitle else TITLE_H
    body = table_height(picture.lines, picture.headers, lay)
    height = head + 20 + body + 20 + (FOOTER_H if picture.footer else 0)
    img = Image.new("RGB", (W, height), c.PAPER)
    d = ImageDraw.Draw(img)
    _title_bar(d, picture.title, picture.subtitle)
    y = _draw_table(d, head + 20, picture.headers, picture.lines, lay) + 20
    if picture.footer:
        _footer(d, y, picture.footer)
    return encode(img)


# --- the podium ----------------------------------------------------------------------------------------

BLOCK_W = 272
BLOCK_GAP = 20
BLOCK_H = {1: 196, 2: 148, 3: 112}
TOP_FACE = 18  # the lighter top of a block, drawn in perspective
CENTRE = {1: W // 2, 2: W // 2 - BLOCK_W - BLOCK_GAP, 3: W // 2 + BLOCK_W + BLOCK_GAP}
STAGE = 370  # from the title bar to the ground line: the winner's disc, tusks, name and block
GROUND_H = 14
NAME_SIZE, POINTS_SIZE, DISC_R = 26, 36, 30


def _tusks(side_px: int, scale: int) -> Image.Image:
    """A pair of mammoth tusks curving up around the winner's disc: thick at the root below the
    disc, pointed above it (a square sprite centred on the disc, drawn supersampled)."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        cx = cy = side_px / 2 * s
        r = TUSK_R * s
        for side in (-1, 1):
            outer, inner = [], []
            steps = 32
            for i in range(steps + 1):
                t = i / steps
                angle = math.radians(90 + side * (46 + 120 * t))  # from beside the disc, round and up
                thick = (18 * (1 - t) ** 0.8 + 1.5) * s
                ux, uy = math.cos(angle), math.sin(angle)
                outer.append((cx + ux * (r + thick / 2), cy + uy * (r + thick / 2)))
                inner.append((cx + ux * (r - thick / 2), cy + uy * (r - thick / 2)))
            draw.polygon(outer + inner[::-1], fill=(*IVORY, 255), outline=(*IVORY_EDGE, 255), width=2 * s)

    return c.sprite(side_px, side_px, paint, scale)


TUSK_R = 46
TUSKS = c.Once(lambda: _tusks(2 * (TUSK_R + 14), 4))


def _disc(place: int, scale: int = 4) -> Image.Image:
    r = DISC_R
    edge, medal = STONES[place][2], STONES[place][3]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.ellipse(
            (2 * s, 2 * s, (2 * r + 2) * s, (2 * r + 2) * s),
            fill=(*medal, 255),
            outline=(*edge, 255),
            width=3 * s,
        )
        draw.ellipse((9 * s, 9 * s, (2 * r - 5) * s, (2 * r - 5) * s), outline=(*edge, 255), width=s)

    return c.sprite(2 * r + 4, 2 * r + 4, paint, scale)


DISCS = c.Memo(_disc, limit=3)


def _block(d: ImageDraw.ImageDraw, place: int, ground: int) -> tuple[int, int, int]:
    """A stone block for ``place`` standing on ``ground``: a lighter top face in perspective, the
    front with a few chisel marks. Returns (x0, top of the top face, x1)."""
    front, top_face, edge, _ = STONES[place]
    x0, x1 = CENTRE[place] - BLOCK_W // 2, CENTRE[place] + BLOCK_W // 2
    top = ground - BLOCK_H[place]
    d.polygon(
        [(x0 + 14, top - TOP_FACE), (x1 - 14, top - TOP_FACE), (x1, top), (x0, top)],
        fill=top_face,
        outline=edge,
        width=2,
    )
    d.rectangle((x0, top, x1, ground), fill=front, outline=edge, width=3)
    # chisel marks: short strokes near the corners, the same for every block of a place
    for dx, dy, ex, ey in (
        (14, 14, 34, 20),
        (x1 - x0 - 40, BLOCK_H[place] - 22, x1 - x0 - 16, BLOCK_H[place] - 30),
    ):
        d.line((x0 + dx, top + dy, x0 + ex, top + ey), fill=edge, width=2)
    d.line((x1 - 26, top + 10, x1 - 18, top + 26), fill=edge, width=2)
    return x0, top - TOP_FACE, x1


def _podium_height(picture: PodiumPicture) -> tuple[int, Layout | None]:
    height = TITLE_H + STAGE + GROUND_H + 24
    if not picture.rest:
        return height, None
    lay = layout(picture.headers, picture.rest)
    lay = Layout(lay.rank, lay.name, lay.points, lay.tiebreaks, lay.record, DENSE)
    return height + table_height(picture.rest, picture.headers, lay) + 20, lay


def podium_png(picture: PodiumPicture) -> bytes:
    """The final podium: three stone blocks (1st in the middle, tallest; 2nd left; 3rd right) tinted
    gold, silver and bronze, each player's name standing on their block under a medal disc with the
    place's number (the winner's framed by mammoth tusks), the points on the block's front; the
    following ranks as a compact table underneath."""
    height, lay = _podium_height(picture)
    img = Image.new("RGB", (W, height), c.PAPER)
    d = ImageDraw.Draw(img)
    _title_bar(d, picture.title)
    ground = TITLE_H + STAGE
    d.rectangle((PAD, ground, W - PAD, ground + GROUND_H), fill=GROUND)
    for i, (raw_name, points) in enumerate(picture.places[:3]):
        place = i + 1
        x0, top, x1 = _block(d, place, ground)
        front_mid = (top + TOP_FACE + ground) / 2
        c.text(
            d,
            ((x0 + x1) / 2, front_mid),
            _clean(points),
            POINTS_SIZE,
            c.INK,
            bold=True,
            anchor="mm",
            max_width=x1 - x0 - 24,
        )
        name_y = top - 22
        disc_y = name_y - 22 - DISC_R - (14 if place == 1 else 4)
        if place == 1:
            c.paste(img, TUSKS.get(), (CENTRE[place], disc_y), center=True)
        name, size = c.fit_size(_name(raw_name), NAME_SIZE, True, BLOCK_W - 8, 18)
        c.text(d, (CENTRE[place], name_y), name, size, c.INK, bold=True, anchor="mm")
        c.paste(img, DISCS.get(place), (CENTRE[place], disc_y), center=True)
        c.text(d, (CENTRE[place], disc_y + 1), str(place), 30, c.INK, bold=True, anchor="mm")
    if lay is not None:
        _draw_table(d, ground + GROUND_H + 24, picture.headers, picture.rest, lay)
    return encode(img)


# --- alt text ------------------------------------------------------------------------------------------

ALT_LIMIT = 1024


def standings_alt(picture: StandingsPicture) -> str:
    """The picture as one line of plain text for its alt text (at most 1024 characters): title and
    subtitle, the player and points headers, then each row as "rank. name points" (a dropped
    player's marked ✗), then the footer. When too long the names are shortened (with "…"), so no
    row is left out: 64 rows fit."""
    names = [c.clean_text(line.name) or "?" for line in picture.lines]
    heads = ", ".join(c.clean_text(h) for h in picture.headers[1:3] if c.clean_text(h))
    head = " · ".join(part for part in (c.clean_text(picture.title), c.clean_text(picture.subtitle)) if part)

    def build(shown: list[str]) -> str:
        rows = [
            f"{c.clean_text(line.rank)}. {name} {c.clean_text(line.points)}" + (" ✗" if line.dropped else "")
            for line, name in zip(picture.lines, shown, strict=True)
        ]
        text = head + (f". {heads}" if heads else "") + (": " + "; ".join(rows) if rows else "")
        footer = c.clean_text(picture.footer)
        return f"{text}. {footer}" if footer else text

    return fit_names(build, names, ALT_LIMIT)
