"""Uonga random playouts (seeded loops and hypothesis): invariants that must hold in every state."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.uonga import RULES, UongaState, can_move, captures_after, group_of, side_moves
from engine.games.uonga_data import NEIGH8, PIECES_EACH, VALUE

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"side": "mastodons", "v1": True},
    {"side": "cavemen", "v2": True},
    {"repetitions": 2, "move_limit": 10},
    {"repetitions": 0, "move_limit": 0},
]


def check_invariants(s: UongaState) -> None:
    board = s.board
    counts = {k: board.count(k) for k in "HYM"}
    assert all(0 <= n <= PIECES_EACH for n in counts.values())
    if s.turn <= 10:  # placement: pieces on the board match the turns played (R14/R15), no points (R17)
        assert s.points == [0, 0]
        cav_turns = s.turn // 2  # completed Cavemen placement turns
        assert counts["M"] == (s.turn - 1) // 2
        assert counts["H"] + counts["Y"] == 2 * cav_turns + (1 if s.half else 0)
    else:  # movement: every missing piece was captured and scored (R24/R33)
        assert s.points[0] == VALUE["M"] * (PIECES_EACH - counts["M"])
        assert s.points[1] == VALUE["H"] * (PIECES_EACH - counts["H"]) + VALUE["Y"] * (
            PIECES_EACH - counts["Y"]
        )
        if counts["M"]:  # R36 note: Mastodons left on the board always have a move
            assert can_move(board, "M")
    # R31: one move may take a Mastodon from each group next to the mover, so the last move can pass
    # the target by several Mastodons (hypothesis found three at once); never more than all five
    assert s.points[0] <= VALUE["M"] * PIECES_EACH
    if s.move_limit:
        assert 0 <= s.quiet <= s.move_limit
    if s.phase == "over":
        out = RULES.outcome(s)
        assert out is not None and RULES.to_move(s) == frozenset() and RULES.timers(s) == []
        assert len(out.scores) == 2 and sorted(out.scores) == sorted(s.points)
        if s.result == "draw":
            assert out.winners == [0, 1] and out.reason == "draw"
        else:
            side = 0 if s.result == "C" else 1
            assert s.points[side] >= (10 if s.result == "M" and s.v1 else 9) and out.reason == "win"
    else:
        assert RULES.outcome(s) is None and len(RULES.to_move(s)) == 1
        (seat,) = RULES.to_move(s)
        assert RULES.legal_actions(s, seat) and RULES.legal_actions(s, 1 - seat) == []


def random_game(
    seed: int, options: dict[str, Any], pick: Any = None
) -> tuple[UongaState, list[tuple[int, str]]]:
    rng = random.Random(seed)
    s = RULES.setup(2, seed, options)
    log = []
    for _ in range(3000):
        check_invariants(s)
        if s.phase == "over":
            return s, log
        (seat,) = RULES.to_move(s)
        legal = RULES.legal_actions(s, seat)
        action = legal[pick(len(legal)) if pick else rng.randrange(len(legal))]
        s, _ = RULES.apply(s, seat, action)
        log.append((seat, action))
    raise AssertionError("no end after 3000 actions")


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_keep_the_invariants_and_end(seed):
    options = OPTION_SETS[seed % len(OPTION_SETS)]
    s, log = random_game(seed, options)
    assert s.phase == "over"
    replayed = RULES.setup(2, seed, options)
    for seat, action in log:
        replayed, _ = RULES.apply(replayed, seat, action)
    assert replayed == s
    assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s


def test_lazy_players_end_by_a_draw_limit():
    """Players who always make the first listed move shuffle until R37 or R38 ends the game."""
    for options in ({}, {"repetitions": 0}, {"move_limit": 0}):
        s = RULES.setup(2, 3, options)
        for _ in range(2000):
            if s.phase == "over":
                break
            (seat,) = RULES.to_move(s)
            s, _ = RULES.apply(s, seat, RULES.legal_actions(s, seat)[0])
        assert s.phase == "over", options
        assert s.ended_by in ("repetition", "move_limit", "target")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32), st.sampled_from(OPTION_SETS))
def test_hypothesis_playouts(data, seed, options):
    s, _ = random_game(seed, options, pick=lambda n: data.draw(st.integers(0, n - 1)))
    assert s.phase == "over"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(".HYM"), min_size=25, max_size=25), st.integers(0, 24))
def test_hypothesis_capture_rule_properties(cells, mover):
    """R27/R31 on arbitrary boards: only Mastodons next to the mover fall, one per group."""
    cells[mover] = "Y"
    board = "".join(cells)
    sure, ties = captures_after(board, mover)
    fallen = sure + [m for tie in ties for m in tie]
    assert all(board[m] == "M" for m in fallen)
    assert all(m in NEIGH8[mover] for m in fallen)  # the seed: only Mastodons next to the mover fall
    assert len(set(fallen)) == len(fallen)
    for tie in ties:
        assert len(tie) >= 2
    for m in sure:  # no two sure captures in one herd
        assert not (set(group_of(board, m)) - {m}) & set(sure)


def test_moves_listed_match_apply_for_both_sides():
    s, _ = random_game(5, {"move_limit": 0, "repetitions": 0}, pick=None)
    board = s.board
    for side in "CM":
        for a, b in side_moves(board, side):
            assert board[a] in ("M" if side == "M" else "HY") and board[b] != "M"
            assert side == "M" or board[b] == "."
