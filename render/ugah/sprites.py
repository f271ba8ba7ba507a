"""Ugah Ugah! sprite painters: chips, dice, animals, hunters, cards, badges and the static background.

Each function paints one antialiased picture and returns it; none keeps state. Texts drawn into a
sprite (hunter letters, card titles, background headings) are arguments, so callers cache sprites
per language (see ``render.ugah.assets``).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from render import common as c
from render.common import RGB
from render.ugah.style import (
    BACK,
    BACK_LINE,
    BONE_COL,
    CAPTION_H,
    CARD_H,
    CARD_W,
    CARD_Y,
    CHIP_FILL,
    CHIP_INK,
    CHIP_R,
    CX,
    CY,
    FACES,
    GAP_BITE,
    HEADER_H,
    HUNTER,
    N_CHIPS,
    PANEL,
    PX0,
    PX1,
    RIM,
    RING_R,
    ROWS_Y,
    TAKEN,
    TITLE_W,
    TRACK,
    WORM,
    WORM_DARK,
    H,
    W,
    ring_xy,
    slot_angle,
)


def _caterpillar(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float) -> None:
    """A little green worm for the "smelly caterpillar" chip (worth 1), centred on (cx, cy)."""
    seg = 0.2 * r
    line = max(1, round(r / 14))
    for k in range(4):
        x = cx + (-0.52 + 0.25 * k) * r
        y = cy + 0.12 * r + (0.1 * r if k % 2 else -0.02 * r)
        draw.ellipse((x - seg, y - seg, x + seg, y + seg), fill=WORM, outline=WORM_DARK, width=line)
    hx, hy, hr = cx + 0.48 * r, cy - 0.06 * r, 0.27 * r
    draw.line((hx - 0.05 * r, hy - hr, hx - 0.18 * r, hy - hr - 0.3 * r), fill=WORM_DARK, width=line * 2)
    draw.line((hx + 0.12 * r, hy - hr, hx + 0.22 * r, hy - hr - 0.3 * r), fill=WORM_DARK, width=line * 2)
    draw.ellipse((hx - hr, hy - hr, hx + hr, hy + hr), fill=WORM, outline=WORM_DARK, width=line)
    er = 0.09 * r
    draw.ellipse(
        (hx + 0.02 * r - er, hy - 0.06 * r - er, hx + 0.02 * r + er, hy - 0.06 * r + er), fill=c.WHITE
    )
    pr = 0.045 * r
    draw.ellipse((hx + 0.05 * r - pr, hy - 0.06 * r - pr, hx + 0.05 * r + pr, hy - 0.06 * r + pr), fill=c.INK)


def chip(size: int, key: int | str) -> Image.Image:
    """A chip ``size`` px wide: value 1..6, "back" (face down) or "taken" (faint empty outline)."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        r = size * s / 2
        m = s * 1.0
        box = (m, m, size * s - m, size * s - m)
        edge = max(1, round(s * size / 17))
        if key == "taken":
            draw.ellipse(box, outline=TAKEN, width=max(1, round(s * 1.6)))
            return
        if key == "back":
            draw.ellipse(box, fill=BACK, outline=c.INK, width=edge)
            for f in (0.62, 0.3):
                k = r * (1 - f)
                draw.ellipse(
                    (k, k, size * s - k, size * s - k), outline=BACK_LINE, width=max(1, round(s * 1.5))
                )
            return
        v = int(key)
        draw.ellipse(box, fill=CHIP_FILL[v], outline=c.INK, width=edge)
        if v == 1:  # the worm, and its value where it can't be missed
            _caterpillar(draw, r, r + 0.08 * r, r)
            f = c.font(round(size * 0.36 * s), True)
            draw.text((r - 0.4 * r, r - 0.42 * r), "1", font=f, fill=CHIP_INK[v], anchor="mm")
        else:
            f = c.font(round(size * 0.64 * s), True)
            draw.text((r, r + s * 0.5), str(v), font=f, fill=CHIP_INK[v], anchor="mm")

    return c.sprite(size, size, paint)


def halo(size: int) -> Image.Image:
    """A gold disc slightly larger than a chip of ``size`` px: marks the chips awaiting keep/give."""
    d = size + 12

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.ellipse((s, s, (d - 1) * s, (d - 1) * s), fill=c.GOLD)

    return c.sprite(d, d, paint)


def _bone(draw: ImageDraw.ImageDraw, cx: float, cy: float, length: float, thick: float, angle: float) -> None:
    ux, uy = math.cos(angle), math.sin(angle)
    px, py = -uy, ux
    for grow, col in ((thick * 0.16, c.INK), (0.0, BONE_COL)):
        w = thick / 2 + grow
        half = length / 2
        poly = [
            (cx + ux * half + px * w, cy + uy * half + py * w),
            (cx + ux * half - px * w, cy + uy * half - py * w),
            (cx - ux * half - px * w, cy - uy * half - py * w),
            (cx - ux * half + px * w, cy - uy * half + py * w),
        ]
        draw.polygon(poly, fill=col)
        kr = thick * 0.5 + grow
        for end in (1, -1):
            for side in (1, -1):
                kx = cx + ux * half * end + px * thick * 0.42 * side
                ky = cy + uy * half * end + py * thick * 0.42 * side
                draw.ellipse((kx - kr, ky - kr, kx + kr, ky + kr), fill=col)


def _animal(draw: ImageDraw.ImageDraw, kind: str, ox: float, oy: float, u: float, col: RGB, bg: RGB) -> None:
    """A simple silhouette facing right inside the square (ox, oy, ox + u, oy + u)."""

    def pt(x: float, y: float) -> tuple[float, float]:
        return ox + x * u, oy + y * u

    def oval(x: float, y: float, rx: float, ry: float, fill: RGB = col) -> None:
        draw.ellipse((*pt(x - rx, y - ry), *pt(x + rx, y + ry)), fill=fill)

    def bar(x0: float, y0: float, x1: float, y1: float, w: float, fill: RGB = col) -> None:
        draw.line((*pt(x0, y0), *pt(x1, y1)), fill=fill, width=max(1, round(w * u)))

    if kind == "dinosaur":  # long-necked sauropod
        draw.polygon([pt(0.3, 0.52), pt(0.02, 0.74), pt(0.3, 0.66)], fill=col)
        for x in (0.32, 0.42, 0.55, 0.65):
            bar(x, 0.6, x, 0.86, 0.085)
        oval(0.48, 0.58, 0.22, 0.15)
        bar(0.6, 0.56, 0.76, 0.2, 0.11)
        oval(0.81, 0.18, 0.09, 0.065)
        oval(0.84, 0.16, 0.018, 0.018, bg)
    elif kind == "mammoth":  # hairy back, trunk and tusk
        for x in (0.24, 0.36, 0.52, 0.62):
            bar(x, 0.6, x, 0.86, 0.1)
        oval(0.42, 0.52, 0.3, 0.22)
        oval(0.4, 0.4, 0.22, 0.16)  # the hump
        oval(0.7, 0.42, 0.17, 0.17)
        bar(0.8, 0.48, 0.86, 0.84, 0.09)
        draw.arc((*pt(0.58, 0.4), *pt(0.98, 0.74)), 25, 135, fill=c.CREAM, width=max(1, round(0.07 * u)))
        oval(0.74, 0.36, 0.025, 0.025, bg)
    elif kind == "bird":
        draw.polygon([pt(0.32, 0.5), pt(0.04, 0.36), pt(0.1, 0.62)], fill=col)
        oval(0.45, 0.55, 0.24, 0.17)
        oval(0.69, 0.36, 0.13, 0.13)
        draw.polygon([pt(0.79, 0.3), pt(0.98, 0.38), pt(0.79, 0.44)], fill=col)
        draw.arc((*pt(0.26, 0.3), *pt(0.6, 0.62)), 40, 160, fill=bg, width=max(1, round(0.05 * u)))
        oval(0.71, 0.33, 0.03, 0.03, bg)
        bar(0.4, 0.7, 0.38, 0.88, 0.05)
        bar(0.52, 0.7, 0.54, 0.88, 0.05)


def die(face: str, size: int, label: str = "") -> Image.Image:
    """A die showing ``face`` (a key of FACES; "" is an empty slot); hunter faces show ``label``."""
    fill, ink = FACES[face]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        m = s * 1.5
        edge = round(s * 2) if face else round(s * 1.5)
        outline = c.INK if face else c.SAND_DARK
        draw.rounded_rectangle(
            (m, m, size * s - m, size * s - m), radius=9 * s, fill=fill, outline=outline, width=edge
        )
        mid = size * s / 2
        if face == "bone":
            _bone(draw, mid, mid, size * s * 0.42, size * s * 0.15, -math.pi / 5)
        elif face in ("dinosaur", "mammoth", "bird"):
            pad = size * s * 0.16
            _animal(draw, face, pad, pad, size * s - 2 * pad, ink, fill)
        elif label:  # largest size that leaves a margin inside the die
            text, px = c.fit_size(label, round(size * 0.4 * s), True, (size - 13) * s, 6 * s)
            draw.text((mid, mid + s), text, font=c.font(px, True), fill=ink, anchor="mm")

    return c.sprite(size, size, paint)


def token(hunter: str, size: int, letters: str) -> Image.Image:
    """A round hunter token (MM or BB) without pointer, for tallies and the keep/give choice."""
    col = HUNTER[hunter][0]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.ellipse((s, s, (size - 1) * s, (size - 1) * s), fill=col, outline=c.INK, width=round(1.5 * s))
        text, px = c.fit_size(letters, round(size * 0.42 * s), True, (size - 4) * s, 5 * s)
        xy = (size * s / 2, size * s / 2 + s * 0.5)
        draw.text(xy, text, font=c.font(px, True), fill=c.WHITE, anchor="mm")

    return c.sprite(size, size, paint)


def pin(hunter: str, pos: int, shift: float, letters: str) -> tuple[Image.Image, tuple[int, int]]:
    """A hunter figure standing outside the ring, pointing at slot ``pos``; returns sprite and offset."""
    col, head_r, letter = HUNTER[hunter]
    dist = RING_R + CHIP_R + 5 + head_r
    a_head = slot_angle(pos + shift)
    hx, hy = CX + dist * math.cos(a_head), CY + dist * math.sin(a_head)
    tx, ty = ring_xy(pos, RING_R + CHIP_R - 2)
    x0 = math.floor(min(hx - head_r, tx) - 3)
    y0 = math.floor(min(hy - head_r, ty) - 3)
    w = math.ceil(max(hx + head_r, tx) + 3) - x0
    h = math.ceil(max(hy + head_r, ty) + 3) - y0

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        lhx, lhy, ltx, lty = (hx - x0) * s, (hy - y0) * s, (tx - x0) * s, (ty - y0) * s
        dx, dy = ltx - lhx, lty - lhy
        n = math.hypot(dx, dy) or 1.0
        px, py = -dy / n, dx / n
        half = head_r * 0.62 * s
        poly = [(lhx + px * half, lhy + py * half), (lhx - px * half, lhy - py * half), (ltx, lty)]
        draw.polygon(poly, fill=col, outline=c.INK, width=round(1.5 * s))
        rr = head_r * s
        draw.ellipse((lhx - rr, lhy - rr, lhx + rr, lhy + rr), fill=col, outline=c.INK, width=round(2 * s))
        inner = rr - 3.2 * s
        draw.ellipse(
            (lhx - inner, lhy - inner, lhx + inner, lhy + inner), outline=c.WHITE, width=round(1.2 * s)
        )
        text, size = c.fit_size(letters, letter * s, True, (2 * head_r - 5) * s, 6 * s)
        draw.text((lhx, lhy + s * 0.5), text, font=c.font(size, True), fill=c.WHITE, anchor="mm")

    return c.sprite(w, h, paint), (x0, y0)


def crown(size: int = 24) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        u = size * s
        pts = [(0.08, 0.82), (0.08, 0.3), (0.3, 0.55), (0.5, 0.18), (0.7, 0.55), (0.92, 0.3), (0.92, 0.82)]
        draw.polygon([(x * u, y * u) for x, y in pts], fill=c.GOLD, outline=c.INK, width=round(1.5 * s))
        for x, y in ((0.08, 0.3), (0.5, 0.18), (0.92, 0.3)):
            r = 0.07 * u
            draw.ellipse((x * u - r, y * u - r, x * u + r, y * u + r), fill=c.GOLD, outline=c.INK, width=s)

    return c.sprite(size, size, paint)


def marker(size: int = 16) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        u = size * s
        draw.polygon([(0.12 * u, 0.08 * u), (0.92 * u, 0.5 * u), (0.12 * u, 0.92 * u)], fill=c.INK)

    return c.sprite(size, size, paint)


def card(kind: str, fill: RGB, ink: RGB, title: str) -> Image.Image:
    """A spoils card without its holder: title, animal and "+3"; the holder goes on the white strip."""
    w, h = CARD_W, CARD_H

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((s, s, (w - 1) * s, (h - 1) * s), 9 * s, fill=fill, outline=c.INK, width=2 * s)
        draw.rounded_rectangle((5 * s, 46 * s, (w - 5) * s, (h - 5) * s), 5 * s, fill=c.PAPER)
        text, px = c.fit_size(title, 11 * s, True, (w - 14) * s, 7 * s)
        draw.text((w * s / 2, 12 * s), text, font=c.font(px, True), fill=ink, anchor="mm")
        _animal(draw, kind, (w / 2 - 30) * s, 20 * s, 26 * s, ink, fill)
        draw.text((w * s / 2 + 4 * s, 33 * s), "+3", font=c.font(17 * s, True), fill=ink, anchor="lm")

    return c.sprite(w, h, paint)


def badge(kind: str, fill: RGB, ink: RGB, w: int = 44, h: int = 20) -> Image.Image:
    """A held spoils card in a player's row: animal and "+3"."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle(
            (s, s, (w - 1) * s, (h - 1) * s), 5 * s, fill=fill, outline=c.INK, width=round(1.2 * s)
        )
        _animal(draw, kind, 3 * s, 1 * s, 18 * s, ink, fill)
        draw.text((23 * s, h * s / 2 + s * 0.5), "+3", font=c.font(11 * s, True), fill=ink, anchor="lm")

    return c.sprite(w, h, paint)


def background(title: str, start: str, spoils: str, players: str) -> tuple[Image.Image, float]:
    """Everything that never changes during a game: bars, title, ring track with the gap, the panel and
    its headings (the four texts, already in the reader's language). Returns it and the title's width."""
    flat = Image.new("RGB", (W, H), c.SAND)
    d = ImageDraw.Draw(flat)
    d.rectangle((0, 0, W, HEADER_H), fill=c.BAR)
    d.rectangle((0, H - CAPTION_H, W, H), fill=c.BAR)
    # The camp: one disc holding the ring and the dice, with a bite out of its rim for the large gap.
    # Drawn without antialiasing: its colour is close to the sand, so the edge does not look jagged,
    # and hard edges cost far fewer PNG bytes than soft ones.
    r_out = RING_R + RIM
    d.ellipse((CX - r_out, CY - r_out, CX + r_out, CY + r_out), fill=TRACK)
    gx, gy = ring_xy(-2, RING_R + 8)
    rr = GAP_BITE
    d.ellipse((gx - rr, gy - rr, gx + rr, gy + rr), fill=c.SAND)
    s = 3  # the rest is drawn at 3x and shrunk: antialiased
    big = flat.resize((W * s, H * s), Image.Resampling.NEAREST)
    d = ImageDraw.Draw(big)
    for pos in (-1, N_CHIPS):  # where the hunters wait in the gap
        x, y = ring_xy(pos)
        rr = 6
        d.ellipse(((x - rr) * s, (y - rr) * s, (x + rr) * s, (y + rr) * s), outline=TAKEN, width=2 * s)
    d.rounded_rectangle(tuple(v * s for v in PANEL), 12 * s, fill=c.PAPER, outline=c.SAND_DARK, width=2 * s)
    bg = big.reduce(s)

    d = ImageDraw.Draw(bg)
    title_w = c.text(d, (14, HEADER_H / 2), title, 22, c.CREAM, bold=True, anchor="lm", max_width=TITLE_W)
    gx, gy = ring_xy(-2)
    start, size = c.fit_size(start, 10, True, 46, 8)  # between the hunters' waiting places
    c.text(d, (gx, gy), start, size, c.MUTED, bold=True, anchor="mm")
    c.text(d, (PX0 + 2, CARD_Y - 17), spoils, 12, c.MUTED, bold=True, max_width=PX1 - PX0 - 4)
    c.text(d, (PX0 + 2, ROWS_Y - 18), players, 12, c.MUTED, bold=True, max_width=PX1 - PX0 - 4)
    return bg, title_w
