"""The turn ping: never left in the channel once its turn is over, and never showing a deadline that
has passed."""

from __future__ import annotations

import random

from tests.bot.helpers import open_and_start, pings, play_one, setup_table


async def test_a_ping_goes_when_the_turn_passes_to_a_player_marked_away(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=90)
    rng = random.Random(8)
    m, state = await env.bot.matches.get(mid)
    sleepy = state.current
    await env.advance_time(91)  # away: the computer finished their turn, the other's began
    m, state = await env.bot.matches.get(mid)
    assert m.seats[sleepy].away and state.current != sleepy
    other = m.seats[state.current].user_id
    assert [f"<@{other}>" in p.content for p in pings(channel)] == [True], "the present player is pinged"
    while m.status == "active" and state.current != sleepy:  # the other player plays their turn
        await play_one(env, channel, players, mid, rng)
        m, state = await env.bot.matches.get(mid)
    assert m.status == "active", "the game went on to the away player's turn"
    await env.bot.surfaces.settle(mid)
    assert [p.content for p in pings(channel)] == [], "the ping of a turn that is over is gone"
