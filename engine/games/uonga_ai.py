"""Computer player for Uonga: negamax with alpha-beta, iterative deepening, a transposition table,
killer/history move ordering, a short capture quiescence and a node budget (plus a time cap).

The search works on the bare position (board string + side to move): in the movement phase the
points follow from the board (every missing piece was captured), so ``board + side`` is the
transposition key. Levels differ in depth, budget, placement judgement and noise:

- ``easy``: one ply with seeded noise, placement by the plain evaluation (visibly weaker);
- ``medium``: one ply and a short capture quiescence, placement by the plain evaluation (a
  two-ply search was so close to ``hard`` that hard won only 64% of their games);
- ``hard``: iterative deepening up to 8 plies within a node budget and a time cap; placement by a
  placement-aware score (herds, edges, Mastodons one Caveman short of capture) and a narrow beam
  search over the next placements, ending in the Cavemen's first captures.

Deterministic given (state, seat, level): the budget counts nodes, and the noise comes from a CRC of
the position. The time cap (``HARD_CAP``) only stops a search that would blow the move-time aim on a
very slow machine.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass

from engine.core import Seat
from engine.errors import MatchOver, NotYourTurn
from engine.games.uonga import RULES, UongaState, captures_after, piece_moves, put, target
from engine.games.uonga_data import (
    CAVEMEN,
    EMPTY,
    MASTODON,
    N_SQUARES,
    NEIGH4,
    NEIGH8,
    ROOK_RAYS,
    SQUARES,
    VALUE,
)
from engine.rng import Rng

WIN = 100_000
POINT = 100  # one captured point in evaluation units
# pressure on a Mastodon by the Cavemen around it: index = cav count (capped), per threshold 3 / 4
PRESSURE = {3: (0, 6, 22, 45, 45, 45, 45, 45, 45), 4: (0, 3, 9, 24, 45, 45, 45, 45, 45)}
HANGING = 0.25  # a Caveman on an open Mastodon line: this share of its value (the search sees more)
HARD_CAP = 2.5  # seconds: the hard level never searches longer than this
# placement weights (evaluation units): herd links, edge squares, Mastodons no one can surround
PLACE_MATE, PLACE_EDGE, PLACE_IMMUNE, PLACE_DANGER = 30, 8, 80, 160
PLACE_TOP = 8  # hard placement: how many of the best-scored placements get a look-ahead
PLACE_BEAM = 4  # ... and how many answers each later placement considers
PLACE_DEPTH = 4  # placements looked at, this one included (a Cavemen turn is two)
REVIEW_DEPTH = 3  # plies a reviewed move is searched (engine.lessons), its own included


@dataclass(frozen=True)
class Level:
    depth: int
    nodes: int
    noise: int  # evaluation units of seeded noise added at the root
    quiescence: int  # extra plies of captures at the leaves


LEVELS: dict[str, Level] = {
    "easy": Level(depth=1, nodes=10**9, noise=90, quiescence=0),
    # one ply: against hard 81% (68-89%) of 52 seeded games, sides rotated, and it still beats easy
    # 98%; two plies beat easy as often but hard only 64% (55-73%) of 104
    "medium": Level(depth=1, nodes=10**9, noise=0, quiescence=2),
    # 15,000 nodes: p99 0.75 s a decision; 25,000 took 1.2 s for the same strength (on the same 104
    # seeded games against medium, sides rotated: 64% (55-73%) against 66% (57-75%))
    "hard": Level(depth=8, nodes=15_000, noise=0, quiescence=4),
}
REVIEW = Level(depth=REVIEW_DEPTH, nodes=10**9, noise=0, quiescence=4)  # engine.lessons: no budget


# ---- evaluation (from the Cavemen's point of view) ------------------------------------------------


def cav_points(board: str) -> int:
    return VALUE[MASTODON] * (5 - board.count(MASTODON))


def mast_points(board: str) -> int:
    return VALUE["H"] * (5 - board.count("H")) + VALUE["Y"] * (5 - board.count("Y"))


def _ring2(i: int) -> tuple[int, ...]:
    f, r = i % 5, i // 5
    return tuple(j for j in range(N_SQUARES) if max(abs(j % 5 - f), abs(j // 5 - r)) == 2)


RING2 = tuple(_ring2(i) for i in range(N_SQUARES))
NEIGH8_SET = tuple(frozenset(n) for n in NEIGH8)


def evaluate(board: str, side: str, hanging: bool = True) -> int:
    """Static value for the Cavemen: material, pressure around each Mastodon, Cavemen standing on an
    open Mastodon line (worse when the Mastodons move next) and Cavemen two squares from a Mastodon
    (so that quiet moves still close in)."""
    score = POINT * (cav_points(board) - mast_points(board))
    hang = HANGING * (2 if side == "M" else 1) * POINT * hanging
    for m in range(N_SQUARES):
        if board[m] != MASTODON:
            continue
        herd = False
        for j in NEIGH4[m]:
            if board[j] == MASTODON:
                herd = True
                break
        cav = 0
        for j in NEIGH8[m]:
            if board[j] in CAVEMEN:
                cav += 1
        score += PRESSURE[4 if herd else 3][cav]
        for j in RING2[m]:
            if board[j] in CAVEMEN:
                score += 4
        for ray in ROOK_RAYS[m]:  # Cavemen a Mastodon could land on next
            for j in ray:
                p = board[j]
                if p != EMPTY:
                    if p in CAVEMEN:
                        score -= int(VALUE[p] * hang)
                    break
    return score


# ---- the search -----------------------------------------------------------------------------------------


class _Stop(Exception):
    """The node budget or the time cap ran out: the iteration in progress is dropped."""


@dataclass
class _Ctx:
    target_c: int
    target_m: int
    v2: bool
    move_limit: int
    quiet: int  # capture-free turns before the root (R38)
    seen: dict[str, int]
    repetitions: int
    level: Level
    nodes: int = 0
    deadline: float = 0.0

    def __post_init__(self) -> None:
        self.tt: dict[str, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.killers: dict[int, list[tuple[int, int]]] = {}
        self.history: dict[tuple[int, int], int] = {}


EXACT, LOWER, UPPER = 0, 1, 2


def make_move(board: str, a: int, b: int, v2: bool) -> tuple[str, bool]:
    """Play (a, b) on a bare board with every capture (R24, R27-R31); returns (board, captured?).
    A tie (R30) is settled by the chooser's static preference (the Mastodon player's under V2)."""
    piece = board[a]
    victim = board[b]
    board = put(put(board, a, EMPTY), b, piece)
    if piece == MASTODON:
        return board, victim != EMPTY
    if not any(board[j] == MASTODON for j in NEIGH8[b]):
        return board, False
    sure, ties = captures_after(board, b)
    fallen = list(sure)
    for tie in ties:
        pick = min if v2 else max
        fallen.append(pick(tie, key=lambda m: (evaluate(put(board, m, EMPTY), "M"), -m)))
    for m in fallen:
        board = put(board, m, EMPTY)
    return board, bool(fallen)


def _moves(board: str, side: str) -> list[tuple[int, int]]:
    mine = (MASTODON,) if side == "M" else ("H", "Y")
    return [(i, j) for i in range(N_SQUARES) if board[i] in mine for j in piece_moves(board, i)]


def _is_capture(board: str, side: str, mv: tuple[int, int]) -> bool:
    """Whether ``mv`` captures: a Mastodon landing on a Caveman, or a Caveman move that brings a lone
    Mastodon next to the destination to 3 Cavemen or a herd member there to 4 (R27-R29): exact, and
    far cheaper than playing the move."""
    a, b = mv
    if side == "M":
        return board[b] != EMPTY
    for m in NEIGH8[b]:
        if board[m] != MASTODON:
            continue
        cav = 0 if a in NEIGH8_SET[m] else 1
        for j in NEIGH8[m]:
            if board[j] in CAVEMEN:
                cav += 1
        if cav >= 3 and (cav >= 4 or not any(board[j] == MASTODON for j in NEIGH4[m])):
            return True
    return False


def _order(
    ctx: _Ctx, board: str, side: str, moves: list[tuple[int, int]], best: tuple[int, int] | None, ply: int
) -> list[tuple[int, int]]:
    """TT move, then captures (biggest victim first), killers, moves next to a Mastodon, history."""
    killers = ctx.killers.get(ply, [])

    def key(mv: tuple[int, int]) -> int:
        if mv == best:
            return -(10**9)
        a, b = mv
        k = -ctx.history.get(mv, 0)
        if side == "M":
            if board[b] != EMPTY:
                k -= 10**6 * VALUE[board[b]]
        else:
            near = sum(1 for j in NEIGH8[b] if board[j] == MASTODON) - sum(
                1 for j in NEIGH8[a] if board[j] == MASTODON
            )
            k -= 1000 * near
        if mv in killers:
            k -= 10**5
        return k

    return sorted(moves, key=key)


def _terminal(ctx: _Ctx, board: str, side: str, ply: int) -> int | None:
    """Side-to-move score if the game is decided on this board (R34/V1), else None."""
    if cav_points(board) >= ctx.target_c:
        return -(WIN - ply) if side == "M" else WIN - ply
    if mast_points(board) >= ctx.target_m:
        return -(WIN - ply) if side == "C" else WIN - ply
    return None


def _tick(ctx: _Ctx) -> None:
    ctx.nodes += 1
    if ctx.nodes > ctx.level.nodes or (ctx.nodes & 255 == 0 and time.perf_counter() > ctx.deadline):
        raise _Stop


def _quiesce(ctx: _Ctx, board: str, side: str, alpha: int, beta: int, ply: int, left: int) -> int:
    _tick(ctx)
    done = _terminal(ctx, board, side, ply)
    if done is not None:
        return done
    stand = evaluate(board, side) * (1 if side == "C" else -1)
    if stand >= beta or left <= 0:
        return stand
    alpha = max(alpha, stand)
    other = "M" if side == "C" else "C"
    caps = [mv for mv in _moves(board, side) if _is_capture(board, side, mv)]
    for mv in _order(ctx, board, side, caps, None, ply):
        child, _ = make_move(board, mv[0], mv[1], ctx.v2)
        score = -_quiesce(ctx, child, other, -beta, -alpha, ply + 1, left - 1)
        if score >= beta:
            return score
        alpha = max(alpha, score)
    return alpha


def _negamax(
    ctx: _Ctx, board: str, side: str, depth: int, alpha: int, beta: int, ply: int, quiet: int
) -> int:
    done = _terminal(ctx, board, side, ply)
    if done is not None:
        return done
    if ctx.move_limit and quiet >= ctx.move_limit:
        return 0  # R38 draw
    key = board + side
    if ply and ctx.repetitions and ctx.seen.get(key, 0) + 1 >= ctx.repetitions:
        return 0  # R37: this would be a drawn repetition
    if depth <= 0:
        return _quiesce(ctx, board, side, alpha, beta, ply, ctx.level.quiescence)
    _tick(ctx)
    entry = ctx.tt.get(key)
    best_mv = None
    if entry is not None:
        e_depth, e_score, e_flag, best_mv = entry
        hit = (
            e_flag == EXACT or (e_flag == LOWER and e_score >= beta) or (e_flag == UPPER and e_score <= alpha)
        )
        if e_depth >= depth and ply and hit:
            return e_score
    other = "M" if side == "C" else "C"
    moves = _moves(board, side)
    if not moves:  # R36: a pass (the Mastodons always have a move, so no double pass)
        return -_negamax(ctx, board, other, depth - 1, -beta, -alpha, ply + 1, quiet + 1)
    alpha0, best, best_score = alpha, None, -WIN * 2
    for mv in _order(ctx, board, side, moves, best_mv, ply):
        child, captured = make_move(board, mv[0], mv[1], ctx.v2)
        score = -_negamax(ctx, child, other, depth - 1, -beta, -alpha, ply + 1, 0 if captured else quiet + 1)
        if score > best_score:
            best_score, best = score, mv
        alpha = max(alpha, score)
        if alpha >= beta:
            if not captured:
                ks = ctx.killers.setdefault(ply, [])
                if mv not in ks:
                    ctx.killers[ply] = [mv, *ks[:1]]
                ctx.history[mv] = ctx.history.get(mv, 0) + depth * depth
            break
    flag = UPPER if best_score <= alpha0 else LOWER if best_score >= beta else EXACT
    ctx.tt[key] = (depth, best_score, flag, best)
    return best_score


def _root(ctx: _Ctx, board: str, side: str, noise: dict[tuple[int, int], int]) -> tuple[int, int]:
    """Iterative deepening at the root; the best move of the last finished depth wins."""
    moves = _moves(board, side)
    other = "M" if side == "C" else "C"
    best = moves[0]
    for depth in range(1, ctx.level.depth + 1):
        try:
            scored = []
            alpha = -WIN * 2
            for mv in _order(ctx, board, side, moves, best, 0):
                child, captured = make_move(board, mv[0], mv[1], ctx.v2)
                q = 0 if captured else ctx.quiet + 1
                score = -_negamax(ctx, child, other, depth - 1, -WIN * 2, -alpha + 1, 1, q) + noise.get(mv, 0)
                scored.append((score, mv))
                alpha = max(alpha, score)
        except _Stop:
            break
        scored.sort(key=lambda t: (-t[0], t[1]))
        best = scored[0][1]
        moves = [mv for _, mv in scored]
        if scored[0][0] >= WIN - 100:
            break  # a forced win found: no need to look deeper
    return best


# ---- placement ------------------------------------------------------------------------------------------------


def _placements(s: UongaState) -> list[tuple[str, int]]:
    kinds = [MASTODON] if s.side == "M" else [k for k in ("H", "Y") if k != s.half]
    return [(k, i) for k in kinds for i in range(N_SQUARES) if s.board[i] == EMPTY]


def _place_score(board: str, side: str) -> int:
    """Value of a placement for the placing side. Placement has its own risks: the Cavemen still
    place pieces (two a turn) and then move first, so a Mastodon one Caveman short of capture is
    nearly lost, while a Mastodon with fewer free neighbours than Cavemen needed can never fall."""
    v = evaluate(board, "C", hanging=False)  # the Cavemen move first: an open line is no threat yet
    for m in range(N_SQUARES):
        if board[m] != MASTODON:
            continue
        mates = sum(1 for j in NEIGH4[m] if board[j] == MASTODON)
        need = 4 if mates else 3
        cav = sum(1 for j in NEIGH8[m] if board[j] in CAVEMEN)
        free = sum(1 for j in NEIGH8[m] if board[j] != MASTODON)
        empty = sum(1 for j in NEIGH8[m] if board[j] == EMPTY)
        v -= PLACE_MATE * mates + PLACE_EDGE * (8 - len(NEIGH8[m]))  # herds and edges are safer
        if free < need:
            v -= PLACE_IMMUNE  # out of reach for good (e.g. the corner of a herd)
        elif empty == 0:
            v += PLACE_DANGER // 4  # boxed in: a capture first needs a Caveman to step away
        elif cav >= need:
            v += PLACE_DANGER * 3 // 2  # falls to the first Caveman move next to it
        elif cav == need - 1:
            v += PLACE_DANGER
        elif cav == need - 2:
            v += PLACE_DANGER // 4
    return v if side == "C" else -v


def _greedy(board: str, side: str, kinds: tuple[str, ...]) -> str:
    """The board after ``side``'s best single placement of one of ``kinds`` by the static score."""
    best = max(
        ((_place_score(board2 := put(board, i, k), side), -i, board2) for k in kinds for i in range(N_SQUARES)
         if board[i] == EMPTY),
        default=None,
    )  # fmt: skip
    return board if best is None else best[2]


def _greedy_cavemen_turn(board: str) -> str:
    board = _greedy(board, "C", ("H", "Y"))
    placed = "H" if board.count("H") > board.count("Y") else "Y"
    return _greedy(board, "C", ("Y",) if placed == "H" else ("H",))


def _place_search(
    ctx: _Ctx, board: str, side: str, half: str, turn: int, depth: int, alpha: int, beta: int
) -> int:
    """Negamax over placements with a narrow beam: the ``PLACE_BEAM`` best placements by the static
    score at each step, ``depth`` placements deep (a Cavemen turn is two of them, by the same side).
    When placement ends the Cavemen's captures on their first move are played out (quiescence)."""
    if turn > 10:  # the Cavemen move first (R19): captures they have at once count now
        value = _quiesce(ctx, board, "C", -WIN * 2, WIN * 2, 0, 2)
        return value if side == "C" else -value
    if depth == 0:
        return _place_score(board, side)
    kinds = ("M",) if side == "M" else tuple(k for k in ("H", "Y") if k != half)
    children = sorted(
        ((_place_score(b2 := put(board, i, k), side), -i, k, b2) for k in kinds for i in range(N_SQUARES)
         if board[i] == EMPTY),
        reverse=True,
    )[:PLACE_BEAM]  # fmt: skip
    best = -WIN * 2
    for _, _, k, child in children:
        if side == "C" and not half:  # the second Cavemen piece of this turn: same side, no sign change
            score = _place_search(ctx, child, "C", k, turn, depth - 1, alpha, beta)
        else:
            other = "M" if side == "C" else "C"
            score = -_place_search(ctx, child, other, "", turn + 1, depth - 1, -beta, -alpha)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def _lookahead(s: UongaState, board: str, placed: str) -> int:
    """Hard placement: the value of a placement after a beam search of the next placements."""
    ctx = _ctx_for(s, LEVELS["medium"])
    if s.side == "C" and not s.half:
        return _place_search(ctx, board, "C", placed, s.turn, PLACE_DEPTH - 1, -WIN * 2, WIN * 2)
    other = "M" if s.side == "C" else "C"
    return -_place_search(ctx, board, other, "", s.turn + 1, PLACE_DEPTH - 1, -WIN * 2, WIN * 2)


def _choose_place(s: UongaState, level: Level, noise_seed: int) -> str:
    rng = Rng(noise_seed)
    scored = []
    for k, i in _placements(s):
        board = put(s.board, i, k)
        if level.depth >= 4:
            score = _place_score(board, s.side)
        else:  # easy and medium place by the plain evaluation: no placement-specific judgement
            score = evaluate(board, "C", hanging=False) * (1 if s.side == "C" else -1)
        if level.noise:
            score += rng.below(2 * level.noise + 1) - level.noise
        scored.append((score, k, i))
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    if level.depth >= 4:  # hard: the best few, judged after the opponent's answer
        scored = sorted(
            ((_lookahead(s, put(s.board, i, k), k), k, i) for _, k, i in scored[:PLACE_TOP]),
            key=lambda t: (-t[0], t[1], t[2]),
        )
    _, k, i = scored[0]
    return f"place.{k}.{SQUARES[i]}"


# ---- the computer ----------------------------------------------------------------------------------------------


def _seed(s: UongaState, seat: Seat) -> int:
    return zlib.crc32(f"{s.board}{s.side}{s.half}{s.turn}{seat}".encode())


def _ctx_for(s: UongaState, level: Level) -> _Ctx:
    return _Ctx(
        target_c=target(s, "C"),
        target_m=target(s, "M"),
        v2=s.v2,
        move_limit=s.move_limit,
        quiet=s.quiet,
        seen=s.seen,
        repetitions=s.repetitions,
        level=level,
        deadline=time.perf_counter() + HARD_CAP,
    )


def _choose_move(s: UongaState, level: Level, seat: Seat) -> str:
    ctx = _ctx_for(s, level)
    noise: dict[tuple[int, int], int] = {}
    if level.noise:
        rng = Rng(_seed(s, seat))
        noise = {mv: rng.below(2 * level.noise + 1) - level.noise for mv in _moves(s.board, s.side)}
    a, b = _root(ctx, s.board, s.side, noise)
    return f"move.{SQUARES[a]}.{SQUARES[b]}"


def _choose_take(s: UongaState, seat: Seat) -> str:
    """R30: pick the tied Mastodon whose loss is best for the chooser after all takes are settled."""
    best: tuple[int, str] | None = None
    for code in RULES.legal_actions(s, seat):
        t, _ = RULES.apply(s, seat, code)
        while t.phase == "take":  # more herds to settle: settle them the same way
            nxt = _choose_take(t, seat)
            t, _ = RULES.apply(t, seat, nxt)
        value = evaluate(t.board, t.side) if t.phase != "over" else (WIN if t.result == "C" else -WIN)
        if seat != s.cav_seat:
            value = -value
        if best is None or value > best[0]:
            best = (value, code)
    assert best is not None
    return best[1]


class UongaComputer:
    """The three levels above; picklable (no state) and deterministic given (state, seat, level)."""

    levels = ("easy", "medium", "hard")

    def choose(self, s: UongaState, seat: Seat, level: str = "easy") -> str:
        if s.phase == "over":
            raise MatchOver()
        if seat not in RULES.to_move(s):
            raise NotYourTurn(seat=seat)
        lv = LEVELS.get(level, LEVELS["easy"])
        if s.phase == "take":
            return _choose_take(s, seat)
        if s.phase == "place":
            return _choose_place(s, lv, _seed(s, seat))
        return _choose_move(s, lv, seat)

    def think_seconds(self, s: UongaState, seat: Seat, level: str) -> float:
        return 0.0

    def action_values(self, s: UongaState, seat: Seat) -> dict[str, float]:
        """Each legal action's worth to ``seat`` in points (engine.lessons; nothing is hidden):
        a placement by the hard level's look-ahead, a move by a full-window search of
        ``REVIEW_DEPTH`` plies after it. A won or lost game is worth ``±WIN / POINT``."""
        if s.phase == "over" or seat not in RULES.to_move(s) or s.phase == "take":
            return {}
        if s.phase == "place":
            out = {}
            for k, i in _placements(s):
                out[f"place.{k}.{SQUARES[i]}"] = _lookahead(s, put(s.board, i, k), k) / POINT
            return out
        ctx = _ctx_for(s, REVIEW)
        ctx.deadline = float("inf")  # off the clock: the values must not depend on the machine's speed
        other = "M" if s.side == "C" else "C"
        out = {}
        for a, b in _moves(s.board, s.side):
            child, captured = make_move(s.board, a, b, ctx.v2)
            q = 0 if captured else ctx.quiet + 1
            score = -_negamax(ctx, child, other, REVIEW_DEPTH - 1, -WIN * 2, WIN * 2, 1, q)
            out[f"move.{SQUARES[a]}.{SQUARES[b]}"] = score / POINT
        return out


COMPUTER = UongaComputer()
