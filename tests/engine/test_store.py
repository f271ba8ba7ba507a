"""Storage: stepwise migrations from the first schema, integrity check at start-up."""

from __future__ import annotations

import json
import sqlite3

import pytest

from engine.store import StoreError
from engine.store.migrations import MIGRATIONS
from engine.store.sqlite import SqliteStore as Store


def write_first_schema_database(path: str) -> None:
    """A database exactly as schema version 1 wrote it, with one live match in it."""
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[0].script("sqlite") + "\nPRAGMA user_version=1;")
    db.execute(
        "INSERT INTO matches (game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, "
        "options, state, meta, deadline, created, updated) VALUES ('ugah', 1, 10, 55, 100, 'lobby', 1, 7, ?, "
        "'{}', NULL, '{}', NULL, 0, 0)",
        (json.dumps([{"user_id": 100, "name": "alice", "ai": False, "away": False}]),),
    )
    db.commit()
    db.close()


async def test_migrates_a_first_schema_database_and_keeps_its_matches(tmp_path):
    path = str(tmp_path / "v1.db")
    write_first_schema_database(path)
    store = Store(path)
    await store.open()
    try:
        assert await store.schema_version() == len(MIGRATIONS) > 1
        m = await store.live_in_channel(10)
        assert m is not None and m.seats[0].name == "alice"
        # migration 6: the board posted by an earlier version is a surface address now (its buttons work)
        rows = await store.surfaces(m.id)
        assert [(r.kind, r.seat, r.channel_id, r.message_id) for r in rows] == [("board", -1, 10, 55)]
        indexes = {
            r[0] for r in await store.db.execute_fetchall("SELECT name FROM sqlite_master WHERE type='index'")
        }
        assert "matches_by_status" in indexes
    finally:
        await store.close()


async def test_opening_twice_applies_nothing_again(tmp_path):
    path = str(tmp_path / "x.db")
    for _ in range(2):
        store = Store(path)
        await store.open()
        assert await store.schema_version() == len(MIGRATIONS)
        await store.close()


async def test_a_corrupt_database_is_refused_at_start_up(tmp_path):
    path = tmp_path / "bad.db"
    path.write_bytes(b"this is not a database" * 100)
    store = Store(str(path))
    with pytest.raises(StoreError, match="restore a backup"):
        await store.open()
    await store.close()


def test_backup_command_copies_the_live_database(tmp_path):
    import os
    import subprocess
    import sys

    source, target = tmp_path / "live.db", tmp_path / "copy.db"
    write_first_schema_database(str(source))
    env = {**os.environ, "DATABASE_PATH": str(source), "PYTHONPATH": os.getcwd()}
    result = subprocess.run(
        [sys.executable, "-m", "bot.backup", str(target)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    db = sqlite3.connect(target)
    assert db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    db.close()
