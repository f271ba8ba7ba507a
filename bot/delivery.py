"""Puts committed matches on screen and keeps every surface in line with the database: the public
channel message, each seat's DM (or the ephemeral panel when DMs are closed), and the turn ping.

Renders run in a low-priority thread pool; a surface never shows an older version over a newer one;
the board is posted again when its message is gone; a click is answered on the surface it came from.
"""

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
from typing import TYPE_CHECKING, Any

import discord

from bot import messages, replay
from bot.games import UIS
from bot.i18n import Translator, translator
from bot.messages import Board
from engine.errors import EngineError, MatchNotFound
from engine.match import Update
from engine.store import LIVE, MatchRow

if TYPE_CHECKING:
    from bot.client import GameBot

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
DMS_CLOSED = 50007
RECAP_WINDOW = 15 * 60  # a game that finished longer ago than this gets no recap (e.g. one from before
# recaps existed, whose old board someone clicks)
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


async def rendered(board: Board) -> Board:
    if board.draw is not None and board.png is None:
        board.png = await off_loop(board.draw)
    return board


async def quiet(coro: Any) -> None:
    try:
        await coro
    except discord.HTTPException as err:
        log.warning("discord call failed: %s", err)


class Delivery:
    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._locks: dict[int, asyncio.Lock] = {}
        self._shown: dict[int, int] = {}  # match -> public version on screen
        # (match, seat) -> (seat version, public version) the DM was drawn at: a DM also shows public
        # facts (who solved, a countdown), so it follows the public view as well as its seat's
        self._dm_shown: dict[tuple[int, int], tuple[int, int]] = {}
        # (match, seat) -> (seat version, display state) of the DM's last display-only click, kept when
        # the DM is redrawn for a public change only (a chosen piece survives another player's move)
        self._dm_display: dict[tuple[int, int], tuple[int, str]] = {}
        self._pings: dict[int, int] = {}  # match -> the current turn ping message
        self._pinged: dict[int, int] = {}  # match -> the version whose new turn was pinged
        self._recaps: set[int] = set()  # matches whose recap this process took on (the meta says it too)
        self._tasks: set[asyncio.Task[None]] = set()  # recaps being built and sent
        # user -> the Discord locale of their last click: their DMs speak it (the server's before any)
        self._locales: dict[int, str] = {}

    def note_locale(self, interaction: discord.Interaction) -> None:
        self._locales[interaction.user.id] = str(interaction.locale)

    def private_tr(self, m: MatchRow, user_id: int | None) -> Translator:
        """The language of a seat's DM: its player's last click here, else the language they had when
        they took the seat (stored: it survives restarts and other processes), else the match's."""
        known = self._locales.get(user_id) if user_id is not None else None
        seated = next((s.locale for s in m.seats if s.user_id == user_id and s.locale), None)
        return translator(known or seated) if known or seated else messages.tr_for(m)

    def lock(self, match_id: int) -> asyncio.Lock:
        return self._locks.setdefault(match_id, asyncio.Lock())

    # ---- building -------------------------------------------------------------------------------

    async def board_for(self, match_id: int) -> tuple[MatchRow, Board]:
        m, state = await self.bot.matches.get(match_id)
        return m, await self.build(m, state)

    async def build(self, m: MatchRow, state: Any) -> Board:
        """The public message of a committed match: its lobby, a lobby that closed, or the game."""
        tr = messages.tr_for(m)
        if m.status == "lobby":
            return messages.lobby(m, tr)
        if state is None:
            return messages.closed_lobby(m, tr)
        return messages.game(m, state)

    # ---- answering clicks -------------------------------------------------------------------------

    async def respond(
        self, interaction: discord.Interaction, match_id: int, update: Update | None = None
    ) -> None:
        """Answer a click on the public message: text and controls at once in the interaction
        response, then the new image through the interaction's webhook, so the next player can act
        while the image is still being drawn and uploaded. The answer shows the click's own result
        (``update``) even if computers have moved since (they follow by ``sync``), unless a newer
        board is already on screen."""
        async with self.lock(match_id):
            if update is not None and self._shown.get(match_id, -1) < update.match.public_version:
                m, board = update.match, await self.build(update.match, update.state)
            else:
                m, board = await self.board_for(match_id)
            whole = isinstance(board.view, discord.ui.LayoutView)
            if whole:
                await rendered(board)  # its layout refers to the image: send both in one answer
            answered = False
            on_board = interaction.message is not None and interaction.message.id == m.message_id
            if on_board and not interaction.response.is_done():
                try:
                    await interaction.response.edit_message(**board.kwargs(image=board.png is not None))
                    answered = True
                except discord.HTTPException as err:
                    log.warning(
                        "match %s: answering the click failed (%s); editing the message", match_id, err
                    )
            await rendered(board)
            shown = SHOWN
            if (answered and (board.draw is None or whole)) or (
                answered and await self._webhook_image(interaction, board, match_id)
            ):
                self._shown[match_id] = m.public_version
            else:
                shown = await self._put(m, board)
                if shown == SHOWN and not interaction.response.is_done():
                    await quiet(interaction.response.defer())
        if shown != SHOWN:
            await self.bot.reply_error(interaction, NOT_SHOWN_KEYS[shown])
        await self.sync(match_id)

    async def _webhook_image(self, interaction: discord.Interaction, board: Board, match_id: int) -> bool:
        try:
            await interaction.edit_original_response(attachments=board.files())
            return True
        except discord.HTTPException as err:
            log.warning("match %s: sending the image failed (%s); editing the message", match_id, err)
            return False

    async def respond_private(
        self, interaction: discord.Interaction, match_id: int, seat: int, display: str = ""
    ) -> None:
        """Answer a click on a seat's private surface by redrawing that surface in place; the public
        message and other surfaces follow only if they changed."""
        m, state = await self.bot.matches.get(match_id)
        board = messages.private(m, state, seat, translator(interaction.locale), display)
        if not interaction.response.is_done():
            if board.draw is None or isinstance(board.view, discord.ui.LayoutView):
                await interaction.response.edit_message(**(await rendered(board)).kwargs())
            else:  # as on the public message: text and controls at once, the new image right after
                await interaction.response.edit_message(**board.kwargs(image=False))
                await self._webhook_image(interaction, await rendered(board), match_id)
        if interaction.message is not None and interaction.message.id == m.seats[seat].dm_message:
            self._dm_shown[(match_id, seat)] = (m.seats[seat].version, m.public_version)
            self._dm_display[(match_id, seat)] = (m.seats[seat].version, display)
        await self.sync(match_id)

    async def respond_display(self, interaction: discord.Interaction, match_id: int, display: str) -> None:
        """A display-only click on the public message (select a piece, then its destination): the
        message is redrawn with that display state; nothing is committed or written."""
        m, state = await self.bot.matches.get(match_id)
        board = messages.game(m, state, display)
        if isinstance(board.view, discord.ui.LayoutView):  # its layout refers to the image
            await interaction.response.edit_message(**(await rendered(board)).kwargs())
            return
        # as for a move: the highlighted controls at once, the highlighted image right after
        await interaction.response.edit_message(**board.kwargs(image=False))
        await self._webhook_image(interaction, await rendered(board), match_id)

    async def open_panel(self, interaction: discord.Interaction, match_id: int, seat: int) -> None:
        """The hand button: this seat's private surface as an ephemeral reply (the panel, and the
        fallback for a seat whose DMs are closed)."""
        m, state = await self.bot.matches.get(match_id)
        board = await rendered(messages.private(m, state, seat, translator(interaction.locale)))
        await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)

    async def watch(self, interaction: discord.Interaction, match_id: int, seat: int | None) -> None:
        """The Watch button: a player gets their own panel (as the hand button), anyone else an
        ephemeral copy of the public board, without joining."""
        m, state = await self.bot.matches.get(match_id)
        if seat is not None and UIS[m.game].private is not None:
            await self.open_panel(interaction, match_id, seat)
            return
        board = await rendered(messages.watched(m, state, translator(interaction.locale)))
        await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)

    async def help(self, interaction: discord.Interaction, match_id: int, seat: int | None) -> None:
        """The ? button: what the clicker can do right now (or whose move it is), privately."""
        m, state = await self.bot.matches.get(match_id)
        text = messages.help_text(m, state, seat, translator(interaction.locale))
        await interaction.response.send_message(text[: messages.MAX_CONTENT], ephemeral=True)

    async def post_new(self, interaction: discord.Interaction, update: Update) -> None:
        """A new match's first message (a rematch offer) as the click's answer, below the old board."""
        board = await rendered(await self.build(update.match, update.state))
        mid = update.match.id
        try:
            response = await interaction.response.send_message(**board.kwargs(new=True))
            message_id = response.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException:
            await self.bot.matches.discard_lobby(mid)  # nobody saw it: it must not block the channel
            raise
        await self.bot.matches.attach_message(mid, message_id)
        self._shown[mid] = update.match.public_version
        await self.sync(mid)

    # ---- keeping surfaces in line ------------------------------------------------------------------

    async def sync(self, match_id: int) -> None:
        """After any commit: the public message if its view moved on, the turn ping, and every DM
        surface whose seat's version moved on."""
        await self.refresh(match_id)
        m, state = await self.bot.matches.get(match_id)
        await self._ping(m)
        self._start_recap(m)
        if UIS[m.game].private == "dm" and state is not None:
            for seat, info in enumerate(m.seats):
                human = not info.ai and info.user_id is not None and info.dm != 0
                seat_seen, public_seen = self._dm_shown.get((match_id, seat), (-1, -1))
                if human and (seat_seen < info.version or public_seen < m.public_version):
                    await self._deliver_dm(match_id, seat)

    async def refresh(self, match_id: int, *, repost: bool = False) -> str:
        """Bring the channel message in line with the database (timers, restarts, /game board).
        With ``repost`` the board is posted anew at the bottom of the channel, then the old one removed."""
        async with self.lock(match_id):
            m, board = await self.board_for(match_id)
            if not repost and self._shown.get(match_id, -1) >= m.public_version:
                return SHOWN
            old = m.message_id
            shown = await self._put(m, await rendered(board), new=repost)
            if repost and shown == SHOWN and old is not None:
                await quiet(self.bot.get_partial_messageable(m.channel_id).get_partial_message(old).delete())
            return shown

    async def _put(self, m: MatchRow, board: Board, *, new: bool = False) -> str:
        channel = self.bot.get_partial_messageable(m.channel_id)
        try:
            if m.message_id is not None and not new:
                try:
                    await channel.get_partial_message(m.message_id).edit(**board.kwargs())
                    self._shown[m.id] = m.public_version
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
        try:
            await self.bot.matches.attach_message(m.id, msg.id)
        except Exception:
            # the database cannot remember it (disk full, busy): take it down again, or a second
            # board with live controls would stay, and clicks on it would never be shown
            await quiet(msg.delete())
            raise
        self._shown[m.id] = m.public_version
        return SHOWN

    async def _ping(self, m: MatchRow) -> None:
        """Tell the players whose turn just began, once per turn: a small message that mentions only
        them (edits never notify), replacing the match's previous ping."""
        line = messages.mention_line(m, messages.tr_for(m))
        if line is None or self._pinged.get(m.id) == m.version:
            if m.status not in LIVE:
                await self._drop_ping(m)
            return
        self._pinged[m.id] = m.version
        text, users = line
        channel = self.bot.get_partial_messageable(m.channel_id)
        board = (
            discord.MessageReference(
                message_id=m.message_id, channel_id=m.channel_id, fail_if_not_exists=False
            )
            if m.message_id is not None
            else None
        )
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in users], replied_user=False)
        try:  # a reply to the board: one click jumps to it
            msg = await channel.send(text, allowed_mentions=mentions, reference=board)
        except discord.HTTPException as err:
            log.warning("match %s: turn ping failed: %s", m.id, err)
            return
        await self._drop_ping(m)
        self._pings[m.id] = msg.id

    # ---- replays: the recap of a finished game, /replay ------------------------------------------------

    def _start_recap(self, m: MatchRow) -> None:
        """A game that just finished gets its animated recap, built and sent in the background: the
        final board never waits for it. Once per match: the match's meta remembers it (a restart does
        not send it again)."""
        finished = m.meta.get("finished_at")
        if (
            m.status != "finished"
            or "recap" in m.meta
            or m.id in self._recaps
            or not isinstance(finished, int | float)
            or self.bot.matches.now() - finished > RECAP_WINDOW
        ):
            return
        self._recaps.add(m.id)
        task = asyncio.get_running_loop().create_task(self._recap(m.id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _recap(self, match_id: int) -> None:
        """Post the recap as a reply to the final board. Failures are logged, never raised: a recap is
        an extra, and it is not tried twice."""
        try:
            if not await self.bot.matches.mark_once(match_id, "recap"):
                return
            m, _ = await self.bot.matches.get(match_id)
            steps = await self.bot.matches.history(match_id)
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
            board = (
                discord.MessageReference(
                    message_id=m.message_id, channel_id=m.channel_id, fail_if_not_exists=False
                )
                if m.message_id is not None
                else None
            )
            channel = self.bot.get_partial_messageable(m.channel_id)
            await channel.send(tr("recap.text", game=game, id=m.id), file=image, reference=board)
        except (discord.HTTPException, EngineError) as err:
            log.warning("match %s: the recap was not posted: %r", match_id, err)
        except Exception:
            log.exception("match %s: building the recap failed", match_id)

    async def show_replay(
        self, interaction: discord.Interaction, match_id: int, step: int, *, edit: bool
    ) -> None:
        """/replay (a new ephemeral message) or one of its buttons (``edit``: the same message, in place):
        step ``step`` of a finished match of this server, rebuilt from its seed and action log."""
        try:
            m, state = await self.bot.matches.get(match_id)
        except MatchNotFound:
            raise replay.ReplayRefused("replay.not_found") from None
        replay.replayable(m, state, interaction.guild_id)
        steps = await self.bot.matches.history(match_id)
        if not 0 <= step < len(steps):
            raise replay.ReplayRefused("replay.bad_step")
        tr = translator(interaction.locale)
        board = await rendered(replay.step_board(m, steps, step, tr, tr))  # private: the viewer's language
        if edit:
            await interaction.response.edit_message(**board.kwargs())
        else:
            await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)

    async def _drop_ping(self, m: MatchRow) -> None:
        old = self._pings.pop(m.id, None)
        if old is not None:
            await quiet(self.bot.get_partial_messageable(m.channel_id).get_partial_message(old).delete())

    async def _deliver_dm(self, match_id: int, seat: int) -> None:
        """Send or edit a seat's DM surface; DMs closed (50007) -> the seat uses the panel instead."""
        m, state = await self.bot.matches.get(match_id)
        info = m.seats[seat]
        kept_version, display = self._dm_display.get((match_id, seat), (-1, ""))
        display = display if kept_version == info.version else ""
        board = await rendered(messages.private(m, state, seat, self.private_tr(m, info.user_id), display))
        try:
            if info.dm and info.dm_message:
                dm = self.bot.get_partial_messageable(info.dm, type=discord.ChannelType.private)
                await dm.get_partial_message(info.dm_message).edit(**board.kwargs())
            else:
                assert info.user_id is not None
                channel = await self.bot.create_dm(discord.Object(info.user_id))
                msg = await channel.send(**board.kwargs(new=True))
                await self.bot.matches.attach_dm(match_id, seat, channel.id, msg.id)
        except discord.Forbidden as err:
            if err.code != DMS_CLOSED:
                log.warning("match %s: DM to seat %s refused: %s", match_id, seat, err)
            await self.bot.matches.attach_dm(match_id, seat, 0, None)
            self._shown.pop(match_id, None)  # the public message now offers this seat the panel
            await self.refresh(match_id)
            return
        except discord.NotFound:  # the DM message was deleted: send a new one
            await self.bot.matches.attach_dm(match_id, seat, info.dm or 0, None)
            if info.dm_message is not None:
                await self._deliver_dm(match_id, seat)
            return
        except discord.HTTPException as err:
            log.warning("match %s: DM to seat %s failed: %s", match_id, seat, err)
            return
        self._dm_shown[(match_id, seat)] = (m.seats[seat].version, m.public_version)
