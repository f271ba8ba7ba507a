"""Write docs/images/lesson_<game>.png: the 🎓 step of ``/replay`` for each game with lessons (the
position before a person's costliest decision, the better choice and the one made drawn over it),
from a seeded game where seat 0 plays the easy computer's moves as a person would, rebuilt and
reviewed as the bot does: ``python -m tools.lesson_sample [OUT_DIR] [GAME ...]`` (``./run samples``
runs it too)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.i18n import translator
from bot.replay import shown_at, step_draw
from engine import lessons, options
from engine.meta import MatchMeta
from engine.registry import computer_for, rules_for
from engine.replay import rebuild
from engine.store import LoggedAction, MatchRow, SeatInfo
from render.samples import DOCS_IMAGES

NAMES = ("Grok", "Ula", "Mog")
# per game: seats, seed, options and which of seat 0's lessons to show (0: the costliest); picked so
# that the three pictures show three kinds of decision (dice, a move, a disk's placement)
GAMES: dict[str, tuple[int, int, dict[str, str], str]] = {
    "ugah": (3, 11, {"variant": "basic"}, "pick"),
    "uonga": (2, 5, {}, "move"),
    "honga": (3, 3, {}, "place"),
}


def finished_match(game: str) -> tuple[MatchRow, list[LoggedAction]]:
    """A game played to its end by the computers, seat 0's moves logged as a person's (easy level)."""
    n, seed, chosen, _ = GAMES[game]
    rules, computer = rules_for(game), computer_for(game)
    opts = options.resolve(rules.options, chosen, {"turn_seconds": 120})
    state = rules.setup(n, seed, opts)
    log: list[LoggedAction] = []
    while movers := sorted(rules.to_move(state)):
        seat = movers[0]
        level = "easy" if seat == 0 else computer.levels[0]
        action = computer.choose(state, seat, level)
        state, _ = rules.apply(state, seat, action)
        log.append(LoggedAction(len(log) + 2, seat, action, "player" if seat == 0 else "computer"))
    seats = [SeatInfo(1, NAMES[0]), *(SeatInfo(None, name, ai=True) for name in NAMES[1:n])]
    m = MatchRow(
        id=7, game=game, guild_id=1, channel_id=1, host_id=1, status="finished", version=len(log) + 1,
        seed=seed, seats=seats, options=opts, state=rules.dump(state), meta=MatchMeta(locale="en"),
    )  # fmt: skip
    return m, log


def picture(game: str, lang: str = "en") -> bytes:
    """The 🎓 step of seat 0's costliest decision of the wanted kind (else its costliest)."""
    m, log = finished_match(game)
    steps = rebuild(rules_for(game), len(m.seats), m.seed, m.options, log)
    found = lessons.review(game, len(m.seats), m.seed, m.options, log, [0], top=100)[0]
    kind = GAMES[game][3]
    lesson = next((x for x in found if x.played.startswith(kind)), found[0])
    return step_draw(m, steps, shown_at(lesson), translator(lang), lesson)()


def main(argv: list[str]) -> None:
    out = Path(argv[0]) if argv else DOCS_IMAGES
    for game in argv[1:] or GAMES:
        path = out / f"lesson_{game}.png"
        path.write_bytes(picture(game))
        print(f"{path.name}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
