"""Who won a match that is over, decided once: the ratings and /stats, the board, the DMs and panels,
the thread line, the recap and /replay all read it from here.

The rules say who won a game they ended (``Rules.outcome``); a resignation with two seats names the
other seat (the row's meta). A member who resigned a game of three or more seats handed their seat
to the computer, which played it to the end: that seat never wins. The winners are the rules'
winners who did not resign; if every one of them resigned, the best of the others by the game's own
order (points, then the game's tie-break: Honga's raw materials), all who tie for it sharing the win.
Who resigned is kept in the match's meta (``resigned``), so it outlives a player's ``forget-me``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import Outcome, Seat
from engine.games import honga
from engine.games.honga_turn import raw_total
from engine.registry import rules_for

# Types only: engine.store.rows, imported at run time, loads its package (which imports ratings).
from engine.store.rows import MatchRow

# A game's order after points among seats that tie on them (bigger is better), where it has one;
# with its tie-break's words for the result ("resources"), as the game's view names them.
TIE_BREAKS: dict[str, tuple[Callable[[Any, Seat], int], str]] = {
    honga.RULES.name: (raw_total, "resources"),
}


@dataclass(frozen=True)
class Final:
    """How a match that is over ended, as every surface tells it."""

    scores: list[int]
    winners: list[Seat]  # never a seat that resigned
    reason: str  # engine.core.REASONS
    resigned: tuple[Seat, ...] = ()  # seats whose member resigned
    computer: tuple[Seat, ...] = ()  # ... of them, those the computer played to the end
    timed_out: tuple[Seat, ...] = ()  # members (who stayed) whose turns the computer played on time
    tiebreak: str | None = (
        None  # what decided the winners where the game says ("score", "resources", "shared")
    )
    rules_winners: tuple[Seat, ...] = ()  # the winners the rules named, before resignations

    @property
    def changed(self) -> bool:
        """Whether a resignation took the win from a seat the rules named."""
        return tuple(self.winners) != self.rules_winners

    def outcome(self) -> Outcome:
        return Outcome(list(self.scores), list(self.winners), self.reason)


def resigned_seats(m: MatchRow) -> list[Seat]:
    """The seats whose member resigned: noted as they did (the meta), and, for rows written before,
    a member's seat that the computer took over."""
    taken = {i for i, s in enumerate(m.seats) if s.user_id is not None and s.ai}
    return sorted(taken | {i for i in m.meta.resigned if 0 <= i < len(m.seats)})


def final(m: MatchRow, state: Any) -> Final | None:
    """The result of a match that is over (None: it runs, or it was ended before its finish)."""
    if m.status == "cancelled":
        return None
    rules_outcome = m.meta.result
    if rules_outcome is None and state is not None:
        rules_outcome = rules_for(m.game).outcome(state)
    if rules_outcome is None:
        return None
    n = len(m.seats)
    scores = list(rules_outcome.scores) + [0] * (n - len(rules_outcome.scores))
    resigned = resigned_seats(m)
    if rules_outcome.reason == "resignation" and n == 2:  # the one who resigned is the one who lost
        resigned = sorted({*resigned, *(i for i in range(n) if i not in rules_outcome.winners)})
    computer = tuple(i for i in resigned if n > 2)
    named = tuple(rules_outcome.winners)
    winners = [w for w in named if w not in resigned]
    tiebreak = _view_tiebreak(m, state)
    reason = rules_outcome.reason
    if len(winners) < len(named):  # what decides among the others (their winners, if none is left)
        best, tiebreak = _best_of(m, state, scores, [i for i in range(n) if i not in resigned])
        winners = winners or best
        reason = "win" if reason == "draw" and len(winners) == 1 else reason
    timed_out = tuple(i for i in m.meta.timed_out if 0 <= i < n and i not in resigned)
    return Final(scores, winners, reason, tuple(resigned), computer, timed_out, tiebreak, named)


def _view_tiebreak(m: MatchRow, state: Any) -> str | None:
    if m.meta.result is not None or state is None or m.game not in TIE_BREAKS:
        return None
    tiebreak = rules_for(m.game).view(state, None).get("tiebreak")
    return tiebreak if isinstance(tiebreak, str) else None


def _best_of(m: MatchRow, state: Any, scores: list[int], seats: list[Seat]) -> tuple[list[Seat], str | None]:
    """The best of ``seats`` by points, then the game's tie-break; all who tie share the win."""
    if not seats:
        return [], None
    top = max(scores[i] for i in seats)
    best = [i for i in seats if scores[i] == top]
    rule = TIE_BREAKS.get(m.game)
    if rule is None or state is None or m.meta.result is not None:
        return best, None
    if len(best) == 1:
        return best, "score"
    key, words = rule
    most = max(key(state, i) for i in best)
    best = [i for i in best if key(state, i) == most]
    return best, words if len(best) == 1 else "shared"


__all__ = ["TIE_BREAKS", "Final", "final", "resigned_seats"]
