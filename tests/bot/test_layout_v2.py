"""Components V2: a game may choose a LayoutView message (text, image and up to 40 components). The
same Ugah UI, switched to V2 for this test, plays through it: flags, image reference, controls."""

from __future__ import annotations

import random

import discord

from bot.games import UIS
from tests.bot.helpers import board, custom_ids, open_and_start, play_one, setup_table
from tests.replayed import replayed


async def test_a_game_can_choose_a_components_v2_message(simcord_env, monkeypatch):
    env = simcord_env
    monkeypatch.setattr(UIS["ugah"], "layout", "v2")
    _, channel, players = setup_table(env, 2)
    mid = await open_and_start(env, channel, players)
    rng = random.Random(1)
    for _ in range(6):
        m, _ = await env.bot.matches.get(mid)
        if m.status != "active":
            break
        r = await play_one(env, channel, players, mid, rng)
        assert not r.ephemeral, r.response and r.response.content
    msg = board(channel)
    assert msg.flags.value & 32768, "IS_COMPONENTS_V2"
    assert msg.content == "" and isinstance(msg.components[0], discord.components.TextDisplay)
    assert "Ugah Ugah!" in msg.components[0].content
    assert isinstance(msg.components[1], discord.components.MediaGalleryComponent)
    assert [a.filename for a in msg.attachments] == ["ugah.png"], "one image, the one the layout shows"
    assert custom_ids(msg, "h:"), "controls sit in action rows after the text and image"
    assert await replayed(env.bot.matches, mid) == (await env.bot.matches.get(mid))[1]
