"""/tournament: create one (server managers, or anyone where a server allows it), see its standings,
leave it, and manage it (its creator or a server manager: drop a player, pause, resume, end).
A channel holds one open tournament at a time; inside one of its match threads the commands reach it."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.client import GameBot
from bot.cogs.common import desc
from bot.games import UIS
from bot.i18n import english, translator
from bot.names import clean_name
from bot.render_pool import rendered
from bot.tournament import texts
from bot.tournament.runner import Change, Tournaments
from engine.errors import EngineError
from engine.registry import rules_for
from engine.tournament import flow, pairing
from engine.tournament.flow import TournamentError
from engine.tournament.model import OPEN, Tournament

SETTING = "tournaments"  # the server setting: "anyone" may create tournaments (else managers only)
FORMATS = (pairing.SWISS, pairing.ROUND_ROBIN, pairing.KNOCKOUT)


def default_table(game: str) -> int:
    rules = rules_for(game)
    return max(2, min(4, rules.max_players))


class TournamentCog(commands.GroupCog, group_name="tournament", group_description=desc("cmd.tournament")):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    @property
    def runner(self) -> Tournaments:
        return self.bot.tournaments

    async def _here(self, interaction: discord.Interaction, *, open_only: bool = True) -> Tournament:
        """This channel's tournament (from one of its match threads: the parent channel's)."""
        channel = interaction.channel
        ids = [interaction.channel_id or 0]
        if isinstance(channel, discord.Thread) and channel.parent_id:
            ids.append(channel.parent_id)
        for cid in ids:
            found = await self.bot.store.tournaments_in(cid)
            live = [t for t in found if t.status in OPEN]
            if live or (found and not open_only):
                return (live or found)[0]
        raise TournamentError("tournament.unknown")

    @app_commands.command(name="create", description=desc("cmd.tournament.create"))
    @app_commands.describe(
        game=desc("opt.tournament.game"),
        format=desc("opt.tournament.format"),
        rounds=desc("opt.tournament.rounds"),
        table_size=desc("opt.tournament.table_size"),
        round_minutes=desc("opt.tournament.round_minutes"),
        signup_minutes=desc("opt.tournament.signup_minutes"),
        title=desc("opt.tournament.title"),
    )
    @app_commands.choices(
        game=[app_commands.Choice(name=english(f"game.{g}"), value=g) for g in UIS],
        format=[app_commands.Choice(name=english(f"tournament.format.{f}"), value=f) for f in FORMATS],
    )
    @app_commands.guild_only()
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str = pairing.SWISS,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        table_size: app_commands.Range[int, 2, 5] | None = None,
        round_minutes: app_commands.Range[int, 10, 10080] = 60,
        signup_minutes: app_commands.Range[int, 5, 10080] = 30,
        title: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        try:
            await self._create(
                interaction, game, format, rounds, table_size, round_minutes, signup_minutes, title
            )
        except EngineError as err:
            await self.bot.reply_engine_error(interaction, err)

    async def _create(
        self,
        interaction: discord.Interaction,
        game: str,
        fmt: str,
        rounds: int | None,
        table_size: int | None,
        round_minutes: int,
        signup_minutes: int,
        title: str | None,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if game not in UIS or fmt not in FORMATS:
            raise TournamentError("error.bad_action")
        perms = interaction.permissions
        anyone = await self.bot.store.guild_setting(interaction.guild_id, SETTING) == "anyone"
        if not (anyone or (perms and perms.manage_guild)):
            raise TournamentError("tournament.create_managers")
        for t in await self.bot.store.tournaments_in(interaction.channel_id):
            if t.status in OPEN and t.message_id:
                link = f"https://discord.com/channels/{t.guild_id}/{t.channel_id}/{t.message_id}"
                raise TournamentError("tournament.one_per_channel", link=link)
        rules = rules_for(game)
        tr_guild = translator(interaction.guild_locale)
        size = table_size or default_table(game)
        low, high = max(2, rules.min_players), rules.max_players
        if not low <= size <= high:
            raise TournamentError("tournament.table_size", game=tr_guild(f"game.{game}"), low=low, high=high)
        user = interaction.user
        now = self.runner.now()
        name = title or tr_guild(
            "tournament.default_title",
            game=tr_guild(f"game.{game}"),
            format=tr_guild(f"tournament.format.{fmt}"),
        )
        t = Tournament(
            id=0,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            creator_id=user.id,
            creator_name=clean_name(user.display_name),
            title=clean_name(name),
            game=game,
            fmt=fmt,
            table_size=size,
            round_seconds=round_minutes * 60,
            signup_deadline=now + signup_minutes * 60,
            rounds=rounds if fmt == pairing.SWISS and rounds else 0,
            options={"timeout": "forfeit"},  # a no-show forfeits at their second time-out
            locale=str(interaction.guild_locale or "en"),
        )
        t = await self.runner.create(t)
        board = texts.message(t, translator(t.locale), now)
        response = await interaction.response.send_message(**board.kwargs(new=True))
        message_id = response.message_id or (await interaction.original_response()).id
        await self.runner.post_message(t, board, message_id)

    @app_commands.command(name="standings", description=desc("cmd.tournament.standings"))
    async def standings(self, interaction: discord.Interaction) -> None:
        try:
            t = await self._here(interaction, open_only=False)
        except EngineError as err:
            await self.bot.reply_engine_error(interaction, err)
            return
        tr = translator(interaction.locale)
        board = await rendered(texts.standings_board(t, tr, final=t.status not in OPEN))
        await interaction.response.send_message(ephemeral=True, **board.kwargs(new=True))

    @app_commands.command(name="leave", description=desc("cmd.tournament.leave"))
    async def leave(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        await self._change(interaction, lambda t: flow.leave(t, user), "tournament.done.left", manager=False)

    @app_commands.command(name="drop", description=desc("cmd.tournament.drop"))
    @app_commands.describe(player=desc("opt.tournament.player"))
    async def drop(self, interaction: discord.Interaction, player: discord.User) -> None:
        await self._change(
            interaction, lambda t: flow.drop(t, player.id), "tournament.done.dropped",
            name=clean_name(player.display_name),
        )  # fmt: skip

    @app_commands.command(name="pause", description=desc("cmd.tournament.pause"))
    async def pause(self, interaction: discord.Interaction) -> None:
        now = self.runner.now()
        await self._change(interaction, lambda t: flow.pause(t, now), "tournament.done.paused")

    @app_commands.command(name="resume", description=desc("cmd.tournament.resume"))
    async def resume(self, interaction: discord.Interaction) -> None:
        now = self.runner.now()
        await self._change(interaction, lambda t: flow.resume(t, now), "tournament.done.resumed")

    @app_commands.command(name="end", description=desc("cmd.tournament.end"))
    async def end(self, interaction: discord.Interaction) -> None:
        user = interaction.user.id
        await self._change(interaction, lambda t: flow.end(t, user), "tournament.done.ended")

    async def _change(
        self,
        interaction: discord.Interaction,
        fn: Change,
        done: str,
        *,
        manager: bool = True,
        **params: object,
    ) -> None:
        try:
            t = await self._here(interaction)
            if manager and not self.runner.manages(interaction, t):
                raise TournamentError("tournament.managers_only")
            await self.runner.change(t.id, fn)
        except EngineError as err:
            await self.bot.reply_engine_error(interaction, err)
            return
        await errors.reply(interaction, done, **params)

    @app_commands.command(name="anyone", description=desc("cmd.tournament.anyone"))
    @app_commands.describe(on=desc("opt.tournament.on"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def anyone(self, interaction: discord.Interaction, on: bool) -> None:
        assert interaction.guild_id is not None
        await self.bot.store.set_guild_setting(interaction.guild_id, SETTING, "anyone" if on else "managers")
        await errors.reply(interaction, "tournament.done.anyone_on" if on else "tournament.done.anyone_off")


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TournamentCog(bot))
