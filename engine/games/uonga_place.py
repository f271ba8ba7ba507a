"""The Uonga computer's placement (R14-R16): a placement-aware score (herds, edges, Mastodons one
Caveman short of capture) and, for ``hard_v1`` (the hard level before issue 37), a narrow beam search
over the next placements ending in the Cavemen's first captures. The hard level (``uonga_hard``)
orders its own beam by the same placement score."""

from __future__ import annotations

from engine.games.uonga_board import put
from engine.games.uonga_data import CAVEMEN, EMPTY, MASTODON, N_SQUARES, NEIGH4, NEIGH8, SQUARES
from engine.games.uonga_eval import WIN, evaluate
from engine.games.uonga_search import LEVELS, Ctx, Level, ctx_for, quiesce
from engine.games.uonga_turn import UongaState
from engine.rng import Rng

# placement weights (evaluation units): herd links, edge squares, Mastodons no one can surround
PLACE_MATE, PLACE_EDGE, PLACE_IMMUNE, PLACE_DANGER = 30, 8, 80, 160
PLACE_TOP = 8  # hard placement: how many of the best-scored placements get a look-ahead
PLACE_BEAM = 4  # ... and how many answers each later placement considers
PLACE_DEPTH = 4  # placements looked at, this one included (a Cavemen turn is two)


def placements(s: UongaState) -> list[tuple[str, int]]:
    kinds = [MASTODON] if s.side == "M" else [k for k in ("H", "Y") if k != s.half]
    return [(k, i) for k in kinds for i in range(N_SQUARES) if s.board[i] == EMPTY]


def place_score(board: str, side: str) -> int:
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


def place_search(
    ctx: Ctx, board: str, side: str, half: str, turn: int, depth: int, alpha: int, beta: int
) -> int:
    """Negamax over placements with a narrow beam: the ``PLACE_BEAM`` best placements by the static
    score at each step, ``depth`` placements deep (a Cavemen turn is two of them, by the same side).
    When placement ends the Cavemen's captures on their first move are played out (quiescence)."""
    if turn > 10:  # the Cavemen move first (R19): captures they have at once count now
        value = quiesce(ctx, board, "C", -WIN * 2, WIN * 2, 0, 2)
        return value if side == "C" else -value
    if depth == 0:
        return place_score(board, side)
    kinds = ("M",) if side == "M" else tuple(k for k in ("H", "Y") if k != half)
    children = sorted(
        ((place_score(b2 := put(board, i, k), side), -i, k, b2) for k in kinds for i in range(N_SQUARES)
         if board[i] == EMPTY),
        reverse=True,
    )[:PLACE_BEAM]  # fmt: skip
    best = -WIN * 2
    for _, _, k, child in children:
        if side == "C" and not half:  # the second Cavemen piece of this turn: same side, no sign change
            score = place_search(ctx, child, "C", k, turn, depth - 1, alpha, beta)
        else:
            other = "M" if side == "C" else "C"
            score = -place_search(ctx, child, other, "", turn + 1, depth - 1, -beta, -alpha)
        best = max(best, score)
        alpha = max(alpha, score)
        if alpha >= beta:
            break
    return best


def lookahead(s: UongaState, board: str, placed: str) -> int:
    """Hard placement: the value of a placement after a beam search of the next placements."""
    ctx = ctx_for(s, LEVELS["medium"])
    if s.side == "C" and not s.half:
        return place_search(ctx, board, "C", placed, s.turn, PLACE_DEPTH - 1, -WIN * 2, WIN * 2)
    other = "M" if s.side == "C" else "C"
    return -place_search(ctx, board, other, "", s.turn + 1, PLACE_DEPTH - 1, -WIN * 2, WIN * 2)


def choose_place(s: UongaState, level: Level, noise_seed: int) -> str:
    rng = Rng(noise_seed)
    scored = []
    for k, i in placements(s):
        board = put(s.board, i, k)
        if level.depth >= 4:
            score = place_score(board, s.side)
        else:  # easy and medium place by the plain evaluation: no placement-specific judgement
            score = evaluate(board, "C", hanging=False) * (1 if s.side == "C" else -1)
        if level.noise:
            score += rng.below(2 * level.noise + 1) - level.noise
        scored.append((score, k, i))
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    if level.depth >= 4:  # hard: the best few, judged after the opponent's answer
        scored = sorted(
            ((lookahead(s, put(s.board, i, k), k), k, i) for _, k, i in scored[:PLACE_TOP]),
            key=lambda t: (-t[0], t[1], t[2]),
        )
    _, k, i = scored[0]
    return f"place.{k}.{SQUARES[i]}"
