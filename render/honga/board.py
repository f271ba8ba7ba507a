"""Honga board image, drawn from a *player view* dict (``engine.games.honga_view``).

Left: the 3 x 3 fields with HONGA's field in the centre, the top disk on each of the four spaces
with its hand counts (the disk placed this turn is ringed in gold and shows the hands still to use,
spent quarters faded), the cavemen on the mountain steps, the herd in order (1 = newest) and the
tusk. Right: the three face-up trade cards (cost and points) and a row per player: score against
the target, fish, berries, mushrooms, water, mammoths on the board and bonus-card count, with the
fire, tusk and HONGA markers. The header names the turn and target, the caption who acts and which
step. Only public parts of the view are drawn (never ``disk``/``cards``/``drawn``), so the picture
is the same for every seat and cannot leak a hand.

Every word comes from ``labels`` (English by default: ``EN_LABELS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard

from PIL import Image, ImageDraw

from engine.games.honga_data import FIELDS, HONGA, NEIGHBOURS, SPACES
from render import common as c
from render import lesson as lsn
from render.honga import lesson as overlay
from render.honga import style as st
from render.honga.sprites import ASSETS, Assets, DiskKey, Lettered, Texts, lettered

__all__ = ["EN_LABELS", "render_honga"]

EN_LABELS: dict[str, str] = {
    "title": "HONGA",
    "field_trade": "TRADE",
    "field_mountain": "MOUNTAIN",
    "field_mushrooms": "MUSHROOMS",
    "field_berries": "BERRIES",
    "field_honga": "HONGA",
    "field_spring": "SPRING",
    "field_forest": "FOREST",
    "field_lake": "LAKE",
    "field_mammoths": "MAMMOTHS",
    "turn": "Turn {n}",
    "target": "Target {n}",
    "final_round": "Final round",
    "honga_with": "with {name}",
    "herd": "herd 1 = newest",
    "empty_slot": "empty",
    "player": "Player {n}",
    "step_place": "{name}: step 1, place a disk",
    "step_act": "{name}: step 3, hands and bonus cards",
    "step_keep": "{name}: step 4, keep one of two disks",
    "caption_winner": "Game over: {names} wins",
    "caption_winners": "Game over: {names} share the win",
    "tiebreak_score": "most points",
    "tiebreak_resources": "tie broken by raw materials",
    "tiebreak_shared": "tied on points and raw materials",
}


def _label(labels: Mapping[str, str], key: str, **fields: Any) -> str:
    """``labels[key]`` filled in, English when missing or broken (render.common.label)."""
    return c.label(labels, EN_LABELS, key, **fields)


@dataclass(frozen=True)
class _Frame(c.Frame):
    view: dict[str, Any]
    a: Assets
    lt: Lettered
    english: ClassVar[Mapping[str, str]] = EN_LABELS
    spots: dict[str, Any] = field(default_factory=dict)
    """Where choices were drawn, for the 🎓 overlay (render.honga.lesson): "cards" and "rows" boxes
    by trade slot (1-3) and by seat."""

    def seat_ok(self, seat: Any) -> TypeGuard[int]:
        return isinstance(seat, int) and 0 <= seat < _n(self.view)


def _n(view: dict[str, Any]) -> int:
    n = view.get("n")
    return max(1, min(n, 5)) if isinstance(n, int) else 1


def _players(view: dict[str, Any]) -> list[dict[str, Any]]:
    rows = view.get("players")
    return [p if isinstance(p, dict) else {} for p in rows] if isinstance(rows, list) else []


def _dict(x: Any) -> dict[str, Any]:
    return x if isinstance(x, dict) else {}


def _list(x: Any) -> list[Any]:
    return x if isinstance(x, list) else []


def _winners(view: dict[str, Any]) -> list[int]:
    w = view.get("winners")
    return [x for x in w if isinstance(x, int)] if isinstance(w, list) else []


def _int(x: Any, default: int = 0) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else default


def _colour(seat: int) -> tuple[int, int, int]:
    return st.PLAYER[seat % len(st.PLAYER)]


# --- the board ------------------------------------------------------------------------------------------


def _disk_key(f: _Frame, space: str, top: dict[str, Any]) -> DiskKey:
    """Hands per screen quadrant; the disk placed this turn shows the hands still to use (R27)."""
    fields = _dict(top.get("fields"))
    turn = _dict(f.view.get("turn_state"))
    placed = _dict(turn.get("placed"))
    live = f.view.get("phase") == "act" and not f.view.get("ended")  # (a resignation ended it)
    hot = placed.get("space") == space and live
    left = _dict(turn.get("left"))
    hands, faded = [], []
    for fld in NEIGHBOURS[space]:
        printed = max(0, min(_int(fields.get(fld)), 9))
        if hot and fld != HONGA:
            now = max(0, min(_int(left.get(fld)), 9))
            hands.append(now)
            faded.append(printed > 0 and now == 0)
        else:
            hands.append(printed)
            faded.append(False)
    colour = "red" if top.get("colour") == "red" else "grey"
    return DiskKey(colour, tuple(hands), tuple(faded), hot)


def _draw_disks(f: _Frame) -> None:
    spaces = _dict(f.view.get("spaces"))
    for space in SPACES:
        top = _dict(spaces.get(space)).get("top")
        xy = st.corner_xy(space)
        if isinstance(top, dict):
            c.paste(f.img, f.a.disk(_disk_key(f, space, top)), xy, center=True)
        else:
            c.paste(f.img, f.a.empty, xy, center=True)


def _draw_mountain(f: _Frame) -> None:
    x0, y0, _, _ = st.tile_box(1, 0)
    players = _players(f.view)
    per_step: dict[int, int] = {}
    for seat in range(min(_n(f.view), len(players))):
        step = max(0, min(_int(players[seat].get("step")), 5))
        k = per_step.get(step, 0)
        per_step[step] = k + 1
        top = y0 + 118 - step * 14
        c.paste(f.img, f.a.pawns[seat], (x0 + 25 + step * 20, top - 18 - k * 13))


def _draw_herd(f: _Frame) -> None:
    _x0, y0, x1, _y1 = st.tile_box(2, 2)
    cap = max(1, min(_int(f.view.get("herd_cap"), 3), 5))
    herd_raw = f.view.get("herd")
    herd = [h for h in herd_raw if f.seat_ok(h)][:cap] if isinstance(herd_raw, list) else []
    pitch = 30
    left = x1 - 12 - cap * pitch
    y = y0 + 92
    for i in range(cap):
        x = left + i * pitch
        if i < len(herd):
            c.paste(f.img, f.a.mammoths[herd[i]], (x + 2, y))
        else:
            f.d.ellipse((x + 4, y + 2, x + 26, y + 24), outline=st.GRID_LINE, width=2)
        c.text(f.d, (x + 15, y + 36), str(i + 1), 12, c.MUTED, bold=True, anchor="mm")
    tusk = f.view.get("tusk")
    tx, ty = x1 - 58, y0 + 52
    c.paste(f.img, f.a.big_tusk, (tx, ty - 15))
    if f.seat_ok(tusk):
        f.d.ellipse((tx + 32, ty - 9, tx + 50, ty + 9), fill=_colour(tusk), outline=c.INK, width=2)


def _draw_honga(f: _Frame) -> None:
    x0, y0, x1, y1 = st.tile_box(1, 1)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    where = f.view.get("honga")
    name, size = c.fit_size(f.label("field_honga"), 15, True, st.TILE - 2 * st.DISK_R + 10, 10)
    c.text(f.d, (cx, y0 + 14), name, size, c.INK, bold=True, anchor="mm")
    if f.seat_ok(where):
        text = f.label("honga_with", name=f.name(where))
        c.text(f.d, (cx, cy), text, 14, c.INK, bold=True, anchor="mm", max_width=st.TILE - 16)
        f.d.rectangle((cx - 30, cy + 14, cx + 30, cy + 20), fill=_colour(where))
    else:
        c.paste(f.img, f.a.big_tiger, (cx, cy + 4), center=True)


# --- the panel ------------------------------------------------------------------------------------------


TRADE_BOX = (st.PX0, st.CARD_Y, st.PX1 + 1, st.CARD_Y + st.CARD_H + 1)  # the three cards, their edges too


def _draw_trade(f: _Frame) -> None:
    """The three face-up trade cards: they change only when one is bought, so they are kept as drawn."""
    trade = f.view.get("trade")
    cards = list(trade)[:3] if isinstance(trade, list) else []
    cards += [None] * (3 - len(cards))
    w = (st.PX1 - st.PX0 - 16) // 3
    for i in range(3):
        x = st.PX0 + i * (w + 8)
        f.spots.setdefault("cards", {})[i + 1] = (x, st.CARD_Y, x + w, st.CARD_Y + st.CARD_H)
    key = ("trade", f.label("empty_slot"), *(_card_key(card) for card in cards))
    f.lt.kept.draw(f.img, TRADE_BOX, key, lambda: _paint_trade(f, key))


def _card_key(card: Any) -> tuple[int, str, int] | None:
    """What a trade card shows: its points, the food it costs and its mammoths."""
    if not isinstance(card, dict):
        return None
    return _int(card.get("vp")), str(card.get("food") or ""), max(0, min(_int(card.get("mammoths")), 3))


def _paint_trade(f: _Frame, key: tuple[Any, ...]) -> None:
    empty, cards = key[1], key[2:]
    w = (st.PX1 - st.PX0 - 16) // 3
    for i, card in enumerate(cards):
        x, y = st.PX0 + i * (w + 8), st.CARD_Y
        box = (x, y, x + w, y + st.CARD_H)
        if card is None:
            c.rounded_box(f.d, box, 8, outline=c.SAND_DARK, width=2)
            c.text(f.d, (x + w / 2, y + st.CARD_H / 2), empty, 13, c.MUTED, anchor="mm")
        else:
            c.rounded_box(f.d, box, 8, fill=c.CREAM, outline=c.BAR, width=2)
        c.text(f.d, (x + 9, y + 14), str(i + 1), 13, c.MUTED, bold=True, anchor="lm")  # trade.<slot>
        if card is None:
            continue
        vp, food, mammoths = card
        c.text(f.d, (x + w - 8, y + 20), f"+{vp}", 24, c.INK, bold=True, anchor="rm")
        items = [f.a.mini[ch] for ch in food if ch in f.a.mini][:6]
        items += [f.a.plain_mammoth] * mammoths
        per_row = 4
        for k, spr in enumerate(items):
            ix = x + 6 + (k % per_row) * 22
            iy = y + 38 + (k // per_row) * 25
            c.paste(f.img, spr, (ix, iy))


def _count(f: _Frame, x: float, y: float, spr: Image.Image, value: str, dim: bool = False) -> float:
    c.paste(f.img, spr, (x, y - spr.height / 2))
    x += spr.width + 3
    w = c.text(f.d, (x, y), value, 18, c.MUTED if dim else c.INK, bold=True, anchor="lm")
    return x + w + 8


def _draw_row(f: _Frame, seat: int, p: dict[str, Any], y: int, h: int) -> None:
    """A player's row: a move changes one or two of them, so each is kept as drawn."""
    f.spots.setdefault("rows", {})[seat] = (st.PX0, y, st.PX1, y + h)
    key = _row_key(f, seat, p, y, h)
    f.lt.kept.draw(f.img, (st.PX0, y, st.PX1 + 1, y + h + 1), key, lambda: _paint_row(f, key))


def _row_key(f: _Frame, seat: int, p: dict[str, Any], y: int, h: int) -> tuple[Any, ...]:
    """Everything a player's row shows, and where."""
    view = f.view
    over = bool(view.get("over"))
    winners = _winners(view)
    live = not over and not view.get("ended")  # an ended game (a resignation) has no one to move
    hot = (live and view.get("current") == seat) or (over and seat in winners)
    marks = (
        over and seat in winners,
        view.get("start") == seat,
        view.get("tusk") == seat,
        view.get("honga") == seat,
    )
    res = tuple(_int(k) for k in _list(p.get("res"))[:4])
    counts = (_int(p.get("board")), _int(p.get("cards")), _int(p.get("pending")))
    return (
        "row",
        seat,
        y,
        h,
        hot,
        marks,
        f.name(seat),
        _int(p.get("score")),
        _int(view.get("target")),
        res,
        counts,
    )


def _paint_row(f: _Frame, key: tuple[Any, ...]) -> None:
    _, seat, y, h, hot, (crown, fire, tusk, tiger), name, score, target, res, counts = key
    d = f.d
    fill, outline = (c.HILITE, c.GOLD) if hot else (st.ROW, c.SAND_DARK)
    c.rounded_box(d, (st.PX0, y, st.PX1, y + h), 8, fill=fill, outline=outline, width=3 if hot else 1)
    d.rectangle((st.PX0 + 3, y + 6, st.PX0 + 9, y + h - 6), fill=_colour(seat))
    line1, line2 = y + 19, y + h - 20
    tw = c.text_width(f"/{target}", 15, True)
    c.text(d, (st.PX1 - 8, line1 + 3), f"/{target}", 15, c.MUTED, bold=True, anchor="rm")
    sw = c.text(d, (st.PX1 - 10 - tw, line1), f"{score}", 24, c.INK, bold=True, anchor="rm")
    shown = (crown, fire, tusk, tiger)
    marks = [m for m, on in zip((f.a.crown, f.a.fire, f.a.tusk, f.a.tiger), shown, strict=True) if on]
    marks_w = sum(m.width + 4 for m in marks)
    room = round(st.PX1 - st.PX0 - 30 - tw - sw - marks_w - 14)
    nw = c.text(d, (st.PX0 + 16, line1), name, 17, c.INK, bold=True, anchor="lm", max_width=room)
    x = st.PX0 + 16 + nw + 6
    for m in marks:
        c.paste(f.img, m, (x, line1 - m.height / 2))
        x += m.width + 4
    x = st.PX0 + 16
    for code, k in zip("fbmw", res, strict=False):
        x = _count(f, x, line2, f.a.res[code], str(k), dim=not k)
    board, cards, pending = counts
    x = _count(f, x, line2, f.a.row_mammoths[seat], str(board), dim=not board)
    _count(f, x, line2, f.a.card, f"{cards}+{pending}" if pending else str(cards), dim=not cards + pending)


def _draw_players(f: _Frame) -> None:
    players = _players(f.view)
    n = min(_n(f.view), len(players))
    if not n:
        return
    gap = 6
    h = min(84, (st.ROWS_END - st.ROWS_Y - gap * (n - 1)) // n)
    for seat in range(n):
        _draw_row(f, seat, players[seat], st.ROWS_Y + seat * (h + gap), h)


def _header_and_caption(f: _Frame, caption: str | None) -> None:
    view = f.view
    parts = [f.label("turn", n=_int(view.get("turn"), 1)), f.label("target", n=_int(view.get("target")))]
    if view.get("final_round") and not view.get("over"):
        parts.append(f.label("final_round"))
    c.text(f.d, (st.W - 14, st.HEADER_H / 2), "  ·  ".join(parts), 16, c.CREAM, anchor="rm", max_width=560)
    if caption is None:
        caption = _default_caption(f)
    if caption:
        caption = c.displayable(caption)
        c.text(f.d, (14, st.H - st.CAPTION_H / 2), caption, 17, c.CREAM, bold=True, anchor="lm",
               max_width=st.W - 28)  # fmt: skip


def _default_caption(f: _Frame) -> str:
    view = f.view
    if view.get("over"):
        winners = [f.name(w) for w in _winners(view) if f.seat_ok(w)]
        key = "caption_winners" if len(winners) > 1 else "caption_winner"
        text = f.label(key, names=" & ".join(winners))
        tiebreak = view.get("tiebreak")
        if tiebreak in ("score", "resources", "shared"):
            text += f" ({f.label('tiebreak_' + tiebreak)})"
        return text
    phase = view.get("phase")
    key = f"step_{phase}" if phase in ("place", "act", "keep") else "step_act"
    return f.label(key, name=f.name(view.get("current")))


def _texts(labels: Mapping[str, str]) -> Texts:
    fields = tuple((fld, _label(labels, f"field_{fld}")) for fld in FIELDS if fld != HONGA)
    return Texts(_label(labels, "title"), fields)


def render_honga(
    view: dict[str, Any],
    names: list[str],
    caption: str | None = None,
    labels: Mapping[str, str] = EN_LABELS,
    lesson: lsn.Lesson | None = None,
) -> bytes:
    """Draw a Honga view (engine ``view(state, seat)``; only public parts are used) as PNG bytes.

    ``names`` are display names per seat (cut to fit); ``caption`` is a one-line, already localised
    banner ("" draws none, None a status built from ``labels``). Missing label keys fall back to
    English. ``lesson``: a costly decision drawn over the board (render.lesson; the view is the
    position it was made in). Pure function of its arguments, safe to call from several threads at once.
    """
    a, lt = ASSETS.get(), lettered(_texts(labels))
    img = lt.bg.copy()
    f = _Frame(img, ImageDraw.Draw(img), names, labels, view, a, lt)
    _draw_mountain(f)
    _draw_herd(f)
    _draw_honga(f)
    _draw_disks(f)
    _draw_trade(f)
    _draw_players(f)
    if lesson is not None:
        overlay.draw(f.d, f.spots, view.get("current"), lesson)
    _header_and_caption(f, caption)
    return c.encode_png(img, a.palette, st.PNG_LEVEL)
