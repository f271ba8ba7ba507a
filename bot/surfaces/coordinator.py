"""The coordinator: after every commit it works out which of a match's surfaces exist and pokes their
reconcilers, which bring each in line on their own (bot.surfaces.reconciler). It builds the parts and
owns their lifecycle: per-process state is bounded and dropped once a match is closed and its
surfaces are idle. Each kind of surface is its own module, given a small context (bot.surfaces.kind),
never this; a click's answer on its own surface is bot.surfaces.answer's.

It is given what it uses: the matches (engine), the store (surface addresses), a ``Send`` and a clock."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Coroutine, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot import render_pool
from bot.messages import Board
from bot.surfaces import board, panel, thread
from bot.surfaces.addresses import Addresses
from bot.surfaces.answer import Answers
from bot.surfaces.board import BoardSurface
from bot.surfaces.content import Shown, public_board
from bot.surfaces.dm import DmSurface
from bot.surfaces.following import Following
from bot.surfaces.held import HeldNotice
from bot.surfaces.kind import Context, SurfaceKind
from bot.surfaces.languages import Languages
from bot.surfaces.names import BOARD, HELD, PANEL
from bot.surfaces.notice import NoticeSurface
from bot.surfaces.panel import PanelSurface
from bot.surfaces.ping import PingSurface
from bot.surfaces.quiet import Quiet
from bot.surfaces.recap import RecapSurface
from bot.surfaces.reconciler import Reconciler
from bot.surfaces.send import Send
from bot.surfaces.thread import LineSurface
from engine.errors import EngineError
from engine.match import Matches
from engine.store import LIVE, MatchRow, SurfaceRow
from engine.store.base import Store

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Ahead:
    """A click whose surface's new picture is drawn ahead of its commit (``Surfaces.acting``): a task
    it sets off (a timer, a computer's move) inherits it, and is told apart by ``task``."""

    match_id: int
    task: asyncio.Task[Any] | None
    click: discord.Interaction
    seat: int | None


_AHEAD: ContextVar[_Ahead | None] = ContextVar("drawn_ahead", default=None)

# every kind of surface a match may show, brought in line after each commit (one line per kind)
KINDS: tuple[type[SurfaceKind], ...] = (
    BoardSurface,
    DmSurface,
    PanelSurface,
    PingSurface,
    NoticeSurface,
    RecapSurface,
    LineSurface,
    HeldNotice,
)
RECHECK_SECONDS = (1, 2, 3, 5, 10, 30, 60, 120, 300)  # a database that stopped answering is asked again
FINAL = 10_000  # surfaces of closed matches whose last content this process remembers (not redrawn)


class Surfaces:
    def __init__(self, matches: Matches, store: Store, send: Send, now: Callable[[], float]) -> None:
        self.matches = matches
        self._quiet = Quiet()
        self.addresses = Addresses(store, self._quiet.calm)
        self.send = send
        self.now = now
        self.languages = Languages()
        self.ctx = Context(
            matches, self.addresses, send, now, self.languages, self._quiet.wait, self.reconciler
        )
        self.kinds: dict[str, SurfaceKind] = {k.kind: k(self.ctx) for k in KINDS}
        # a timer that cannot fire, said in its channel (client wires it)
        self.held = cast(HeldNotice, self.kinds[HELD])
        self.answers = Answers(self.ctx, self.reconciler, self._quiet)
        self.following = Following(self.changed)  # hears the engine's commits (client subscribes it)
        self._recs: dict[tuple[int, str, int], Reconciler] = {}
        self._closed: set[int] = set()  # matches over: their state here goes once their surfaces are idle
        # what a closed match's surfaces show, kept after its reconcilers went: a later poke (a late
        # click's fan-out, settle) finds them in line instead of drawing and sending them again
        self._final: collections.OrderedDict[tuple[int, str, int], Shown] = collections.OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()

    # ---- reconcilers -----------------------------------------------------------------------------

    def reconciler(self, match_id: int, kind: str, seat: int = -1) -> Reconciler:
        key = (match_id, kind, seat)
        rec = self._recs.get(key)
        if rec is None:
            shown = self._final.pop(key, None)  # a closed match's, poked again
            rec = Reconciler(
                match_id, kind, seat, self.kinds[kind].step, self.now, self._idle, shown, self._remember,
                at_work=self._at_work,
            )  # fmt: skip
            self._recs[key] = rec
        return rec

    def _remember(self, rec: Reconciler) -> None:
        """What the surface shows changed: stored with its address, off the click's path."""
        self.addresses.shown(rec.match_id, rec.kind, rec.seat, rec.shown.encode() if rec.shown else None)

    def _at_work(self, working: bool) -> None:
        """(What surfaces show is written once no worker is at work: Quiet.calm.)"""
        if working:
            self._quiet.begin()
        else:
            self._quiet.end()

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

    # ---- fan-out ---------------------------------------------------------------------------------

    def changed(self, match_id: int, *, force: bool = False) -> None:
        """A commit happened (a click, a timer, another process): bring every surface in line, after
        the caller's own answer (nothing here is awaited by it). ``force``: look at every surface
        again, even one known to show this version (after the database stopped answering)."""
        self._quiet.begin()  # (from now: what the answer noted waits for the surfaces that follow)
        self._spawn(self._fan_out(match_id, force))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _fan_out(self, match_id: int, force: bool) -> None:
        try:
            await self._poke_all(match_id, force)
        finally:
            self._quiet.end()

    async def _poke_all(self, match_id: int, force: bool) -> None:
        try:
            m, _ = await self.matches.get(match_id)
            rows = {(r.kind, r.seat): r for r in await self.addresses.all(match_id)}
        except Exception as err:
            log.warning("match %s: its surfaces were not updated: %r", match_id, err)
            return
        closed = m.status not in LIVE
        for kind in self.kinds.values():
            for seat in kind.seats(m, rows):
                if kind.delay:  # (the recap: off the path of the click that ended the game)
                    asyncio.get_running_loop().call_later(
                        kind.delay, self._due, match_id, kind.kind, seat, closed
                    )
                else:
                    self.reconciler(match_id, kind.kind, seat).poke(None if force else m.version)
        if closed:
            self._closed.add(match_id)
            self._drop_if_done(match_id)  # every surface may have been in line already: no worker ends

    def _due(self, match_id: int, kind: str, seat: int, closed: bool) -> None:
        if not self.ctx.closing:
            if closed:
                self._closed.add(match_id)  # its state here goes again once that surface is out
            self.reconciler(match_id, kind, seat).poke()

    def recheck(self, match_id: int) -> None:
        """A commit the database did not confirm (it stopped answering mid-commit): once it answers
        again, every surface of the match shows what was kept, and once more a little later (a commit
        held in a frozen server lands when it resumes; unchanged surfaces are not sent again)."""
        self._spawn(self._recheck(match_id))

    async def _recheck(self, match_id: int) -> None:
        answered = False
        for wait in RECHECK_SECONDS:
            await asyncio.sleep(wait)
            if self.ctx.closing:
                return
            try:
                await self.matches.get(match_id)
            except EngineError:
                continue
            self.changed(match_id, force=True)
            if answered:
                return
            answered = True

    async def settle(self, match_id: int) -> None:
        """Until every surface of the match is in line (tests, /game board)."""
        self.changed(match_id)
        while True:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
            busy = [r for k, r in self._recs.items() if k[0] == match_id and r.busy]
            if not busy and not self._tasks:
                await self.addresses.written()
                return
            for r in busy:
                await r.wait()

    async def close(self) -> None:
        self.ctx.closing = True
        for rec in list(self._recs.values()):
            rec.cancel()
        await self.addresses.written()

    # ---- what players and commands reach ---------------------------------------------------------

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around a click's or command's commit and answer: the other surfaces follow afterwards."""
        with self._quiet.working(), self.following.answering():
            yield

    @contextlib.contextmanager
    def acting(
        self,
        match_id: int,
        user_id: int,
        *,
        ahead: discord.Interaction | None = None,
        seat: int | None = None,
    ) -> Iterator[None]:
        """Around a click's way to its commit: while any are on their way, surfaces wait (``quiet``).
        ``ahead``: the click (of ``seat``), whose surface's new picture begins drawing while the
        commit is written (``committing``), not once it has landed."""
        drawn = _Ahead(match_id, asyncio.current_task(), ahead, seat) if ahead is not None else None
        token = _AHEAD.set(drawn)
        try:
            with self._quiet.acting(match_id, user_id):
                yield
        finally:
            _AHEAD.reset(token)

    def committing(self, m: MatchRow, state: Any) -> None:
        """A commit is being written (engine.signals.Committing). Made by a click drawn ahead
        (``acting``, in that click's own task: not a computer's move it set off), the new picture of
        the surface it came from begins drawing now, in a drawing process: the click's answer, once
        the commit has landed, finds it under way (the same image key) and shows it 1-2 ms sooner.
        Nothing is shown before the commit lands; a commit that fails leaves a drawing nobody sends."""
        # (drawn in a render thread instead, it would take the interpreter lock from the commit)
        ahead = _AHEAD.get()
        if (
            render_pool.PROCESSES
            and ahead is not None
            and (ahead.match_id, ahead.task) == (m.id, asyncio.current_task())
        ):
            self.answers.prepare(ahead.click, m, state, ahead.seat)

    async def quiet(self, match_id: int, user_id: int | None = None) -> None:
        await self._quiet.wait(match_id, user_id)

    def note_locale(self, interaction: discord.Interaction) -> None:
        self.languages.note(interaction)

    async def board_row(self, m: MatchRow) -> SurfaceRow | None:
        return await self.addresses.board(m)

    async def public_board(self, m: MatchRow, state: Any, display: str = "") -> Board:
        return await public_board(self.addresses, m, state, display)

    async def post_first(self, interaction: discord.Interaction, m: MatchRow, state: Any) -> None:
        """A new match's first message as the answer to the command or click that opened it; the
        other surfaces follow."""
        await board.post_first(self.ctx, self.reconciler(m.id, BOARD), interaction, m, state)
        self.changed(m.id)

    async def post_in(self, m: MatchRow, state: Any, channel_id: int) -> None:
        """A match opened by the bot itself (a tournament's) posts its first board in ``channel_id``
        (its thread); the other surfaces follow."""
        await board.post_new(self.ctx, self.reconciler(m.id, BOARD), m, state, channel_id)
        self.changed(m.id)

    async def repost(self, match_id: int) -> bool:
        """/game board: the board posted anew at the bottom of the channel, the old one removed."""
        await board.repost(self.ctx, self.reconciler(match_id, BOARD), match_id)
        self.changed(match_id)
        return True

    async def open_panel(self, interaction: discord.Interaction, m: MatchRow, state: Any, seat: int) -> None:
        await panel.open_panel(self.ctx, self.reconciler(m.id, PANEL, seat), interaction, m, state, seat)

    async def begin_thread(self, m: MatchRow, state: Any, channel: Any) -> bool:
        rec = self.reconciler(m.id, BOARD)
        moved = await thread.begin(self.ctx, rec, m, state, channel)
        if moved:  # the lobby's interactions reach the line, not the board
            rec.drop_token()
        return moved
