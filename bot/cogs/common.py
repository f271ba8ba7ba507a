"""Commands every game shares: /game hand, resign, end, board, rules, fair; plus opening a lobby."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors, mine
from bot.client import GameBot
from bot.games import UIS
from bot.i18n import english, seat_name, translator
from bot.messages import Board
from bot.names import clean_name
from bot.render_pool import rendered
from bot.replay import rules_pictures
from bot.surfaces import notice, thread
from bot.surfaces.send import CHANNEL_GONE, FORBIDDEN, verdict
from engine.errors import DatabaseBusy, EngineError, MatchNotFound, NotInMatch
from engine.fair import export, seed_hash
from engine.meta import MatchMeta
from engine.store import MatchRow, StoreError

log = logging.getLogger(__name__)


def desc(key: str) -> app_commands.locale_str:
    """A command/option description taken from the catalogue (English text, key for translators)."""
    return app_commands.locale_str(english(key), key=key)


async def open_lobby(
    bot: GameBot,
    interaction: discord.Interaction,
    game: str,
    options: dict[str, Any],
    *,
    start: bool = False,
) -> None:
    """Open a lobby in the interaction's channel and post it; with ``start`` the host's game begins at
    once (a one-player quick start such as ``/ubongo solo``): the first message is the game itself."""
    user = interaction.user
    bot.surfaces.note_locale(interaction)  # the host's DMs speak their language (the board the server's)
    if interaction.channel_id is None or interaction.guild_id is None:
        await bot.reply_error(interaction, "error.guild_only")
        return
    name = clean_name(user.display_name)
    if options.get("thread") is None:  # the server's choice, unless the start command made one
        options = {
            **options,
            "thread": await bot.store.guild_setting(interaction.guild_id, thread.SETTING) == "on",
        }
    with bot.surfaces.answering():  # the first message first, then the other surfaces (a seat's DM)
        try:
            update = await bot.matches.open_lobby(
                game,
                interaction.guild_id,
                interaction.channel_id,
                user.id,
                name,
                options,
                meta=MatchMeta(locale=str(interaction.guild_locale or "en")),
                host_locale=str(interaction.locale),
            )
        except EngineError as err:
            await bot.reply_engine_error(interaction, err)
            return
        mid = update.match.id
        if start:
            try:
                update = await bot.matches.lobby(mid, update.match.version, user.id, name, "start")
            except EngineError as err:
                await bot.matches.discard_lobby(mid)  # an unstartable lobby nobody asked for: gone
                await bot.reply_engine_error(interaction, err)
                return
        await bot.surfaces.post_first(interaction, update.match, update.state)


class Common(commands.GroupCog, group_name="game", group_description=desc("cmd.game")):
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def _live(
        self, interaction: discord.Interaction, *, reach: bool = True, any_game: bool = False
    ) -> int | None:
        """The game this command is about: the one running in this channel, else (``reach``) the
        user's own game (``any_game``: any game) running in a thread started from it; several, or a
        command that must be used in the game's place (``reach`` False): their threads, listed."""
        m = await self.bot.matches.live_in_channel(interaction.channel_id or 0)
        if m is not None:
            return m.id
        inside = await self._in_threads(interaction)
        user = interaction.user.id
        mine = [x for x in inside if x.host_id == user or any(s.user_id == user for s in x.seats)]
        chosen = mine or (inside if any_game else [])
        if reach and len(chosen) == 1:
            return chosen[0].id
        if not inside:
            await self.bot.reply_engine_error(interaction, MatchNotFound())
            return None
        threads = ", ".join(f"<#{x.channel_id}>" for x in chosen or inside)
        text = translator(interaction.locale)("error.no_match_threads", threads=threads)
        await interaction.response.send_message(text, ephemeral=True)
        return None

    async def _in_threads(self, interaction: discord.Interaction) -> list[MatchRow]:
        """The games running in threads started from this channel (a match per thread, its own)."""
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel | discord.ForumChannel):
            return []
        found = [await self.bot.matches.live_in_channel(t.id) for t in channel.threads]
        return [m for m in found if m is not None]

    @app_commands.command(name="hand", description=desc("cmd.game.hand"))
    async def hand(self, interaction: discord.Interaction) -> None:
        if (mid := await self._live(interaction, reach=False)) is not None:  # (a panel lives by its board)
            await self.bot.show_hand(interaction, mid)

    @app_commands.command(name="resign", description=desc("cmd.game.resign"))
    @app_commands.describe(confirm=desc("opt.confirm_resign"))
    async def resign(self, interaction: discord.Interaction, confirm: bool = False) -> None:
        if (mid := await self._live(interaction)) is None:
            return
        if not confirm:  # say first what it does: with two seats the game ends at once
            m, _ = await self.bot.matches.get(mid)
            seat = self.bot.matches.seat_of(m, interaction.user.id)
            if seat is None:
                await self.bot.reply_engine_error(interaction, NotInMatch())
                return
            if m.status == "lobby":  # the same answer as the confirmed form: nothing to resign yet
                await self.bot.reply_engine_error(
                    interaction, self.bot.matches.not_started(m, interaction.user.id)
                )
                return
            tr = translator(interaction.locale)
            others = [s for i, s in enumerate(m.seats) if i != seat]
            if len(m.seats) == 2:
                text = tr("resign.ask_lost", name=seat_name(others[0].name, others[0].ai, tr))
            else:
                text = tr("resign.ask_leave")
            await interaction.response.send_message(text, ephemeral=True)
            return
        with self.bot.surfaces.answering():  # the reply first, then the surfaces show the resignation
            try:
                update = await self.bot.matches.resign(mid, interaction.user.id)
            except EngineError as err:
                await self.bot.reply_engine_error(interaction, err)
                return
            key = "done.resigned_lost" if update.match.status == "finished" else "done.resigned"  # 2 seats
            await interaction.response.send_message(translator(interaction.locale)(key), ephemeral=True)

    @app_commands.command(name="end", description=desc("cmd.game.end"))
    async def end(self, interaction: discord.Interaction) -> None:
        if (mid := await self._live(interaction, any_game=self.bot.is_moderator(interaction))) is None:
            return
        with self.bot.surfaces.answering():  # the reply first, then the surfaces show the end
            try:
                await self.bot.matches.end(
                    mid,
                    interaction.user.id,
                    moderator=self.bot.is_moderator(interaction),
                    name=clean_name(interaction.user.display_name),
                )
            except EngineError as err:
                await self.bot.reply_engine_error(interaction, err)
                return
            await interaction.response.send_message(
                translator(interaction.locale)("done.ended"), ephemeral=True
            )

    @app_commands.command(name="board", description=desc("cmd.game.board"))
    async def board(self, interaction: discord.Interaction) -> None:
        if (mid := await self._live(interaction)) is None:
            return
        key = "done.reposted"
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self.bot.surfaces.repost(mid)
        except discord.HTTPException as err:  # nothing was posted: the stored board stays the game's
            log.warning("/game board: the board was not posted again: %s", err)
            what = verdict(err).what
            key = {FORBIDDEN: "error.missing_permissions", CHANNEL_GONE: "error.channel_gone"}.get(
                what, "error.board_not_reposted"
            )
        await errors.reply(interaction, key)  # (never raises: a failed answer is not a failed command)

    @app_commands.command(name="mine", description=desc("cmd.game.mine"))
    async def mine(self, interaction: discord.Interaction) -> None:
        """Your live games in every server and channel, with whose turn and a link to each board."""
        tr = translator(interaction.locale)
        user = interaction.user.id
        try:
            games = await self.bot.matches.live_of(user)
        except EngineError as err:
            await self.bot.reply_engine_error(interaction, err)
            return
        seated = [
            (m, state, seat) for m, state in games if (seat := self.bot.matches.seat_of(m, user)) is not None
        ]
        lines = []
        for m, state, seat in sorted(seated, key=lambda g: mine.order(*g)):
            row = await self.bot.surfaces.board_row(m)
            at = (row.channel_id or m.channel_id, row.message_id) if row is not None else (m.channel_id, None)
            lines.append(mine.line(m, state, seat, mine.jump_link(m.guild_id, *at), tr))
        await interaction.response.send_message(mine.listing(lines, tr), ephemeral=True)

    @app_commands.command(name="notify", description=desc("cmd.game.notify"))
    @app_commands.describe(state=desc("opt.notify_state"))
    @app_commands.choices(state=[app_commands.Choice(name=v, value=v) for v in ("on", "off")])
    async def notify(self, interaction: discord.Interaction, state: str) -> None:
        """Your own setting, in every server: a DM when your turn comes (nothing else is ever sent
        unasked); kept until you turn it off or ``/privacy forget-me``."""
        on = state == "on"
        try:
            await self.bot.store.set_user_setting(interaction.user.id, notice.SETTING, "on" if on else None)
        except StoreError:
            await self.bot.reply_engine_error(interaction, DatabaseBusy())
            return
        key = "done.notify_on" if on else "done.notify_off"
        await interaction.response.send_message(translator(interaction.locale)(key), ephemeral=True)

    @app_commands.command(name="threads", description=desc("cmd.game.threads"))
    @app_commands.describe(on=desc("opt.threads_on"))
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def threads(self, interaction: discord.Interaction, on: bool) -> None:
        """The server's setting: every new match in its own thread (``/<game> start thread:`` still
        decides for one match)."""
        assert interaction.guild_id is not None
        await self.bot.store.set_guild_setting(interaction.guild_id, thread.SETTING, "on" if on else "off")
        key = "done.threads_on" if on else "done.threads_off"
        await interaction.response.send_message(translator(interaction.locale)(key), ephemeral=True)

    @app_commands.command(name="fair", description=desc("cmd.game.fair"))
    @app_commands.describe(match=desc("opt.match"))
    async def fair(self, interaction: discord.Interaction, match: int | None = None) -> None:
        """The full seed hash of this channel's game; once a game is over (``match``: its number, shown
        by ``/game fair`` while it ran), its seed and action log for tools/verify_seed.py."""
        tr = translator(interaction.locale)
        if match is None and (match := await self._live(interaction)) is None:
            return
        try:
            m, state = await self.bot.matches.get(match)
        except EngineError as err:
            await self.bot.reply_engine_error(interaction, err)
            return
        if m.guild_id != interaction.guild_id:
            await self.bot.reply_engine_error(interaction, MatchNotFound())
            return
        digest = seed_hash(m.seed)
        if m.status in ("lobby", "active"):  # the seed stays secret while it could reveal anything
            text = tr("fair.active", digest=digest) + f" (#{m.id})"
            await interaction.response.send_message(text, ephemeral=True)
            return
        name = f"match-{m.id}.json"
        exported = export(m, state, await self.bot.store.actions(m.id))
        data = io.BytesIO(json.dumps(exported, sort_keys=True).encode())
        await interaction.response.send_message(
            tr("fair.finished", seed=m.seed, digest=digest, file=name),
            file=discord.File(data, filename=name),
            ephemeral=True,
        )

    @app_commands.command(name="rules", description=desc("cmd.game.rules"))
    @app_commands.describe(game=desc("opt.game"))
    @app_commands.choices(game=[app_commands.Choice(name=english(f"game.{g}"), value=g) for g in UIS])
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """Without a game: the one running in this channel, else the list of games."""
        tr = translator(interaction.locale)
        if game is None:
            m = await self.bot.matches.live_in_channel(interaction.channel_id or 0)
            game = m.game if m is not None else None
        if game is None:
            text = tr("rules.index", games="\n".join(f"• `/{g} start`: {tr(f'cmd.{g}')}" for g in UIS))
            await interaction.response.send_message(text, ephemeral=True)
            return
        # the rules with pictures that teach (the start board, a player's own picture), drawn live
        # in the render pool like every other image
        boards = [await rendered(Board("", None, *picture)) for picture in rules_pictures(game, tr)]
        files = [file for board in boards for file in board.files()]
        await interaction.response.send_message(tr(f"rules.{game}"), files=files, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Common(bot))
