"""Uonga's hard level (issue 37): the bit boards agree with the rules, the search scores draws and
decided games as a strong player would, the evaluation knows fortresses, and decisions are
deterministic within their node budget."""

from __future__ import annotations

import random

from engine.games.uonga import RULES, UongaState
from engine.games.uonga_ai import COMPUTER
from engine.games.uonga_bits import captures, from_board, moves, to_board
from engine.games.uonga_board import side_moves
from engine.games.uonga_deep import MATE, Search
from engine.games.uonga_fortress import evaluate, holds, reachable
from engine.games.uonga_hard import HardBudget, choose_move, choose_place
from engine.games.uonga_search import _is_capture, make_move
from tests.engine.test_uonga_ai import board_of


def random_states(games: int) -> list[UongaState]:
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        s = RULES.setup(2, seed, {"side": "cavemen"})
        while s.phase != "over":
            if s.phase == "move":
                out.append(s)
            (seat,) = RULES.to_move(s)
            s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_actions(s, seat)))
    return out


def test_the_bit_boards_agree_with_the_rules_on_every_move_of_random_games():
    se = Search()
    for s in random_states(25):
        h, y, m = from_board(s.board)
        assert to_board(h, y, m) == s.board
        assert sorted(moves(h, y, m, s.side)) == sorted(side_moves(s.board, s.side))
        caps = {mv for mv in side_moves(s.board, "C") if _is_capture(s.board, "C", mv)}
        assert set(captures(h, y, m)) == caps
        for a, b in side_moves(s.board, s.side):
            board, captured = make_move(s.board, a, b, False)
            h2, y2, m2, cap = se.play(h, y, m, s.side, a, b)
            assert cap == captured
            if to_board(h2, y2, m2) != board:  # only a herd tie may be settled another way
                assert board.count("M") == to_board(h2, y2, m2).count("M")


def test_a_corner_l_and_a_corner_pair_are_out_of_reach():
    board = board_of({"a1": "M", "b1": "M", "a2": "M", "d5": "M", "e5": "M"})
    m = from_board(board)[2]
    out = {
        sq for sq, i in (("a1", 0), ("b1", 1), ("a2", 5), ("d5", 23), ("e5", 24)) if not reachable(m, 10, i)
    }
    assert out == {"a1", "b1", "a2", "e5"}, "d5 has four free neighbours: four Cavemen can still surround it"
    assert not reachable(m, 3, 23), "with three Cavemen left no herd member can fall"


CAVEMEN_9 = {"c3": "H", "d4": "H", "c5": "H", "d1": "H", "b5": "H", "e1": "Y", "e3": "Y", "a4": "Y", "d2": "Y"}  # fmt: skip


def test_a_lead_that_cannot_become_a_win_is_worth_little():
    # the Cavemen lead (one Mastodon against one Youngling) but need two more Mastodons, and only e5
    # is within reach: the corner L a1 b1 a2 holds while e5 makes the moves the Mastodons must make
    fortress = evaluate(
        *from_board(board_of({**CAVEMEN_9, "a1": "M", "b1": "M", "a2": "M", "e5": "M"})), "C", 9
    )
    open_field = evaluate(
        *from_board(board_of({**CAVEMEN_9, "b2": "M", "c4": "M", "e4": "M", "a3": "M"})), "C", 9
    )
    assert 0 < fortress < open_field / 4, (fortress, open_field)


def test_a_fortress_whose_every_move_opens_it_is_no_fortress():
    # the last three Mastodons in a corner L: each move opens one of them (R19: they must move)
    h, y, m = from_board(board_of({**CAVEMEN_9, "a1": "M", "b1": "M", "a2": "M"}))
    assert not holds(h, y, m, 1)
    # ... unless three Cavemen are left: then no herd member can fall (R29 needs four)
    h, y, m = from_board(board_of({"e5": "H", "e4": "Y", "d5": "Y", "a1": "M", "b1": "M", "a2": "M"}))
    assert holds(h, y, m, 1)


def test_draws_score_zero_and_the_side_behind_keeps_the_game_quiet():
    # one quiet turn from the move limit (R38): the Mastodons, two Mastodons down, need not capture
    pieces = {"a1": "M", "b1": "M", "a2": "M", "c3": "H", "d4": "H", "e5": "Y", "e3": "Y", "c5": "H"}
    s = UongaState(0, 7, board=board_of(pieces), side="M", phase="move", turn=60, quiet=39)
    _, score = Search(budget=20_000).root(*from_board(s.board), "M", s.quiet)
    assert score == 0


def test_decided_games_are_scored_by_their_distance():
    se = Search()
    m = from_board(board_of({"a1": "M", "b1": "M"}))[2]  # three Mastodons captured: the Cavemen won
    assert se.decided(0, 0, m, "C", 3) == 100_000 - 3 and se.decided(0, 0, m, "M", 3) == 3 - 100_000
    assert MATE < 100_000 - 50, "a loss 50 plies away still counts as decided"
    # the Cavemen take the third Mastodon at once rather than later
    pieces = {"c3": "M", "b2": "Y", "d2": "H", "a4": "Y", "a1": "H", "c1": "H", "e1": "M", "e5": "M"}
    h, y, m = from_board(board_of(pieces))
    _, score = Search(budget=20_000).root(h, y, m, "C", 0)
    assert score == 100_000 - 1


def test_a_lost_side_picks_the_line_that_loses_latest():
    #   5  . . . M .     found in a seeded random game (seed 8, turn 14): the Cavemen have two
    #   4  M . . Y .     Mastodons and every Mastodon move loses the third, some at once (2 plies:
    #   3  . Y Y H H     the Mastodons' move, the Cavemen's capture), some a move later (4 plies)
    #   2  Y Y H H .
    #   1  H M . . .
    #      a b c d e
    board = "HM...YYHH..YYHHM..Y....M."
    h, y, m = from_board(board)
    (a, b), score = Search(budget=200_000).root(h, y, m, "M", 0)
    assert score == -(100_000 - 4), "the loss four plies away, not two"
    se = Search(budget=200_000)
    h2, y2, m2, _ = se.play(h, y, m, "M", a, b)
    assert se.decided(h2, y2, m2, "C", 1) is None and not any(
        se.decided(*se.play(h2, y2, m2, "C", c, d)[:3], "M", 2) for c, d in moves(h2, y2, m2, "C")
    ), "the move chosen survives the Cavemen's next move"


def test_hard_decisions_are_deterministic_and_use_a_node_budget():
    small = HardBudget(nodes=3000, place_nodes=3000)
    s = RULES.setup(2, 5, {"side": "cavemen"})
    assert choose_place(s, small) == choose_place(RULES.load(RULES.dump(s)), small)
    for s in random_states(2)[5:40:7]:
        assert choose_move(s, small) == choose_move(RULES.load(RULES.dump(s)), small)
        (seat,) = RULES.to_move(s)
        assert COMPUTER.choose(s, seat, "hard") in RULES.legal_actions(s, seat)
