"""Persistence: matches (snapshot + version + timers) and an append-only action log, on SQLite
(embedded, the default: engine.store_sqlite) or PostgreSQL (several processes: engine.store_postgres),
chosen by ``open_store``. The queries are written once, here, in SQL both understand (``?`` for
parameters); a backend supplies connections, transactions and the mapping of its errors.

The database is the truth; Discord messages are only a view of it. A move is committed (snapshot,
log row and timers in one transaction) before anything is shown. Every write is conditional on the
version it read, and the database enforces it (a conditional UPDATE, row-locked by PostgreSQL), so a
stale copy, in this process or another, can never overwrite a newer row: it gets WriteConflict.
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from engine import ratings, records
from engine.meta import MatchMeta
from engine.migrations import SCHEMA_VERSION

log = logging.getLogger(__name__)

LIVE = ("lobby", "active")
BUSY_SECONDS = 1.5  # wait this long for another process's lock, then say "busy" (Discord allows 3 s)
CALL_SECONDS = 2.5  # every database call ends within this, answered or busy: a click is answered in 3 s


class StoreError(Exception):
    """The database cannot be used; the message is one line with advice that fits the cause."""


class StoreBusy(Exception):
    """The database cannot answer in time right now (another process's lock, a lost connection):
    nothing was written; retry later."""


class StoreUnsure(StoreBusy):
    """The database stopped answering after a commit was sent: it may or may not have been written
    (PostgreSQL frozen or cut off mid-commit). The caller forgets what it cached and reads the truth."""


class ChannelTaken(Exception):
    """The channel already has a live match (the database's unique index said so)."""


class WriteConflict(Exception):
    """The row changed since it was read (another process wrote it): reload and try again."""


@dataclass
class SeatInfo:
    user_id: int | None  # None for a computer seat
    name: str
    ai: bool = False
    away: bool = False  # a human whose turn timer ran out: the computer plays until they click again
    idle: bool = False  # a human whose turn began and who has not acted since (Matches._gone_away)
    level: str | None = None  # a computer seat's difficulty (the game's Computer.levels)
    version: int = 0  # the match version at which what this seat can do last changed (private staleness)
    dm: int | None = None  # private surface: the DM channel id, 0 once DMs turned out closed
    dm_message: int | None = None
    locale: str | None = None  # the player's Discord language when seated: their DMs speak it

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
    meta: MatchMeta = field(default_factory=MatchMeta)  # typed and versioned (engine.meta)
    timers: dict[str, float] = field(default_factory=dict)  # timer key -> absolute due time
    public_version: int = 0  # the version at which the public view last changed

    @property
    def deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None

    def copy(self) -> MatchRow:
        """A private copy to change; the cached row is replaced only after its commit. The state's
        dump is shared, not copied (most of a row's bytes): a commit replaces it whole, never edits it.
        Field by field rather than ``copy.deepcopy``, which took about a tenth of the bot's own CPU in
        a move (tests/engine/test_store_copy.py checks no mutable part is shared)."""
        return dataclasses.replace(
            self,
            seats=[dataclasses.replace(s) for s in self.seats],
            options=copy.deepcopy(self.options),
            meta=self.meta.copy(),
            timers=dict(self.timers),
        )


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a user changed: matches that name them no more, rows of stats and records gone."""

    matches: int
    ratings: int
    records: int


class SeatedInLiveMatch(Exception):
    """A user's data cannot be forgotten while they sit in these live matches."""

    def __init__(self, match_ids: list[int]) -> None:
        super().__init__(f"seated in live matches {match_ids}")
        self.match_ids = match_ids


def _forget_in(m: MatchRow, user_id: int) -> bool:
    """Make a match that is over name ``user_id`` nowhere; whether anything changed. Their seats stay
    (the moves are theirs) as a human seat with no id, no name and no DM."""
    changed = False
    for i, seat in enumerate(m.seats):
        if seat.user_id == user_id:
            m.seats[i] = SeatInfo(None, "", version=seat.version)
            changed = True
    if m.host_id == user_id:
        m.host_id, changed = 0, True
    if m.meta.ended_by == user_id:
        m.meta.ended_by, m.meta.ended_by_name, changed = None, None, True
    return changed


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
_MUTABLE = (
    "channel_id, message_id, status, version, seats, options, state, meta, timers, public_version, deadline"
)
_MUTABLE_SLOTS = ",".join("?" * (len(_MUTABLE.split(",")) + 1))  # ... and "updated"
_LIVE_SQL = "status IN ('lobby','active')"


def _row_to_match(r: tuple[Any, ...]) -> MatchRow:
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
        meta=MatchMeta.load(json.loads(meta)),
        timers=json.loads(timers),
        public_version=public_version,
    )


def _mutable_values(m: MatchRow) -> tuple[Any, ...]:
    """The columns a commit rewrites, in _MUTABLE's order."""
    seats = json.dumps([s.dump() for s in m.seats])
    return (m.channel_id, m.message_id, m.status, m.version, seats, json.dumps(m.options), _envelope(m.game, m.state),
            json.dumps(m.meta.dump()), json.dumps(m.timers), m.public_version, m.deadline)  # fmt: skip


@dataclass(frozen=True)
class LiveEntry:
    """What start-up needs of a live match without decoding its state (decoded on first use)."""

    id: int
    guild_id: int | None
    channel_id: int
    status: str
    timers: dict[str, float]

    @property
    def deadline(self) -> float | None:
        return min(self.timers.values()) if self.timers else None


class Conn(Protocol):
    """A backend's connection, as the queries below use it (``?`` parameters)."""

    async def fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]: ...
    async def execute(self, sql: str, *args: Any) -> int: ...  # rows changed
    async def executemany(self, sql: str, rows: list[tuple[Any, ...]]) -> None: ...


@dataclass(frozen=True)
class SurfaceRow:
    """Where one surface of a match lives (bot.surfaces): a message in a channel, and for a surface
    reached through an interaction (an ephemeral panel) the token Discord lets a bot use for 15
    minutes after ``at``. ``seat`` is -1 for a surface of the whole match; ``version`` is the last one
    claimed (a ping's turn, a recap sent once)."""

    match_id: int
    kind: str
    seat: int = -1
    channel_id: int | None = None
    message_id: int | None = None
    token: str | None = None
    version: int = 0
    at: float = 0.0


_SURFACE_COLUMNS = "match_id, kind, seat, channel_id, message_id, token, version, at"


T = TypeVar("T")
Body = Callable[[Conn], Awaitable[T]]  # a transaction: every statement goes through its Conn


class SurfaceQueries:
    """Surface addresses and server settings: small rows written without a match's lock (showing a
    board never waits for, or commits to, the match)."""

    _fetch: Callable[..., Awaitable[list[tuple[Any, ...]]]]
    _write: Callable[[Body[Any]], Awaitable[Any]]

    async def surfaces(self, match_id: int) -> list[SurfaceRow]:
        rows = await self._fetch(f"SELECT {_SURFACE_COLUMNS} FROM surfaces WHERE match_id=?", match_id)
        return [SurfaceRow(*r) for r in rows]

    async def put_surface(self, row: SurfaceRow) -> None:
        await self._execute(
            f"INSERT INTO surfaces ({_SURFACE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?) "
            "ON CONFLICT (match_id, kind, seat) DO UPDATE SET channel_id=excluded.channel_id, "
            "message_id=excluded.message_id, token=excluded.token, version=excluded.version, at=excluded.at",
            row.match_id, row.kind, row.seat, row.channel_id, row.message_id, row.token, row.version, row.at,
        )  # fmt: skip

    async def claim_surface(self, row: SurfaceRow) -> bool:
        """Write ``row`` only if its version is newer than the stored one: True for the one caller, in
        any process, that claimed this version (a ping per turn, a recap once)."""
        changed = await self._execute(
            f"INSERT INTO surfaces ({_SURFACE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?) "
            "ON CONFLICT (match_id, kind, seat) DO UPDATE SET channel_id=excluded.channel_id, "
            "message_id=excluded.message_id, token=excluded.token, version=excluded.version, at=excluded.at "
            "WHERE surfaces.version < excluded.version",
            row.match_id, row.kind, row.seat, row.channel_id, row.message_id, row.token, row.version, row.at,
        )  # fmt: skip
        return changed == 1

    async def drop_surface(self, match_id: int, kind: str, seat: int = -1) -> None:
        await self._execute(
            "DELETE FROM surfaces WHERE match_id=? AND kind=? AND seat=?", match_id, kind, seat
        )

    async def guild_setting(self, guild_id: int, name: str) -> str | None:
        rows = await self._fetch(
            "SELECT value FROM guild_settings WHERE guild_id=? AND name=?", guild_id, name
        )
        return rows[0][0] if rows else None

    async def set_guild_setting(self, guild_id: int, name: str, value: str) -> None:
        await self._execute(
            "INSERT INTO guild_settings (guild_id, name, value) VALUES (?,?,?) "
            "ON CONFLICT (guild_id, name) DO UPDATE SET value=excluded.value",
            guild_id, name, value,
        )  # fmt: skip

    async def _execute(self, sql: str, *args: Any) -> int:
        """One statement in a transaction of its own; the rows it changed."""
        return int(await self._write(lambda db: db.execute(sql, *args)))


Listener = Callable[[int, int, int | None], Awaitable[None] | None]  # (match id, version, guild id)


class Store(abc.ABC, SurfaceQueries):
    """The queries; subclasses provide ``_fetch`` (one query) and ``_write`` (one transaction, given
    as a function of its connection so a backend can run it where it is cheapest and retry it)."""

    kind = "?"
    shared = False  # several processes may write this database (PostgreSQL): caches must be checked

    @property
    def listening(self) -> bool:
        """Whether other processes' commits are heard now (see ``listen``)."""
        return False

    @abc.abstractmethod
    async def open(self) -> None: ...

    @abc.abstractmethod
    async def close(self) -> None: ...

    @abc.abstractmethod
    async def _fetch(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        """The rows of one query (no transaction: a snapshot of committed data)."""

    @abc.abstractmethod
    async def _write(self, body: Body[T]) -> T:
        """``await body(conn)`` in ONE transaction: committed when it returns, rolled back (nothing
        written) if it raises. A body only awaits its Conn and may run more than once (PostgreSQL retries
        one whose connection the server closed before the commit), so it changes nothing else but
        what it returns and the row it writes. Raises StoreBusy when the database cannot answer within
        CALL_SECONDS, StoreUnsure when it stopped answering after the commit was sent."""

    @abc.abstractmethod
    async def schema_version(self) -> int: ...

    async def listen(self, listener: Listener) -> None:
        """Call ``listener`` when another process commits a match (only shared databases do)."""

    async def _notify(self, db: Conn, m: MatchRow) -> None:
        """Within a commit: tell other processes (only shared databases do)."""

    @property
    def description(self) -> str:
        """Where the data lives, for messages (never a password)."""
        return self.kind

    # ---- matches -----------------------------------------------------------------------------------

    async def create(self, m: MatchRow, now: float) -> MatchRow:
        """Insert a new match; raises ChannelTaken if the channel already has a live one."""

        async def insert(db: Conn) -> int:
            rows = await db.fetch(
                f"INSERT INTO matches (game, guild_id, host_id, seed, created, {_MUTABLE}, updated) "
                f"VALUES (?,?,?,?,?,{_MUTABLE_SLOTS}) RETURNING id",
                m.game, m.guild_id, m.host_id, m.seed, now, *_mutable_values(m), now,
            )  # fmt: skip
            m.id = int(rows[0][0])
            await self._notify(db, m)
            return m.id

        await self._write(insert)
        return m

    async def commit(
        self,
        m: MatchRow,
        actions: Iterable[LoggedAction],
        now: float,
        read_version: int,
        *,
        rated: ratings.Result | None = None,
        record: records.Claim | None = None,
    ) -> None:
        """Snapshot + action-log rows + timers in ONE transaction, only if the row is still at
        ``read_version`` (else WriteConflict and nothing written). ``rated``: the commit finishes the
        match, and its players' stats and ratings change in the same transaction. ``record``: it
        finishes a solo run, whose result becomes its player's record if it beats it (engine.records),
        in the same transaction too; what it did is noted in ``m.meta.record`` before the row is written."""

        async def write(db: Conn) -> None:
            if record is not None:
                before, new = await self._write_record(db, record, m.id, now)
                m.meta.record = records.noted(record, before, new)
            changed = await db.execute(
                f"UPDATE matches SET ({_MUTABLE}, updated) = ({_MUTABLE_SLOTS}) WHERE id=? AND version=?",
                *_mutable_values(m), now, m.id, read_version,
            )  # fmt: skip
            if changed != 1:
                raise WriteConflict(f"match {m.id} is no longer at version {read_version}")
            if rated is not None:
                await self._write_ratings(db, rated, m.id, now)
            if logged:
                await db.executemany(
                    "INSERT INTO actions (match_id, version, seat, action, source, at) VALUES (?,?,?,?,?,?)",
                    logged,
                )
            await self._notify(db, m)

        logged = [(m.id, a.version, a.seat, a.action, a.source, now) for a in actions]
        await self._write(write)

    async def get(self, match_id: int) -> MatchRow | None:
        rows = await self._fetch(f"SELECT {_COLUMNS} FROM matches WHERE id=?", match_id)
        return _row_to_match(rows[0]) if rows else None

    async def get_many(self, ids: list[int]) -> dict[int, MatchRow | None]:
        """Several matches in one query (start-up checks); None for a row that cannot be decoded."""
        if not ids:
            return {}
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM matches WHERE id IN ({','.join('?' * len(ids))})", *ids
        )
        out: dict[int, MatchRow | None] = {}
        for r in rows:
            try:
                out[r[0]] = _row_to_match(r)
            except (ValueError, TypeError, KeyError):
                out[r[0]] = None
        return out

    async def version_of(self, match_id: int) -> int | None:
        """The committed version alone (cheap: a cached copy is checked against it)."""
        rows = await self._fetch("SELECT version FROM matches WHERE id=?", match_id)
        return rows[0][0] if rows else None

    async def live_in_channel(self, channel_id: int) -> MatchRow | None:
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM matches WHERE channel_id=? AND {_LIVE_SQL}", channel_id
        )
        return _row_to_match(rows[0]) if rows else None

    async def live_ids(self) -> list[int]:
        rows = await self._fetch(f"SELECT id FROM matches WHERE {_LIVE_SQL} ORDER BY id")
        return [r[0] for r in rows]

    async def live_entries(self) -> list[LiveEntry]:
        """Every live match's id, place and timers in one query, states left undecoded: start-up
        with thousands of live matches costs one read, not thousands of decodes."""
        rows = await self._fetch(
            f"SELECT id, guild_id, channel_id, status, timers FROM matches WHERE {_LIVE_SQL} ORDER BY id"
        )
        # one json.loads for all rows, not one per row (10,000 small decodes were a third of this call);
        # any doubt (a row that is not one JSON object) and each row is decoded on its own, as before
        try:
            every = json.loads("[" + ",".join(r[4] for r in rows) + "]")
        except (ValueError, TypeError):
            every = None
        if every is None or len(every) != len(rows) or not all(type(t) is dict for t in every):
            every = [None] * len(rows)
        out = []
        for (mid, guild, channel, status, text), decoded in zip(rows, every, strict=True):
            try:
                raw = json.loads(text) if decoded is None else decoded
                timers = {str(k): float(v) for k, v in raw.items()}
            except (ValueError, TypeError, AttributeError):
                timers = {"broken:": 0.0}  # due at once: decoding it sets the match aside
            out.append(LiveEntry(mid, guild, channel, status, timers))
        return out

    async def live_matches(self) -> list[MatchRow]:
        """Every live match that can be read; a row that cannot be decoded is skipped (and logged)."""
        out = []
        for mid in await self.live_ids():
            try:
                m = await self.get(mid)
            except (ValueError, TypeError, KeyError) as err:
                log.error("match %s cannot be read (%s): skipped", mid, err)
                continue
            if m is not None:
                out.append(m)
        return out

    async def set_aside(self, match_id: int, reason: str, now: float) -> int | None:
        """A match whose stored data cannot be decoded: close it so it never blocks its channel; returns
        its channel id (to say so there)."""

        async def close(db: Conn) -> int | None:
            rows = await db.fetch("SELECT channel_id FROM matches WHERE id=?", match_id)
            await db.execute(
                "UPDATE matches SET status='broken', timers='{}', deadline=NULL, updated=?, meta=? WHERE id=?",
                now, json.dumps(MatchMeta(broken=reason[:500]).dump()), match_id,
            )  # fmt: skip
            return rows[0][0] if rows else None

        return await self._write(close)

    async def finished_in_guild(self, guild_id: int, limit: int = 25) -> list[MatchRow]:
        """A server's latest games that started and are over (newest first): /replay suggests them."""
        return await self._finished("guild_id", guild_id, limit)

    async def finished_of(self, game: str, limit: int = 10_000) -> list[MatchRow]:
        """The latest games of ``game`` that started and are over (newest first): studies of how
        people play (tools.solve_times)."""
        return await self._finished("game", game, limit)

    async def _finished(self, column: str, value: object, limit: int) -> list[MatchRow]:
        """Games that started and are over whose ``column`` (one of ours, never user text) is ``value``."""
        rows = await self._fetch(
            f"SELECT {_COLUMNS} FROM matches WHERE {column}=? AND status IN ('finished','cancelled') "
            "AND state IS NOT NULL ORDER BY id DESC LIMIT ?",
            value, limit,
        )  # fmt: skip
        return [_row_to_match(r) for r in rows]

    async def forget_user(self, user_id: int, now: float) -> Forgotten:
        """Delete what is kept about a user, in one transaction: their stats, ratings and records go;
        in every match that is over their seats keep their moves but name nobody (no id, no name, no
        DM), and the match no longer says they hosted or ended it. Refused while they sit in a live
        match (lobby or running): ``SeatedInLiveMatch``, nothing changed."""
        needle = f"%{user_id}%"

        async def forget(db: Conn) -> Forgotten:
            live = await db.fetch(
                f"SELECT id, seats FROM matches WHERE {_LIVE_SQL} AND (host_id=? OR seats LIKE ?)",
                user_id,
                needle,
            )
            seated = [
                mid for mid, seats in live if any(s.get("user_id") == user_id for s in json.loads(seats))
            ]
            if seated:
                raise SeatedInLiveMatch(seated)
            rows = await db.fetch(
                f"SELECT {_COLUMNS} FROM matches WHERE NOT {_LIVE_SQL} AND (host_id=? OR seats LIKE ? OR meta LIKE ?)",
                user_id, needle, needle,
            )  # fmt: skip
            changed = 0
            for r in rows:
                try:
                    m = _row_to_match(r)
                except (ValueError, TypeError, KeyError):  # a set-aside match: its seats are replaced whole
                    m = None
                if m is not None and not _forget_in(m, user_id):
                    continue
                if m is None:
                    seats = [
                        {"user_id": None, "name": ""} if s.get("user_id") == user_id else s
                        for s in json.loads(r[9])
                    ]
                    await db.execute(
                        "UPDATE matches SET host_id=?, seats=?, updated=? WHERE id=?",
                        0 if r[5] == user_id else r[5], json.dumps(seats), now, r[0],
                    )  # fmt: skip
                else:
                    gone = [i for i, seat in enumerate(json.loads(r[9])) if seat.get("user_id") == user_id]
                    await db.execute(
                        "UPDATE matches SET host_id=?, seats=?, meta=?, updated=? WHERE id=?",
                        m.host_id, json.dumps([seat.dump() for seat in m.seats]), json.dumps(m.meta.dump()), now, m.id,
                    )  # fmt: skip
                    for seat in gone:  # where their DM and panel were
                        await db.execute(
                            "DELETE FROM surfaces WHERE match_id=? AND seat=? AND kind IN ('dm','panel')",
                            m.id,
                            seat,
                        )
                changed += 1
            rated = await db.execute("DELETE FROM ratings WHERE player=?", str(user_id))
            recorded = await db.execute("DELETE FROM records WHERE user_id=?", user_id)
            return Forgotten(changed, rated, recorded)

        return await self._write(forget)

    async def actions(self, match_id: int) -> list[LoggedAction]:
        rows = await self._fetch(
            "SELECT version, seat, action, source FROM actions WHERE match_id=? ORDER BY version",
            match_id,
        )
        return [LoggedAction(*r) for r in rows]

    async def action_times(self, match_id: int) -> list[float]:
        """When each logged action was committed, in the order of ``actions``."""
        rows = await self._fetch("SELECT at FROM actions WHERE match_id=? ORDER BY version", match_id)
        return [r[0] for r in rows]

    # ---- personal records ------------------------------------------------------------------------

    async def record(self, user_id: int, game: str, mode: str) -> Record | None:
        rows = await self._fetch(
            "SELECT best, previous, match_id FROM records WHERE user_id=? AND game=? AND mode=?",
            user_id, game, mode,
        )  # fmt: skip
        return Record(*rows[0]) if rows else None

    async def improve_record(
        self, user_id: int, game: str, mode: str, value: float, match_id: int, now: float, *, higher: bool
    ) -> tuple[Record | None, bool]:
        """Keep ``value`` as the player's record if it beats the stored one (``higher``: more is better).
        Returns (the record before this match, whether this match set a new one); asking again for the
        same match gives the same answer. On its own transaction; a finishing commit does the same
        within its own (``commit(..., record=...)``)."""
        claim = records.Claim(user_id, game, mode, float(value), higher)
        return await self._write(lambda db: self._write_record(db, claim, match_id, now))

    async def _write_record(
        self, db: Conn, claim: records.Claim, match_id: int, now: float
    ) -> tuple[Record | None, bool]:
        """Within a transaction: keep the claim if it beats the stored record (conditional), and answer
        the same for the same match again (idempotent: a finishing commit may be retried)."""
        rows = await db.fetch(
            "SELECT best, previous, match_id FROM records WHERE user_id=? AND game=? AND mode=?",
            claim.user_id, claim.game, claim.mode,
        )  # fmt: skip
        old = Record(*rows[0]) if rows else None
        if old is not None and old.match_id == match_id:  # set by this very match already
            before = None if old.previous is None else Record(old.previous, None, 0)
            return before, True
        if old is not None and not claim.beats(old.best):
            return old, False
        await db.execute(
            "INSERT INTO records (user_id, game, mode, best, previous, match_id, at) VALUES (?,?,?,?,?,?,?) "
            "ON CONFLICT (user_id, game, mode) DO UPDATE SET best=excluded.best, "
            "previous=excluded.previous, match_id=excluded.match_id, at=excluded.at",
            claim.user_id, claim.game, claim.mode, claim.value, old.best if old else None, match_id, now,
        )  # fmt: skip
        return old, True

    # ---- stats and ratings ----------------------------------------------------------------------

    async def _write_ratings(self, db: Conn, result: ratings.Result, match_id: int, now: float) -> None:
        """Within the finishing commit's transaction: read the players' standings, rate, write."""
        players = list(dict.fromkeys(result.players))
        rows = await db.fetch(
            f"SELECT player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND game=? "
            f"AND player IN ({','.join('?' * len(players))})",
            result.guild_id, result.game, *players,
        )  # fmt: skip
        before = {r[0]: ratings.Standing(*r) for r in rows}
        where = (result.guild_id, result.game)
        await db.executemany(
            "INSERT INTO ratings (guild_id, game, player, played, wins, mu, sigma, ordinal, match_id, at) "
            "VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (guild_id, game, player) DO UPDATE SET "
            "played=excluded.played, wins=excluded.wins, mu=excluded.mu, sigma=excluded.sigma, "
            "ordinal=excluded.ordinal, match_id=excluded.match_id, at=excluded.at",
            [
                (*where, s.player, s.played, s.wins, s.mu, s.sigma, s.ordinal, match_id, now)
                for s in ratings.rate(result, before)
            ],
        )

    async def standings(self, guild_id: int, player: str) -> dict[str, ratings.Standing]:
        """A player's stats and rating per game on one server (games never played are absent)."""
        rows = await self._fetch(
            "SELECT game, player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND player=? "
            "ORDER BY game",
            guild_id, player,
        )  # fmt: skip
        return {r[0]: ratings.Standing(*r[1:]) for r in rows}

    async def leaderboard(self, guild_id: int, game: str, limit: int = 10) -> list[ratings.Standing]:
        """The best rated players of a game on one server, best first."""
        rows = await self._fetch(
            "SELECT player, played, wins, mu, sigma FROM ratings WHERE guild_id=? AND game=? "
            "ORDER BY ordinal DESC, wins DESC, player LIMIT ?",
            guild_id, game, limit,
        )  # fmt: skip
        return [ratings.Standing(*r) for r in rows]


def open_store(
    target: str,
    *,
    exclusive: bool = True,
    pool_size: int | None = None,
    notify_channel: str | None = None,
    migration_lock: int | None = None,
) -> Store:
    """The store for ``target``: a postgresql:// URL (several processes), or a SQLite file path.
    ``pool_size``, ``notify_channel``, ``migration_lock``: PostgreSQL's (None: PostgresStore's defaults)."""
    if target.startswith(("postgresql://", "postgres://")):
        from engine.store_postgres import PostgresStore

        return PostgresStore(
            target, pool_size=pool_size, notify_channel=notify_channel, migration_lock=migration_lock
        )
    from engine.store_sqlite import SqliteStore

    return SqliteStore(target, exclusive=exclusive)


__all__ = [
    "LIVE",
    "SCHEMA_VERSION",
    "ChannelTaken",
    "LiveEntry",
    "LoggedAction",
    "MatchRow",
    "Record",
    "SeatInfo",
    "Store",
    "StoreBusy",
    "StoreError",
    "WriteConflict",
    "open_store",
]
