"""``python -m bot``: run the bot with settings from the environment or .env."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Unpack

import aiohttp
import discord

from bot import render_pool
from bot.client import create_bot
from bot.settings import SettingsError, StoreOptions, load_settings, resolve_database_path
from engine import collector, compute, cores
from engine.store import StoreError
from engine.store.open import open_store


def check_database(path: str, **options: Unpack[StoreOptions]) -> None:
    """Check the database before connecting to Discord, so that what stops the bot (a folder as the
    path, a folder that cannot be created, a file it cannot write, another instance, a newer
    schema, a PostgreSQL server that cannot be reached...) is said before anything else happens. Raises
    StoreError. A file that exists (or a server) is opened and closed again (migrating it); a new file
    is left for the bot to create (nothing is written here)."""
    target = Path(path)
    if path == ":memory:":
        return
    postgres = path.startswith(("postgresql://", "postgres://"))
    if not postgres and not target.exists():
        folder = target.parent
        while not folder.exists() and folder != folder.parent:
            folder = folder.parent
        if not folder.is_dir() or not os.access(folder, os.W_OK | os.X_OK):
            raise StoreError(
                f"{path}: cannot create it in {folder}: DATABASE_PATH must name a file in a folder "
                "the bot can create and write"
            )
        return

    async def probe() -> None:
        store = open_store(path, **options)
        try:
            await store.open()
        finally:
            await store.close()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(probe())
        return
    with ThreadPoolExecutor(max_workers=1) as alone:  # called from async code: its own loop
        alone.submit(asyncio.run, probe()).result()


def _database_error(err: StoreError) -> int:
    line = " ".join(str(err).split())  # one line, whatever the cause's text held
    print(f"error: database unusable: {line}", file=sys.stderr)
    return 2


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=logging.INFO)
    # this bot has no voice: discord.py's "PyNaCl/davey is not installed" warnings are noise
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if settings.database_url is None:  # an install from before the rename: data/ugah.db moves, once
        settings = dataclasses.replace(settings, database_path=resolve_database_path(move=True))
    if not settings.render_processes:  # only turned off: a test running main() keeps its own setting
        render_pool.PROCESSES = False
    try:
        check_database(settings.database, **settings.store_options())
    except StoreError as err:
        return _database_error(err)
    # a bot alone on its database (SQLite) keeps a core for its event loop (engine.cores); its
    # collections are far apart, and once started its start-up's objects are left out (engine.collector)
    pinned = settings.database_url is None and cores.pin_loop()
    thresholds = collector.tune()
    bot = create_bot(
        settings.database,
        turn_seconds=settings.turn_seconds,
        dev_guild_id=settings.dev_guild_id,
        shard_count=settings.shard_count,
        shard_ids=settings.shard_ids,
        store_options=settings.store_options(),
    )
    bot.stops_on_sigterm = bot.settles_heap = True
    try:
        return _run(bot, settings.token)
    finally:  # however the bot stopped, or failed to start: no drawing process or worker stays
        render_pool.shutdown()
        compute.shutdown()
        if pinned:  # (a bot stopped inside a longer-lived process, a test, gives all of it back)
            cores.unpin()
        collector.restore(thresholds)


def _run(bot: discord.Client, token: str) -> int:
    try:
        bot.run(token, log_handler=None)
    except asyncio.CancelledError:  # SIGTERM (GameBot.stops_on_sigterm): the bot has closed
        return 0
    except StoreError as err:  # raised in setup_hook; discord.py lets it out of run() as it is
        return _database_error(err)
    except discord.LoginFailure:
        print(
            "error: Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal.",
            file=sys.stderr,
        )
        return 2
    except (OSError, aiohttp.ClientError, discord.GatewayNotFound, discord.DiscordServerError) as err:
        print(f"error: cannot reach Discord ({err}): check the network and try again.", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "error: Discord refused a privileged intent; this bot needs none, please report it.",
            file=sys.stderr,
        )
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
