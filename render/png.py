"""PNG writing for palette images, band by band: a band of rows that some recent image already had
is not deflated again.

A move changes a small part of a board (measured over seeded games: 16-53% of 32-row bands), yet
deflating the whole image was the largest cost of a render. So the rows are cut into bands of
``BAND_ROWS``, each band is deflated on its own (a fresh raw deflate stream ended by a full flush:
byte-aligned, no back-reference outside the band), and the deflated bands are kept by a digest of
their pixels, so every band seen lately (in any match: static parts repeat) is copied instead. Joined
behind a zlib header, closed by an empty final block and the Adler-32 of all rows, they are one valid
zlib stream. Pixels never depend on the cache: only how well a band is compressed does.

The image is written here rather than by Pillow for a second reason: Pillow's encoder holds the GIL
while it deflates, so a render thread beside a busy event loop got half the CPU; ``zlib`` (and
zlib-ng) releases it. Rows are unfiltered, as Pillow writes a palette image.

Deflating and the checksums are zlib-ng's (``zlib_ng``, the same API and format as ``zlib``): on the
bands of 60-100 boards of each game it deflated 1.7-2.2x faster than the system's zlib for the same
or fewer bytes (Ugah: 0.39 against 0.86 ms of new bands a board, level 3 against 4), and its CRC-32
and Adler-32 of a band take 0.5 µs, not 8-10 (issue 35).
"""

from __future__ import annotations

import secrets
import struct
import threading
from collections import OrderedDict

import xxhash
from PIL import Image
from zlib_ng import zlib_ng as zlib

BAND_ROWS = 32  # 16 found a few more unchanged rows but cost ~5% more bytes (more fresh starts)
BANDS_KEPT = 16384  # deflated bands remembered (~1 KiB each: the deflated bytes and a digest)
SIGNATURE = b"\x89PNG\r\n\x1a\n"
ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KiB window (the level bits are only a hint to readers)
FINAL_BLOCK = b"\x03\x00"  # an empty fixed-Huffman block with BFINAL set
_ADLER_BASE = 65521

# (digest of the pixels, their length, width, level) -> (deflated, Adler-32, length)
_bands: OrderedDict[tuple[int, int, int, int], tuple[bytes, int, int]] = OrderedDict()
_SEED = secrets.randbits(64)
_lock = threading.Lock()  # the render pool's threads share the bands


def write(img: Image.Image, level: int, bands: bool = True) -> bytes:
    """``img`` (mode "P", 8-bit indices) as PNG bytes, its new bands deflated at zlib ``level``;
    without ``bands`` as one stream (the smallest: no band starts afresh; nothing reused)."""
    w, h = img.size
    raw = img.tobytes()
    if bands:
        step = BAND_ROWS * w
        parts, adler = [ZLIB_HEADER], 1
        for start in range(0, len(raw), step):
            deflated, band_adler, size = _band(raw[start : start + step], w, level)
            parts.append(deflated)
            adler = _adler_combine(adler, band_adler, size)
        idat = b"".join((*parts, FINAL_BLOCK, struct.pack(">I", adler)))
    else:
        idat = zlib.compress(_rows(raw, w), level)
    palette = bytes((img.getpalette() or [])[: 3 * 256])
    return b"".join(
        (
            SIGNATURE,
            _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),  # 8-bit palette indices
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def forget() -> None:
    """Drop every kept band (benchmarks time the deflating, not the reuse)."""
    with _lock:
        _bands.clear()


def _band(pixels: bytes, w: int, level: int) -> tuple[bytes, int, int]:
    """A band's rows (each behind its filter byte 0) deflated alone, their Adler-32 and length."""
    # a band is known by a 128-bit digest, not its 26 KB of pixels, so thousands fit (a match's bands
    # outlive the moves of hundreds of others); the digest is seeded afresh in each process, so no name
    # a player types can be made to collide with another band. XXH3 takes 0.5 µs a band where
    # Python's own (SipHash) hash took 5.3 (0.08 ms of a board's 17 bands)
    key = (xxhash.xxh3_128_intdigest(pixels, _SEED), len(pixels), w, level)
    with _lock:
        kept = _bands.get(key)
        if kept is not None:
            _bands.move_to_end(key)
            return kept
    rows = _rows(pixels, w)
    stream = zlib.compressobj(level, zlib.DEFLATED, -15)  # raw deflate: no header of its own
    out = (stream.compress(rows) + stream.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), len(rows))
    with _lock:
        _bands[key] = out
        while len(_bands) > BANDS_KEPT:
            _bands.popitem(last=False)
    return out


def _rows(pixels: bytes, w: int) -> bytes:
    """Rows of ``w`` pixels, each behind its filter byte (0: none)."""
    return bytes(1) + bytes(1).join([pixels[x : x + w] for x in range(0, len(pixels), w)])


def _adler_combine(a: int, b: int, length_b: int) -> int:
    """Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = length_b % _ADLER_BASE
    s1 = ((a & 0xFFFF) + (b & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    s2 = (rem * (a & 0xFFFF) + (a >> 16) + (b >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return s1 | (s2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
