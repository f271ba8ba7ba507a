"""Turn limits: the computer plays an absent player's turn, away players get short turns, and a
click hands the seat back to its player."""

from __future__ import annotations

import random

from engine.match import AWAY_SECONDS
from tests.bot.helpers import board, open_and_start, play_one, setup_table


async def current_seat(env, mid):
    m, state = await env.bot.matches.get(mid)
    return m, state.current


async def test_away_player_gets_short_turns_until_they_click_again(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=90)
    rng = random.Random(8)
    m, sleepy = await current_seat(env, mid)
    await env.advance_time(91)  # the first player is away: the computer finished their turn
    m, seat = await current_seat(env, mid)
    assert m.seats[sleepy].away and seat != sleepy
    assert 85 <= m.deadline - env.now().timestamp() <= 90, "the present player keeps the full limit"
    while (await current_seat(env, mid))[1] != sleepy:  # the other player plays their turn
        await play_one(env, channel, players, mid, rng)
        if (await env.bot.matches.get(mid))[0].status != "active":
            return
    m, _ = await current_seat(env, mid)
    assert 0 < m.deadline - env.now().timestamp() <= AWAY_SECONDS
    await play_one(env, channel, players, mid, rng)  # the away player clicks: back in the game
    m, _ = await current_seat(env, mid)
    assert not m.seats[sleepy].away
    if m.status == "active" and (await current_seat(env, mid))[1] == sleepy:
        assert m.deadline - env.now().timestamp() == 90  # full limit again
    assert "ran out of time" not in board(channel).content
