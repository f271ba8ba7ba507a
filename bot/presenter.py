"""Turns a committed match into its one channel message (content, board image, controls) and
keeps that message in line with the database: renders in a worker thread, never shows an older
version over a newer one, re-posts the board when the old message is gone."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.components import ActionButton
from bot.games import UIS
from bot.i18n import Translator, translator
from engine.core import Event
from engine.registry import rules_for
from engine.store import MatchRow

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

MAX_LINES = 8
UNKNOWN_CHANNEL = 10003
LIVE = ("lobby", "active")
# what became of an attempt to show a board, and what to tell the person who caused it
SHOWN, FAILED, FORBIDDEN, GONE = "shown", "failed", "forbidden", "gone"
NOT_SHOWN_KEYS = {
    FAILED: "error.not_shown",
    FORBIDDEN: "error.missing_permissions",
    GONE: "error.channel_gone",
}


def _background_priority() -> None:
    """Render threads yield the CPU to the event loop's thread: on 2 cores a busy render thread could
    delay other handlers by a scheduler time slice (measured in bench: loop delay p99)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


RENDER_POOL = ThreadPoolExecutor(max_workers=2, thread_name_prefix="render", initializer=_background_priority)


async def off_loop(fn: Callable[[], bytes]) -> bytes:
    """Run CPU-heavy drawing in the render pool (Pillow releases the GIL for most of it)."""
    return await asyncio.get_running_loop().run_in_executor(RENDER_POOL, fn)


@dataclass
class Board:
    """One message's worth, sendable several times (a discord.File is single-use). The image is drawn
    lazily, in a worker thread, so the text and controls can go out before it is ready."""

    content: str
    view: discord.ui.View | None
    draw: Callable[[], bytes] | None = None
    filename: str = "board.png"
    alt: str = ""
    png: bytes | None = None

    async def rendered(self) -> Board:
        if self.draw is not None and self.png is None:
            self.png = await off_loop(self.draw)
        return self

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=self.filename, description=self.alt)]

    def kwargs(self, *, new: bool = False, image: bool = True) -> dict[str, Any]:
        """``image=False`` leaves the message's current image in place (text and controls only)."""
        out: dict[str, Any] = {"content": self.content, "view": self.view}
        if new:
            out["files"] = self.files()
            if self.view is None:
                out.pop("view")
        elif image:
            out["attachments"] = self.files()
        return out


def names_of(m: MatchRow) -> list[str]:
    return [s.name for s in m.seats]


class Presenter:
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}

    def tr_for(self, m: MatchRow) -> Translator:
        return translator(m.meta.get("locale") or m.options.get("locale"))

    async def build(self, m: MatchRow, state: Any) -> Board:
        tr = self.tr_for(m)
        ui = UIS[m.game]
        title = tr(f"game.{m.game}")
        if m.status == "lobby":
            return self._lobby(m, tr, title)
        names = names_of(m)  # as typed: for the image and its alt text
        shown = [discord.utils.escape_markdown(n) for n in names]  # in message text, **x** stays literal
        events = [Event.load(e) for e in m.meta.get("events", [])]
        lines = ui.event_lines(events, shown, tr)
        if len(lines) > MAX_LINES:  # keep the first line (what started it: a move, a timeout) and the latest
            lines = [lines[0], "…", *lines[-(MAX_LINES - 2) :]]
        status = ui.status_line(m, state, shown, tr)
        if m.status == "cancelled":
            status = tr("match.ended", name=self._name(m, m.meta.get("ended_by")))
        content = "\n".join([f"**{title}** · {ui.option_text(m.options, tr)}", *lines, f"**{status}**"])[
            :2000
        ]
        view = rules_for(m.game).view(state, None)
        caption = ui.caption(events, names, tr)
        controls: discord.ui.View | None = None
        if m.status == "active":
            controls = discord.ui.View(timeout=None)
            for item in ui.controls(m, state, tr):
                controls.add_item(item)
            controls.add_item(ActionButton("h", m.id, 0, "hand", label=tr("button.hand"), emoji="🎒", row=4))
        draw = functools.partial(ui.render, view, names, caption, tr)
        return Board(content, controls, draw, ui.image_name, ui.alt_text(view, names, tr))

    def _name(self, m: MatchRow, user_id: Any) -> str:
        for s in m.seats:
            if s.user_id == user_id:
                return s.name
        return f"<@{user_id}>" if user_id else "?"

    def _lobby(self, m: MatchRow, tr: Translator, title: str) -> Board:
        rules = rules_for(m.game)
        seats = "\n".join(
            f"{i + 1}. {discord.utils.escape_markdown(s.name)}"
            + (f" ({tr('lobby.computer')})" if s.ai else "")
            + (f" · {tr('lobby.host')}" if s.user_id == m.host_id else "")
            for i, s in enumerate(m.seats)
        )
        content = tr(
            "lobby.text",
            title=title,
            options=UIS[m.game].option_text(m.options, tr),
            seats=seats,
            n=len(m.seats),
            min=rules.min_players,
            max=rules.max_players,
        )
        view = discord.ui.View(timeout=None)
        for op, style in (
            ("join", discord.ButtonStyle.success),
            ("leave", discord.ButtonStyle.secondary),
            ("ai", discord.ButtonStyle.secondary),
            ("start", discord.ButtonStyle.primary),
            ("cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(ActionButton("l", m.id, m.version, op, label=tr(f"lobby.{op}"), style=style))
        return Board(content, view)

    def closed_lobby(self, m: MatchRow) -> Board:
        tr = self.tr_for(m)
        events = m.meta.get("events", [])
        key = "lobby.expired" if events and events[0]["kind"] == "lobby_expired" else "lobby.cancelled"
        return Board(tr(key, title=tr(f"game.{m.game}")), None)

    async def board_for(self, match_id: int) -> tuple[MatchRow, Board]:
        m, state = await self.bot.matches.get(match_id)
        if m.state is None and m.status != "lobby":
            return m, self.closed_lobby(m)
        return m, await self.build(m, state)

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    async def respond(self, interaction: discord.Interaction, match_id: int) -> None:
        """Answer a click on the board message with the latest committed state: text and controls at
        once in the interaction response, then the new image through the interaction's webhook, so
        the next player can act while the image is still being drawn and uploaded."""
        async with self.lock(match_id):
            m, board = await self.board_for(match_id)
            answered = False
            on_board = interaction.message is not None and interaction.message.id == m.message_id
            if on_board and not interaction.response.is_done():
                try:
                    await interaction.response.edit_message(**board.kwargs(image=board.draw is None))
                    answered = True
                except discord.HTTPException as err:
                    log.warning(
                        "match %s: answering the click failed (%s); editing the message", match_id, err
                    )
            await board.rendered()
            if answered and board.draw is None:
                self._shown[match_id] = m.version
                return
            if answered:
                try:
                    await interaction.edit_original_response(attachments=board.files())
                    self._shown[match_id] = m.version
                    return
                except discord.HTTPException as err:
                    log.warning("match %s: sending the image failed (%s); editing the message", match_id, err)
            shown = await self._put(m, board)
            if shown == SHOWN and not interaction.response.is_done():
                await self._quiet(interaction.response.defer())
        if shown != SHOWN:
            await self.bot.reply_error(interaction, NOT_SHOWN_KEYS[shown])

    async def refresh(self, match_id: int, *, repost: bool = False) -> str:
        """Bring the channel message in line with the database (timers, restarts, /game board).
        With ``repost`` the board is posted anew at the bottom of the channel, then the old one removed."""
        async with self.lock(match_id):
            m, board = await self.board_for(match_id)
            if not repost and self._shown.get(match_id, -1) >= m.version:
                return SHOWN
            old = m.message_id
            shown = await self._put(m, await board.rendered(), new=repost)
            if repost and shown == SHOWN and old is not None:
                await self._quiet(
                    self.bot.get_partial_messageable(m.channel_id).get_partial_message(old).delete()
                )
            return shown

    async def _put(self, m: MatchRow, board: Board, *, new: bool = False) -> str:
        channel = self.bot.get_partial_messageable(m.channel_id)
        try:
            if m.message_id is not None and not new:
                try:
                    await channel.get_partial_message(m.message_id).edit(**board.kwargs())
                    self._shown[m.id] = m.version
                    return SHOWN
                except discord.NotFound as err:
                    if err.code == UNKNOWN_CHANNEL:
                        raise
                    log.info("match %s: board message is gone; posting a new one", m.id)
            msg = await channel.send(**board.kwargs(new=True))
        except discord.Forbidden as err:
            log.warning("match %s: missing permissions to show the board (%s)", m.id, err)
            return FORBIDDEN
        except discord.NotFound as err:
            if err.code == UNKNOWN_CHANNEL and m.status in LIVE:
                await self.bot.matches.close_gone(m.id)
            return GONE
        except discord.HTTPException as err:
            log.warning("match %s: could not show the board (%s)", m.id, err)
            return FAILED
        await self.bot.matches.attach_message(m.id, msg.id)
        self._shown[m.id] = m.version
        return SHOWN

    @staticmethod
    async def _quiet(coro: Any) -> None:
        try:
            await coro
        except discord.HTTPException as err:
            log.warning("discord call failed: %s", err)
