"""The public board: the match's one channel message (lobby, game, final board). Edited through the
channel; while Discord refuses channel edits (a rate limit, its own failure) the latest click's
interaction token reaches the same message by another route; a deleted message is posted anew; a
deleted channel closes the match. Posted by the command or click that opened the match, and anew at
the bottom of the channel by /game board."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

import discord

from bot.render_pool import rendered
from bot.surfaces import names
from bot.surfaces.content import public_board, shown
from bot.surfaces.kind import Context, Rows
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.redraw import Drafted, Redrawn
from bot.surfaces.send import CHANNEL_GONE, MESSAGE_GONE, Verdict
from engine.store import LIVE, MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.BOARD


class BoardSurface(Redrawn):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [-1]

    async def draft(self, rec: Reconciler, m: MatchRow, state: Any) -> Drafted | None:
        row = await self.ctx.addresses.board(m)
        if row is None or row.message_id is None:
            return None  # not posted yet: the command or click that opened it posts it
        return Drafted(m, await public_board(self.ctx.addresses, m, state), row)

    async def apply(self, rec: Reconciler, page: Drafted, image: bool) -> None:
        m, row = page.m, page.row
        assert row is not None and row.message_id is not None
        await self.ctx.send.edit(row.channel_id or m.channel_id, row.message_id, page.board, image=image)

    async def refused(self, rec: Reconciler, page: Drafted, err: Exception, said: Verdict) -> bool:
        ctx, m, row = self.ctx, page.m, page.row
        assert row is not None
        if said.what == MESSAGE_GONE:
            now = await ctx.addresses.board(m)
            if now is None or now.message_id != row.message_id:
                rec.poke()  # it moved meanwhile (another process reposted it): edit the new one
                return False
            log.info("match %s: board message is gone; posting a new one", m.id)
            await rendered(page.board)
            mid = await ctx.send.post(row.channel_id or m.channel_id, page.board)
            await ctx.addresses.put(dataclasses.replace(row, message_id=mid, at=ctx.now()))
            return True
        if said.what == CHANNEL_GONE:
            if m.status in LIVE:
                await ctx.matches.close_gone(m.id)
            return False
        log.warning("match %s: could not show the board: %s", m.id, err)
        return False


async def post_first(
    ctx: Context, rec: Reconciler, interaction: discord.Interaction, m: MatchRow, state: Any
) -> None:
    """A new match's first message (a lobby, a game started at once, a rematch offer) as the answer
    to the command or click that opened it."""
    board = await rendered(await public_board(ctx.addresses, m, state))
    try:
        response = await interaction.response.send_message(**board.kwargs(new=True))
        message_id = response.message_id
        if message_id is None:
            message_id = (await interaction.original_response()).id
    except discord.HTTPException:
        # nobody saw it: close it, or an invisible lobby (or game) would block the channel
        await ctx.matches.discard_lobby(m.id)
        raise
    await adopt(ctx, rec, m, m.channel_id, message_id, interaction.token)
    rec.showed(shown(m.version, board))


async def post_new(ctx: Context, rec: Reconciler, m: MatchRow, state: Any, channel_id: int) -> None:
    """A new match's first message, posted by the bot itself (no command or click opened it)."""
    board = await rendered(await public_board(ctx.addresses, m, state))
    message_id = await ctx.send.post(channel_id, board)
    await adopt(ctx, rec, m, channel_id, message_id)
    rec.showed(shown(m.version, board))


async def adopt(
    ctx: Context, rec: Reconciler, m: MatchRow, channel_id: int, message_id: int, token: str | None = None
) -> None:
    """The public message a command or click just posted for a new match."""
    await ctx.addresses.put(SurfaceRow(m.id, KIND, -1, channel_id, message_id, at=ctx.now()))
    if token is not None:
        rec.via(token, message_id)


async def repost(ctx: Context, rec: Reconciler, match_id: int) -> None:
    """/game board: the board posted anew at the bottom of the channel, the old one removed."""
    async with rec.lock:  # never while a step edits the board it replaces
        m, state = await ctx.matches.get(match_id)
        old = await ctx.addresses.board(m)
        board = await rendered(await public_board(ctx.addresses, m, state))
        mid = await ctx.send.post(m.channel_id, board)
        try:
            await ctx.addresses.put(SurfaceRow(m.id, KIND, -1, m.channel_id, mid, at=ctx.now()))
        except Exception:
            # the database cannot remember it (disk full, busy): take it down again, or a second board
            # with live controls would stay, and clicks on it would never be shown
            with contextlib.suppress(discord.HTTPException):
                await ctx.send.delete(m.channel_id, mid)
            raise
        rec.showed(shown(m.version, board))
        rec.drop_token()
        if old is not None and old.message_id is not None:
            try:
                await ctx.send.delete(old.channel_id or m.channel_id, old.message_id)
            except discord.HTTPException as err:
                log.info("match %s: the old board was not deleted: %s", m.id, err)
