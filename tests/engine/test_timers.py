"""engine.timers.plan: which timers run after a commit and when each is due."""

from __future__ import annotations

from engine import pace
from engine.core import Timer
from engine.timers import AWAY_SECONDS, due, person_due, plan


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


def test_a_daily_turn_is_reminded_once_when_a_quarter_of_it_is_left():
    turn, clock = Timer("turn", seat=1, per_move=True), Timer("round", seconds=30, action="stop")
    limit = 24 * 3600
    new = pace.reminders([turn, clock], {"turn:1": 100 + limit, "round:": 130}, {}, limit, 100)
    assert new == {"remind:1": 100 + limit * 0.75}, "a person's turn limit only, not a rules clock"
    going_on = {"turn:1": 100 + limit, "remind:1": 100 + limit * 0.75}
    assert pace.reminders([turn], {"turn:1": 100 + limit}, going_on, limit, 200) == {
        "remind:1": 100 + limit * 0.75
    }
    fired = {"turn:1": 100 + limit}  # the reminder fired: not planned again for the same limit
    assert pace.reminders([turn], {"turn:1": 100 + limit}, fired, limit, 70_000) == {}
    restarted = pace.reminders([turn], {"turn:1": 70_000 + limit}, fired, limit, 70_000)
    assert restarted == {"remind:1": 70_000 + limit * 0.75}, "a new limit, a new reminder"
    assert pace.turn_seconds({"pace": "daily", "turn_hours": 3, "turn_seconds": 60}, 120) == 3 * 3600
    assert pace.turn_seconds({"pace": "live", "turn_hours": 3, "turn_seconds": 60}, 120) == 60


def test_a_person_due_time_is_never_a_computers_nor_a_reminder():
    assert person_due({"ai:1": 5, "remind:0": 7, "turn:0": 9}) == 9
    assert person_due({"ai:1": 5}) is None


def test_the_forfeit_rule_holds_at_either_pace_and_a_seat_s_limit_is_found():
    assert pace.forfeits({"pace": "live", "timeout": "forfeit"}) and pace.forfeits({"timeout": "forfeit"})
    assert not pace.forfeits({"pace": "daily", "timeout": "computer"})
    # a timed-out player keeps full turns (not taken for away) when daily or under the forfeit rule
    assert pace.keeps_full_turns({"pace": "live", "timeout": "forfeit"})
    assert not pace.keeps_full_turns({"pace": "live", "timeout": "computer"})
    clock, turn = Timer("round", seconds=30, action="stop"), Timer("turn", seat=1, per_move=True)
    assert pace.limit_key([clock, turn], 1) == "turn:1" and pace.limit_key([clock, turn], 0) is None
