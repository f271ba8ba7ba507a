"""The bot's edits of a board make no discord.py ``Message`` of Discord's reply (issue 35): nothing
reads it, and parsing a board's controls back was a tenth of a move's CPU. The requests are the same
(``bot.punctual.Punctual._update_message`` for a click's answer, ``bot.surfaces.send.DiscordSend.edit``
for the bot token's edits), so the surfaces end as before and their controls still answer."""

from __future__ import annotations

import random

import discord
import pytest

from bot.render_pool import rendered
from bot.surfaces.send import DiscordSend
from tests.bot.helpers import board
from tests.kit_honga import HongaKit
from tests.kit_uonga import UongaKit


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """What discord.py made of Discord's replies to an answer or an edit: one entry each."""
    made: list[str] = []
    answer, edit = discord.InteractionCallbackResponse.__init__, discord.PartialMessage.edit

    def answered(self, *args, **kwargs):
        made.append("answer")
        answer(self, *args, **kwargs)

    async def edited(self, *args, **kwargs):
        made.append("edit")
        return await edit(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionCallbackResponse, "__init__", answered)
    monkeypatch.setattr(discord.PartialMessage, "edit", edited)
    return made


async def _board_is_current(env, channel, mid) -> None:
    m, state = await env.bot.matches.get(mid)
    await env.bot.surfaces.settle(mid)
    expected = await env.bot.surfaces.public_board(m, state)
    assert board(channel).content == expected.content
    assert (await board(channel).attachments[0].read()) == expected.draw()


async def test_a_moves_answer_parses_nothing_back_and_its_controls_answer(simcord_env, parsed):
    """Uonga's 25 squares: each move's answer edits the board, and the next click on it is a move."""
    env = simcord_env
    kit = UongaKit()
    channel, players, mid = await kit.start(env)
    parsed.clear()  # (the command's own answer, a new message, is discord.py's)
    rng = random.Random(35)
    versions = []
    for _ in range(8):
        r = await (await kit.next_click(env, channel, players, mid, rng))()
        assert r.acknowledged and not r.ephemeral
        versions.append((await env.bot.matches.get(mid))[0].version)
    assert versions == sorted(versions) and versions[-1] > versions[0], "every click was a step"
    assert "answer" not in parsed, parsed
    await _board_is_current(env, channel, mid)


async def test_the_bot_tokens_edit_parses_nothing_back_and_its_controls_answer(simcord_env, parsed):
    """An edit by the bot token (a surface's reconciler once a click's token is gone) sends the board
    the committed state builds; its controls take the next move."""
    env = simcord_env
    kit = HongaKit()
    channel, players, mid = await kit.start(env)
    rng = random.Random(35)
    await (await kit.next_click(env, channel, players, mid, rng))()
    m, state = await env.bot.matches.get(mid)
    expected = await rendered(await env.bot.surfaces.public_board(m, state))
    parsed.clear()
    await DiscordSend(env.bot).edit(channel.id, board(channel).id, expected)
    assert parsed == [], "the edit went through the lean way, not PartialMessage.edit"
    assert board(channel).content == expected.content
    assert (await board(channel).attachments[0].read()) == expected.draw()
    before = m.version
    for _ in range(3):
        await (await kit.next_click(env, channel, players, mid, rng))()
    assert (await env.bot.matches.get(mid))[0].version > before, "the edited board's controls answer"
    await _board_is_current(env, channel, mid)
