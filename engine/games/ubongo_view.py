"""Ubongo player views: what one seat (or a spectator, seat None) may know, JSON-safe. Tasks and
workspaces are secret while a round runs (each seat sees only its own); finished rounds are face up."""

from __future__ import annotations

import json
from typing import Any

from engine.core import Seat
from engine.games.ubongo_data import NAME, ROUNDS
from engine.games.ubongo_round import outcome
from engine.games.ubongo_state import UbongoState, allowed, countdown_seconds, limit_seconds, need, points


def view(s: UbongoState, seat: Seat | None) -> dict[str, Any]:
    """Public keys: game, n, mode ("race" | "time" | "tasks"), phase ("solving" | "countdown" |
    "over"), round, rounds (8, or the solo size), starter, sides, no_yellow, gems_variant, solved
    (seats in solve order), countdown (its seconds while it runs, else None), round_limit
    (seconds), scores, cards_won, gems, history (finished rounds or solo tasks, face up: tasks,
    placed, solved, gained, reason), solo ({mode, size, done, skipped} or None), seat, over,
    winners, task (None). A seat's own view while the game runs adds its workspace: task (R6
    rows), side, need (pieces a solution uses), placed ({piece: [o, x, y]}), allowed (its set
    under V1), pieces (still in hand) and done_round. Never another seat's task or workspace."""
    me = seat if seat is not None and 0 <= seat < s.n else None
    result = outcome(s)
    out: dict[str, Any] = {
        "game": NAME,
        "n": s.n,
        "mode": s.mode,
        "phase": s.phase,
        "round": s.round,
        "rounds": ROUNDS if s.mode == "race" else s.solo_size,
        "starter": s.starter,
        "sides": list(s.sides),
        "no_yellow": list(s.no_yellow),
        "gems_variant": s.gems,
        "solved": list(s.solved),
        "countdown": countdown_seconds(s) if s.phase == "countdown" else None,
        "round_limit": limit_seconds(s),
        "scores": points(s),
        "cards_won": [len(w) for w in s.won],
        "gems": list(s.gems_won),
        "history": [json.loads(json.dumps(h)) for h in s.history],
        "solo": None
        if s.mode == "race"
        else {"mode": s.mode, "size": s.solo_size, "done": s.done, "skipped": len(s.history) - s.done},
        "seat": me,
        "over": s.phase == "over",
        "winners": result.winners if result else None,
        "task": None,
    }
    if me is not None and s.phase != "over":
        out.update(_workspace(s, me))
    return out


def _workspace(s: UbongoState, me: Seat) -> dict[str, Any]:
    placed = s.placed[me]
    return {
        "task": list(s.tasks[me]),
        "side": s.sides[me],
        "need": need(s, me),
        "placed": {p: list(v) for p, v in placed.items()},
        "allowed": list(allowed(s, me)),
        "pieces": [p for p in allowed(s, me) if p not in placed],  # still in hand
        "done_round": me in s.solved,
    }
