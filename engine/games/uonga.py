"""Uonga rules engine (rules: docs/rules/uonga.md, clauses R1-R39, variants V1-V3, decisions A1-A17).

Pure and deterministic, in the style of engine.games.ugah: ``apply`` works on a copy and raises a typed
error before changing anything. The board is a 25-character string (``.HYM``, index = rank*5 + file),
cheap to copy, hash and store. Sides are "C" (Cavemen) and "M" (Mastodons); ``cav_seat`` says which
seat plays the Cavemen (option ``side``; a random side comes from the Rng state kept in the game).

Action codes: ``place.H.c3`` / ``place.Y.b2`` / ``place.M.d4`` (placement), ``move.b4.c4``
(movement), ``take.c3`` (a tied herd, R30/A12). Passing (R36) happens inside ``apply``: no action.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from engine.core import Choice, Event, Flag, Integer, Outcome, Seat, Timer
from engine.errors import BadActionCode, IllegalAction, MatchOver, NotYourTurn
from engine.games.uonga_data import (
    CAVEMEN,
    EMPTY,
    HUNTER,
    INDEX,
    KING_RAYS,
    MASTODON,
    N_SQUARES,
    NEIGH4,
    NEIGH8,
    PIECES_EACH,
    PLACEMENT_TURNS,
    ROOK_RAYS,
    SQUARES,
    TARGET,
    TARGET_V1_MASTODONS,
    VALUE,
    YOUNGLING,
)
from engine.rng import Rng

SIDES = ("cavemen", "mastodons", "random")
SIDE_NAME = {"C": "cavemen", "M": "mastodons"}
DEFAULT_REPETITIONS = 3  # R37
DEFAULT_MOVE_LIMIT = 40  # R38
PLACEMENT_END = 2 * PLACEMENT_TURNS  # R16: turns 1-10 are placement turns

Move = tuple[int, int]  # (from, to) square indices


# ---- board geometry and rules as pure functions (the AI and the renderer use the same code) -----


def put(board: str, i: int, piece: str) -> str:
    return board[:i] + piece + board[i + 1 :]


def cav_count(board: str, m: int) -> int:
    """R10: Cavemen adjacent (8 directions) to the square ``m``."""
    return sum(1 for j in NEIGH8[m] if board[j] in CAVEMEN)


def group_of(board: str, m: int) -> list[int]:
    """R9/A1: the orthogonally connected Mastodons holding ``m`` (sorted; length 1 = lone)."""
    seen, todo = {m}, [m]
    while todo:
        i = todo.pop()
        for j in NEIGH4[i]:
            if board[j] == MASTODON and j not in seen:
                seen.add(j)
                todo.append(j)
    return sorted(seen)


def herds(board: str) -> list[list[int]]:
    """Every herd (2+ Mastodons, R9) on the board, each sorted, in board order."""
    out, done = [], set()
    for i, p in enumerate(board):
        if p == MASTODON and i not in done:
            g = group_of(board, i)
            done.update(g)
            if len(g) > 1:
                out.append(g)
    return out


def captures_after(board: str, mover: int) -> tuple[list[int], list[list[int]]]:
    """R27-R31 on the position right after a Caveman reached ``mover``: (sure captures, tied herds).

    Only Mastodons next to the mover can be threatened (R27). A lone one falls with 3+ Cavemen (R28);
    a herd is attacked when a member next to the mover has 4+ (R29/A2) and then loses its member with
    the most Cavemen; a tie is a choice (R30). Each group loses at most one (R31); nothing is removed
    here, so every count uses the same position (no chain, R32).

    SEED OVER SPEC (A3): the spec compares every herd member, so a member far from the mover could
    fall. The seed says a Caveman captures a Mastodon "only if the Mastodon is adjacent to the Caveman
    that just moved"; following the seed's intent, only the herd members next to the mover are
    compared (test_R29_seed_over_spec_A3_only_members_next_to_the_mover_can_fall).
    """
    sure: list[int] = []
    ties: list[list[int]] = []
    done: set[int] = set()
    near = NEIGH8[mover]
    for m in near:
        if board[m] != MASTODON or m in done:
            continue
        group = group_of(board, m)
        done.update(group)
        if len(group) == 1:
            if cav_count(board, m) >= 3:
                sure.append(m)
            continue
        counts = {g: cav_count(board, g) for g in group if g in near}  # seed: next to the mover only
        best = max(counts.values())
        if best < 4:
            continue
        top = sorted(g for g, n in counts.items() if n == best)
        if len(top) == 1:
            sure.append(top[0])
        else:
            ties.append(top)
    return sorted(sure), ties


def piece_moves(board: str, i: int) -> list[int]:
    """Destinations of the piece on ``i`` (R20-R23)."""
    piece = board[i]
    out: list[int] = []
    if piece == MASTODON:  # R23: rook move, may end on a Caveman, never on a Mastodon
        for ray in ROOK_RAYS[i]:
            for j in ray:
                if board[j] == EMPTY:
                    out.append(j)
                    continue
                if board[j] != MASTODON:
                    out.append(j)
                break
    elif piece in CAVEMEN:  # R20/R21/R22: empty destinations, a Hunter's middle square empty too
        reach = 2 if piece == HUNTER else 1
        for ray in KING_RAYS[i]:
            for j in ray[:reach]:
                if board[j] != EMPTY:
                    break
                out.append(j)
    return out


def side_moves(board: str, side: str) -> list[Move]:
    """Every (from, to) move of ``side`` ("C" or "M") in board order."""
    mine = (MASTODON,) if side == "M" else (HUNTER, YOUNGLING)
    return [(i, j) for i, p in enumerate(board) if p in mine for j in piece_moves(board, i)]


def can_move(board: str, side: str) -> bool:
    mine = (MASTODON,) if side == "M" else (HUNTER, YOUNGLING)
    return any(piece_moves(board, i) for i, p in enumerate(board) if p in mine)


# ---- state ------------------------------------------------------------------------------------------


@dataclass
class UongaState:
    cav_seat: Seat  # R13: the seat playing the Cavemen; the other seat plays the Mastodons
    rng: int
    v1: bool = False  # V1: the Mastodon player needs 10 points
    v2: bool = False  # V2: the Mastodon player chooses in a herd tie
    repetitions: int = DEFAULT_REPETITIONS  # R37/V3 (0 = off, A17)
    move_limit: int = DEFAULT_MOVE_LIMIT  # R38/V3 (0 = off, A17)
    board: str = EMPTY * N_SQUARES
    side: str = "C"  # whose turn: "C" or "M" (R12: the Cavemen start)
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
    """R34, or V1 for the Mastodon player."""
    return TARGET_V1_MASTODONS if side == "M" and s.v1 else TARGET


def chooser(s: UongaState) -> Seat:
    """R30: the Cavemen player picks the tied Mastodon; V2/A13: the Mastodon player."""
    return seat_of(s, "M" if s.v2 else "C")


def placement_turn(s: UongaState) -> int:
    """k of 5 for the side placing now (turns alternate C, M, ... from turn 1)."""
    return (s.turn + 1) // 2


# ---- action codes -------------------------------------------------------------------------------------


def parse_action(code: object) -> tuple[str, tuple[str, ...]]:
    """Split a code into (kind, args); anything that is not a canonical code is BadActionCode."""
    if not isinstance(code, str) or len(code) > 16:  # the longest code, "place.H.c3", has 10
        raise BadActionCode("not a short string")
    kind, *args = code.split(".")
    if not args or not all(a in INDEX for a in args[-1:]):
        raise BadActionCode(code)
    if kind == "place" and len(args) == 2 and args[0] in (HUNTER, YOUNGLING, MASTODON):
        return kind, tuple(args)
    if kind == "move" and len(args) == 2 and args[0] in INDEX and args[0] != args[1]:
        return kind, tuple(args)
    if kind == "take" and len(args) == 1:
        return kind, tuple(args)
    raise BadActionCode(code)


# ---- the turn machinery (helpers mutate the copy made in apply/setup) ----------------------------------


def _end_game(s: UongaState, result: str, ended_by: str, ev: list[Event]) -> None:
    s.phase, s.result, s.ended_by = "over", result, ended_by
    s.reason = "draw" if result == "draw" else "resignation" if ended_by == "resignation" else "win"
    s.pending, s.sure, s.chosen = [], [], []
    if result == "draw":
        ev.append(Event("draw", {"by": ended_by}))
    out = RULES.outcome(s)
    assert out is not None
    ev.append(Event("game_over", {"scores": out.scores, "winners": out.winners, "reason": out.reason}))


def _after_placement(s: UongaState, ev: list[Event]) -> None:
    """R16: after turn 10 every piece is on the board and the Cavemen make the first move."""
    s.half = ""
    s.side = "M" if s.side == "C" else "C"
    s.turn += 1
    if s.turn <= PLACEMENT_END:
        ev.append(Event("turn", {"seat": seat_of(s, s.side), "side": SIDE_NAME[s.side]}))
        return
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


def _place(s: UongaState, piece: str, sq: str, ev: list[Event]) -> None:
    """R14/R15/R17: put a piece from hand on an empty square; placement never captures."""
    s.board = put(s.board, INDEX[sq], piece)
    s.last = {"kind": "place", "piece": piece, "to": sq, "side": SIDE_NAME[s.side]}
    ev.append(Event("placed", {"seat": seat_of(s, s.side), "piece": piece, "square": sq}))
    if s.side == "C" and not s.half:
        s.half = piece  # the other Cavemen piece of this turn is still to come (A6)
        return
    _after_placement(s, ev)


def _move(s: UongaState, a: int, b: int, ev: list[Event]) -> None:
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


def _take(s: UongaState, sq: str, ev: list[Event]) -> None:
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


def _clone(s: UongaState) -> UongaState:
    """Cheap deep copy (apply never mutates its input)."""
    return dataclasses.replace(
        s,
        points=list(s.points),
        seen=dict(s.seen),
        pending=[list(t) for t in s.pending],
        sure=list(s.sure),
        chosen=list(s.chosen),
        last=_copy_last(s.last),
    )


def _copy_last(last: dict[str, Any] | None) -> dict[str, Any] | None:
    if last is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in last.items()}


def resign(s: UongaState, seat: Seat) -> UongaState:
    """R39: ``seat`` resigns and the opponent wins (the platform's ``/game resign`` may use this)."""
    if s.phase == "over":
        raise MatchOver("resign")
    t = _clone(s)
    loser_side = "C" if seat == s.cav_seat else "M"
    _end_game(t, "M" if loser_side == "C" else "C", "resignation", [])
    return t


def _option(options: dict[str, Any], name: str, default: Any, kind: type) -> Any:
    """An option's value checked against its type (engine.options validates first; this guards
    direct callers such as tests and replays of old matches stored with text values)."""
    value = options.get(name, default)
    if kind is bool and isinstance(value, str) and value in ("true", "false"):
        value = value == "true"  # tolerate options stored as text
    if kind is int and isinstance(value, str) and value.isdigit():
        value = int(value)
    if type(value) is not kind:
        raise IllegalAction("bad option", option=name)
    return value


# ---- the Rules object ----------------------------------------------------------------------------------


class UongaRules:
    name = "uonga"
    min_players = 2
    max_players = 2
    options = (
        Choice("side", SIDES, default="random"),  # R13: the side seat 0 (the host) plays
        Flag("v1", False),  # V1: Mastodons need 10 points
        Flag("v2", False),  # V2: the Mastodon player chooses in herd ties
        Integer("repetitions", DEFAULT_REPETITIONS, 0, 9),  # V3 for R37 (0 = off)
        Integer("move_limit", DEFAULT_MOVE_LIMIT, 0, 200),  # V3 for R38 (0 = off)
    )

    def setup(self, n_players: int, seed: int, options: dict[str, Any]) -> UongaState:
        side = options.get("side", "random")
        if n_players != 2 or side not in SIDES:
            raise IllegalAction("bad setup", n=n_players, side=side)
        v1 = _option(options, "v1", False, bool)
        v2 = _option(options, "v2", False, bool)
        reps = _option(options, "repetitions", DEFAULT_REPETITIONS, int)
        limit = _option(options, "move_limit", DEFAULT_MOVE_LIMIT, int)
        if not (0 <= reps <= 9 and 0 <= limit <= 200):
            raise IllegalAction("bad setup", repetitions=reps, move_limit=limit)
        rng = Rng(seed)
        cav = {"cavemen": 0, "mastodons": 1}.get(side)
        if cav is None:  # R13: at random
            cav = rng.below(2)
        return UongaState(cav, rng.state, v1=v1, v2=v2, repetitions=reps, move_limit=limit)

    def to_move(self, s: UongaState) -> frozenset[Seat]:
        if s.phase == "over":
            return frozenset()
        if s.phase == "take":
            return frozenset({chooser(s)})
        return frozenset({seat_of(s, s.side)})

    def legal_actions(self, s: UongaState, seat: Seat) -> list[str]:
        if seat not in self.to_move(s):
            return []
        if s.phase == "take":
            return [f"take.{sq}" for tie in s.pending for sq in tie]
        if s.phase == "place":
            kinds = [MASTODON] if s.side == "M" else [k for k in (HUNTER, YOUNGLING) if k != s.half]
            empty = [SQUARES[i] for i, p in enumerate(s.board) if p == EMPTY]
            return [f"place.{k}.{sq}" for k in kinds for sq in empty]
        return [f"move.{SQUARES[a]}.{SQUARES[b]}" for a, b in side_moves(s.board, s.side)]

    def apply(self, s: UongaState, seat: Seat, action: str) -> tuple[UongaState, list[Event]]:
        kind, args = parse_action(action)
        if s.phase == "over":
            raise MatchOver(action)
        if seat not in self.to_move(s):
            raise NotYourTurn(action, seat=seat)
        if not self._legal(s, kind, args):
            raise IllegalAction(action)
        t, ev = _clone(s), []
        if kind == "place":
            _place(t, args[0], args[1], ev)
        elif kind == "move":
            _move(t, INDEX[args[0]], INDEX[args[1]], ev)
        else:
            _take(t, args[0], ev)
        return t, ev

    @staticmethod
    def _legal(s: UongaState, kind: str, args: tuple[str, ...]) -> bool:
        """The same answer as ``code in legal_actions`` without listing every action."""
        if kind == "take":
            return s.phase == "take" and any(args[0] in tie for tie in s.pending)
        if kind == "place":
            if s.phase != "place" or s.board[INDEX[args[1]]] != EMPTY:
                return False
            return (
                args[0] == MASTODON if s.side == "M" else args[0] in (HUNTER, YOUNGLING) and args[0] != s.half
            )
        if s.phase != "move":
            return False
        a, b = INDEX[args[0]], INDEX[args[1]]
        mine = s.board[a] == MASTODON if s.side == "M" else s.board[a] in CAVEMEN
        return mine and b in piece_moves(s.board, a)

    def timers(self, s: UongaState) -> list[Timer]:
        """One turn limit per decision of the seat to move (the match's ``turn_seconds``)."""
        return [Timer("turn", seat=seat, per_move=True) for seat in self.to_move(s)]

    def outcome(self, s: UongaState) -> Outcome | None:
        if s.phase != "over":
            return None
        scores = [0, 0]
        scores[s.cav_seat], scores[1 - s.cav_seat] = s.points[0], s.points[1]
        winners = [0, 1] if s.result == "draw" else [seat_of(s, s.result)]
        return Outcome(scores, winners, s.reason)

    def view(self, s: UongaState, seat: Seat | None) -> dict[str, Any]:
        """Public: Uonga has no hidden information, so every seat sees the same picture."""
        return public_view(s)

    def dump(self, s: UongaState) -> dict[str, Any]:
        d = {f.name: getattr(s, f.name) for f in _FIELDS}
        d.update(points=list(s.points), seen=dict(s.seen), pending=[list(t) for t in s.pending],
                 sure=list(s.sure), chosen=list(s.chosen), last=_copy_last(s.last))  # fmt: skip
        return d

    def load(self, d: dict[str, Any]) -> UongaState:
        return _clone(UongaState(**d))


def surround(board: str) -> dict[str, dict[str, Any]]:
    """For every Mastodon: Cavemen around it, whether it is in a herd and how many more would capture
    it (3 for a lone Mastodon, R28; 4 for a herd member, R29)."""
    out = {}
    for i, p in enumerate(board):
        if p != MASTODON:
            continue
        in_herd = any(board[j] == MASTODON for j in NEIGH4[i])
        cav = cav_count(board, i)
        out[SQUARES[i]] = {"cav": cav, "herd": in_herd, "need": max(0, (4 if in_herd else 3) - cav)}
    return out


def public_view(s: UongaState) -> dict[str, Any]:
    out = RULES.outcome(s)
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
        "current": None if over else min(RULES.to_move(s)),
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
        "last": _copy_last(s.last),
        "pending": [list(t) for t in s.pending],
        "chooser": chooser(s) if s.phase == "take" else None,
        "over": over,
        "result": SIDE_NAME.get(s.result, s.result) or None,
        "ended_by": s.ended_by or None,
        "reason": out.reason if out else None,
        "scores": out.scores if out else None,
        "winners": out.winners if out else None,
    }


_FIELDS = dataclasses.fields(UongaState)
RULES = UongaRules()
