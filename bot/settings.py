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
    database_url: str | None = None  # postgresql://...: several processes share it
    shard_count: int | None = None  # None: as many shards as Discord advises, all in this process
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)

    @property
    def database(self) -> str:
        return self.database_url or self.database_path

    def __repr__(self) -> str:  # keep the token (and the database password) out of logs and tracebacks
        return (
            f"Settings(database_path={self.database_path!r}, postgres={self.database_url is not None}, "
            f"shards={self.shard_ids}/{self.shard_count}, dev_guild_id={self.dev_guild_id})"
        )


def _shards(count_text: str, ids_text: str, shared: bool) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT and SHARD_IDS ("0,1"); a process running only some shards needs a database the
    others share, and shard 0 somewhere (it receives every direct-message click)."""
    if not count_text:
        if ids_text:
            raise SettingsError("SHARD_IDS needs SHARD_COUNT (the total number of shards) too.")
        return None, None
    if not count_text.isdigit() or not 1 <= int(count_text) <= 4096:
        raise SettingsError("SHARD_COUNT must be a whole number from 1 to 4096.")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [p.strip() for p in ids_text.split(",") if p.strip()]
    if not parts or not all(p.isdigit() and int(p) < count for p in parts) or len(set(parts)) != len(parts):
        raise SettingsError(f"SHARD_IDS must list distinct shard numbers from 0 to {count - 1}, e.g. 0,1.")
    ids = tuple(sorted(int(p) for p in parts))
    if len(ids) < count and not shared:
        raise SettingsError(
            "running only some shards (SHARD_IDS) means several processes, and they must share one "
            "database: set DATABASE_URL=postgresql://... (SQLite serves one process)."
        )
    return count, ids


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
    url = os.environ.get("DATABASE_URL", "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise SettingsError("DATABASE_URL must be a postgresql://user:password@host:port/database URL.")
    shard_count, shard_ids = _shards(
        os.environ.get("SHARD_COUNT", "").strip(), os.environ.get("SHARD_IDS", "").strip(), url is not None
    )
    return Settings(
        token=token,
        database_url=url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or "data/ugah.db",
        dev_guild_id=int(guild) if guild else None,
        turn_seconds=int(seconds),
    )
