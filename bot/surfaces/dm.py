"""A seat's DM (games whose private surface is a DM, e.g. Ubongo's puzzles): sent when the game
starts, edited as the seat's view or the public facts it shows change, and left showing the final
state with a line saying how the game ended. Closed DMs (50007) send that seat to the panel and say
so on the public board."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot import messages
from bot.games import UIS
from bot.render_pool import rendered
from bot.surfaces.content import Shown, draft
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import DMS_SHUT, FORBIDDEN, MESSAGE_GONE, RETRY, verdict
from engine.store import MatchRow, SurfaceRow

if TYPE_CHECKING:
    from bot.surfaces.coordinator import Surfaces

log = logging.getLogger(__name__)

KIND = "dm"


class DmSurface:
    kind = KIND

    def __init__(self, hub: Surfaces) -> None:
        self.hub = hub

    def seats(self, m: MatchRow, rows: dict[tuple[str, int], SurfaceRow]) -> list[int]:
        if UIS[m.game].private != "dm" or m.status == "lobby" or m.state is None:
            return []
        return [i for i, s in enumerate(m.seats) if not s.ai and s.user_id is not None]

    async def step(self, rec: Reconciler) -> None:
        hub = self.hub
        await hub.quiet(rec.match_id)
        m, state = await hub.matches.get(rec.match_id)
        info = m.seats[rec.seat]
        if state is None or info.ai or info.user_id is None:
            return
        row = await hub.addresses.dm(m, rec.seat)
        if row is not None and row.channel_id == 0:
            return  # DMs closed: this seat plays through the panel
        display = rec.display[1] if rec.display[0] == info.version else ""
        board = messages.private(m, state, rec.seat, hub.private_tr(m, info.user_id), display)
        d = draft(rec.shown, m.version, board)
        if d is None:
            return
        same_image = not d.new_image and row is not None
        if not same_image:
            await rendered(board)
        try:
            if row is not None and row.message_id is not None:
                await hub.send.edit(row.channel_id or 0, row.message_id, board, image=not same_image)
            else:
                await self._post(m, rec.seat, info.user_id, row, await rendered(board))
        except Exception as err:
            v = verdict(err)
            if v.what == RETRY:
                if not await hub.by_token(rec, board, image=not same_image):
                    raise Retry(v.after) from None
            elif v.what == MESSAGE_GONE and row is not None and row.message_id is not None:
                await self._post(
                    m,
                    rec.seat,
                    info.user_id,
                    dataclasses.replace(row, message_id=None),
                    await rendered(board),
                )
            elif v.what in (DMS_SHUT, FORBIDDEN):
                log.info("match %s: seat %s has DMs closed; the panel serves it", m.id, rec.seat)
                await hub.addresses.put(SurfaceRow(m.id, KIND, rec.seat, 0, None, at=hub.now()))
                hub.reconciler(m.id, "board").poke()  # the board now offers that seat the panel
                return
            else:
                log.warning("match %s: DM to seat %s failed: %s", m.id, rec.seat, err)
                return
        rec.showed(Shown(m.version, d.fingerprint, d.image_key))

    async def _post(
        self, m: MatchRow, seat: int, user_id: int, row: SurfaceRow | None, board: messages.Board
    ) -> None:
        hub = self.hub
        channel = row.channel_id if row is not None and row.channel_id else await hub.send.dm_channel(user_id)
        mid = await hub.send.post(channel, board)
        await hub.addresses.put(SurfaceRow(m.id, KIND, seat, channel, mid, at=hub.now()))
