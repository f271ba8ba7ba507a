"""The public picture (channel message): round k of 8, who solved in which order, the scores, the
countdown state and, once a round is over, everyone's solution (face up after the round). It is
drawn from the public view, which carries no task of a running round, so none can leak."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import common as c
from render.ubongo.grid import draw_grid, task_cells
from render.ubongo.style import (
    HEADER_H,
    OK_GREEN,
    PAD,
    PALETTE,
    PNG_LEVEL,
    SEATS,
    STATUS_H,
    W,
    label,
    order_label,
)

ROW_H = 54
STRIP_X = 322  # the per-round result boxes
BOX = 22
MINI_CELL = 22
SOLUTIONS_H = 30 + 4 * MINI_CELL + 58
CAPTION_H = 34


def _name(names: Sequence[str], seat: int, labels: Mapping[str, str] | None) -> str:
    name = c.displayable(names[seat]) if 0 <= seat < len(names) else ""
    return name or label(labels, "player", n=seat + 1)


def _ints(view: dict[str, Any], key: str, n: int) -> list[int]:
    values = view.get(key)
    if not isinstance(values, list):
        return [0] * n
    return [v if isinstance(v, int) else 0 for v in values[:n]] + [0] * (n - len(values[:n]))


def _header(d: ImageDraw.ImageDraw, view: dict[str, Any], labels: Mapping[str, str] | None) -> None:
    d.rectangle((0, 0, W, HEADER_H), fill=c.BAR)
    c.text(
        d, (PAD, HEADER_H / 2), label(labels, "title"), 22, c.CREAM, bold=True, anchor="lm", max_width=W * 0.4
    )
    n = view.get("round") if isinstance(view.get("round"), int) else 0
    if view.get("over"):
        right = label(labels, "final")
    elif view.get("mode") == "race":
        right = label(labels, "round", n=n, total=view.get("rounds", 8))
    else:
        size = view.get("rounds", 5)
        right = label(labels, "time_attack" if view.get("mode") == "time" else "speed_run", size=size)
    c.text(d, (W - PAD, HEADER_H / 2), right, 17, c.CREAM, bold=True, anchor="rm", max_width=W * 0.55)


def _status_text(
    view: dict[str, Any], names: Sequence[str], labels: Mapping[str, str] | None
) -> tuple[str, c.RGB]:
    n = view.get("n", len(names))
    solved = [s for s in view.get("solved") or [] if isinstance(s, int)]
    if view.get("ended") and not view.get("over"):  # ended before its finish: nobody solves any more
        result = view.get("ended_result")
        winners = [_name(names, w, labels) for w in (result or {}).get("winners") or [] if isinstance(w, int)]
        if not winners:
            return label(labels, "ended"), c.INK
        return label(labels, "winners" if len(winners) > 1 else "winner", names=" & ".join(winners)), c.INK
    if view.get("over"):
        winners = [_name(names, w, labels) for w in view.get("winners") or []]
        if view.get("mode") != "race" or not winners:
            solo = view.get("solo") or {}
            if solo:
                return label(
                    labels, "solo_score", done=solo.get("done", 0), skipped=solo.get("skipped", 0)
                ), c.INK
            return label(labels, "over"), c.INK
        key = "winners" if len(winners) > 1 else "winner"
        return label(labels, key, names=" & ".join(winners)), c.INK
    if view.get("mode") != "race":
        solo = view.get("solo") or {}
        return label(labels, "solo_score", done=solo.get("done", 0), skipped=solo.get("skipped", 0)), c.INK
    if view.get("phase") == "countdown" and solved:
        name = _name(names, solved[0], labels)
        return label(labels, "ubongo", name=name, seconds=view.get("countdown") or 0), c.RED
    count = label(labels, "solving", count=n - len(solved))
    return f"{count}  ·  {label(labels, 'round_limit', seconds=view.get('round_limit') or 0)}", c.INK


def _gains(view: dict[str, Any], seat: int) -> list[int | None]:
    """Points each finished round gave ``seat`` (None for a round not played yet)."""
    out: list[int | None] = []
    for h in view.get("history") or []:
        gained = h.get("gained") if isinstance(h, dict) else None
        out.append(gained[seat] if isinstance(gained, list) and seat < len(gained) else 0)
    return out


def _player_row(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    seat: int,
    y: int,
    names: Sequence[str],
    labels: Mapping[str, str] | None,
) -> None:
    solved = view.get("solved") or []
    winners = view.get("winners") or []
    if view.get("over") and seat in winners:
        d.rectangle((0, y, W, y + ROW_H - 2), fill=c.HILITE)
    colour = SEATS[seat % len(SEATS)]
    d.ellipse((PAD, y + 12, PAD + 28, y + 40), fill=colour)
    c.text(d, (PAD + 14, y + 26), str(seat + 1), 16, c.WHITE, bold=True, anchor="mm")
    c.text(
        d, (PAD + 40, y + 18), _name(names, seat, labels), 19, c.INK, bold=True, anchor="lm", max_width=200
    )
    sides = view.get("sides") or []
    details = [label(labels, "side", side=sides[seat])] if seat < len(sides) else []
    if seat < len(view.get("no_yellow") or []) and view["no_yellow"][seat]:
        details.append(label(labels, "no_yellow"))
    if view.get("gems_variant"):
        cards, gems = _ints(view, "cards_won", seat + 1)[seat], _ints(view, "gems", seat + 1)[seat]
        details.append(label(labels, "gems", cards=cards, gems=gems))
    c.text(d, (PAD + 40, y + 40), "  ·  ".join(details), 15, c.MUTED, anchor="lm", max_width=200)
    if not view.get("over") and view.get("mode") == "race":
        if seat in solved:
            mark = f"{order_label(labels, solved.index(seat) + 1)} ✓"
            c.text(d, (244, y + 27), mark, 18, OK_GREEN, bold=True, anchor="lm", max_width=74)
        elif not view.get("ended"):
            c.text(d, (244, y + 27), label(labels, "waiting"), 15, c.MUTED, anchor="lm", max_width=74)
    if view.get("mode") == "race":
        gains = _gains(view, seat)
        for r in range(view.get("rounds", 8) if isinstance(view.get("rounds"), int) else 8):
            x = STRIP_X + r * (BOX + 3)
            box = (x, y + 16, x + BOX, y + 16 + BOX)
            if r < len(gains):
                g = gains[r] or 0
                d.rectangle(box, fill=OK_GREEN if g else c.SAND, outline=c.SAND_DARK)
                c.text(
                    d,
                    (x + BOX / 2, y + 27),
                    str(g) if g else "·",
                    14,
                    c.WHITE if g else c.MUTED,
                    bold=True,
                    anchor="mm",
                )
            else:
                d.rectangle(box, outline=c.SAND_DARK)
    score = (
        _ints(view, "scores", seat + 1)[seat]
        if view.get("mode") == "race"
        else (view.get("solo") or {}).get("done", 0)
    )
    c.text(d, (W - PAD, y + 26), str(score), 26, c.INK, bold=True, anchor="rm")


def _solutions(
    d: ImageDraw.ImageDraw,
    view: dict[str, Any],
    y: int,
    names: Sequence[str],
    labels: Mapping[str, str] | None,
) -> None:
    """The last finished round, face up: every seat's task with the pieces it had placed."""
    last = (view.get("history") or [])[-1]
    tasks = last.get("tasks") or []
    placed = last.get("placed") or []
    solved = last.get("solved") or []
    title = (
        label(labels, "last_round", n=last.get("round", 0))
        if view.get("mode") == "race"
        else label(labels, "last_task")
    )
    c.text(d, (PAD, y + 14), title, 15, c.INK, bold=True, anchor="lm", max_width=W - 2 * PAD)
    slot = (W - 2 * PAD) // max(1, len(tasks))
    for seat, rows in enumerate(tasks):
        _, w, h = task_cells(rows)
        if not w:
            continue
        cell = min(MINI_CELL, (slot - 12) // w, 4 * MINI_CELL // h)
        x0 = PAD + seat * slot + (slot - w * cell) // 2
        top = y + 34 + (4 * MINI_CELL - h * cell) // 2
        draw_grid(d, (x0, top), cell, rows, placed[seat] if seat < len(placed) else {}, ids=False)
        mark = (
            f"{order_label(labels, solved.index(seat) + 1)} ✓"
            if seat in solved
            else label(labels, "unsolved")
        )
        colour = OK_GREEN if seat in solved else c.MUTED
        mid = PAD + seat * slot + slot / 2
        if view.get("mode") == "race":  # the name, then how it went
            c.text(
                d,
                (mid, y + SOLUTIONS_H - 34),
                _name(names, seat, labels),
                15,
                c.INK,
                bold=True,
                anchor="mm",
                max_width=slot - 6,
            )
        c.text(d, (mid, y + SOLUTIONS_H - 14), mark, 15, colour, bold=True, anchor="mm", max_width=slot - 6)


def render_table(
    view: dict[str, Any],
    names: Sequence[str],
    caption: str | None = None,
    labels: Mapping[str, str] | None = None,
) -> bytes:
    """PNG of the public table from the public view (engine ``view(state, None)``)."""
    n = view.get("n")
    n = n if isinstance(n, int) and 1 <= n <= 4 else max(1, len(names))
    show_last = bool(view.get("history"))
    height = (
        HEADER_H
        + STATUS_H
        + n * ROW_H
        + 8
        + (SOLUTIONS_H if show_last else 0)
        + (CAPTION_H if caption else 0)
    )
    img = Image.new("RGB", (W, height), c.PAPER)
    d = ImageDraw.Draw(img)
    _header(d, view, labels)
    text, colour = _status_text(view, names, labels)
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
    y = HEADER_H + STATUS_H
    for seat in range(n):
        d.line((PAD, y, W - PAD, y), fill=c.SAND, width=1)
        _player_row(d, view, seat, y, names, labels)
        y += ROW_H
    y += 8
    if show_last:
        d.line((PAD, y, W - PAD, y), fill=c.SAND_DARK, width=2)
        _solutions(d, view, y, names, labels)
        y += SOLUTIONS_H
    if caption:
        d.rectangle((0, y, W, y + CAPTION_H), fill=c.BAR)
        c.text(
            d,
            (PAD, y + CAPTION_H / 2),
            c.displayable(caption),
            16,
            c.CREAM,
            bold=True,
            anchor="lm",
            max_width=W - 2 * PAD,
        )
    return c.encode_png(img, PALETTE.get(), PNG_LEVEL)
