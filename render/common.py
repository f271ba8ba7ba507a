"""Shared drawing primitives for every game's board renderer.

Speed recipe (see PERFORMANCE.md): draw static parts once, paste cached sprites and cached text
masks, quantize to a palette image computed once with ``Dither.NONE`` and save PNG at a zlib level
measured per game (``encode_png``). Everything cached here is created under a lock (or by a pure
function behind ``lru_cache``) and treated as read-only afterwards; callers copy or paste, never
draw on a cached image.
"""

from __future__ import annotations

import io
import math
import threading
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar

from PIL import Image, ImageDraw, ImageFont

from render import png
from render.graphemes import boundaries

RGB = tuple[int, int, int]
Box = tuple[float, float, float, float]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
T = TypeVar("T")
K = TypeVar("K")

FONT_DIR = Path(__file__).with_name("fonts")
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

# A warm "stone age" scheme with dark ink on light paper: high contrast on phones in light and dark mode.
INK: RGB = (43, 30, 22)
PAPER: RGB = (250, 244, 230)
SAND: RGB = (232, 217, 186)
SAND_DARK: RGB = (205, 184, 146)
BAR: RGB = (74, 46, 28)
CREAM: RGB = (255, 246, 222)
WHITE: RGB = (255, 255, 255)
MUTED: RGB = (128, 106, 84)
GOLD: RGB = (236, 170, 20)
HILITE: RGB = (255, 231, 150)
RED: RGB = (196, 48, 40)

BASE_COLOURS: tuple[RGB, ...] = (INK, PAPER, SAND, SAND_DARK, BAR, CREAM, WHITE, MUTED, GOLD, HILITE, RED)


class Once(Generic[T]):
    """A value built on first use under a lock (double-checked), then shared read-only by all threads."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._value: T | None = None
        self._lock = threading.Lock()

    def get(self) -> T:
        value = self._value
        if value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._factory()
                value = self._value
        return value


class Memo(Generic[K, T]):
    """Values built on first use per key under a lock, then shared read-only by all threads; at most
    ``limit`` kept (the oldest is dropped first), so odd keys cannot grow it without bound."""

    def __init__(self, factory: Callable[[K], T], limit: int = 64) -> None:
        self._factory = factory
        self._limit = limit
        self._values: dict[K, T] = {}
        self._lock = threading.Lock()

    def get(self, key: K) -> T:
        value = self._values.get(key)
        if value is None:
            with self._lock:
                value = self._values.get(key)
                if value is None:
                    value = self._factory(key)
                    while len(self._values) >= self._limit:
                        del self._values[next(iter(self._values))]
                    self._values[key] = value
        return value


class Kept:
    """Parts of a picture kept as drawn, by what they show: a part a move left as it was is pasted back
    rather than drawn again. ``draw`` paints a part only for a key not kept, then keeps its box.

    Sound only when what lies under ``box`` before painting is the same for every use of the keeper
    (it belongs to one background and is used before anything else is drawn there), ``paint`` draws
    nothing outside ``box``, and the key holds everything ``paint`` reads: each game's tests draw
    seeded games both ways and compare the bytes."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._parts: dict[Hashable, Image.Image] = {}
        self._lock = threading.Lock()  # (the render threads share the sprites that hold keepers)

    def draw(
        self, img: Image.Image, box: tuple[int, int, int, int], key: Hashable, paint: Callable[[], object]
    ) -> None:
        kept = self._parts.get(key)
        if kept is not None:
            img.paste(kept, box[:2])
            return
        paint()
        part = img.crop(box)
        with self._lock:
            while len(self._parts) >= self._limit:
                del self._parts[next(iter(self._parts))]
            self._parts[key] = part

    def clear(self) -> None:
        with self._lock:
            self._parts.clear()


# --- fonts -------------------------------------------------------------------------------------------

_font_lock = threading.Lock()
_fonts: dict[tuple[int, bool], Font] = {}


def font(size: int, bold: bool = False) -> Font:
    """Bundled DejaVu Sans at ``size`` px (cached); Pillow's own font if the file is missing.

    Pillow >= 12.2 serialises access to one FreeType face, and GIL builds hold the GIL while
    rendering, so sharing a font object between render threads is safe.
    """
    key = (size, bold)
    f = _fonts.get(key)
    if f is None:
        with _font_lock:
            f = _fonts.get(key)
            if f is None:
                try:
                    f = ImageFont.truetype(str(FONT_DIR / _FONT_FILES[bold]), size)
                except OSError:
                    f = ImageFont.load_default(size=size)
                _fonts[key] = f
    return f


def clean_text(text: object) -> str:
    """One line of printable text: control/format characters dropped, whitespace runs collapsed."""
    s = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in str(text))
    return " ".join(s.split())


_NOTDEF = "\U0010fffd"  # a private-use code point no bundled font covers: renders as the .notdef box


def _glyph_mask(ch: str, bold: bool) -> bytes:
    im = Image.new("L", (48, 48))
    ImageDraw.Draw(im).text((6, 6), ch, font=font(20, bold), fill=255)
    return im.tobytes()


@lru_cache(maxsize=8192)
def has_glyph(ch: str, bold: bool = True) -> bool:
    """Whether the font draws ``ch`` as itself rather than the empty-box .notdef glyph."""
    if ch.isascii() or unicodedata.combining(ch):
        return True
    return _glyph_mask(ch, bold) != _glyph_mask(_NOTDEF, bold)


def displayable(text: object, bold: bool = True) -> str:
    """``clean_text`` without characters the font cannot draw (emoji, CJK in DejaVu), so names
    never show empty boxes; may return "" (callers fall back to a generic label)."""
    return clean_text("".join(ch for ch in clean_text(text) if has_glyph(ch, bold)))


@lru_cache(maxsize=4096)
def fit_text(text: str, size: int, bold: bool, max_width: float) -> str:
    """``text`` cut with an ellipsis so that it is at most ``max_width`` px wide in that font."""
    text = clean_text(text)
    if text_width(text, size, bold) <= max_width:
        return text
    ends = [0, *boundaries(text)]  # cut only between grapheme clusters: no half emoji or accent
    lo, hi = 0, len(ends) - 1
    while lo < hi:  # longest prefix that still fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[: ends[mid]].rstrip() + "…", size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[: ends[lo]].rstrip() + "…"


def fit_size(text: str, size: int, bold: bool, max_width: float, min_size: int) -> tuple[str, int]:
    """Shrink the font from ``size`` px towards ``min_size`` until ``text`` is at most ``max_width``
    px wide; if it is still too wide at ``min_size`` it is cut with an ellipsis. Returns (text, size)."""
    while size > min_size and text_width(text, size, bold) > max_width:
        size -= 1
    return fit_text(text, size, bold, max_width), size


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    s: str,
    size: int,
    fill: RGB,
    *,
    bold: bool = False,
    anchor: str = "la",
    max_width: float | None = None,
) -> float:
    """Draw one line of text (fitted to ``max_width`` if given); returns its width in px."""
    if max_width is not None:
        s = fit_text(s, size, bold, max_width)
    f = font(size, bold)
    x, y = xy
    if (
        draw.mode == "RGB"
        and draw.fontmode == "L"
        and isinstance(f, ImageFont.FreeTypeFont)
        and "\n" not in s
    ):
        # Rasterising with FreeType is most of a board's drawing time, and the same words come back
        # on every board, so the glyph mask is cached. What follows is ImageDraw.text's own
        # single-line path (mask from getmask2 at the same fractional start, offset added to the
        # integer part, blended with draw_bitmap), so the pixels are the same as draw.text's.
        start = (math.modf(x)[0], math.modf(y)[0])
        mask, (dx, dy) = _text_mask(s, size, bold, anchor, start)
        draw.draw.draw_bitmap((int(x) + dx, int(y) + dy), mask, draw.draw.draw_ink(fill))
    else:
        draw.text(xy, s, font=f, fill=fill, anchor=anchor)
    return text_width(s, size, bold)


@lru_cache(maxsize=2048)
def _text_mask(
    s: str, size: int, bold: bool, anchor: str, start: tuple[float, float]
) -> tuple[Any, tuple[int, int]]:
    """The "L" coverage mask of one line and its offset from the anchor point (read-only, shared).
    Masks average about 1.5 KB (a full-width caption about 13 KB), so the bound keeps this to a few
    MB in practice."""
    f = font(size, bold)
    assert isinstance(f, ImageFont.FreeTypeFont)
    return f.getmask2(s, "L", anchor=anchor, start=start)


@lru_cache(maxsize=8192)
def text_width(s: str, size: int, bold: bool = False) -> float:
    """Advance width of ``s`` in px (cached: text fitting measures the same strings on every board)."""
    return font(size, bold).getlength(s)


# --- shapes and sprites ------------------------------------------------------------------------------


def rounded_box(
    draw: ImageDraw.ImageDraw,
    box: Box,
    radius: float,
    fill: RGB | None = None,
    outline: RGB | None = None,
    width: int = 1,
) -> None:
    draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


def sprite(
    w: int, h: int, painter: Callable[[ImageDraw.ImageDraw, int], None], scale: int = 2
) -> Image.Image:
    """An antialiased RGBA sprite: ``painter(draw, scale)`` draws at ``scale``x, then it is shrunk.

    A box filter (plain averaging) gives soft edges without Lanczos ringing, which would add stray
    shades after quantizing and cost PNG bytes. After quantizing to 64 colours, 4x supersampling
    looks the same as 2x but costs about 5% more bytes.
    """
    big = Image.new("RGBA", (w * scale, h * scale), (0, 0, 0, 0))
    painter(ImageDraw.Draw(big), scale)
    return big.reduce(scale)


def paste(canvas: Image.Image, spr: Image.Image, xy: tuple[float, float], center: bool = False) -> None:
    """Paste an RGBA sprite (its alpha is the mask) at top-left ``xy`` or centred on ``xy``."""
    x, y = xy
    if center:
        x -= spr.width / 2
        y -= spr.height / 2
    canvas.paste(spr, (round(x), round(y)), spr)


def blend(a: RGB, b: RGB, t: float = 0.5) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


# --- palette and encoding ----------------------------------------------------------------------------


def build_palette(
    colours: Iterable[RGB],
    blend_pairs: Iterable[tuple[RGB, RGB]] = (),
    max_colours: int = 64,
) -> Image.Image:
    """A "P" image usable as ``quantize(palette=...)``: every flat colour first, then 50% blends of
    the given foreground/background pairs (antialiased edges), up to ``max_colours`` entries."""
    entries: list[RGB] = []
    for col in colours:
        if col not in entries:
            entries.append(col)
    if len(entries) > max_colours:
        raise ValueError(f"{len(entries)} flat colours do not fit a {max_colours}-colour palette")
    for a, b in blend_pairs:
        mid = blend(a, b)
        if len(entries) >= max_colours:
            break
        if mid not in entries:
            entries.append(mid)
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for rgb in entries for v in rgb])
    return pal


# Board PNGs must stay within 25 KiB: one deflated band by band at a fast level and over this is
# saved again as a single stream at level 6 (then well under: 18-23 KiB for the busiest boards).
PNG_BUDGET = 24 * 1024 + 512


def encode_png(img: Image.Image, palette_img: Image.Image, level: int = 6) -> bytes:
    """Quantize ``img`` to the cached palette (no dithering: flat areas stay flat) and save it as PNG.

    ``level`` is the zlib level of the bands not seen lately (``render.png``), picked per game by
    measurement (levels below 6 deflate 1.5-3x faster for 5-25% more bytes). A board over
    ``PNG_BUDGET`` is saved again as one stream at level 6 (5-10% smaller than bands). The pixels do
    not depend on how it was deflated.
    """
    if img.mode != "RGB":
        img = img.convert("RGB")
    q = img.quantize(palette=palette_img, dither=Image.Dither.NONE)
    data = _save_png(q, level)
    if len(data) > PNG_BUDGET:
        data = _save_png(q, 6, bands=False)
    return data


def _save_png(img: Image.Image, level: int, bands: bool = True) -> bytes:
    """A palette image as PNG: written by ``render.png`` (band by band unless ``bands`` is False),
    or by Pillow where it packs a small palette into 4 bits or fewer."""
    palette = img.getpalette() or []
    if img.mode == "P" and len(palette) // 3 > 16:
        return png.write(img, level, bands)
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=level)
    return buf.getvalue()


def flow_positions(widths: Sequence[int], max_width: int, gap: int) -> list[tuple[int, int]]:
    """Left-to-right wrapping layout: (x, line) of each item whose widths are given."""
    out: list[tuple[int, int]] = []
    x = line = 0
    for w in widths:
        if x and x + w > max_width:
            x, line = 0, line + 1
        out.append((x, line))
        x += w + gap
    return out


def label(labels: Mapping[str, str] | None, english: Mapping[str, str], key: str, **fields: Any) -> str:
    """``labels[key]`` with its fields filled in (a translation); the English text of ``english``
    if it is missing or broken, so a bad translation never breaks a picture."""
    template = (labels or {}).get(key)
    if isinstance(template, str):
        try:
            return template.format(**fields) if fields else template
        except (KeyError, IndexError, ValueError, AttributeError):
            pass
    text = english[key]
    return text.format(**fields) if fields else text


@dataclass(frozen=True)
class Frame:
    """One picture being drawn: the image and its drawing context, the seats' names and the words.
    A game's frame adds the view it shows and its sprites, and names its English labels, which
    stand in for a missing or broken label."""

    img: Image.Image
    d: ImageDraw.ImageDraw
    names: Sequence[str]
    labels: Mapping[str, str]
    english: ClassVar[Mapping[str, str]] = {}

    def label(self, key: str, **fields: Any) -> str:
        return label(self.labels, self.english, key, **fields)

    def name(self, seat: Any) -> str:
        """A seat's name as the fonts can draw it; "Player n" for a name that draws as nothing."""
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            name = displayable(self.names[seat])
            if name:
                return name
        return self.label("player", n=seat + 1) if isinstance(seat, int) else "?"
