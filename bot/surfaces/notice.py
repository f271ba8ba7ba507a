"""Turn notices by DM: a player who asked for them (``/game notify``, a user setting) is told in a DM
when their turn begins, with a jump link to the board; the same moments as the turn ping (a turn that
began for a person, never a computer nor a player away), at most once per turn and seat in any process
and across restarts (claimed in the surfaces table, one row per seat), and nothing to anyone who did
not ask. A real-time game (``Rules.real_time``) has none. Closed DMs (50007) are logged, never retried:
a notice is worth one try."""

from __future__ import annotations

import logging

import discord

from bot import mine
from bot.surfaces import names
from bot.surfaces.kind import Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.send import DMS_CLOSED
from engine.registry import rules_for
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.NOTICE
SETTING = "notify"  # the user setting: "on" asks for turn notices by DM


def wanted(m: MatchRow) -> list[int]:
    """The seats whose turn began with ``m``'s commit and who could be told: people, present."""
    if m.status != "active" or rules_for(m.game).real_time:
        return []
    return [
        s
        for s in m.meta.new_turn
        if 0 <= s < len(m.seats) and not m.seats[s].ai and not m.seats[s].away and m.seats[s].user_id
    ]


class NoticeSurface(SurfaceKind):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [-1] if wanted(m) else []

    async def step(self, rec: Reconciler) -> None:
        m, _ = await self.ctx.matches.get(rec.match_id)
        for seat in wanted(m):
            await self._tell(m, seat)

    async def _tell(self, m: MatchRow, seat: int) -> None:
        ctx, user_id = self.ctx, m.seats[seat].user_id
        assert user_id is not None
        row = await ctx.addresses.get(m.id, KIND, seat)
        if row is not None and row.version >= m.version:
            return  # this turn was told (by this process or another)
        if await ctx.addresses.store.user_setting(user_id, SETTING) != "on":
            return
        if not await ctx.addresses.claim(SurfaceRow(m.id, KIND, seat, version=m.version, at=ctx.now())):
            return
        tr = ctx.languages.private_tr(m, user_id)
        board = await ctx.addresses.board(m)
        link = mine.jump_link(
            m.guild_id,
            (board.channel_id if board else None) or m.channel_id,
            board.message_id if board else None,
        )
        due = mine.due(m)
        key = "notice.turn" if due is not None else "notice.turn_untimed"
        text = tr(key, game=tr(f"game.{m.game}"), link=link, when=f"<t:{due}:R>")
        try:
            await ctx.send.post(await ctx.send.dm_channel(user_id), text=text)
        except discord.HTTPException as err:  # the claim stays: one try per turn
            if getattr(err, "code", None) == DMS_CLOSED:
                log.info("match %s: seat %s asked for turn notices but has DMs closed", m.id, seat)
            else:
                log.warning("match %s: turn notice to seat %s failed: %s", m.id, seat, err)
