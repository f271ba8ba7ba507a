"""The public board: the match's one channel message (lobby, game, final board). Edited through the
channel; while Discord refuses channel edits (a rate limit, its own failure) the latest click's
interaction token reaches the same message by another route; a deleted message is posted anew; a
deleted channel closes the match."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot.render_pool import rendered
from bot.surfaces.content import Shown, draft
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import CHANNEL_GONE, MESSAGE_GONE, RETRY, verdict
from engine.store import LIVE, SurfaceRow

if TYPE_CHECKING:
    from bot.surfaces.coordinator import Surfaces

log = logging.getLogger(__name__)

KIND = "board"


class BoardSurface:
    kind = KIND

    def __init__(self, hub: Surfaces) -> None:
        self.hub = hub

    def seats(self, m: object, rows: dict[tuple[str, int], SurfaceRow]) -> list[int]:
        return [-1]

    async def step(self, rec: Reconciler) -> None:
        hub = self.hub
        await hub.quiet(rec.match_id)
        m, state = await hub.matches.get(rec.match_id)
        row = await hub.board_row(m)
        if row is None or row.message_id is None:
            return  # not posted yet: the command or click that opened it posts it
        board = await hub.public_board(m, state)
        d = draft(rec.shown, m.version, board)
        if d is None:
            return
        same_image = not d.new_image
        if not same_image:
            await rendered(board)
        try:
            await hub.send.edit(row.channel_id or m.channel_id, row.message_id, board, image=not same_image)
        except Exception as err:
            v = verdict(err)
            if v.what == RETRY:
                if not await hub.by_token(rec, board, image=not same_image):
                    raise Retry(v.after) from None
            elif v.what == MESSAGE_GONE:
                now = await hub.board_row(m)
                if now is None or now.message_id != row.message_id:
                    rec.poke()  # it moved meanwhile (another process reposted it): edit the new one
                    return
                log.info("match %s: board message is gone; posting a new one", m.id)
                await rendered(board)
                mid = await hub.send.post(row.channel_id or m.channel_id, board)
                await hub.addresses.put(dataclasses.replace(row, message_id=mid, at=hub.now()))
            elif v.what == CHANNEL_GONE:
                if m.status in LIVE:
                    await hub.matches.close_gone(m.id)
                return
            else:
                log.warning("match %s: could not show the board: %s", m.id, err)
                return
        rec.showed(Shown(m.version, d.fingerprint, d.image_key))
