"""Discord faults: failing routes, a deleted board, missing permissions, a deleted channel.
State always stays intact and the board comes back in line."""

from __future__ import annotations

import random

import discord
import pytest

from bot.i18n import translator
from tests.bot.helpers import (
    board,
    board_message_id,
    custom_ids,
    open_and_start,
    play_one,
    public_messages,
    setup_table,
)
from tests.replayed import replayed

TR = translator("en")
# SimCord records every injected HTTP error a bot call raised, even those the bot handled; the
# autouse `logged_errors` fixture still fails a test on any exception the bot did not handle.
pytestmark = pytest.mark.simcord(check_errors=False)

ROUTES = {
    "callback": ("POST", "/interactions/*/callback"),
    "followup": ("POST", "/webhooks/*/*"),
    "original_edit": ("PATCH", "/webhooks/*/*/messages/@original"),  # the image after a click
    "channel_post": ("POST", "/channels/*/messages"),
    "channel_edit": ("PATCH", "/channels/*/messages/*"),
}


async def assert_in_line(env, channel, mid):
    """The database equals its replay and the channel shows the latest committed state."""
    m, state = await env.bot.matches.get(mid)
    assert await replayed(env.bot.matches, mid) == state
    expected = await env.bot.surfaces.public_board(m, state)
    assert board(channel).content == expected.content
    assert board(channel).id == await board_message_id(env, mid)
    assert [a.description for a in board(channel).attachments] == [expected.alt], "the image is current too"


@pytest.mark.parametrize("status", [500, 503, 429])
@pytest.mark.parametrize("route", sorted(ROUTES))
async def test_a_failing_route_loses_nothing_and_the_board_recovers(simcord_env, route, status):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(status)
    method, path = ROUTES[route]
    env.inject_error(method, path, status=status, times=1)
    await play_one(env, channel, players, mid, rng)  # a move while the route fails
    r = await players[0].slash(channel, "game board")  # the re-post command
    env.inject_error(method, path, status=status, times=1)
    r = await players[0].slash(channel, "game board")  # and once more while it fails
    r = await players[0].slash(channel, "game board")
    assert r.ephemeral
    await assert_in_line(env, channel, mid)
    result = await play_one(env, channel, players, mid, rng)
    assert result.acknowledged
    await assert_in_line(env, channel, mid)


async def test_click_answer_failing_falls_back_to_editing_the_message(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await play_one(env, channel, players, mid, random.Random(1))
    await assert_in_line(env, channel, mid)


@pytest.mark.parametrize("route", ["callback", "channel_post", "followup", "delete"])
async def test_a_discord_500_during_game_board_is_answered_and_the_board_in_use_stays_known(
    simcord_env, route
):
    """Issue 34, item 6: /game board while one of its calls fails with a 500 (its deferral, the new
    board's post, its answer, the old board's removal) is answered privately, never left to the
    commands' error handler; the board the database names is one the channel shows, and it plays."""
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    old = board(channel)
    env.inject_error(*{"delete": ("DELETE", "/channels/*/messages/*"), **ROUTES}[route], status=500, times=1)
    r = await players[0].slash(channel, "game board")
    posted = route in ("followup", "delete")  # only the answer failed (sent again), or the removal
    assert r.ephemeral and r.response.content == TR("done.reposted" if posted else "error.board_not_reposted")
    assert env.errors == [], "nothing reached the commands' error handler"
    assert (board(channel).id != old.id) == posted
    assert await board_message_id(env, mid) == board(channel).id
    await assert_in_line(env, channel, mid)
    if route == "delete":  # the old board, left in the channel, still plays: a move clicked on it
        m, state = await env.bot.matches.get(mid)
        actor = next(p for p in players if p.id == m.seats[state.current].user_id)
        shown = next(msg for msg in public_messages(channel) if msg.id == old.id)
        r = await actor.click(shown, custom_id=random.Random(7).choice(custom_ids(shown, "g:")))
        assert r.acknowledged and not r.ephemeral, r.response and r.response.content
        assert (await env.bot.matches.get(mid))[0].version > m.version
        await assert_in_line(env, channel, mid)  # and the game's own board follows it
    assert (await play_one(env, channel, players, mid, random.Random(6))).acknowledged
    await assert_in_line(env, channel, mid)


async def test_deleted_board_is_posted_again(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    mid = await open_and_start(env, channel, players, turn_seconds=30)
    await mod.delete(board(channel))
    assert public_messages(channel) == []
    r = await players[1].slash(channel, "game board")
    assert r.ephemeral and "posted again" in r.response.content
    assert custom_ids(board(channel), "g:")
    await assert_in_line(env, channel, mid)
    # a timer-driven update after another deletion posts a new board too
    await mod.delete(board(channel))
    await env.advance_time(31)
    await assert_in_line(env, channel, mid)


async def test_missing_permission_is_named_to_the_user(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    me = env.bot.user
    channel = guild.create_text_channel(
        "locked", overwrites={me: discord.PermissionOverwrite(send_messages=False, attach_files=False)}
    )
    mid = await open_and_start(env, channel, [alice, bob])
    r = await alice.slash(channel, "game board")
    assert "Send Messages" in r.response.content
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "active" and board(channel).id == await board_message_id(env, mid), (
        "the old board was left in place"
    )


async def test_deleted_channel_closes_its_match(simcord_env):
    env = simcord_env
    _guild, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players, turn_seconds=30)
    env.backend.delete_channel(channel.id)
    await env.advance_time(1)
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled" and m.deadline is None
    await env.advance_time(60)  # no timer fires for it any more
    assert (await env.bot.matches.get(mid))[0].version == m.version


async def test_channel_deleted_while_the_bot_was_away_is_closed_at_start_up(simcord_env, bot_factory):
    env = simcord_env
    _guild, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    old = env.bot
    await old.matches.close()
    old.on_guild_channel_delete = _ignore  # the old process is "down": it must not see the deletion
    env.backend.delete_channel(channel.id)
    await old.store.close()
    await env.restart_bot(bot_factory())
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"


async def _ignore(*_args):
    return None
