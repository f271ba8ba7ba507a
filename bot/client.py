"""The bot: builds the engine, the click router and the delivery of surfaces, and owns the lifecycle
(start-up recovery, channels that disappear, shutdown)."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.components import ActionButton, ActionSelect, Click
from bot.delivery import Delivery
from bot.games import UIS
from bot.i18n import translator
from bot.ratelimit import RateLimiter
from bot.router import Router
from engine import compute
from engine.errors import DatabaseBusy, EngineError
from engine.match import Matches, Update
from engine.store import MatchRow, Store, StoreBusy, StoreError

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.common", "bot.cogs.games", "bot.cogs.stats")


def _now() -> float:
    return discord.utils.utcnow().timestamp()  # follows SimCord's clock in tests


# A human clicks a few times a second at most; a channel hosts one game and a few commands.
USER_LIMIT = (12, 10.0)
CHANNEL_LIMIT = (40, 10.0)
DISPLAY_LIMIT = (40, 10.0)  # display-only clicks (choose a piece, browse its places), counted apart


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
        if isinstance(cause, EngineError):
            await interaction.client.reply_engine_error(interaction, cause)
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
        self.limiter = RateLimiter(_now, USER_LIMIT, CHANNEL_LIMIT, DISPLAY_LIMIT) if rate_limits else None
        self.store = Store(database_path)
        self.matches = Matches(
            self.store,
            _now,
            turn_seconds=turn_seconds,
            on_timer_update=self._timer_update,
            annotate=self._annotate,
        )
        self.delivery = Delivery(self)
        self.router = Router(self)
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
        try:
            count = await self.matches.recover(self._broken)
        except (
            StoreBusy,
            DatabaseBusy,
        ) as err:  # another program took the lock after the start-up check: one line, exit 2
            raise StoreError(
                f"{self.store.path}: {err}: another program holds the database; stop it"
            ) from err
        log.info("recovered %d live match(es)", count)

    async def close(self) -> None:
        await self.matches.close()
        await self.store.close()
        compute.shutdown()
        await super().close()

    # ---- errors and limits ------------------------------------------------------------------------

    async def reply_error(self, interaction: discord.Interaction, key: str, **params: Any) -> None:
        await errors.reply(interaction, key, **params)

    async def reply_engine_error(self, interaction: discord.Interaction, err: EngineError) -> None:
        await errors.reply_engine(interaction, err)

    async def within_limits(
        self, interaction: discord.Interaction, *, channel: bool = True, display: bool = False
    ) -> bool:
        """Per member always; per channel for commands and lobby clicks (game clicks are answered
        per member only, so people outside a game cannot use up its channel's budget). Display-only
        clicks have their own per-member budget."""
        channel_id = (interaction.channel_id or 0) if channel else None
        if self.limiter is None or self.limiter.hit(interaction.user.id, channel_id, display=display):
            return True
        await self.reply_error(interaction, "error.slow_down")
        return False

    # ---- clicks ----------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, click: Click) -> None:
        await self.router.on_component(interaction, click)

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        m, state = await self.matches.get(match_id)
        seat = self.matches.seat_of(m, interaction.user.id)
        if seat is None:
            await self.reply_error(interaction, "error.not_in_match")
        elif state is None:
            await self.reply_error(interaction, "error.hand_lobby")
        elif UIS[m.game].private is None:
            await self.reply_error(interaction, "error.no_hand")
        else:
            await self.delivery.open_panel(interaction, match_id, seat)

    @staticmethod
    def is_moderator(interaction: discord.Interaction) -> bool:
        perms = interaction.permissions
        return bool(perms and perms.manage_messages)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.on_interaction(interaction)

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
        await self.delivery.sync(update.match.id)

    async def _annotate(self, m: MatchRow, state: Any) -> dict[str, Any]:
        """A game starts or finishes: a UI that keeps personal records (``annotate``) reads or updates
        them here; what it returns joins the match's meta, where its surfaces find it."""
        annotate = getattr(UIS[m.game], "annotate", None)
        return await annotate(self.store, m, state) if annotate is not None else {}

    async def _broken(self, match_id: int, channel_id: int | None) -> None:
        """A stored match that cannot be decoded was set aside: say so in its channel."""
        if channel_id is None:
            return
        text = translator(None)("match.set_aside")
        with contextlib.suppress(discord.HTTPException):
            await self.get_partial_messageable(channel_id).send(text)


def create_bot(
    database_path: str, *, turn_seconds: int = 120, dev_guild_id: int | None = None, rate_limits: bool = True
) -> GameBot:
    """Build the bot without connecting (tests run it against a simulated Discord)."""
    return GameBot(
        database_path, turn_seconds=turn_seconds, dev_guild_id=dev_guild_id, rate_limits=rate_limits
    )
