"""Issue 22, points 1 and 6, end to end through SimCord: timers keep their stored due times when the
wall clock steps (an NTP correction, a resumed VM) and when the database cannot be written for a
while (a full disk), and the channel is told while a game's clock is held up."""

from __future__ import annotations

import sqlite3

import pytest

from bot.locales.en import MESSAGES
from harness.sim import SIM_CLOCK_WATCH
from tests.bot.helpers import open_and_start, setup_table, step_wall_clock
from tests.bot.test_ubongo_bot import first_racer_solved
from tests.replayed import replayed

HELD = MESSAGES["match.clock_held"]
LIMIT = 120  # the turn limit and the countdown: due long after the step, so the clock watch sees it first


def wall(env) -> float:
    return env.now().timestamp()


async def nobody_plays(env):
    """An Ugah game whose two players are away (nobody clicks: full turns, then the short ones of an
    away player) and an Ubongo race whose countdown runs (one solved, the other does nothing)."""
    _, channel, players = setup_table(env, 2)
    ugah = await open_and_start(env, channel, players, turn_seconds=LIMIT)
    _, _, ubongo = await first_racer_solved(env, 2, countdown=LIMIT)
    assert (await env.bot.matches.get(ubongo))[1].phase == "countdown"
    return ugah, ubongo


async def fires_at_its_due_time(env, mid) -> None:
    """The match's next timer fires when the wall clock reaches its stored due time: not half a
    second before, and within half a second after."""
    m, _ = await env.bot.matches.get(mid)
    version, due = m.version, m.deadline
    await env.advance_time(due - wall(env) - 0.5)
    assert (await env.bot.matches.get(mid))[0].version == version, "fired early"
    await env.advance_time(1.0)
    assert (await env.bot.matches.get(mid))[0].version > version, "not fired at its due time"


@pytest.mark.parametrize("step", [-25, +25])
# the clock watch that notices a step (the suite's default is longer than any test: tests/conftest.py)
@pytest.mark.parametrize("simcord_bot", [{"clock_watch_seconds": SIM_CLOCK_WATCH}], indirect=True)
async def test_games_nobody_plays_finish_at_their_deadlines_when_the_wall_clock_steps(simcord_env, step):
    env = simcord_env
    ugah, ubongo = await nobody_plays(env)
    await env.advance_time(5)
    step_wall_clock(env, step)
    await fires_at_its_due_time(env, ubongo)
    _, state = await env.bot.matches.get(ubongo)
    assert state.round == 2 and state.history[0]["reason"] == "countdown"
    turns = 0
    while (await env.bot.matches.get(ugah))[0].status == "active":  # every turn runs out, on time
        await fires_at_its_due_time(env, ugah)
        turns += 1
    m, _ = await env.bot.matches.get(ugah)
    assert m.status == "finished" and all(s.away for s in m.seats), turns
    for mid in (ugah, ubongo):
        assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]


async def test_a_full_disk_holds_the_countdown_says_so_and_it_fires_as_soon_as_space_returns(
    simcord_env, monkeypatch
):
    env = simcord_env
    channel, _, mid = await first_racer_solved(env, 2, countdown=20)
    m, state = await env.bot.matches.get(mid)
    due, version = m.deadline, m.version
    store, full = env.bot.matches.store, [False]
    real_commit = store.commit

    async def commit(*args, **kwargs):
        if full[0]:
            raise sqlite3.OperationalError("database or disk is full")
        return await real_commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit", commit)

    def notices():
        return [msg for msg in channel.history() if msg.content == HELD]

    await env.advance_time(due - wall(env) - 5)
    full[0] = True
    await env.advance_time(5 + 20)  # the disk stays full for 20 s past the countdown's due time
    m, state = await env.bot.matches.get(mid)
    assert m.version == version and state.round == 1, "nothing fired, nothing half-written"
    said = notices()
    assert len(said) == 1, "one line says the game's clock is held up"
    assert said[0].reference is not None, "a reply to the board"
    full[0] = False  # space returns
    waited = 0.0
    while (await env.bot.matches.get(mid))[1].round == 1 and waited < 5:
        await env.advance_time(0.25)
        waited += 0.25
    assert waited <= 1.0, f"the countdown fired {waited}s after space returned"
    m, state = await env.bot.matches.get(mid)
    assert state.round == 2 and state.history[0]["reason"] == "countdown"
    log = await env.bot.store.actions(mid)
    assert (log[-1].action, log[-1].source) == ("stop.1", "timer"), "its firing is logged once"
    assert await replayed(env.bot.matches, mid) == state, "nothing lost"
    await env.advance_time(1)
    assert not notices(), "the line went once the clock ran again"
