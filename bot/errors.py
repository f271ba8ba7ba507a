"""The one place where problems become user text: an ephemeral reply in the clicker's language."""

from __future__ import annotations

import logging

import discord

from bot.i18n import translator
from engine.errors import EngineError

log = logging.getLogger(__name__)


async def reply(interaction: discord.Interaction, key: str, **params: object) -> None:
    """Answer ``interaction`` with the catalogue text for ``key``, privately; never raises."""
    text = translator(interaction.locale)(key, **params)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as err:
        log.warning("could not send an error reply: %s", err)


async def reply_engine(interaction: discord.Interaction, err: EngineError) -> None:
    await reply(interaction, err.key, **err.params)
