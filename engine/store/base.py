"""Persistence: matches (snapshot + version + timers) and an append-only action log, on SQLite
(embedded, the default: engine.store.sqlite) or PostgreSQL (several processes: engine.store.postgres),
chosen by ``engine.store.open``. The queries are written once, here, in SQL both understand (``?`` for
parameters); a backend supplies connections, transactions and the mapping of its errors.

The database is the truth; Discord messages are only a view of it. A move is committed (snapshot,
log row and timers in one transaction) before anything is shown. Every write is conditional on the
version it read, and the database enforces it (a conditional UPDATE, row-locked by PostgreSQL), so a
stale copy, in this process or another, can never overwrite a newer row: it gets WriteConflict.
"""

from __future__ import annotations

import abc
import collections
import json
import logging
from collections.abc import Iterable
from typing import Any

from engine import ratings, records
from engine.meta import MatchMeta
from engine.store.columns import (
    _COLUMNS,
    _HOST,
    _LIVE_SQL,
    _MUTABLE,
    _MUTABLE_SLOTS,
    _SEATS,
    _mutable_values,
    _row_to_match,
)
from engine.store.conn import Body, Conn, Listener, T
from engine.store.errors import SeatedInLiveMatch, WriteConflict
from engine.store.rows import Forgotten, LiveEntry, LoggedAction, MatchRow, Record, SeatInfo
from engine.store.surfaces import SurfaceQueries
from engine.store.tournaments import TournamentQueries, forget_in_tournaments

log = logging.getLogger(__name__)


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


class Store(abc.ABC, SurfaceQueries, TournamentQueries):
    """The queries; subclasses provide ``_fetch`` (one query) and ``_write`` (one transaction, given
    as a function of its connection so a backend can run it where it is cheapest and retry it)."""

    kind = "?"
    shared = False  # several processes may write this database (PostgreSQL): caches must be checked

    def __init__(self) -> None:
        self._user_settings = collections.OrderedDict()
        self._settings_changed = 0

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

    async def live_ids_of(self, user_id: int) -> list[int]:
        """The live matches (lobbies and games) in which ``user_id`` has a seat, oldest first: one
        query over the live rows only (the status index), the seats read to be sure."""
        rows = await self._fetch(
            f"SELECT id, seats FROM matches WHERE {_LIVE_SQL} AND seats LIKE ? ORDER BY id", f"%{user_id}%"
        )
        out = []
        for mid, seats in rows:
            try:
                if any(s.get("user_id") == user_id for s in json.loads(seats)):
                    out.append(mid)
            except (ValueError, TypeError, AttributeError):
                continue  # a row that cannot be read is set aside when it is next read
        return out

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
        """Delete what is kept about a user in one transaction: stats, ratings, records, settings; their
        seats in finished matches keep the moves but name nobody (no id, name, DM, host or ender), and
        tournaments keep their results anonymously. Refused while they sit in a live match."""
        try:
            return await self._forget_user(user_id, now)
        finally:
            self._forget_settings(user_id)  # (the settings read from memory)

    async def _forget_user(self, user_id: int, now: float) -> Forgotten:
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
                        for s in json.loads(r[_SEATS])
                    ]
                    await db.execute(
                        "UPDATE matches SET host_id=?, seats=?, updated=? WHERE id=?",
                        0 if r[_HOST] == user_id else r[_HOST], json.dumps(seats), now, r[0],
                    )  # fmt: skip
                else:
                    gone = [
                        i for i, seat in enumerate(json.loads(r[_SEATS])) if seat.get("user_id") == user_id
                    ]
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
            tournaments = await forget_in_tournaments(db, user_id, now)
            rated = await db.execute("DELETE FROM ratings WHERE player=?", str(user_id))
            recorded = await db.execute("DELETE FROM records WHERE user_id=?", user_id)
            settings = await db.execute("DELETE FROM user_settings WHERE user_id=?", user_id)
            return Forgotten(changed, rated, recorded, settings, tuple(tournaments))

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
