"""Start-up configuration: clear one-line errors, never a traceback, never the token."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from bot.settings import Settings, SettingsError, load_settings

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
    assert settings == Settings(FAKE, "data/ugah.db", 123, 45)
    assert FAKE not in repr(settings) and FAKE not in str(settings)
    monkeypatch.setenv("DEV_GUILD_ID", "abc")
    with pytest.raises(SettingsError):
        load_settings(None)


@pytest.mark.parametrize(
    ("env", "expected"),
    [({"SHARD_IDS": "0"}, "needs SHARD_COUNT"), ({"SHARD_COUNT": "0"}, "SHARD_COUNT must be"),
     ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2"}, "from 0 to 1"),
     ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "DATABASE_URL"),  # part of the shards on SQLite
     ({"DATABASE_URL": "mysql://x"}, "postgresql://")],
)  # fmt: skip
def test_bad_shard_and_database_settings_are_one_clear_line(monkeypatch, env, expected):
    for key in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with pytest.raises(SettingsError, match=expected):
        load_settings(env_file=None)


def test_shards_of_several_processes_on_postgresql(monkeypatch):
    monkeypatch.setenv("DISCORD_TOKEN", FAKE)
    monkeypatch.setenv("DATABASE_URL", "postgresql://ugah:pw@db:5432/ugah")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "3, 1")
    s = load_settings(env_file=None)
    assert (s.shard_count, s.shard_ids, s.database) == (4, (1, 3), "postgresql://ugah:pw@db:5432/ugah")
    assert "pw" not in repr(s) and FAKE not in repr(s)
