"""Sample Honga boards (``./run samples`` writes them to docs/images/) from real rule states (seeded
computer play): the start of a 4-player game, a mid-game
moment (full herd, trades taken, a disk being used) and the final board of a 3-player game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.games.honga import RULES, HongaState
from engine.games.honga_ai import COMPUTER
from render.honga.board import render_honga

NAMES = ["Ada", "Borg the Bold", "Chen", "Dana", "Ewa"]


def _step(s: HongaState) -> HongaState:
    seat = s.current
    return RULES.apply(s, seat, COMPUTER.choose(s, seat, "medium"))[0]


def start_state() -> HongaState:
    return RULES.setup(4, 2024, {})


def mid_state() -> HongaState:
    """The first moment of a seeded 4-player game with a full herd, a few trades and hands to use
    (the first seed from 7 on that has one, so a change in the computer's play cannot break it)."""
    for seed in range(7, 40):
        s = RULES.setup(4, seed, {})
        while s.phase != "over":
            full = len(s.herd) == s.herd_cap
            traded = len(s.trade_discard) >= 2
            if full and traded and s.phase == "act" and len(s.left) >= 2:
                return s
            s = _step(s)
    raise RuntimeError("no mid-game moment found")


def final_state() -> HongaState:
    s = RULES.setup(3, 11, {})
    while s.phase != "over":
        s = _step(s)
    return s


def samples() -> list[tuple[str, dict[str, Any], list[str]]]:
    out = []
    for name, s in (("start", start_state()), ("mid", mid_state()), ("final", final_state())):
        out.append((name, RULES.view(s, None), NAMES[: s.n]))
    return out


def images() -> dict[str, bytes]:
    """The README images, by file stem."""
    return {f"honga_{name}": render_honga(view, names) for name, view, names in samples()}


def localized(labels: Mapping[str, str]) -> dict[str, bytes]:
    """The mid-game board drawn with ``labels`` (the translation tool's picture)."""
    _, view, names = samples()[1]
    return {"honga": render_honga(view, names, caption=None, labels=labels)}
