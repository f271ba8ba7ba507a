"""Turn notices by DM: a player who asked for them (``/game notify``, a user setting) is told in a DM
when their turn begins, with a jump link to the board; the same moments as the turn ping (a turn that
began for a person, never a computer nor a player away), at most once per turn and seat in any process
and across restarts (claimed in the surfaces table, one row per seat), and nothing to anyone who did
not ask. A real-time game (``Rules.real_time``) has none. Closed DMs (50007) are logged, never retried:
a notice is worth one try.

A daily turn's reminder to a player who did not ask for DMs is a line in the game's channel; its
address is stored in the seat's row with the due time of the limit it speaks of (``shown``), and the
line is deleted once that limit no longer runs (the player moved, the turn ran out, the game ended),
as the turn ping is: from the committed match, so a restarted bot deletes the line it left."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

import discord

from bot import messages, mine
from bot.surfaces import names
from bot.surfaces.kind import Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.send import DMS_CLOSED
from engine import pace
from engine.registry import rules_for
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.NOTICE
SETTING = "notify"  # the user setting: "on" asks for turn notices by DM


def wanted(m: MatchRow, seats: list[int]) -> list[int]:
    """Those of ``seats`` who could be told: people, present, in a game that is not real-time."""
    if m.status != "active" or rules_for(m.game).real_time:
        return []
    return [
        s
        for s in seats
        if 0 <= s < len(m.seats) and not m.seats[s].ai and not m.seats[s].away and m.seats[s].user_id
    ]


class NoticeSurface(SurfaceKind):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        lines = any(k == KIND and r.message_id for (k, _), r in rows.items())  # a reminder line stands
        return [-1] if lines or wanted(m, m.meta.new_turn) or wanted(m, m.meta.reminded) else []

    async def step(self, rec: Reconciler) -> None:
        m, state = await self.ctx.matches.get(rec.match_id)
        for row in await self.ctx.addresses.all(m.id):  # first: a new claim must not bury a line
            if row.kind == KIND and row.message_id and (_limit(m, state, row.seat) or "") != row.shown:
                await self._drop_line(row)
        for seat in wanted(m, m.meta.new_turn):
            await self._tell(m, state, seat)
        for seat in wanted(m, m.meta.reminded):
            await self._tell(m, state, seat, remind=True)

    async def _tell(self, m: MatchRow, state: Any, seat: int, *, remind: bool = False) -> None:
        """A turn's notice, or a daily turn's reminder (engine.pace): by DM to who asked; a reminder
        to anyone else is a line in the game's channel (never a DM unasked)."""
        ctx, user_id = self.ctx, m.seats[seat].user_id
        assert user_id is not None
        row = await ctx.addresses.get(m.id, KIND, seat)
        if row is not None and row.version >= m.version:
            return  # this turn was told (by this process or another)
        asked = await ctx.addresses.store.user_setting(user_id, SETTING) == "on"
        if not asked and not remind:
            return
        # (a reminder line still standing keeps its address through the claim, to be deleted in time)
        kept = (row.channel_id, row.message_id, row.shown) if row is not None else (None, None, None)
        if not await ctx.addresses.claim(SurfaceRow(m.id, KIND, seat, *kept[:2], version=m.version,
                                                    at=ctx.now(), shown=kept[2])):  # fmt: skip
            return
        if not asked:
            await self._remind_here(m, state, seat, user_id)
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
        key = "notice.remind" if remind and due is not None else key
        text = tr(key, game=tr(f"game.{m.game}"), link=link, when=f"<t:{due}:R>")
        try:
            await ctx.send.post(await ctx.send.dm_channel(user_id), text=text)
        except discord.HTTPException as err:  # the claim stays: one try per turn
            if getattr(err, "code", None) == DMS_CLOSED:
                log.info("match %s: seat %s asked for turn notices but has DMs closed", m.id, seat)
            else:
                log.warning("match %s: turn notice to seat %s failed: %s", m.id, seat, err)

    async def _remind_here(self, m: MatchRow, state: Any, seat: int, user_id: int) -> None:
        """A reminder for a player who asked for no DMs: a line under the board, mentioning them,
        stored with the limit it speaks of (deleted once that limit no longer runs)."""
        ctx, tr = self.ctx, messages.tr_for(m)
        board = await ctx.addresses.board(m)
        due = mine.due(m)
        text = tr("remind.line", mention=f"<@{user_id}>", game=tr(f"game.{m.game}"), when=f"<t:{due}:R>")
        channel = (board.channel_id if board else None) or m.channel_id
        try:
            mid = await ctx.send.post(
                channel, text=text, reply_to=board.message_id if board else None, mentions=(user_id,)
            )
        except discord.HTTPException as err:
            log.warning("match %s: reminder in the channel failed: %s", m.id, err)
            return
        row = SurfaceRow(m.id, KIND, seat, channel, mid, version=m.version, at=ctx.now())
        await ctx.addresses.put(dataclasses.replace(row, shown=_limit(m, state, seat)))

    async def _drop_line(self, row: SurfaceRow) -> None:
        """The reminder line of a limit that no longer runs: deleted (one already gone is gone)."""
        assert row.message_id is not None
        with contextlib.suppress(discord.HTTPException):
            await self.ctx.send.delete(row.channel_id or 0, row.message_id)
        await self.ctx.addresses.put(dataclasses.replace(row, message_id=None, shown=None))


def _limit(m: MatchRow, state: Any, seat: int) -> str | None:
    """The due time of ``seat``'s turn limit in the committed match, as stored with a reminder line
    (None once it no longer runs: moved, ran out, the game over)."""
    if m.status != "active" or state is None:
        return None
    key = pace.limit_key(rules_for(m.game).timers(state), seat)
    due = m.timers.get(key) if key is not None else None
    return None if due is None else repr(due)
