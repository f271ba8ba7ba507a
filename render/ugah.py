"""Ugah Ugah! board image: the ring of 31 chips with its large gap, both hunters, the five dice, the
three spoils cards and the players, drawn from a *player view* dict.

Face-down chips are drawn from ``up`` alone: a path chip that is not face up shows its back even if
the view carried a value, so a hidden value can never leak into the picture. The only values drawn
for face-down chips are ``pending.mm_v`` / ``pending.bb_v``, which the engine fills in only for the
player allowed to see them (the active player choosing which chip to keep).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from render import common as c
from render.common import RGB

W, H = 800, 544
HEADER_H = 40
CAPTION_H = 40
CX, CY = 240, 272  # ring centre: middle of the area between header and caption banner
RING_R = 174
CHIP_R = 14.5
N_CHIPS = 31
GAP_SLOTS = 3  # the large gap is as wide as three chips; MM starts on slot -1, BB on slot 31
SLOT = 2 * math.pi / (N_CHIPS + GAP_SLOTS)
RIM = 20  # the camp disc reaches this far beyond the chip centres
GAP_BITE = 44  # radius of the bite the large gap takes out of the disc

PANEL = (480, HEADER_H + 8, 792, H - CAPTION_H - 8)
PX0, PX1 = PANEL[0] + 8, PANEL[2] - 8  # inner panel width 296
CARD_Y, CARD_H = 72, 72
CARD_W = (PX1 - PX0 - 16) // 3
ROWS_Y = 166
ROW_H = 60
MINI_PITCH = 23

RING_CHIP, MINI_CHIP, BIG_CHIP = 29, 20, 42
DIE, DIE_SMALL = 42, 38
DICE_GAP, GROUP_GAP, TRAY_PAD = 5, 7, 5
MAX_TRAYS_W = 284  # wider trays would touch the ring chips at the sides

# --- colours -----------------------------------------------------------------------------------------
TRACK: RGB = (216, 196, 156)  # the camp disc the ring lies on
TAKEN: RGB = (168, 142, 104)
TRAY: RGB = (224, 207, 170)
ROW: RGB = (242, 233, 211)
MM_COL: RGB = (0, 124, 146)
BB_COL: RGB = (142, 48, 160)
DINO_COL: RGB = (62, 140, 58)
MAMM_COL: RGB = (132, 86, 52)
BIRD_COL: RGB = (226, 170, 24)
BONE_FACE: RGB = (250, 248, 240)
BONE_COL: RGB = (222, 208, 176)
BACK: RGB = (92, 64, 44)
BACK_LINE: RGB = (146, 108, 74)
WORM: RGB = (86, 156, 46)
WORM_DARK: RGB = (40, 96, 30)
CHIP_FILL: dict[int, RGB] = {
    1: (214, 238, 184),
    2: (255, 243, 178),
    3: (255, 212, 104),
    4: (246, 158, 58),
    5: (220, 92, 42),
    6: (166, 32, 38),
}
CHIP_INK: dict[int, RGB] = {1: c.INK, 2: c.INK, 3: c.INK, 4: c.INK, 5: c.WHITE, 6: c.WHITE}

HUNTER = {
    "mm": (MM_COL, 14, 11),  # colour, head radius (MM is the small figure), letter size
    "bb": (BB_COL, 18, 14),
}
FACES: dict[str, tuple[RGB, str, RGB]] = {  # die face -> fill, label, ink (animals: silhouette icons)
    "dinosaur": (DINO_COL, "", c.WHITE),
    "mammoth": (MAMM_COL, "", c.WHITE),
    "bird": (BIRD_COL, "", c.INK),
    "mm": (MM_COL, "MM", c.WHITE),
    "bb": (BB_COL, "BB", c.WHITE),
    "bone": (BONE_FACE, "", c.INK),
    "": (c.PAPER, "", c.INK),  # an empty slot before the first throw
}
SPOILS: tuple[tuple[str, str, RGB, RGB], ...] = (  # key, card title, fill, text colour
    ("dinosaur", "DINOSAUR", DINO_COL, c.WHITE),
    ("mammoth", "MAMMOTH", MAMM_COL, c.WHITE),
    ("bird", "BIRD", BIRD_COL, c.INK),
)
VARIANTS = {"basic": "Basic game", "uncertain": "Uncertain hunting"}
PROMPTS = {
    "pick": "Pick symbols to set aside",
    "order": "Which hunter moves first?",
    "keep": "Keep one chip, give the other",
}

_FLAT = (
    *c.BASE_COLOURS,
    TRACK,
    TAKEN,
    TRAY,
    ROW,
    MM_COL,
    BB_COL,
    DINO_COL,
    MAMM_COL,
    BIRD_COL,
    BONE_FACE,
    BONE_COL,
    BACK,
    BACK_LINE,
    WORM,
    WORM_DARK,
    *CHIP_FILL.values(),
)
_BLENDS = (  # antialiased text edges; other edges snap to the nearer flat colour (fewer PNG bytes)
    (c.INK, c.SAND),
    (c.INK, c.PAPER),
    (c.INK, ROW),
    (c.INK, c.HILITE),
    (c.INK, TRACK),
    (c.CREAM, c.BAR),
)


# --- geometry ----------------------------------------------------------------------------------------


def slot_angle(pos: float) -> float:
    """Screen angle of ring slot ``pos`` (y points down, so growing angles run clockwise); the gap's
    middle slot (-2) sits at 12 o'clock, index 0 is the first chip clockwise after the gap."""
    return -math.pi / 2 + (pos + 2) * SLOT


def ring_xy(pos: float, radius: float = RING_R) -> tuple[float, float]:
    a = slot_angle(pos)
    return CX + radius * math.cos(a), CY + radius * math.sin(a)


# --- sprites -----------------------------------------------------------------------------------------


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


def _chip(size: int, key: int | str) -> Image.Image:
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
        if v == 1:
            _caterpillar(draw, r, r, r)
        else:
            f = c.font(round(size * 0.64 * s), True)
            draw.text((r, r + s * 0.5), str(v), font=f, fill=CHIP_INK[v], anchor="mm")

    return c.sprite(size, size, paint)


def _halo(size: int) -> Image.Image:
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


def _die(face: str, size: int = DIE) -> Image.Image:
    fill, label, ink = FACES[face]

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
        elif label:
            px = round(size * 0.4 * s)  # largest size that leaves a margin inside the die
            while px > 6 * s and c.font(px, True).getlength(label) > (size - 13) * s:
                px -= 1
            draw.text((mid, mid + s), label, font=c.font(px, True), fill=ink, anchor="mm")

    return c.sprite(size, size, paint)


def _token(hunter: str, size: int) -> Image.Image:
    """A round hunter token (MM or BB) without pointer, for tallies and the keep/give choice."""
    col = HUNTER[hunter][0]

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.ellipse((s, s, (size - 1) * s, (size - 1) * s), fill=col, outline=c.INK, width=round(1.5 * s))
        f = c.font(round(size * 0.42 * s), True)
        draw.text((size * s / 2, size * s / 2 + s * 0.5), hunter.upper(), font=f, fill=c.WHITE, anchor="mm")

    return c.sprite(size, size, paint)


def _pin(hunter: str, pos: int, shift: float) -> tuple[Image.Image, tuple[int, int]]:
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
        f = c.font(letter * s, True)
        draw.text((lhx, lhy + s * 0.5), hunter.upper(), font=f, fill=c.WHITE, anchor="mm")

    return c.sprite(w, h, paint), (x0, y0)


def _crown(size: int = 24) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        u = size * s
        pts = [(0.08, 0.82), (0.08, 0.3), (0.3, 0.55), (0.5, 0.18), (0.7, 0.55), (0.92, 0.3), (0.92, 0.82)]
        draw.polygon([(x * u, y * u) for x, y in pts], fill=c.GOLD, outline=c.INK, width=round(1.5 * s))
        for x, y in ((0.08, 0.3), (0.5, 0.18), (0.92, 0.3)):
            r = 0.07 * u
            draw.ellipse((x * u - r, y * u - r, x * u + r, y * u + r), fill=c.GOLD, outline=c.INK, width=s)

    return c.sprite(size, size, paint)


def _marker(size: int = 16) -> Image.Image:
    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        u = size * s
        draw.polygon([(0.12 * u, 0.08 * u), (0.92 * u, 0.5 * u), (0.12 * u, 0.92 * u)], fill=c.INK)

    return c.sprite(size, size, paint)


def _card(kind: str, fill: RGB, title: str, ink: RGB) -> Image.Image:
    """A spoils card without its holder: title, animal and "+3"; the holder goes on the white strip."""
    w, h = CARD_W, CARD_H

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle((s, s, (w - 1) * s, (h - 1) * s), 9 * s, fill=fill, outline=c.INK, width=2 * s)
        draw.rounded_rectangle((5 * s, 46 * s, (w - 5) * s, (h - 5) * s), 5 * s, fill=c.PAPER)
        px = 11 * s
        while px > 7 * s and c.font(px, True).getlength(title) > (w - 14) * s:
            px -= 1
        draw.text((w * s / 2, 12 * s), title, font=c.font(px, True), fill=ink, anchor="mm")
        _animal(draw, kind, (w / 2 - 30) * s, 20 * s, 26 * s, ink, fill)
        draw.text((w * s / 2 + 4 * s, 33 * s), "+3", font=c.font(17 * s, True), fill=ink, anchor="lm")

    return c.sprite(w, h, paint)


def _badge(kind: str, fill: RGB, ink: RGB, w: int = 44, h: int = 20) -> Image.Image:
    """A held spoils card in a player's row: animal and "+3"."""

    def paint(draw: ImageDraw.ImageDraw, s: int) -> None:
        draw.rounded_rectangle(
            (s, s, (w - 1) * s, (h - 1) * s), 5 * s, fill=fill, outline=c.INK, width=round(1.2 * s)
        )
        _animal(draw, kind, 3 * s, 1 * s, 18 * s, ink, fill)
        draw.text((23 * s, h * s / 2 + s * 0.5), "+3", font=c.font(11 * s, True), fill=ink, anchor="lm")

    return c.sprite(w, h, paint)


def _background() -> Image.Image:
    """Everything that never changes: bars, title, ring track with the gap, panel and its headings."""
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
    c.text(d, (14, HEADER_H / 2), "UGAH UGAH!", 22, c.CREAM, bold=True, anchor="lm")
    gx, gy = ring_xy(-2)
    c.text(d, (gx, gy), "START", 10, c.MUTED, bold=True, anchor="mm")
    c.text(d, (PX0 + 2, CARD_Y - 17), "SPOILS", 12, c.MUTED, bold=True)
    c.text(d, (PX0 + 2, ROWS_Y - 18), "PLAYERS", 12, c.MUTED, bold=True)
    return bg


class _Assets:
    """Every sprite, the background and the palette; built once, read-only afterwards."""

    def __init__(self) -> None:
        self.bg = _background()
        self.chips = {
            (size, key): _chip(size, key)
            for size in (RING_CHIP, MINI_CHIP, BIG_CHIP)
            for key in (1, 2, 3, 4, 5, 6, "back", "taken")
        }
        self.halos = {size: _halo(size) for size in (RING_CHIP, BIG_CHIP)}
        self.dice = {(face, size): _die(face, size) for face in FACES for size in (DIE, DIE_SMALL)}
        self.tokens = {h: _token(h, 24) for h in HUNTER}
        self.crown = _crown()
        self.marker = _marker()
        self.cards = {key: _card(key, fill, title, ink) for key, title, fill, ink in SPOILS}
        self.badges = {key: _badge(key, fill, ink) for key, _, fill, ink in SPOILS}
        self.palette = c.build_palette(_FLAT, _BLENDS)
        self._pins: dict[tuple[str, int, float], tuple[Image.Image, tuple[int, int]]] = {}
        self._pin_lock = threading.Lock()

    def pin(self, hunter: str, pos: int, shift: float) -> tuple[Image.Image, tuple[int, int]]:
        key = (hunter, pos, shift)
        got = self._pins.get(key)
        if got is None:
            with self._pin_lock:
                got = self._pins.get(key)
                if got is None:
                    got = self._pins[key] = _pin(hunter, pos, shift)
        return got


ASSETS = c.Once(_Assets)


# --- view helpers ------------------------------------------------------------------------------------


def _name(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        name = c.displayable(names[seat])
        if name:
            return name
    return f"Player {seat + 1}" if isinstance(seat, int) else "?"


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


def _value_key(v: Any) -> int | str:
    return v if isinstance(v, int) and 1 <= v <= 6 else "back"


def _dice_groups(view: dict[str, Any]) -> list[tuple[str, list[str], bool]]:
    """(label, faces, live) groups for the dice tray: set aside / bones of this throw / the throw."""
    aside = [f for f in view.get("aside") or [] if f in FACES]
    rolled = [f for f in view.get("rolled") or [] if f in FACES]
    if view.get("phase") == "pick" and rolled:
        bones = max(0, min(int(view.get("last_bones") or 0), len(aside)))
        earlier, new_bones = aside[: len(aside) - bones], aside[len(aside) - bones :]
        groups = [("ASIDE", earlier, False), ("BONES", new_bones, False), ("THROW", rolled, True)]
        return [g for g in groups if g[1]]
    if aside or rolled:
        return [("RESULT" if len(aside) == 5 else "ASIDE", aside + rolled, False)]
    return [("DICE", [""] * 5, False)]


# --- drawing -----------------------------------------------------------------------------------------


def _draw_ring(img: Image.Image, view: dict[str, Any], a: _Assets) -> None:
    path = list(view.get("path") or [])[:N_CHIPS]
    path += [None] * (N_CHIPS - len(path))
    pending = view.get("pending") if view.get("phase") == "keep" else None
    hot = {pending.get("mm"), pending.get("bb")} if isinstance(pending, dict) else set()
    lo, hi = view.get("mm", -1), view.get("bb", N_CHIPS)
    if isinstance(lo, int) and isinstance(hi, int) and hi - lo > 1 and not _is_over(view):
        # a light band under the open stretch: chips the hunters already walked past are out of play
        band = RING_CHIP + 8
        r = RING_R + band / 2  # PIL draws an arc's width inwards from its box
        start, end = (math.degrees(slot_angle(p)) for p in (max(lo, -1) + 0.5, min(hi, N_CHIPS) - 0.5))
        ImageDraw.Draw(img).arc((CX - r, CY - r, CX + r, CY + r), start, end, fill=ROW, width=band)
    for i in range(N_CHIPS):
        x, y = ring_xy(i)
        if i in hot:
            c.paste(img, a.halos[RING_CHIP], (x, y), center=True)
        c.paste(img, a.chips[(RING_CHIP, _chip_key(path[i]))], (x, y), center=True)
    mm, bb = view.get("mm", -1), view.get("bb", N_CHIPS)
    mm = mm if isinstance(mm, int) and -1 <= mm < N_CHIPS else -1
    bb = bb if isinstance(bb, int) and 0 <= bb <= N_CHIPS else N_CHIPS
    same = mm == bb
    for hunter, pos, shift in (("bb", bb, -0.55 if same else 0.0), ("mm", mm, 0.55 if same else 0.0)):
        spr, xy = a.pin(hunter, pos, shift)
        img.paste(spr, xy, spr)


def _dice_layout(groups: list[tuple[str, list[str], bool]], die: int) -> tuple[list[float], float]:
    widths = [
        max(len(faces) * die + (len(faces) - 1) * DICE_GAP, c.text_width(label, 11, True) + 4) + 2 * TRAY_PAD
        for label, faces, _ in groups
    ]
    return widths, sum(widths) + GROUP_GAP * (len(groups) - 1)


def _draw_dice(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], a: _Assets, top: int) -> None:
    """The five dice in labelled trays; the throw still to choose from is highlighted."""
    groups = _dice_groups(view)
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
        c.rounded_box(d, (x, y, x + w, y + h), 9, fill=fill, outline=outline, width=2 if live else 1)
        c.text(d, (x + w / 2, y + 11), label, 11, c.INK if live else c.MUTED, bold=True, anchor="mm")
        dx = x + (w - (len(faces) * die + (len(faces) - 1) * DICE_GAP)) / 2
        for face in faces:
            c.paste(img, a.dice[(face, die)], (dx, y + 21))
            dx += die + DICE_GAP
        x += w + GROUP_GAP


def _draw_tally(img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], a: _Assets, y: int) -> None:
    """How many MM and BB dice are set aside: the steps each hunter will walk."""
    aside = view.get("aside") or []
    parts = [(h, aside.count(h)) for h in ("mm", "bb")]
    widths = [24 + 5 + c.text_width(f"×{k}", 17, True) for _, k in parts]
    total = sum(widths) + 26
    x = CX - total / 2
    for (h, k), w in zip(parts, widths, strict=True):
        c.paste(img, a.tokens[h], (x, y - 12))
        c.text(d, (x + 29, y), f"×{k}", 17, c.INK if k else c.MUTED, bold=True, anchor="lm")
        x += w + 26


def _draw_keep(img: Image.Image, view: dict[str, Any], a: _Assets, y: int) -> None:
    """The two chips under the hunters, big: values shown only if the view reveals them."""
    pending = view.get("pending") or {}
    path = view.get("path") or []
    for h, dx in (("mm", -44), ("bb", 44)):
        key: int | str = _value_key(pending.get(f"{h}_v"))
        idx = pending.get(h)
        if key == "back" and isinstance(idx, int) and 0 <= idx < len(path):
            ring = _chip_key(path[idx])
            key = ring if ring != "taken" else "back"
        c.paste(img, a.halos[BIG_CHIP], (CX + dx, y), center=True)
        c.paste(img, a.chips[(BIG_CHIP, key)], (CX + dx, y), center=True)
        c.paste(img, a.tokens[h], (CX + dx + (-40 if dx < 0 else 40), y), center=True)


def _draw_centre(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], a: _Assets
) -> None:
    phase = view.get("phase")
    over = _is_over(view)
    if over:
        c.text(d, (CX, CY - 95), "GAME OVER", 22, c.RED, bold=True, anchor="mm")
    else:
        who = _name(names, view.get("current"))
        c.text(d, (CX, CY - 95), who, 20, c.INK, bold=True, anchor="mm", max_width=220)
    _draw_dice(img, d, view, a, CY - 58)
    if over:
        winners = [w for w in view.get("winners") or [] if isinstance(w, int)]
        if winners:
            label = c.fit_text(", ".join(_name(names, w) for w in winners), 19, True, 220)
            w = c.text_width(label, 19, True) + 30
            c.paste(img, a.crown, (CX - w / 2, CY + 38))
            c.text(d, (CX - w / 2 + 30, CY + 50), label, 19, c.INK, bold=True, anchor="lm")
        return
    if phase == "keep" and isinstance(view.get("pending"), dict):
        c.text(d, (CX, CY + 36), PROMPTS["keep"], 15, c.INK, bold=True, anchor="mm")
        _draw_keep(img, view, a, CY + 80)
        return
    _draw_tally(img, d, view, a, CY + 38)
    if phase in PROMPTS:
        c.text(d, (CX, CY + 72), PROMPTS[phase], 15, c.INK, bold=True, anchor="mm")


def _draw_spoils(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], a: _Assets
) -> None:
    spoils = view.get("spoils") or {}
    for k, (key, *_rest) in enumerate(SPOILS):
        x = PX0 + k * (CARD_W + 8)
        c.paste(img, a.cards[key], (x, CARD_Y))
        holder = spoils.get(key)
        mid = (x + CARD_W / 2, CARD_Y + 58)
        if isinstance(holder, int):
            c.text(d, mid, _name(names, holder), 12, c.INK, bold=True, anchor="mm", max_width=CARD_W - 14)
        else:
            c.text(d, mid, "middle", 12, c.MUTED, anchor="mm")


def _stash_items(view: dict[str, Any], seat: int, a: _Assets) -> list[Image.Image]:
    """Spoils badges, then (only once the game is over) every stash chip, highest first."""
    spoils = view.get("spoils") or {}
    items = [a.badges[key] for key, *_ in SPOILS if spoils.get(key) == seat]
    stashes = view.get("stashes")
    if _is_over(view) and isinstance(stashes, list) and seat < len(stashes):
        chips = [v for v in stashes[seat] or [] if isinstance(v, int)]
        items += [a.chips[(MINI_CHIP, _value_key(v))] for v in sorted(chips, reverse=True)]
    return items


def _draw_players(
    img: Image.Image, d: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], a: _Assets
) -> None:
    n = view.get("n") if isinstance(view.get("n"), int) else len(names)
    n = max(1, min(n, 4))
    over = _is_over(view)
    current = view.get("current")
    sizes = view.get("stash_sizes") or []
    scores = view.get("scores") or []
    winners = set(view.get("winners") or [])
    flow_w = PX1 - PX0 - 18
    layout = []
    for seat in range(n):
        items = _stash_items(view, seat, a)
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
        is_turn = not over and seat == current
        hot = is_turn or (over and seat in winners)
        fill, outline = (c.HILITE, c.GOLD) if hot else (ROW, c.SAND_DARK)
        c.rounded_box(d, (PX0, y, PX1, y + h), 9, fill=fill, outline=outline, width=3 if hot else 1)
        name = _name(names, seat)
        line1 = y + 18
        if over:
            score = scores[seat] if seat < len(scores) else None
            score_s = str(score) if isinstance(score, int) else "–"
            sw = c.text_width(score_s, 22, True)
            c.text(d, (PX1 - 36, line1 + 1), score_s, 22, c.INK, bold=True, anchor="rm")
            c.text(d, (PX1 - 32, line1 + 4), "pts", 12, c.MUTED, anchor="lm")
            if hot:
                c.paste(img, a.crown, (PX0 + 6, line1 - 13))
            c.text(
                d,
                (PX0 + 34, line1),
                name,
                18,
                c.INK,
                bold=True,
                anchor="lm",
                max_width=round(PX1 - PX0 - 80 - sw),
            )
            if not items:
                c.text(d, (PX0 + 10, y + 34 + MINI_PITCH // 2), "no chips", 12, c.MUTED, anchor="lm")
            for it, (ix, line) in zip(items, pos, strict=True):
                iy = y + 34 + line * MINI_PITCH + (MINI_PITCH - it.height) // 2
                c.paste(img, it, (PX0 + 9 + ix, iy))
        else:
            if is_turn:
                c.paste(img, a.marker, (PX0 + 9, line1 - 8))
            c.text(d, (PX0 + 30, line1), name, 18, c.INK, bold=True, anchor="lm", max_width=PX1 - PX0 - 40)
            count = sizes[seat] if seat < len(sizes) and isinstance(sizes[seat], int) else 0
            c.paste(img, a.chips[(MINI_CHIP, "back")], (PX0 + 30, y + 33))
            c.text(d, (PX0 + 56, y + 43), f"×{count}", 15, c.INK, bold=True, anchor="lm")
            x = PX1 - 9
            for it in reversed(items):
                x -= it.width
                c.paste(img, it, (x, y + 33))
                x -= 5
        y += h + gap


def _header_and_caption(
    d: ImageDraw.ImageDraw, view: dict[str, Any], names: Sequence[str], caption: str | None
) -> None:
    variant = view.get("variant") or "basic"
    parts = [VARIANTS.get(variant, c.clean_text(variant))]
    if view.get("single"):
        parts.append("1 symbol per roll")
    if isinstance(view.get("turn"), int):
        parts.append(f"Turn {view['turn']}")
    c.text(d, (W - 14, HEADER_H / 2), "  ·  ".join(parts), 15, c.CREAM, anchor="rm", max_width=W - 220)
    if caption is None:
        caption = _default_caption(view, names)
    if caption:
        caption = c.displayable(caption)
        c.text(d, (14, H - CAPTION_H / 2), caption, 17, c.CREAM, bold=True, anchor="lm", max_width=W - 28)


def _default_caption(view: dict[str, Any], names: Sequence[str]) -> str:
    if _is_over(view):
        winners = [_name(names, w) for w in view.get("winners") or []]
        if not winners:
            return "Game over"
        return "Game over: " + " & ".join(winners) + (" win" if len(winners) > 1 else " wins")
    who = _name(names, view.get("current"))
    return {
        "pick": f"{who} is rolling the dice",
        "order": f"{who} chooses which hunter moves first",
        "keep": f"{who} keeps one chip and gives the other away",
    }.get(view.get("phase") or "", f"{who}'s turn")


def render_ugah(view: dict[str, Any], names: list[str], *, caption: str | None = None) -> bytes:
    """Draw an Ugah Ugah! player view (engine ``view(state, seat)``) as PNG bytes.

    ``names`` are display names per seat (cut to fit); ``caption`` is a one-line, already localised
    "what just happened" banner (a plain English status is drawn when it is None; "" draws none).
    Pure function of its arguments, safe to call from several threads at once.
    """
    a = ASSETS.get()
    img = a.bg.copy()
    d = ImageDraw.Draw(img)
    _draw_ring(img, view, a)
    _draw_centre(img, d, view, names, a)
    _draw_spoils(img, d, view, names, a)
    _draw_players(img, d, view, names, a)
    _header_and_caption(d, view, names, caption)
    return c.encode_png(img, a.palette)
