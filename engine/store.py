"""aiosqlite persistence: matches (snapshot + version + deadline) and an append-only action log.

The database is the truth; Discord messages are only a view of it. A move is committed (snapshot,
log row and new deadline in one transaction) before anything is shown.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

# Stepwise schema migrations, applied in order; PRAGMA user_version records how many ran.
MIGRATIONS: list[str] = [
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
]

LIVE = ("lobby", "active")


class StoreError(Exception):
    """The database cannot be used (corrupt, not a database, failed integrity check)."""


@dataclass
class SeatInfo:
    user_id: int | None  # None for a computer seat
    name: str
    ai: bool = False
    away: bool = False  # a human whose turn timer ran out: the computer plays until they click again

    def dump(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "ai": self.ai, "away": self.away}


@dataclass
class MatchRow:
    id: int
    game: str
    guild_id: int | None
    channel_id: int
    message_id: int | None
    host_id: int
    status: str
    version: int
    seed: int
    seats: list[SeatInfo]
    options: dict[str, Any]
    state: dict[str, Any] | None  # the game's dump(), wrapped on disk in {schema, game, state}
    meta: dict[str, Any] = field(default_factory=dict)
    deadline: float | None = None


@dataclass(frozen=True)
class LoggedAction:
    version: int
    seat: int
    action: str
    source: str  # "player", "computer" (AI seat) or "timeout"


STATE_SCHEMA = 1


def _envelope(game: str, state: dict[str, Any] | None) -> str | None:
    if state is None:
        return None
    return json.dumps({"schema": STATE_SCHEMA, "game": game, "state": state}, separators=(",", ":"))


def _row_to_match(r: sqlite3.Row | tuple[Any, ...]) -> MatchRow:
    (
        mid,
        game,
        guild,
        channel,
        message,
        host,
        status,
        version,
        seed,
        seats,
        options,
        state,
        meta,
        deadline,
    ) = r[:14]
    env = json.loads(state) if state else None
    return MatchRow(
        id=mid,
        game=game,
        guild_id=guild,
        channel_id=channel,
        message_id=message,
        host_id=host,
        status=status,
        version=version,
        seed=seed,
        seats=[SeatInfo(**s) for s in json.loads(seats)],
        options=json.loads(options),
        state=env["state"] if env else None,
        meta=json.loads(meta),
        deadline=deadline,
    )


_COLUMNS = (
    "id, game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, options, "
    "state, meta, deadline"
)


_MUTABLE = "message_id, status, version, seats, options, state, meta, deadline"
_MUTABLE_SLOTS = ",".join("?" * (len(_MUTABLE.split(",")) + 1))  # ... and "updated"


def _mutable_values(m: MatchRow) -> tuple[Any, ...]:
    """The columns a commit rewrites, in _MUTABLE's order."""
    seats = json.dumps([s.dump() for s in m.seats])
    return (m.message_id, m.status, m.version, seats, json.dumps(m.options), _envelope(m.game, m.state),
            json.dumps(m.meta), m.deadline)  # fmt: skip


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        self._db: aiosqlite.Connection | None = None

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            await self._scalar("PRAGMA journal_mode=WAL")
            await self._scalar("PRAGMA synchronous=NORMAL")
            await self._scalar("PRAGMA foreign_keys=ON")
            check = await self._scalar("PRAGMA quick_check")
            if check != "ok":
                raise StoreError(f"{self.path}: integrity check failed ({check}); restore a backup")
            await self._migrate()
        except sqlite3.DatabaseError as err:
            raise StoreError(
                f"{self.path}: {err}; restore a backup or point DATABASE_PATH elsewhere"
            ) from err

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def _scalar(self, sql: str) -> Any:
        rows = list(await self.db.execute_fetchall(sql))
        return rows[0][0] if rows else None

    async def _migrate(self) -> None:
        current = int(await self._scalar("PRAGMA user_version"))
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")

    async def schema_version(self) -> int:
        return int(await self._scalar("PRAGMA user_version"))

    async def create(self, m: MatchRow, now: float) -> MatchRow:
        """Insert a new match; raises sqlite3.IntegrityError if the channel already has a live one."""
        cur = await self.db.execute(
            f"INSERT INTO matches (game, guild_id, channel_id, host_id, seed, created, {_MUTABLE}, updated) "
            f"VALUES (?,?,?,?,?,?,{_MUTABLE_SLOTS})",
            (m.game, m.guild_id, m.channel_id, m.host_id, m.seed, now, *_mutable_values(m), now),
        )
        m.id = int(cur.lastrowid or 0)
        return m

    async def commit(self, m: MatchRow, actions: Iterable[LoggedAction], now: float) -> None:
        """Snapshot + action-log rows + deadline in ONE transaction."""
        db = self.db
        await db.execute("BEGIN IMMEDIATE")
        try:
            await db.execute(
                f"UPDATE matches SET ({_MUTABLE}, updated) = ({_MUTABLE_SLOTS}) WHERE id=?",
                (*_mutable_values(m), now, m.id),
            )
            await db.executemany(
                "INSERT INTO actions (match_id, version, seat, action, source, at) VALUES (?,?,?,?,?,?)",
                [(m.id, a.version, a.seat, a.action, a.source, now) for a in actions],
            )
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise

    async def set_message(self, match_id: int, message_id: int | None) -> None:
        await self.db.execute("UPDATE matches SET message_id=? WHERE id=?", (message_id, match_id))

    async def get(self, match_id: int) -> MatchRow | None:
        rows = list(await self.db.execute_fetchall(f"SELECT {_COLUMNS} FROM matches WHERE id=?", (match_id,)))
        return _row_to_match(rows[0]) if rows else None

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        rows = list(
            await self.db.execute_fetchall(
                f"SELECT {_COLUMNS} FROM matches WHERE channel_id=? AND status IN ('lobby','active')",
                (channel_id,),
            )
        )
        return _row_to_match(rows[0]) if rows else None

    async def live_matches(self) -> list[MatchRow]:
        rows = await self.db.execute_fetchall(
            f"SELECT {_COLUMNS} FROM matches WHERE status IN ('lobby','active')"
        )
        return [_row_to_match(r) for r in rows]

    async def actions(self, match_id: int) -> list[LoggedAction]:
        rows = await self.db.execute_fetchall(
            "SELECT version, seat, action, source FROM actions WHERE match_id=? ORDER BY version", (match_id,)
        )
        return [LoggedAction(*r) for r in rows]

    async def backup(self, target: str) -> None:
        """Copy the database safely while the bot runs (SQLite online backup API)."""
        dest = await aiosqlite.connect(target)
        try:
            await self.db.backup(dest)
        finally:
            await dest.close()
