"""``python -m bot``: run the bot with settings from the environment or .env."""

from __future__ import annotations

import logging
import sys

import discord

from bot.client import create_bot
from bot.settings import SettingsError, load_settings
from engine.store import StoreError


def main() -> int:
    try:
        settings = load_settings()
    except SettingsError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=logging.INFO)
    bot = create_bot(
        settings.database_path, turn_seconds=settings.turn_seconds, dev_guild_id=settings.dev_guild_id
    )
    try:
        bot.run(settings.token, log_handler=None)
    except StoreError as err:
        print(f"error: database unusable: {err}", file=sys.stderr)
        return 2
    except discord.LoginFailure:
        print(
            "error: Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal.",
            file=sys.stderr,
        )
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
