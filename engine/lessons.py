"""A recap that teaches: a finished match's costliest decisions of each person (pure; no I/O).

The match is replayed from its seed and log. Before each decision a person made, the game's
strongest computer values every legal action from what that seat knew then (``action_values``, an
optional ``Computer`` hook: points, higher is better); what the person chose cost them the gap to
the best. Each seat's ``TOP`` largest costs (at least ``MIN_COST``) are its lessons. A game whose
computer has no such hook (Ubongo: a race of speed, where every solution is as good) has none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine import replay
from engine.registry import computer_for, rules_for
from engine.replay import Step
from engine.store import LoggedAction

TOP = 3
MIN_COST = 0.5  # points: smaller gaps are within the evaluation's own noise
DECISIVE = 50.0  # points: a gap this large means the choice won or lost the game outright


@dataclass(frozen=True)
class Lesson:
    step: int  # the replay step the decision led to (the logged action's 1-based index)
    seat: int
    played: str  # the action code chosen
    better: str  # the computer's choice
    cost: float  # points lost by the choice, as the computer values them

    @property
    def decisive(self) -> bool:
        return self.cost >= DECISIVE


def teaches(game: str) -> bool:
    """Whether the game's computer can value a person's decisions."""
    return getattr(computer_for(game), "action_values", None) is not None


def judge(game: str, state: Any, seat: int, played: str, step: int) -> Lesson | None:
    """One decision: what ``played`` cost ``seat`` in ``state`` (None when it cost less than
    MIN_COST, or when the computer cannot value the choice). Small on purpose: the bot runs each in
    the worker process on its own, so a computer's move never waits behind a whole game's review."""
    values_of = getattr(computer_for(game), "action_values", None)
    values = values_of(state, seat) if values_of is not None else {}
    if len(values) < 2 or played not in values:
        return None
    best = max(values, key=lambda code: (values[code], code == played))
    cost = values[best] - values[played]
    return Lesson(step, seat, played, best, round(cost, 1)) if cost >= MIN_COST else None


def costliest(found: Iterable[Lesson], seats: Iterable[int], top: int = TOP) -> dict[int, list[Lesson]]:
    """Each seat's ``top`` costliest lessons, costliest first (ties: the earlier one)."""
    out: dict[int, list[Lesson]] = {seat: [] for seat in seats}
    for x in sorted(found, key=lambda x: (-x.cost, x.step)):
        if x.seat in out and len(out[x.seat]) < top:
            out[x.seat].append(x)
    return out


def decisions(steps: Sequence[Step], seats: Iterable[int]) -> Iterator[tuple[int, Any, LoggedAction]]:
    """Every decision a person of ``seats`` made, as (step it led to, state before it, the logged
    action): actions logged with the source "player", never a computer's, a timeout's or a timer's."""
    people = set(seats)
    for k in range(1, len(steps)):
        a = steps[k].action
        if a is not None and a.source == "player" and a.seat in people:
            yield k, steps[k - 1].state, a


def review(
    game: str,
    n_players: int,
    seed: int,
    options: dict[str, Any],
    actions: Iterable[LoggedAction],
    seats: Iterable[int],
    top: int = TOP,
) -> dict[int, list[Lesson]]:
    """Each of ``seats``' costliest decisions in a whole match, replayed from its seed and log (the
    bot does the same decision by decision: Matches.lessons)."""
    seats = list(seats)
    steps = replay.rebuild(rules_for(game), n_players, seed, options, actions)
    found = [judge(game, state, a.seat, a.action, k) for k, state, a in decisions(steps, seats)]
    return costliest([x for x in found if x is not None], seats, top)
