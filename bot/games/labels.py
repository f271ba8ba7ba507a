"""The words drawn on a game's images, in the reader's language."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import MappingProxyType

from bot.i18n import Translator, translator


def image_labels(game: str, english: Mapping[str, str], tr: Translator | None) -> Mapping[str, str]:
    """Every word drawn on a game's images, from the catalogue (``render.<game>.<label>``; fields
    stay unfilled for the renderer), in the language of ``tr`` (English without one)."""
    tr = tr or translator(None)
    return _labels(game, tuple(english), tr)


@functools.lru_cache(maxsize=64)
def _labels(game: str, keys: tuple[str, ...], tr: Translator) -> Mapping[str, str]:
    """Built once per game and language (30-40 lookups every board), read-only as it is shared."""
    return MappingProxyType({key: tr(f"render.{game}.{key}") for key in keys})
