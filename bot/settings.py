"""Settings from the environment or a ``.env`` file. The token is never logged or echoed."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from dotenv import load_dotenv

# Three dot-separated base64url parts; a loose check that catches empty/placeholder values early.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")


class SettingsError(Exception):
    """A one-line, user-facing configuration problem (never contains the token)."""


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: str = "data/ugah.db"
    dev_guild_id: int | None = None
    turn_seconds: int = 120

    def __repr__(self) -> str:  # keep the token out of logs and tracebacks
        return f"Settings(database_path={self.database_path!r}, dev_guild_id={self.dev_guild_id})"


def load_settings(env_file: str | None = ".env") -> Settings:
    if env_file:
        load_dotenv(env_file, override=False)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise SettingsError("DISCORD_TOKEN is not set: put it in .env (see .env.example) or the environment.")
    if not _TOKEN_SHAPE.match(token):
        raise SettingsError(
            "DISCORD_TOKEN does not look like a bot token: copy it again from the Developer Portal."
        )
    guild = os.environ.get("DEV_GUILD_ID", "").strip()
    seconds = os.environ.get("TURN_SECONDS", "120").strip()
    if guild and not guild.isdigit():
        raise SettingsError("DEV_GUILD_ID must be a server id (digits only) or empty.")
    if not seconds.isdigit() or not 10 <= int(seconds) <= 86400:
        raise SettingsError("TURN_SECONDS must be a whole number of seconds between 10 and 86400.")
    return Settings(
        token=token,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or "data/ugah.db",
        dev_guild_id=int(guild) if guild else None,
        turn_seconds=int(seconds),
    )
