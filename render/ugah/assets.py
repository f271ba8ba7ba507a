"""Ugah Ugah! sprite caches: everything is painted once and pasted on every board afterwards.

``ASSETS`` holds the sprites without words (chips, animal dice, badges, ...) and the palette, built
once per process. Sprites carrying words (the background with its headings, hunter letters, card
titles) are built once per set of those words, that is once per language: ``lettered(texts)``.
Both are read-only once built, so render threads share them freely.
"""

from __future__ import annotations

from typing import NamedTuple

from PIL import Image

from render import common as c
from render.ugah import sprites as sp
from render.ugah.style import (
    ANIMALS,
    BIG_CHIP,
    BLENDS,
    DIE,
    DIE_SMALL,
    FACES,
    FLAT,
    HUNTERS,
    MINI_CHIP,
    RING_CHIP,
    SPOILS,
    TOKEN,
)

Sprite = tuple[Image.Image, tuple[int, int]]  # a sprite and where its top-left corner goes


class Assets:
    """The sprites without words and the palette."""

    def __init__(self) -> None:
        self.chips = {
            (size, key): sp.chip(size, key)
            for size in (RING_CHIP, MINI_CHIP, BIG_CHIP)
            for key in (1, 2, 3, 4, 5, 6, "back", "taken")
        }
        self.halos = {size: sp.halo(size) for size in (RING_CHIP, BIG_CHIP)}
        self.dice = {
            (face, size): sp.die(face, size)
            for face in FACES
            if face not in HUNTERS
            for size in (DIE, DIE_SMALL)
        }
        self.crown = sp.crown()
        self.marker = sp.marker()
        self.badges = {key: sp.badge(key, fill, ink) for key, (fill, ink) in SPOILS.items()}
        self.palette = c.build_palette(FLAT, BLENDS)


ASSETS = c.Once(Assets)


RINGS, KEPT = 16, 64  # parts kept per language (render.common.Kept)


class Texts(NamedTuple):
    """The words painted into cached sprites."""

    title: str
    start: str
    spoils: str
    players: str
    mm: str  # the hunters' letters on dice, tokens and figures
    bb: str
    dinosaur: str  # spoils card titles
    mammoth: str
    bird: str


class Lettered:
    """The sprites carrying words, for one set of ``Texts``; hunter figures are painted on first use."""

    def __init__(self, texts: Texts) -> None:
        self.texts = texts
        self.bg, self.title_w = sp.background(texts.title, texts.start, texts.spoils, texts.players)
        letters = {"mm": texts.mm, "bb": texts.bb}
        self.dice = {
            **ASSETS.get().dice,
            **{(h, size): sp.die(h, size, letters[h]) for h in HUNTERS for size in (DIE, DIE_SMALL)},
        }
        self.tokens = {h: sp.token(h, TOKEN, letters[h]) for h in HUNTERS}
        self.cards = {key: sp.card(key, *SPOILS[key], getattr(texts, key)) for key in ANIMALS}
        # parts of boards kept as drawn on this background (render.ugah.board): the circles of chips
        # (0.7 MB each), and the spoils cards and players' rows
        self.rings, self.kept = c.Kept(RINGS), c.Kept(KEPT)
        self._pins: c.Memo[tuple[str, int, float], Sprite] = c.Memo(
            lambda k: sp.pin(*k, letters[k[0]]), limit=1024
        )

    def pin(self, hunter: str, pos: int, shift: float) -> Sprite:
        return self._pins.get((hunter, pos, shift))


lettered = c.Memo(Lettered, limit=16).get
