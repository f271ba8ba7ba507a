"""/privacy forget-me and /privacy forget-user: a user's stats, ratings and records deleted, and their
name taken out of every finished game (engine.match.Matches.forget_user), as Discord's developer policy
expects. Both say first what will happen and act only when run again with ``confirm: True``; both are
refused while the user sits in a live game. forget-user (any user id) is for the bot's owner only.
Replies are private (ephemeral)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import GameBot
from bot.cogs.common import desc
from bot.i18n import translator
from engine.errors import EngineError
from engine.store import Forgotten


class Privacy(commands.GroupCog, group_name="privacy", group_description=desc("cmd.privacy")):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="forget-me", description=desc("cmd.privacy.forget_me"))
    @app_commands.describe(confirm=desc("opt.confirm"))
    async def forget_me(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        await self._forget(interaction, interaction.user.id, confirm, "privacy.preview_me", "privacy.done_me")

    @app_commands.command(name="forget-user", description=desc("cmd.privacy.forget_user"))
    @app_commands.describe(user_id=desc("opt.user_id"), confirm=desc("opt.confirm"))
    async def forget_user(
        self, interaction: discord.Interaction, user_id: str, confirm: bool = False
    ) -> None:
        if not await self.bot.is_owner(interaction.user):
            await self.bot.reply_error(interaction, "privacy.owner_only")
            return
        if not user_id.strip().isdigit() or not 0 < int(user_id) < 2**63:
            await self.bot.reply_error(interaction, "privacy.bad_id")
            return
        await self._forget(interaction, int(user_id), confirm, "privacy.preview_user", "privacy.done_user")

    async def _forget(
        self, interaction: discord.Interaction, user_id: int, confirm: bool, preview: str, done: str
    ) -> None:
        tr = translator(interaction.locale)
        if not confirm:  # say what it does first: it cannot be undone
            await interaction.response.send_message(tr(preview, user=user_id), ephemeral=True)
            return
        try:
            gone: Forgotten = await self.bot.matches.forget_user(user_id)
        except EngineError as err:  # still seated in a live game, or the database busy: nothing changed
            await self.bot.reply_engine_error(interaction, err)
            return
        text = tr(done, user=user_id, matches=gone.matches, ratings=gone.ratings, records=gone.records)
        await interaction.response.send_message(text, ephemeral=True)
        await self.bot.tournaments.show_again(gone.tournaments)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Privacy(bot))
