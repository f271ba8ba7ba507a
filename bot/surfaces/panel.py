"""A seat's open panel: the ephemeral reply of the hand button (and the private surface of a seat whose
DMs are closed). Discord lets the bot edit it through the interaction that made or last clicked it
for 15 minutes, and for that long it follows the seat's view; opening another retires it."""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from bot import messages
from bot.i18n import Translator
from bot.render_pool import rendered
from bot.surfaces.content import Shown, draft
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import RETRY, verdict
from engine.store import MatchRow, SurfaceRow

if TYPE_CHECKING:
    from bot.surfaces.coordinator import Surfaces

log = logging.getLogger(__name__)

KIND = "panel"
TOKEN_SECONDS = 15 * 60 - 20  # Discord's 15 minutes, less a margin for the call itself


def live(row: SurfaceRow | None, now: float) -> bool:
    return row is not None and row.token is not None and now - row.at < TOKEN_SECONDS


class PanelSurface:
    kind = KIND

    def __init__(self, hub: Surfaces) -> None:
        self.hub = hub

    def seats(self, m: MatchRow, rows: dict[tuple[str, int], SurfaceRow]) -> list[int]:
        return [seat for (kind, seat), row in rows.items() if kind == KIND and live(row, self.hub.now())]

    async def step(self, rec: Reconciler) -> None:
        hub = self.hub
        await hub.quiet(rec.match_id)
        m, state = await hub.matches.get(rec.match_id)
        row = await hub.addresses.get(m.id, KIND, rec.seat)
        if state is None or row is None or not live(row, hub.now()):
            return
        assert row.token is not None and row.message_id is not None
        info = m.seats[rec.seat]
        display = rec.display[1] if rec.display[0] == info.version else ""
        board = messages.private(m, state, rec.seat, hub.private_tr(m, info.user_id), display)
        d = draft(rec.shown, m.version, board)
        if d is None:
            return
        same_image = not d.new_image
        if not same_image:
            await rendered(board)
        try:
            await hub.send.edit_by_token(row.token, row.message_id, board, image=not same_image)
        except Exception as err:
            v = verdict(err)
            if v.what == RETRY:
                raise Retry(v.after) from None
            log.info("match %s: seat %s's panel can no longer be edited (%s)", m.id, rec.seat, err)
            await hub.addresses.put(dataclasses.replace(row, token=None))
            return
        rec.showed(Shown(m.version, d.fingerprint, d.image_key))

    async def retire(self, row: SurfaceRow, tr: Translator) -> None:
        """An older panel of the seat, replaced by a newer one: one line, no controls, no image."""
        if not live(row, self.hub.now()):
            return
        assert row.token is not None and row.message_id is not None
        try:
            await self.hub.send.edit_by_token(
                row.token, row.message_id, messages.Board(tr("panel.replaced"), None)
            )
        except Exception as err:
            log.info("match %s: the replaced panel was not edited (%s)", row.match_id, err)
