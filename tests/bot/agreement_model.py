"""What a finished game's stored row says happened (the agreement matrix's "expected" model) and what
a surface's text claims: who won, who resigned, whose turns the computer played, who ended it.

The model is read ONCE from the stored match (``m.meta.result`` or the rules' outcome, the seats' ai
flags, the ``resigned``/``ended`` events, ``ended_by``, the action log's ``timeout`` moves); the
phases after a restart and after ``/privacy forget-me`` only rename the forgotten seat."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from bot.i18n import seat_name, translator
from engine.registry import rules_for

TR = translator("en")
FORMER = TR("seat.forgotten")


@dataclass(frozen=True)
class Expected:
    """The stored result, by seat."""

    game: str
    status: str  # finished / cancelled
    why: str  # win, draw, resignation (finished); ended, channel_gone (cancelled)
    names: tuple[str, ...]  # each seat's name as shown
    user_ids: tuple[int | None, ...]
    winners: frozenset[int]  # a resigned seat never wins (issue 33's decision)
    resigned: frozenset[int]
    computer_for: frozenset[int]  # people whose turns the computer played (resigned, timed out)
    ended_by: str | None  # who ended a cancelled game (host or moderator)
    forgotten: frozenset[int] = field(default_factory=frozenset)  # seats whose player was forgotten

    def shown(self, seat: int) -> str:
        return FORMER if seat in self.forgotten else self.names[seat]

    def who(self, seats: frozenset[int] | set[int]) -> set[str]:
        return {self.shown(s) for s in seats}

    @property
    def everyone(self) -> set[str]:
        return {self.shown(s) for s in range(len(self.names))}

    def forgetting(self, user_id: int) -> Expected:
        """The same result once ``user_id``'s data is deleted: their seat is a former player's."""
        gone = {i for i, u in enumerate(self.user_ids) if u == user_id}
        return replace(self, forgotten=self.forgotten | gone)

    def stats_of(self, seat: int) -> tuple[int, int] | None:
        """(games, wins) /stats must give the seat's player for this game; None: none at all."""
        if self.status != "finished" or len(self.names) < 2 or seat in self.forgotten:
            return None
        return 1, int(seat in self.winners)


async def expected(env: Any, mid: int) -> Expected:
    """The model of match ``mid`` as the store holds it."""
    m, state = await env.bot.matches.get(mid)
    n = len(m.seats)
    resigned = {e.data["seat"] for e in m.meta.events if e.kind == "resigned"}
    resigned |= {i for i, s in enumerate(m.seats) if s.ai and s.user_id is not None}
    log = await env.bot.store.actions(mid)
    timed_out = {a.seat for a in log if a.source == "timeout"}
    winners: set[int] = set()
    why = next((e.kind for e in m.meta.events if e.kind in ("ended", "channel_gone")), "")
    if m.status == "finished":
        outcome = m.meta.result or rules_for(m.game).outcome(state)
        assert outcome is not None, "a finished game has an outcome"
        why = outcome.reason
        winners = {w for w in outcome.winners if w not in resigned}
        if not winners:  # every winner of the rules resigned: the best of the others
            others = [i for i in range(n) if i not in resigned]
            best = max(outcome.scores[i] for i in others)
            winners = {i for i in others if outcome.scores[i] == best}
    return Expected(
        game=m.game,
        status=m.status,
        why=why,
        names=tuple(seat_name(s.name, s.ai and s.user_id is None, TR) for s in m.seats),
        user_ids=tuple(s.user_id for s in m.seats),
        winners=frozenset(winners),
        resigned=frozenset(resigned),
        computer_for=frozenset(resigned | timed_out),
        ended_by=m.meta.ended_by_name,
    )


# ---- what a text claims ------------------------------------------------------------------------

_WINNER = (
    re.compile(r"[Ww]inners?: ([^.(\n*]+)"),  # "Winner: alice", "winners: alice, bob."
    re.compile(r"([^\n:·*🏆]+?) \([^)\n]*\) wins"),  # Uonga: "alice (Cavemen) wins"
    re.compile(r"resignation: ([^\n.*]+?) wins"),  # Uonga's caption
)
_ENDED = re.compile(r"ended by ([^\n*]*?)\.")


def names_in(fragment: str, names: set[str]) -> set[str]:
    return {n for n in names if n and n in fragment}


@dataclass(frozen=True)
class Claims:
    """What one surface's text says about the result (names as written)."""

    winners: set[str] | None  # None: it names no winner
    resigned: set[str]
    computer_for: set[str]
    ended_by: set[str]
    over: bool  # it says the game is over or was ended


def claims(text: str, names: set[str]) -> Claims:
    won = [m.group(1) for rx in _WINNER for m in rx.finditer(text)]
    winners = set().union(*(names_in(f, names) for f in won)) if won else None
    resigned = {n for n in names if n and (f"{n} resigned" in text or f"{n} left the game" in text)}
    computer_for = {n for n in names if n and f"{n} ran out of time" in text} | resigned
    ended = {m.group(1) or "(no name)" for m in _ENDED.finditer(text)}
    over = bool(won) or bool(ended) or "Game over" in text or "is over" in text or "game over" in text
    return Claims(winners, resigned, computer_for, ended, over)
