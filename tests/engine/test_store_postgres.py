"""PostgreSQL's own side of the store: the same numbered migrations (from an older schema too), a
newer schema refused, processes starting at once, a stale writer refused by the database itself, and
notifications of other processes' commits. The shared queries run against it in every engine test
(tests/engine/conftest.py runs them on both backends)."""

from __future__ import annotations

import asyncio
import json

import asyncpg
import pytest

from engine.meta import MatchMeta
from engine.store import ChannelTaken, MatchRow, SeatInfo, StoreError, WriteConflict
from engine.store.migrations import MIGRATIONS, SCHEMA_VERSION
from engine.store.open import open_store
from engine.store.postgres import MIGRATION_LOCK, NOTIFY_CHANNEL, PostgresStore, redact


def a_match(channel: int = 10) -> MatchRow:
    return MatchRow(0, "ugah", 1, channel, 100, "lobby", 1, 2**62 + 5, [SeatInfo(100, "alice")],
                    {}, None, MatchMeta(), {"lobby:": 5.0}, 1)  # fmt: skip


async def raw(url: str, schema: str) -> asyncpg.Connection:
    conn = await asyncpg.connect(url)
    await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"; SET search_path TO "{schema}"')
    return conn


def test_every_migration_has_a_script_for_both_backends():
    assert len(MIGRATIONS) == SCHEMA_VERSION >= 7
    for migration in MIGRATIONS:
        assert migration.script("sqlite").strip() and migration.script("postgres").strip()


async def test_migrates_a_first_schema_database_and_keeps_its_matches(postgres_url, pg_schema):
    conn = await raw(postgres_url, pg_schema)
    await conn.execute(MIGRATIONS[0].script("postgres"))
    await conn.execute(
        "CREATE TABLE schema_version (version INTEGER NOT NULL); INSERT INTO schema_version VALUES (1)"
    )
    await conn.execute(
        "INSERT INTO matches (game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, "
        "options, state, meta, deadline, created, updated) VALUES ('ugah', 1, 10, 55, 100, 'active', 3, 7, $1, "
        "'{}', NULL, '{}', 1234.5, 0, 0)",
        json.dumps([{"user_id": 100, "name": "alice", "ai": False, "away": False}]),
    )
    await conn.close()
    store = PostgresStore(postgres_url, schema=pg_schema)
    await store.open()
    try:
        assert await store.schema_version() == SCHEMA_VERSION
        m = await store.live_in_channel(10)
        assert m is not None and m.seats[0].name == "alice"
        assert m.timers == {"turn:": 1234.5} and m.public_version == 3, "migration 3 moved the deadline"
        rows = await store.surfaces(m.id)  # migration 6: the board is a surface address
        assert [(r.kind, r.channel_id, r.message_id) for r in rows] == [("board", 10, 55)]
    finally:
        await store.close()


async def test_a_newer_schema_is_refused(postgres_url, pg_schema):
    store = PostgresStore(postgres_url, schema=pg_schema)
    await store.open()
    await store.close()
    conn = await raw(postgres_url, pg_schema)
    await conn.execute("UPDATE schema_version SET version = $1", SCHEMA_VERSION + 1)
    await conn.close()
    with pytest.raises(StoreError, match="newer than this bot"):
        await PostgresStore(postgres_url, schema=pg_schema).open()


async def test_processes_starting_at_once_migrate_once(postgres_url, pg_schema):
    stores = [PostgresStore(postgres_url, schema=pg_schema, pool_size=2) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    try:
        assert [await s.schema_version() for s in stores] == [SCHEMA_VERSION] * 4
    finally:
        for s in stores:
            await s.close()


async def test_a_stale_writer_in_another_process_is_refused_by_the_database(postgres_url, pg_schema):
    one, two = (PostgresStore(postgres_url, schema=pg_schema) for _ in range(2))
    await one.open()
    await two.open()
    try:
        m = await one.create(a_match(), 1.0)
        with pytest.raises(ChannelTaken):
            await two.create(a_match(), 1.0)  # the partial unique index: one live match per channel
        mine, theirs = await one.get(m.id), await two.get(m.id)
        mine.version = theirs.version = 2
        results = await asyncio.gather(one.commit(mine, [], 2.0, 1), two.commit(theirs, [], 2.0, 1),
                                       return_exceptions=True)  # fmt: skip
        assert sorted(type(r).__name__ for r in results) == ["NoneType", "WriteConflict"]
        with pytest.raises(WriteConflict):
            await one.commit(mine, [], 3.0, 1)
    finally:
        await one.close()
        await two.close()


async def test_other_processes_hear_each_commit(postgres_url, pg_schema):
    one, two = (PostgresStore(postgres_url, schema=pg_schema) for _ in range(2))
    await one.open()
    await two.open()
    heard: list[tuple[int, int, int | None]] = []
    await two.listen(lambda mid, version, guild: heard.append((mid, version, guild)))
    try:
        m = await one.create(a_match(), 1.0)
        m.version = 2
        await one.commit(m, [], 2.0, 1)
        for _ in range(200):
            if len(heard) >= 2:
                break
            await asyncio.sleep(0.01)
        assert heard == [(m.id, 1, 1), (m.id, 2, 1)]
    finally:
        await one.close()
        await two.close()


async def test_the_names_processes_share_come_from_the_settings(postgres_url, pg_schema):
    """NOTIFY channel and migration lock: the new defaults, else what the caller passes (the bot:
    PG_NOTIFY_CHANNEL / PG_MIGRATION_LOCK, read by bot.settings); the schema suffix stays."""
    plain = PostgresStore(postgres_url)
    assert (plain.notify_channel, plain.migration_lock) == ("stoneage_matches", 0x5354_4F4E)
    assert (NOTIFY_CHANNEL, MIGRATION_LOCK) == ("stoneage_matches", 0x5354_4F4E)
    # old and new processes side by side
    legacy = open_store(postgres_url, notify_channel="ugah_matches", migration_lock=0x5547_4148)
    assert (legacy.notify_channel, legacy.migration_lock) == ("ugah_matches", 0x5547_4148)
    assert open_store(postgres_url, notify_channel="games").notify_channel == "games", "the caller wins"
    ear, one = (
        PostgresStore(postgres_url, schema=pg_schema, notify_channel="ugah_matches") for _ in range(2)
    )
    two = PostgresStore(postgres_url, schema=pg_schema, notify_channel="games")
    for store in (ear, one, two):
        await store.open()
    heard: list[tuple[int, int, int | None]] = []
    await ear.listen(lambda mid, version, guild: heard.append((mid, version, guild)))
    try:
        assert (one._channel, two._channel) == (f"ugah_matches_{pg_schema}", f"games_{pg_schema}")
        await two.create(a_match(), 1.0)  # on another channel: not heard
        m = await one.create(a_match(11), 1.0)
        for _ in range(200):
            if heard:
                break
            await asyncio.sleep(0.01)
        assert heard == [(m.id, 1, 1)]
    finally:
        for store in (ear, one, two):
            await store.close()


async def test_an_unreachable_server_is_one_line_without_the_password():
    store = PostgresStore("postgresql://stoneage:s3cret@127.0.0.1:1/stoneage")
    with pytest.raises(StoreError) as err:
        await store.open()
    assert "s3cret" not in str(err.value) and "***" in str(err.value) and "\n" not in str(err.value)
    assert redact("postgresql://u:p@h/d") == "postgresql://u:***@h/d"
