"""The 🎓 overlay on a Honga board (render.lesson): a placement ("place.ne.2") rings its space, its
badge on the side of the field quarter 1 faces (the disk in hand is private: the caption names the
turn in words too); a hand's use marks its field ("berry", "climb", "lure.ff", "skip.forest"), a
trade its card ("trade.2.fb"); a water conversion, a bonus card or ending the turn marks the
player's own row."""

from __future__ import annotations

import math
from typing import Any

from PIL import ImageDraw

from engine.games.honga_data import GRID, NEIGHBOURS, SPACES
from render import lesson
from render.common import Box
from render.honga import style as st

FIELD_OF = {  # action kind -> the field its hand points at
    "fish": "lake",
    "water": "spring",
    "berry": "berries",
    "mushroom": "mushrooms",
    "draw": "forest",
    "climb": "mountain",
    "lure": "mammoths",
}
OWN_ROW = ("convert", "card", "end")


def _placement(d: ImageDraw.ImageDraw, space: str, rot: int, better: bool) -> None:
    """A ring round the space, the choice's badge on it towards the field quarter 1 faces (R10)."""
    cx, cy = st.corner_xy(space)
    r = st.DISK_R + (4 if better else 10)
    lesson.ring(d, (cx, cy), r, better)
    tile = _tile(NEIGHBOURS[space][rot % 4])
    if tile is not None:
        dx, dy = (tile[0] + tile[2]) / 2 - cx, (tile[1] + tile[3]) / 2 - cy
        k = r / max(1.0, math.hypot(dx, dy))
        lesson.badge(d, (cx + dx * k, cy + dy * k), better)


def _tile(fld: str) -> Box | None:
    for row, line in enumerate(GRID):
        if fld in line:
            x0, y0, x1, y1 = st.tile_box(line.index(fld), row)
            return x0 + 6, y0 + 6, x1 - 6, y1 - 6
    return None


def targets(code: str, spots: dict[str, Any], seat: Any) -> list[Box]:
    """The boxes of the board that show choice ``code`` (none for a code it does not show)."""
    kind, *args = code.split(".")
    fld = FIELD_OF.get(kind) or (args[0] if kind == "skip" and args else None)
    tile = _tile(fld) if fld else None
    if tile is not None:
        return [tile]
    if kind == "trade" and args and args[0].isdigit():
        card = spots.get("cards", {}).get(int(args[0]))
        return [card] if card else []
    row = spots.get("rows", {}).get(seat)
    return [row] if kind in OWN_ROW and row else []


def draw(d: ImageDraw.ImageDraw, spots: dict[str, Any], seat: Any, x: lesson.Lesson) -> None:
    for code, better in x.marks():
        kind, *args = code.split(".")
        if kind == "place" and len(args) == 2 and args[0] in SPACES and args[1].isdigit():
            _placement(d, args[0], int(args[1]), better)
        else:
            lesson.boxes(d, targets(code, spots, seat), better)
