"""The animated recap of a finished game: a reply to the final board, built in the render pool a few
seconds after the game ends (never on the path of the click that ended it), and sent once across
restarts and processes (claimed in the surfaces table before it is built)."""

from __future__ import annotations

import functools
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot import messages, replay
from bot.render_pool import off_loop
from bot.surfaces.reconciler import Reconciler
from engine.errors import EngineError
from engine.store import MatchRow, SurfaceRow

if TYPE_CHECKING:
    from bot.surfaces.coordinator import Surfaces

log = logging.getLogger(__name__)

KIND = "recap"
DELAY_SECONDS = 10.0  # after the final board has been looked at; never on the path of the click that ended it
WINDOW_SECONDS = 15 * 60  # a game that finished longer ago gets no recap (one from before recaps existed)


class RecapSurface:
    kind = KIND

    def __init__(self, hub: Surfaces) -> None:
        self.hub = hub

    def seats(self, m: MatchRow, rows: dict[tuple[str, int], SurfaceRow]) -> list[int]:
        return [-1] if self.due(m) and (KIND, -1) not in rows else []

    def due(self, m: MatchRow) -> bool:
        finished = m.meta.finished_at
        return (
            m.status == "finished"
            and m.meta.recap is None  # sent by an earlier version
            and isinstance(finished, int | float)
            and self.hub.now() - finished <= WINDOW_SECONDS
        )

    async def step(self, rec: Reconciler) -> None:
        hub = self.hub
        m, _ = await hub.matches.get(rec.match_id)
        if not self.due(m) or not await hub.addresses.claim(
            SurfaceRow(m.id, KIND, -1, m.channel_id, version=1, at=hub.now())
        ):
            return
        try:
            steps = await hub.matches.history(m.id)
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
            board = await hub.board_row(m)
            await hub.send.post(
                m.channel_id,
                text=tr("recap.text", game=game, id=m.id),
                files=[image],
                reply_to=board.message_id if board else None,
            )
            line = await hub.addresses.get(m.id, "line")  # bot.surfaces.thread.KIND
            if line is not None and line.version:  # its thread was archived already, and Discord
                try:  # unarchives a thread a message is sent to: archive it again
                    await hub.send.archive(m.channel_id)
                except discord.HTTPException as err:
                    log.info("match %s: its thread was not archived again: %s", m.id, err)
        except (discord.HTTPException, EngineError) as err:
            log.warning("match %s: the recap was not posted: %r", m.id, err)
        except Exception:
            log.exception("match %s: building the recap failed", m.id)
