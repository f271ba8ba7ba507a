"""Ubongo state and the small questions asked of it (the rules, the AI, the renderer's samples and the
tests use them): a seat's task, pieces and free spots, the clocks' seconds, the points, a solo run's
records, and the cheap copy ``apply`` works on."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from engine.core import Seat
from engine.games.ubongo_data import COUNTDOWN, PIECES_NEEDED, ROUND_LIMIT
from engine.games.ubongo_pieces import PIECE_IDS, YELLOW, cells_at
from engine.games.ubongo_solver import Cells, fits, parse_rows


@cache
def _cells(rows: tuple[str, ...]) -> Cells:
    return parse_rows(rows)


@dataclass
class UbongoState:
    n: int
    mode: str  # "race" (2-4 players) | "time" (V4) | "tasks" (V5)
    rng: int
    sides: list[str]  # R13 / V2: each seat's side
    no_yellow: list[bool]  # V1
    countdown: int  # R23: seconds, 0 = by the first solver's side
    limit: int  # R27: seconds, 0 = by side
    gems: bool  # V3
    solo_size: int  # V4 minutes / V5 tasks (0 in a race)
    stack: list[int]  # R14: cards still to draw, top first
    round: int = 0  # race: round 1-8; solo: number of the task being solved
    starter: int = 0  # R17 / R28
    phase: str = "solving"  # "solving" | "countdown" (R23) | "over"
    cards: list[int] = field(default_factory=list)  # each seat's card this round
    tasks: list[list[str]] = field(default_factory=list)  # each seat's task rows (R6) this round
    placed: list[dict[str, list[int]]] = field(default_factory=list)  # seat -> piece -> [o, x, y]
    solved: list[int] = field(default_factory=list)  # R29: seats in solve order this round
    won: list[list[int]] = field(default_factory=list)  # R31: cards in front of each seat
    gems_won: list[int] = field(default_factory=list)  # V3
    history: list[dict[str, Any]] = field(default_factory=list)  # finished rounds / solo tasks
    aside: list[int] = field(default_factory=list)  # V4: cards set aside by ``skip``
    done: int = 0  # solo: tasks solved


# ---- small state questions ---------------------------------------------------------------------------


def need(s: UbongoState, seat: Seat) -> int:
    """R21: pieces a solution of this seat's task uses."""
    return PIECES_NEEDED[s.sides[seat]]


def task_cells(s: UbongoState, seat: Seat) -> Cells:
    return _cells(tuple(s.tasks[seat]))


def allowed(s: UbongoState, seat: Seat) -> tuple[str, ...]:
    """R16 / V1: the pieces of the seat's own set (A11), without the yellow I3 under V1."""
    return _ALLOWED[bool(s.no_yellow[seat])]


_ALLOWED = {False: tuple(PIECE_IDS), True: tuple(p for p in PIECE_IDS if p != YELLOW)}


def covered(s: UbongoState, seat: Seat) -> set[tuple[int, int]]:
    return {c for p, (o, x, y) in s.placed[seat].items() for c in cells_at(p, o, x, y)}


def placement_problem(s: UbongoState, seat: Seat, piece: str, o: int, x: int, y: int) -> str | None:
    """Why ``place.piece.o.x.y`` is refused (a message key suffix), or None if it may be placed."""
    if piece not in allowed(s, seat):
        return "not_allowed"  # V1
    if piece in s.placed[seat]:
        return "reused"  # R1: one of each piece
    shape = cells_at(piece, o, x, y)
    if not set(shape) <= task_cells(s, seat):
        return "outside"  # R20: no square outside the task
    if covered(s, seat).intersection(shape):
        return "overlap"  # R20: no overlaps
    return None


def piece_spots(s: UbongoState, seat: Seat, piece: str) -> list[str]:
    """The place codes of ``piece`` that fit the seat's free cells now, one per distinct shape and
    spot: the options a workspace offers once a piece is chosen (at most 25, almost
    always). Empty if the piece is placed already or not the seat's to use (V1)."""
    if piece not in allowed(s, seat) or piece in s.placed[seat]:
        return []
    return list(spots(*workspace_key(s, seat), piece))


def workspace_key(s: UbongoState, seat: Seat) -> tuple[tuple[str, ...], tuple[tuple[Any, ...], ...]]:
    """The seat's task rows and pieces down (piece, o, x, y), hashable: ``spots``'s key."""
    return tuple(s.tasks[seat]), tuple((p, *spot) for p, spot in sorted(s.placed[seat].items()))


@lru_cache(maxsize=4096)
def spots(task: tuple[str, ...], placed: tuple[tuple[Any, ...], ...], piece: str) -> tuple[str, ...]:
    """``piece_spots`` of a task with these pieces down. The same question comes back many times a
    click (what each seat may do, before and after the commit; the workspace's piece menu), and
    answering it walks every placement of the piece: measured 0.43 ms for four seats' actions."""
    cells = _cells(task)
    free = frozenset(cells - {c for p, o, x, y in placed for c in cells_at(p, o, x, y)})
    return tuple(place_code(p, o, x, y) for p, o, x, y in fits(cells, piece, free))


def points(s: UbongoState) -> list[int]:
    """R31 / V3: one point per card in front of a player, plus gems."""
    return [len(s.won[i]) + s.gems_won[i] for i in range(s.n)]


def countdown_seconds(s: UbongoState) -> int:
    """R23 / V2: the option, or 20 / 30 s by the first solver's side."""
    if s.countdown:
        return s.countdown
    first = s.solved[0] if s.solved else 0
    return COUNTDOWN[s.sides[first]]


def limit_seconds(s: UbongoState) -> int:
    """R27: the option, or 180 / 300 s; house: under V2 the longest side in play sets it."""
    return s.limit or max(ROUND_LIMIT[side] for side in s.sides)


def solo_seconds(s: UbongoState) -> int:
    """V4: the chosen minutes; V5 (house): a cap of one round limit per task of the run."""
    return s.solo_size * 60 if s.mode == "time" else s.solo_size * limit_seconds(s)


# ---- personal records (kept by the engine: engine.records) -----------------------------------------


def record_mode(s: UbongoState) -> str | None:
    """The records' mode of a solo run: the /ubongo solo choice (``time.5``, ``tasks.10``...), set
    apart when played (through /ubongo start) on side B or without the yellow piece: those results are
    not comparable with side A's. None for a race (no records)."""
    if s.mode == "race":
        return None
    mode = f"{s.mode}.{s.solo_size}"
    if s.sides[0] != "A":
        mode += f".{s.sides[0]}"
    return mode + ".no_yellow" if s.no_yellow[0] else mode


def record_result(s: UbongoState, seconds: float | None) -> tuple[float, bool] | None:
    """A finished solo run's result for the records: (value, higher is better), given the run's
    duration in seconds (None: unknown). None when it sets none: nothing solved in a time attack
    (V4), or a speed run (V5) the clock stopped before its last task."""
    if s.mode == "time":
        return (float(s.done), True) if s.done else None
    if s.mode != "tasks" or s.done < s.solo_size or seconds is None:
        return None
    return float(seconds), False  # V5: the run's time, from the match's start and end


# ---- action codes and the copy apply works on ---------------------------------------------------------


def place_code(piece: str, o: int, x: int, y: int) -> str:
    return f"place.{piece}.{o}.{x}.{y}"


def clone(s: UbongoState) -> UbongoState:
    """Cheap copy for apply (never mutates its input). Rows, [o, x, y] lists and history entries are
    never changed in place, so sharing them is safe."""
    return dataclasses.replace(
        s,
        sides=list(s.sides),
        no_yellow=list(s.no_yellow),
        stack=list(s.stack),
        cards=list(s.cards),
        tasks=list(s.tasks),
        placed=[dict(p) for p in s.placed],
        solved=list(s.solved),
        won=[list(w) for w in s.won],
        gems_won=list(s.gems_won),
        history=list(s.history),
        aside=list(s.aside),
    )
