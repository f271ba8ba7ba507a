"""A click answered on the surface it came from, in the click's own interaction response: one
request, its text, controls and new picture together, unless the picture is not drawn within
``PICTURE_WAIT`` (then the text and controls go at once and the picture follows). On a seat's
private surface the picture also follows the text while other clicks of the match are on their
way: it waits for them, so a batch of clicks is drawn once, at the last. The surface's reconciler
is told what it now shows, so it neither draws it again nor lets an older edit bury it; every
other surface of the match follows (the coordinator's fan-out) once the answer is out."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord

from bot import errors, messages
from bot.i18n import translator
from bot.messages import Board
from bot.render_pool import drawn_within, rendered, start_drawing
from bot.surfaces import panel
from bot.surfaces.content import fingerprint, image_id, picture_id, prepare_board, public_board, shown
from bot.surfaces.kind import Context
from bot.surfaces.names import BOARD, DM, PANEL
from bot.surfaces.quiet import Quiet
from bot.surfaces.reconciler import Reconciler
from engine.store import MatchRow, SurfaceRow

log = logging.getLogger(__name__)

# How long a click's answer waits for its picture to go with the text. Less than a Discord round
# trip (tens to hundreds of milliseconds), which a second request for the image would cost; a
# drawing begun at the commit is done in a few milliseconds, and one stuck behind a burst's is not
# waited for.
PICTURE_WAIT = 0.05


def where(interaction: discord.Interaction) -> str:
    """The kind of surface a click came from: a DM, an ephemeral panel, or the public board."""
    if interaction.guild_id is None:
        return DM
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        return PANEL
    return BOARD


async def watch(interaction: discord.Interaction, m: MatchRow, state: Any) -> None:
    """A spectator's copy of the board, in their language, without joining (ephemeral)."""
    board = await rendered(messages.watched(m, state, translator(interaction.locale)))
    await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)


class Answers:
    def __init__(
        self,
        ctx: Context,
        reconciler: Callable[[int, str, int], Reconciler],
        quiet: Quiet,
    ) -> None:
        self.ctx = ctx
        self.reconciler = reconciler
        self.quiet = quiet

    def prepare(self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int | None) -> None:
        """Begin drawing the picture a click's answer will show, while its commit is written: the
        board's (a move on a panel shows there), or the seat's own in a DM."""
        if where(interaction) != DM:
            prepare_board(m, state)
        elif seat is not None and m.status != "lobby":
            start_drawing(messages.private(m, state, seat, translator(interaction.locale)))

    async def show(self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int | None) -> None:
        """A committed click's answer on its own surface; every other surface follows in the background
        once the click's scope ends (``Surfaces.answering``, held by the router).
        On the board the answer shows the click's own result even if computers moved since (they
        follow), unless it already shows a newer version. A private surface shows the latest, once
        this person's clicks queued behind this one landed, and its image once everybody's queued
        clicks landed: four seats placing at once each get their final DM in one draw, never an
        in-between one replaced at once."""
        came_from = where(interaction)
        if came_from == PANEL:
            prepare_board(m, state)
        rec = self.reconciler(m.id, came_from, seat if came_from != BOARD and seat is not None else -1)
        with rec.answering():  # from now on: a refused twin of this click leaves the surface to this answer
            try:
                if came_from != BOARD:
                    await self.quiet.wait(m.id, interaction.user.id)
                latest, latest_state = await self.ctx.matches.get(m.id)
                if came_from != BOARD or rec.ahead_of(m.version):
                    m, state = latest, latest_state
                await self.answer(interaction, m, state, seat)
            except discord.HTTPException as err:  # committed all the same: say so; the surface catches up
                log.warning("match %s: the click's answer failed at Discord: %s", m.id, err)
                await errors.reply(interaction, "error.not_shown")

    async def answer(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        state: Any,
        seat: int | None,
        display: str = "",
        *,
        repair: bool = False,
    ) -> bool:
        """Redraw the surface the click came from as the click's answer. With ``repair`` (a refused
        click) only if this process does not know it to show the current content already: False if
        not redrawn."""
        came_from = where(interaction)
        if came_from == BOARD:
            rec = self.reconciler(m.id, BOARD, -1)
            board = await public_board(self.ctx.addresses, m, state, display)
        else:
            assert seat is not None
            rec = self.reconciler(m.id, came_from, seat)
            board = messages.private(m, state, seat, translator(interaction.locale), display)
        await self._recall(interaction, m, rec, came_from, seat)
        # an older board left in the channel (/game board could not remove it) still plays, but what
        # it shows is not what the game's board shows: that one follows through its reconciler
        stray = came_from == BOARD and not await self._the_board(interaction, m)
        if repair and not stray and await self._in_line(interaction, m, rec, came_from, seat, board):
            return False  # it shows the truth already, or a click's answer is bringing it
        if seat is not None and came_from != BOARD:
            rec.choose(m.seats[seat].version, display)
        with rec.answering():
            return await self._answer(interaction, m, rec, came_from, board, seat, tracked=not stray)

    async def _the_board(self, interaction: discord.Interaction, m: MatchRow) -> bool:
        """Whether a board click came from the message stored as the match's board."""
        row = await self.ctx.addresses.board(m)
        clicked = interaction.message.id if interaction.message is not None else None
        return row is None or row.message_id is None or row.message_id == clicked

    async def _recall(
        self, interaction: discord.Interaction, m: MatchRow, rec: Reconciler, came_from: str, seat: int | None
    ) -> None:
        """What the clicked message shows, as stored with its address, if this process has not looked
        at that surface yet (after a restart)."""
        if rec.recalled or interaction.message is None:
            return
        row = await self.ctx.addresses.get(
            m.id, came_from, seat if came_from != BOARD and seat is not None else -1
        )
        if row is not None and row.message_id == interaction.message.id:
            rec.recall(row.shown)

    async def _in_line(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        rec: Reconciler,
        came_from: str,
        seat: int | None,
        board: Board,
    ) -> bool:
        if came_from == PANEL:  # an older panel than the seat's live one is never in line
            row = await self.ctx.addresses.get(m.id, PANEL, seat if seat is not None else -1)
            clicked = interaction.message.id if interaction.message is not None else None
            if row is None or row.message_id != clicked or not panel.live(row, self.ctx.now()):
                return False
        return rec.being_answered or rec.shows(fingerprint(board))

    async def _answer(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        rec: Reconciler,
        came_from: str,
        board: Board,
        seat: int | None,
        *,
        tracked: bool = True,
    ) -> bool:
        """``tracked`` False: the clicked message is not the surface ``rec`` knows, which is left as it is."""
        key = image_id(board)
        same_image = tracked and rec.shows_image(key)
        # the attachment the message has (known only on a surface tracked): one drawn from other
        # inputs that comes out the same is not sent again
        kept = rec.shown.picture if tracked and rec.shown is not None else ""
        whole = isinstance(board.view, discord.ui.LayoutView) or board.draw is None
        # recorded before anything is awaited: a reconciler step starting meanwhile must not draw it
        token = (interaction.token, interaction.message.id) if interaction.message is not None else None
        if tracked:
            rec.answered(shown(m.version, board, kept if same_image else ""), token)
        with_image = not whole and not same_image and await self._drawn_in_time(board, m, came_from)
        # acknowledged already (a deferred update: bot.punctual, a thread's start): edit the message
        edit = (
            interaction.edit_original_response
            if interaction.response.is_done()
            else interaction.response.edit_message
        )
        try:
            if whole:  # a layout refers to its image, and a board without one must drop the old one
                await edit(**(await rendered(board)).kwargs())
            elif with_image:  # (not sent again if the message has that very attachment)
                picture = picture_id(board)
                await edit(**board.kwargs(image=not (kept and picture == kept)))
                rec.pictured(key, picture)
            else:
                await edit(**board.kwargs(image=False))
                if not same_image:
                    m = await self._image(interaction, m, rec, came_from, board, seat, token, kept)
        except discord.HTTPException:
            rec.forget()  # what it shows is unknown now: its reconciler puts it right
            if not interaction.response.is_done():
                raise
            log.warning(
                "match %s: the %s's image did not follow the click's answer; redrawing it", m.id, came_from
            )
            return True
        if rec.ahead_of(m.version):
            # a newer edit landed while this answer was on its way: the answer's older text, or its
            # image sent after the text, may lie over it now; its reconciler draws the surface again
            rec.forget()
        if came_from == PANEL:
            await self._adopt_panel(interaction, m, seat)
        return True

    async def _drawn_in_time(self, board: Board, m: MatchRow, came_from: str) -> bool:
        """Whether the picture goes with the text: one request, not two, and the whole surface a
        Discord round trip sooner. Only if drawn within ``PICTURE_WAIT`` (under way since the commit,
        for a click alone on the board), and on a private surface only while no other click of the
        match is on its way (its image then waits for them, drawn once: ``_image``)."""
        start_drawing(board)  # (or it goes on in the render pool while the text goes out)
        return (came_from == BOARD or self.quiet.still(m.id)) and await drawn_within(board, PICTURE_WAIT)

    async def _image(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        rec: Reconciler,
        came_from: str,
        board: Board,
        seat: int | None,
        token: tuple[str, int] | None,
        kept: str,
    ) -> MatchRow:
        """The image after the answer's text; returns the match it shows. A private surface gets the
        latest (a batch of clicks draws it once, not an in-between one). A picture that comes out as
        the attachment the message has already (``kept``: "" if not known) is not sent again."""
        newer = await self._newer(interaction, m, came_from, seat) if came_from != BOARD else None
        if newer is None:
            picture = picture_id(await rendered(board))
            if not (kept and picture == kept):
                await interaction.edit_original_response(attachments=board.files())
        else:  # the seat moved on meanwhile (a batch of clicks): one image, the latest
            m, board = newer
            rec.answered(shown(m.version, board, ""), token)
            picture = picture_id(await rendered(board))
            await interaction.edit_original_response(**board.kwargs(image=not (kept and picture == kept)))
        rec.pictured(image_id(board), picture)  # (only where it shows these inputs: the same bytes)
        return m

    async def _newer(
        self, interaction: discord.Interaction, m: MatchRow, came_from: str, seat: int | None
    ) -> tuple[MatchRow, Board] | None:
        """A private surface's latest content, if commits that landed (or were queued) since ``m``
        changed it: its answer's image is then drawn once, for the latest, not for an in-between."""
        await self.quiet.wait(m.id)
        latest, state = await self.ctx.matches.get(m.id)
        if latest.version == m.version or seat is None:
            return None
        rec = self.reconciler(m.id, came_from, seat)
        display = rec.display_for(latest.seats[seat].version)  # a choice made before it moved on goes
        board = messages.private(latest, state, seat, translator(interaction.locale), display)
        if rec.shows(fingerprint(board)):
            return None
        return latest, board

    async def _adopt_panel(self, interaction: discord.Interaction, m: MatchRow, seat: int | None) -> None:
        """A click on a panel: that panel is the seat's live one for another 15 minutes; one that had
        stopped following the game says so; another live one is retired."""
        assert seat is not None and interaction.message is not None
        ctx, mid = self.ctx, interaction.message.id
        row = await ctx.addresses.get(m.id, PANEL, seat)
        if row is not None and row.message_id != mid:
            await panel.retire(ctx, row, translator(interaction.locale))
        elif row is not None and not panel.live(row, ctx.now()):
            await interaction.followup.send(translator(interaction.locale)("panel.revived"), ephemeral=True)
        await ctx.addresses.note(
            SurfaceRow(
                m.id, PANEL, seat, interaction.channel_id, mid, interaction.token, m.version, ctx.now()
            )
        )
