"""The coordinator: after every commit it works out which of a match's surfaces exist and pokes their
reconcilers, which bring each in line on their own (bot.surfaces.reconciler). It also answers a click
on the surface the click came from, in the click's own interaction response, and tells that
surface's reconciler what it now shows.

It is given what it uses: the matches (engine), the store (surface addresses), a ``Send`` and a clock.
Per-process state (reconcilers, addresses, languages) is bounded and dropped when a match closes."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import discord

from bot import messages
from bot.i18n import Translator, translator
from bot.messages import Board
from bot.render_pool import rendered, start_drawing
from bot.surfaces import board as board_kind
from bot.surfaces import dm, held, panel, ping, recap, thread
from bot.surfaces.addresses import Addresses
from bot.surfaces.content import Shown, fingerprint
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.send import Send
from engine.errors import EngineError
from engine.match import Matches
from engine.store import LIVE, MatchRow, SurfaceRow
from engine.store.base import Store

log = logging.getLogger(__name__)

LOCALES = 10_000  # users whose last click's language this process remembers
QUIET_SECONDS = 0.5  # a surface waits at most this long for clicks on their way to a commit
RECHECK_SECONDS = (1, 2, 3, 5, 10, 30, 60, 120, 300)  # a database that stopped answering is asked again
FINAL = 10_000  # surfaces of closed matches whose last content this process remembers (not redrawn)
# where a click came from
BOARD, DM, PANEL = board_kind.KIND, dm.KIND, panel.KIND


class Surfaces:
    def __init__(self, matches: Matches, store: Store, send: Send, now: Callable[[], float]) -> None:
        self.matches = matches
        self.addresses = Addresses(store)
        self.send = send
        self.now = now
        self.held = held.HeldNotice(self)  # a timer that cannot fire, said in its channel (client wires it)
        self.kinds = {
            k.kind: k
            for k in (
                board_kind.BoardSurface(self),
                dm.DmSurface(self),
                panel.PanelSurface(self),
                ping.PingSurface(self),
                recap.RecapSurface(self),
                thread.LineSurface(self),
                self.held,
            )
        }
        self._recs: dict[tuple[int, str, int], Reconciler] = {}
        self._closed: set[int] = set()  # matches over: their state here goes once their surfaces are idle
        # what a closed match's surfaces show, kept after its reconcilers went: a later poke (a late
        # click's fan-out, settle) finds them in line instead of drawing and sending them again
        self._final: collections.OrderedDict[tuple[int, str, int], Shown] = collections.OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self._locales: collections.OrderedDict[int, str] = collections.OrderedDict()
        self._closing = False
        # (match, user) -> that person's clicks on their way to the match's commit (a few at most)
        self._acting: collections.Counter[tuple[int, int]] = collections.Counter()
        self._calm = asyncio.Event()  # set whenever a match has none left

    # ---- reconcilers -----------------------------------------------------------------------------

    def reconciler(self, match_id: int, kind: str, seat: int = -1) -> Reconciler:
        key = (match_id, kind, seat)
        rec = self._recs.get(key)
        if rec is None:
            rec = Reconciler(match_id, kind, seat, self.kinds[kind].step, self.now, self._idle)
            rec.shown = self._final.pop(key, None)
            self._recs[key] = rec
        return rec

    def _idle(self, rec: Reconciler) -> None:
        self._drop_if_done(rec.match_id, rec)

    def _drop_if_done(self, mid: int, finishing: Reconciler | None = None) -> None:
        """A closed match's state here goes once none of its surfaces is busy (``finishing``: the one
        whose worker is ending now)."""
        if mid in self._closed and not any(
            r.busy for k, r in self._recs.items() if k[0] == mid and r is not finishing
        ):
            for key in [k for k in self._recs if k[0] == mid]:
                shown = self._recs.pop(key).shown
                if shown is not None:
                    self._final[key] = shown
            while len(self._final) > FINAL:
                self._final.popitem(last=False)
            self._closed.discard(mid)
            self.addresses.forget(mid)

    def changed(self, match_id: int, *, force: bool = False) -> None:
        """A commit happened (a click, a timer, another process): bring every surface in line, after
        the caller's own answer (nothing here is awaited by it). ``force``: look at every surface
        again, even one known to show this version (after the database stopped answering)."""
        task = asyncio.get_running_loop().create_task(self._fan_out(match_id, force))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fan_out(self, match_id: int, force: bool) -> None:
        try:
            m, _ = await self.matches.get(match_id)
            rows = {(r.kind, r.seat): r for r in await self.addresses.all(match_id)}
        except Exception as err:
            log.warning("match %s: its surfaces were not updated: %r", match_id, err)
            return
        for kind in self.kinds.values():
            for seat in kind.seats(m, rows):
                if kind.kind == recap.KIND:  # off the path of the click that ended the game
                    asyncio.get_running_loop().call_later(recap.DELAY_SECONDS, self._recap_due, match_id)
                else:
                    self.reconciler(match_id, kind.kind, seat).poke(None if force else m.version)
        if m.status not in LIVE:
            self._closed.add(match_id)
            self._drop_if_done(match_id)  # every surface may have been in line already: no worker ends

    def recheck(self, match_id: int) -> None:
        """A commit the database did not confirm (it stopped answering mid-commit): once it answers
        again, every surface of the match shows what was kept, and once more a little later (a commit
        held in a frozen server lands when it resumes; unchanged surfaces are not sent again)."""
        task = asyncio.get_running_loop().create_task(self._recheck(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _recheck(self, match_id: int) -> None:
        answered = False
        for wait in RECHECK_SECONDS:
            await asyncio.sleep(wait)
            if self._closing:
                return
            try:
                await self.matches.get(match_id)
            except EngineError:
                continue
            self.changed(match_id, force=True)
            if answered:
                return
            answered = True

    def _recap_due(self, match_id: int) -> None:
        if not self._closing:
            self._closed.add(match_id)  # its state here goes again once the recap is out
            self.reconciler(match_id, recap.KIND).poke()

    async def settle(self, match_id: int) -> None:
        """Until every surface of the match is in line (tests, /game board)."""
        self.changed(match_id)
        while True:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            busy = [r for k, r in self._recs.items() if k[0] == match_id and r.busy]
            if not busy and not self._tasks:
                return
            for r in busy:
                await r.wait()

    async def close(self) -> None:
        self._closing = True
        for rec in list(self._recs.values()):
            if rec.busy and rec._task is not None:
                rec._task.cancel()

    # ---- what surfaces show ----------------------------------------------------------------------

    @contextlib.contextmanager
    def acting(self, match_id: int, user_id: int) -> Iterator[None]:
        """Around a click's way to its commit: while any are on their way, surfaces wait (``quiet``)."""
        pair = (match_id, user_id)
        self._acting[pair] += 1
        try:
            yield
        finally:
            self._acting[pair] -= 1
            if not self._acting[pair]:
                del self._acting[pair]
            self._calm.set()  # whoever waits checks again

    async def quiet(self, match_id: int, user_id: int | None = None) -> None:
        """Let the clicks already on their way to this match's commit land first (a burst of
        simultaneous clicks): a surface is then drawn once, at the last of them, instead of once per
        commit. With ``user_id`` only that person's clicks are waited for: a private surface's text
        answer then goes out after its own commit, not after those of three others placing at once
        (its image still waits for all: one image, the latest). Bounded: a steady stream of clicks
        delays nobody for long."""
        deadline = asyncio.get_running_loop().time() + QUIET_SECONDS
        lock = self.matches.lock(match_id)

        def busy() -> bool:
            if user_id is not None:
                return (match_id, user_id) in self._acting
            return lock.locked() or any(match == match_id for match, _ in self._acting)

        while busy():
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return
            self._calm.clear()
            if user_id is None and lock.locked():
                async with lock:
                    continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._calm.wait(), left)

    async def board_row(self, m: MatchRow) -> SurfaceRow | None:
        return await self.addresses.get(m.id, BOARD)

    async def public_board(self, m: MatchRow, state: Any, display: str = "") -> Board:
        """The public message of a committed match: its lobby, a lobby that closed, or the game."""
        tr = messages.tr_for(m)
        if m.status == "lobby":
            return messages.lobby(m, tr)
        if state is None:
            return messages.closed_lobby(m, tr)
        return messages.game(m, state, display, closed=await self.addresses.closed_dms(m))

    def prepare_board(self, m: MatchRow, state: Any) -> None:
        """Start drawing the board's new picture now: a move made on a panel shows on the board
        too, and its reconciler, coming after the panel's answer, finds the picture under way."""
        if state is not None and m.status != "lobby":
            start_drawing(messages.game_picture(m, state))

    def note_locale(self, interaction: discord.Interaction) -> None:
        self._locales[interaction.user.id] = str(interaction.locale)
        self._locales.move_to_end(interaction.user.id)
        while len(self._locales) > LOCALES:
            self._locales.popitem(last=False)

    def private_tr(self, m: MatchRow, user_id: int | None) -> Translator:
        """The language of a seat's private surfaces: its player's last click here, else the language
        they had when they took the seat (stored), else the match's."""
        known = self._locales.get(user_id) if user_id is not None else None
        seated = next((s.locale for s in m.seats if s.user_id == user_id and s.locale), None)
        return translator(known or seated) if known or seated else messages.tr_for(m)

    async def by_token(self, rec: Reconciler, board: Board, *, image: bool) -> bool:
        """Reach a surface through its latest click's interaction (while Discord refuses the usual
        route): True if that worked."""
        if rec.token is None or self.now() - rec.token[2] >= panel.TOKEN_SECONDS:
            return False
        try:
            await self.send.edit_by_token(rec.token[0], rec.token[1], board, image=image)
        except discord.HTTPException as err:
            log.info("surface %s: the interaction route failed too: %s", rec.key, err)
            return False
        return True

    # ---- answering a click on the surface it came from ------------------------------------------

    @staticmethod
    def where(interaction: discord.Interaction) -> str:
        """The kind of surface a click came from: a DM, an ephemeral panel, or the public board."""
        if interaction.guild_id is None:
            return DM
        message = interaction.message
        if message is not None and message.flags.ephemeral:
            return PANEL
        return BOARD

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
        """Redraw the surface the click came from as the click's answer: text and controls at once,
        the image right after (the next player can act meanwhile). With ``repair`` (a refused click)
        only if this process does not know it to show the current content already: False if not
        redrawn."""
        where = self.where(interaction)
        if where == BOARD:
            rec = self.reconciler(m.id, BOARD)
            board = await self.public_board(m, state, display)
        else:
            assert seat is not None
            rec = self.reconciler(m.id, where, seat)
            board = messages.private(m, state, seat, translator(interaction.locale), display)
        if repair and await self._in_line(interaction, m, rec, where, seat, board):
            return False  # it shows the truth already, or a click's answer is bringing it
        if seat is not None and where != BOARD:
            rec.display = (m.seats[seat].version, display)
        rec.answering += 1
        try:
            return await self._answer(interaction, m, rec, where, board, seat)
        finally:
            rec.answering -= 1

    async def _in_line(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        rec: Reconciler,
        where: str,
        seat: int | None,
        board: Board,
    ) -> bool:
        if where == PANEL:  # an older panel than the seat's live one is never in line
            row = await self.addresses.get(m.id, PANEL, seat if seat is not None else -1)
            clicked = interaction.message.id if interaction.message is not None else None
            if row is None or row.message_id != clicked or not panel.live(row, self.now()):
                return False
        return bool(rec.answering) or (rec.shown is not None and rec.shown.fingerprint == fingerprint(board))

    async def _answer(
        self,
        interaction: discord.Interaction,
        m: MatchRow,
        rec: Reconciler,
        where: str,
        board: Board,
        seat: int | None,
    ) -> bool:
        key = board.image_key
        same_image = rec.shown is not None and rec.shown.image == key and not interaction.response.is_done()
        whole = isinstance(board.view, discord.ui.LayoutView) or board.draw is None
        # recorded before it is sent: a reconciler step starting meanwhile must not draw it again
        token = (interaction.token, interaction.message.id) if interaction.message is not None else None
        rec.answered(Shown(m.version, fingerprint(board), key), token)
        try:
            if interaction.response.is_done():  # answered already (an error reply): edit the message itself
                await interaction.edit_original_response(**(await rendered(board)).kwargs())
            elif whole:  # a layout refers to its image, and a board without one must drop the old one
                await interaction.response.edit_message(**(await rendered(board)).kwargs())
            else:
                if not same_image:
                    start_drawing(board)  # under way in the render pool while the text goes out
                await interaction.response.edit_message(**board.kwargs(image=False))
                if not same_image:
                    newer = await self._newer(interaction, m, where, seat) if where != BOARD else None
                    if newer is None:
                        await interaction.edit_original_response(attachments=(await rendered(board)).files())
                    else:  # the seat moved on meanwhile (a batch of clicks): one image, the latest
                        m, board = newer
                        rec.answered(Shown(m.version, fingerprint(board), board.image_key), token)
                        await interaction.edit_original_response(**(await rendered(board)).kwargs())
        except discord.HTTPException:
            rec.forget()  # what it shows is unknown now: its reconciler puts it right
            if not interaction.response.is_done():
                raise
            log.warning(
                "match %s: the %s's image did not follow the click's answer; redrawing it", m.id, where
            )
            return True
        if rec.shown is not None and rec.shown.version > m.version:
            # a newer edit landed while this answer was on its way: the answer's older text, or its
            # image sent after the text, may lie over it now; its reconciler draws the surface again
            rec.forget()
        if where == PANEL:
            await self._adopt_panel(interaction, m, seat)
        return True

    async def _newer(
        self, interaction: discord.Interaction, m: MatchRow, where: str, seat: int | None
    ) -> tuple[MatchRow, Board] | None:
        """A private surface's latest content, if commits that landed (or were queued) since ``m``
        changed it: its answer's image is then drawn once, for the latest, not for an in-between."""
        await self.quiet(m.id)
        latest, state = await self.matches.get(m.id)
        if latest.version == m.version or seat is None:
            return None
        rec = self.reconciler(m.id, where, seat)
        kept, display = rec.display
        display = (
            display if kept == latest.seats[seat].version else ""
        )  # a choice made before it moved on goes
        board = messages.private(latest, state, seat, translator(interaction.locale), display)
        if rec.shown is not None and rec.shown.fingerprint == fingerprint(board):
            return None
        return latest, board

    async def _adopt_panel(self, interaction: discord.Interaction, m: MatchRow, seat: int | None) -> None:
        """A click on a panel: that panel is the seat's live one for another 15 minutes; one that had
        stopped following the game says so; another live one is retired."""
        assert seat is not None and interaction.message is not None
        row = await self.addresses.get(m.id, PANEL, seat)
        mid = interaction.message.id
        if row is not None and row.message_id != mid:
            await self.kinds[PANEL].retire(row, translator(interaction.locale))  # type: ignore[attr-defined]
        elif row is not None and not panel.live(row, self.now()):
            await interaction.followup.send(translator(interaction.locale)("panel.revived"), ephemeral=True)
        await self.addresses.note(
            SurfaceRow(
                m.id, PANEL, seat, interaction.channel_id, mid, interaction.token, m.version, self.now()
            )
        )

    async def open_panel(self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int) -> None:
        """The hand button (or /game hand): the seat's private surface as an ephemeral reply, live for
        15 minutes; the seat's previous panel is retired."""
        tr = translator(interaction.locale)
        board = await rendered(messages.private(m, state, seat, tr))
        response = await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)
        mid = response.message_id if response is not None else None
        if mid is None:
            mid = (await interaction.original_response()).id
        old = await self.addresses.get(m.id, PANEL, seat)
        await self.addresses.note(
            SurfaceRow(
                m.id, PANEL, seat, interaction.channel_id, mid, interaction.token, m.version, self.now()
            )
        )
        rec = self.reconciler(m.id, PANEL, seat)
        rec.shown, rec.checked, rec.display = None, -1, (-1, "")
        rec.answered(Shown(m.version, fingerprint(board), board.image_key), (interaction.token, mid))
        if old is not None and old.message_id != mid:
            await self.kinds[PANEL].retire(old, tr)  # type: ignore[attr-defined]

    async def post_first(self, interaction: discord.Interaction, m: MatchRow, state: Any) -> None:
        """A new match's first message (a lobby, a game started at once, a rematch offer) as the
        answer to the command or click that opened it; the other surfaces follow."""
        board = await rendered(await self.public_board(m, state))
        try:
            response = await interaction.response.send_message(**board.kwargs(new=True))
            message_id = response.message_id
            if message_id is None:
                message_id = (await interaction.original_response()).id
        except discord.HTTPException:
            # nobody saw it: close it, or an invisible lobby (or game) would block the channel
            await self.matches.discard_lobby(m.id)
            raise
        await self.adopt_board(m, m.channel_id, message_id, interaction.token)
        self.reconciler(m.id, BOARD).showed(Shown(m.version, fingerprint(board), board.image_key))
        self.changed(m.id)

    async def adopt_board(
        self, m: MatchRow, channel_id: int, message_id: int, token: str | None = None
    ) -> None:
        """The public message a command or click just posted for a new match."""
        await self.addresses.put(SurfaceRow(m.id, BOARD, -1, channel_id, message_id, at=self.now()))
        rec = self.reconciler(m.id, BOARD)
        if token is not None:
            rec.token = (token, message_id, self.now())

    async def repost(self, match_id: int) -> bool:
        """/game board: the board posted anew at the bottom of the channel, the old one removed."""
        rec = self.reconciler(match_id, BOARD)
        async with rec.lock:  # never while a step edits the board it replaces
            return await self._repost(rec, match_id)

    async def _repost(self, rec: Reconciler, match_id: int) -> bool:
        m, state = await self.matches.get(match_id)
        old = await self.board_row(m)
        board = await rendered(await self.public_board(m, state))
        mid = await self.send.post(m.channel_id, board)
        try:
            await self.addresses.put(SurfaceRow(m.id, BOARD, -1, m.channel_id, mid, at=self.now()))
        except Exception:
            # the database cannot remember it (disk full, busy): take it down again, or a second board
            # with live controls would stay, and clicks on it would never be shown
            with contextlib.suppress(discord.HTTPException):
                await self.send.delete(m.channel_id, mid)
            raise
        rec.showed(Shown(m.version, fingerprint(board), board.image_key))
        rec.token = None
        if old is not None and old.message_id is not None:
            try:
                await self.send.delete(old.channel_id or m.channel_id, old.message_id)
            except discord.HTTPException as err:
                log.info("match %s: the old board was not deleted: %s", m.id, err)
        self.changed(match_id)
        return True

    async def begin_thread(self, m: MatchRow, state: Any, channel: Any) -> bool:
        moved = await thread.begin(self, m, state, channel)
        if moved:
            self.reconciler(
                m.id, BOARD
            ).token = None  # the lobby's interactions reach the line, not the board
        return moved

    async def watch(self, interaction: discord.Interaction, m: MatchRow, state: Any) -> None:
        """A spectator's copy of the board, in their language, without joining (ephemeral)."""
        board = await rendered(messages.watched(m, state, translator(interaction.locale)))
        await interaction.response.send_message(**board.kwargs(new=True), ephemeral=True)
