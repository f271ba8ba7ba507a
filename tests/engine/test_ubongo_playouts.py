"""Seeded Ubongo playouts: random and computer players racing, SYSTEM timer actions fired on a
simulated clock the way the match engine fires them, and invariants checked at every step."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from engine.core import SYSTEM
from engine.errors import EngineError
from engine.games.ubongo import RULES, UbongoState, covered, task_cells
from engine.games.ubongo_ai import COMPUTER, LEVELS, STEP_SECONDS
from engine.games.ubongo_pieces import cells_at

OPTION_SETS = [
    {},
    {"side": "B"},
    {"side": "mixed", "b_seats": "13", "no_yellow": "2", "gems": True},
    {"countdown": 5, "round_limit": 60, "no_yellow": "all"},
]


def check_invariants(s: UbongoState) -> None:
    over = s.phase == "over"
    assert (RULES.to_move(s) == frozenset()) == over
    assert (RULES.timers(s) == []) == over and len(RULES.timers(s)) <= 1
    assert (RULES.outcome(s) is not None) == over
    assert RULES.load(json.loads(json.dumps(RULES.dump(s)))) == s
    dealt = 8 * s.n if s.mode == "race" else 32
    assert sum(len(w) for w in s.won) <= dealt and s.round <= (8 if s.mode == "race" else 10_000)
    for seat in range(s.n):
        if not over:  # every workspace lies inside its task, pieces never overlap
            cells = covered(s, seat)
            assert cells <= task_cells(s, seat)
            assert len(cells) == sum(len(_cells(p, v)) for p, v in s.placed[seat].items())
        view = RULES.view(s, seat)
        view.pop("history")  # finished rounds are face up for everyone
        text = json.dumps(view)
        for other in range(s.n):
            if other != seat and not over and s.tasks[other] != s.tasks[seat]:
                assert json.dumps(s.tasks[other]) not in text


def _cells(piece: str, v: list[int]):
    return cells_at(piece, *v)


def random_playout(seed: int, max_steps: int = 4000) -> tuple[int, dict, UbongoState, list]:
    """Players pick random legal actions (a third of the time the computer's move, so tasks get
    solved); now and then the running timer fires as a SYSTEM action."""
    rng = random.Random(seed)
    n = rng.randint(1, 4)
    options = dict(rng.choice(OPTION_SETS))
    if n == 1:
        options = {"solo": rng.choice(["time", "tasks"]), "solo_size": "5"}
    s = RULES.setup(n, seed, options)
    log = []
    for _ in range(max_steps):
        check_invariants(s)
        movers = sorted(RULES.to_move(s))
        if not movers:
            return n, options, s, log
        if rng.random() < 0.04:
            seat, action = SYSTEM, rng.choice(RULES.legal_actions(s, SYSTEM))
        else:
            seat = rng.choice(movers)
            legal = RULES.legal_actions(s, seat)
            action = COMPUTER.choose(s, seat, "hard") if rng.random() < 0.35 else rng.choice(legal)
            assert action in legal
        before = RULES.dump(s)
        s2, events = RULES.apply(s, seat, action)
        assert RULES.dump(s) == before, "apply must not mutate its input"
        for e in events:
            json.dumps(e.dump())
            if e.kind in ("placed", "lifted", "cleared", "not_a_solution"):
                assert e.to == (seat,)  # a workspace change reaches its owner only
        s = s2
        log.append((seat, action))
    raise AssertionError("no end")


@pytest.mark.parametrize("seed", range(10))
def test_random_playouts_with_system_timers_end_with_an_outcome(seed):
    n, options, s, log = random_playout(seed)
    out = RULES.outcome(s)
    assert out is not None and len(out.scores) == n and out.winners
    assert any(seat == SYSTEM for seat, _ in log) or s.mode == "tasks"
    replayed = RULES.setup(n, seed, options)
    for seat, action in log:
        replayed, _ = RULES.apply(replayed, seat, action)
    assert replayed == s


def test_illegal_and_malformed_codes_change_nothing():
    s = RULES.setup(3, 2, {})
    before = RULES.dump(s)
    for bad in ["", "nonsense", "place", "place.I2", "lift.ZZ", "x" * 200, "🦴", "stop.x", "place.I2.0.9.9"]:
        for seat in (0, 1, SYSTEM, 7):
            with pytest.raises(EngineError):
                RULES.apply(s, seat, bad)
    assert RULES.dump(s) == before


def test_a_players_view_does_not_change_when_another_player_places():
    s = RULES.setup(3, 4, {})
    views = [RULES.view(s, seat) for seat in (1, 2, None)]
    for action in RULES.legal_actions(s, 0)[:30]:
        t, _ = RULES.apply(s, 0, action)
        if t.solved:
            continue
        assert [RULES.view(t, seat) for seat in (1, 2, None)] == views


# ---- a simulated match engine: computers and timers on one clock --------------------------------------


def simulated_match(n: int, seed: int, levels: list[str], options: dict | None = None):
    """Drive a race with computers only. Like the match engine: a timer keeps its due time while its
    (name, seat) stays declared; a computer acts think_seconds after it last acted (or the round
    began). Returns the final state and the (time, seat, action) log."""
    s = RULES.setup(n, seed, options or {})
    clock, due, think, log = 0.0, {}, {}, []
    while s.phase != "over":
        declared = {t.key: t for t in RULES.timers(s)}
        due = {k: due.get(k, clock + t.seconds) for k, t in declared.items()}
        for seat in range(n):
            mark = (s.round, seat, len(s.placed[seat]))
            if seat in RULES.to_move(s) and think.get(seat, (None,))[0] != mark:
                think[seat] = (mark, clock + COMPUTER.think_seconds(s, seat, levels[seat]))
        ready = [
            (t, seat) for seat, (mark, t) in think.items() if seat in RULES.to_move(s) and mark[0] == s.round
        ]
        events = [(t, k) for k, t in due.items()] + ready
        when, who = min(events, key=lambda e: (e[0], str(e[1])))
        assert when >= clock
        clock = when
        if isinstance(who, str):
            seat, action = SYSTEM, declared[who].action
        else:
            seat, action = who, COMPUTER.choose(s, who, levels[who])
        s, _ = RULES.apply(s, seat, action)
        log.append((clock, seat, action))
    return s, log


def test_computers_race_a_full_game_and_the_faster_level_wins():
    s, log = simulated_match(3, 7, ["easy", "medium", "hard"])
    out = RULES.outcome(s)
    assert len(s.history) == 8
    assert out.winners == [2] and out.scores[2] > out.scores[0]
    stops = [(t, a) for t, seat, a in log if seat == SYSTEM]
    assert stops and all(a.startswith(("stop.", "timeout.")) for _, a in stops)


def test_countdown_fires_exactly_its_seconds_after_the_first_solve():
    _, log = simulated_match(2, 3, ["hard", "easy"], {"countdown": 15})
    state = RULES.setup(2, 3, {"countdown": 15})
    first_solve, stops = None, 0
    for when, seat, action in log:
        state, events = RULES.apply(state, seat, action)
        if any(e.kind == "ubongo" for e in events):
            first_solve = when
        if action.startswith("stop."):
            assert when == pytest.approx(first_solve + 15)
            stops += 1
    assert stops >= 4


def test_computer_never_acts_before_its_think_time_and_steps_after():
    s = RULES.setup(2, 9, {})
    for level in LEVELS:
        assert COMPUTER.think_seconds(s, 0, level) >= 8
    t, _ = RULES.apply(s, 0, COMPUTER.choose(s, 0, "hard"))
    assert COMPUTER.think_seconds(t, 0, "hard") == STEP_SECONDS
    # the other seat's placement does not move seat 1's solve time
    assert COMPUTER.think_seconds(t, 1, "medium") == COMPUTER.think_seconds(s, 1, "medium")


def test_computer_is_picklable_and_deterministic():
    clone = pickle.loads(pickle.dumps(COMPUTER))
    s = RULES.setup(4, 13, {"side": "B", "no_yellow": "all"})
    for seat in range(4):
        assert clone.choose(s, seat, "medium") == COMPUTER.choose(s, seat, "medium")
        assert clone.think_seconds(s, seat, "easy") == COMPUTER.think_seconds(s, seat, "easy")
        assert not COMPUTER.choose(s, seat, "hard").startswith("place.I3.")  # V1 respected


def test_computer_recovers_from_a_workspace_that_does_not_extend():
    s = RULES.setup(2, 1, {})
    # fill the workspace with random placements until no solution extends it, then let it play
    rng = random.Random(1)
    for _ in range(3):
        legal = [a for a in RULES.legal_actions(s, 0) if a.startswith("place.")]
        if not legal:
            break
        s, _ = RULES.apply(s, 0, rng.choice(legal))
    assert s.placed[0] and not s.solved
    for _ in range(12):
        if 0 in s.solved:
            break
        s, _ = RULES.apply(s, 0, COMPUTER.choose(s, 0, "hard"))
    assert s.solved == [0]


def test_computer_clears_a_workspace_that_no_solution_extends():
    s = RULES.setup(2, 2, {})
    for piece in ("I2", "I3", "V3"):  # three small pieces wherever they first fit: 8 of 10 cells
        s, _ = RULES.apply(
            s, 0, next(a for a in RULES.legal_actions(s, 0) if a.startswith(f"place.{piece}."))
        )
    assert len(s.placed[0]) == 3 and not s.solved
    assert COMPUTER.choose(s, 0, "easy") == "clear"
