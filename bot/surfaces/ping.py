"""The turn ping: a small message under the board that mentions the players whose turn just began (edits
never notify): the follow-up of the click that began the turn while Discord allows it (outside the bot
token's request budget, issue 35; Discord shows it under the clicked board), else a reply to the
board; once per turn in any process (claimed in the surfaces table), replacing the previous one;
deleted when the game ends or a turn begins for nobody to mention (a computer, a player away).
While its turn goes on, its time follows the turn limit (a decision re-arms it): a ping never says a
time that has passed. Stored, so a restart deletes the old one instead of leaving it."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

import discord

from bot import messages
from bot.messages import Board
from bot.surfaces import names
from bot.surfaces.kind import Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.redraw import TOKEN_SECONDS
from engine.store import LIVE, MatchRow, SurfaceRow
from engine.timers import person_due

log = logging.getLogger(__name__)

KIND = names.PING
FOLLOW_SECONDS = 5  # a turn limit that moved less (quick clicks) leaves the ping's time as it is


def _fresh(now: float, at: float) -> bool:
    """An interaction of ``at`` still reaches its messages (Discord's 15 minutes, less a margin)."""
    return now - at < TOKEN_SECONDS


def _due(m: MatchRow) -> int | None:
    """The time a ping says (messages.mention_line): the earliest limit of a person."""
    due = person_due(m.timers)
    return int(due) if due is not None else None


def _said(seats: list[int], due: int | None) -> str:
    """What a ping says, as stored with it (SurfaceRow.shown): the seats it named and its time."""
    return f"{','.join(map(str, seats))}:{'' if due is None else due}"


def _read(said: str | None) -> tuple[list[int] | None, int | None]:
    try:
        seats, due = (said or "").split(":")
        return [int(s) for s in seats.split(",") if s], int(due) if due else None
    except ValueError:
        return None, None


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
            await self._no_new_turn(m, state, row)
            return
        if row is not None and row.version >= m.version:
            return  # this turn was pinged (by this process or another)
        old = row if row is not None and row.message_id is not None else None  # (deleted by its token)
        if not await ctx.addresses.claim(SurfaceRow(m.id, KIND, -1, m.channel_id, old.message_id if old else None,
                                                    old.token if old else None, m.version,
                                                    old.at if old else ctx.now())):  # fmt: skip
            return
        text, users = line
        board = await ctx.addresses.board(m)
        click = self._recent_click(m, board)
        try:
            mid = await self._post(m, board, click, text, tuple(users))
        except discord.HTTPException as err:
            # the claim stays: a ping is worth one try per turn, and a late ping is worse than none
            log.warning("match %s: turn ping failed: %s", m.id, err)
            return
        if old is not None:
            await self._delete(old)
        said = _said(m.meta.new_turn, _due(m))
        token, at = (click[0], click[2]) if click is not None and mid[1] else (None, ctx.now())
        # written with what surfaces show, once the move's surfaces are done (the turn is claimed
        # already; like any write after the post, one lost in a crash leaves this ping standing)
        await ctx.addresses.note(SurfaceRow(m.id, KIND, -1, m.channel_id, mid[0], token, m.version, at, said))

    def _recent_click(self, m: MatchRow, board: SurfaceRow | None) -> tuple[str, int, float] | None:
        """The latest click on the board, if its interaction may still post in the ping's channel:
        the ping goes as its follow-up, outside the bot token's budget (issue 35)."""
        if board is None or board.message_id is None or (board.channel_id or m.channel_id) != m.channel_id:
            return None
        click = self.ctx.recent_click(m.id, names.BOARD)
        if click is None or click[1] != board.message_id or not _fresh(self.ctx.now(), click[2]):
            return None
        return click

    async def _post(
        self,
        m: MatchRow,
        board: SurfaceRow | None,
        click: tuple[str, int, float] | None,
        text: str,
        users: tuple[int, ...],
    ) -> tuple[int, bool]:
        """The ping posted: (its message, whether through the click's token). A click's follow-up
        shows as a reply to the board the click was on; without a click lately, a reply to it."""
        if click is not None:
            try:
                return await self.ctx.send.follow_up(click[0], text, users), True
            except discord.HTTPException as err:
                log.info("match %s: the turn ping was not a click's follow-up: %s", m.id, err)
        reply_to = board.message_id if board else None
        return await self.ctx.send.post(m.channel_id, text=text, reply_to=reply_to, mentions=users), False

    async def _no_new_turn(self, m: MatchRow, state: Any, row: SurfaceRow | None) -> None:
        """A commit that began nobody's turn to mention. Over, or a turn began for nobody to mention
        (a computer, a player away): the ping of the turn before is not left standing through it.
        Else the pinged turn goes on, and says the time it has now (a decision re-arms the limit)."""
        if row is None or row.message_id is None or row.version >= m.version:
            return
        if m.status not in LIVE or m.meta.new_turn:
            await self._drop(row)
            return
        seats, due = _read(row.shown)
        now_due = _due(m)
        if seats is None or due is None or now_due is None or abs(now_due - due) < FOLLOW_SECONDS:
            return
        pinged = dataclasses.replace(m, meta=dataclasses.replace(m.meta, new_turn=seats))
        line = messages.mention_line(pinged, state, messages.tr_for(m))
        if line is None:  # everybody it named is away now
            await self._drop(row)
            return
        try:
            if row.token is not None and _fresh(self.ctx.now(), row.at):
                await self.ctx.send.edit_by_token(
                    row.token, row.message_id, Board(line[0], None), image=False
                )
            else:
                await self.ctx.send.edit(
                    row.channel_id or m.channel_id, row.message_id, Board(line[0], None), image=False
                )
        except discord.HTTPException as err:
            log.info("match %s: the turn ping's time was not brought up to date: %s", m.id, err)
            return
        await self.ctx.addresses.put(dataclasses.replace(row, shown=_said(seats, now_due)))

    async def _delete(self, row: SurfaceRow) -> None:
        """Through the token of the click it followed up while Discord allows it, else the bot's."""
        assert row.message_id is not None
        if row.token is not None and _fresh(self.ctx.now(), row.at):
            try:
                await self.ctx.send.delete_follow_up(row.token, row.message_id)
                return
            except discord.NotFound:
                return  # gone already
            except discord.HTTPException as err:
                log.info("match %s: the turn ping was not deleted through its click: %s", row.match_id, err)
        with contextlib.suppress(discord.HTTPException):
            await self.ctx.send.delete(row.channel_id or 0, row.message_id)

    async def _drop(self, row: SurfaceRow) -> None:
        await self._delete(row)
        await self.ctx.addresses.put(dataclasses.replace(row, message_id=None))
