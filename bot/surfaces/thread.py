"""A thread per match (a server setting, or the ``thread`` option of ``/<game> start``): when the game
starts, a thread is opened from the lobby message and the match moves into it (board, pings, recap,
clicks); the lobby message stays in the channel as one line per match (started, then ended and who
won), and the thread is archived when the game is over. Without the permission to create threads the
game is played in the channel, with a one-line note."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from typing import Any

import discord

from bot import messages
from bot.i18n import Translator, seat_name
from bot.messages import Board
from bot.surfaces import names
from bot.surfaces.board import post_new
from bot.surfaces.content import Shown, fingerprint
from bot.surfaces.kind import Context, Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler, Retry
from bot.surfaces.send import RETRY, verdict
from engine.store import LIVE, MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.LINE  # the match's line in the channel it was opened in
SETTING = "threads"  # the server setting: "on" plays every new match in its own thread


def line_text(m: MatchRow, state: Any, thread_id: int, tr: Translator) -> str:
    names = ", ".join(discord.utils.escape_markdown(seat_name(s.name, s.ai, tr)) for s in m.seats)
    game = tr(f"game.{m.game}")
    if m.status in LIVE:
        return tr("thread.line.playing", game=game, id=m.id, names=names, thread=f"<#{thread_id}>")
    outcome = messages.outcome_line(m, state, tr)
    return tr("thread.line.over", game=game, id=m.id, names=names, thread=f"<#{thread_id}>", result=outcome)


class LineSurface(SurfaceKind):
    kind = KIND

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [-1] if (KIND, -1) in rows else []

    async def step(self, rec: Reconciler) -> None:
        ctx = self.ctx
        m, state = await ctx.matches.get(rec.match_id)
        row = await ctx.addresses.get(m.id, KIND)
        if row is None or row.message_id is None or row.channel_id is None:
            return
        rec.recall(row.shown)
        board = Board(line_text(m, state, m.channel_id, messages.tr_for(m)), None)
        fp = fingerprint(board)
        if not rec.shows(fp):
            try:
                await ctx.send.edit(row.channel_id, row.message_id, board)
            except Exception as err:
                if verdict(err).what == RETRY:
                    raise Retry(verdict(err).after) from None
                log.warning("match %s: its line in the channel was not edited: %s", m.id, err)
            rec.showed(Shown(m.version, fp))
        if m.status not in LIVE and row.version == 0:  # over: archive the thread, once
            await ctx.addresses.put(dataclasses.replace(row, version=1))
            await ctx.wait(m.id, names.BOARD)  # the final board first
            try:
                await ctx.send.archive(m.channel_id)
            except discord.HTTPException as err:
                log.info("match %s: its thread was not archived: %s", m.id, err)


async def begin(ctx: Context, rec: Reconciler, m: MatchRow, state: Any, channel: Any) -> bool:
    """The game just started in ``channel`` from its lobby message: open its thread and move it there
    (``rec``: the board's, told what the thread's first message shows, so it is not sent again).
    False (and a one-line note) when it is played in the channel after all."""
    tr = messages.tr_for(m)
    lobby = await ctx.addresses.board(m)
    if lobby is None or lobby.message_id is None:
        return False
    if isinstance(channel, discord.Thread):
        return False  # a rematch inside a match's thread: it is played there
    name = tr("thread.name", game=tr(f"game.{m.game}"), id=m.id)
    try:
        thread_id = await ctx.send.start_thread(m.channel_id, lobby.message_id, name)
    except discord.HTTPException as err:
        log.info("match %s: no thread (%s); playing in the channel", m.id, err)
        with contextlib.suppress(discord.HTTPException):
            await ctx.send.post(m.channel_id, text=tr("thread.cannot"))
        return False
    await ctx.addresses.put(SurfaceRow(m.id, KIND, -1, m.channel_id, lobby.message_id, at=ctx.now()))
    moved = await ctx.matches.move(m.id, thread_id)
    await ctx.addresses.put(SurfaceRow(m.id, names.BOARD, -1, thread_id, None, at=ctx.now()))
    await post_new(ctx, rec, moved.match, moved.state, thread_id)
    return True
