"""The schema, as ONE list of numbered migrations that both backends apply in order: SQLite (embedded,
the default) and PostgreSQL (several processes). Migration N is ``MIGRATIONS[N - 1]``; a database of
either kind at schema N holds the same tables and the same data. SQLite records the count in PRAGMA
user_version, PostgreSQL in the table schema_version.

A migration's SQL is written once, naming the few words the two dialects spell differently as
``$id``, ``$int64`` and ``$real`` (snowflakes and seeds are 64-bit: BIGINT in PostgreSQL, where
SQLite's INTEGER is 64-bit already); only where the SQL itself differs (a JSON function) does a
migration give each backend its own. Rows that SQL cannot rewrite in both dialects alike (JSON inside
a column) are rewritten in Python, through the same connection and transaction (``data``).
"""

from __future__ import annotations

import json
import string
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Literal

from engine.store.conn import Conn

Dialect = Literal["sqlite", "postgres"]

WORDS: dict[Dialect, dict[str, str]] = {
    "sqlite": {"id": "INTEGER PRIMARY KEY", "int64": "INTEGER", "real": "REAL"},
    "postgres": {"id": "BIGSERIAL PRIMARY KEY", "int64": "BIGINT", "real": "DOUBLE PRECISION"},
}


@dataclass(frozen=True)
class Migration:
    sql: str = ""  # both backends run it (with their WORDS) ...
    sqlite: str = ""  # ... or, where the SQL differs, each its own
    postgres: str = ""
    data: Callable[[Conn], Coroutine[Any, Any, None]] | None = None  # then rows rewritten in Python

    def script(self, dialect: Dialect) -> str:
        own = self.sqlite if dialect == "sqlite" else self.postgres
        return string.Template(self.sql + own).substitute(WORDS[dialect])


async def _addresses_out_of_seats(db: Conn) -> None:
    """Migration 7: a seat's DM address, kept in its seat record (``dm``, ``dm_message``) by versions
    before the surfaces table and read from there since, moves into the table (unless the table has
    one for that seat already: it was the newer, and the one read); the seat records lose the fields.
    A row whose seats cannot be decoded is left as it is (the engine sets it aside when it reads it)."""
    moved: list[tuple[Any, ...]] = []
    rewritten: list[tuple[Any, ...]] = []
    for match_id, text in await db.fetch("SELECT id, seats FROM matches WHERE seats LIKE ?", '%"dm%'):
        try:
            seats = json.loads(text)
            old = [(i, s.pop("dm", None), s.pop("dm_message", None)) for i, s in enumerate(seats)]
        except (ValueError, TypeError, AttributeError):
            continue
        moved += [(match_id, i, dm, message) for i, dm, message in old if dm is not None]
        if any(dm is not None or message is not None for _, dm, message in old):
            rewritten.append((json.dumps(seats), match_id))
    if moved:
        await db.executemany(
            "INSERT INTO surfaces (match_id, kind, seat, channel_id, message_id, token, version, at) "
            "VALUES (?, 'dm', ?, ?, ?, NULL, 0, 0) ON CONFLICT (match_id, kind, seat) DO NOTHING",
            moved,
        )
    if rewritten:
        await db.executemany("UPDATE matches SET seats=? WHERE id=?", rewritten)


MIGRATIONS: list[Migration] = [
    Migration(
        """
    CREATE TABLE matches (
        id          $id,
        game        TEXT    NOT NULL,
        guild_id    $int64,
        channel_id  $int64 NOT NULL,
        message_id  $int64,
        host_id     $int64 NOT NULL,
        status      TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        seed        $int64 NOT NULL,
        seats       TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        state       TEXT,
        meta        TEXT    NOT NULL,
        deadline    $real,
        created     $real NOT NULL,
        updated     $real NOT NULL
    );
    CREATE UNIQUE INDEX one_live_match_per_channel ON matches(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_with_deadline ON matches(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE actions (
        match_id $int64 NOT NULL REFERENCES matches(id),
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        source   TEXT    NOT NULL,
        at       $real NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    """
    ),
    # 2: start-up and channel look-ups only ever want live matches; don't scan finished ones.
    Migration(
        """
    CREATE INDEX matches_by_status ON matches(status, channel_id);
    """
    ),
    # 3: timers declared by the rules (key -> absolute due time; ``deadline`` keeps the earliest for
    # the index) and the version at which the public view last changed (staleness per surface).
    Migration(
        """
    ALTER TABLE matches ADD COLUMN timers TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE matches ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET public_version = version;
    """,
        sqlite="""
    UPDATE matches SET timers = json_object(CASE status WHEN 'lobby' THEN 'lobby:' ELSE 'turn:' END, deadline)
        WHERE deadline IS NOT NULL;
    """,
        postgres="""
    UPDATE matches SET timers = json_build_object(
        CASE status WHEN 'lobby' THEN 'lobby:' ELSE 'turn:' END, deadline)::text
        WHERE deadline IS NOT NULL;
    """,
    ),
    # 4: personal records (a player's best result per game and mode, e.g. a solo time attack), with the
    # match that set it and the best before it, so a finishing commit that is retried reports the same.
    Migration(
        """
    CREATE TABLE records (
        user_id  $int64 NOT NULL,
        game     TEXT    NOT NULL,
        mode     TEXT    NOT NULL,
        best     $real NOT NULL,
        previous $real,
        match_id $int64 NOT NULL,
        at       $real NOT NULL,
        PRIMARY KEY (user_id, game, mode)
    );
    """
    ),
    # 5: stats and skill ratings per server, game and player (a user id, or "computer:<game>:<level>"),
    # written in the transaction that finishes a match (engine.ratings); ordinal sorts leaderboards.
    Migration(
        """
    CREATE TABLE ratings (
        guild_id $int64 NOT NULL,
        game     TEXT    NOT NULL,
        player   TEXT    NOT NULL,
        played   INTEGER NOT NULL,
        wins     INTEGER NOT NULL,
        mu       $real NOT NULL,
        sigma    $real NOT NULL,
        ordinal  $real NOT NULL,
        match_id $int64 NOT NULL,
        at       $real NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, ordinal DESC);
    CREATE INDEX ratings_by_player ON ratings(guild_id, player);
    """
    ),
    # 6: where each surface of a match lives (the board message, a seat's DM, a seat's open panel and
    # the token that reaches it, the turn ping, the recap, the line in the parent channel of a match
    # played in a thread), written without the match's lock; ``version`` is what a surface last
    # claimed (a ping's turn, a recap sent once). Server settings (threads per match). Boards already
    # posted move in; seats' DMs were read from the old seat fields until migration 7.
    Migration(
        """
    CREATE TABLE surfaces (
        match_id   $int64 NOT NULL,
        kind       TEXT    NOT NULL,
        seat       INTEGER NOT NULL,
        channel_id $int64,
        message_id $int64,
        token      TEXT,
        version    INTEGER NOT NULL,
        at         $real NOT NULL,
        PRIMARY KEY (match_id, kind, seat)
    );
    INSERT INTO surfaces (match_id, kind, seat, channel_id, message_id, token, version, at)
        SELECT id, 'board', -1, channel_id, message_id, NULL, public_version, updated FROM matches
        WHERE message_id IS NOT NULL;
    CREATE TABLE guild_settings (
        guild_id $int64 NOT NULL,
        name     TEXT   NOT NULL,
        value    TEXT   NOT NULL,
        PRIMARY KEY (guild_id, name)
    );
    """
    ),
    # 7: the addresses an earlier version kept in the match (its board's message) and in its seats
    # (their DMs) live only in the surfaces table: copied there where the table has none for that
    # surface (the bot read them as such a row: version 0, no token), then the old fields go. Processes
    # of an earlier version sharing a PostgreSQL database read the dropped column: stop them first.
    Migration(
        """
    INSERT INTO surfaces (match_id, kind, seat, channel_id, message_id, token, version, at)
        SELECT id, 'board', -1, channel_id, message_id, NULL, 0, 0 FROM matches
        WHERE message_id IS NOT NULL
        ON CONFLICT (match_id, kind, seat) DO NOTHING;
    ALTER TABLE matches DROP COLUMN message_id;
    """,
        data=_addresses_out_of_seats,
    ),
    # 8: what each surface's message shows (its version and digests of its content and image, in the
    # bot's words): a restarted bot knows it and sends nothing a message shows already. Empty for the
    # surfaces of earlier versions (they are looked at once, as before).
    Migration(
        """
    ALTER TABLE surfaces ADD COLUMN shown TEXT;
    """
    ),
    # 9: a user's own settings, kept by user id in every server (``notify``: a DM when their turn
    # comes); deleted with the rest of their data by /privacy forget-me.
    Migration(
        """
    CREATE TABLE user_settings (
        user_id $int64 NOT NULL,
        name    TEXT   NOT NULL,
        value   TEXT   NOT NULL,
        PRIMARY KEY (user_id, name)
    );
    """
    ),
    # 10: tournaments (engine.tournament.model): the record as one JSON object, its version (every
    # write is conditional on the one it read) and the due time of its timer, for start-up.
    Migration(
        """
    CREATE TABLE tournaments (
        id         $id,
        guild_id   $int64,
        channel_id $int64 NOT NULL,
        status     TEXT    NOT NULL,
        version    INTEGER NOT NULL,
        deadline   $real,
        data       TEXT    NOT NULL,
        created    $real   NOT NULL,
        updated    $real   NOT NULL
    );
    CREATE INDEX tournaments_status ON tournaments (status);
    """
    ),
]

SCHEMA_VERSION = len(MIGRATIONS)
