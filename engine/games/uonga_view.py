"""The Uonga view: Uonga has no hidden information, so every seat (and a spectator) sees the same
picture, JSON-safe."""

from __future__ import annotations

from typing import Any

from engine.games.uonga_board import herds, surround
from engine.games.uonga_data import EMPTY, HUNTER, MASTODON, PIECES_EACH, PLACEMENT_TURNS, SQUARES, YOUNGLING
from engine.games.uonga_turn import (
    PLACEMENT_END,
    SIDE_NAME,
    UongaState,
    chooser,
    copy_last,
    outcome,
    placement_turn,
    target,
    to_move,
)


def public_view(s: UongaState) -> dict[str, Any]:
    out = outcome(s)
    over = s.phase == "over"
    mast_seat = 1 - s.cav_seat
    lost = {k: 0 for k in (HUNTER, YOUNGLING, MASTODON)}
    if s.turn > PLACEMENT_END:  # after placement every piece missing from the board was captured
        for k in lost:
            lost[k] = PIECES_EACH - s.board.count(k)
    to_place: list[str] = []
    if s.phase == "place":
        to_place = [MASTODON] if s.side == "M" else [k for k in (HUNTER, YOUNGLING) if k != s.half]
    return {
        "game": "uonga",
        "board": {SQUARES[i]: p for i, p in enumerate(s.board) if p != EMPTY},
        "seats": {"cavemen": s.cav_seat, "mastodons": mast_seat},
        "current": None if over else min(to_move(s)),
        "side": SIDE_NAME[s.side],
        "phase": s.phase,
        "turn": s.turn,
        "placement": {"k": placement_turn(s), "of": PLACEMENT_TURNS} if s.phase == "place" else None,
        "to_place": to_place,
        "points": {"cavemen": s.points[0], "mastodons": s.points[1]},
        "targets": {"cavemen": target(s, "C"), "mastodons": target(s, "M")},
        "lost": lost,
        "quiet": s.quiet,
        "move_limit": s.move_limit,
        "moves_left": (s.move_limit - s.quiet) if s.move_limit and s.turn > PLACEMENT_END else None,
        "repetitions": s.repetitions,
        "v1": s.v1,
        "v2": s.v2,
        "herds": [[SQUARES[i] for i in h] for h in herds(s.board)],
        "surround": surround(s.board),
        "last": copy_last(s.last),
        "pending": [list(t) for t in s.pending],
        "chooser": chooser(s) if s.phase == "take" else None,
        "over": over,
        "result": SIDE_NAME.get(s.result, s.result) or None,
        "ended_by": s.ended_by or None,
        "reason": out.reason if out else None,
        "scores": out.scores if out else None,
        "winners": out.winners if out else None,
    }
