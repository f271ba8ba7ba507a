"""Tournaments' rows: the record as JSON (engine.tournament.model), written conditionally on the
version read, like a match."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from engine.store.conn import Body, Conn
from engine.store.errors import WriteConflict
from engine.tournament.model import OPEN, Tournament


async def forget_in_tournaments(db: Conn, user_id: int, now: float) -> list[int]:
    """Within ``forget_user``'s transaction: every tournament that names the user names them no more
    (engine.tournament.model.Tournament.forget); the ids of those that changed."""
    changed: list[int] = []
    for tid, data in await db.fetch("SELECT id, data FROM tournaments WHERE data LIKE ?", f"%{user_id}%"):
        t = Tournament.load(json.loads(data))
        if t.forget(user_id):
            t.version += 1
            await db.execute(
                "UPDATE tournaments SET version=?, data=?, updated=? WHERE id=?",
                t.version, json.dumps(t.dump()), now, tid,
            )  # fmt: skip
            changed.append(tid)
    return changed


_OPEN_SQL = "status IN (" + ",".join(f"'{s}'" for s in OPEN) + ")"


class TournamentQueries:
    _fetch: Callable[..., Awaitable[list[tuple[Any, ...]]]]
    _write: Callable[[Body[Any]], Awaitable[Any]]

    async def create_tournament(self, t: Tournament, now: float) -> Tournament:
        async def insert(db: Conn) -> int:
            rows = await db.fetch(
                "INSERT INTO tournaments (guild_id, channel_id, status, version, deadline, data, created, updated) "
                "VALUES (?,?,?,?,?,?,?,?) RETURNING id",
                t.guild_id, t.channel_id, t.status, t.version, t.deadline, "{}", now, now,
            )  # fmt: skip
            t.id = int(rows[0][0])
            await db.execute("UPDATE tournaments SET data=? WHERE id=?", json.dumps(t.dump()), t.id)
            return t.id

        await self._write(insert)
        return t

    async def tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._fetch("SELECT data FROM tournaments WHERE id=?", tournament_id)
        return Tournament.load(json.loads(rows[0][0])) if rows else None

    async def commit_tournament(self, t: Tournament, read_version: int, now: float) -> None:
        """Write ``t`` (its version already moved on) if the stored one is still ``read_version``."""

        async def write(db: Conn) -> None:
            changed = await db.execute(
                "UPDATE tournaments SET status=?, version=?, deadline=?, data=?, updated=? "
                "WHERE id=? AND version=?",
                t.status, t.version, t.deadline, json.dumps(t.dump()), now, t.id, read_version,
            )  # fmt: skip
            if changed != 1:
                raise WriteConflict()

        await self._write(write)

    async def open_tournaments(self) -> list[Tournament]:
        rows = await self._fetch(f"SELECT data FROM tournaments WHERE {_OPEN_SQL} ORDER BY id")
        return [Tournament.load(json.loads(r[0])) for r in rows]

    async def tournaments_in(self, channel_id: int) -> list[Tournament]:
        """The channel's tournaments, newest first."""
        rows = await self._fetch(
            "SELECT data FROM tournaments WHERE channel_id=? ORDER BY id DESC LIMIT 25", channel_id
        )
        return [Tournament.load(json.loads(r[0])) for r in rows]
