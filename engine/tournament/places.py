"""A finished match's placings for a tournament: each seat's place, 0 first, equal places tied.

Read from the one decided result (engine.result.final), so a tournament agrees with the board, the
recap and the ratings: the winners share first place; the others follow by points, then the game's
own tie-break (Honga's raw materials); a seat whose member resigned or forfeited comes after every
seat that stayed. A match that ended without a result (a manager ended it, its thread was deleted)
is a draw among its players."""

from __future__ import annotations

from typing import Any

from engine.result import TIE_BREAKS, final
from engine.store import MatchRow


def places(m: MatchRow, state: Any) -> list[int]:
    n = len(m.seats)
    decided = final(m, state)
    if decided is None:
        return [0] * n
    resigned = set(decided.resigned)
    if not decided.winners:  # a draw: those who stayed share first place
        return [int(i in resigned) for i in range(n)]
    rule = TIE_BREAKS.get(m.game)

    def key(seat: int) -> tuple[int, int, int, int]:
        tiebreak = rule[0](state, seat) if rule is not None and state is not None else 0
        won = seat in decided.winners
        return (won, seat not in resigned, decided.scores[seat] if not won else 0, tiebreak if not won else 0)

    keys = [key(i) for i in range(n)]
    return [sum(1 for other in keys if other > mine) for mine in keys]
