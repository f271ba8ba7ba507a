"""Lobby and shared commands through SimCord: joining, seats, host rights, expiry, ending."""

from __future__ import annotations

import discord
import pytest

from bot.games import SPECS
from harness.sim import components, concurrent_clicks
from tests.bot.helpers import board, button_id, custom_ids, open_and_start, setup_table


async def click_lobby(actor, channel, op):
    return await actor.click(board(channel), custom_id=button_id(board(channel), op, "l"))


async def test_lobby_shows_seats_and_buttons(simcord_env):
    _, channel, (alice, bob, *_rest) = setup_table(simcord_env)
    r = await alice.slash(channel, "ugah start", variant="uncertain")
    assert not r.ephemeral
    msg = board(channel)
    assert "Ugah Ugah!" in msg.content and "Uncertain hunting" in msg.content and "alice" in msg.content
    assert [c.split(":")[3] for c in custom_ids(msg, "l:")] == [
        "join",
        "leave",
        "start",
        "cancel",
        "ai.easy",
        "ai.normal",
    ]
    await click_lobby(bob, channel, "join")
    assert "bob" in board(channel).content and "(2/4" in board(channel).content


async def test_a_full_lobby_says_so_and_offers_no_seat(simcord_env):
    """Issue 20.6: a full lobby no longer invites people to Join, and its Join and Add AI buttons are
    off; Leave, Start and Cancel stay; a seat freed brings them back."""
    _, channel, (alice, bob, carol, dave) = setup_table(simcord_env)
    await alice.slash(channel, "ugah start")
    for p in (bob, carol):
        await click_lobby(p, channel, "join")

    def enabled(msg) -> dict[str, bool]:
        return {
            c.custom_id.split(":")[3]: not c.disabled for c in components(msg) if getattr(c, "custom_id", "")
        }

    assert "Click **Join**" in board(channel).content and all(enabled(board(channel)).values())
    await click_lobby(dave, channel, "join")
    msg = board(channel)
    assert (
        "(4/4" in msg.content and "Every seat is taken" in msg.content and "Click **Join**" not in msg.content
    )
    on = enabled(msg)
    assert not on["join"] and not on["ai.normal"] and not on["ai.easy"]
    assert on["leave"] and on["start"] and on["cancel"]
    await click_lobby(dave, channel, "leave")
    assert "Click **Join**" in board(channel).content and all(enabled(board(channel)).values())


async def test_lobby_refusals_are_ephemeral_and_change_nothing(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env)
    alice, bob, carol, dave = players
    eve = guild.add_member(env.create_user("eve"))
    await alice.slash(channel, "ugah start")
    r = await click_lobby(alice, channel, "start")
    assert r.ephemeral and "At least 2" in r.response.content
    r = await click_lobby(alice, channel, "join")
    assert r.ephemeral and "already have a seat" in r.response.content
    for p in (bob, carol):
        await click_lobby(p, channel, "join")
    # the last seat: two Join clicks at once on the message that still offers it (a full lobby's Join
    # is off): the second is refused as made on an older lobby
    join = button_id(board(channel), "join", "l")
    dave_r, eve_r = await concurrent_clicks(env, [(dave, board(channel), join), (eve, board(channel), join)])
    assert not dave_r.ephemeral, "the first click takes the seat"
    assert eve_r.ephemeral and "moved on" in eve_r.response.content  # refused: the lobby changed
    before = board(channel).content
    assert "(4/4" in before and "5. " not in before
    r = await click_lobby(eve, channel, "leave")
    assert r.ephemeral and "aren't playing" in r.response.content
    r = await click_lobby(bob, channel, "start")
    assert r.ephemeral and "Only the host" in r.response.content
    r = await click_lobby(bob, channel, "cancel")
    assert r.ephemeral and "Only the host" in r.response.content
    assert board(channel).content == before
    r = await eve.slash(channel, "ugah start")
    assert r.ephemeral and "already running" in r.response.content


async def test_leave_and_add_ai(simcord_env):
    _, channel, (alice, bob, *_r) = setup_table(simcord_env)
    await alice.slash(channel, "ugah start")
    await click_lobby(bob, channel, "join")
    await click_lobby(bob, channel, "leave")
    assert "bob" not in board(channel).content
    r = await click_lobby(bob, channel, "ai.normal")
    assert r.ephemeral and "Only the host" in r.response.content
    await click_lobby(alice, channel, "ai.normal")
    assert "Computer 1 (computer" in board(channel).content
    await click_lobby(alice, channel, "start")
    assert board(channel).attachments, "the lobby became the game message"


async def test_moderator_can_cancel_any_lobby(simcord_env):
    env = simcord_env
    guild, channel, (alice, *_r) = setup_table(env)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("mod"), roles=[mods])
    await alice.slash(channel, "ugah start")
    await click_lobby(mod, channel, "cancel")
    assert "cancelled" in board(channel).content and custom_ids(board(channel)) == []
    r = await alice.slash(channel, "ugah start")
    assert not r.ephemeral, "the channel is free again"


async def test_lobby_nobody_starts_expires(simcord_env):
    env = simcord_env
    _, channel, (alice, *_r) = setup_table(env)
    await alice.slash(channel, "ugah start")
    await env.advance_time(15 * 60 + 1)
    assert "expired" in board(channel).content and custom_ids(board(channel)) == []
    assert await env.bot.matches.live_in_channel(channel.id) is None


async def test_end_by_host_or_moderator_only(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    r = await players[1].slash(channel, "game end")
    assert r.ephemeral and "host or a moderator" in r.response.content
    r = await players[0].slash(channel, "game end")
    assert r.ephemeral
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled"
    assert "ended by alice" in board(channel).content and custom_ids(board(channel)) == []


async def test_a_moderator_who_is_not_seated_is_named_when_ending_a_game(simcord_env):
    env = simcord_env
    guild, channel, players = setup_table(env, 2)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(env.create_user("modkate"), roles=[mods])
    mid = await open_and_start(env, channel, players)
    r = await mod.slash(channel, "game end")
    assert r.ephemeral
    m, _ = await env.bot.matches.get(mid)
    assert m.status == "cancelled" and m.meta.ended_by == mod.user.id and m.meta.ended_by_name == "modkate"
    assert "ended by modkate" in board(channel).content, "named, though not seated"


async def test_resign_hands_seat_to_computer(simcord_env):
    env = simcord_env
    _, channel, players = setup_table(env, 3)
    mid = await open_and_start(env, channel, players)
    _, state = await env.bot.matches.get(mid)
    leaver = (state.current + 1) % 3  # not the player to move: the computer has nothing to play yet
    r = await players[leaver].slash(channel, "game resign", confirm=True)
    assert r.ephemeral
    m, _ = await env.bot.matches.get(mid)
    assert m.seats[leaver].ai and m.status == "active"
    assert "left the game" in board(channel).content, "the board says so"


async def test_rules_and_no_game_replies(simcord_env):
    _, channel, (alice, *_r) = setup_table(simcord_env)
    r = await alice.slash(channel, "game rules", game="ugah")
    assert r.ephemeral and "Bone Breaker" in r.response.content
    r = await alice.slash(channel, "game hand")
    assert r.ephemeral and "no game running" in r.response.content
    r = await alice.slash(channel, "ugah rules")
    assert r.ephemeral


@pytest.mark.parametrize("simcord_bot", [{"rate_limits": True}], indirect=True)
async def test_flooding_member_gets_a_polite_reply(simcord_env):
    env = simcord_env
    _, channel, (alice, bob, *_r) = setup_table(env)
    await alice.slash(channel, "ugah start")
    replies = [await alice.slash(channel, "game rules", game="ugah") for _ in range(12)]
    assert all(r.ephemeral for r in replies)
    assert "going a bit fast" in replies[-1].response.content
    r = await bob.click(board(channel), custom_id=button_id(board(channel), "join", "l"))
    assert not r.ephemeral, "other members are not affected"
    await env.advance_time(11)
    r = await alice.slash(channel, "game rules", game="ugah")
    assert "Bone Breaker" in r.response.content


async def test_names_with_markdown_and_mentions_are_shown_literally(simcord_env):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    alice = guild.add_member(env.create_user("**alice**"))
    bob = guild.add_member(env.create_user("@everyone"))
    await alice.slash(channel, "ugah start")
    await click_lobby(bob, channel, "join")
    msg = board(channel)
    assert r"\*\*alice\*\*" in msg.content
    assert env.bot.allowed_mentions.everyone is False and env.bot.allowed_mentions.users is False


@pytest.mark.parametrize("game", list(SPECS))
async def test_every_game_names_its_computer_levels_on_one_scale(simcord_env, game):
    """Issue 20.7: Add AI reads easy, medium, hard in that order, whatever the game calls them inside
    (Ugah's stronger level is stored as "normal" and shown as medium)."""
    _, channel, (alice, *_rest) = setup_table(simcord_env)
    await alice.slash(channel, f"{game} start")
    labels = [
        c.label
        for c in components(board(channel))
        if getattr(c, "custom_id", "").startswith("l:") and ":ai." in c.custom_id
    ]
    words = [label.split("(")[1].rstrip(")") for label in labels]
    assert words, labels
    scale = ["easy", "medium", "hard"]
    assert all(w in scale for w in words), words
    assert words == sorted(words, key=scale.index), words
