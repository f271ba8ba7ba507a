"""/stats and /leaderboard: games played, wins and skill ratings per server and game (engine.ratings),
read from the rows the finishing commits wrote. Replies are private (ephemeral)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import GameBot
from bot.cogs.common import desc
from bot.i18n import Translator, english, translator
from bot.locales.en import MESSAGES
from engine import ratings
from engine.registry import GAMES

LEADERBOARD_SIZE = 10


def player_name(tr: Translator, player: str) -> str:
    """A member as a mention (shown as their name, never a ping: the bot allows no mentions), a
    computer pseudo-player by its level."""
    level = ratings.computer_level(player)
    if level is None:
        return f"<@{player}>"
    return tr("stats.computer", level=tr(f"level.{level}") if f"level.{level}" in MESSAGES else level)


def line(tr: Translator, s: ratings.Standing) -> str:
    return tr("stats.line", rating=f"{s.ordinal:.1f}", mu=f"{s.mu:.1f}", sigma=f"{s.sigma:.1f}",
              played=s.played, wins=s.wins)  # fmt: skip


class Stats(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description=desc("cmd.stats"))
    @app_commands.describe(member=desc("opt.member"))
    async def stats(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        if interaction.guild_id is None:
            await self.bot.reply_error(interaction, "error.guild_only")
            return
        tr = translator(interaction.locale)
        who = member or interaction.user
        standings = await self.bot.store.standings(interaction.guild_id, ratings.user_key(who.id))
        name = discord.utils.escape_markdown(who.display_name)
        if not standings:
            await interaction.response.send_message(tr("stats.none", name=name), ephemeral=True)
            return
        games = "\n".join(
            f"• **{tr(f'game.{game}')}**: {line(tr, s)}" for game, s in standings.items() if game in GAMES
        )
        await interaction.response.send_message(tr("stats.text", name=name, games=games), ephemeral=True)

    @app_commands.command(name="leaderboard", description=desc("cmd.leaderboard"))
    @app_commands.describe(game=desc("opt.leaderboard_game"))
    @app_commands.choices(game=[app_commands.Choice(name=english(f"game.{g}"), value=g) for g in GAMES])
    async def leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        if interaction.guild_id is None:
            await self.bot.reply_error(interaction, "error.guild_only")
            return
        if game not in GAMES:  # Discord only sends listed choices: this one was forged
            await self.bot.reply_error(interaction, "error.bad_action")
            return
        tr = translator(interaction.locale)
        top = await self.bot.store.leaderboard(interaction.guild_id, game, LEADERBOARD_SIZE)
        title = tr(f"game.{game}")
        if not top:
            await interaction.response.send_message(tr("leaderboard.none", game=title), ephemeral=True)
            return
        rows = "\n".join(f"{i}. {player_name(tr, s.player)} · {line(tr, s)}" for i, s in enumerate(top, 1))
        await interaction.response.send_message(tr("leaderboard.text", game=title, rows=rows), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Stats(bot))
