"""Provably fair randomness: a match's dice and shuffles all come from its seed (engine.rng), whose
SHA-256 hash (``seed_hash``) is shown when the game starts and the seed itself once it is over. The
exported log (``export``) lets anyone replay the match from the seed with ``tools/verify_seed.py``.

Log format (JSON): ``{"game", "players", "options", "seed", "seed_sha256", "actions": [[seat,
action], ...], "final": <the rules' dump of the final state>}``; seat -1 is the rules' own timers."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable
from typing import Any

from engine.core import Event
from engine.registry import rules_for


@functools.lru_cache(maxsize=1024)  # (every board's first line shows it)
def seed_hash(seed: int) -> str:
    """SHA-256 of the seed's decimal digits in ASCII (e.g. ``"1234"``), as lowercase hex."""
    return hashlib.sha256(str(seed).encode("ascii")).hexdigest()


def replay(
    game: str, players: int, options: dict[str, Any], seed: int, actions: Iterable[tuple[int, str]]
) -> tuple[Any, list[Event]]:
    """The state after replaying ``actions`` from the seed, and every event on the way (each roll
    and shuffle the rules drew from the seed)."""
    rules = rules_for(game)
    state = rules.setup(players, seed, options)
    events: list[Event] = []
    for seat, action in actions:
        state, more = rules.apply(state, seat, action)
        events.extend(more)
    return state, events


def export(m: Any, state: Any, actions: Iterable[Any]) -> dict[str, Any]:
    """The log of a finished match (never of a live one: its seed would reveal hidden information)."""
    if m.status == "active" or m.status == "lobby":
        raise ValueError("the seed of a live match is secret")
    return {
        "game": m.game,
        "players": len(m.seats),
        "options": m.options,
        "seed": m.seed,
        "seed_sha256": seed_hash(m.seed),
        "actions": [[a.seat, a.action] for a in actions],
        "final": rules_for(m.game).dump(state) if state is not None else None,
    }
