"""Personal records: a player's best result per game and mode (solo runs), kept by the engine.

A game that keeps records registers a ``Keeper`` here (pure functions of its rules module): which
records' mode a state's run counts for (None: none, e.g. a race) and, once the run is over, its
result (value, higher is better) given how long it took. As the game starts, the match engine reads
the record to beat (it lands in the match's meta for the surfaces to show); the commit that finishes
the game keeps the run's result in the same transaction as the final snapshot and the ratings
(``Store.commit(..., record=...)``), conditionally (only if it beats the stored record) and
idempotently (the same match asking again gets the same answer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.games import ubongo
from engine.meta import RecordNote

# Types only: engine.store.rows, imported at run time, loads its package, whose Store keeps records.
from engine.store.rows import MatchRow, Record


@dataclass(frozen=True)
class Keeper:
    mode: Callable[[Any], str | None]  # state -> the records' mode its run counts for, or None
    result: Callable[[Any, float | None], tuple[float, bool] | None]  # (over state, seconds) -> result


KEEPERS: dict[str, Keeper] = {
    ubongo.RULES.name: Keeper(ubongo.record_mode, ubongo.record_result),
}


@dataclass(frozen=True)
class Claim:
    """A finished run's result, for its player's record in ``game`` and ``mode``."""

    user_id: int
    game: str
    mode: str
    value: float
    higher: bool  # more is better (tasks solved), else less (a speed run's time)

    def beats(self, best: float) -> bool:
        return self.value > best if self.higher else self.value < best


def holder(m: MatchRow, state: Any) -> tuple[int, str] | None:
    """Whose record the match counts for and in which mode: records are solo results, so the first
    seat's when it is a member's and the game's keeper gives the state a mode; else None."""
    keeper = KEEPERS.get(m.game)
    if keeper is None or state is None or not m.seats:
        return None
    seat = m.seats[0]
    mode = keeper.mode(state)
    if mode is None or seat.ai or seat.user_id is None:
        return None
    return seat.user_id, mode


def claim(m: MatchRow, state: Any) -> Claim | None:
    """What a finishing commit keeps for the records (None: nothing), the run's duration measured
    from the match's meta (``started_at``, ``finished_at``)."""
    who = holder(m, state)
    if who is None:
        return None
    started, finished = m.meta.started_at, m.meta.finished_at
    seconds = finished - started if started is not None and finished is not None else None
    result = KEEPERS[m.game].result(state, seconds)
    if result is None:
        return None
    value, higher = result
    return Claim(who[0], m.game, who[1], float(value), higher)


def noted(claim: Claim, before: Record | None, new: bool) -> RecordNote:
    """What the match's meta says of a finished run: its result, whether it set a new record, the one
    before it (``before``: the stored record this run was measured against) and the record now."""
    previous = before.best if before is not None else None
    return RecordNote(best=claim.value if new else previous, value=claim.value, new=new, previous=previous)


__all__ = ["KEEPERS", "Claim", "Keeper", "claim", "holder", "noted"]
