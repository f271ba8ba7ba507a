"""Sample Ugah Ugah! boards (``./run samples`` writes them to docs/images/) from hand-built player views.

The views are built here by hand (no engine import),
so they double as fixtures for the renderer tests.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from render.ugah.board import render_ugah

# R4 chip table: caterpillar(1) x7, 2 x6, 3 x6, 4 x5, 5 x4, 6 x3 -> 31 chips, 95 points
N = 31
CHIP_VALUES = [1] * 7 + [2] * 6 + [3] * 6 + [4] * 5 + [5] * 4 + [6] * 3


def shuffled_values(seed: int) -> list[int]:
    values = list(CHIP_VALUES)
    random.Random(seed).shuffle(values)
    return values


def _path(
    values: list[int], taken: set[int] | frozenset[int] = frozenset(), up: set[int] | None = None
) -> list[dict[str, Any]]:
    """A public path: taken places and face-down chips carry no value (as in the engine's view)."""
    out = []
    for i, v in enumerate(values):
        if i in taken:
            out.append({"v": None, "up": False, "taken": True})
        elif up is None or i in up:
            out.append({"v": v, "up": True, "taken": False})
        else:
            out.append({"v": None, "up": False, "taken": False})
    return out


def _view(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "ugah",
        "variant": "basic",
        "single": False,
        "n": 2,
        "current": 0,
        "phase": "pick",
        "turn": 1,
        "path": _path(shuffled_values(1)),
        "mm": -1,
        "bb": 31,
        "aside": [],
        "rolled": [],
        "last_bones": 0,
        "spoils": {"dinosaur": None, "mammoth": None, "bird": None},
        "stash_sizes": [0, 0],
        "stash": None,
        "pending": None,
        "over": False,
        "scores": None,
        "winners": None,
        "stashes": None,
    }
    base.update(kw)
    return base


def start_view() -> tuple[dict[str, Any], list[str], str]:
    view = _view(
        n=3,
        stash_sizes=[0, 0, 0],
        aside=["bone"],
        rolled=["mm", "dinosaur", "bird", "bb"],
        last_bones=1,
    )
    return view, ["Ada", "Borg the Bold", "Chen"], "Ada rolled: one bone is set aside automatically"


def mid_view() -> tuple[dict[str, Any], list[str], str]:
    values = shuffled_values(2)
    view = _view(
        n=4,
        current=2,
        phase="order",
        turn=14,
        single=True,
        path=_path(values, taken={0, 1, 3, 4, 6, 9, 27, 28, 30}),
        mm=9,
        bb=27,
        aside=["mm", "bone", "mm", "bb", "bone"],
        last_bones=1,
        spoils={"dinosaur": 2, "mammoth": 0, "bird": None},
        stash_sizes=[3, 2, 3, 1],
    )
    names = ["Ada", "Björn Ångström-Øresund the Very Long Named", "Zoë 🦴", "Дмитрий"]
    return view, names, "Zoë set aside MM ×2 and BB ×1 — MM moves 2, BB moves 1"


def uncertain_view() -> tuple[dict[str, Any], list[str], str]:
    values = shuffled_values(3)
    taken = {0, 2, 5, 7, 25, 26, 29}
    view = _view(
        variant="uncertain",
        n=3,
        current=1,
        phase="keep",
        turn=9,
        path=_path(values, taken=taken, up={4, 17, 22, 27}),  # MM stands on a face-down chip
        mm=11,
        bb=22,
        aside=["mm", "bb", "bone", "mammoth", "mammoth"],
        last_bones=0,
        spoils={"dinosaur": None, "mammoth": 1, "bird": 0},
        stash_sizes=[3, 2, 2],
        pending={"mm": 11, "bb": 22, "mm_v": None, "bb_v": None},
    )
    return view, ["Ada", "Bo", "Chen"], "Bo moved both hunters: keep one chip, give the other away"


def final_view() -> tuple[dict[str, Any], list[str], str]:
    values = shuffled_values(4)
    taken = set(range(N)) - {14}  # chip 14 lies behind MM: it scores for nobody (R33)
    stashes = [[values[i] for i in sorted(taken) if i % 2 == 0], [values[i] for i in sorted(taken) if i % 2]]
    spoils = {"dinosaur": 0, "mammoth": 1, "bird": 1}
    scores = [sum(stashes[0]) + 3, sum(stashes[1]) + 6]
    best = max(scores)
    view = _view(
        phase="over",
        turn=23,
        over=True,
        current=1,
        path=_path(values, taken=taken),
        mm=15,
        bb=16,
        aside=["mm", "mm", "bb", "bird", "bone"],
        last_bones=0,
        spoils=spoils,
        stash_sizes=[len(s) for s in stashes],
        scores=scores,
        winners=[i for i, s in enumerate(scores) if s == best],
        stashes=stashes,
    )
    return view, ["Ada", "Bo"], "The hunters met: game over!"


SAMPLES = {
    "ugah_start": start_view,
    "ugah_mid": mid_view,
    "ugah_final": final_view,
    "ugah_uncertain": uncertain_view,
}


def images() -> dict[str, bytes]:
    """The README images, by file stem."""
    drawn = {name: make() for name, make in SAMPLES.items()}  # (view, names, caption)
    return {name: render_ugah(view, names, caption=caption) for name, (view, names, caption) in drawn.items()}


def localized(labels: Mapping[str, str]) -> dict[str, bytes]:
    """The middle and the end of a game drawn with ``labels`` (the translation tool's pictures)."""
    (view, names, _), (final, final_names, _) = mid_view(), final_view()
    return {
        "ugah": render_ugah(view, names, caption=None, labels=labels),
        "ugah_final": render_ugah(final, final_names, caption=None, labels=labels),
    }
