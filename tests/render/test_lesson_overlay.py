"""The 🎓 overlay (render.lesson): each teaching game's renderer draws the better choice (solid
green) and the one made (dashed red) of every kind of decision its lessons judge, over the position
the decision was made in; a code it cannot place draws nothing, and no lesson draws nothing."""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from engine.registry import rules_for
from render.honga.board import render_honga
from render.lesson import BETTER, PLAYED, Lesson
from render.ugah.board import render_ugah
from render.uonga.board import render_uonga

RENDER: dict[str, Callable[..., bytes]] = {"ugah": render_ugah, "uonga": render_uonga, "honga": render_honga}
NAMES = ["alice", "bob", "carol"]


def _count(png: bytes, colour: tuple[int, int, int]) -> int:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return sum(n for n, rgb in image.getcolors(1 << 16) or [] if rgb == colour)


def _position(game: str, n: int, wanted: Callable[[Any, list[str]], bool]) -> tuple[Any, list[str]]:
    """The first position of seeded random games where ``wanted(state, legal)`` holds."""
    rules = rules_for(game)
    for seed in range(40):
        rng, s = random.Random(seed), rules.setup(n, seed, {})
        while movers := sorted(rules.to_move(s)):
            legal = rules.legal_actions(s, movers[0])
            if wanted(s, legal):
                return s, legal
            s, _ = rules.apply(s, movers[0], rng.choice(legal))
    raise AssertionError(f"no such {game} position")


def _kind(prefix: str) -> Callable[[Any, list[str]], bool]:
    return lambda s, legal: sum(a.startswith(prefix) for a in legal) >= 2


CASES = [  # game, seats, a position with two such choices, the codes' prefix
    ("ugah", 3, "pick."),
    ("ugah", 3, "first."),
    ("ugah", 3, "keep."),
    ("uonga", 2, "place."),
    ("uonga", 2, "move."),
    ("honga", 3, "place."),
    ("honga", 3, "trade."),
]


@pytest.mark.parametrize(("game", "n", "prefix"), CASES)
def test_both_choices_are_drawn_each_its_own_way(game: str, n: int, prefix: str) -> None:
    s, legal = _position(game, n, _kind(prefix))
    choices = [a for a in legal if a.startswith(prefix)]
    better, played = choices[-1], choices[0]
    view = rules_for(game).view(s, None)
    plain = RENDER[game](view, NAMES[:n], caption="")
    drawn = RENDER[game](view, NAMES[:n], caption="", lesson=Lesson(better, played))
    assert _count(drawn, BETTER) > _count(plain, BETTER) + 150, f"{better}: the better choice in green"
    assert _count(drawn, PLAYED) > _count(plain, PLAYED) + 100, f"{played}: the choice made in red"
    only_better = RENDER[game](view, NAMES[:n], caption="", lesson=Lesson(better, "nonsense"))
    assert _count(only_better, PLAYED) < _count(drawn, PLAYED), "red is the choice made, not the better"


def test_a_code_the_board_cannot_show_draws_nothing() -> None:
    s, _ = _position("honga", 3, _kind("place."))
    view = rules_for("honga").view(s, None)
    plain = render_honga(view, NAMES, caption="")
    assert render_honga(view, NAMES, caption="", lesson=Lesson("keep.0", "keep.1")) == plain
