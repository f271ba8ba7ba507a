"""What a game's renderer provides (``render/<game>/``), so that the bot, the sample images and the
translation tool treat every game alike.

Every picture is drawn from an engine view only and takes each word it draws from a labels mapping
(English: ``labels``; the bot passes the catalogue's ``render.<game>.<key>`` texts in the reader's
language). Drawing functions are module-level, so a drawing pickles into the bot's drawing
processes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

Images = dict[str, bytes]  # PNG bytes by file stem (docs/images/<stem>.png)


@dataclass(frozen=True)
class Renderer:
    game: str
    labels: Mapping[str, str]
    """Every English word the pictures draw, by key (the catalogue's ``render.<game>.<key>``)."""
    board: Callable[..., bytes]
    """The public picture: ``board(view, names, caption=..., labels=..., **mark)`` -> PNG bytes, where
    ``caption`` is a localised banner (None: the renderer's own status; "": none) and ``mark`` what
    a display-only click marks on it (``GameUI.picture``). Called in a worker thread."""
    samples: Callable[[], Images]
    """The README images in English (``./run samples`` writes them into docs/images/)."""
    localized: Callable[[Mapping[str, str]], Images]
    """A few of those pictures drawn with other labels (the translation tool draws them per
    language, as ``<stem>_<lang>.png``, to check long words fit)."""
    private: Callable[..., bytes] | None = None
    """A seat's private picture, where the game has one (Ubongo's workspace)."""
