"""Settings from the environment or a ``.env`` file. The token is never logged or echoed."""

from __future__ import annotations

import contextlib
import fcntl
import logging
import os
import re
from dataclasses import dataclass
from typing import TypedDict

from dotenv import load_dotenv

from engine.options import TURN_SECONDS

# Three dot-separated base64url parts; a loose check that catches empty/placeholder values early.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
# A PostgreSQL NOTIFY channel: a plain identifier, short enough for the "_<schema>" suffix tests add.
_CHANNEL_SHAPE = re.compile(r"^[a-z_][a-z0-9_]{0,39}$")

DEFAULT_DATABASE_PATH = "data/stoneage.db"
LEGACY_DATABASE_PATH = "data/ugah.db"  # the default before the project was named for all four games
_SIDE_FILES = ("-wal", "-shm")  # SQLite's companions of a database file: they move with it

log = logging.getLogger(__name__)


class SettingsError(Exception):
    """A one-line, user-facing configuration problem (never contains the token)."""


class StoreOptions(TypedDict, total=False):
    """engine.store.open_store's keyword arguments the settings set (PostgreSQL only); one left out
    takes the store's own default."""

    pool_size: int
    notify_channel: str
    migration_lock: int


@dataclass(frozen=True)
class Settings:
    token: str
    database_path: str = DEFAULT_DATABASE_PATH
    dev_guild_id: int | None = None
    turn_seconds: int = TURN_SECONDS.default
    database_url: str | None = None  # postgresql://...: several processes share it
    shard_count: int | None = None  # None: as many shards as Discord advises, all in this process
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs (None: all)
    # PostgreSQL only; None: engine.store.postgres's defaults
    pg_notify_channel: str | None = None  # PG_NOTIFY_CHANNEL: where a commit tells the other processes
    pg_migration_lock: int | None = None  # PG_MIGRATION_LOCK: the advisory lock of start-up migrations
    database_pool_size: int | None = None  # DATABASE_POOL_SIZE: connections per process
    render_processes: bool = True  # RENDER_PROCESSES=0: draw in the render threads only (bot.render_pool)

    @property
    def database(self) -> str:
        return self.database_url or self.database_path

    def store_options(self) -> StoreOptions:
        """What open_store is given besides the database (only what is set)."""
        out = StoreOptions()
        if self.database_pool_size is not None:
            out["pool_size"] = self.database_pool_size
        if self.pg_notify_channel is not None:
            out["notify_channel"] = self.pg_notify_channel
        if self.pg_migration_lock is not None:
            out["migration_lock"] = self.pg_migration_lock
        return out

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
    seconds = os.environ.get("TURN_SECONDS", str(TURN_SECONDS.default)).strip()
    if guild and not guild.isdigit():
        raise SettingsError("DEV_GUILD_ID must be a server id (digits only) or empty.")
    if not seconds.isdigit() or not TURN_SECONDS.low <= int(seconds) <= TURN_SECONDS.high:
        raise SettingsError(
            f"TURN_SECONDS must be a whole number of seconds between {TURN_SECONDS.low} and {TURN_SECONDS.high}."
        )
    url = database_url() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise SettingsError("DATABASE_URL must be a postgresql://user:password@host:port/database URL.")
    channel = os.environ.get("PG_NOTIFY_CHANNEL", "").strip() or None
    if channel is not None and not _CHANNEL_SHAPE.match(channel):
        raise SettingsError(
            "PG_NOTIFY_CHANNEL must be lower-case letters, digits and _ (at most 40), e.g. stoneage_matches."
        )
    lock = _migration_lock(os.environ.get("PG_MIGRATION_LOCK", "").strip())
    pool = os.environ.get("DATABASE_POOL_SIZE", "").strip()
    if pool and (not pool.isdigit() or not 1 <= int(pool) <= 1000):
        raise SettingsError("DATABASE_POOL_SIZE must be a whole number of connections from 1 to 1000.")
    shard_count, shard_ids = _shards(
        os.environ.get("SHARD_COUNT", "").strip(), os.environ.get("SHARD_IDS", "").strip(), url is not None
    )
    return Settings(
        token=token,
        database_url=url,
        shard_count=shard_count,
        shard_ids=shard_ids,
        database_path=os.environ.get("DATABASE_PATH", "").strip() or DEFAULT_DATABASE_PATH,
        dev_guild_id=int(guild) if guild else None,
        turn_seconds=int(seconds),
        pg_notify_channel=channel,
        pg_migration_lock=lock,
        database_pool_size=int(pool) if pool else None,
        render_processes=os.environ.get("RENDER_PROCESSES", "").strip() != "0",
    )


def database_url(env_file: str | None = None) -> str:
    """DATABASE_URL as set ("" when unset), for the commands that need only the database (backup,
    solve times) and so no token; ``env_file`` is read first if given."""
    if env_file:
        load_dotenv(env_file, override=False)
    return os.environ.get("DATABASE_URL", "").strip()


def _migration_lock(text: str) -> int | None:
    """PG_MIGRATION_LOCK: a pg_advisory_xact_lock key, decimal or 0x hexadecimal (a bigint)."""
    if not text:
        return None
    try:
        key = int(text, 0)
    except ValueError:
        key = None
    if key is None or not -(2**63) <= key < 2**63:
        raise SettingsError("PG_MIGRATION_LOCK must be a whole number (a 64-bit key, e.g. 0x53544F4E).")
    return key


def resolve_database_path(*, move: bool) -> str:
    """The SQLite file: DATABASE_PATH when it is set (as it is), else data/stoneage.db. An install
    from before the rename has data/ugah.db instead: with ``move`` (the bot's start, before the store
    opens) it is renamed to the new default, its -wal and -shm along, in one log line; without
    (``./run backup``) it is only found. Renaming it can fail (a read-only folder, another bot instance
    running on it): then it is used where it is, in one log line too."""
    explicit = os.environ.get("DATABASE_PATH", "").strip()
    if explicit:
        return explicit
    new, old = DEFAULT_DATABASE_PATH, LEGACY_DATABASE_PATH
    if os.path.exists(new) or not os.path.exists(old):
        return new
    if not move:
        return old
    try:
        _rename_database(old, new)
    except BlockingIOError:
        log.warning("using the database %s where it is: another bot instance has it open", old)
        return old
    except OSError as err:
        log.warning("using the database %s where it is: cannot rename it to %s (%s)", old, new, err)
        return old
    log.info("renamed the database %s to %s, the new default name (DATABASE_PATH unset)", old, new)
    return new


def _rename_database(old: str, new: str) -> None:
    """Rename ``old`` and its side files to ``new``: side files first, the database last (an
    interruption leaves ``old`` to be renamed again at the next start), all undone if one fails. Not
    while a bot instance has ``old`` open (the lock file engine.store.sqlite holds: BlockingIOError)."""
    lock_path = f"{old}.lock"
    lock = open(lock_path) if os.path.exists(lock_path) else None  # noqa: SIM115 (closed below)
    try:
        if lock is not None:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        done: list[str] = []
        try:
            for suffix in (*_SIDE_FILES, ""):
                if os.path.exists(old + suffix):
                    os.replace(old + suffix, new + suffix)
                    done.append(suffix)
        except OSError:
            for suffix in reversed(done):
                with contextlib.suppress(OSError):
                    os.replace(new + suffix, old + suffix)
            raise
        if lock is not None:
            with contextlib.suppress(OSError):
                os.unlink(lock_path)  # the store makes data/stoneage.db.lock for itself
    finally:
        if lock is not None:
            lock.close()
