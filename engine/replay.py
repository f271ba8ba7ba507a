"""A finished match, rebuilt: seed + action log -> every state it went through (pure; no I/O).

Randomness lives in the state (engine.rng), so applying the logged actions to ``setup`` replays the
match exactly: step 0 is the state at the start, step k the state after the k-th logged action. Used
by ``Matches.history`` (the /replay command and the recap posted at a game's end) and by checks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engine.core import Event, Rules
from engine.store import LoggedAction


@dataclass(frozen=True)
class Step:
    """One state of a match and how it was reached (``action`` is None for the start)."""

    action: LoggedAction | None
    state: Any
    events: tuple[Event, ...] = ()


def rebuild(
    rules: Rules[Any], n_players: int, seed: int, options: dict[str, Any], actions: Iterable[LoggedAction]
) -> list[Step]:
    """Every state of a match, in order: the start, then one per logged action."""
    state = rules.setup(n_players, seed, options)
    steps = [Step(None, state)]
    for a in actions:
        state, events = rules.apply(state, a.seat, a.action)
        steps.append(Step(a, state, tuple(events)))
    return steps
