"""A seat's open panel: the ephemeral reply of the hand button (and the private surface of a seat whose
DMs are closed). Discord lets the bot edit it through the interaction that made or last clicked it
for 15 minutes, and for that long it follows the seat's view; opening another retires it."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord

from bot import messages
from bot.i18n import Translator, translator
from bot.render_pool import rendered
from bot.surfaces import names
from bot.surfaces.content import shown
from bot.surfaces.kind import Context, Rows
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.redraw import TOKEN_SECONDS, Drafted, Redrawn
from bot.surfaces.send import Verdict
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.PANEL


def live(row: SurfaceRow | None, now: float) -> bool:
    return row is not None and row.token is not None and now - row.at < TOKEN_SECONDS


class PanelSurface(Redrawn):
    kind = KIND
    by_token = False  # its only route is its interaction's token

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [seat for (kind, seat), row in rows.items() if kind == KIND and live(row, self.ctx.now())]

    async def draft(self, rec: Reconciler, m: MatchRow, state: Any) -> Drafted | None:
        row = await self.ctx.addresses.get(m.id, KIND, rec.seat)
        if state is None or row is None or not live(row, self.ctx.now()):
            return None
        info = m.seats[rec.seat]
        tr = self.ctx.languages.private_tr(m, info.user_id)
        return Drafted(m, messages.private(m, state, rec.seat, tr, rec.display_for(info.version)), row)

    async def apply(self, rec: Reconciler, page: Drafted, image: bool) -> None:
        row = page.row
        assert row is not None and row.token is not None and row.message_id is not None
        await self.ctx.send.edit_by_token(row.token, row.message_id, page.board, image=image)

    async def refused(self, rec: Reconciler, page: Drafted, err: Exception, said: Verdict) -> bool:
        assert page.row is not None
        log.info("match %s: seat %s's panel can no longer be edited (%s)", page.m.id, rec.seat, err)
        await self.ctx.addresses.put(dataclasses.replace(page.row, token=None))
        return False


async def retire(ctx: Context, row: SurfaceRow, tr: Translator) -> None:
    """An older panel of the seat, replaced by a newer one: one line, no controls, no image."""
    if not live(row, ctx.now()):
        return
    assert row.token is not None and row.message_id is not None
    try:
        await ctx.send.edit_by_token(row.token, row.message_id, messages.Board(tr("panel.replaced"), None))
    except Exception as err:
        log.info("match %s: the replaced panel was not edited (%s)", row.match_id, err)


async def open_panel(
    ctx: Context, rec: Reconciler, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int
) -> None:
    """The hand button (or /game hand): the seat's private surface as an ephemeral reply, live for
    15 minutes; the seat's previous panel is retired."""
    tr = translator(interaction.locale)
    board = await rendered(messages.private(m, state, seat, tr))
    response = await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)
    mid = response.message_id if response is not None else None
    if mid is None:
        mid = (await interaction.original_response()).id
    old = await ctx.addresses.get(m.id, KIND, seat)
    now = shown(m.version, board)
    rec.replaced(now, (interaction.token, mid))
    # what it shows goes with its address, in the one write a new panel costs
    await ctx.addresses.note(SurfaceRow(m.id, KIND, seat, interaction.channel_id, mid, interaction.token,
                                        m.version, ctx.now(), now.encode()))  # fmt: skip
    if old is not None and old.message_id != mid:
        await retire(ctx, old, tr)
