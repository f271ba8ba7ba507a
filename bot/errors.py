"""The one place where problems become user text: an ephemeral reply in the clicker's language."""

from __future__ import annotations

import logging

import discord

from bot.i18n import translator
from engine.errors import DatabaseBusy, DatabaseUnsure, EngineError
from engine.store import StoreBusy, StoreError, StoreUnsure

log = logging.getLogger(__name__)


def engine_error(err: BaseException) -> EngineError | None:
    """What a click or a command that failed with ``err`` tells the user: the engine's error as it
    is, or the store's worded as the engine words it (a database that cannot answer now, or that may
    have kept a commit); None for anything else, a bug. The click router and the slash commands'
    error handler both ask here, so a database outage reads the same whatever met it first."""
    if isinstance(err, EngineError):
        return err
    if isinstance(err, StoreUnsure):
        return DatabaseUnsure()
    if isinstance(err, StoreBusy | StoreError):  # a server down, a lock held, a store closing
        return DatabaseBusy()
    return None


async def reply(interaction: discord.Interaction, key: str, **params: object) -> None:
    """Answer ``interaction`` with the catalogue text for ``key``, privately; never raises. A Discord
    server error is tried once more: this answer is all the user will see."""
    text = translator(interaction.locale)(key, **params)
    for last in (False, True):
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
            return
        except discord.HTTPException as err:
            if last or err.status < 500:
                log.warning("could not send a private reply: %s", err)
                return


async def reply_engine(interaction: discord.Interaction, err: EngineError) -> None:
    await reply(interaction, err.key, **err.params)
