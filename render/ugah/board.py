"""Ugah Ugah! board image: the ring of 31 chips with its large gap, both hunters, the five dice, the
three spoils cards and the players, drawn from a *player view* dict.

Face-down chips are drawn from ``up`` alone: a path chip that is not face up shows its back even if
the view carried a value, so a hidden value can never leak into the picture. The only values drawn
for face-down chips are ``pending.mm_v`` / ``pending.bb_v``, which the engine fills in only for the
player allowed to see them (the active player choosing which chip to keep).

Every word on the board comes from ``labels`` (English by default: ``EN_LABELS``). The look lives in
``render.ugah.style``, the sprite painters in ``render.ugah.sprites``, their caches in
``render.ugah.assets``; this module lays a view out.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from PIL import Image, ImageDraw

from render import common as c
from render import lesson as lsn
from render.ugah import lesson as overlay
from render.ugah.assets import ASSETS, Assets, Lettered, Texts, lettered
from render.ugah.labels import EN_LABELS
from render.ugah.style import (
    ANIMALS,
    BIG_CHIP,
    CAPTION_H,
    CARD_H,
    CARD_W,
    CARD_Y,
    CX,
    CY,
    DICE_GAP,
    DIE,
    DIE_SMALL,
    FACES,
    GROUP_GAP,
    HEADER_H,
    MAX_TRAYS_W,
    MINI_CHIP,
    MINI_PITCH,
    N_CHIPS,
    PANEL,
    PNG_LEVEL,
    PX0,
    PX1,
    RING_CHIP,
    RING_R,
    ROW,
    ROW_H,
    ROWS_Y,
    TRAY,
    TRAY_LABEL_W,
    TRAY_PAD,
    H,
    W,
    ring_xy,
    slot_angle,
)

__all__ = ["EN_LABELS", "H", "W", "render_ugah"]

PHASES = ("pick", "order", "keep")


def _label(labels: Mapping[str, str], key: str, **fields: Any) -> str:
    """``labels[key]`` filled in, English when missing or broken (render.common.label)."""
    return c.label(labels, EN_LABELS, key, **fields)


@dataclass(frozen=True)
class _Frame(c.Frame):
    """One board being drawn: the picture, what it shows and the sprites to paste."""

    view: dict[str, Any]
    a: Assets
    lt: Lettered
    english: ClassVar[Mapping[str, str]] = EN_LABELS
    spots: dict[str, Any] = field(default_factory=dict)
    """Where choices were drawn, for the 🎓 overlay (render.ugah.lesson): "dice" (face, box) of the
    throw, "pins" and "keep" boxes by hunter, "rows" boxes by seat."""


# --- view helpers ------------------------------------------------------------------------------------


def _chip_key(chip: Any) -> int | str:
    """What a path place shows. Only a face-up chip with a value shows it; nothing else can."""
    if not isinstance(chip, dict) or chip.get("taken"):
        return "taken"
    v = chip.get("v")
    if chip.get("up") and isinstance(v, int) and 1 <= v <= 6:
        return v
    return "back"


def _is_over(view: dict[str, Any]) -> bool:
    return bool(view.get("over")) or view.get("phase") == "over"


def _is_ended(view: dict[str, Any]) -> bool:
    """Ended before its finish (``/game end``): drawn without a prompt or a turn marker."""
    return bool(view.get("ended")) and not _is_over(view)


def _value_key(v: Any) -> int | str:
    return v if isinstance(v, int) and 1 <= v <= 6 else "back"


def _dice_groups(view: dict[str, Any]) -> list[tuple[str, list[str], bool]]:
    """(label key, faces, live) groups for the dice tray: set aside / bones of this throw / the throw."""
    aside = [f for f in view.get("aside") or [] if f in FACES]
    rolled = [f for f in view.get("rolled") or [] if f in FACES]
    if view.get("phase") == "pick" and rolled:
        bones = max(0, min(int(view.get("last_bones") or 0), len(aside)))
        earlier, new_bones = aside[: len(aside) - bones], aside[len(aside) - bones :]
        groups = [
            ("tray_aside", earlier, False),
            ("tray_bones", new_bones, False),
            ("tray_throw", rolled, True),
        ]
        return [g for g in groups if g[1]]
    if aside or rolled:
        return [("tray_result" if len(aside) == 5 else "tray_aside", aside + rolled, False)]
    return [("tray_dice", [""] * 5, False)]


# --- drawing -----------------------------------------------------------------------------------------

# what the circle shows (each chip's face, which glow, the open stretch) and the part of the board it
# covers: chips, their halos and the band under the stretch reach 195 px from the centre
RingKey = tuple[tuple[int | str, ...], tuple[bool, ...], tuple[int, int] | None]
RING_BOX = (CX - RING_R - 40, CY - RING_R - 40, CX + RING_R + 40, CY + RING_R + 40)


def _draw_ring(f: _Frame) -> None:
    """The circle of chips, then the hunters on it. The chips change in about half of the moves (none
    while dice are picked), so the drawn circle is kept by what it shows and pasted back (0.3 ms)."""
    key = _ring_key(f.view)
    f.lt.rings.draw(f.img, RING_BOX, key, lambda: _draw_chips(f, key))
    mm, bb = f.view.get("mm", -1), f.view.get("bb", N_CHIPS)
    mm = mm if isinstance(mm, int) and -1 <= mm < N_CHIPS else -1
    bb = bb if isinstance(bb, int) and 0 <= bb <= N_CHIPS else N_CHIPS
    same = mm == bb
    for hunter, pos, shift in (("bb", bb, -0.55 if same else 0.0), ("mm", mm, 0.55 if same else 0.0)):
        spr, xy = f.lt.pin(hunter, pos, shift)
        f.img.paste(spr, xy, spr)
        f.spots.setdefault("pins", {})[hunter] = (xy[0], xy[1], xy[0] + spr.width, xy[1] + spr.height)


def _ring_key(view: dict[str, Any]) -> RingKey:
    """What the circle of chips shows: each chip's face, the chips awaiting keep/give, the open stretch."""
    path = list(view.get("path") or [])[:N_CHIPS]
    path += [None] * (N_CHIPS - len(path))
    # the chips awaiting keep/give glow only while someone may still choose (not once it is ended)
    pending = view.get("pending") if view.get("phase") == "keep" and not _is_ended(view) else None
    hot = {pending.get("mm"), pending.get("bb")} if isinstance(pending, dict) else set()
    lo, hi = view.get("mm", -1), view.get("bb", N_CHIPS)
    stretch = None
    if isinstance(lo, int) and isinstance(hi, int) and hi - lo > 1 and not _is_over(view):
        stretch = (max(lo, -1), min(hi, N_CHIPS))
    return tuple(_chip_key(chip) for chip in path), tuple(i in hot for i in range(N_CHIPS)), stretch


def _draw_chips(f: _Frame, key: RingKey) -> None:
    chips, hot, stretch = key
    if stretch is not None:
        # a light band under the open stretch: chips the hunters already walked past are out of play
        band = RING_CHIP + 8
        r = RING_R + band / 2  # PIL draws an arc's width inwards from its box
        start, end = (math.degrees(slot_angle(p)) for p in (stretch[0] + 0.5, stretch[1] - 0.5))
        f.d.arc((CX - r, CY - r, CX + r, CY + r), start, end, fill=ROW, width=band)
    for i in range(N_CHIPS):
        x, y = ring_xy(i)
        if hot[i]:
            c.paste(f.img, f.a.halos[RING_CHIP], (x, y), center=True)
        c.paste(f.img, f.a.chips[(RING_CHIP, chips[i])], (x, y), center=True)


def _dice_layout(groups: list[tuple[str, list[str], bool]], die: int) -> tuple[list[float], float]:
    """Tray widths and their total: room for the dice and the label (cut to ``TRAY_LABEL_W`` if the
    dice are narrower, so that even three trays of small dice stay within ``MAX_TRAYS_W``)."""
    widths = []
    for label, faces, _ in groups:
        row = len(faces) * die + (len(faces) - 1) * DICE_GAP
        label_w = min(c.text_width(label, 11, True) + 4, max(row, TRAY_LABEL_W))
        widths.append(max(row, label_w) + 2 * TRAY_PAD)
    return widths, sum(widths) + GROUP_GAP * (len(groups) - 1)


def _draw_dice(f: _Frame, top: int) -> None:
    """The five dice in labelled trays; the throw still to choose from is highlighted."""
    ended = _is_ended(f.view)  # nobody will choose from the throw of an ended game
    groups = [(f.label(key), faces, live and not ended) for key, faces, live in _dice_groups(f.view)]
    die = DIE
    widths, total = _dice_layout(groups, die)
    if total > MAX_TRAYS_W:  # three trays: smaller dice keep clear of the ring
        die = DIE_SMALL
        widths, total = _dice_layout(groups, die)
    h = die + 28
    y = top + (DIE - die) // 2
    x = CX - total / 2
    for (label, faces, live), w in zip(groups, widths, strict=True):
        fill, outline = (c.HILITE, c.GOLD) if live else (TRAY, c.SAND_DARK)
        c.rounded_box(f.d, (x, y, x + w, y + h), 9, fill=fill, outline=outline, width=2 if live else 1)
        text, size = c.fit_size(label, 11, True, w - 2 * TRAY_PAD - 4, 9)
        c.text(f.d, (x + w / 2, y + 11), text, size, c.INK if live else c.MUTED, bold=True, anchor="mm")
        dx = x + (w - (len(faces) * die + (len(faces) - 1) * DICE_GAP)) / 2
        for face in faces:
            c.paste(f.img, f.lt.dice[(face, die)], (dx, y + 21))
            if live:
                f.spots.setdefault("dice", []).append((face, (dx, y + 21, dx + die, y + 21 + die)))
            dx += die + DICE_GAP
        x += w + GROUP_GAP


def _draw_tally(f: _Frame, y: int) -> None:
    """How many MM and BB dice are set aside: the steps each hunter will walk."""
    aside = f.view.get("aside") or []
    parts = [(h, aside.count(h)) for h in ("mm", "bb")]
    widths = [24 + 5 + c.text_width(f"×{k}", 17, True) for _, k in parts]
    total = sum(widths) + 26
    x = CX - total / 2
    for (h, k), w in zip(parts, widths, strict=True):
        c.paste(f.img, f.lt.tokens[h], (x, y - 12))
        c.text(f.d, (x + 29, y), f"×{k}", 17, c.INK if k else c.MUTED, bold=True, anchor="lm")
        x += w + 26


def _draw_keep(f: _Frame, y: int) -> None:
    """The two chips under the hunters, big: values shown only if the view reveals them."""
    pending = f.view.get("pending") or {}
    path = f.view.get("path") or []
    for h, dx in (("mm", -44), ("bb", 44)):
        key: int | str = _value_key(pending.get(f"{h}_v"))
        idx = pending.get(h)
        if key == "back" and isinstance(idx, int) and 0 <= idx < len(path):
            ring = _chip_key(path[idx])
            key = ring if ring != "taken" else "back"
        c.paste(f.img, f.a.halos[BIG_CHIP], (CX + dx, y), center=True)
        c.paste(f.img, f.a.chips[(BIG_CHIP, key)], (CX + dx, y), center=True)
        r = BIG_CHIP / 2 + 2
        f.spots.setdefault("keep", {})[h] = (CX + dx - r, y - r, CX + dx + r, y + r)
        c.paste(f.img, f.lt.tokens[h], (CX + dx + (-40 if dx < 0 else 40), y), center=True)


def _prompt(f: _Frame, phase: str, y: int, width: int) -> None:
    """What the player is asked to do, ``width`` px at most: the ring's chips are not far."""
    text, size = c.fit_size(f.label(f"prompt_{phase}"), 15, True, width, 12)
    c.text(f.d, (CX, y), text, size, c.INK, bold=True, anchor="mm")


def _draw_centre(f: _Frame) -> None:
    view, d = f.view, f.d
    phase = view.get("phase")
    over = _is_over(view)
    if _is_ended(view):
        text, size = c.fit_size(f.label("game_ended"), 22, True, 240, 16)
        c.text(d, (CX, CY - 95), text, size, c.RED, bold=True, anchor="mm")
        _draw_dice(f, CY - 58)
        return
    if over:
        text, size = c.fit_size(f.label("game_over"), 22, True, 240, 16)
        c.text(d, (CX, CY - 95), text, size, c.RED, bold=True, anchor="mm")
    else:
        who = f.name(view.get("current"))
        c.text(d, (CX, CY - 95), who, 20, c.INK, bold=True, anchor="mm", max_width=220)
    _draw_dice(f, CY - 58)
    if over:
        winners = [w for w in view.get("winners") or [] if isinstance(w, int)]
        if winners:
            label = c.fit_text(", ".join(f.name(w) for w in winners), 19, True, 220)
            w = c.text_width(label, 19, True) + 30
            c.paste(f.img, f.a.crown, (CX - w / 2, CY + 38))
            c.text(d, (CX - w / 2 + 30, CY + 50), label, 19, c.INK, bold=True, anchor="lm")
        return
    if phase == "keep" and isinstance(view.get("pending"), dict):
        _prompt(f, "keep", CY + 36, 290)
        _draw_keep(f, CY + 80)
        return
    _draw_tally(f, CY + 38)
    if phase in PHASES:
        _prompt(f, phase, CY + 72, 264)


def _draw_spoils(f: _Frame) -> None:
    """The three spoils cards and who holds each: they change a few times a game, so kept as drawn."""
    spoils = f.view.get("spoils") or {}
    holders = tuple(_holder(f, spoils.get(key)) for key in ANIMALS)
    box = (PX0, CARD_Y, PX0 + len(ANIMALS) * (CARD_W + 8), CARD_Y + CARD_H + 1)
    f.lt.kept.draw(f.img, box, ("spoils", holders), lambda: _paint_spoils(f, holders))


def _holder(f: _Frame, holder: Any) -> tuple[str, bool]:
    return (f.name(holder), True) if isinstance(holder, int) else (f.label("middle"), False)


def _paint_spoils(f: _Frame, holders: tuple[tuple[str, bool], ...]) -> None:
    for k, (key, (text, held)) in enumerate(zip(ANIMALS, holders, strict=True)):
        x = PX0 + k * (CARD_W + 8)
        c.paste(f.img, f.lt.cards[key], (x, CARD_Y))
        mid = (x + CARD_W / 2, CARD_Y + 58)
        colour, bold = (c.INK, True) if held else (c.MUTED, False)
        c.text(f.d, mid, text, 12, colour, bold=bold, anchor="mm", max_width=CARD_W - 14)


def _stash_items(f: _Frame, seat: int) -> list[Image.Image]:
    """Spoils badges, then (only once the game is over) every stash chip, highest first."""
    spoils = f.view.get("spoils") or {}
    items = [f.a.badges[key] for key in ANIMALS if spoils.get(key) == seat]
    stashes = f.view.get("stashes")
    if _is_over(f.view) and isinstance(stashes, list) and seat < len(stashes):
        chips = [v for v in stashes[seat] or [] if isinstance(v, int)]
        items += [f.a.chips[(MINI_CHIP, _value_key(v))] for v in sorted(chips, reverse=True)]
    return items


def _draw_score(f: _Frame, seat: int, y: int, hot: bool, items: list[Image.Image], pos: list) -> None:
    """A player's row once the game is over: crown, name, score and every chip collected."""
    d, line1 = f.d, y + 18
    scores = f.view.get("scores") or []
    score = scores[seat] if seat < len(scores) else None
    score_s = str(score) if isinstance(score, int) else "–"
    sw = c.text_width(score_s, 22, True)
    pts = c.fit_text(f.label("pts"), 12, False, 60)
    unit = max(32, math.ceil(c.text_width(pts, 12)) + 12)  # the score's unit ends 12 px inside the row
    c.text(d, (PX1 - unit - 4, line1 + 1), score_s, 22, c.INK, bold=True, anchor="rm")
    c.text(d, (PX1 - unit, line1 + 4), pts, 12, c.MUTED, anchor="lm")
    if hot:
        c.paste(f.img, f.a.crown, (PX0 + 6, line1 - 13))
    name_w = round(PX1 - PX0 - 48 - unit - sw)
    c.text(d, (PX0 + 34, line1), f.name(seat), 18, c.INK, bold=True, anchor="lm", max_width=name_w)
    if not items:
        xy = (PX0 + 10, y + 34 + MINI_PITCH // 2)
        c.text(d, xy, f.label("no_chips"), 12, c.MUTED, anchor="lm", max_width=PX1 - PX0 - 20)
    for it, (ix, line) in zip(items, pos, strict=True):
        iy = y + 34 + line * MINI_PITCH + (MINI_PITCH - it.height) // 2
        c.paste(f.img, it, (PX0 + 9 + ix, iy))


def _draw_players(f: _Frame) -> None:
    view, d = f.view, f.d
    n = view.get("n")
    n = max(1, min(n if isinstance(n, int) else len(f.names), 4))
    over = _is_over(view)
    current = view.get("current")
    sizes = view.get("stash_sizes") or []
    winners = set(view.get("winners") or [])
    flow_w = PX1 - PX0 - 18
    layout = []
    for seat in range(n):
        items = _stash_items(f, seat)
        if over:
            pos = c.flow_positions([it.width for it in items], flow_w, MINI_PITCH - MINI_CHIP)
            lines = (pos[-1][1] + 1) if pos else 1
            h = 34 + lines * MINI_PITCH + 5
        else:
            pos, h = [], ROW_H
        layout.append((seat, items, pos, h))
    avail = PANEL[3] - 8 - ROWS_Y
    used = sum(row[3] for row in layout)
    gap = 8 if used + 8 * (n - 1) <= avail else max(2, (avail - used) // max(1, n - 1))
    y = ROWS_Y
    for seat, items, pos, h in layout:
        is_turn = not over and not _is_ended(view) and seat == current
        hot = is_turn or (over and seat in winners)
        f.spots.setdefault("rows", {})[seat] = (PX0, y, PX1, y + h)
        if over:
            fill, outline = (c.HILITE, c.GOLD) if hot else (ROW, c.SAND_DARK)
            c.rounded_box(d, (PX0, y, PX1, y + h), 9, fill=fill, outline=outline, width=3 if hot else 1)
            _draw_score(f, seat, y, hot, items, pos)
        else:  # a row during the game changes when the turn passes or chips are kept: kept as drawn
            count = sizes[seat] if seat < len(sizes) and isinstance(sizes[seat], int) else 0
            badges = tuple(key for key in ANIMALS if (f.view.get("spoils") or {}).get(key) == seat)
            key = ("row", y, h, hot, is_turn, f.name(seat), count, badges)
            f.lt.kept.draw(f.img, (PX0, y, PX1 + 1, y + h + 1), key, functools.partial(_paint_row, f, key))
        y += h + gap


def _paint_row(f: _Frame, key: tuple[Any, ...]) -> None:
    """A player's row during the game: whose turn, the name, how many chips, the spoils held."""
    _, y, h, hot, is_turn, name, count, badges = key
    d = f.d
    fill, outline = (c.HILITE, c.GOLD) if hot else (ROW, c.SAND_DARK)
    c.rounded_box(d, (PX0, y, PX1, y + h), 9, fill=fill, outline=outline, width=3 if hot else 1)
    line1 = y + 18
    if is_turn:
        c.paste(f.img, f.a.marker, (PX0 + 9, line1 - 8))
    c.text(d, (PX0 + 30, line1), name, 18, c.INK, bold=True, anchor="lm", max_width=PX1 - PX0 - 40)
    c.paste(f.img, f.a.chips[(MINI_CHIP, "back")], (PX0 + 30, y + 33))
    c.text(d, (PX0 + 56, y + 43), f"×{count}", 15, c.INK, bold=True, anchor="lm")
    x = PX1 - 9
    for badge in reversed(badges):
        it = f.a.badges[badge]
        x -= it.width
        c.paste(f.img, it, (x, y + 33))
        x -= 5


def _header_and_caption(f: _Frame, caption: str | None) -> None:
    view = f.view
    variant = view.get("variant") or "basic"
    parts = [f.label(f"variant_{variant}") if variant in ("basic", "uncertain") else c.clean_text(variant)]
    if view.get("single"):
        parts.append(f.label("single"))
    if isinstance(view.get("turn"), int):
        parts.append(f.label("turn", n=view["turn"]))
    room = min(W - 220, round(W - 14 - 24 - (14 + f.lt.title_w)))  # right of the title
    c.text(f.d, (W - 14, HEADER_H / 2), "  ·  ".join(parts), 15, c.CREAM, anchor="rm", max_width=room)
    if caption is None:
        caption = _default_caption(f)
    if caption:
        caption = c.displayable(caption)
        c.text(f.d, (14, H - CAPTION_H / 2), caption, 17, c.CREAM, bold=True, anchor="lm", max_width=W - 28)


def _default_caption(f: _Frame) -> str:
    if _is_ended(f.view):
        return f.label("caption_ended")
    if _is_over(f.view):
        winners = [f.name(w) for w in f.view.get("winners") or []]
        if not winners:
            return f.label("caption_over")
        return f.label("caption_winners" if len(winners) > 1 else "caption_winner", names=" & ".join(winners))
    phase = f.view.get("phase")
    key = f"caption_{phase}" if phase in PHASES else "caption_turn"
    return f.label(key, name=f.name(f.view.get("current")))


def _texts(labels: Mapping[str, str]) -> Texts:
    """The words the cached sprites carry: one set per language."""

    def get(key: str) -> str:
        return _label(labels, key)

    cards = [get(f"card_{animal}") for animal in ANIMALS]
    return Texts(get("title"), get("start"), get("spoils"), get("players"), get("mm"), get("bb"), *cards)


def render_ugah(
    view: dict[str, Any],
    names: list[str],
    *,
    caption: str | None = None,
    labels: Mapping[str, str] = EN_LABELS,
    lesson: lsn.Lesson | None = None,
) -> bytes:
    """Draw an Ugah Ugah! player view (engine ``view(state, seat)``) as PNG bytes.

    ``names`` are display names per seat (cut to fit); ``caption`` is a one-line, already localised
    "what just happened" banner (a status built from ``labels`` is drawn when it is None; "" draws
    none). ``labels`` holds every other word on the board, keyed as ``EN_LABELS``; missing keys (or
    templates with unknown fields) fall back to English. ``lesson``: a costly decision drawn over the
    board (render.lesson; the view is the position it was made in).
    Pure function of its arguments, safe to call from several threads at once.
    """
    lt = lettered(_texts(labels))
    img = lt.bg.copy()
    f = _Frame(img, ImageDraw.Draw(img), names, labels, view, ASSETS.get(), lt)
    _draw_ring(f)
    _draw_centre(f)
    _draw_spoils(f)
    _draw_players(f)
    if lesson is not None:
        overlay.draw(f.d, f.spots, lesson)
    _header_and_caption(f, caption)
    return c.encode_png(img, f.a.palette, PNG_LEVEL)
