"""Which timers run after a commit, and when each is due: pure, so it is tested without a clock.

A timer is identified by its key. While the new state still declares a key that was running, its
absolute due time is kept (a placement does not move a countdown); ``per_move`` timers of the seat
that just acted restart. Computer seats get a ``ai:<seat>`` timer instead of a turn limit: their
think time, kept while they stay to move and restarted after each of their own moves or when what
they may do changes (a new round).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.core import Seat, Timer

AWAY_SECONDS = 20  # an away player's turn: long enough to click and take over, short for the others
LOBBY_KEY = "lobby:"


def person_due(timers: dict[str, float]) -> float | None:
    """When a person's time runs out (a turn's or a lobby's limit): never a computer's think time,
    nor a daily turn's reminder (engine.pace), which only says it is coming."""
    due = [t for k, t in timers.items() if not k.startswith(("ai:", "remind:"))]
    return min(due) if due else None


def ai_key(seat: Seat) -> str:
    return f"ai:{seat}"


def plan(
    declared: Iterable[Timer],
    running: dict[str, float],
    now: float,
    *,
    acted: Seat | None,
    turn_seconds: float,
    is_ai: Callable[[Seat], bool],
    is_away: Callable[[Seat], bool],
    think_seconds: Callable[[Seat], float],
    to_move: Iterable[Seat],
    changed: Callable[[Seat], bool] = lambda seat: False,
) -> dict[str, float]:
    """The new key -> due time map. ``acted`` is the seat whose action was just applied (or None);
    ``changed`` tells whether what a seat may do changed in this commit (a new round, a new task):
    a computer's think time then starts again."""
    out: dict[str, float] = {}

    def keep_or_start(key: str, seconds: float, restart: bool) -> None:
        out[key] = running[key] if key in running and not restart else now + seconds

    for t in declared:
        if t.seat is not None and t.action is None and is_ai(t.seat):
            continue  # a computer does not run out of time: it gets its think time below
        seconds = t.seconds
        if seconds is None:  # the match's turn limit, short for a player who has been away
            seconds = (
                min(turn_seconds, AWAY_SECONDS) if t.seat is not None and is_away(t.seat) else turn_seconds
            )
        keep_or_start(t.key, seconds, t.per_move and acted is not None and acted == t.seat)
    for seat in sorted(to_move):
        if is_ai(seat):
            keep_or_start(ai_key(seat), think_seconds(seat), acted == seat or changed(seat))
    return out


def due(timers: dict[str, float], now: float) -> str | None:
    """The earliest key whose time has come (ties: the smaller key, so replays are ordered)."""
    ready = [(t, k) for k, t in timers.items() if t <= now + 0.001]
    return min(ready)[1] if ready else None
