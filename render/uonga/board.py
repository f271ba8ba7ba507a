"""Uonga board image: the 5x5 board with its coordinates, the three pyramid sizes, herds joined by a
band, a "Cavemen around / needed" badge on every Mastodon, the last move, the tie candidates, an
optional selection with its destinations, and a panel with both players' points against their targets,
whose turn it is and the placement turn or the moves left before a draw. Drawn from a *view* dict
(engine.games.uonga.public_view); nothing in the view is trusted to be well formed.

Every word on the board comes from ``labels`` (English by default: ``EN_LABELS``); missing keys or
broken templates fall back to English. The look lives in ``render.uonga.style``, the sprites in
``render.uonga.sprites``; this module lays a view out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from PIL import ImageDraw

from render import common as c
from render import lesson as lsn
from render.uonga import lesson as overlay
from render.uonga.sprites import ASSETS, Assets, backgrounds, kept
from render.uonga.style import (
    ARROW,
    CAPTION_H,
    CAV,
    HEADER_H,
    HERD,
    LAST,
    MAST,
    ORANGE,
    PANEL,
    PIECE_SIZE,
    PNG_LEVEL,
    PX0,
    PX1,
    ROW,
    H,
    W,
    cell_box,
    cell_centre,
)

__all__ = ["EN_LABELS", "H", "W", "render_uonga"]

EN_LABELS: dict[str, str] = {
    "title": "UONGA",
    "cavemen": "Cavemen",
    "mastodons": "Mastodons",
    "piece_H": "Hunter",
    "piece_Y": "Youngling",
    "piece_M": "Mastodon",
    "player": "Player {n}",
    "to_move": "{name} to move",
    "prompt_place_both": "Place a Hunter and a Youngling",
    "prompt_place_one": "Place a {piece}",
    "prompt_move": "Move one of your pieces",
    "prompt_take": "Choose which Mastodon falls",
    "placement": "Placement turn {k} of {of}",
    "moves_left": "Moves left before a draw: {n}",
    "no_limit": "Movement phase",
    "points": "{points}/{target}",
    "game_over": "GAME OVER",
    "draw": "DRAW",
    "wins": "{name} wins",
    "ended_target": "{side} reached their target",
    "ended_passes": "neither side could move",
    "ended_repetition": "the same position came up again",
    "ended_move_limit": "no capture for too long",
    "ended_resignation": "the other player resigned",
    "v1": "V1: the Mastodons need 10 points",
    "v2": "V2: the Mastodon player picks in ties",
    "legend_badge": "Cavemen around / needed",
    "legend_herd": "herd: needs 4 around one",
    "caption_turn": "{name} ({side}) to move",
    "caption_take": "{name}: choose which Mastodon falls",
    "caption_winner": "Game over: {name} ({side}) wins",
    "caption_draw": "Game over: draw",
}
PIECES = ("M", "H", "Y")
SIDES = ("cavemen", "mastodons")
SIDE_PIECE = {"cavemen": "H", "mastodons": "M"}
FILES = "abcde"


def _label(labels: Mapping[str, str], key: str, **fields: Any) -> str:
    """``labels[key]`` filled in, English when missing or broken (render.common.label)."""
    return c.label(labels, EN_LABELS, key, **fields)


def _square(sq: Any) -> tuple[int, int] | None:
    """(file, rank) of a square name such as "c3"; None for anything else."""
    if isinstance(sq, str) and len(sq) == 2 and sq[0] in FILES and sq[1] in "12345":
        return FILES.index(sq[0]), int(sq[1]) - 1
    return None


def _squares(items: Any) -> list[tuple[int, int]]:
    if not isinstance(items, list | tuple):
        return []
    return [fr for fr in map(_square, items) if fr is not None]


def _mapping(v: Any) -> Mapping[str, Any]:
    return v if isinstance(v, Mapping) else {}


def _int(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


@dataclass(frozen=True)
class _Frame(c.Frame):
    """One board being drawn: the picture, what it shows and the sprites to paste."""

    view: Mapping[str, Any]
    a: Assets
    kept: c.Kept  # the panel's parts as drawn on this background
    english: ClassVar[Mapping[str, str]] = EN_LABELS

    def board(self) -> dict[tuple[int, int], str]:
        raw = self.view.get("board")
        if not isinstance(raw, Mapping):
            return {}
        return {fr: p for sq, p in raw.items() if (fr := _square(sq)) is not None and p in PIECES}

    def seat(self, side: str) -> int | None:
        seats = self.view.get("seats")
        v = seats.get(side) if isinstance(seats, Mapping) else None
        return v if isinstance(v, int) and v in (0, 1) else None

    def side_of(self, seat: Any) -> str:
        return next((s for s in SIDES if self.seat(s) == seat), "cavemen")

    def over(self) -> bool:
        return bool(self.view.get("over")) or self.view.get("phase") == "over"


# --- the board -----------------------------------------------------------------------------------------


def _draw_last(f: _Frame) -> None:
    """The last placement or move: its squares tinted, an arrow from where the piece came from."""
    last = f.view.get("last")
    if not isinstance(last, Mapping):
        return
    a, b = _square(last.get("from")), _square(last.get("to"))
    for fr in (a, b):
        if fr is not None:
            x0, y0, x1, y1 = cell_box(*fr)
            f.d.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=LAST)
    if a is not None and b is not None:
        _arrow(f.d, cell_centre(*a), cell_centre(*b))


def _arrow(d: ImageDraw.ImageDraw, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A thick arrow from ``start`` towards ``end``; the head stops short of the centre so that the
    piece standing there does not hide it."""
    (xa, ya), (xb, yb) = start, end
    length = max(1.0, ((xb - xa) ** 2 + (yb - ya) ** 2) ** 0.5)
    ux, uy = (xb - xa) / length, (yb - ya) / length
    tip = (xb - ux * 22, yb - uy * 22)
    base = (tip[0] - ux * 18, tip[1] - uy * 18)
    d.line((xa, ya, *base), fill=ARROW, width=7)
    d.ellipse((xa - 7, ya - 7, xa + 7, ya + 7), fill=ARROW)
    d.polygon(
        [tip, (base[0] - uy * 12, base[1] + ux * 12), (base[0] + uy * 12, base[1] - ux * 12)], fill=ARROW
    )


def _draw_herds(f: _Frame, board: dict[tuple[int, int], str]) -> None:
    """A band between orthogonally adjacent Mastodons (R9): a herd reads as one joined group."""
    for (fl, rk), p in board.items():
        if p != "M":
            continue
        for nb in ((fl + 1, rk), (fl, rk + 1)):
            if board.get(nb) == "M":
                (xa, ya), (xb, yb) = cell_centre(fl, rk), cell_centre(*nb)
                f.d.line((xa, ya + 8, xb, yb + 8), fill=HERD, width=18)


def _draw_pieces(f: _Frame, board: dict[tuple[int, int], str]) -> None:
    for (fl, rk), p in board.items():
        x0, _, x1, y1 = cell_box(fl, rk)
        w, h = PIECE_SIZE[p]
        c.paste(f.img, f.a.pieces[p], ((x0 + x1 - w) / 2, y1 - 7 - h))


def _draw_badges(f: _Frame, board: dict[tuple[int, int], str]) -> None:
    """Top-right of every Mastodon: Cavemen around it / Cavemen needed (3 lone, 4 in a herd); red when
    the next Caveman move next to it can capture it, orange when one more Caveman would."""
    info = f.view.get("surround")
    info = info if isinstance(info, Mapping) else {}
    for (fl, rk), p in board.items():
        if p != "M":
            continue
        entry = info.get(f"{FILES[fl]}{rk + 1}")
        entry = entry if isinstance(entry, Mapping) else {}
        cav = max(0, min(8, _int(entry.get("cav"))))
        need = max(0, min(4, _int(entry.get("need"), 3)))
        total = cav + need if need else (4 if entry.get("herd") else 3)
        fill, ink = (c.RED, c.WHITE) if need == 0 else (ORANGE, c.INK) if need == 1 else (c.WHITE, c.INK)
        _, y0, x1, _ = cell_box(fl, rk)
        box = (x1 - 38, y0 + 3, x1 - 3, y0 + 24)
        c.rounded_box(f.d, box, 6, fill=fill, outline=c.INK, width=1)
        c.text(f.d, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2 + 1), f"{cav}/{total}", 15, ink, bold=True,
               anchor="mm")  # fmt: skip


def _draw_marks(f: _Frame, board: dict[tuple[int, int], str], highlight: Any) -> None:
    """Tie candidates, captures of the last move, then the selection and its destinations."""
    pending = f.view.get("pending") if f.view.get("phase") == "take" else None
    for tie in pending if isinstance(pending, list) else []:
        for fr in _squares(tie):
            c.paste(f.img, f.a.tie, cell_box(*fr)[:2])
    sel, targets = _highlight(highlight)
    last = f.view.get("last")
    if isinstance(last, Mapping):
        for fr in _squares(last.get("fallen")):
            if fr not in targets:  # a destination's dot there now says more than the old capture
                c.paste(f.img, f.a.cross, cell_centre(*fr), center=True)
        to = _square(last.get("to"))
        if to is not None and last.get("piece") == "M" and last.get("captured"):
            x0, y0, _, _ = cell_box(*to)  # a Mastodon took a Caveman here: a small cross in the corner
            c.paste(f.img, f.a.cross, (x0 + 2, y0 + 2))
    if sel is not None:
        c.paste(f.img, f.a.select, cell_box(*sel)[:2])
    for fr in targets:
        if fr in board:
            c.paste(f.img, f.a.capture_target, cell_box(*fr)[:2])
        else:
            c.paste(f.img, f.a.target, cell_centre(*fr), center=True)


def _highlight(highlight: Any) -> tuple[tuple[int, int] | None, list[tuple[int, int]]]:
    """``{"square": "b2", "targets": ["c3", ...]}`` or ``("b2", [...])``; anything else: nothing."""
    if isinstance(highlight, Mapping):
        return _square(highlight.get("square")), _squares(highlight.get("targets"))
    if isinstance(highlight, list | tuple) and len(highlight) == 2:
        return _square(highlight[0]), _squares(highlight[1])
    return None, []


# --- the panel -------------------------------------------------------------------------------------------


def _prompt(f: _Frame) -> str:
    phase = f.view.get("phase")
    if phase == "take":
        return f.label("prompt_take")
    if phase == "place":
        kinds = [k for k in f.view.get("to_place") or [] if k in PIECES]
        if len(kinds) == 1:
            return f.label("prompt_place_one", piece=f.label(f"piece_{kinds[0]}"))
        return f.label("prompt_place_both")
    return f.label("prompt_move")


def _ended(f: _Frame) -> str:
    why = f.view.get("ended_by")
    if why not in ("target", "passes", "repetition", "move_limit", "resignation"):
        return ""
    result = f.view.get("result")
    side = f.label(result) if result in SIDES else ""
    return f.label(f"ended_{why}", side=side)


def _draw_status(f: _Frame) -> None:
    d, mid = f.d, (PX0 + PX1) / 2
    if f.over():
        winners = [w for w in f.view.get("winners") or [] if isinstance(w, int)]
        head = f.label("draw") if len(winners) != 1 else f.label("game_over")
        c.text(d, (mid, PANEL[1] + 20), head, 20, c.RED, bold=True, anchor="mm", max_width=PX1 - PX0)
        sub = f.label("wins", name=f.name(winners[0])) if len(winners) == 1 else _ended(f)
        c.text(d, (mid, PANEL[1] + 45), sub, 14, c.INK, bold=True, anchor="mm", max_width=PX1 - PX0)
        if len(winners) == 1:
            c.text(d, (mid, PANEL[1] + 64), _ended(f), 12, c.MUTED, anchor="mm", max_width=PX1 - PX0)
        return
    who = f.name(f.view.get("current"))
    c.text(d, (mid, PANEL[1] + 20), f.label("to_move", name=who), 17, c.INK, bold=True, anchor="mm",
           max_width=PX1 - PX0)  # fmt: skip
    c.text(d, (mid, PANEL[1] + 44), _prompt(f), 14, c.INK, anchor="mm", max_width=PX1 - PX0)


def _draw_player(f: _Frame, side: str, y: int) -> None:
    """A player's row: side icon, name, side, points against target with a bar, captured pieces. It
    changes when the turn passes or a piece is taken, so it is kept as drawn."""
    seat = f.seat(side)
    over = f.over()
    winners = f.view.get("winners") or []
    hot = (not over and f.view.get("current") == seat) or (over and seat in winners and len(winners) == 1)
    points = _mapping(f.view.get("points"))
    targets = _mapping(f.view.get("targets"))
    pts, goal = max(0, _int(points.get(side))), max(1, _int(targets.get(side), 9))
    lost = _mapping(f.view.get("lost"))
    taken = (
        ["M"] * _int(lost.get("M"))
        if side == "cavemen"
        else ["H"] * _int(lost.get("H")) + ["Y"] * _int(lost.get("Y"))
    )
    words = (f.name(seat), f.label(side), f.label("points", points=pts, target=goal))
    key = ("player", side, y, hot, over and hot, words, pts, goal, tuple(taken[:10]))
    f.kept.draw(f.img, (PX0, y, PX1 + 1, y + 101), key, lambda: _paint_player(f, key))


def _paint_player(f: _Frame, key: tuple[Any, ...]) -> None:
    _, side, y, hot, crown, (name, side_word, points), pts, goal, taken = key
    d = f.d
    fill, outline = (c.HILITE, c.GOLD) if hot else (ROW, c.SAND_DARK)
    c.rounded_box(d, (PX0, y, PX1, y + 100), 9, fill=fill, outline=outline, width=3 if hot else 1)
    c.paste(f.img, f.a.icons[SIDE_PIECE[side]], (PX0 + 8, y + 8))
    if crown:
        c.paste(f.img, f.a.crown, (PX0 + 12, y + 50))
    name, size = c.fit_size(name, 16, True, PX1 - PX0 - 132, 12)
    c.text(d, (PX0 + 56, y + 19), name, size, c.INK, bold=True, anchor="lm")
    c.text(d, (PX0 + 56, y + 40), side_word, 13, CAV if side == "cavemen" else MAST, bold=True,
           anchor="lm", max_width=PX1 - PX0 - 120)  # fmt: skip
    c.text(d, (PX1 - 10, y + 28), points, 22, c.INK, bold=True, anchor="rm", max_width=70)
    bar = (PX0 + 56, y + 56, PX1 - 10, y + 64)
    d.rectangle(bar, fill=c.SAND, outline=c.SAND_DARK)
    done = bar[0] + (bar[2] - bar[0]) * min(1.0, pts / goal)
    if pts:
        d.rectangle((bar[0], bar[1], done, bar[3]), fill=CAV if side == "cavemen" else MAST)
    x = PX0 + 56
    for k in taken:
        spr = f.a.minis[k]
        c.paste(f.img, spr, (x, y + 94 - spr.height))
        x += spr.width + 3


def _draw_info(f: _Frame, y: int) -> None:
    """Variants in play, then a legend for the badges and herd bands: the same all game long."""
    variants = tuple(f.label(key) for key in ("v1", "v2") if f.view.get(key) is True)
    key = ("info", y, variants, f.label("legend_badge"), f.label("legend_herd"))
    f.kept.draw(f.img, (PX0, y - 12, PX1 + 1, PANEL[3] + 1), key, lambda: _paint_info(f, key))


def _paint_info(f: _Frame, key: tuple[Any, ...]) -> None:
    _, y, variants, badge, herd = key
    d = f.d
    for text in variants:
        c.text(d, (PX0 + 2, y), text, 12, c.INK, anchor="lm", max_width=PX1 - PX0 - 4)
        y += 18
    bottom = PANEL[3] - 14
    c.rounded_box(d, (PX0 + 2, bottom - 38, PX0 + 34, bottom - 18), 6, fill=ORANGE, outline=c.INK, width=1)
    c.text(d, (PX0 + 18, bottom - 27), "2/3", 14, c.INK, bold=True, anchor="mm")
    c.text(d, (PX0 + 44, bottom - 28), badge, 12, c.INK, anchor="lm", max_width=PX1 - PX0 - 46)
    d.line((PX0 + 2, bottom, PX0 + 34, bottom), fill=HERD, width=12)
    c.text(d, (PX0 + 44, bottom), herd, 12, c.INK, anchor="lm", max_width=PX1 - PX0 - 46)


def _phase_text(f: _Frame) -> str:
    placement = f.view.get("placement")
    if f.view.get("phase") == "place" and isinstance(placement, Mapping):
        return f.label("placement", k=_int(placement.get("k"), 1), of=_int(placement.get("of"), 5))
    left = f.view.get("moves_left")
    if isinstance(left, int) and not isinstance(left, bool) and not f.over():
        return f.label("moves_left", n=left)
    return f.label("no_limit") if not f.over() else ""


def _default_caption(f: _Frame) -> str:
    if f.over():
        winners = [w for w in f.view.get("winners") or [] if isinstance(w, int)]
        if len(winners) == 1:
            return f.label("caption_winner", name=f.name(winners[0]), side=f.label(f.side_of(winners[0])))
        return f.label("caption_draw")
    seat = f.view.get("current")
    key = "caption_take" if f.view.get("phase") == "take" else "caption_turn"
    return f.label(key, name=f.name(seat), side=f.label(f.side_of(seat)))


def render_uonga(
    view: Mapping[str, Any],
    names: Sequence[str],
    caption: str | None = None,
    labels: Mapping[str, str] | None = None,
    highlight: Any = None,
    lesson: lsn.Lesson | None = None,
) -> bytes:
    """Draw an Uonga view (engine ``view(state, seat)``) as PNG bytes.

    ``names`` are display names per seat (cut to fit); ``caption`` is a one-line, already localised
    "what just happened" banner (a status from ``labels`` is drawn when it is None; "" draws none).
    ``labels`` holds every other word, keyed as ``EN_LABELS``. ``highlight`` is an optional selected
    square and its destinations: ``{"square": "b2", "targets": ["c3", "b3"]}``. ``lesson``: a costly
    decision drawn over the board (render.lesson; the view is the position it was made in).
    Pure function of its arguments, safe to call from several threads at once.
    """
    labels = labels if labels is not None else EN_LABELS
    title = _label(labels, "title")
    img = backgrounds.get(title).copy()
    f = _Frame(img, ImageDraw.Draw(img), names, labels, view, ASSETS.get(), kept.get(title))
    board = f.board()
    _draw_last(f)
    _draw_herds(f, board)
    _draw_pieces(f, board)
    _draw_badges(f, board)
    _draw_marks(f, board, highlight)
    if lesson is not None:
        overlay.draw(f.d, lesson)
    _draw_status(f)
    _draw_player(f, "cavemen", PANEL[1] + 78)
    _draw_player(f, "mastodons", PANEL[1] + 188)
    _draw_info(f, PANEL[1] + 304)
    c.text(
        f.d, (W - 14, HEADER_H / 2), _phase_text(f), 17, c.CREAM, bold=True, anchor="rm", max_width=W - 300
    )
    if caption is None:
        caption = _default_caption(f)
    if caption:
        c.text(f.d, (14, H - CAPTION_H / 2), c.displayable(caption), 17, c.CREAM, bold=True, anchor="lm",
               max_width=W - 28)  # fmt: skip
    return c.encode_png(img, f.a.palette, PNG_LEVEL)
