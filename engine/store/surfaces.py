"""Surface addresses, server settings and users' settings: small rows written without a match's lock."""

from __future__ import annotations

import collections
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from engine.store.conn import Body, Conn
from engine.store.rows import SurfaceRow

_SURFACE_COLUMNS = "match_id, kind, seat, channel_id, message_id, token, version, at, shown"
# a row written without what its message shows (a new token, a claim) keeps what was noted for that
# message; a new message shows nothing known yet
_UPSERT = (
    f"INSERT INTO surfaces ({_SURFACE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?) "
    "ON CONFLICT (match_id, kind, seat) DO UPDATE SET channel_id=excluded.channel_id, "
    "message_id=excluded.message_id, token=excluded.token, version=excluded.version, at=excluded.at, "
    "shown=CASE WHEN excluded.shown IS NULL AND surfaces.message_id = excluded.message_id "
    "THEN surfaces.shown ELSE excluded.shown END"
)
_SHOWN = "UPDATE surfaces SET shown=? WHERE match_id=? AND kind=? AND seat=?"
KEPT_SETTINGS = 65536  # users whose settings are kept in memory (a few short values each)


def _values(row: SurfaceRow) -> tuple[Any, ...]:
    return (
        row.match_id, row.kind, row.seat, row.channel_id, row.message_id, row.token, row.version, row.at,
        row.shown,
    )  # fmt: skip


class SurfaceQueries:
    """Surface addresses and server settings: small rows written without a match's lock (showing a
    board never waits for, or commits to, the match)."""

    shared: bool  # (Store.shared)
    # users' settings as read, by user (only where no other process writes the database)
    _user_settings: collections.OrderedDict[int, dict[str, str | None]]
    _settings_changed: int  # writes of users' settings so far

    _fetch: Callable[..., Awaitable[list[tuple[Any, ...]]]]
    _write: Callable[[Body[Any]], Awaitable[Any]]

    async def surfaces(self, match_id: int) -> list[SurfaceRow]:
        rows = await self._fetch(f"SELECT {_SURFACE_COLUMNS} FROM surfaces WHERE match_id=?", match_id)
        return [SurfaceRow(*r) for r in rows]

    async def put_surface(self, row: SurfaceRow) -> None:
        await self._execute(_UPSERT, *_values(row))

    async def note_surfaces(
        self, rows: Sequence[SurfaceRow], shown: Sequence[tuple[str | None, int, str, int]] = ()
    ) -> None:
        """Addresses worth little alone (a panel's latest token: ``put_surface`` each), then what
        surfaces' messages show now ((shown, match_id, kind, seat) each; a surface without a stored
        address is left out), all in one transaction."""

        async def write(db: Conn) -> None:
            if rows:
                await db.executemany(_UPSERT, [_values(r) for r in rows])
            if shown:
                await db.executemany(_SHOWN, list(shown))

        await self._write(write)

    async def claim_surface(self, row: SurfaceRow) -> bool:
        """Write ``row`` only if its version is newer than the stored one: True for the one caller, in
        any process, that claimed this version (a ping per turn, a recap once)."""
        changed = await self._execute(f"{_UPSERT} WHERE surfaces.version < excluded.version", *_values(row))
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

    async def user_setting(self, user_id: int, name: str) -> str | None:
        """A user's setting (None: the default). Asked at every turn that begins (the turn notice's
        setting), so a database no other process writes (``shared`` False) is read once per user
        and setting, then answered from memory: every write of it goes through here."""
        kept = self._user_settings.get(user_id) if not self.shared else None
        if kept is not None and name in kept:
            self._user_settings.move_to_end(user_id)
            return kept[name]
        changes = self._settings_changed
        rows = await self._fetch("SELECT value FROM user_settings WHERE user_id=? AND name=?", user_id, name)
        value = rows[0][0] if rows else None
        if not self.shared and changes == self._settings_changed:  # (no write meanwhile: still true)
            self._user_settings.setdefault(user_id, {})[name] = value
            self._user_settings.move_to_end(user_id)
            while len(self._user_settings) > KEPT_SETTINGS:
                self._user_settings.popitem(last=False)
        return value

    async def set_user_setting(self, user_id: int, name: str, value: str | None) -> None:
        """Keep a user's setting; None: forget it (the default applies again)."""
        try:
            if value is None:
                await self._execute("DELETE FROM user_settings WHERE user_id=? AND name=?", user_id, name)
            else:
                await self._execute(
                    "INSERT INTO user_settings (user_id, name, value) VALUES (?,?,?) "
                    "ON CONFLICT (user_id, name) DO UPDATE SET value=excluded.value",
                    user_id, name, value,
                )  # fmt: skip
        finally:
            self._forget_settings(user_id)

    def _forget_settings(self, user_id: int) -> None:
        """A user's settings changed or went (``forget_user``), once written: read them afresh, and a
        read under way meanwhile keeps nothing (until then, memory says what the database held)."""
        self._user_settings.pop(user_id, None)
        self._settings_changed += 1

    async def _execute(self, sql: str, *args: Any) -> int:
        """One statement in a transaction of its own; the rows it changed."""
        return int(await self._write(lambda db: db.execute(sql, *args)))
