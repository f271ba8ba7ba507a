"""The turn ping: a small reply to the board that mentions the players whose turn just began (edits
never notify), once per turn in any process (claimed in the surfaces table), replacing the previous
one; deleted when the game ends or a turn begins for nobody to mention (a computer, a player away).
Stored, so a restart deletes the old one instead of leaving it."""

from __future__ import annotations

import contextlib
import dataclasses
import logging

import discord

from bot import messages
from bot.surfaces import names
from bot.surfaces.kind import Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler
from engine.store import LIVE, MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.PING


class PingSurface(SurfaceKind):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [-1]

    async def step(self, rec: Reconciler) -> None:
        ctx = self.ctx
        m, state = await ctx.matches.get(rec.match_id)
        row = await ctx.addresses.get(m.id, KIND)
        line = messages.mention_line(m, state, messages.tr_for(m)) if m.status in LIVE else None
        if line is None:
            # the game is over, or a turn began for nobody to mention (a computer, a player away):
            # the ping of the turn before is not left standing through it
            over = m.status not in LIVE or bool(m.meta.new_turn)
            if over and row is not None and row.message_id is not None and row.version < m.version:
                await self._drop(row)
            return
        if row is not None and row.version >= m.version:
            return  # this turn was pinged (by this process or another)
        if not await ctx.addresses.claim(SurfaceRow(m.id, KIND, -1, m.channel_id, row.message_id if row else None,
                                                    version=m.version, at=ctx.now())):  # fmt: skip
            return
        text, users = line
        board = await ctx.addresses.board(m)
        try:
            mid = await ctx.send.post(
                m.channel_id, text=text, reply_to=board.message_id if board else None, mentions=tuple(users)
            )
        except discord.HTTPException as err:
            # the claim stays: a ping is worth one try per turn, and a late ping is worse than none
            log.warning("match %s: turn ping failed: %s", m.id, err)
            return
        if row is not None and row.message_id is not None:
            await self._delete(row)
        await ctx.addresses.put(
            SurfaceRow(m.id, KIND, -1, m.channel_id, mid, version=m.version, at=ctx.now())
        )

    async def _delete(self, row: SurfaceRow) -> None:
        assert row.message_id is not None
        with contextlib.suppress(discord.HTTPException):
            await self.ctx.send.delete(row.channel_id or 0, row.message_id)

    async def _drop(self, row: SurfaceRow) -> None:
        await self._delete(row)
        await self.ctx.addresses.put(dataclasses.replace(row, message_id=None))
