"""The 🎓 overlay: a costly decision drawn over the board it was made on (``/replay``, bot.replay).

A ``Lesson`` names two action codes of the game: the better choice and the one made. Each teaching
game's renderer takes it as ``board(..., lesson=Lesson(...))`` and draws both over the position
before the decision with the shapes below: the better choice solid green with a tick, the one made
dashed red with a cross, so the two differ in shape as well as colour. A code a renderer cannot
place on the board draws nothing (the caption names both choices in words). Pure drawing helpers,
safe in any thread.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import ImageDraw

from render import common as c
from render.common import RGB, Box

BETTER: RGB = (22, 128, 58)  # the better choice: solid, with a tick
PLAYED: RGB = c.RED  # the choice made: dashed, with a cross
COLOURS: tuple[RGB, ...] = (BETTER,)  # a teaching game's palette adds these (red is in every palette)
LINE = 4
TICK, CROSS = "✓", "✗"


@dataclass(frozen=True)
class Lesson:
    """The decision to draw: ``better`` and ``played`` are action codes of the game (engine.lessons)."""

    better: str
    played: str

    def marks(self) -> tuple[tuple[str, bool], tuple[str, bool]]:
        """(code, is the better one), the one made first: the better choice is drawn over it."""
        return (self.played, False), (self.better, True)


def colour(better: bool) -> RGB:
    return BETTER if better else PLAYED


def grow(box: Box, by: float) -> Box:
    return box[0] - by, box[1] - by, box[2] + by, box[3] + by


def dashed(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: RGB, width: int
) -> None:
    """A dashed straight line from ``a`` to ``b`` (dashes 10 px, gaps 6 px)."""
    (xa, ya), (xb, yb) = a, b
    length = math.hypot(xb - xa, yb - ya)
    if length < 1:
        return
    ux, uy = (xb - xa) / length, (yb - ya) / length
    t = 0.0
    while t < length:
        end = min(length, t + 10)
        d.line((xa + ux * t, ya + uy * t, xa + ux * end, ya + uy * end), fill=fill, width=width)
        t += 16


def outline(d: ImageDraw.ImageDraw, box: Box, better: bool, radius: float = 8) -> None:
    """A box around a choice: solid green (rounded) for the better one, dashed red for the one made."""
    if better:
        c.rounded_box(d, box, radius, outline=BETTER, width=LINE)
        return
    x0, y0, x1, y1 = box
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))):
        dashed(d, a, b, PLAYED, LINE)


def ring(d: ImageDraw.ImageDraw, centre: tuple[float, float], r: float, better: bool) -> None:
    """A circle around a round choice (a disk's space): solid green, or dashed red."""
    x, y = centre
    if better:
        d.ellipse((x - r, y - r, x + r, y + r), outline=BETTER, width=LINE)
        return
    for k in range(0, 360, 20):  # 18 dashes
        d.arc((x - r, y - r, x + r, y + r), k, k + 12, fill=PLAYED, width=LINE)


def arrow(d: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float], better: bool) -> None:
    """An arrow from ``start`` to ``end`` (a move): solid green, or dashed red; its head stops short
    of the centre so the piece there stays visible."""
    (xa, ya), (xb, yb) = start, end
    length = max(1.0, math.hypot(xb - xa, yb - ya))
    ux, uy = (xb - xa) / length, (yb - ya) / length
    tip = (xb - ux * 20, yb - uy * 20)
    base = (tip[0] - ux * 18, tip[1] - uy * 18)
    fill = colour(better)
    if better:
        d.line((xa, ya, *base), fill=fill, width=6)
    else:
        dashed(d, (xa, ya), base, fill, 6)
    d.ellipse((xa - 6, ya - 6, xa + 6, ya + 6), fill=fill)
    d.polygon(
        [tip, (base[0] - uy * 12, base[1] + ux * 12), (base[0] + uy * 12, base[1] - ux * 12)], fill=fill
    )


def badge(d: ImageDraw.ImageDraw, xy: tuple[float, float], better: bool) -> None:
    """A round badge centred on ``xy``: a white tick on green, or a white cross on red."""
    width, height = d.im.size  # kept whole inside the picture
    x, y = min(max(xy[0], 13), width - 13), min(max(xy[1], 13), height - 13)
    d.ellipse((x - 12, y - 12, x + 12, y + 12), fill=colour(better), outline=c.WHITE, width=2)
    c.text(d, (x, y + 1), TICK if better else CROSS, 16, c.WHITE, bold=True, anchor="mm")


def joined(found: Iterable[Box], gap: float = 12) -> list[Box]:
    """Boxes side by side in one row (dice in a tray) joined into one: one outline says "these"."""
    out: list[Box] = []
    for box in sorted(found, key=lambda b: (b[1], b[0])):
        last = out[-1] if out else None
        if last is not None and (last[1], last[3]) == (box[1], box[3]) and 0 <= box[0] - last[2] <= gap:
            out[-1] = (last[0], last[1], max(last[2], box[2]), last[3])
        else:
            out.append(box)
    return out


def boxes(d: ImageDraw.ImageDraw, found: Iterable[Box], better: bool, radius: float = 8) -> None:
    """Outline every box of one choice (neighbours in a row as one; the one made a little wider, so
    both show on a shared target) and badge the first: top right for the better choice, top left for
    the one made."""
    found = joined(found)
    for box in found:
        outline(d, grow(box, 2 if better else 6), better, radius)
    if found:
        x0, y0, x1, _ = grow(found[0], 2 if better else 6)
        badge(d, (x1 if better else x0, y0), better)
