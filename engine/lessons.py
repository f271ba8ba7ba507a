"""A recap that teaches: a finished match's costliest decisions of each person (pure; no I/O).

The match is replayed from its seed and log. Before each decision a person made, the game's
strongest computer values every legal action from what that seat knew then (``action_values``, an
optional ``Computer`` hook: points, higher is better); what the person chose cost them the gap to
the best. Each seat's ``TOP`` largest costs (at least ``MIN_COST``) are its lessons. A game whose
computer has no such hook (Ubongo: a race of speed, where every solution is as good) has none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.registry import computer_for, rules_for
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


def review(
    game: str,
    n_players: int,
    seed: int,
    options: dict[str, Any],
    actions: Iterable[LoggedAction],
    seats: Iterable[int],
    top: int = TOP,
) -> dict[int, list[Lesson]]:
    """Each of ``seats``' costliest decisions, costliest first (ties: the earlier one)."""
    rules, computer = rules_for(game), computer_for(game)
    values_of = getattr(computer, "action_values", None)
    found: dict[int, list[Lesson]] = {seat: [] for seat in seats}
    if values_of is None:
        return found
    state = rules.setup(n_players, seed, options)
    for k, a in enumerate(actions, 1):
        if a.source == "player" and a.seat in found:
            values = values_of(state, a.seat)
            if len(values) > 1 and a.action in values:
                best = max(values, key=lambda code: (values[code], code == a.action))
                cost = values[best] - values[a.action]
                if cost >= MIN_COST:
                    found[a.seat].append(Lesson(k, a.seat, a.action, best, round(cost, 1)))
        state, _ = rules.apply(state, a.seat, a.action)
    return {seat: sorted(ls, key=lambda x: (-x.cost, x.step))[:top] for seat, ls in found.items()}
