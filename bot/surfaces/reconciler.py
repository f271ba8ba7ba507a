"""One reconciler per surface: its updates are serialised, the newest committed state wins, and a
surface already showing what it should is left alone.

``poke()`` says "the match changed"; one worker task per surface then brings it in line by calling
the surface's ``step`` (which reads the latest committed state, so versions asked for while an edit
is in flight coalesce into one). A commit's fan-out pokes with that commit's version: a surface
already known in line at or after it (a click's answer drew it, or a step since) is left alone, so
four clicks landing at once do not have every surface rebuilt four times to find it unchanged. A
step that Discord refused for a reason worth retrying raises ``Retry``, and the worker waits (the
time a rate limit names, else a growing backoff; a new click's interaction token on the surface,
another route, ends the wait) and tries again until it succeeds or ``GIVE_UP_SECONDS`` pass. A
click's answer on the same surface (an interaction response, which is not queued behind a
rate-limited edit) is recorded with ``answered``; if it landed while an edit was in flight, that
edit may have overwritten it, so the worker goes round once more.

What the surface shows is told (``remember``) whenever it changes, to be stored with its address; a
reconciler new in this process (after a restart) starts from what was stored (``recall``)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field

from bot.messages import Board
from bot.surfaces.content import Draft, Shown, draft
from bot.surfaces.send import BACKOFF

log = logging.getLogger(__name__)

GIVE_UP_SECONDS = 15 * 60


class Retry(Exception):
    def __init__(self, after: float | None = None) -> None:
        super().__init__(after)
        self.after = after


@dataclass
class Reconciler:
    """The state of one surface in this process: what it shows, its display-only state (a chosen
    piece, kept while the seat's version stands) and its worker."""

    match_id: int
    kind: str
    seat: int
    step: Callable[[Reconciler], Awaitable[None]]
    now: Callable[[], float]
    on_idle: Callable[[Reconciler], None] = lambda rec: None  # its worker ended
    shown: Shown | None = None
    remember: Callable[[Reconciler], None] = lambda rec: None  # what it shows changed: store it
    recalled: bool = False  # what was stored is known (or what it shows was learnt since)
    display: tuple[int, str] = (-1, "")  # (seat version, display state)
    token: tuple[str, int, float] | None = None  # the latest click on this surface: (token, message, when)
    held_until: float = 0.0  # its usual route is rate limited until then (``now``)
    answers: int = 0
    _answering: int = 0  # clicks' answers on their way to this surface
    checked: int = -1  # the match version this surface is known to be in line with (or newer)
    _asked: int = -1  # the newest commit a fan-out poked about
    put: bytes | None = None  # the fingerprint the running step sent, if it sent anything
    _dirty: bool = False
    _task: asyncio.Task[None] | None = field(default=None, repr=False)
    _nap: asyncio.Task[None] | None = field(default=None, repr=False)  # the wait before trying again
    # held by each step, and by whatever else changes where the surface lives (/game board's repost)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # its worker is at work (True), or waits to try again or ended (False): what it shows is written
    # once no worker is at work (bot.surfaces.quiet)
    at_work: Callable[[bool], None] = lambda working: None

    @property
    def key(self) -> tuple[int, str, int]:
        return self.match_id, self.kind, self.seat

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    def poke(self, version: int | None = None) -> None:
        """Bring the surface in line: after the commit ``version`` (a fan-out), or, without one, look
        again whatever it is known to show (something besides a commit changed it)."""
        if version is not None:
            if version <= self.checked and not self.busy:
                return
            self._asked = max(self._asked, version)
        self._dirty = True
        if not self.busy:
            self._task = asyncio.get_running_loop().create_task(self._work())
            self.at_work(True)  # ended by the task's end, even one cancelled before it began
            self._task.add_done_callback(lambda _: self.at_work(False))

    def recall(self, stored: str | None) -> None:
        """What the surface's stored address says it shows (SurfaceRow.shown), taken once, the first
        time this process looks at the surface: what it learnt itself since is newer."""
        if not self.recalled:
            self.recalled = True
            if self.shown is None:
                self.shown = Shown.decode(stored)

    def _show(self, shown: Shown | None) -> None:
        self.recalled = True
        if shown != self.shown:
            self.shown = shown
            self.remember(self)

    def showed(self, shown: Shown) -> None:
        """The worker's own edit landed (never recorded over a newer answer)."""
        self.put = shown.fingerprint
        if self.shown is None or shown.version >= self.shown.version:
            self._show(shown)
            self.checked = max(self.checked, shown.version)

    def answered(self, shown: Shown, token: tuple[str, int] | None = None) -> None:
        """A click's answer drew this surface (``token``: that interaction's token and the message it
        answered on, usable for 15 minutes)."""
        if self.shown is None or shown.version >= self.shown.version:
            self._show(shown)
            self.checked = max(self.checked, shown.version)
        if token is not None:
            self.via(*token)
        self.answers += 1

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around a click's answer on its way to this surface: meanwhile a refused twin of that click
        leaves the surface to the answer (``being_answered``)."""
        self._answering += 1
        try:
            yield
        finally:
            self._answering -= 1

    @property
    def being_answered(self) -> bool:
        return self._answering > 0

    def replaced(self, shown: Shown, token: tuple[str, int]) -> None:
        """A new message took this surface's place (a panel opened anew): nothing of the old one
        counts, its display state neither; ``shown`` is what the new one shows."""
        self.checked, self.display = -1, (-1, "")
        self._show(None)
        self.answered(shown, token)

    def draft(self, version: int, board: Board) -> Draft | None:
        """``board`` (built from the commit ``version``) as a change to what this surface shows: None
        when it shows that already, or something newer."""
        return draft(self.shown, version, board)

    def shows(self, fingerprint: bytes) -> bool:
        return self.shown is not None and self.shown.fingerprint == fingerprint

    def shows_image(self, image_key: str) -> bool:
        return self.shown is not None and self.shown.image == image_key

    def shows_picture(self, picture: str) -> bool:
        """Its message has that very attachment (picture_id) already: drawn from other inputs, it
        is not sent again. Never for a picture not known."""
        return picture not in ("", "-") and self.shown is not None and self.shown.picture == picture

    def pictured(self, image: str, picture: str) -> None:
        """The image drawn from ``image`` (image_id) is on the message now, as ``picture``: known
        from now on, unless the surface moved on to another image meanwhile."""
        if self.shown is not None and self.shown.image == image and self.shown.picture != picture:
            self._show(dataclasses.replace(self.shown, picture=picture))

    def ahead_of(self, version: int) -> bool:
        """It shows a version newer than ``version`` (known to this process)."""
        return self.shown is not None and self.shown.version > version

    def choose(self, seat_version: int, display: str) -> None:
        """A display-only click's state (a chosen piece), kept while the seat's version stands."""
        self.display = (seat_version, display)

    def display_for(self, seat_version: int) -> str:
        """The display state chosen at ``seat_version``; a choice made before the seat moved on goes."""
        return self.display[1] if self.display[0] == seat_version else ""

    def via(self, token: str, message_id: int) -> None:
        """The latest interaction that reached this surface's message (Discord allows 15 minutes)."""
        self.token = (token, message_id, self.now())
        if self._nap is not None:
            self._nap.cancel()  # a wait for a refused route ends: the click's token is another

    def drop_token(self) -> None:
        """The surface moved to another message: earlier interactions do not reach it."""
        self.token = None

    def fresh_token(self, max_age: float) -> tuple[str, int] | None:
        """(token, message) of the latest interaction on this surface, if younger than ``max_age``."""
        if self.token is None or self.now() - self.token[2] >= max_age:
            return None
        return self.token[0], self.token[1]

    def forget(self) -> None:
        """What it shows is unknown now (an edit failed, or may lie under an older one): look again."""
        self._show(None)
        self.checked = -1
        self.poke()

    def _answered_fp(self) -> bytes | None:
        return self.shown.fingerprint if self.shown is not None else None

    def cancel(self) -> None:
        """Stop its worker (shutdown)."""
        if self.busy and self._task is not None:
            self._task.cancel()

    async def wait(self) -> None:
        """Until the worker is idle (tests, /game board, shutdown)."""
        while self.busy:
            assert self._task is not None
            await asyncio.shield(self._task)

    async def _wait(self, seconds: float) -> None:
        """Before trying again: ``seconds``, or until a click's token arrives (``via``)."""
        self._nap = asyncio.ensure_future(asyncio.sleep(seconds))
        try:
            await asyncio.wait({self._nap})
        finally:
            self._nap.cancel()
            self._nap = None

    async def _work(self) -> None:
        attempt, started = 0, self.now()
        try:
            while self._dirty:
                self._dirty = False
                answers, self.put, asked = self.answers, None, self._asked
                try:
                    async with self.lock:
                        await self.step(self)
                    attempt, started = 0, self.now()
                except Retry as r:
                    if self.now() - started > GIVE_UP_SECONDS:
                        log.warning(
                            "surface %s: Discord kept refusing for %ss; giving up", self.key, GIVE_UP_SECONDS
                        )
                        continue
                    self._dirty = True
                    self.at_work(False)
                    try:
                        await self._wait(
                            r.after if r.after is not None else BACKOFF[min(attempt, len(BACKOFF) - 1)]
                        )
                    finally:
                        self.at_work(True)
                    attempt += 1
                    continue
                if self.answers != answers and self.put is not None and self.put != self._answered_fp():
                    # a click's answer landed while our edit was in flight, which may have buried it
                    self._show(None)
                    self.checked, self._dirty = -1, True
                else:
                    self.checked = max(self.checked, asked)
        except Exception:
            log.exception("surface %s failed", self.key)
        finally:
            self.on_idle(self)
