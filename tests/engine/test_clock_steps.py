"""Issue 22.1: timers wait on the loop's monotonic clock but are due on the wall clock. A wall clock
step (an NTP correction, a resumed VM) once dropped every armed timer (woken early, nothing due,
never re-armed) or made it fire late by the step. Now a turn limit fires at its stored due time,
measured on the stepped wall clock, whichever way it steps."""

from __future__ import annotations

import asyncio

import pytest

from engine.match import Matches
from tests.engine.test_match import start_two
from tests.replayed import replayed

WATCH = 0.2  # the clock watch's period here, so the tests wait little (production: CLOCK_WATCH_SECONDS)
TURN = 10


class Wall:
    """A wall clock running with the loop's monotonic time, which the test steps as NTP would."""

    def __init__(self, start: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.offset = start - self.loop.time()

    def __call__(self) -> float:
        return self.offset + self.loop.time()

    def step(self, seconds: float) -> None:
        self.offset += seconds


@pytest.fixture
async def stepped(open_engine):
    """``await stepped(left)`` -> (matches, wall, match id, its turn limit's due time): a two-player
    game whose 10 s turn limit (the shortest a match takes) is ``left`` seconds away, the process
    having restarted meanwhile."""

    async def make(left: float) -> tuple[Matches, Wall, int, float]:
        first, clock = await open_engine("m.db", TURN)
        wall = Wall(clock.t)
        first.now = wall
        mid = await start_two(first)
        due = (await first.get(mid))[0].deadline
        assert due == pytest.approx(wall() + TURN, abs=0.05)
        await first.close()
        await first.store.close()
        wall.step(due - left - wall())  # (while no process ran)
        matches, _ = await open_engine("m.db", TURN)
        matches.now, matches.clock_watch_seconds = wall, WATCH
        assert await matches.recover() == 1
        return matches, wall, mid, due

    return make


async def fired_at(matches: Matches, wall: Wall, mid: int, within: float) -> float | None:
    """The wall clock time at which the match's turn limit fired (polled), None if not within."""
    version = (await matches.get(mid))[0].version
    end = wall.loop.time() + within
    while wall.loop.time() < end:
        m, _ = await matches.get(mid)
        if m.version != version:
            assert any(s.away for s in m.seats), "the turn limit fired: the computer played the turn"
            return wall()
        await asyncio.sleep(0.01)
    return None


async def test_a_step_back_neither_fires_early_nor_drops_the_timer(stepped):
    matches, wall, mid, due = await stepped(1.0)
    wall.step(-25)
    assert await fired_at(matches, wall, mid, 1.1) is None, "not at its monotonic time: 25 s early"
    wall.step(+24)  # (the wall clock flows on: its due time is now 0.7 s away)
    at = await fired_at(matches, wall, mid, 2.0)
    assert at is not None, "dropped, or waiting 25 s too long"
    assert due - 0.01 <= at <= due + 0.15
    assert await replayed(matches, mid) == (await matches.get(mid))[1]


async def test_a_step_forward_fires_at_the_due_time_not_late(stepped):
    matches, wall, mid, due = await stepped(TURN)
    wall.step(+9)  # due in 1 s of the wall clock now, 10 s of the loop's
    at = await fired_at(matches, wall, mid, 3.0)
    assert at is not None, "it would have fired 9 s late"
    assert due - 0.01 <= at <= due + 0.15


async def test_a_step_back_too_small_for_the_watch_waits_again_after_the_early_wake(stepped):
    matches, wall, mid, due = await stepped(1.0)
    wall.step(-0.3)  # below the watch's threshold: the timer wakes 0.3 s early and finds nothing due
    at = await fired_at(matches, wall, mid, 2.0)
    assert at is not None, "the timer was dropped"
    assert due - 0.01 <= at <= due + 0.15


async def test_the_watch_runs_only_while_a_timer_waits(stepped):
    matches, _, mid, _ = await stepped(TURN)
    assert matches.clock._watch is not None
    m, _ = await matches.get(mid)
    await matches.end(mid, m.seats[0].user_id, moderator=True)
    await asyncio.sleep(WATCH * 1.5)
    assert matches.clock._watch is None and not matches.clock.armed(mid)


async def test_a_daily_turns_reminder_survives_a_restart_and_fires_at_its_time_after_a_step(open_engine):
    """A daily game (engine.pace): its reminder is a stored timer like any other, re-armed by a
    restarted process and fired at its wall clock time when the clock steps forward to it."""
    first, clock = await open_engine("daily.db", TURN)
    wall = Wall(clock.t)
    first.now = wall
    daily = {"variant": "basic", "pace": "daily", "turn_hours": 1, "timeout": "forfeit"}
    u = await first.open_lobby("ugah", 1, 10, 100, "alice", daily, seed=42)
    assert u.match.timers["lobby:"] == pytest.approx(wall() + 7 * 86400, abs=0.05)
    u = await first.lobby(u.match.id, u.match.version, 200, "bob", "join")
    await first.lobby(u.match.id, u.match.version, 100, "alice", "start")
    m, _ = await first.get(u.match.id)
    seat = next(iter(sorted(m.timers)))  # ("remind:<seat>" sorts before "turn:<seat>")
    assert seat.startswith("remind:")
    turn = m.timers[seat.replace("remind", "turn")]
    assert turn == pytest.approx(wall() + 3600, abs=0.05) and m.timers[seat] == pytest.approx(
        turn - 900, abs=0.05
    )
    await first.close()
    await first.store.close()
    matches, _ = await open_engine("daily.db", TURN)
    matches.now, matches.clock_watch_seconds = wall, WATCH
    assert await matches.recover() == 1
    wall.step(m.timers[seat] - wall() - 0.5)  # NTP: the reminder is half a second away now
    for _ in range(300):
        after, _ = await matches.get(m.id)
        if after.meta.reminded:
            break
        await asyncio.sleep(0.01)
    assert after.meta.reminded == [int(seat.split(":")[1])], "reminded at its time"
    assert seat not in after.timers and after.timers[seat.replace("remind", "turn")] == turn
    assert after.status == "active" and after.meta.strikes == [], "a reminder is no time-out"
