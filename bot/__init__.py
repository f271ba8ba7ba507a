"""Discord layer: client, cogs, buttons, presenter. Knows no game rules."""

from bot.client import GameBot, create_bot

__all__ = ["GameBot", "create_bot"]
