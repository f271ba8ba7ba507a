"""The bot: builds the engine, the click router and the delivery of surfaces, and owns the lifecycle
(start-up recovery, channels that disappear, shutdown)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.games import UIS
from bot.i18n import translator
from bot.punctual import ACK_SECONDS
from bot.ratelimit import RateLimiter
from bot.router import Router, is_moderator
from bot.settings import StoreOptions
from bot.surfaces import DiscordSend, Surfaces, replay_viewer
from bot.tournament.runner import Tournaments
from engine import collector, compute
from engine.errors import DatabaseBusy, EngineError
from engine.history import owned_seat
from engine.match import CLOCK_WATCH_SECONDS, Matches
from engine.options import TURN_SECONDS
from engine.signals import Committed, Committing, SetAside, Signal, TimerHeld
from engine.store import StoreBusy, StoreError
from engine.store.open import open_store

log = logging.getLogger(__name__)

# loaded in this order: the order in which the commands are registered (and synced to Discord)
EXTENSIONS = (
    "bot.cogs.common",
    "bot.cogs.replay",
    "bot.cogs.games",
    "bot.cogs.stats",
    "bot.cogs.privacy",
    "bot.cogs.tournament",
)


def _now() -> float:
    return discord.utils.utcnow().timestamp()  # follows SimCord's clock in tests


# A human clicks a few times a second at most; a channel hosts one game and a few commands.
USER_LIMIT = (12, 10.0)
CHANNEL_LIMIT = (40, 10.0)
DISPLAY_LIMIT = (40, 10.0)  # display-only clicks (choose a piece, browse its places), counted apart


class GameTree(app_commands.CommandTree["GameBot"]):
    async def interaction_check(self, interaction: discord.Interaction[GameBot]) -> bool:
        return await interaction.client.within_limits(interaction)

    async def on_error(
        self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError
    ) -> None:
        cause = getattr(error, "original", error)
        if isinstance(cause, discord.HTTPException):  # Discord failed us; the state is committed and intact
            log.warning(
                "command %s: Discord call failed: %s", interaction.command and interaction.command.name, cause
            )
            await interaction.client.reply_error(interaction, "error.discord")
            return
        known = errors.engine_error(cause)  # the engine's refusal, or the database's outage (as a click's)
        if known is not None:
            await interaction.client.reply_engine_error(interaction, known)
            return
        log.error("command failed", exc_info=cause)
        await interaction.client.reply_error(interaction, "error.generic")


def owner(shard_count: int | None, shard_ids: tuple[int, ...] | None) -> Callable[[int | None], bool]:
    """Whether a guild's matches belong to this process: Discord sends a guild's events to shard
    ``(guild_id >> 22) % shard_count``; a process running every shard owns everything."""
    if shard_count is None or shard_ids is None or set(shard_ids) >= set(range(shard_count)):
        return lambda guild_id: True
    mine = frozenset(shard_ids)
    return lambda guild_id: ((guild_id or 0) >> 22) % shard_count in mine


class GameBot(commands.AutoShardedBot):
    """The bot as Discord shards: one process runs ``shard_ids`` of ``shard_count`` (all of them by
    default). Each process runs its own guilds' timers; direct-message clicks reach shard 0's process,
    which acts on any match through the shared database (PostgreSQL when there are several).

    Built without connecting (tests run it against a simulated Discord). ``database``: a SQLite file
    path or a postgresql:// URL, opened with ``store_options`` (bot.settings). ``shard_count`` None:
    as many shards as Discord advises. ``clock_watch_seconds``: engine.match's clock watch (a
    simulated Discord wants a long one). ``ack_seconds``: when a click not answered yet is acknowledged
    (bot.punctual)."""

    def __init__(
        self,
        database: str,
        *,
        turn_seconds: int = TURN_SECONDS.default,
        dev_guild_id: int | None = None,
        rate_limits: bool = True,
        shard_count: int | None = 1,
        shard_ids: tuple[int, ...] | None = None,
        clock_watch_seconds: float = CLOCK_WATCH_SECONDS,
        store_options: StoreOptions | None = None,
        ack_seconds: float = ACK_SECONDS,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # no privileged intents: no message content, no member list
        shards: dict[str, Any] = {"shard_count": shard_count}
        if shard_ids is not None:  # (None: every shard of shard_count)
            shards["shard_ids"] = list(shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions.none(),  # a name like "@everyone" never pings
            **shards,
        )
        self.limiter = RateLimiter(_now, USER_LIMIT, CHANNEL_LIMIT, DISPLAY_LIMIT) if rate_limits else None
        self.store = open_store(database, **(store_options or StoreOptions()))
        self.owns = owner(shard_count, shard_ids)
        self._checking: asyncio.Task[int] | None = None
        self._background: set[asyncio.Task[None]] = set()  # the engine's signals' follow-ups
        self.matches = Matches(
            self.store,
            _now,
            turn_seconds=turn_seconds,
            owns=self.owns,
            clock_watch_seconds=clock_watch_seconds,
        )
        self.surfaces = Surfaces(self.matches, self.store, DiscordSend(self), _now)
        self.matches.signals.subscribe(self._heard)
        self.tournaments = Tournaments(
            self.store, self.matches, self.surfaces, self.surfaces.send, _now, self.owns
        )
        self.router = Router(
            self.matches,
            self.surfaces,
            self.within_limits,
            self._replay_step,
            ack_seconds,
            tournaments=self.tournaments.click,
        )
        self.dev_guild_id = dev_guild_id

    stops_on_sigterm = False  # python -m bot: SIGTERM closes the bot (not in a test's loop)
    settles_heap = False  # python -m bot: start-up's objects frozen out of collections (engine.collector)

    def _stop_on_sigterm(self) -> None:
        """SIGTERM (a service manager's stop, ``docker stop``) taken as Ctrl-C is: the bot's main
        task is cancelled, so the bot closes, writing what it holds (the surfaces' notes,
        bot.surfaces.addresses), before the process ends. Left to Python's default, it ended the
        process on the spot. Called from ``setup_hook``, which runs in that task."""
        main = asyncio.current_task()
        if not self.stops_on_sigterm or main is None:
            return

        def stop() -> None:
            if not main.cancelling():  # (a second SIGTERM does not cut the closing short)
                main.cancel()

        with contextlib.suppress(NotImplementedError):  # (no signal handlers on this loop: Windows)
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)

    async def setup_hook(self) -> None:
        self._stop_on_sigterm()
        await self.store.open()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        from bot.command_i18n import CommandTranslator  # command names/descriptions in de and es

        await self.tree.set_translator(CommandTranslator())
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        try:
            count = await self.matches.recover()
        except (
            StoreBusy,
            DatabaseBusy,
        ) as err:  # another program took the lock after the start-up check: one line, exit 2
            raise StoreError(
                f"{self.store.description}: {err}: another program holds the database; stop it"
            ) from err
        log.info("recovered %d live match(es)", count)
        count = await self.tournaments.recover()
        if count:
            log.info("recovered %d open tournament(s)", count)
        if self.settles_heap:
            collector.settle()

    async def close(self) -> None:
        if self._checking is not None:
            self._checking.cancel()
        await self.tournaments.close()
        await self.surfaces.close()
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

    async def show_hand(self, interaction: discord.Interaction, match_id: int) -> None:
        m, state = await self.matches.get(match_id)
        seat = self.matches.seat_of(m, interaction.user.id)
        if seat is None and owned_seat(m, interaction.user.id) is not None:  # they resigned
            await self.reply_error(interaction, "error.left_game")
        elif seat is None:
            await self.reply_error(interaction, "error.not_in_match")
        elif state is None:
            await self.reply_error(interaction, "error.hand_lobby")
        elif UIS[m.game].private is None:
            await self.reply_error(interaction, "error.no_hand")
        else:
            await self.surfaces.open_panel(interaction, m, state, seat)

    is_moderator = staticmethod(is_moderator)

    async def _replay_step(self, interaction: discord.Interaction, match_id: int, step: int) -> None:
        await replay_viewer.show(self.matches, interaction, match_id, step, edit=True)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        interaction = args[0] if event_name == "interaction" else None
        if interaction is not None and interaction.type is discord.InteractionType.component:
            self.router.clicks.arrived(interaction)  # as discord.py parses it: the earliest it can be
        super().dispatch(event_name, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        await self.router.on_interaction(interaction)

    # ---- channels that disappear ----------------------------------------------------------------

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.matches.close_channel(channel.id)
        await self.tournaments.close_channel(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.matches.close_channel(payload.thread_id)

    async def on_ready(self) -> None:
        """Once connected: decode each live match once in the background (broken ones are set aside
        and said so), and close live matches whose channel was deleted while the bot was away (this
        process's own). Clicks are answered meanwhile: start-up itself decoded nothing."""
        if self._checking is None:
            self._checking = asyncio.get_running_loop().create_task(self.matches.check_live())
        for m in await self.store.live_entries():
            if not self.owns(m.guild_id) or self.get_channel(m.channel_id) is not None:
                continue
            try:
                await self.fetch_channel(m.channel_id)
            except discord.NotFound:
                await self.matches.close_gone(m.id)
                log.info("match %s closed: its channel is gone", m.id)
            except discord.HTTPException:
                pass  # no access right now is not proof that it is gone

    def _heard(self, signal: Signal) -> None:
        """What the engine tells: a commit (every surface follows), a timer held, a match set aside."""
        if isinstance(signal, Committing):
            self.surfaces.committing(signal.match, signal.state)
        elif isinstance(signal, Committed):
            self.surfaces.following.committed(signal.match_id)
        elif isinstance(signal, TimerHeld):
            self.surfaces.held.update(signal.match_id, signal.held)
        elif isinstance(signal, SetAside) and signal.channel_id is not None:
            task = asyncio.get_running_loop().create_task(self._broken(signal.channel_id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _broken(self, channel_id: int) -> None:
        """A stored match that cannot be decoded was set aside: say so in its channel."""
        text = translator(None)("match.set_aside")
        with contextlib.suppress(discord.HTTPException):
            await self.get_partial_messageable(channel_id).send(text)


create_bot = GameBot  # the name the entry point, the tests and the tools build the bot by
