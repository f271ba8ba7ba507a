"""Computer player for Uonga. Levels differ in depth, budget, placement judgement and noise:

- ``easy``: one ply with seeded noise, placement by the plain evaluation (visibly weaker);
- ``medium``: one ply and a short capture quiescence, placement by the plain evaluation (a
  two-ply search was so close to the old hard that it won only 64% of their games);
- ``hard`` (issue 37, ``uonga_hard``): a search on 25-bit boards with a transposition table,
  iterative deepening, killer/history ordering, a capture quiescence for both sides, fortress
  knowledge, draws scored 0 and decided games by their distance, within a node budget; placement by
  a beam over the next placements whose leaves are searched once placement is over.

Two names are not offered: ``hard_v1``, the hard level before issue 37 (string boards, 15,000
positions), kept so the bench can measure against it, and ``hard_batch``, the hard level at a quarter
of its budget, for the bench's batches of self-play.

Deterministic given (state, seat, level): budgets count positions, and the noise comes from a CRC of
the position. A time cap only stops a search that would blow the move-time aim on a very slow
machine. Here: the choices of easy, medium and hard_v1 (static evaluation in ``uonga_eval``, search
in ``uonga_search``, placement in ``uonga_place``), and the dispatch to ``uonga_hard``.
"""

from __future__ import annotations

import zlib

from engine.core import Seat
from engine.errors import MatchOver, NotYourTurn
from engine.games.uonga import RULES
from engine.games.uonga_board import put, side_moves
from engine.games.uonga_data import SQUARES
from engine.games.uonga_eval import POINT, WIN, evaluate
from engine.games.uonga_hard import BATCH, HARD
from engine.games.uonga_hard import choose_move as hard_move
from engine.games.uonga_hard import choose_place as hard_place
from engine.games.uonga_place import choose_place, lookahead, placements
from engine.games.uonga_search import LEVELS, REVIEW, REVIEW_DEPTH, Level, ctx_for, make_move, negamax, root
from engine.games.uonga_turn import UongaState
from engine.rng import Rng


def _seed(s: UongaState, seat: Seat) -> int:
    return zlib.crc32(f"{s.board}{s.side}{s.half}{s.turn}{seat}".encode())


def _choose_move(s: UongaState, level: Level, seat: Seat) -> str:
    ctx = ctx_for(s, level)
    noise: dict[tuple[int, int], int] = {}
    if level.noise:
        rng = Rng(_seed(s, seat))
        noise = {mv: rng.below(2 * level.noise + 1) - level.noise for mv in side_moves(s.board, s.side)}
    a, b = root(ctx, s.board, s.side, noise)
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
        if s.phase == "take":
            return _choose_take(s, seat)
        if level in ("hard", "hard_batch"):  # issue 37: the bit-board search with fortress knowledge
            budget = HARD if level == "hard" else BATCH  # hard_batch: the bench's cheaper self-play
            return hard_place(s, budget) if s.phase == "place" else hard_move(s, budget)
        lv = LEVELS.get(level, LEVELS["easy"])
        if s.phase == "place":
            return choose_place(s, lv, _seed(s, seat))
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
            for k, i in placements(s):
                out[f"place.{k}.{SQUARES[i]}"] = lookahead(s, put(s.board, i, k), k) / POINT
            return out
        ctx = ctx_for(s, REVIEW)
        ctx.deadline = float("inf")  # off the clock: the values must not depend on the machine's speed
        other = "M" if s.side == "C" else "C"
        out = {}
        for a, b in side_moves(s.board, s.side):
            child, captured = make_move(s.board, a, b, ctx.v2)
            q = 0 if captured else ctx.quiet + 1
            score = -negamax(ctx, child, other, REVIEW_DEPTH - 1, -WIN * 2, WIN * 2, 1, q)
            out[f"move.{SQUARES[a]}.{SQUARES[b]}"] = score / POINT
        return out


COMPUTER = UongaComputer()
__all__ = ["COMPUTER", "LEVELS", "Level", "UongaComputer", "evaluate"]
