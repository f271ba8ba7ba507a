"""The one list of migrations on both backends: the addresses an earlier version kept in a match and
its seats move into the surfaces table (migration 7), and a state stored in an envelope this bot does
not know is refused, not misread."""

from __future__ import annotations

import json
import sqlite3

import asyncpg
import pytest

from engine.store import MatchRow, SeatInfo
from engine.store.base import Store
from engine.store.migrations import MIGRATIONS
from engine.store.postgres import PostgresStore
from engine.store.sqlite import SqliteStore

BEFORE_ADDRESSES_MOVED = 6  # the schema whose rows still carry message_id and seats' dm, dm_message

SEATS_1 = [
    {"user_id": 100, "name": "alice", "ai": False, "away": False, "dm": 500, "dm_message": 501},
    {"user_id": 101, "name": "bob", "dm": 0},  # closed DMs: plays through the panel
    {"user_id": None, "name": "Computer", "ai": True, "level": "normal"},
]
SEATS_2 = [{"user_id": 102, "name": "carol", "dm": 700, "dm_message": 701}]
ROWS = [
    "INSERT INTO matches (id, game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, "
    f"options, state, meta, created, updated) VALUES (1, 'ugah', 1, 10, 55, 100, 'active', 3, 7, "
    f"'{json.dumps(SEATS_1)}', '{{}}', NULL, '{{}}', 0, 0)",
    "INSERT INTO matches (id, game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, "
    f"options, state, meta, created, updated) VALUES (2, 'ugah', 1, 11, 66, 102, 'finished', 4, 7, "
    f"'{json.dumps(SEATS_2)}', '{{}}', NULL, '{{}}', 0, 0)",
    # a row that cannot be decoded: the migration leaves it be (the engine sets it aside when read)
    "INSERT INTO matches (id, game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, "
    "options, state, meta, created, updated) VALUES (3, 'ugah', 1, 12, NULL, 102, 'finished', 4, 7, "
    """'[{"dm": 1', '{}', NULL, '{}', 0, 0)""",
    # match 2's addresses were written to the surfaces table since: those are newer, and kept
    "INSERT INTO surfaces VALUES (2, 'board', -1, 11, 77, NULL, 5, 9.5)",
    "INSERT INTO surfaces VALUES (2, 'dm', 0, 800, 801, NULL, 3, 8.5)",
]


async def schema_6_database(new_store, name: str, request) -> Store:
    """An unopened store on a database as schema 6 left it, holding the old addresses of ROWS."""
    store = new_store(name)
    if isinstance(store, SqliteStore):
        db = sqlite3.connect(store.path)
        for migration in MIGRATIONS[:BEFORE_ADDRESSES_MOVED]:
            db.executescript(migration.script("sqlite"))
        for sql in ROWS:
            db.execute(sql)
        db.execute(f"PRAGMA user_version={BEFORE_ADDRESSES_MOVED}")
        db.commit()
        db.close()
        return store
    assert isinstance(store, PostgresStore)
    conn = await asyncpg.connect(request.getfixturevalue("postgres_url"))
    try:
        await conn.execute(f'CREATE SCHEMA "{store.schema}"; SET search_path TO "{store.schema}"')
        for migration in MIGRATIONS[:BEFORE_ADDRESSES_MOVED]:
            await conn.execute(migration.script("postgres"))
        for sql in ROWS:
            await conn.execute(sql)
        await conn.execute(
            f"CREATE TABLE schema_version (version INTEGER NOT NULL); "
            f"INSERT INTO schema_version VALUES ({BEFORE_ADDRESSES_MOVED})"
        )
    finally:
        await conn.close()
    return store


def addresses(rows) -> list[tuple]:
    return sorted((r.kind, r.seat, r.channel_id, r.message_id, r.version) for r in rows)


async def test_old_addresses_move_into_the_surfaces_table(new_store, request):
    store = await schema_6_database(new_store, "old.db", request)
    await store.open()
    try:
        assert await store.schema_version() == len(MIGRATIONS)
        m = await store.get(1)
        assert m is not None and [s.name for s in m.seats] == ["alice", "bob", "Computer"]
        assert m.seats[2].level == "normal" and not m.seats[0].away
        assert addresses(await store.surfaces(1)) == [
            ("board", -1, 10, 55, 0),  # as the bot read it from the match (no version of its own)
            ("dm", 0, 500, 501, 0),
            ("dm", 1, 0, None, 0),  # closed DMs stay known as closed
        ]
        # the table's own rows were the newer, and the ones read: kept as they were
        assert addresses(await store.surfaces(2)) == [("board", -1, 11, 77, 5), ("dm", 0, 800, 801, 3)]
        assert (await store.get(2)) is not None
        seats = {r[0]: r[1] for r in await store._fetch("SELECT id, seats FROM matches")}
        assert '"dm' not in seats[1] and '"dm' not in seats[2], "the seat records lost the old fields"
        assert seats[3] == '[{"dm": 1', "a row that cannot be decoded is left as it was"
        with pytest.raises(Exception, match="message_id"):
            await store._fetch("SELECT message_id FROM matches")
    finally:
        await store.close()


async def test_a_state_in_an_unknown_envelope_is_refused_not_misread(backend, new_store):
    store = new_store("m.db")
    await store.open()
    try:
        m = MatchRow(0, "ugah", 1, 10, 100, "active", 1, 7, [SeatInfo(100, "alice")], {}, {"x": 1})
        await store.create(m, 0.0)
        assert (await store.get(m.id)).state == {"x": 1}  # type: ignore[union-attr]
        newer = json.dumps({"schema": 2, "game": "ugah", "state": {"x": 1}})
        await store._write(lambda db: db.execute("UPDATE matches SET state=? WHERE id=?", newer, m.id))
        with pytest.raises(ValueError, match="envelope 2"):
            await store.get(m.id)
        assert await store.get_many([m.id]) == {m.id: None}, "start-up sets it aside as undecodable"
    finally:
        await store.close()
