"""/replay: step through a finished game of this server, move by move, in a message only you see. The
states are rebuilt from the match's seed and action log (engine.replay), never stored as images."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import GameBot
from bot.cogs.common import desc
from bot.i18n import Translator, translator
from bot.surfaces import replay_viewer
from engine.errors import EngineError
from engine.store import MatchRow
from render.graphemes import fit_names

CHOICES = 25  # Discord shows at most 25 suggestions


def choice_name(m: MatchRow, tr: Translator) -> str:
    """The autocomplete choice (at most 100 characters): long names are shortened, never a player dropped."""
    game = tr(f"game.{m.game}")

    def build(names: list[str]) -> str:
        return tr("replay.choice", id=m.id, game=game, players=", ".join(names))

    return fit_names(build, [s.name for s in m.seats], 100)


class Replay(commands.Cog):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @app_commands.command(name="replay", description=desc("cmd.replay"))
    @app_commands.describe(match=desc("opt.replay_match"), step=desc("opt.replay_step"))
    async def replay(
        self, interaction: discord.Interaction, match: int, step: app_commands.Range[int, 0] = 0
    ) -> None:
        """Opens at the start, or at ``step`` (the one a 🎓 answer names; past the end: the last);
        ⏮ ◀ ▶ ⏭ step through (they keep working after a restart)."""
        try:
            await replay_viewer.show(self.bot.matches, interaction, match, step, edit=False)
        except EngineError as err:  # not this server's, still live, never started
            await self.bot.reply_engine_error(interaction, err)

    @replay.autocomplete("match")
    async def recent(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        """This server's latest finished games, filtered by what was typed (a number or a word)."""
        if interaction.guild_id is None:
            return []
        tr = translator(interaction.locale)
        typed = current.strip().lstrip("#").lower()
        out = []
        for m in await self.bot.store.finished_in_guild(interaction.guild_id, limit=100):
            name = choice_name(m, tr)
            if not typed or typed in name.lower():
                out.append(app_commands.Choice(name=name, value=m.id))
            if len(out) == CHOICES:
                break
        return out


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Replay(bot))
