"""Uonga computer player: legal at every level and phase, deterministic, picklable, within its time
budget, and strong enough to beat random play (kept short: about 10 s in all)."""

from __future__ import annotations

import pickle
import random
import time

import pytest

from engine.errors import MatchOver, NotYourTurn
from engine.games.uonga import RULES, UongaState
from engine.games.uonga_ai import COMPUTER, UongaComputer, evaluate
from engine.games.uonga_data import INDEX


def board_of(pieces: dict[str, str]) -> str:
    cells = ["."] * 25
    for sq, p in pieces.items():
        cells[INDEX[sq]] = p
    return "".join(cells)


def midgame(seed: int = 2, moves: int = 6) -> UongaState:
    """A position a few random moves into the movement phase (a busy board for timing)."""
    rng = random.Random(seed)
    s = RULES.setup(2, seed, {"side": "cavemen"})
    while s.phase == "place" or (s.turn < 11 + moves and s.phase != "over"):
        (seat,) = RULES.to_move(s)
        s, _ = RULES.apply(s, seat, rng.choice(RULES.legal_actions(s, seat)))
    assert s.phase == "move"
    return s


def play(levels: dict[int, str], seed: int) -> UongaState:
    rng = random.Random(seed)
    s = RULES.setup(2, seed, {"side": "cavemen"})
    while s.phase != "over":
        (seat,) = RULES.to_move(s)
        legal = RULES.legal_actions(s, seat)
        action = rng.choice(legal) if levels[seat] == "random" else COMPUTER.choose(s, seat, levels[seat])
        assert action in legal
        s, _ = RULES.apply(s, seat, action)
    return s


def test_levels_are_easy_medium_hard_and_the_computer_is_picklable():
    assert COMPUTER.levels == ("easy", "medium", "hard")
    assert isinstance(pickle.loads(pickle.dumps(COMPUTER)), UongaComputer)
    assert COMPUTER.think_seconds(RULES.setup(2, 1, {}), 0, "hard") == 0.0


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_every_level_plays_legal_actions_in_placement_and_movement(level):
    s = RULES.setup(2, 3, {"side": "mastodons"})
    for _ in range(20):  # all of placement and a few moves
        (seat,) = RULES.to_move(s)
        action = COMPUTER.choose(s, seat, level)
        assert action in RULES.legal_actions(s, seat)
        s, _ = RULES.apply(s, seat, action)
        if s.phase == "over":
            break
    assert s.turn > 10


@pytest.mark.parametrize("v2", [False, True])
def test_the_computer_settles_tied_herds_with_legal_takes(v2):
    pieces = {"d5": "H", "b4": "H", "c4": "H", "d4": "M", "e4": "H", "a3": "H", "b3": "M", "d3": "M"}
    pieces |= {"b2": "M", "e2": "H", "a1": "H", "b1": "H", "d1": "H", "c2": "Y", "e5": "M"}
    s = UongaState(0, 7, board=board_of(pieces), phase="move", turn=11, v2=v2)
    s, _ = RULES.apply(s, 0, "move.c2.c3")
    while s.phase == "take":
        (seat,) = RULES.to_move(s)
        assert seat == (1 if v2 else 0)
        action = COMPUTER.choose(s, seat, "hard")
        assert action in RULES.legal_actions(s, seat)
        s, _ = RULES.apply(s, seat, action)
    assert s.points[0] == 6


def test_choose_refuses_finished_games_and_seats_not_to_move():
    s = RULES.setup(2, 1, {"side": "cavemen"})
    with pytest.raises(NotYourTurn):
        COMPUTER.choose(s, 1, "hard")
    over = UongaState(0, 1, phase="over", result="draw", reason="draw")
    with pytest.raises(MatchOver):
        COMPUTER.choose(over, 0, "easy")


def test_choices_are_deterministic_for_state_seat_and_level():
    s = midgame()
    (seat,) = RULES.to_move(s)
    for level in COMPUTER.levels:
        assert COMPUTER.choose(s, seat, level) == COMPUTER.choose(RULES.load(RULES.dump(s)), seat, level)


def test_the_levels_play_visibly_differently():
    differ = 0
    for seed in range(6):
        s = midgame(seed, moves=4)
        (seat,) = RULES.to_move(s)
        picks = {level: COMPUTER.choose(s, seat, level) for level in COMPUTER.levels}
        differ += picks["easy"] != picks["hard"]
    assert differ >= 2


def test_hard_takes_a_free_mastodon_and_a_mastodon_takes_a_hanging_hunter():
    # full material (the search reads the points off the board): spare pieces stand out of the way
    spare = {"a5": "H", "b5": "H", "c5": "Y", "e3": "Y", "e4": "Y", "d5": "M", "e1": "M", "a2": "M"}
    s = UongaState(0, 7, board=board_of({"c3": "M", "b2": "Y", "d2": "H", "a4": "Y", "e5": "M", "a1": "H",
                                         "c1": "H", **spare}), phase="move", turn=11)  # fmt: skip
    after, _ = RULES.apply(s, 0, COMPUTER.choose(s, 0, "hard"))  # a third Caveman next to c3
    assert after.points[0] >= 3
    # loose Cavemen on open Mastodon lines: the Mastodons take one
    s = UongaState(0, 7, board=board_of({"b4": "M", "b2": "H", "d1": "Y", "e2": "Y", "c1": "H", **spare}),
                   side="M", phase="move", turn=12)  # fmt: skip
    after, _ = RULES.apply(s, 1, COMPUTER.choose(s, 1, "hard"))
    assert after.points[1] >= 1


def test_hard_respects_its_time_budget():
    s = midgame(4, moves=2)
    (seat,) = RULES.to_move(s)
    t0 = time.perf_counter()
    COMPUTER.choose(s, seat, "hard")
    assert time.perf_counter() - t0 < 3.0


@pytest.mark.parametrize("hard_seat", [0, 1])
def test_hard_beats_random_play(hard_seat):
    levels = {hard_seat: "hard", 1 - hard_seat: "random"}
    s = play(levels, seed=40 + hard_seat)
    assert RULES.outcome(s).winners == [hard_seat]


def test_evaluation_prefers_the_side_with_more_points():
    even = board_of({"c3": "M", "a1": "H"})
    assert evaluate(board_of({"a1": "H"}), "C") > evaluate(even, "C")
