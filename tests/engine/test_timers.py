"""engine.timers.plan: which timers run after a commit and when each is due."""

from __future__ import annotations

from engine.core import Timer
from engine.timers import AWAY_SECONDS, due, plan


def planned(declared, running, now=100.0, acted=None, ai=(), away=(), to_move=(), changed=(), think=5.0):
    return plan(
        declared,
        running,
        now,
        acted=acted,
        turn_seconds=60,
        is_ai=lambda s: s in ai,
        is_away=lambda s: s in away,
        think_seconds=lambda s: think,
        to_move=to_move,
        changed=lambda s: s in changed,
    )


def test_a_running_countdown_keeps_its_due_time_across_commits():
    countdown = Timer("countdown", seconds=30, action="stop")
    assert planned([countdown], {}, now=100) == {"countdown:": 130}
    assert planned([countdown], {"countdown:": 130}, now=120, acted=2) == {"countdown:": 130}


def test_a_per_move_turn_limit_restarts_only_when_its_seat_acts():
    turn = Timer("turn", seat=1, per_move=True)
    assert planned([turn], {"turn:1": 150}, now=120, acted=0) == {"turn:1": 150}
    assert planned([turn], {"turn:1": 150}, now=120, acted=1) == {"turn:1": 180}


def test_away_players_get_short_turns_and_undeclared_timers_stop():
    turn = Timer("turn", seat=0, per_move=True)
    assert planned([turn], {"old:": 1}, away=(0,)) == {"turn:0": 100 + AWAY_SECONDS}


def test_computers_think_instead_of_running_out_of_time_and_restart_on_a_new_round():
    turn = Timer("turn", seat=1, per_move=True)
    assert planned([turn], {}, ai=(1,), to_move=(1,)) == {"ai:1": 105}
    assert planned([turn], {"ai:1": 105}, now=101, ai=(1,), to_move=(1,), acted=0) == {"ai:1": 105}
    assert planned([turn], {"ai:1": 105}, now=101, ai=(1,), to_move=(1,), changed=(1,)) == {"ai:1": 106}


def test_due_picks_the_earliest_ready_timer():
    assert due({"b:": 5, "a:": 7}, now=10) == "b:"
    assert due({"b:": 50}, now=10) is None
