"""The schema, as numbered migrations applied in order, once per backend: SQLite (embedded, the
default) and PostgreSQL (several processes). Entry N of each list is migration N+1; both lists always
have the same length and describe the same tables, so a database of either kind at schema N holds the
same data. SQLite records the count in PRAGMA user_version, PostgreSQL in the table schema_version.
Snowflakes and seeds are 64-bit: BIGINT in PostgreSQL (SQLite's INTEGER is 64-bit already)."""

from __future__ import annotations

SQLITE: list[str] = [
    """
    CREATE TABLE matches (
        id          INTEGER PRIMARY KEY,
        game        TEXT    NOT NULL,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        message_id  INTEGER,
        host_id     INTEGER NOT NULL,
        status      TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        seed        INTEGER NOT NULL,
        seats       TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        state       TEXT,
        meta        TEXT    NOT NULL,
        deadline    REAL,
        created     REAL    NOT NULL,
        updated     REAL    NOT NULL
    );
    CREATE UNIQUE INDEX one_live_match_per_channel ON matches(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_with_deadline ON matches(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE actions (
        match_id INTEGER NOT NULL REFERENCES matches(id),
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        source   TEXT    NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    """,
    # 2: start-up and channel look-ups only ever want live matches; don't scan finished ones.
    """
    CREATE INDEX matches_by_status ON matches(status, channel_id);
    """,
    # 3: timers declared by the rules (key -> absolute due time; ``deadline`` keeps the earliest for
    # the index) and the version at which the public view last changed (staleness per surface).
    """
    ALTER TABLE matches ADD COLUMN timers TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE matches ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET timers = json_object(CASE status WHEN 'lobby' THEN 'lobby:' ELSE 'turn:' END, deadline)
        WHERE deadline IS NOT NULL;
    UPDATE matches SET public_version = version;
    """,
    # 4: personal records (a player's best result per game and mode, e.g. a solo time attack), with the
    # match that set it and the best before it, so a finishing commit that is retried reports the same.
    """
    CREATE TABLE records (
        user_id  INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        mode     TEXT    NOT NULL,
        best     REAL    NOT NULL,
        previous REAL,
        match_id INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (user_id, game, mode)
    );
    """,
    # 5: stats and skill ratings per server, game and player (a user id, or "computer:<game>:<level>"),
    # written in the transaction that finishes a match (engine.ratings); ordinal sorts leaderboards.
    """
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        player   TEXT    NOT NULL,
        played   INTEGER NOT NULL,
        wins     INTEGER NOT NULL,
        mu       REAL    NOT NULL,
        sigma    REAL    NOT NULL,
        ordinal  REAL    NOT NULL,
        match_id INTEGER NOT NULL,
        at       REAL    NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, ordinal DESC);
    CREATE INDEX ratings_by_player ON ratings(guild_id, player);
    """,
    # 6: where each surface of a match lives (the board message, a seat's DM, a seat's open panel and
    # the token that reaches it, the turn ping, the recap, the line in the parent channel of a match
    # played in a thread), written without the match's lock; ``version`` is what a surface last
    # claimed (a ping's turn, a recap sent once). Server settings (threads per match). Boards already
    # posted move in; seats' DMs are read from the old seat fields until they are next written.
    """
    CREATE TABLE surfaces (
        match_id   INTEGER NOT NULL,
        kind       TEXT    NOT NULL,
        seat       INTEGER NOT NULL,
        channel_id INTEGER,
        message_id INTEGER,
        token      TEXT,
        version    INTEGER NOT NULL,
        at         REAL    NOT NULL,
        PRIMARY KEY (match_id, kind, seat)
    );
    INSERT INTO surfaces (match_id, kind, seat, channel_id, message_id, token, version, at)
        SELECT id, 'board', -1, channel_id, message_id, NULL, public_version, updated FROM matches
        WHERE message_id IS NOT NULL;
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        name     TEXT    NOT NULL,
        value    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, name)
    );
    """,
]

POSTGRES: list[str] = [
    """
    CREATE TABLE matches (
        id          BIGSERIAL PRIMARY KEY,
        game        TEXT    NOT NULL,
        guild_id    BIGINT,
        channel_id  BIGINT  NOT NULL,
        message_id  BIGINT,
        host_id     BIGINT  NOT NULL,
        status      TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        seed        BIGINT  NOT NULL,
        seats       TEXT    NOT NULL,
        options     TEXT    NOT NULL,
        state       TEXT,
        meta        TEXT    NOT NULL,
        deadline    DOUBLE PRECISION,
        created     DOUBLE PRECISION NOT NULL,
        updated     DOUBLE PRECISION NOT NULL
    );
    CREATE UNIQUE INDEX one_live_match_per_channel ON matches(channel_id)
        WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_with_deadline ON matches(deadline) WHERE deadline IS NOT NULL;
    CREATE TABLE actions (
        match_id BIGINT  NOT NULL REFERENCES matches(id),
        version  INTEGER NOT NULL,
        seat     INTEGER NOT NULL,
        action   TEXT    NOT NULL,
        source   TEXT    NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match_id, version)
    );
    """,
    """
    CREATE INDEX matches_by_status ON matches(status, channel_id);
    """,
    """
    ALTER TABLE matches ADD COLUMN timers TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE matches ADD COLUMN public_version INTEGER NOT NULL DEFAULT 0;
    UPDATE matches SET timers = json_build_object(
        CASE status WHEN 'lobby' THEN 'lobby:' ELSE 'turn:' END, deadline)::text
        WHERE deadline IS NOT NULL;
    UPDATE matches SET public_version = version;
    """,
    """
    CREATE TABLE records (
        user_id  BIGINT  NOT NULL,
        game     TEXT    NOT NULL,
        mode     TEXT    NOT NULL,
        best     DOUBLE PRECISION NOT NULL,
        previous DOUBLE PRECISION,
        match_id BIGINT  NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (user_id, game, mode)
    );
    """,
    """
    CREATE TABLE ratings (
        guild_id BIGINT  NOT NULL,
        game     TEXT    NOT NULL,
        player   TEXT    NOT NULL,
        played   INTEGER NOT NULL,
        wins     INTEGER NOT NULL,
        mu       DOUBLE PRECISION NOT NULL,
        sigma    DOUBLE PRECISION NOT NULL,
        ordinal  DOUBLE PRECISION NOT NULL,
        match_id BIGINT  NOT NULL,
        at       DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (guild_id, game, player)
    );
    CREATE INDEX ratings_board ON ratings(guild_id, game, ordinal DESC);
    CREATE INDEX ratings_by_player ON ratings(guild_id, player);
    """,
    """
    CREATE TABLE surfaces (
        match_id   BIGINT  NOT NULL,
        kind       TEXT    NOT NULL,
        seat       INTEGER NOT NULL,
        channel_id BIGINT,
        message_id BIGINT,
        token      TEXT,
        version    INTEGER NOT NULL,
        at         DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (match_id, kind, seat)
    );
    INSERT INTO surfaces (match_id, kind, seat, channel_id, message_id, token, version, at)
        SELECT id, 'board', -1, channel_id, message_id, NULL, public_version, updated FROM matches
        WHERE message_id IS NOT NULL;
    CREATE TABLE guild_settings (
        guild_id BIGINT NOT NULL,
        name     TEXT   NOT NULL,
        value    TEXT   NOT NULL,
        PRIMARY KEY (guild_id, name)
    );
    """,
]

assert len(SQLITE) == len(POSTGRES), "every migration exists for both backends"
SCHEMA_VERSION = len(SQLITE)
