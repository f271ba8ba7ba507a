"""The state a match's seed and action log replay to: tests hold it against the committed state."""

from __future__ import annotations

from typing import Any

from engine.match import Matches
from engine.registry import rules_for


async def replayed(matches: Matches, match_id: int) -> Any:
    m, _ = await matches.get(match_id)
    rules = rules_for(m.game)
    state = rules.setup(len(m.seats), m.seed, m.options)
    for a in await matches.store.actions(match_id):
        state, _ = rules.apply(state, a.seat, a.action)
    return state
