"""aiosqlite persistence: matches (snapshot + version + deadline) and an append-only action log.

The database is the truth; Discord messages are only a view of it. A move is committed (snapshot,
log row and timers in one transaction) before anything is shown. One connection serves every match,
so every use of it is serialised here (a transaction of one match must never interleave with
another's); every write is conditional on the version it read, so a stale copy can never overwrite
a newer row; and one bot process owns a database file at a time (a lock file next to it).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import errno
import fcntl
import json
import logging
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import aiosqlite

from engine import ratings

log = logging.getLogger(__name__)

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
]

LIVE = ("lobby", "active")
BUSY_SECONDS = 1.5  # wait this long for another process's lock, then say "busy" (Discord allows 3 s)


class StoreError(Exception):
    """The database cannot be used; the message is one line with advice that fits the cause."""


class StoreBusy(Exception):
    """Another process holds the database lock right now (retry later)."""


class WriteConflict(Exception):
    """The row changed since it was read (another process wrote it): reload and try again."""


@dataclass
class SeatInfo:
    user_id: int | None  # None for a computer seat
    name: str
    ai: bool = False
    away: bool = False  # a human whose turn timer ran out: the computer plays until they click again
    level: str | None = None  # a computer seat's difficulty (the game's Computer.levels)
    version: int = 0  # the match version at which what this seat can do last changed (private staleness)
    dm: int | None = None  # private surface: the DM channel id, 0 once DMs turned out closed
    dm_message: int | None = None

    def dump(self) -> dict[str, Any]:
        return {k: v for k, v in vars(self).items() if v is not None or k == "user_id"}


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
    timers: dict[str, float] = field(default_factory=dict)  # timer key -> absolute due time
    public_version: int = 0  # the version at which the public view last changed

    @property
    def deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None

    def copy(self) -> MatchRow:
        """A private copy to change; the cached row is replaced only after its commit."""
        return copy.deepcopy(self)


@dataclass(frozen=True)
class Record:
    """A player's best result in one game and mode, and the match that set it."""

    best: float
    previous: float | None  # the best before this one (None: the first result)
    match_id: int


@dataclass(frozen=True)
class LoggedAction:
    version: int
    seat: int
    action: str
    source: str  # "player", "computer" (AI seat), "timeout" (turn limit) or "timer" (a rules timer)


STATE_SCHEMA = 1


def _envelope(game: str, state: dict[str, Any] | None) -> str | None:
    if state is None:
        return None
    return json.dumps({"schema": STATE_SCHEMA, "game": game, "state": state}, separators=(",", ":"))


_COLUMNS = (
    "id, game, guild_id, channel_id, message_id, host_id, status, version, seed, seats, options, "
    "state, meta, timers, public_version"
)
_MUTABLE = "message_id, status, version, seats, options, state, meta, timers, public_version, deadline"
_MUTABLE_SLOTS = ",".join("?" * (len(_MUTABLE.split(",")) + 1))  # ... and "updated"


def _row_to_match(r: sqlite3.Row | tuple[Any, ...]) -> MatchRow:
    (mid, game, guild, channel, message, host, status, version, seed, seats, options, state, meta, timers,
     public_version) = r[:15]  # fmt: skip
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
        timers=json.loads(timers),
        public_version=public_version,
    )


def _mutable_values(m: MatchRow) -> tuple[Any, ...]:
    """The columns a commit rewrites, in _MUTABLE's order."""
    seats = json.dumps([s.dump() for s in m.seats])
    return (m.message_id, m.status, m.version, seats, json.dumps(m.options), _envelope(m.game, m.state),
            json.dumps(m.meta), json.dumps(m.timers), m.public_version, m.deadline)  # fmt: skip


def _is_busy(err: sqlite3.Error) -> bool:
    """SQLITE_BUSY or SQLITE_LOCKED (by code: a decode error quoting the text "locked" is not busy)."""
    code = getattr(err, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (5, 6)
    low = str(err).lower()
    return "database is locked" in low or "busy" in low


def _cause(err: BaseException) -> str:
    """One line of advice for a database that cannot be opened or written."""
    text = str(err)
    low = text.lower()
    if "readonly" in low or "read-only" in low or isinstance(err, PermissionError):
        return f"{text}: the bot needs write access to the file and its folder (check owner and permissions)"
    if "locked" in low:
        return f"{text}: another program holds the database; stop it (or use another DATABASE_PATH)"
    if "full" in low or getattr(err, "errno", None) == errno.ENOSPC:
        return f"{text}: free some disk space"
    if "unable to open" in low or isinstance(
        err, IsADirectoryError | NotADirectoryError | FileNotFoundError | FileExistsError
    ):
        return f"{text}: DATABASE_PATH must name a file in a folder the bot can create and write"
    return f"{text}: restore a backup (./run backup makes one) or point DATABASE_PATH elsewhere"


class Store:
    def __init__(self, path: str, *, exclusive: bool = True) -> None:
        self.path = path
        self.exclusive = exclusive  # one bot process per file; backups open it alongside
        self._db: aiosqlite.Connection | None = None
        self._lock_file: IO[str] | None = None
        self._use = asyncio.Lock()
        self._busy_ms = int(BUSY_SECONDS * 1000)  # SQLite's busy timeout as last set

    # ---- opening -------------------------------------------------------------------------------

    async def open(self) -> None:
        try:
            await self._open()
        except StoreError:
            await self.close()
            raise
        except (sqlite3.Error, OSError) as err:
            await self.close()
            raise StoreError(f"{self.path}: {_cause(err)}") from err

    async def _open(self) -> None:
        if self.path != ":memory:":
            path = Path(self.path)
            if path.is_dir():
                raise StoreError(f"{self.path} is a folder: DATABASE_PATH must name a file")
            path.parent.mkdir(parents=True, exist_ok=True)
            if self.exclusive:
                self._take_instance_lock()
        self._db = await aiosqlite.connect(self.path, isolation_level=None, timeout=BUSY_SECONDS)
        await self._scalar("PRAGMA journal_mode=WAL")
        await self._scalar("PRAGMA synchronous=NORMAL")
        await self._scalar("PRAGMA foreign_keys=ON")
        check = await self._scalar("PRAGMA quick_check")
        if check != "ok":
            raise StoreError(f"{self.path}: integrity check failed ({check}); restore a backup")
        current = int(await self._scalar("PRAGMA user_version"))
        if current > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: database schema {current} is newer than this bot's ({len(MIGRATIONS)}): "
                "update the bot, or restore a backup made for this version"
            )
        await self._migrate(current)
        # a write probe: a read-only or locked file must stop the bot now, not fail every move later
        await self.db.execute("BEGIN IMMEDIATE")
        await self.db.execute(f"PRAGMA user_version={len(MIGRATIONS)}")
        await self.db.execute("COMMIT")

    def _take_instance_lock(self) -> None:
        handle = open(f"{self.path}.lock", "a+")  # noqa: SIM115 (held open for the store's lifetime)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise StoreError(
                f"{self.path} is already in use by another bot instance: stop that one first "
                "(two bots on one database would overwrite each other's moves)"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._lock_file = handle

    async def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(Exception):
                await self._db.close()
            self._db = None
        if self._lock_file is not None:
            self._lock_file.close()  # releases the flock
            self._lock_file = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    async def _scalar(self, sql: str) -> Any:
        rows = list(await self.db.execute_fetchall(sql))
        return rows[0][0] if rows else None

    async def _migrate(self, current: int) -> None:
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            await self.db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version={number};\nCOMMIT;")

    async def schema_version(self) -> int:
        async with self._using():
            return int(await self._scalar("PRAGMA user_version"))

    # ---- every use of the connection goes through here ------------------------------------------

    @contextlib.asynccontextmanager
    async def _using(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection, within BUSY_SECONDS in all: the time spent queued behind other matches'
        operations (each waiting for another process's lock) counts, so no caller waits twice and
        a click is always answered within Discord's 3 s. Measured with perf_counter: SQLite waits
        in real time, whatever clock the loop or a test harness (SimCord patches monotonic) runs on."""
        started = time.perf_counter()
        await self._use.acquire()
        try:
            left = BUSY_SECONDS - (time.perf_counter() - started)
            if left < 0.01:
                raise StoreBusy("the database stayed busy (operations queued behind its lock)")
            await self._busy_timeout(left)
            yield self.db
        except sqlite3.OperationalError as err:
            if _is_busy(err):
                raise StoreBusy(str(err)) from err
            raise
        finally:
            self._use.release()

    async def _busy_timeout(self, seconds: float) -> None:
        """SQLite's own wait for another process's lock; changed only after a wait in the queue."""
        ms = int(seconds * 1000)
        if abs(ms - self._busy_ms) > 50:
            await self.db.execute(f"PRAGMA busy_timeout={ms}")
            self._busy_ms = ms

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._using() as db:
            if db.in_transaction:  # left open by a cancelled caller: never build on it
                log.warning("a transaction was left open; rolling it back")
                await db.execute("ROLLBACK")
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.execute("COMMIT")
            except BaseException as err:
                try:
                    await db.execute("ROLLBACK")
                except sqlite3.Error as rollback_err:  # e.g. "cannot rollback": keep the real cause
                    log.warning("rollback after %r failed: %s", err, rollback_err)
                raise

    # ---- matches -----------------------------------------------------------------------------------

    async def create(self, m: MatchRow, now: float) -> MatchRow:
        """Insert a new match; raises sqlite3.IntegrityError if the channel already has a live one."""
        async with self._using() as db:
            cur = await db.execute(
                f"INSERT INTO matches (game, guild_id, channel_id, host_id, seed, created, {_MUTABLE}, updated) "
                f"VALUES (?,?,?,?,?,?,{_MUTABLE_SLOTS})",
                (m.game, m.guild_id, m.channel_id, m.host_id, m.seed, now, *_mutable_values(m), now),
            )
        m.id = int(cur.lastrowid or 0)
        return m

    async def commit(
        self,
        m: MatchRow,
        actions: Iterable[LoggedAction],
        now: float,
        read_version: int,
        *,
        rated: ratings.Result | None = None,
    ) -> None:
        """Snapshot + action-log rows + timers in ONE transaction, only if the row is still at
        ``read_version`` (else WriteConflict and nothing written). ``rated``: the commit finishes the
        match, and its players' stats and ratings change in the same transaction."""
        async with self._transaction() as db:
            cur = await db.execute(
                f"UPDATE matches SET ({_MUTABLE}, updated) = ({_MUTABLE_SLOTS}) WHERE id=? AND version=?",
                (*_mutable_values(m), now, m.id, read_version),
            )
            if cur.rowcount != 1:
                raise WriteConflict(f"match {m.id} is no longer at version {read_version}")
            if rated is not None:
                await self._write_ratings(db, rated, m.id, now)
            await db.executemany(
                "INSERT INTO actions (match_id, version, seat, action, source, at) VALUES (?,?,?,?,?,?)",
                [(m.id, a.version, a.seat, a.action, a.source, now) for a in actions],
            )

    async def get(self, match_id: int) -> MatchRow | None:
        async with self._using() as db:
            rows = list(await db.execute_fetchall(f"SELECT {_COLUMNS} FROM matches WHERE id=?", (match_id,)))
        return _row_to_match(rows[0]) if rows else None

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        async with self._using() as db:
            rows = list(
                await db.execute_fetchall(
                    f"SELECT {_COLUMNS} FROM matches WHERE channel_id=? AND status IN ('lobby','active')",
                    (channel_id,),
                )
            )
        return _row_to_match(rows[0]) if rows else None

    async def live_ids(self) -> list[int]:
        async with self._using() as db:
            rows = await db.execute_fetchall("SELECT id FROM matches WHERE status IN ('lobby','active')")
        return [r[0] for r in rows]

    async def live_matches(self) -> list[MatchRow]:
        """Every live match that can be read; a row that cannot be decoded is skipped (and logged)."""
        out = []
        for mid in await self.live_ids():
            try:
                m = await self.get(mid)
            except (ValueError, TypeError, KeyError, sqlite3.DataError, sqlite3.OperationalError) as err:
                log.error("match %s cannot be read (%s): skipped", mid, err)
                continue
            if m is not None:
                out.append(m)
        return out

    async def set_aside(self, match_id: int, reason: str, now: float) -> int | None:
        """A match whose stored data cannot be decoded: close it so it never blocks its channel; returns
        its channel id (to say so there)."""
        async with self._transaction() as db:
            rows = list(await db.execute_fetchall("SELECT channel_id FROM matches WHERE id=?", (match_id,)))
            await db.execute(
                "UPDATE matches SET status='broken', timers='{}', deadline=NULL, updated=?, "
                "meta=json_object('broken', ?) WHERE id=?",
                (now, reason[:500], match_id),
            )
        return rows[0][0] if rows else None

    async def actions(self, match_id: int) -> list[LoggedAction]:
        async with self._using() as db:
            rows = await db.execute_fetchall(
                "SELECT version, seat, action, source FROM actions WHERE match_id=? ORDER BY version",
                (match_id,),
            )
        return [LoggedAction(*r) for r in rows]

    # ---- personal records ------------------------------------------------------------------------

    async def record(self, user_id: int, game: str, mode: str) -> Record | None:
        async with self._using() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT best, previous, match_id FROM records WHERE user_id=? AND game=? AND mode=?",
                    (user_id, game, mode),
                )
            )
        return Record(*rows[0]) if rows else None

    async def improve_record(
        self, user_id: int, game: str, mode: str, value: float, match_id: int, now: float, *, higher: bool
    ) -> tuple[Record | None, bool]:
        """Keep ``value`` as the player's record if it beats the stored one (``higher``: more is better).
        Returns (the record before this match, whether this match set a new one); asking again for the
        same match gives the same answer (a finishing commit may be retried)."""
        async with self._transaction() as db:
            rows = list(
                await db.execute_fetchall(
                    "SELECT best, previous, match_id FROM records WHERE user_id=? AND game=? AND mode=?",
                    (user_id, game, mode),
                )
            )
            old = Record(*rows[0]) if rows else None
            if old is not None and old.match_id == match_id:  # set by this very match already
                before = None if old.previous is None else Record(old.previous, None, 0)
                return before, True
            if old is not None and not (value > old.best if higher else value < old.best):
                return old, False
            await db.execute(
                "INSERT OR REPLACE INTO records (user_id, game, mode, best, previous, match_id, at) "
                "VALUES (?,?,?,?,?,?,?)",
                (user_id, game, mode, value, old.best if old else None, match_id, now),
            )
        return old, True

    # ---- stats and ratings ----------------------------------------------------------------------

    async def _write_ratings(
        self, db: aiosqlite.Connection, result: ratings.Result, match_id: int, now: float
    ) -> None:
        """Within the finishing commit's transaction: read the players' standings, rate, write."""
        players = list(dict.fromkeys(result.players))
        rows = await db.execute_fetchall(
            f"SELECT player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND game=? "
            f"AND player IN ({','.join('?' * len(players))})",
            (result.guild_id, result.game, *players),
        )
        before = {r[0]: ratings.Standing(*r) for r in rows}
        where = (result.guild_id, result.game)
        await db.executemany(
            "INSERT OR REPLACE INTO ratings (guild_id, game, player, played, wins, mu, sigma, ordinal, "
            "match_id, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (*where, s.player, s.played, s.wins, s.mu, s.sigma, s.ordinal, match_id, now)
                for s in ratings.rate(result, before)
            ],
        )

    async def standings(self, guild_id: int, player: str) -> dict[str, ratings.Standing]:
        """A player's stats and rating per game on one server (games never played are absent)."""
        async with self._using() as db:
            rows = await db.execute_fetchall(
                "SELECT game, player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND player=? "
                "ORDER BY game",
                (guild_id, player),
            )
        return {r[0]: ratings.Standing(*r[1:]) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[ratings.Standing]:
        """The best rated players of a game on one server, best first."""
        async with self._using() as db:
            rows = await db.execute_fetchall(
                "SELECT player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND game=? "
                "ORDER BY ordinal DESC, wins DESC, player LIMIT ?",
                (guild_id, game, limit),
            )
        return [ratings.Standing(*r) for r in rows]

    async def backup(self, target: str) -> None:
        """Copy the database safely while the bot runs (SQLite online backup API)."""
        dest = await aiosqlite.connect(target)
        try:
            async with self._using() as db:
                await db.backup(dest)
        finally:
            await dest.close()
