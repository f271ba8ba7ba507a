"""The animated recap of a finished game: a reply to the final board, built in the render pool a few
seconds after the game ends (never on the path of the click that ended it), and sent once across
restarts and processes (claimed in the surfaces table before it is built)."""

from __future__ import annotations

import functools
import io
import logging

import discord

from bot import messages, replay
from bot.render_pool import off_loop
from bot.surfaces import names
from bot.surfaces.kind import Rows, SurfaceKind
from bot.surfaces.reconciler import Reconciler
from engine.errors import EngineError
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

KIND = names.RECAP
DELAY_SECONDS = 10.0  # after the final board has been looked at; never on the path of the click that ended it
WINDOW_SECONDS = 15 * 60  # a game that finished longer ago gets no recap (one from before recaps existed)


class RecapSurface(SurfaceKind):
    kind = KIND

    @property
    def delay(self) -> float:
        return DELAY_SECONDS  # read each time: a bench sets it per run

    def seats(self, m: MatchRow, rows: Rows) -> list[int]:
        return [-1] if self.due(m) and (KIND, -1) not in rows else []

    def due(self, m: MatchRow) -> bool:
        finished = m.meta.finished_at
        return (
            m.status == "finished"
            and m.meta.recap is None  # sent by an earlier version
            and isinstance(finished, int | float)
            and self.ctx.now() - finished <= WINDOW_SECONDS
        )

    async def step(self, rec: Reconciler) -> None:
        ctx = self.ctx
        m, _ = await ctx.matches.get(rec.match_id)
        if not self.due(m) or not await ctx.addresses.claim(
            SurfaceRow(m.id, KIND, -1, m.channel_id, version=1, at=ctx.now())
        ):
            return
        try:
            steps = await ctx.matches.history(m.id)
            if len(steps) < 2:  # over before anyone moved (a resignation): nothing to recap
                return
            tr = messages.tr_for(m)
            data = await off_loop(functools.partial(replay.recap, m, steps, tr))
            if not data:
                return
            game = tr(f"game.{m.game}")
            image = discord.File(
                io.BytesIO(data), filename=replay.RECAP_NAME, description=tr("recap.alt", game=game, id=m.id)
            )
            board = await ctx.addresses.board(m)
            await ctx.send.post(
                m.channel_id,
                text=tr("recap.text", game=game, id=m.id),
                files=[image],
                reply_to=board.message_id if board else None,
            )
            line = await ctx.addresses.get(m.id, names.LINE)
            if line is not None and line.version:  # its thread was archived already, and Discord
                try:  # unarchives a thread a message is sent to: archive it again
                    await ctx.send.archive(m.channel_id)
                except discord.HTTPException as err:
                    log.info("match %s: its thread was not archived again: %s", m.id, err)
        except (discord.HTTPException, EngineError) as err:
            log.warning("match %s: the recap was not posted: %r", m.id, err)
        except Exception:
            log.exception("match %s: building the recap failed", m.id)
