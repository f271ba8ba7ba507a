"""Boards drawn with their kept parts (render.common.Kept) against the same boards drawn afresh: over
seeded games, in every language, with names that reach the edges of their boxes (accents above and
below, long, combining marks, scripts the font lacks), ended games too."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from bot.games.labels import image_labels
from bot.i18n import LANGUAGES, translator
from engine.registry import rules_for
from render.common import Kept

NAMES = [
    "Ada",
    "Ǭgjyp Ÿçqj",  # below and above the line
    "Großmutter Hildegard von Württemberg",  # cut to fit
    "Z̵̡̢̛a̸̢l̷̡g̶̢o̷̡",  # stacked combining marks
    "明美 🦖",  # nothing the font draws but a space
]


def views(
    game: str, options: list[dict[str, Any]], players: list[int], moves: int
) -> Iterator[tuple[dict, list]]:
    """(view, names) of consecutive positions of seeded random games, and each one ended."""
    rules, rng = rules_for(game), random.Random(35)
    for n, opts in zip(players, options, strict=True):
        s = rules.setup(n, rng.getrandbits(32), opts)
        names = [NAMES[(i + n) % len(NAMES)] for i in range(n)]
        for _ in range(moves):
            movers = rules.to_move(s)
            if not movers:
                break
            seat = min(movers)
            s, _ = rules.apply(s, seat, rng.choice(rules.legal_actions(s, seat)))
            view = rules.view(s, None)
            yield view, names
            yield {**view, "ended": True}, names


_way = ["kept"]  # which of the two drawings is being made (what ``counted`` counts)


def counted(monkeypatch: Any, module: Any, *names: str) -> dict[str, int]:
    """How often the painters ``names`` of ``module`` ran, with parts kept and afresh."""
    painted = {"kept": 0, "afresh": 0}
    for name in names:
        real = getattr(module, name)

        def paint(*args: Any, real: Any = real) -> None:
            painted[_way[0]] += 1
            real(*args)

        monkeypatch.setattr(module, name, paint)
    return painted


def compare(
    game: str,
    english: dict[str, str],
    draw: Callable[..., bytes],
    keepers: Callable[[Any], list[Kept]],
    cases: Iterator[tuple[dict, list]],
) -> None:
    """Each board drawn with whatever is kept, then with nothing kept: the same bytes."""
    cases = list(cases)
    for lang in LANGUAGES:
        labels = image_labels(game, english, translator(lang))
        for view, names in cases:
            _way[0] = "kept"
            with_kept = draw(view, names, labels=labels)
            for keeper in keepers(labels):
                keeper.clear()
            _way[0] = "afresh"
            assert draw(view, names, labels=labels) == with_kept, (lang, view.get("phase"), names)
