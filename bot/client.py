"""The bot: builds everything, routes component clicks to the match engine, and turns engine
errors into ephemeral user text in one place (``reply_error``)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.components import OURS, ActionButton, ActionSelect, Click
from bot.games import UIS
from bot.i18n import translator
from bot.presenter import Presenter
from bot.ratelimit import RateLimiter
from engine.errors import BadActionCode, EngineError, StaleAction
from engine.match import Matches, Update
from engine.store import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.common", "bot.cogs.ugah")


def _now() -> float:
    return discord.utils.utcnow().timestamp()  # follows SimCord's clock in tests


# A human clicks a few times a second at most; a channel hosts one game and a few commands.
USER_LIMIT = (12, 10.0)
CHANNEL_LIMIT = (40, 10.0)


class GameTree(app_commands.CommandTree["GameBot"]):
    async def interaction_check(self, interaction: discord.Interaction[GameBot]) -> bool:  # type: ignore[override]
        return await interaction.client.within_limits(interaction)

    async def on_error(
        self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError
    ) -> None:  # type: ignore[override]
        cause = getattr(error, "original", error)
        if isinstance(cause, discord.HTTPException):  # Discord failed us; the state is committed and intact
            log.warning(
                "command %s: Discord call failed: %s", interaction.command and interaction.command.name, cause
            )
            await interaction.client.reply_error(interaction, "error.discord")
            return
        log.error("command failed", exc_info=cause)
        await interaction.client.reply_error(interaction, "error.generic")


class GameBot(commands.Bot):
    def __init__(
        self,
        database_path: str,
        *,
        turn_seconds: int = 120,
        dev_guild_id: int | None = None,
        rate_limits: bool = True,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: no message content, no member list
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),  # a name like "@everyone" never pings
        )
        self.limiter = RateLimiter(_now, USER_LIMIT, CHANNEL_LIMIT) if rate_limits else None
        self.store = Store(database_path)
        self.matches = Matches(
            self.store, _now, turn_seconds=turn_seconds, on_timer_update=self._timer_update
        )
        self.presenter = Presenter(self)
        self.dev_guild_id = dev_guild_id

    async def setup_hook(self) -> None:
        await self.store.open()
        self.add_dynamic_items(ActionButton, ActionSelect)
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        count = await self.matches.recover()
        log.info("recovered %d live match(es)", count)

    async def close(self) -> None:
        await self.matches.close()
        await self.store.close()
        await super().close()

    # ---- errors: the one place engine errors become user text ---------------------------------

    async def reply_error(self, interaction: discord.Interaction, key: str, **params: Any) -> None:
        text = translator(interaction.locale)(key, **params)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as err:
            log.warning("could not send an error reply: %s", err)

    async def reply_engine_error(self, interaction: discord.Interaction, err: EngineError) -> None:
        await self.reply_error(interaction, err.key, **err.params)

    async def within_limits(self, interaction: discord.Interaction) -> bool:
        if self.limiter is None or self.limiter.hit(interaction.user.id, interaction.channel_id or 0):
            return True
        await self.reply_error(interaction, "error.slow_down")
        return False

    # ---- clicks ----------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, click: Click) -> None:
        try:
            await self._component(interaction, click)
        except discord.HTTPException as err:  # Discord failed us; whatever was committed is intact
            log.warning("click %s failed at Discord: %s", click, err)
            await self.reply_error(interaction, "error.discord")
        except Exception:  # a bug: say so instead of leaving "This interaction failed"
            log.exception("click %s failed", click)
            await self.reply_error(interaction, "error.generic")

    async def _component(self, interaction: discord.Interaction, click: Click) -> None:
        kind, match_id, version, arg = click.kind, click.match_id, click.version, click.arg
        user = interaction.user
        if not await self.within_limits(interaction):
            return
        try:
            if kind == "h":
                await self.show_hand(interaction, match_id)
                return
            if kind == "l":
                update = await self.matches.lobby(
                    match_id,
                    version,
                    user.id,
                    user.display_name,
                    arg,
                    moderator=self.is_moderator(interaction),
                )
            else:
                m, _ = await self.matches.get(match_id)
                action = UIS[m.game].select_action(arg, click.values) if kind == "s" else arg
                update = await self.matches.act(match_id, version, user.id, action)
        except EngineError as err:
            await self.reply_engine_error(interaction, err)
            if isinstance(err, StaleAction):  # the board may be behind (a failed edit): bring it in line
                await self.presenter.refresh(match_id)
            return
        await self.presenter.respond(interaction, update.match.id)

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        m, state = await self.matches.get(match_id)
        seat = self.matches.seat_of(m, interaction.user.id)
        if seat is None:
            await self.reply_error(interaction, "error.not_in_match")
            return
        if state is None:
            await self.reply_error(interaction, "error.hand_lobby")
            return
        tr = translator(interaction.locale)
        await interaction.response.send_message(
            UIS[m.game].hand(state, seat, [s.name for s in m.seats], tr), ephemeral=True
        )

    @staticmethod
    def is_moderator(interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        return bool(perms and perms.manage_messages)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A component whose custom_id none of ours matches (forged, or from another bot version)."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if not OURS.fullmatch(custom_id):
            await self.reply_engine_error(interaction, BadActionCode())

    # ---- channels that disappear ----------------------------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.matches.close_channel(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.matches.close_channel(payload.thread_id)

    async def on_ready(self) -> None:
        """Close live matches whose channel was deleted while the bot was away."""
        for m in await self.store.live_matches():
            if self.get_channel(m.channel_id) is not None:
                continue
            try:
                await self.fetch_channel(m.channel_id)
            except discord.NotFound:
                await self.matches.close_gone(m.id)
                log.info("match %s closed: its channel is gone", m.id)
            except discord.HTTPException:
                pass  # no access right now is not proof that it is gone

    async def _timer_update(self, update: Update) -> None:
        await self.presenter.refresh(update.match.id)


def create_bot(
    database_path: str, *, turn_seconds: int = 120, dev_guild_id: int | None = None, rate_limits: bool = True
) -> GameBot:
    """Build the bot without connecting (tests run it against a simulated Discord)."""
    return GameBot(
        database_path, turn_seconds=turn_seconds, dev_guild_id=dev_guild_id, rate_limits=rate_limits
    )
