"""A player's workspace (DM image): the task grid with x/y coordinates, the placed pieces in their
colours, an optional cursor (a candidate placement, green if it fits, red if not) and the tray of
the player's pieces, the ones still in hand in colour and the placed ones faded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from engine.games.ubongo_pieces import PIECES, cells_at
from render import common as c
from render.ubongo.grid import draw_grid, draw_piece, fill_cells, piece_cells, task_cells
from render.ubongo.style import (
    HEADER_H,
    OK_GREEN,
    PAD,
    PALETTE,
    PIECE_RGB,
    PNG_LEVEL,
    STATUS_H,
    W,
    faded,
    label,
    order_label,
)

MAX_CELL = 64
GRID_TOP = HEADER_H + STATUS_H + 10
COORD = 24  # the band of coordinate numbers above and left of the grid
GRID_H = 4 * MAX_CELL  # every task fits 4 rows at full size (R5, stored landscape)
TRAY_TOP = GRID_TOP + COORD + GRID_H + 40
TRAY_CELL = 18
TRAY_BOX_H = 3 * TRAY_CELL + 12
H = TRAY_TOP + 26 + TRAY_BOX_H + 24


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], labels: Mapping[str, str] | None) -> None:
    d.rectangle((0, 0, W, HEADER_H), fill=c.BAR)
    left = label(labels, "your_task")
    if view.get("side") in ("A", "B"):
        left += "  ·  " + label(labels, "side", side=view["side"])
    c.text(d, (PAD, HEADER_H / 2), left, 20, c.CREAM, bold=True, anchor="lm", max_width=W * 0.6)
    n = view.get("round") if isinstance(view.get("round"), int) else 0
    if view.get("mode") == "race":
        right = label(labels, "round", n=n, total=view.get("rounds", 8))
    else:
        right = label(labels, "task_number", n=n)
    c.text(d, (W - PAD, HEADER_H / 2), right, 16, c.CREAM, anchor="rm", max_width=W * 0.35)


def _status(
    d: ImageDraw.ImageDraw, view: dict[str, Any], seat: int | None, labels: Mapping[str, str] | None
) -> None:
    k = view.get("need", 3)
    solved = view.get("solved") or []
    if view.get("done_round") and seat in solved:
        text, colour = label(labels, "solved", order=order_label(labels, solved.index(seat) + 1)), OK_GREEN
    elif view.get("phase") == "countdown":
        text, colour = label(labels, "need_countdown", k=k), c.RED
    else:
        text, colour = label(labels, "need", k=k), c.INK
    c.text(
        d,
        (W / 2, HEADER_H + STATUS_H / 2 + 2),
        text,
        16,
        colour,
        bold=True,
        anchor="mm",
        max_width=W - 2 * PAD,
    )


def _cursor(
    view: dict[str, Any], cursor: Any, cells: set[tuple[int, int]]
) -> tuple[str, tuple, bool, tuple] | None:
    """(piece, cells, fits, (o, x, y)) of a cursor {"piece", "o", "x", "y"}, or None if it is not one."""
    if not isinstance(cursor, Mapping) or cursor.get("piece") not in PIECES:
        return None
    try:
        o, x, y = (int(cursor.get(k, 0)) for k in ("o", "x", "y"))
    except (TypeError, ValueError):
        return None
    piece = cursor["piece"]
    pcs = cells_at(piece, o % 8, x, y)
    taken = {p for cs in piece_cells(view.get("placed")).values() for p in cs}
    in_hand = piece in (view.get("pieces") or [])
    fits = in_hand and set(pcs) <= cells and not taken.intersection(pcs)
    return piece, pcs, fits, (o % 8, x, y)


def _draw_task(
    d: ImageDraw.ImageDraw, view: dict[str, Any], cursor: Any, labels: Mapping[str, str] | None
) -> None:
    rows = view.get("task")
    cells, w, h = task_cells(rows)
    if not cells:
        c.text(
            d,
            (W / 2, GRID_TOP + COORD + GRID_H / 2),
            label(labels, "no_task"),
            20,
            c.MUTED,
            bold=True,
            anchor="mm",
        )
        return
    assert isinstance(rows, list)  # task_cells found cells in it: R6 rows
    cell = min(MAX_CELL, (W - 2 * PAD - COORD) // w, GRID_H // h)
    gx = (W - w * cell + COORD) // 2
    gy = GRID_TOP + COORD + (GRID_H - h * cell) // 2
    for x in range(w):  # coordinates: x along the top, y down the left side (R22's (x, y))
        c.text(d, (gx + x * cell + cell / 2, gy - 14), str(x), 16, c.INK, bold=True, anchor="mm")
    for y in range(h):
        c.text(d, (gx - 18, gy + y * cell + cell / 2), str(y), 16, c.INK, bold=True, anchor="mm")
    c.text(d, (PAD, GRID_TOP + 6), label(labels, "axes"), 15, c.MUTED, anchor="lm")
    draw_grid(d, (gx, gy), cell, rows, view.get("placed"))
    found = _cursor(view, cursor, cells)
    if found is None:
        return
    piece, pcs, fits, spot = found
    visible = [(x, y) for x, y in pcs if 0 <= x < w and 0 <= y < h]
    if fits:
        fill_cells(d, (gx, gy), cell, visible, faded(PIECE_RGB[piece]), OK_GREEN, 4)
    else:
        fill_cells(d, (gx, gy), cell, visible, None, c.RED, 4)
    key = "cursor_ok" if fits else "cursor_bad"
    text = label(labels, key, piece=piece, o=spot[0], x=spot[1], y=spot[2])
    c.text(
        d,
        (W / 2, gy + h * cell + 20),
        text,
        16,
        OK_GREEN if fits else c.RED,
        bold=True,
        anchor="mm",
        max_width=W - 2 * PAD,
    )


def _draw_tray(
    d: ImageDraw.ImageDraw, view: dict[str, Any], cursor: Any, labels: Mapping[str, str] | None
) -> None:
    allowed = [p for p in view.get("allowed") or [] if p in PIECES]
    if not allowed:
        return
    c.text(d, (PAD, TRAY_TOP + 8), label(labels, "in_hand"), 15, c.INK, bold=True, anchor="lm")
    in_hand = set(view.get("pieces") or [])
    box_w = (W - 2 * PAD) // len(allowed)
    top = TRAY_TOP + 24
    chosen = cursor.get("piece") if isinstance(cursor, Mapping) else None
    for i, piece in enumerate(allowed):
        x0 = PAD + i * box_w
        o = 0
        if piece == chosen:  # the piece in the cursor, turned as the cursor turns it
            c.rounded_box(d, (x0 + 2, top - 2, x0 + box_w - 3, top + TRAY_BOX_H + 18), 6, fill=c.HILITE)
            try:
                o = int(cursor.get("o", 0)) % 8
            except (TypeError, ValueError):
                o = 0
        used = piece not in in_hand
        pw, ph = _size(piece, o)
        draw_piece(
            d, (x0 + (box_w - pw) // 2, top + (3 * TRAY_CELL - ph) // 2 + 2), TRAY_CELL, piece, used, o
        )
        name = piece if not used else f"{piece} ✓"
        c.text(
            d,
            (x0 + box_w / 2, top + TRAY_BOX_H + 6),
            name,
            15,
            c.MUTED if used else c.INK,
            bold=True,
            anchor="mm",
        )


def _size(piece: str, o: int) -> tuple[int, int]:
    shape = cells_at(piece, o, 0, 0)
    return (max(x for x, _ in shape) + 1) * TRAY_CELL, (max(y for _, y in shape) + 1) * TRAY_CELL


def render_task(
    view: dict[str, Any],
    seat: int | None = None,
    labels: Mapping[str, str] | None = None,
    cursor: Mapping[str, Any] | None = None,
) -> bytes:
    """PNG of ``seat``'s workspace from its own view (engine ``view(state, seat)``)."""
    if seat is None:
        seat = view.get("seat")
    img = Image.new("RGB", (W, H), c.PAPER)
    d = ImageDraw.Draw(img)
    _header(d, view, labels)
    _status(d, view, seat, labels)
    _draw_task(d, view, cursor, labels)
    _draw_tray(d, view, cursor, labels)
    return c.encode_png(img, PALETTE.get(), PNG_LEVEL)
