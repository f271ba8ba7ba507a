"""``./run backup FILE`` (``python -m bot.backup``) for both backends.

SQLite: a copy that opens and holds what the live file held, taken while a bot holds the file.
PostgreSQL: pg_dump's archive restored with the printed pg_restore command into a fresh database
holds the same rows. That test uses the session's PostgreSQL server (tests/conftest.py: a throwaway
one, or ``TEST_POSTGRES_URL``); without PostgreSQL it is skipped, except under ``CI``, where that is
a failure. The tests that need no server (pg_dump missing, server unreachable, redaction) always run.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from bot.backup import redact, split_password
from engine.store.open import open_store

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "s3cr:et@pw/x"  # percent-encoded in URLs below: every character that needs it
QUOTED = "s3cr%3Aet%40pw%2Fx"


def run_backup(target, cwd, **env_vars):
    """The command ./run backup execs, in a folder without a .env, with exactly these settings."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATABASE_PATH", "PGPASSWORD")}
    env.update(PYTHONPATH=str(ROOT), **env_vars)
    return subprocess.run(
        [sys.executable, "-m", "bot.backup", str(target)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---- SQLite --------------------------------------------------------------------------------------


async def make_sqlite_database(path):
    """A store file as the bot leaves it, plus a table of our own holding rows to find in the copy."""
    store = open_store(str(path))
    await store.open()
    await store.close()
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE probe (id INTEGER PRIMARY KEY, word TEXT)")
    db.executemany("INSERT INTO probe (word) VALUES (?)", [("ugah",), ("uonga",), ("mammoth 🦣",)])
    db.commit()
    db.close()


def sqlite_contents(path):
    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {
            "user_version": db.execute("PRAGMA user_version").fetchone()[0],
            "tables": tables,
            "probe": db.execute("SELECT id, word FROM probe ORDER BY id").fetchall(),
        }
    finally:
        db.close()


async def test_sqlite_backup_is_a_readable_copy_of_the_store(tmp_path):
    source, target = tmp_path / "live.db", tmp_path / "copy.db"
    await make_sqlite_database(source)
    result = run_backup(target, tmp_path, DATABASE_PATH=str(source))
    assert result.returncode == 0, result.stderr
    assert "SQLite online backup" in result.stdout
    assert sqlite_contents(target) == sqlite_contents(source)
    assert sqlite_contents(target)["probe"][2] == (3, "mammoth 🦣")
    assert target.stat().st_mode & 0o077 == 0, "a backup holds every match: owner only"
    assert sorted(p.name for p in tmp_path.iterdir() if "partial" in p.name) == []


async def test_sqlite_backup_while_a_bot_holds_the_database(tmp_path):
    """The bot takes an exclusive instance lock on its file; the backup must not need it."""
    source, target = tmp_path / "live.db", tmp_path / "copy.db"
    await make_sqlite_database(source)
    bot_store = open_store(str(source))  # exclusive, as the running bot opens it
    await bot_store.open()
    try:
        result = run_backup(target, tmp_path, DATABASE_PATH=str(source))
    finally:
        await bot_store.close()
    assert result.returncode == 0, result.stderr
    assert sqlite_contents(target)["probe"] == sqlite_contents(source)["probe"]


def test_sqlite_backup_of_a_missing_database_says_so(tmp_path):
    result = run_backup(tmp_path / "copy.db", tmp_path, DATABASE_PATH=str(tmp_path / "nothing.db"))
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"error: no database at {tmp_path / 'nothing.db'} (DATABASE_PATH)"
    ]
    assert list(tmp_path.iterdir()) == []


async def test_sqlite_backup_finds_the_database_of_an_install_from_before_the_rename(tmp_path):
    """DATABASE_PATH unset: data/stoneage.db, or an older install's data/ugah.db, copied where it is
    (the bot renames it at its next start, not the backup)."""
    (tmp_path / "data").mkdir()
    await make_sqlite_database(tmp_path / "data" / "ugah.db")
    result = run_backup(tmp_path / "copy.db", tmp_path)
    assert result.returncode == 0, result.stderr
    assert "data/ugah.db -> " in result.stdout
    assert sqlite_contents(tmp_path / "copy.db") == sqlite_contents(tmp_path / "data" / "ugah.db")
    assert "stoneage.db" not in " ".join(p.name for p in (tmp_path / "data").iterdir())
    (tmp_path / "data" / "ugah.db").rename(tmp_path / "data" / "stoneage.db")
    result = run_backup(tmp_path / "copy2.db", tmp_path)
    assert result.returncode == 0 and "data/stoneage.db -> " in result.stdout, result.stderr


def test_sqlite_backup_without_any_database_names_the_default(tmp_path):
    result = run_backup(tmp_path / "copy.db", tmp_path)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == ["error: no database at data/stoneage.db (DATABASE_PATH)"]


async def test_a_failed_backup_leaves_an_existing_target_alone(tmp_path):
    target = tmp_path / "copy.db"
    target.write_text("yesterday's backup")
    (tmp_path / "live.db").write_bytes(b"not a database" * 100)
    result = run_backup(target, tmp_path, DATABASE_PATH=str(tmp_path / "live.db"))
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert target.read_text() == "yesterday's backup"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["copy.db", "live.db"], "no partial copy left"


# ---- PostgreSQL without a server -------------------------------------------------------------------


def test_redaction_hides_the_password_wherever_it_is():
    url = f"postgresql://stoneage:{QUOTED}@db:5432/stoneage?sslmode=require"
    assert redact(url) == "postgresql://stoneage:***@db:5432/stoneage?sslmode=require"
    assert split_password(url) == ("postgresql://stoneage@db:5432/stoneage?sslmode=require", PASSWORD)
    in_query = f"postgres://stoneage@h1:5432,h2:5433/stoneage?password={QUOTED}&application_name=bot"
    assert (
        redact(in_query) == "postgres://stoneage@h1:5432,h2:5433/stoneage?password=***&application_name=bot"
    )
    assert split_password(in_query) == (
        "postgres://stoneage@h1:5432,h2:5433/stoneage?application_name=bot",
        PASSWORD,
    )
    assert split_password("postgresql://stoneage@db/stoneage") == ("postgresql://stoneage@db/stoneage", None)
    assert (
        redact("postgresql:///stoneage?host=/run/postgresql") == "postgresql:///stoneage?host=/run/postgresql"
    )


def test_postgres_backup_without_pg_dump_names_the_package(tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    url = f"postgresql://stoneage:{QUOTED}@127.0.0.1:1/stoneage"
    result = run_backup(tmp_path / "stoneage.dump", tmp_path, DATABASE_URL=url, PATH=str(empty))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: pg_dump not found"), result.stderr
    assert "postgresql-client" in lines[0]
    assert PASSWORD not in result.stdout + result.stderr and QUOTED not in result.stdout + result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin"]


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
def test_postgres_backup_of_an_unreachable_server_fails_in_one_line_without_the_password(tmp_path):
    url = f"postgresql://stoneage:{QUOTED}@127.0.0.1:1/stoneage?connect_timeout=5"
    result = run_backup(tmp_path / "stoneage.dump", tmp_path, DATABASE_URL=url)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "error: pg_dump failed for postgresql://stoneage:***@127.0.0.1:1/"
    )
    assert PASSWORD not in result.stdout + result.stderr and QUOTED not in result.stdout + result.stderr
    assert list(tmp_path.iterdir()) == [], "no partial dump left behind"


def test_a_database_url_that_is_not_postgres_is_refused(tmp_path):
    result = run_backup(tmp_path / "x", tmp_path, DATABASE_URL="mysql://root:hunter2@db/ugah")
    assert result.returncode == 1
    assert "hunter2" not in result.stderr and "must start with postgresql://" in result.stderr


# ---- PostgreSQL with a server (the session's: tests/conftest.py postgres_url) --------------------------


def with_database(url, name):
    """The same server and role, another database (``postgresql:///db?host=/socket`` kept as it is)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}/{name}" + (f"?{parts.query}" if parts.query else "")


async def table_rows(url):
    import asyncpg

    db = await asyncpg.connect(url)
    try:
        rows = await db.fetch("SELECT id, word, data, at, raw FROM probe ORDER BY id")
        return [tuple(r) for r in rows]
    finally:
        await db.close()


async def test_postgres_backup_restores_into_a_fresh_database(postgres_url, tmp_path):
    import asyncpg

    suffix = uuid.uuid4().hex[:10]
    source_name, copy_name = f"ugah_backup_src_{suffix}", f"ugah_backup_copy_{suffix}"
    admin = await asyncpg.connect(postgres_url)
    try:
        await admin.execute(f'CREATE DATABASE "{source_name}"')
        await admin.execute(f'CREATE DATABASE "{copy_name}"')
        source_url, copy_url = (
            with_database(postgres_url, source_name),
            with_database(postgres_url, copy_name),
        )
        src = await asyncpg.connect(source_url)
        try:
            await src.execute(
                "CREATE TABLE probe (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, word text NOT NULL,"
                " data jsonb, at timestamptz, raw bytea)"
            )
            await src.executemany(
                "INSERT INTO probe (word, data, at, raw) VALUES ($1, $2::jsonb, now(), $3)",
                [
                    ("ugah", '{"seats": [1, 2]}', b"\x00\x01"),
                    ("mammoth 🦣", "null", None),
                    ("x" * 5000, None, b""),
                ],
            )
        finally:
            await src.close()

        target = tmp_path / "stoneage.dump"
        result = run_backup(target, tmp_path, DATABASE_URL=source_url)
        assert result.returncode == 0, result.stderr
        password = split_password(postgres_url)[1]
        if password:
            assert password not in result.stdout + result.stderr
        assert target.stat().st_mode & 0o077 == 0
        assert target.read_bytes()[:5] == b"PGDMP", "pg_dump's custom format"

        # the restore command exactly as printed, pointed at the fresh database
        printed = [
            line.strip() for line in result.stdout.splitlines() if line.strip().startswith("pg_restore ")
        ]
        assert len(printed) == 1, result.stdout
        command = shlex.split(printed[0])
        command[command.index("--dbname") + 1] = split_password(copy_url)[0]
        env = dict(os.environ)
        if password:
            env["PGPASSWORD"] = password
        restored = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert restored.returncode == 0, restored.stderr

        assert await table_rows(copy_url) == await table_rows(source_url)
        assert len(await table_rows(copy_url)) == 3
        copy = await asyncpg.connect(copy_url)
        try:  # the identity sequence came along: the next row continues the numbering
            assert await copy.fetchval("INSERT INTO probe (word) VALUES ('next') RETURNING id") == 4
        finally:
            await copy.close()
    finally:
        for name in (source_name, copy_name):
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
