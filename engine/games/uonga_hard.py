"""The hard level's decisions (issue 37): moves by the bit-board search of ``uonga_deep`` within a node
budget, placements by a beam search over the next placements whose leaves, once placement is over,
are searched by the same engine (the first mover's move and the answer, then the captures).

Both budgets count positions, not seconds, so a decision depends only on the game state; they were
chosen for a p99 under 1 s per decision on the 2-core machine under load (docs/computers.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.games.uonga_bits import from_board
from engine.games.uonga_board import put
from engine.games.uonga_data import EMPTY, MASTODON, N_SQUARES, SQUARES
from engine.games.uonga_deep import INF, Search, Stop, key_of
from engine.games.uonga_place import place_score
from engine.games.uonga_turn import PLACEMENT_END, UongaState, target
from engine.games.uonga_variants import variant_of


@dataclass(frozen=True)
class HardBudget:
    nodes: int = 40_000  # positions a move decision may visit
    place_nodes: int = 40_000  # ... and a placement decision
    place_top: int = 8  # placements judged by the look-ahead (the best by the static placement score)
    place_beam: int = 4  # answers each later placement considers
    place_depth: int = 4  # placements looked at, this one included (a Cavemen turn is two)
    leaf_depth: int = 2  # plies searched once placement is over, then the captures


HARD = HardBudget()
BATCH = HardBudget(nodes=10_000, place_nodes=10_000)  # a quarter of the budget: the bench's batches of games


def search_for(s: UongaState, nodes: int) -> Search:
    seen = {}
    for pos, n in s.seen.items():  # R37: the game's positions, keyed as the search keys them
        board, side = pos[:-1], pos[-1]
        seen[key_of(*from_board(board), side)] = n
    return Search(target_c=target(s, "C"), target_m=target(s, "M"), v2=s.v2, move_limit=s.move_limit,
                  repetitions=s.repetitions, budget=nodes, seen=seen)  # fmt: skip


def choose_move(s: UongaState, budget: HardBudget = HARD) -> str:
    se = search_for(s, budget.nodes)
    (a, b), _ = se.root(*from_board(s.board), s.side, s.quiet)
    return f"move.{SQUARES[a]}.{SQUARES[b]}"


# ---- placement ----------------------------------------------------------------------------------------


class _Placement:
    def __init__(self, s: UongaState, budget: HardBudget) -> None:
        self.s, self.budget = s, budget
        self.se = search_for(s, budget.place_nodes)
        self.se.seen = {}
        self.first_move = variant_of(s.variant).first_move

    def leaf(self, board: str) -> int:
        """The Cavemen's value when placement is over: the first mover's search."""
        h, y, m = from_board(board)
        se, side = self.se, self.first_move
        se.path = set()
        v = se.negamax(h, y, m, side, self.budget.leaf_depth, -INF, INF, 0, 0, False)
        return v if side == "C" else -v

    def search(self, board: str, side: str, half: str, turn: int, depth: int, alpha: int, beta: int) -> int:
        """Negamax over placements (value for ``side``, the side placing now), the ``place_beam`` best
        by the static placement score at each step; a Cavemen turn is two placements by one side."""
        if turn > PLACEMENT_END:
            value = self.leaf(board)
            return value if side == "C" else -value
        if depth == 0:
            return place_score(board, side)
        kinds = (MASTODON,) if side == "M" else tuple(k for k in ("H", "Y") if k != half)
        children = sorted(
            ((place_score(b2 := put(board, i, k), side), -i, k, b2) for k in kinds for i in range(N_SQUARES)
             if board[i] == EMPTY),
            reverse=True,
        )[: self.budget.place_beam]  # fmt: skip
        best = -INF
        for _, _, k, child in children:
            score = self.after(child, side, k, half, turn, depth - 1, alpha, beta)
            best = max(best, score)
            alpha = max(alpha, score)
            if alpha >= beta:
                break
        return best

    def after(self, board: str, side: str, piece: str, half: str, turn: int, depth: int, alpha: int,
              beta: int) -> int:  # fmt: skip
        """The placing side's value after it put ``piece`` down (turns alternate, R16/V6a)."""
        if side == "C" and not half:  # the second Cavemen piece of this turn: same side
            return self.search(board, "C", piece, turn, depth, alpha, beta)
        other = "M" if side == "C" else "C"
        return -self.search(board, other, "", turn + 1, depth, -beta, -alpha)


def choose_place(s: UongaState, budget: HardBudget = HARD) -> str:
    kinds = [MASTODON] if s.side == "M" else [k for k in ("H", "Y") if k != s.half]
    scored = sorted(
        (-place_score(put(s.board, i, k), s.side), k, i) for k in kinds for i in range(N_SQUARES)
        if s.board[i] == EMPTY
    )  # fmt: skip
    job = _Placement(s, budget)
    judged: list[tuple[int, str, int]] = []
    try:
        for _, k, i in scored[: budget.place_top]:
            board = put(s.board, i, k)
            alpha = -judged[0][0] - 1 if judged else -INF  # a worse placement need not be valued exactly
            value = job.after(board, s.side, k, s.half, s.turn, budget.place_depth - 1, alpha, INF)
            judged.append((-value, k, i))
            judged.sort()
    except Stop:
        pass  # the budget ran out: the placements judged so far compete (the first always is)
    _, k, i = min(judged or scored[:1])
    return f"place.{k}.{SQUARES[i]}"
