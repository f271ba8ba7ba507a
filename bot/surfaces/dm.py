"""A seat's DM (games whose private surface is a DM, e.g. Ubongo's puzzles): sent when the game
starts, edited as the seat's view or the public facts it shows change, and left showing the final
state with a line saying how the game ended. Closed DMs (50007) send that seat to the panel and say
so on the public board."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from bot import messages
from bot.games import UIS
from bot.render_pool import rendered
from bot.surfaces import names
from bot.surfaces.kind import Rows
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.redraw import Drafted, Redrawn
from bot.surfaces.send import DMS_SHUT, FORBIDDEN, MESSAGE_GONE, Verdict
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.DM


class DmSurface(Redrawn):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        if UIS[m.game].private != "dm" or m.status == "lobby" or m.state is None:
            return []
        return [i for i, s in enumerate(m.seats) if s.user_id is not None]  # (a member who resigned too)

    async def draft(self, rec: Reconciler, m: MatchRow, state: Any) -> Drafted | None:
        info = m.seats[rec.seat]
        if state is None or info.user_id is None:
            return None
        row = await self.ctx.addresses.dm(m, rec.seat)
        if info.ai and (row is None or row.message_id is None):
            return None  # a member who resigned: only the DM they had is told so (and the result)
        if row is not None and row.channel_id == 0:
            return None  # DMs closed: this seat plays through the panel
        tr = self.ctx.languages.private_tr(m, info.user_id)
        return Drafted(m, messages.private(m, state, rec.seat, tr, rec.display_for(info.version)), row)

    async def apply(self, rec: Reconciler, page: Drafted, image: bool) -> None:
        row = page.row
        if row is not None and row.message_id is not None:
            await self.ctx.send.edit(row.channel_id or 0, row.message_id, page.board, image=image)
        else:
            await self._post(page.m, rec.seat, row, await rendered(page.board))

    async def refused(self, rec: Reconciler, page: Drafted, err: Exception, said: Verdict) -> bool:
        m, row = page.m, page.row
        if said.what == MESSAGE_GONE and row is not None and row.message_id is not None:
            await self._post(
                m, rec.seat, dataclasses.replace(row, message_id=None), await rendered(page.board)
            )
            return True
        if said.what in (DMS_SHUT, FORBIDDEN):
            log.info("match %s: seat %s has DMs closed; the panel serves it", m.id, rec.seat)
            await self.ctx.addresses.put(SurfaceRow(m.id, KIND, rec.seat, 0, None, at=self.ctx.now()))
            self.ctx.poke(m.id, names.BOARD)  # the board now offers that seat the panel
            return False
        log.warning("match %s: DM to seat %s failed: %s", m.id, rec.seat, err)
        return False

    async def _post(self, m: MatchRow, seat: int, row: SurfaceRow | None, board: messages.Board) -> None:
        ctx, user_id = self.ctx, m.seats[seat].user_id
        assert user_id is not None
        channel = row.channel_id if row is not None and row.channel_id else await ctx.send.dm_channel(user_id)
        mid = await ctx.send.post(channel, board)
        await ctx.addresses.put(SurfaceRow(m.id, KIND, seat, channel, mid, at=ctx.now()))
