"""/privacy (issue 20, point 12), through the simulated Discord: a user deletes their own data, the bot's
owner any user's; both say first what they do; a user in a live game is refused with the reason and
nothing changes; the anonymised game still replays, its seat shown as a former player."""

from __future__ import annotations

import random

from bot.i18n import translator
from engine import ratings
from tests.bot.helpers import board, open_and_start, play_to_end
from tests.bot.test_replay import finished_game, replay_id, step_of

TR = translator("en")


async def test_a_player_deletes_their_own_data_and_their_game_still_replays(simcord_env):
    env = simcord_env
    guild, channel, (alice, bob, carol), mid = await finished_game(env)
    store = env.bot.store
    assert await store.standings(guild.id, ratings.user_key(alice.id))

    r = await alice.slash(channel, "privacy forget-me")  # first: what it does, nothing done
    assert r.ephemeral and r.response.content == TR("privacy.preview_me")
    assert await store.standings(guild.id, ratings.user_key(alice.id))

    r = await alice.slash(channel, "privacy forget-me", confirm=True)
    assert r.ephemeral
    assert r.response.content == TR("privacy.done_me", matches=1, ratings=1, records=0)
    assert await store.standings(guild.id, ratings.user_key(alice.id)) == {}
    assert await store.standings(guild.id, ratings.user_key(bob.id))  # bob keeps his
    m, _ = await env.bot.matches.get(mid)
    assert alice.id not in [s.user_id for s in m.seats] and "alice" not in [s.name for s in m.seats]

    r = await carol.slash(channel, "replay", match=mid)  # the game replays, alice's seat unnamed
    msg = r.response.message
    _, last = step_of(msg)
    r = await carol.click(msg, custom_id=replay_id(msg, "last"))
    assert step_of(r.response.message) == (last, last)
    # back from the end to the latest step naming her seat (the match's dice are random, so the last
    # step may be bob's alone): she is "a former player" there, and never "alice" on the way
    seen = [r.response.message.content]
    while TR("seat.forgotten") not in seen[-1] and step_of(r.response.message)[0] > 1 and len(seen) < 12:
        r = await carol.click(r.response.message, custom_id=replay_id(r.response.message, "prev"))
        seen.append(r.response.message.content)
    assert not any("alice" in content for content in seen)
    assert TR("seat.forgotten") in seen[-1]


async def test_a_player_in_a_live_game_is_refused_and_keeps_everything(simcord_env):
    env = simcord_env
    guild, channel, (alice, _bob, carol), finished = await finished_game(env)
    elsewhere = guild.create_text_channel("more-games")
    await open_and_start(env, elsewhere, [alice, carol], variant="basic")

    r = await alice.slash(channel, "privacy forget-me", confirm=True)

    assert r.ephemeral and r.response.content == TR("error.forget_live", n=1)
    assert await env.bot.store.standings(guild.id, ratings.user_key(alice.id))
    assert (await env.bot.matches.get(finished))[0].seats[0].user_id == alice.id


async def test_only_the_owner_deletes_another_users_data(simcord_env):
    env = simcord_env
    guild, channel, (alice, bob, carol), _ = await finished_game(env)
    store = env.bot.store

    r = await carol.slash(channel, "privacy forget-user", user_id=str(bob.id), confirm=True)
    assert r.ephemeral and r.response.content == TR("privacy.owner_only")
    assert await store.standings(guild.id, ratings.user_key(bob.id))

    env.bot.owner_id = carol.id  # (discord.py asks Discord for the application's owner otherwise)
    r = await carol.slash(channel, "privacy forget-user", user_id="not a number", confirm=True)
    assert r.response.content == TR("privacy.bad_id")
    r = await carol.slash(channel, "privacy forget-user", user_id=str(bob.id))
    assert r.response.content == TR("privacy.preview_user", user=bob.id)
    assert await store.standings(guild.id, ratings.user_key(bob.id))

    r = await carol.slash(channel, "privacy forget-user", user_id=str(bob.id), confirm=True)
    assert r.response.content == TR("privacy.done_user", user=bob.id, matches=1, ratings=1, records=0)
    assert await store.standings(guild.id, ratings.user_key(bob.id)) == {}
    assert await store.standings(guild.id, ratings.user_key(alice.id))  # alice keeps hers


async def test_a_new_game_after_deleting_starts_afresh(simcord_env):
    """Deleting is not leaving: the player plays again and is rated again from scratch."""
    env = simcord_env
    guild, channel, (alice, bob, _), _ = await finished_game(env)
    await alice.slash(channel, "privacy forget-me", confirm=True)
    mid = await open_and_start(env, channel, [alice, bob], variant="basic")
    await play_to_end(env, channel, [alice, bob], mid, random.Random(8))
    assert (await env.bot.store.standings(guild.id, ratings.user_key(alice.id)))["ugah"].played == 1
    assert board(channel) is not None
