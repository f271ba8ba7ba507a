"""A local playground: the real bot against a simulated Discord, played in a browser, no token.

``python -m tools.playground [--db FILE] [--port N]`` (or ``./run playground``) starts the bot on
SimCord with a server, a ``#games`` channel and three members (alice, bob, carol), and serves
SimCord's Discord-like preview pages on 127.0.0.1 only: ``#games`` (switch "viewing as" between
the three members) and each member's DMs with the bot, one port each. A clock advances SimCord's
virtual time with wall time so turn limits and countdowns run. Needs ``simcord[preview]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import simcord
from simcord import SetupError

from bot.client import create_bot
from engine import compute
from harness.sim import SIM_CLOCK_WATCH, setup_table

log = logging.getLogger("playground")

DEFAULT_PORT = 8765
MEMBERS = ("alice", "bob", "carol")
BOT_NAME = "Stone Age"
TICK_SECONDS = 1.0
# an unchanged page publishes again this often, its relative times ("in 2 minutes") brought up to
# date; seldom, as a click on a page that has just published again must be made again
PRESENT_EVERY = 30.0


class _PreviewFanout:
    """Stands in for ``env._preview`` while several previews are open.

    SimCord 3.2.1 allows one preview per Env (a preview is tied to one channel) and keeps it in
    ``env._preview`` only to flag mutations made by that preview's running action. The playground
    needs one preview per channel (``#games`` and each DM), so this forwards the flag to all of
    them (each ignores it unless the action is its own) and reports "closed" so
    ``env.preview()`` admits the next one. Private API: simcord is pinned exactly.
    """

    def __init__(self) -> None:
        self.previews: list[Any] = []
        self._closed = True  # read by env.preview(): "no active preview", let another one open

    def _mark_action_dispatched(self) -> None:
        for preview in self.previews:
            preview._mark_action_dispatched()


@dataclass
class Page:
    """One served preview: its name for people, the preview, and the HTTP request count it last
    published (the clock republishes only pages whose world changed, see ``Playground.tick``)."""

    name: str
    preview: Any
    seen_requests: int = 0
    presented: datetime | None = None  # the simulated time it last published at

    @property
    def url(self) -> str:
        return self.preview.url

    @property
    def port(self) -> int:
        return int(urlsplit(self.url).port or 0)


@dataclass
class Playground:
    env: Any
    channel: Any
    members: list[Any]
    pages: list[Page] = field(default_factory=list)
    # Serialises browser actions and clock ticks: SimCord refuses overlapping operations.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def games(self) -> Page:
        return self.pages[0]

    def _requests(self) -> int:
        return len(self.env.http_requests)

    async def tick(self, seconds: float = TICK_SECONDS) -> bool:
        """Advance virtual time by ``seconds`` unless a browser action is running (then skip this
        tick: the action holds the Env). Returns whether the tick ran."""
        if self.lock.locked():
            return False
        async with self.lock:
            try:
                await self.env.advance_time(seconds)
            except SetupError:  # an operation we do not serialise (rare): try again next tick
                return False
            except TimeoutError:  # bot work outlived SimCord's settle timeout; the time advanced
                log.warning("bot work did not settle within a clock tick", exc_info=True)
            await self._republish_changed()
        return True

    async def _republish_changed(self) -> None:
        """Republish pages whose world changed since they last published: the bot's HTTP requests
        are every change it makes (timers firing, a DM sent after a click on another page).
        Republishing bumps the page revision and a click on an older revision is rejected as
        stale, so unchanged pages are left alone."""
        now, at = self._requests(), self.present_now()
        for page in self.pages:
            dated = page.presented is None or (at - page.presented).total_seconds() >= PRESENT_EVERY
            if page.seen_requests != now or dated:
                with contextlib.suppress(SetupError):  # the page ended its session
                    await page.preview.refresh()
                page.seen_requests, page.presented = now, at

    def present_now(self) -> datetime:
        """Pages show times ("runs out in 2 minutes") against their presentation time, which the
        preview sets once, when the page loads: it is set to the simulated clock's now before a page
        publishes again (else countdowns drift by however long the page has been open), and a page
        whose world did not change publishes again every PRESENT_EVERY seconds all the same."""
        now = datetime.fromisoformat(self.env.backend.now_iso())
        for page in self.pages:
            page.preview.capture_time = now
        return now

    def guard_actions(self, page: Page) -> None:
        """Wrap the preview's action entry point (what POST /api/action calls) in the shared lock,
        so a click waits for a running clock tick instead of failing with "operation overlaps"."""
        original: Callable[..., Awaitable[dict[str, Any]]] = page.preview._action

        async def guarded(context_id: str | None, body: Any) -> dict[str, Any]:
            async with self.lock:
                self.present_now()  # (the action republishes its own pages)
                try:
                    return await original(context_id, body)
                finally:
                    # SimCord republished the acting tab only: the page's other tabs (contexts of
                    # the same preview) show the change now; other pages catch up on the next tick
                    self._publish_other_tabs(page, context_id)
                    page.seen_requests = self._requests()

        page.preview._action = guarded

    @staticmethod
    def _publish_other_tabs(page: Page, context_id: str | None) -> None:
        preview = page.preview
        for tab in tuple(preview._pages.values()):
            if tab.id != context_id and tab.id in preview._pages:  # (a publish prunes expired tabs)
                preview._publish(tab, reason="refresh")

    async def wait_closed(self) -> None:
        """Return when any page is closed from the browser ("End preview session")."""
        waits = [asyncio.ensure_future(page.preview.wait_closed()) for page in self.pages]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()

    async def run_clock(self) -> None:
        """Virtual time follows wall time, one tick a second, so turn limits and countdowns run."""
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                await self.tick()
            except Exception:  # keep time running for the session; the error is in the log
                log.exception("clock tick failed")


def _port(base: int, offset: int) -> int:
    return 0 if base == 0 else base + offset  # 0: every page on a free port (tests)


@contextlib.asynccontextmanager
async def _open_pages(play: Playground, port: int, fanout: _PreviewFanout) -> AsyncIterator[None]:
    """#games for all three members, then each member's DMs (as that user), one port each."""
    targets = [("#games", play.channel, play.members)]
    targets += [(f"{m.user.name}'s DMs", m.user.dm_channel, [m.user]) for m in play.members]
    async with contextlib.AsyncExitStack() as stack:
        for offset, (name, channel, viewers) in enumerate(targets):
            preview = play.env.preview(channel, viewers=viewers, layout="channel", port=_port(port, offset))
            await stack.enter_async_context(preview)
            fanout.previews.append(preview)
            play.env._preview = fanout
            page = Page(name, preview, play._requests())
            play.guard_actions(page)
            play.pages.append(page)
        yield


@contextlib.asynccontextmanager
async def open_playground(
    db_path: str, *, port: int = DEFAULT_PORT, rate_limits: bool = True, clock: bool = True
) -> AsyncIterator[Playground]:
    """The bot on a simulated Discord with its preview pages served; ``port=0`` picks free ports.
    On exit the pages, the simulated Discord, the matches and the store are closed."""
    bot = create_bot(db_path, rate_limits=rate_limits, clock_watch_seconds=SIM_CLOCK_WATCH)
    fanout = _PreviewFanout()
    try:
        # a long session: bot errors are logged as they happen, not re-raised at exit
        async with simcord.run(bot, check_errors=False) as env:
            env.backend.edit_bot_profile(BOT_NAME)  # SimCord calls every bot "TestBot"
            _, channel, members = setup_table(env, len(MEMBERS), MEMBERS)
            play = Playground(env, channel, members)
            try:
                async with _open_pages(play, port, fanout):
                    clock_task = asyncio.create_task(play.run_clock()) if clock else None
                    try:
                        yield play
                    finally:
                        if clock_task is not None:
                            clock_task.cancel()
                            await asyncio.gather(clock_task, return_exceptions=True)
            finally:
                if env._preview is fanout:
                    env._preview = None
    finally:
        await bot.matches.close()
        await bot.store.close()


def banner(play: Playground) -> str:
    ports = [page.port for page in play.pages]
    forwards = " ".join(f"-L {p}:127.0.0.1:{p}" for p in ports)
    lines = [
        "Playground running: the real bot on a simulated Discord (no token, nothing leaves this machine)."
    ]
    lines += [f"  {page.name:<14} {page.url}" for page in play.pages]
    lines += [
        "In #games type /ugah start in the message box and switch 'viewing as' to play every seat;",
        "what the bot sends by DM (Ubongo's workspaces) shows on that member's DMs page.",
        "Served on 127.0.0.1 only. From another machine forward the ports over SSH:",
        f"  ssh {forwards} HOST",
        "then open the same URLs there. Ctrl-C stops.",
    ]
    return "\n".join(lines)


async def _until_stopped(play: Playground, stop: asyncio.Event) -> str:
    """Wait for Ctrl-C (or SIGTERM) or a page's "End preview session"; say which."""
    stopped = asyncio.ensure_future(stop.wait())
    closed = asyncio.ensure_future(play.wait_closed())
    try:
        await asyncio.wait([stopped, closed], return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        closed.cancel()
    return "stopping…" if stop.is_set() else "a page ended its preview session: stopping…"


async def serve(db_path: str, port: int) -> None:
    # Ctrl-C sets an event instead of raising KeyboardInterrupt inside whatever task runs, so the
    # pages, the simulated Discord, the matches and the store close in order, without a traceback.
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        async with open_playground(db_path, port=port) as play:
            print(banner(play), flush=True)
            print(await _until_stopped(play, stop), flush=True)
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)


def start_quiet_worker() -> None:
    """Ctrl-C in a terminal signals the whole process group, so the computer players' worker
    process (engine.compute, spawned on the first computer move) would print a KeyboardInterrupt
    traceback. Start it now with SIGINT ignored, which it inherits; exiting still stops it."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        compute.pool().submit(int).result()
    finally:
        signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="playground", description="The bot on a simulated Discord, played in a browser."
    )
    parser.add_argument("--db", help="SQLite file to keep the games in (default: a throw-away file)")
    parser.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"first port: #games, then alice's, bob's and carol's DMs (default {DEFAULT_PORT})",
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    start_quiet_worker()
    with tempfile.TemporaryDirectory(prefix="playground-") as tmp:
        db_path = args.db or str(Path(tmp) / "playground.db")
        try:
            asyncio.run(serve(db_path, args.port))
        except SetupError as exc:  # e.g. a port already taken
            hint = " (already running? choose other ports with --port N)" if "bind" in str(exc) else ""
            print(f"playground: {exc}{hint}", file=sys.stderr)
            return 1
    print("stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
