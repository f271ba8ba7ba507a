"""The turn ping: never left in the channel once its turn is over, and never showing a deadline that
has passed."""

from __future__ import annotations

import random
import re

from tests.bot.helpers import board, button_id, custom_ids, open_and_start, pings, play_one, setup_table
from tests.kit_honga import HongaKit


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


def deadlines(channel) -> list[int]:
    """The times the turn pings standing in the channel say."""
    return [int(t) for p in pings(channel) for t in re.findall(r"<t:(\d+):R>", p.content)]


async def honga(env, *, ai: bool) -> tuple:
    _, channel, players = setup_table(env, 1 if ai else 2)
    await players[0].slash(channel, "honga start", target="short", turn_seconds=60)
    if ai:
        level = next(c for c in custom_ids(board(channel), "l:") if c.split(":")[3].startswith("ai."))
        await players[0].click(board(channel), custom_id=level)
    else:
        await players[1].click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    await players[0].click(board(channel), custom_id=button_id(board(channel), "start", "l"))
    return channel, players, (await env.bot.matches.live_in_channel(channel.id)).id


async def test_no_ping_says_a_time_that_passed_after_the_computer_played_turns_on_time_outs(simcord_env):
    env = simcord_env
    channel, _, mid = await honga(env, ai=True)
    pinged = len(deadlines(channel))
    for _ in range(10):  # alice never clicks: the computer plays her turns, and its own
        await env.advance_time(25)
        now = env.now().timestamp()
        assert all(due > now for due in deadlines(channel)), (now, [p.content for p in pings(channel)])
        pinged = max(pinged, len(deadlines(channel)))
    m, _ = await env.bot.matches.get(mid)
    assert pinged == 1 and m.seats[0].away, "alice was pinged once, then the computer played for her"


async def test_a_pings_time_follows_the_turn_limit_a_decision_re_arms(simcord_env):
    env = simcord_env
    channel, players, mid = await honga(env, ai=False)
    m, state = await env.bot.matches.get(mid)
    mover = state.current
    assert state.phase == "place" and deadlines(channel) == [int(m.deadline)]
    await env.advance_time(40)
    await (await HongaKit().next_click(env, channel, players, mid, random.Random(1), cards=False))()
    m, state = await env.bot.matches.get(mid)
    assert state.current == mover and state.phase == "act", "the turn goes on with its next decision"
    assert deadlines(channel) == [int(m.deadline)], "the ping says the limit the decision re-armed"
    await env.advance_time(30)  # past the time the turn began with: the ping does not say it passed
    assert all(due > env.now().timestamp() for due in deadlines(channel))
