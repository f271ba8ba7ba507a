"""Sample Uonga boards (``./run samples`` writes them to docs/images/) from real rule states reached
by seeded play. Each sample is the first state of a seeded
random game that shows what the picture is about (a placement turn, a threatened herd, a tie to
choose, a finished game), so the images stay reproducible and the renderer tests reuse them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.games.uonga import RULES, UongaState
from render.uonga.board import render_uonga

NAMES = ["Ada", "Borg the Bold"]
Sample = tuple[dict[str, Any], list[str], str | None, dict[str, Any] | None]


def _first(pred: Callable[[UongaState], bool], options: dict[str, Any] | None = None) -> UongaState:
    """The first state of seeded random games (seed 0, 1, ...) for which ``pred`` holds."""
    for seed in range(5000):
        rng = random.Random(seed)
        s = RULES.setup(2, seed, {"side": "cavemen", **(options or {})})
        while s.phase != "over":
            if pred(s):
                return s
            (seat,) = RULES.to_move(s)
            s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_actions(s, seat)))
        if pred(s):
            return s
    raise LookupError("no seeded game reaches the sample state")


def placement() -> Sample:
    s = _first(lambda s: s.phase == "place" and s.turn == 7 and s.half == "H")
    assert s.last is not None  # a placement turn: the last placement
    return RULES.view(s, None), NAMES, "Ada placed a Hunter on " + s.last["to"], None


def _threatened(s: UongaState) -> bool:
    view = RULES.view(s, None)
    needs = [v["need"] for v in view["surround"].values()]
    return (
        s.phase == "move" and s.side == "C" and bool(view["herds"]) and needs.count(1) >= 2
        and s.last is not None and s.last.get("piece") == "M" and s.last["kind"] == "move"
    )  # fmt: skip


def threat() -> Sample:
    s = _first(_threatened)
    assert s.last is not None  # _threatened saw the Mastodon's move
    view = RULES.view(s, None)
    danger = min(view["surround"], key=lambda sq: (view["surround"][sq]["need"], sq))
    # select a Caveman next to the most threatened Mastodon, as the UI does after the first click
    moves = [a.split(".") for a in RULES.legal_actions(s, s.cav_seat)]
    near = [
        m
        for m in moves
        if abs(ord(m[1][0]) - ord(danger[0])) <= 2 and abs(int(m[1][1]) - int(danger[1])) <= 2
    ]
    sel = (near or moves)[0][1]
    targets = sorted({m[2] for m in moves if m[1] == sel})
    caption = f"Borg moved a Mastodon {s.last['from']}→{s.last['to']}"
    return view, NAMES, caption, {"square": sel, "targets": targets}


def tie() -> Sample:
    s = _first(lambda s: s.phase == "take")
    return RULES.view(s, None), NAMES, None, None


def final() -> Sample:
    s = _first(lambda s: s.phase == "over" and s.result == "C" and len((s.last or {}).get("fallen", [])) >= 1)
    return RULES.view(s, None), NAMES, None, None


SAMPLES: dict[str, Callable[[], Sample]] = {
    "uonga_placement": placement,
    "uonga_threat": threat,
    "uonga_tie": tie,
    "uonga_final": final,
}


def images() -> dict[str, bytes]:
    """The README images, by file stem."""
    out = {}
    for name, make in SAMPLES.items():
        view, names, caption, highlight = make()
        out[name] = render_uonga(view, names, caption=caption, highlight=highlight)
    return out


def localized(labels: Mapping[str, str]) -> dict[str, bytes]:
    """The threatened herd drawn with ``labels`` (the translation tool's picture)."""
    view, names, _, highlight = threat()
    return {"uonga": render_uonga(view, names, caption=None, labels=labels, highlight=highlight)}
