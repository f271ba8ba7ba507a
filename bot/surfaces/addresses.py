"""Where each surface lives, read through a bounded per-process cache and written straight to the
``surfaces`` table: never under a match's lock, never as a match commit. What each surface's message
shows goes there too, off every click's path, and so do addresses worth little alone (a panel's
latest token, a turn ping's message): noted at once here, written in the background once the clicks
and surfaces at work are done (``Quiet.calm``), all of them in one transaction (a move's answer and
its fan-out note two to four things: one write, not one each)."""

from __future__ import annotations

import asyncio
import collections
import dataclasses
import logging
from collections.abc import Awaitable, Callable

from bot.surfaces.names import BOARD, DM
from engine.store import MatchRow, SurfaceRow
from engine.store.base import Store

log = logging.getLogger(__name__)

CACHED_MATCHES = 4096


class Addresses:
    def __init__(self, store: Store, calm: Callable[[], Awaitable[None]] | None = None) -> None:
        self.store = store
        self._calm = calm  # until no click is on its way: what surfaces show is written after a burst
        self._rows: collections.OrderedDict[int, dict[tuple[str, int], SurfaceRow]] = (
            collections.OrderedDict()
        )
        self._shown: dict[tuple[int, str, int], str | None] = {}  # noted, not written yet
        self._noted: dict[tuple[int, str, int], SurfaceRow] = {}  # addresses noted, not written yet
        self._writing: asyncio.Task[None] | None = None

    async def _of(self, match_id: int) -> dict[tuple[str, int], SurfaceRow]:
        rows = self._rows.get(match_id)
        if rows is None:
            rows = {(r.kind, r.seat): r for r in await self.store.surfaces(match_id)}
            rows.update({(k, s): r for (mid, k, s), r in self._noted.items() if mid == match_id})  # (newer)
            self._rows[match_id] = rows
            while len(self._rows) > CACHED_MATCHES:
                self._rows.popitem(last=False)
        self._rows.move_to_end(match_id)
        return rows

    async def get(self, match_id: int, kind: str, seat: int = -1) -> SurfaceRow | None:
        return (await self._of(match_id)).get((kind, seat))

    async def all(self, match_id: int) -> list[SurfaceRow]:
        return list((await self._of(match_id)).values())

    async def board(self, m: MatchRow) -> SurfaceRow | None:
        return await self.get(m.id, BOARD)

    async def dm(self, m: MatchRow, seat: int) -> SurfaceRow | None:
        return await self.get(m.id, DM, seat)

    async def closed_dms(self, m: MatchRow) -> set[int]:
        """Seats whose DMs turned out closed (channel 0): they play through the panel."""
        return {
            s for s in range(len(m.seats)) if (row := await self.dm(m, s)) is not None and row.channel_id == 0
        }

    async def put(self, row: SurfaceRow) -> None:
        row = self._carry(row)
        await self.store.put_surface(row)
        (await self._of(row.match_id))[(row.kind, row.seat)] = row

    async def note(self, row: SurfaceRow) -> None:
        """``put``, where losing the row costs little (a panel's latest token, a turn ping's message):
        written in the background with what surfaces show; if the database cannot take it then (busy,
        full), this process still knows it. Nothing is raised."""
        row = self._carry(row)
        rows = self._rows.get(row.match_id)
        if rows is not None:
            rows[(row.kind, row.seat)] = row
        self._noted[(row.match_id, row.kind, row.seat)] = row
        self._write_soon()

    async def claim(self, row: SurfaceRow) -> bool:
        """Take ``row.version`` of this surface for this process (a ping per turn, a recap once):
        False if any process took it already. A database no other process writes (SQLite, held by
        one bot) has its rows here as they are: the claim is taken here and written with the notes
        (a crash before that write may ping a turn twice after the restart, never a turn lost)."""
        key = (row.match_id, row.kind, row.seat)
        if not self.store.shared:
            rows = await self._of(row.match_id)
            old = rows.get((row.kind, row.seat))
            if old is not None and old.version >= row.version:
                return False
            rows[(row.kind, row.seat)] = self._noted[key] = _kept(old, row)
            self._write_soon()
            return True
        self._noted.pop(key, None)  # (as ``_carry``: this one is newer)
        if not await self.store.claim_surface(row):
            self._rows.pop(row.match_id, None)  # another process wrote it: read it afresh next time
            return False
        rows = await self._of(row.match_id)
        rows[(row.kind, row.seat)] = _kept(rows.get((row.kind, row.seat)), row)
        return True

    def forget(self, match_id: int) -> None:
        self._rows.pop(match_id, None)

    def _carry(self, row: SurfaceRow) -> SurfaceRow:
        """``row``, about to be written, with what its message shows as this process knows it: an
        address written anyway carries it, and it is not written again on its own."""
        rows = self._rows.get(row.match_id)
        row = _kept(rows.get((row.kind, row.seat)) if rows is not None else None, row)
        key = (row.match_id, row.kind, row.seat)
        if key in self._shown and self._shown[key] == row.shown:
            del self._shown[key]
        self._noted.pop(key, None)  # this write is the newer: a noted one must not land after it
        return row

    def shown(self, match_id: int, kind: str, seat: int, shown: str | None) -> None:
        """What that surface's message shows now (None: unknown), to be stored with its address."""
        rows = self._rows.get(match_id)
        row = rows.get((kind, seat)) if rows is not None else None
        if rows is not None and row is not None:
            rows[(kind, seat)] = dataclasses.replace(row, shown=shown)
        self._shown[(match_id, kind, seat)] = shown
        self._write_soon()

    def _write_soon(self) -> None:
        if self._writing is None or self._writing.done():
            self._writing = asyncio.get_running_loop().create_task(self._write_noted())

    async def _write_noted(self) -> None:
        await asyncio.sleep(0)  # what the same turn of the loop noted goes together
        while self._shown or self._noted:
            if self._calm is not None:
                await self._calm()
            shown, self._shown = self._shown, {}
            rows, self._noted = self._noted, {}
            try:
                await self.store.note_surfaces(list(rows.values()), [(s, *key) for key, s in shown.items()])
            except Exception as err:  # it costs a picture sent again after a restart, no more
                log.warning(
                    "%s addresses and what %s surfaces show were not stored: %r", len(rows), len(shown), err
                )

    async def written(self) -> None:
        """Until what was noted is written (tests, shutdown)."""
        while self._writing is not None and not self._writing.done():
            await asyncio.shield(self._writing)


def _kept(old: SurfaceRow | None, new: SurfaceRow) -> SurfaceRow:
    """The cached row after writing ``new`` (as the store's upsert keeps it): a row written without
    what its message shows keeps what was known for that same message."""
    if new.shown is None and old is not None and old.message_id == new.message_id and old.message_id:
        return dataclasses.replace(new, shown=old.shown)
    return new
