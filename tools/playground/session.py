"""The playground session: the bot on SimCord, its pages, the clock and the languages."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import simcord
import simcord.interactions as sim_interactions
from simcord import SetupError
from simcord.backend.access import can_access_channel

from bot.client import create_bot
from harness.sim import SIM_CLOCK_WATCH, setup_table
from tools.playground.live import Changes, LiveSettle
from tools.playground.pages import Page, PreviewFanout, Revisions, sent_as_seen

log = logging.getLogger("playground")

DEFAULT_PORT = 8765
MEMBERS = ("alice", "bob", "carol")
BOT_NAME = "Stone Age"
TICK_SECONDS = 1.0


@dataclass
class Playground:
    env: Any
    channel: Any
    members: list[Any]
    port: int = 0
    locale: str = "en-US"  # the pages' own language (dates), the server's locale
    pages: list[Page] = field(default_factory=list)
    # Serialises browser actions and clock ticks: SimCord refuses overlapping operations. Both are
    # short (``LiveSettle``): an action waits for the bot's answer only, a tick for nothing.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    fanout: PreviewFanout = field(default_factory=PreviewFanout)
    stack: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack)
    live: LiveSettle | None = None
    changes: Changes | None = None
    on_page: Callable[[Page], None] = lambda page: None  # told of each page opened after the start
    _clock_from: tuple[float, float] | None = None  # (wall, virtual) when the clock started
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)  # (a reference keeps each alive)

    @property
    def games(self) -> Page:
        return self.pages[0]

    async def open_page(self, name: str, channel: Any, viewers: list[Any]) -> Page:
        """Serve ``channel`` as a page: ``#games`` and the DMs on ports from ``port`` on, each
        thread on the next free port after them (any free port when ``port`` is 0)."""
        port = 0 if self.port == 0 else self.port + len(self.pages)
        preview = self.env.preview(channel, viewers=viewers, layout="channel", port=port, locale=self.locale)
        await self.stack.enter_async_context(preview)
        self.fanout.previews.append(preview)
        self.env._preview = self.fanout
        revisions = Revisions(preview)
        revisions.install()
        page = Page(name, preview, revisions)
        for tab in page.tabs():
            revisions.published(tab)
        self.guard_actions(page)
        self.pages.append(page)
        return page

    async def open_threads(self) -> None:
        """A game started in a thread of its own (``thread: True``, ``/game threads``) is played
        there: each new thread of ``#games`` is served as a page of its own, for the members who
        can see it."""
        served = {page.preview.channel.id for page in self.pages}
        for thread in self.channel.threads:
            if thread.id in served:
                continue
            viewers = [m for m in self.members if can_access_channel(self.env, thread.id, m, history=True)]
            if viewers:
                with contextlib.suppress(SetupError):  # (a port taken: no page for it)
                    self.on_page(await self.open_page(f"#{thread.name}", thread, viewers))

    def virtual_now(self) -> float:
        return datetime.fromisoformat(self.env.backend.now_iso()).timestamp()

    async def tick(self, seconds: float | None = None) -> bool:
        """Advance virtual time, by ``seconds`` or else as far as wall time moved since the clock
        started (a skipped tick is caught up, and a timer SimCord fires by itself in real time is
        not counted twice), unless a browser action is running (then skip: it holds the Env).
        Returns whether the tick ran."""
        if self.lock.locked():
            return False
        async with self.lock:
            if seconds is None:
                wall, virtual = self._clock_from or (time.monotonic(), self.virtual_now())
                self._clock_from = (wall, virtual)
                seconds = max(0.0, virtual + (time.monotonic() - wall) - self.virtual_now())
            try:
                await self.env.advance_time(seconds)
            except SetupError:  # an operation we do not serialise (rare): try again next tick
                return False
            await self.open_threads()
        await self._republish()
        return True

    async def _republish(self) -> None:
        """Publish again the pages of the channels the bot changed since the last tick (timers
        firing, the image that follows a click's answer, a DM sent after a click on another page),
        and those whose relative times read differently now ("in 2 minutes" turning to "in 1
        minute", then every second of the last minute). Outside the lock, a tab at a time: a
        click need not wait for the publishing (it may be made on the revision before, see
        ``pages.Revisions``)."""
        changed, at = self.changes.take() if self.changes else set(), self.present_now()
        for page in self.pages:
            dated = page.presented is None or page.revisions.reads_otherwise(page.presented, at)
            if page.preview.channel.id in changed or dated:
                page.presented = at
                await self._publish_tabs(page)

    def present_now(self) -> datetime:
        """Pages show times ("runs out in 2 minutes") against their presentation time, which the
        preview sets once, when the page loads: it is set to the simulated clock's now before a page
        publishes again (else countdowns drift by however long the page has been open)."""
        now = datetime.fromisoformat(self.env.backend.now_iso())
        for page in self.pages:
            page.preview.capture_time = now
        return now

    def guard_actions(self, page: Page) -> None:
        """Wrap the preview's action entry point (what POST /api/action calls): under the shared
        lock (a click waits for a running clock tick instead of failing with "operation
        overlaps"), made on the tab's current revision when it means the same there."""
        original: Callable[..., Awaitable[dict[str, Any]]] = page.preview._action

        async def guarded(context_id: str | None, body: Any) -> dict[str, Any]:
            async with self.lock:
                self.present_now()  # (the action republishes its own pages)
                try:
                    return await original(context_id, page.revisions.current(context_id, body))
                finally:
                    # SimCord republished the acting tab only: the page's other tabs (contexts of
                    # the same preview) show the change right after the answer is sent; other
                    # pages catch up on the next tick
                    task = asyncio.ensure_future(self._publish_tabs(page, but=context_id))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)

        page.preview._action = guarded

    @staticmethod
    async def _publish_tabs(page: Page, but: str | None = None) -> None:
        """Publish the page's tabs again, but one, a tab at a time."""
        await asyncio.sleep(0)
        preview = page.preview
        for tab in page.tabs():  # (not SimCord's own Python-side page: nobody looks at it)
            if preview._active and tab.id != but and tab is not preview._python and tab.id in preview._pages:
                preview._publish(tab, reason="refresh")  # (a publish prunes expired tabs)
                await asyncio.sleep(0)

    @contextlib.asynccontextmanager
    async def driving(self) -> AsyncIterator[None]:
        """For a tool driving SimCord directly (its actors, as the tests do): no clock tick or
        page action meanwhile, and each SimCord operation waits for all of the bot's work, as in
        the tests (a computer's move included)."""
        async with self.lock:
            if self.live is not None:
                self.live.live(False)
            try:
                yield
            finally:
                if self.live is not None:
                    self.live.live(True)

    async def wait_closed(self) -> None:
        """Return when any page is closed from the browser ("End preview session")."""
        waits = [asyncio.ensure_future(page.preview.wait_closed()) for page in self.pages]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def run_clock(self, moving: bool = True) -> None:
        """Virtual time follows wall time, a tick a second, so turn limits and countdowns run
        (``moving=False``: time stands still, and the pages still catch up with the bot)."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick(None if moving else 0.0)
            except Exception:  # keep time running for the session; the error is in the log
                log.exception("clock tick failed")


@contextlib.contextmanager
def member_locales(env: Any, locales: Mapping[int, str], server: str) -> Iterator[None]:
    """Every interaction carries its member's Discord locale and the server's (SimCord sends
    en-US): the bot answers each person in their language and a game's board in the server's."""
    original = sim_interactions.base_payload

    def base_payload(backend: Any, **kw: Any) -> Any:
        record, payload = original(backend, **kw)
        payload["locale"] = locales.get(kw["user_id"], server)
        if "guild_locale" in payload:
            payload["guild_locale"] = server
        return record, payload

    sim_interactions.base_payload = base_payload
    try:
        yield
    finally:
        sim_interactions.base_payload = original


@contextlib.asynccontextmanager
async def open_playground(
    db_path: str,
    *,
    port: int = DEFAULT_PORT,
    rate_limits: bool = True,
    clock: bool = True,
    locale: str = "en-US",
    locales: Mapping[str, str] | None = None,
) -> AsyncIterator[Playground]:
    """The bot on a simulated Discord with its preview pages served; ``port=0`` picks free ports;
    ``clock=False``: virtual time moves only by ``tick(seconds)``.
    ``locale``: the server's Discord locale (and every member's unless ``locales`` names theirs:
    member name -> locale). On exit the pages, the simulated Discord, the matches and the store
    are closed."""
    bot = create_bot(db_path, rate_limits=rate_limits, clock_watch_seconds=SIM_CLOCK_WATCH)
    try:
        # a long session: bot errors are logged as they happen, not re-raised at exit
        async with simcord.run(bot, check_errors=False) as env:
            env.backend.edit_bot_profile(BOT_NAME)  # SimCord calls every bot "TestBot"
            _, channel, members = setup_table(env, len(MEMBERS), MEMBERS)
            by_id = {m.id: (locales or {}).get(m.user.name, locale) for m in members}
            live, changes = LiveSettle(env), Changes(env)
            play = Playground(env, channel, members, port=port, locale=locale, live=live, changes=changes)
            try:
                with member_locales(env, by_id, locale), sent_as_seen():
                    async with play.stack:
                        await play.open_page("#games", channel, members)
                        for m in members:
                            await play.open_page(f"{m.user.name}'s DMs", m.user.dm_channel, [m.user])
                        clock_task = asyncio.create_task(play.run_clock(clock))
                        try:
                            yield play
                        finally:
                            clock_task.cancel()
                            await asyncio.gather(clock_task, return_exceptions=True)
            finally:
                changes.close()
                live.close()
                if env._preview is play.fanout:
                    env._preview = None
    finally:
        await bot.matches.close()
        await bot.store.close()
