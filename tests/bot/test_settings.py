"""Start-up configuration: clear one-line errors, never a traceback, never the token."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys

import discord
import pytest

from bot import __main__ as entry
from bot.client import create_bot
from bot.settings import Settings, SettingsError, load_settings, resolve_database_path
from engine.store.sqlite import SqliteStore

FAKE = "FAKEtokenFORtestsONLYxyz12.GAbCdE.not-a-real-token-0123456789abcdefgh"  # not a real token shape


def run_bot(tmp_path, **env):
    full = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TURN_SECONDS", "DEV_GUILD_ID")}
    full.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env={**full, "PYTHONPATH": os.getcwd()},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("env", "expected"),
    [({}, "DISCORD_TOKEN is not set"), ({"DISCORD_TOKEN": "changeme"}, "does not look like a bot token"),
     ({"DISCORD_TOKEN": FAKE, "TURN_SECONDS": "soon"}, "TURN_SECONDS")],
)  # fmt: skip
def test_bad_configuration_exits_with_one_clear_line(tmp_path, env, expected):
    result = run_bot(tmp_path, **env)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and expected in result.stderr
    assert "Traceback" not in result.stderr and FAKE not in result.stderr + result.stdout


def test_settings_read_dotenv_and_hide_the_token(tmp_path, monkeypatch):
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "TURN_SECONDS"):
        monkeypatch.delenv(key, raising=False)
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={FAKE}\nDEV_GUILD_ID=123\nTURN_SECONDS=45\n")
    settings = load_settings(str(env_file))
    assert settings == Settings(FAKE, "data/stoneage.db", 123, 45)
    assert FAKE not in repr(settings) and FAKE not in str(settings)
    monkeypatch.setenv("DEV_GUILD_ID", "abc")
    with pytest.raises(SettingsError):
        load_settings(None)


@pytest.mark.parametrize(
    ("env", "expected"),
    [({"SHARD_IDS": "0"}, "needs SHARD_COUNT"), ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
     ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "from 0 to 1"),
     ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "DATABASE_URL"),  # part of the shards on SQLite
     ({"DATABASE_URL": "mysql://x"}, "postgresql://"),
     ({"PG_NOTIFY_CHANNEL": "Matches; DROP"}, "PG_NOTIFY_CHANNEL"), ({"PG_MIGRATION_LOCK": "soon"}, "PG_MIGRATION_LOCK"),
     ({"PG_MIGRATION_LOCK": str(2**63)}, "64-bit")],
)  # fmt: skip
def test_bad_shard_and_database_settings_are_one_clear_line(monkeypatch, env, expected):
    for key in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "PG_NOTIFY_CHANNEL", "PG_MIGRATION_LOCK"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=expected):
        load_settings(env_file=None)


def test_shards_of_several_processes_on_postgresql(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    monkeypatch.setenv("DATABASE_URL", "postgresql://stoneage:pw@db:5432/stoneage")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3, 1")
    for key in ("PG_NOTIFY_CHANNEL", "PG_MIGRATION_LOCK"):
        monkeypatch.delenv(key, raising=False)
    s = load_settings(env_file=None)
    assert (s.shard_count, s.shard_ids, s.database) == (
        4,
        (1, 3),
        "postgresql://stoneage:pw@db:5432/stoneage",
    )
    assert "pw" not in repr(s) and FAKE not in repr(s)
    assert (s.pg_notify_channel, s.pg_migration_lock) == (None, None), "the store's own defaults"
    # the names an install from before the rename used, for old and new processes side by side
    monkeypatch.setenv("PG_NOTIFY_CHANNEL", "ugah_matches")
    monkeypatch.setenv("PG_MIGRATION_LOCK", "0x55474148")
    s = load_settings(env_file=None)
    assert (s.pg_notify_channel, s.pg_migration_lock) == ("ugah_matches", 0x5547_4148)


def test_the_store_and_the_drawing_settings_reach_the_bot(monkeypatch):
    """DATABASE_POOL_SIZE, PG_NOTIFY_CHANNEL, PG_MIGRATION_LOCK: read here only, then given to the
    store the bot opens; unset, the store's own defaults. RENDER_PROCESSES=0: no drawing processes."""
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    for key in ("DATABASE_POOL_SIZE", "PG_NOTIFY_CHANNEL", "PG_MIGRATION_LOCK", "RENDER_PROCESSES"):
        monkeypatch.delenv(key, raising=False)
    s = load_settings(env_file=None)
    assert (s.store_options(), s.render_processes) == ({}, True)
    env = {"DATABASE_POOL_SIZE": "4", "PG_NOTIFY_CHANNEL": "ugah_matches", "PG_MIGRATION_LOCK": "0x55474148"}
    for key, value in {**env, "RENDER_PROCESSES": "0"}.items():
        monkeypatch.setenv(key, value)
    s = load_settings(env_file=None)
    options = s.store_options()
    assert options == {"pool_size": 4, "notify_channel": "ugah_matches", "migration_lock": 0x5547_4148}
    assert not s.render_processes
    store = create_bot("postgresql://u:pw@db/stoneage", store_options=options).store  # not opened
    assert (store.pool_size, store.notify_channel, store.migration_lock) == (4, "ugah_matches", 0x5547_4148)
    monkeypatch.setenv("DATABASE_POOL_SIZE", "0")
    with pytest.raises(SettingsError, match="DATABASE_POOL_SIZE"):
        load_settings(env_file=None)


# ---- the default database file, and the one of an install from before the rename ------------------


@pytest.fixture
def in_folder(tmp_path, monkeypatch, caplog):
    """A checkout without DATABASE_PATH: data/ relative to tmp_path; the settings' log captured."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_PATH", raising=False)
    caplog.set_level(logging.DEBUG, logger="bot.settings")
    (tmp_path / "data").mkdir()
    return tmp_path / "data"


def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def legacy_database_with_its_wal(data) -> None:
    """data/ugah.db as a bot stopped abruptly leaves it: the last rows still only in its -wal file."""
    live = data.parent / "live"
    live.mkdir()
    db = sqlite3.connect(live / "ugah.db")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE probe (word TEXT)")
    db.execute("INSERT INTO probe VALUES ('mammoth')")
    db.commit()
    for name in ("ugah.db", "ugah.db-wal", "ugah.db-shm"):
        shutil.copy(live / name, data / name)  # the files as they are while the connection is open
    db.close()
    (data / "ugah.db.lock").write_text("4242\n")  # the store's instance lock file, not held


def test_the_default_database_is_data_stoneage_db(in_folder, caplog):
    assert resolve_database_path(move=True) == "data/stoneage.db"
    assert names(in_folder) == [] and caplog.records == [], "nothing created, nothing said"


def test_a_legacy_database_moves_with_its_side_files_in_one_log_line(in_folder, caplog):
    legacy_database_with_its_wal(in_folder)
    assert resolve_database_path(move=True) == "data/stoneage.db"
    assert names(in_folder) == ["stoneage.db", "stoneage.db-shm", "stoneage.db-wal"]
    [record] = caplog.records
    assert record.levelno == logging.INFO
    assert "data/ugah.db" in record.getMessage() and "data/stoneage.db" in record.getMessage()
    db = sqlite3.connect(in_folder / "stoneage.db")
    assert db.execute("SELECT word FROM probe").fetchall() == [("mammoth",)], "the WAL moved along"
    db.close()


def test_when_both_exist_the_new_database_is_used(in_folder, caplog):
    (in_folder / "ugah.db").write_bytes(b"old")
    (in_folder / "stoneage.db").write_bytes(b"new")
    assert resolve_database_path(move=True) == "data/stoneage.db"
    assert names(in_folder) == ["stoneage.db", "ugah.db"] and caplog.records == []
    assert (in_folder / "ugah.db").read_bytes() == b"old", "the legacy file left alone"


def test_an_explicit_database_path_is_untouched(in_folder, caplog, monkeypatch):
    (in_folder / "ugah.db").write_bytes(b"old")
    monkeypatch.setenv("DATABASE_PATH", "data/mine.db")
    assert resolve_database_path(move=True) == "data/mine.db"
    monkeypatch.setenv("DATABASE_PATH", "data/ugah.db")  # the .env of an older install says so
    assert resolve_database_path(move=True) == "data/ugah.db"
    assert names(in_folder) == ["ugah.db"] and caplog.records == []


def test_backup_only_finds_the_legacy_database(in_folder, caplog):
    (in_folder / "ugah.db").write_bytes(b"old")
    assert resolve_database_path(move=False) == "data/ugah.db"
    assert names(in_folder) == ["ugah.db"] and caplog.records == []


def test_a_failed_move_is_undone_and_the_legacy_file_used_in_place(in_folder, caplog, monkeypatch):
    for name in ("ugah.db", "ugah.db-wal", "ugah.db-shm"):
        (in_folder / name).write_bytes(name.encode())
    real_replace = os.replace

    def replace(src, dst):
        if str(src) == "data/ugah.db":  # the side files went; the database itself cannot
            raise PermissionError(13, "Permission denied")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert resolve_database_path(move=True) == "data/ugah.db"
    assert names(in_folder) == ["ugah.db", "ugah.db-shm", "ugah.db-wal"], "the side files came back"
    assert all((in_folder / n).read_bytes() == n.encode() for n in names(in_folder))
    [record] = caplog.records
    assert record.levelno == logging.WARNING and "Permission denied" in record.getMessage()


async def test_a_legacy_database_in_use_by_a_running_bot_is_not_moved(in_folder, caplog):
    running = SqliteStore("data/ugah.db")  # an old bot instance still up: it holds data/ugah.db.lock
    await running.open()
    try:
        assert resolve_database_path(move=True) == "data/ugah.db"
    finally:
        await running.close()
    assert "stoneage.db" not in " ".join(names(in_folder))
    [record] = caplog.records
    assert "another bot instance" in record.getMessage()


def test_the_bot_moves_the_legacy_database_before_opening_it(in_folder, monkeypatch):
    """python -m bot on an install from before the rename: the store opens the renamed file."""
    legacy_database_with_its_wal(in_folder)
    for key in ("DATABASE_URL", "SHARD_COUNT", "SHARD_IDS"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    monkeypatch.setattr(discord.utils, "setup_logging", lambda **kw: None)
    opened = []
    monkeypatch.setattr(entry, "check_database", opened.append)
    monkeypatch.setattr("bot.client.GameBot.run", lambda self, token, **kw: None)
    assert entry.main() == 0
    assert opened == ["data/stoneage.db"]
    assert names(in_folder) == ["stoneage.db", "stoneage.db-shm", "stoneage.db-wal"]
