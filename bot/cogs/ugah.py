"""/ugah start and /ugah rules."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import GameBot
from bot.cogs.common import desc, open_lobby
from bot.i18n import translator
from bot.locales.en import MESSAGES as EN


class Ugah(commands.GroupCog, group_name="ugah", group_description=desc("cmd.ugah")):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="start", description=desc("cmd.ugah.start"))
    @app_commands.describe(
        variant=desc("opt.ugah.variant"),
        rolling=desc("opt.ugah.rolling"),
        turn_seconds=desc("opt.turn_seconds"),
    )
    @app_commands.choices(
        variant=[app_commands.Choice(name=EN[f"ugah.variant.{v}"], value=v) for v in ("basic", "uncertain")],
        rolling=[app_commands.Choice(name=EN[f"ugah.rolling.{v}"], value=v) for v in ("multi", "single")],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        variant: str = "basic",
        rolling: str = "multi",
        turn_seconds: app_commands.Range[int, 10, 86400] | None = None,
    ) -> None:
        options: dict[str, object] = {"variant": variant, "rolling": rolling}
        if turn_seconds:
            options["turn_seconds"] = turn_seconds
        await open_lobby(self.bot, interaction, "ugah", options)

    @app_commands.command(name="rules", description=desc("cmd.game.rules"))
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(translator(interaction.locale)("rules.ugah"), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Ugah(bot))
