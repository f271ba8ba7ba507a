"""The notice that a match's clock is held up: a due timer (a turn limit, a countdown) keeps failing
to fire because the database cannot be written (a full disk). The engine keeps retrying; after a few
seconds it says so (``engine.signals.TimerHeld``), and one short reply to the board tells the channel.
It is deleted when the timer fires at last. Kept in memory only: the database is what is failing."""

from __future__ import annotations

import logging

import discord

from bot import messages
from bot.surfaces import names
from bot.surfaces.kind import Context, Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import RETRY, verdict
from engine.errors import EngineError
from engine.store import MatchRow

log = logging.getLogger(__name__)

KIND = names.HELD


class HeldNotice(SurfaceKind):
    kind = KIND

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._want: dict[int, bool] = {}  # match -> whether its clock is held up now
        self._posted: dict[int, tuple[int, int]] = {}  # match -> (channel, message) of its notice

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return []  # not a view of the committed state: only ``update`` brings it in line

    def update(self, match_id: int, held: bool) -> None:
        """The engine's word (``engine.signals.TimerHeld``): the match's due timer cannot fire (True),
        or fired at last (False). Returns at once; the match's reconciler posts or deletes."""
        if self.ctx.closing:
            return  # (a timer cancelled at shutdown: its notice stays, like the process's others)
        if held or match_id in self._want:
            self._want[match_id] = held
            self.ctx.poke(match_id, KIND)

    async def step(self, rec: Reconciler) -> None:
        mid = rec.match_id
        want, posted = self._want.get(mid, False), self._posted.get(mid)
        if want and posted is None:
            await self._post(mid)
        elif not want:
            if posted is not None:
                await self._delete(posted)
                del self._posted[mid]
            self._want.pop(mid, None)

    async def _post(self, match_id: int) -> None:
        ctx = self.ctx
        try:
            m, _ = await ctx.matches.get(match_id)  # cached: live matches always are
        except EngineError as err:
            log.warning("match %s: no notice of its held clock (%r)", match_id, err)
            return
        try:
            board = await ctx.addresses.board(m)
        except Exception as err:  # the database cannot even be read: a plain line then
            log.info("match %s: the held clock's notice is not a reply to the board (%r)", match_id, err)
            board = None
        try:
            message = await ctx.send.post(
                m.channel_id,
                text=messages.tr_for(m)("match.clock_held"),
                reply_to=board.message_id if board is not None else None,
            )
        except discord.HTTPException as err:
            said = verdict(err)
            if said.what == RETRY:
                raise Retry(said.after) from None
            log.warning("match %s: the held clock's notice was not posted: %s", match_id, err)
            return
        self._posted[match_id] = (m.channel_id, message)

    async def _delete(self, posted: tuple[int, int]) -> None:
        try:
            await self.ctx.send.delete(*posted)
        except discord.HTTPException as err:
            said = verdict(err)
            if said.what == RETRY:
                raise Retry(said.after) from None
            log.info("the held clock's notice %s was not deleted: %s", posted[1], err)
