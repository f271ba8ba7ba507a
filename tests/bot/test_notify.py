"""/game notify (issue 36, part 2): a player who asked is told by DM when their turn begins, with a jump
link to the board, at most once per turn, never again after a restart; nobody else gets anything;
``off`` and /privacy forget-me end it; closed DMs are tolerated; a real-time game sends none."""

from __future__ import annotations

import random

from bot.i18n import translator
from bot.surfaces import notice
from tests.bot.helpers import board, open_and_start, play_one, restart, setup_table

TR = translator("en")
BELL = "🔔"


def notices(player) -> list[str]:
    dm = player.user.dm_channel
    return [m.content for m in (dm.history() if dm is not None else []) if m.content.startswith(BELL)]


async def play_turns(env, channel, players, mid, rng, *, alice_turns: int) -> tuple[int, int]:
    """Clicks until alice's turn has begun ``alice_turns`` times (or the game ends): (her turns begun,
    clicks). After each click: did a turn of hers begin with it?"""
    begun = clicks = 0
    while begun < alice_turns and clicks < 400:
        await play_one(env, channel, players, mid, rng)
        clicks += 1
        await env.bot.surfaces.settle(mid)
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        if 0 in m.meta.new_turn:
            begun += 1
    return begun, clicks


async def test_a_player_who_asked_is_told_at_each_turn_with_a_link_and_nobody_else(simcord_env, bot_factory):
    env = simcord_env
    guild, channel, (alice, bob) = setup_table(env, 2)
    r = await alice.slash(channel, "game notify", state="on")
    assert r.ephemeral and r.response.content == TR("done.notify_on")
    mid = await open_and_start(env, channel, [alice, bob], variant="basic")
    await env.bot.surfaces.settle(mid)
    m, _ = await env.bot.matches.get(mid)
    first = 1 if 0 in m.meta.new_turn else 0
    assert len(notices(alice)) == first
    rng = random.Random(3)
    begun, _ = await play_turns(env, channel, [alice, bob], mid, rng, alice_turns=2)
    told = notices(alice)
    assert begun == 2 and len(told) == first + begun, told
    link = f"https://discord.com/channels/{guild.id}/{channel.id}/{board(channel).id}"
    assert all(link in text and "<t:" in text for text in told), told
    assert notices(bob) == [] and (bob.user.dm_channel is None or list(bob.user.dm_channel.history()) == [])

    m, _ = await env.bot.matches.get(mid)
    assert 0 in m.meta.new_turn, "the last commit began her turn"
    # the turns she was told of were claimed: a restarted bot, seeing the last commit again, tells none again
    await restart(env, bot_factory)
    await env.bot.surfaces.settle(mid)
    assert len(notices(alice)) == len(told), "a restart tells no turn again"

    await alice.slash(channel, "game notify", state="off")
    assert await env.bot.store.user_setting(alice.id, notice.SETTING) is None
    await play_turns(env, channel, [alice, bob], mid, rng, alice_turns=1)
    assert len(notices(alice)) == len(told), "off: no more notices"


async def test_forget_me_forgets_the_setting_and_closed_dms_are_tolerated(simcord_env):
    env = simcord_env
    _, channel, (alice, bob) = setup_table(env, 2)
    await alice.slash(channel, "game notify", state="on")
    await bob.slash(channel, "game notify", state="on")
    r = await alice.slash(channel, "privacy forget-me", confirm=True)
    assert r.ephemeral
    assert await env.bot.store.user_setting(alice.id, notice.SETTING) is None
    assert await env.bot.store.user_setting(bob.id, notice.SETTING) == "on", "bob's own setting stays"

    env.inject_error("POST", f"/channels/{bob.user.dm_channel.id}/messages", status=403, code=50007, times=99)
    mid = await open_and_start(env, channel, [alice, bob], variant="basic")
    _, clicks = await play_turns(env, channel, [alice, bob], mid, random.Random(5), alice_turns=2)
    m, _ = await env.bot.matches.get(mid)
    assert clicks > 0 and m.status in ("active", "finished"), "the game goes on"
    assert notices(alice) == [] and notices(bob) == []


async def test_a_real_time_game_sends_no_turn_notices(simcord_env):
    env = simcord_env
    _, channel, (alice,) = setup_table(env, 1)
    await alice.slash(channel, "game notify", state="on")
    r = await alice.slash(channel, "ubongo solo")
    assert not r.ephemeral
    m = await env.bot.matches.live_in_channel(channel.id)
    await env.bot.surfaces.settle(m.id)
    assert list(alice.user.dm_channel.history()), "her puzzle came by DM"
    assert notices(alice) == []
