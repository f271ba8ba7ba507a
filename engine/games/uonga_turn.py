"""Uonga state and turn machinery (rules: docs/rules/uonga.md R12-R39, A12-A16): placement, movement,
captures, passes, the draws and the outcome. Every helper mutates the copy that ``UongaRules.apply``
made; validation happens before, never here."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.core import Event, Outcome, Seat
from engine.errors import MatchOver
from engine.games.uonga_board import can_move, captures_after, put
from engine.games.uonga_data import (
    EMPTY,
    INDEX,
    MASTODON,
    N_SQUARES,
    PLACEMENT_TURNS,
    SQUARES,
    TARGET,
    TARGET_V1_MASTODONS,
    VALUE,
)
from engine.games.uonga_variants import RULEBOOK, variant_of

SIDE_NAME = {"C": "cavemen", "M": "mastodons"}
DEFAULT_REPETITIONS = 3  # R37
DEFAULT_MOVE_LIMIT = 40  # R38
PLACEMENT_END = 2 * PLACEMENT_TURNS  # R16: turns 1-10 are placement turns


# ---- state ------------------------------------------------------------------------------------------


@dataclass
class UongaState:
    cav_seat: Seat  # R13: the seat playing the Cavemen; the other seat plays the Mastodons
    rng: int
    v1: bool = False  # V1: the Mastodon player needs 10 points
    v2: bool = False  # V2: the Mastodon player chooses in a herd tie
    repetitions: int = DEFAULT_REPETITIONS  # R37/V3 (0 = off, A17)
    move_limit: int = DEFAULT_MOVE_LIMIT  # R38/V3 (0 = off, A17)
    variant: str = RULEBOOK  # not in the rulebook (V4-V6): uonga_variants; "rulebook" = R1-R39 as written
    board: str = EMPTY * N_SQUARES
    side: str = "C"  # whose turn: "C" or "M" (R12: the Cavemen start; V6a may hand it to the Mastodons)
    phase: str = "place"  # "place" | "move" | "take" | "over"
    turn: int = 1  # 1-10 placement (R16), 11+ movement
    half: str = ""  # Cavemen placement: the kind already placed this turn (R15)
    points: list[int] = field(default_factory=lambda: [0, 0])  # captured points: [Cavemen, Mastodons]
    quiet: int = 0  # R38: capture-free movement turns in a row (passes included, A15)
    passes: int = 0  # R36: passes in a row
    seen: dict[str, int] = field(default_factory=dict)  # R37/A14: board+side -> turn starts
    pending: list[list[str]] = field(default_factory=list)  # R30/A12: tied herds still to settle
    sure: list[str] = field(default_factory=list)  # captures already decided for the waiting move
    chosen: list[str] = field(default_factory=list)  # tied Mastodons already chosen
    last: dict[str, Any] | None = None  # the last placement/move (drawn on the board)
    result: str = ""  # "" | "C" | "M" | "draw"
    reason: str = ""  # Outcome reason: "win" | "draw" | "resignation"
    ended_by: str = ""  # "target" | "passes" | "repetition" | "move_limit" | "resignation"


def seat_of(s: UongaState, side: str) -> Seat:
    return s.cav_seat if side == "C" else 1 - s.cav_seat


def target(s: UongaState, side: str) -> int:
    """R34, or V1 for the Mastodon player; a variant's own targets (V6c) replace both."""
    v = variant_of(s.variant)
    if side == "C":
        return v.target_c
    if v.target_m != TARGET:
        return v.target_m
    return TARGET_V1_MASTODONS if s.v1 else TARGET


def chooser(s: UongaState) -> Seat:
    """R30: the Cavemen player picks the tied Mastodon; V2/A13: the Mastodon player."""
    return seat_of(s, "M" if s.v2 else "C")


def placement_turn(s: UongaState) -> int:
    """k of 5 for the side placing now (turns alternate C, M, ... from turn 1)."""
    return (s.turn + 1) // 2


def to_move(s: UongaState) -> frozenset[Seat]:
    if s.phase == "over":
        return frozenset()
    if s.phase == "take":
        return frozenset({chooser(s)})
    return frozenset({seat_of(s, s.side)})


def outcome(s: UongaState) -> Outcome | None:
    if s.phase != "over":
        return None
    scores = [0, 0]
    scores[s.cav_seat], scores[1 - s.cav_seat] = s.points[0], s.points[1]
    winners = [0, 1] if s.result == "draw" else [seat_of(s, s.result)]
    return Outcome(scores, winners, s.reason)


# ---- the turn machinery (helpers mutate the copy made in apply/setup) ----------------------------------


def _end_game(s: UongaState, result: str, ended_by: str, ev: list[Event]) -> None:
    s.phase, s.result, s.ended_by = "over", result, ended_by
    s.reason = "draw" if result == "draw" else "resignation" if ended_by == "resignation" else "win"
    s.pending, s.sure, s.chosen = [], [], []
    if result == "draw":
        ev.append(Event("draw", {"by": ended_by}))
    out = outcome(s)
    assert out is not None
    ev.append(Event("game_over", {"scores": out.scores, "winners": out.winners, "reason": out.reason}))


def _after_placement(s: UongaState, ev: list[Event]) -> None:
    """R16: after turn 10 every piece is on the board and the Cavemen make the first move (V6b: the
    variant's first mover)."""
    s.half = ""
    s.side = "M" if s.side == "C" else "C"
    s.turn += 1
    if s.turn <= PLACEMENT_END:
        ev.append(Event("turn", {"seat": seat_of(s, s.side), "side": SIDE_NAME[s.side]}))
        return
    s.side = variant_of(s.variant).first_move
    s.phase = "move"
    ev.append(Event("movement", {"seat": seat_of(s, s.side)}))
    _start_turn(s, ev)


def _after_move(s: UongaState, captured: bool, ev: list[Event]) -> None:
    """A16: after a movement turn (a move or a pass) check win, move limit, then start the next turn."""
    for side in ("C", "M"):  # R34/R35 (only the mover can have scored, but check both: cheap)
        if s.points[0 if side == "C" else 1] >= target(s, side):
            _end_game(s, side, "target", ev)
            return
    s.quiet = 0 if captured else s.quiet + 1  # R38/A15
    if s.move_limit and s.quiet >= s.move_limit:
        _end_game(s, "draw", "move_limit", ev)
        return
    s.side = "M" if s.side == "C" else "C"
    s.turn += 1
    _start_turn(s, ev)


def _start_turn(s: UongaState, ev: list[Event]) -> None:
    """A14/A16: count the position for repetition, then pass if the side to move has no move (R36)."""
    key = s.board + s.side
    s.seen[key] = s.seen.get(key, 0) + 1
    if s.repetitions and s.seen[key] >= s.repetitions:
        _end_game(s, "draw", "repetition", ev)
        return
    if can_move(s.board, s.side):
        ev.append(Event("turn", {"seat": seat_of(s, s.side), "side": SIDE_NAME[s.side]}))
        return
    s.passes += 1
    s.last = {"kind": "pass", "side": SIDE_NAME[s.side]}
    ev.append(Event("passed", {"seat": seat_of(s, s.side), "side": SIDE_NAME[s.side]}))
    if s.passes >= 2:  # R36: both players passed in consecutive turns
        _end_game(s, "draw", "passes", ev)
        return
    _after_move(s, False, ev)  # a pass is a capture-free movement turn (A15)


def place(s: UongaState, piece: str, sq: str, ev: list[Event]) -> None:
    """R14/R15/R17: put a piece from hand on an empty square; placement never captures."""
    s.board = put(s.board, INDEX[sq], piece)
    s.last = {"kind": "place", "piece": piece, "to": sq, "side": SIDE_NAME[s.side]}
    ev.append(Event("placed", {"seat": seat_of(s, s.side), "piece": piece, "square": sq}))
    if s.side == "C" and not s.half:
        s.half = piece  # the other Cavemen piece of this turn is still to come (A6)
        return
    _after_placement(s, ev)


def move(s: UongaState, a: int, b: int, ev: list[Event]) -> None:
    piece, target_piece = s.board[a], s.board[b]
    s.board = put(put(s.board, a, EMPTY), b, piece)
    s.passes = 0
    s.last = {"kind": "move", "piece": piece, "from": SQUARES[a], "to": SQUARES[b], "side": SIDE_NAME[s.side]}
    ev.append(
        Event("moved", {"seat": seat_of(s, s.side), "piece": piece, "from": SQUARES[a], "to": SQUARES[b]})
    )
    if piece == MASTODON:  # R24: landing on a Caveman captures it; R26: no Mastodon falls now
        if target_piece != EMPTY:
            s.points[1] += VALUE[target_piece]
            s.last["captured"] = [target_piece]
            ev.append(Event("captured", {"seat": seat_of(s, "M"), "piece": target_piece, "square": SQUARES[b],
                                         "points": s.points[1]}))  # fmt: skip
        _after_move(s, target_piece != EMPTY, ev)
        return
    sure, ties = captures_after(s.board, b)
    s.sure = [SQUARES[m] for m in sure]
    s.pending = [[SQUARES[m] for m in tie] for tie in ties]
    s.chosen = []
    if s.pending:  # R30/A12: wait for one take per tied herd
        s.phase = "take"
        ev.append(Event("tie_pending", {"seat": chooser(s), "herds": [list(t) for t in s.pending]}))
        return
    _resolve(s, ev)


def take(s: UongaState, sq: str, ev: list[Event]) -> None:
    """A12: settle the tied herd holding ``sq``; after the last one the captures happen together."""
    s.pending = [tie for tie in s.pending if sq not in tie]
    s.chosen.append(sq)
    ev.append(Event("taken", {"seat": chooser(s), "square": sq}))
    if not s.pending:
        s.phase = "move"
        _resolve(s, ev)


def _resolve(s: UongaState, ev: list[Event]) -> None:
    """R31/R33/A12: remove every capture of the move at once, then end the Cavemen turn."""
    fallen = sorted(s.sure + s.chosen, key=INDEX.__getitem__)
    board = s.board
    for sq in fallen:
        board = put(board, INDEX[sq], EMPTY)
        s.points[0] += VALUE[MASTODON]
        ev.append(
            Event("captured", {"seat": s.cav_seat, "piece": MASTODON, "square": sq, "points": s.points[0]})
        )
    s.board = board
    s.sure, s.chosen = [], []
    if fallen and s.last is not None:
        s.last["captured"] = [MASTODON] * len(fallen)
        s.last["fallen"] = fallen
    if fallen:
        s.seen = {}  # a capture is irreversible: earlier positions cannot come back (keeps dumps small)
    _after_move(s, bool(fallen), ev)


def clone(s: UongaState) -> UongaState:
    """Cheap deep copy (apply never mutates its input)."""
    return dataclasses.replace(
        s,
        points=list(s.points),
        seen=dict(s.seen),
        pending=[list(t) for t in s.pending],
        sure=list(s.sure),
        chosen=list(s.chosen),
        last=copy_last(s.last),
    )


def copy_last(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in last.items()}


def resign(s: UongaState, seat: Seat) -> UongaState:
    """R39: ``seat`` resigns and the opponent wins (the platform's ``/game resign`` may use this)."""
    if s.phase == "over":
        raise MatchOver("resign")
    t = clone(s)
    loser_side = "C" if seat == s.cav_seat else "M"
    _end_game(t, "M" if loser_side == "C" else "C", "resignation", [])
    return t
