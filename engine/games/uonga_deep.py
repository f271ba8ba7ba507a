"""The hard computer's search (issue 37) on 25-bit boards (``uonga_bits``): negamax alpha-beta with
principal-variation windows, iterative deepening, a transposition table keyed by one int, move
ordering (table move, captures by value, two killers a ply, history), a capture quiescence for both
sides and the fortress-aware evaluation of ``uonga_fortress``.

Draws and losses are scored as a strong player would: a draw (repetition R37, a cycle in the line
searched, the quiet rule R38, a double pass R36) is 0, so a side that is behind steers into one; a
game won or lost ``p`` plies ahead is worth ``±(WIN - p)``, so a lost side picks the line that loses
latest and a winning side the fastest win. A node budget ends the search, so a decision depends only
on the position (the time cap is a guard for a machine far slower than measured).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engine.games.uonga_bits import BIT, N8, captures, fallen, moves, squares
from engine.games.uonga_eval import WIN
from engine.games.uonga_fortress import drift, evaluate

MATE = WIN - 1000  # beyond this a score is a decided game (the distance in plies below WIN)
INF = WIN * 2
EXACT, LOWER, UPPER = 0, 1, 2
CAPTURE_FIRST = 1 << 30
KILLER = 1 << 24


class Stop(Exception):
    """The node budget or the time cap ran out: the iteration in progress is dropped."""


def key_of(h: int, y: int, m: int, side: str) -> int:
    return h | y << 25 | m << 50 | (side == "M") << 75


@dataclass
class Search:
    target_c: int = 9  # R34/variants: points each side needs
    target_m: int = 9
    v2: bool = False  # V2: the Mastodon player settles herd ties
    move_limit: int = 40  # R38 (0 = off)
    repetitions: int = 3  # R37 (0 = off)
    budget: int = 40_000  # nodes a decision may visit
    max_depth: int = 30
    quiescence: int = 6  # plies of captures at the leaves
    cap_seconds: float = 4.0
    seen: dict[int, int] = field(default_factory=dict)  # positions the game has started turns in
    nodes: int = 0
    depth_reached: int = 0

    def __post_init__(self) -> None:
        self.tt: dict[int, tuple[int, int, int, tuple[int, int] | None]] = {}
        self.killers: list[list[tuple[int, int]]] = [[] for _ in range(128)]
        self.history = [0] * 625
        self.path: set[int] = set()
        self.evals: dict[int, int] = {}
        self.deadline = time.perf_counter() + self.cap_seconds

    # ---- the rules on bits --------------------------------------------------------------------------

    def play(self, h: int, y: int, m: int, side: str, a: int, b: int) -> tuple[int, int, int, bool]:
        """(a, b) played with every capture (R24, R27-R31); a herd tie (R30) goes the way its
        chooser (the Cavemen, the Mastodons under V2) likes best by the evaluation."""
        ab, bb = BIT[a], BIT[b]
        if side == "M":
            m = m ^ ab | bb
            if h & bb:
                return h ^ bb, y, m, True
            if y & bb:
                return h, y ^ bb, m, True
            return h, y, m, False
        if h & ab:
            h = h ^ ab | bb
        else:
            y = y ^ ab | bb
        if not N8[b] & m:
            return h, y, m, False
        sure, ties = fallen(h, y, m, b)
        pick = min if self.v2 else max
        for tie in ties:
            sure |= pick([BIT[i] for i in squares(tie)], key=lambda t: self._static(h, y, m & ~t, "M", 0))
        return h, y, m & ~sure, bool(sure)

    def _static(self, h: int, y: int, m: int, side: str, quiet: int) -> int:
        key = key_of(h, y, m, side)
        score = self.evals.get(key)
        if score is None:
            score = self.evals[key] = evaluate(h, y, m, side, self.target_c)
        return drift(score, quiet, self.move_limit)

    def decided(self, h: int, y: int, m: int, side: str, ply: int) -> int | None:
        """Side-to-move score of a won or lost game (R34/R35), else None."""
        if 3 * (5 - m.bit_count()) >= self.target_c:
            return WIN - ply if side == "C" else ply - WIN
        if 2 * (5 - h.bit_count()) + 5 - y.bit_count() >= self.target_m:
            return WIN - ply if side == "M" else ply - WIN
        return None

    # ---- search -------------------------------------------------------------------------------------

    def _tick(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget or (self.nodes & 1023 == 0 and time.perf_counter() > self.deadline):
            raise Stop

    def _order(
        self, h: int, y: int, m: int, side: str, mvs: list[tuple[int, int]], best: object, ply: int
    ) -> list[tuple[int, int]]:
        killers = self.killers[ply] if ply < 128 else []
        hist = self.history
        keyed = []
        caps = set(captures(h, y, m)) if side == "C" else ()
        for mv in mvs:
            a, b = mv
            if mv == best:
                k = 4 * CAPTURE_FIRST
            elif side == "M":
                bb = BIT[b]
                k = (2 * CAPTURE_FIRST if h & bb else CAPTURE_FIRST) if (h | y) & bb else 0
            else:
                k = 2 * CAPTURE_FIRST if mv in caps else 0
            if not k:
                if mv in killers:
                    k = KILLER
                k += hist[a * 25 + b]
            keyed.append((k, mv))
        keyed.sort(key=lambda t: -t[0])
        return [mv for _, mv in keyed]

    def quiesce(self, h: int, y: int, m: int, side: str, alpha: int, beta: int, ply: int, left: int,
                quiet: int) -> int:  # fmt: skip
        self._tick()
        stand = self._static(h, y, m, side, quiet)
        if side == "M":
            stand = -stand
        if stand >= beta or left <= 0:
            return stand
        alpha = max(alpha, stand)
        other = "C" if side == "M" else "M"
        if side == "M":
            cav = h | y
            caps = [mv for mv in moves(h, y, m, side) if cav & BIT[mv[1]]]
            caps.sort(key=lambda mv: not h & BIT[mv[1]])  # Hunters first
        else:
            caps = captures(h, y, m)
        for a, b in caps:
            h2, y2, m2, _ = self.play(h, y, m, side, a, b)
            done = self.decided(h2, y2, m2, other, ply + 1)
            score = -done if done is not None else -self.quiesce(h2, y2, m2, other, -beta, -alpha, ply + 1,
                                                                  left - 1, 0)  # fmt: skip
            if score >= beta:
                return score
            alpha = max(alpha, score)
        return alpha

    def negamax(self, h: int, y: int, m: int, side: str, depth: int, alpha: int, beta: int, ply: int,
                quiet: int, passed: bool) -> int:  # fmt: skip
        """The side to move's score; the caller has checked that the game is not decided."""
        if self.move_limit and quiet >= self.move_limit:
            return 0  # R38
        key = key_of(h, y, m, side)
        if key in self.path or (self.repetitions and self.seen.get(key, 0) + 1 >= self.repetitions):
            return 0  # R37, or a cycle: no progress
        if depth <= 0:
            return self.quiesce(h, y, m, side, alpha, beta, ply, self.quiescence, quiet)
        self._tick()
        known, tt_move = self._probe(key, depth, alpha, beta, ply)
        if known is not None:
            return known
        other = "C" if side == "M" else "M"
        mvs = moves(h, y, m, side)
        if not mvs:  # R36: a pass; two in a row draw
            if passed:
                return 0
            return -self.negamax(h, y, m, other, depth - 1, -beta, -alpha, ply + 1, quiet + 1, True)
        alpha0 = alpha
        best_score, best = -INF, None
        self.path.add(key)
        try:
            for n, (a, b) in enumerate(self._order(h, y, m, side, mvs, tt_move, ply)):
                h2, y2, m2, cap = self.play(h, y, m, side, a, b)
                done = self.decided(h2, y2, m2, other, ply + 1)
                q = 0 if cap else quiet + 1
                if done is not None:
                    score = -done
                elif n == 0:
                    score = -self.negamax(h2, y2, m2, other, depth - 1, -beta, -alpha, ply + 1, q, False)
                else:  # a null window first: most moves only need to be shown no better
                    score = -self.negamax(h2, y2, m2, other, depth - 1, -alpha - 1, -alpha, ply + 1, q, False)
                    if alpha < score < beta:
                        score = -self.negamax(h2, y2, m2, other, depth - 1, -beta, -alpha, ply + 1, q, False)
                if score > best_score:
                    best_score, best = score, (a, b)
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if not cap and ply < 128:
                                self._remember_cutoff(a, b, ply, depth)
                            break
        finally:
            self.path.discard(key)
        flag = UPPER if best_score <= alpha0 else LOWER if best_score >= beta else EXACT
        stored = (
            best_score + ply
            if best_score >= MATE
            else best_score - ply
            if best_score <= -MATE
            else best_score
        )
        self.tt[key] = (depth, stored, flag, best)
        return best_score

    def _probe(self, key: int, depth: int, alpha: int, beta: int, ply: int) -> tuple[int | None, Any]:
        """The transposition table's word on a position: a score that settles it here (or None), and
        its best move to try first. Decided scores are stored by distance from the position."""
        entry = self.tt.get(key)
        if entry is None:
            return None, None
        e_depth, e_score, e_flag, tt_move = entry
        if e_depth >= depth:
            if e_score >= MATE:
                e_score -= ply
            elif e_score <= -MATE:
                e_score += ply
            if (
                e_flag == EXACT
                or (e_flag == LOWER and e_score >= beta)
                or (e_flag == UPPER and e_score <= alpha)
            ):
                return e_score, tt_move
        return None, tt_move

    def _remember_cutoff(self, a: int, b: int, ply: int, depth: int) -> None:
        """A quiet move that refuted: a killer at its ply, and history for the ordering."""
        ks = self.killers[ply]
        if (a, b) not in ks:
            self.killers[ply] = [(a, b), *ks[:1]]
        self.history[a * 25 + b] += depth * depth

    def root(self, h: int, y: int, m: int, side: str, quiet: int) -> tuple[tuple[int, int], int]:
        """Iterative deepening: (the best move of the deepest finished iteration, its score). An
        iteration cut short still counts when its first move (the previous best) was searched and a
        later one beat it."""
        mvs = self._order(h, y, m, side, moves(h, y, m, side), None, 0)
        best, best_score = mvs[0], -INF
        if len(mvs) == 1:
            return best, 0
        other = "C" if side == "M" else "M"
        key = key_of(h, y, m, side)
        for depth in range(1, self.max_depth + 1):
            alpha, it_best, it_score = -INF, None, -INF
            self.path = {key}
            try:
                for n, (a, b) in enumerate(mvs):
                    h2, y2, m2, cap = self.play(h, y, m, side, a, b)
                    done = self.decided(h2, y2, m2, other, 1)
                    q = 0 if cap else quiet + 1
                    if done is not None:
                        score = -done
                    elif n == 0:
                        score = -self.negamax(h2, y2, m2, other, depth - 1, -INF, -alpha, 1, q, False)
                    else:
                        score = -self.negamax(h2, y2, m2, other, depth - 1, -alpha - 1, -alpha, 1, q, False)
                        if score > alpha:
                            score = -self.negamax(h2, y2, m2, other, depth - 1, -INF, -alpha, 1, q, False)
                    if score > it_score:
                        it_best, it_score = (a, b), score
                        alpha = max(alpha, score)
            except Stop:
                if it_best is not None and it_best != mvs[0]:
                    best, best_score = it_best, it_score
                break
            assert it_best is not None
            best, best_score = it_best, it_score
            self.depth_reached = depth
            mvs = [best, *(mv for mv in mvs if mv != best)]
            if abs(best_score) >= MATE:
                break  # a decided game: deeper search finds no other result
        return best, best_score


__all__ = ["MATE", "Search", "Stop", "key_of"]
