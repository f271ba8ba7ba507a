"""render.png: band-by-band PNG writing gives exactly the input's pixels, reuses unchanged bands and
never mixes up bands of another width or level."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from render import png


def _image(w: int, h: int, seed: int, colours: int = 40) -> Image.Image:
    rng = random.Random(seed)
    img = Image.new("P", (w, h))
    img.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    img.putdata([rng.randrange(colours) if rng.random() < 0.3 else 0 for _ in range(w * h)])
    return img


def _idat(data: bytes) -> bytes:
    """The PNG's IDAT payload; zlib.decompress of it checks the stream's Adler-32 too."""
    at, out = len(png.SIGNATURE), b""
    while at < len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        kind, body, crc = (
            data[at + 4 : at + 8],
            data[at + 8 : at + 8 + size],
            data[at + 8 + size : at + 12 + size],
        )
        assert struct.unpack(">I", crc)[0] == zlib.crc32(body, zlib.crc32(kind))
        out += body if kind == b"IDAT" else b""
        at += 12 + size
    return out


def _same_picture(data: bytes, img: Image.Image) -> None:
    w, h = img.size
    raw = img.tobytes()
    rows = b"".join(bytes(1) + raw[y * w : (y + 1) * w] for y in range(h))
    assert zlib.decompress(_idat(data)) == rows
    out = Image.open(io.BytesIO(data))
    out.load()
    assert out.mode == "P" and out.size == img.size and out.tobytes() == raw
    assert out.getpalette() == img.getpalette()


@pytest.mark.parametrize("size", [(800, 544), (37, 70), (1, 1), (300, png.BAND_ROWS), (5, png.BAND_ROWS + 1)])
def test_the_png_holds_exactly_the_pixels_and_palette(size: tuple[int, int]) -> None:
    png.forget()
    img = _image(*size, seed=size[0])
    _same_picture(png.write(img, 6), img)
    _same_picture(png.write(img, 6), img)  # every band reused
    _same_picture(png.write(img, 1), img)  # another level: deflated again, same pixels
    _same_picture(png.write(img, 6, bands=False), img)  # one stream (a board over the budget)


def test_only_the_changed_bands_are_deflated_again() -> None:
    png.forget()
    img = _image(200, 5 * png.BAND_ROWS, seed=3)
    png.write(img, 6)
    assert len(png._bands) == 5
    changed = img.copy()
    changed.putpixel((7, 2 * png.BAND_ROWS + 3), 39)  # one pixel, in the third band
    _same_picture(png.write(changed, 6), changed)
    assert len(png._bands) == 6  # one new band, four reused


def test_a_band_of_another_width_is_not_taken_for_the_same() -> None:
    """Equal pixel bytes cut into rows of another width are other rows (and another image)."""
    png.forget()
    wide = _image(64, png.BAND_ROWS, seed=5)
    narrow = Image.frombytes("P", (32, 2 * png.BAND_ROWS), wide.tobytes())
    narrow.putpalette(wide.getpalette() or [])
    _same_picture(png.write(wide, 6), wide)
    _same_picture(png.write(narrow, 6), narrow)


def test_the_band_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    png.forget()
    monkeypatch.setattr(png, "BANDS_KEPT", 3)
    for seed in range(4):
        png.write(_image(50, 2 * png.BAND_ROWS, seed=seed), 6)
    assert len(png._bands) == 3
